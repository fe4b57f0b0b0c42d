"""Random XLA tiled layouts for the tests of the xla family and of its conversions (tests/xla, tests/convert)."""

from unilayout.xla import XlaLayout


def random_layout(rng, dtype=None):
    """An ``XlaLayout`` of rank 1..3 (dims 1..9), a random minor-to-major order and 0..2 tile levels of 1..4.

    ``dtype`` None draws one of f32, bf16 and s8 (last, so a fixed dtype draws the same layouts otherwise).
    """
    r = rng.randint(1, 3)
    dims = tuple(rng.randint(1, 9) for _ in range(r))
    mtm = list(range(r))
    rng.shuffle(mtm)
    tiles, width = [], r
    for _ in range(rng.randint(0, 2)):
        k = rng.randint(1, width)
        tiles.append(tuple(rng.choice([1, 2, 3, 4]) for _ in range(k)))
        width += k
    return XlaLayout(rng.choice(["f32", "bf16", "s8"]) if dtype is None else dtype, dims, tuple(mtm), tuple(tiles))
