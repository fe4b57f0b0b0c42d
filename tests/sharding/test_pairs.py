"""Every pair of vocabularies on random meshes, shapes and placements: A -> Sharding -> B -> Sharding is the same.

Where B cannot say A's sharding, the refusal must name a reason from the documented list.
"""

import random

import numpy as np

from unilayout import NotRepresentableError
from unilayout.sharding import from_dtensor, from_ttnn, parse_hlo, parse_shardy, to_dtensor, to_hlo, to_shardy, to_ttnn

MESHES = [(2,), (4,), (8,), (2, 2), (2, 4), (4, 2), (2, 2, 2)]
REASONS = ("split", "separate boxes", "holds nothing", "partial", "pieces", "explicit mesh transpose",
           "moves the data", "same number of devices", "held as")


def random_sharding(rng):
    ms = rng.choice(MESHES)
    rank = rng.randint(1, 3)
    even = rng.random() < 0.6
    texts = []
    for _ in ms:
        k = rng.random()
        texts.append("Replicate()" if k < 0.3 else "Partial()" if k < 0.35 else f"Shard({rng.randrange(rank)})")
    if even:
        shape = [rng.randint(1, 3) for _ in range(rank)]
        for j, t in enumerate(texts):
            if t.startswith("Shard"):
                shape[int(t[6:-1])] *= ms[j]
        shape = tuple(shape)
    else:
        shape = tuple(rng.randint(1, 9) for _ in range(rank))
    return ms, texts, shape, from_dtensor(texts, ms, shape)


def _text_round_trips(s, ms):
    out = {}
    for name, go in [("hlo", lambda: parse_hlo(to_hlo(s), s.shape, s.num_devices)),
                     ("shardy", lambda: parse_shardy(*to_shardy(s), s.shape)),
                     ("dtensor", lambda: from_dtensor(to_dtensor(s, ms, as_text=True), ms, s.shape)),
                     ("ttnn", lambda: from_ttnn(to_ttnn(s, ms), ms, s.shape))]:
        try:
            out[name] = go()
        except NotRepresentableError as e:
            assert any(r in str(e) for r in REASONS), (name, str(e))
            out[name] = None
    return out


def test_dtensor_to_every_text_and_back():
    rng = random.Random(21)
    exact = {"hlo": 0, "shardy": 0, "dtensor": 0, "ttnn": 0}
    for _ in range(300):
        ms, texts, shape, s = random_sharding(rng)
        for name, back in _text_round_trips(s, ms).items():
            if back is not None:
                assert back == s, (name, ms, texts, shape)
                exact[name] += 1
    assert exact["dtensor"] == 300 and min(exact.values()) > 60, exact


def test_jax_against_every_vocabulary(jax_devices):
    from jax.sharding import Mesh

    from unilayout.sharding import from_jax, to_jax
    devs = jax_devices
    rng = random.Random(22)
    for _ in range(200):
        ms, texts, shape, s = random_sharding(rng)
        n = int(np.prod(ms))
        mesh = Mesh(np.array(devs[:n]).reshape(ms), tuple("abc"[: len(ms)]))  # device id == rank here
        try:
            named = to_jax(s, mesh)
        except NotRepresentableError as e:
            assert any(r in str(e) for r in REASONS), str(e)
            continue
        # JAX's own answer for the spec we chose is the DTensor sharding, device by device
        jmap = named.devices_indices_map(shape)
        for d, idx in jmap.items():
            box = tuple(sl.indices(k)[:2] for sl, k in zip(idx, shape))
            assert s.boxes(d.id) == ((box,) if all(a < z for a, z in box) else ()), (texts, shape, named.spec)
        assert from_jax(named, shape) == s
