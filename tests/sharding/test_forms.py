"""sharding.forms: one sharding in each vocabulary that can say it, or why not."""

import numpy as np
import pytest

from unilayout import NotRepresentableError
from unilayout.sharding import parse_hlo, to_dtensor, to_jax, to_shardy, to_ttnn
from unilayout.sharding._meshes import plain
from unilayout.sharding.family import SHARDING
from unilayout.sharding.forms import FORMS, conversions, jax_text, to_text
from unilayout.sharding.hlo import tile_assignment


def test_every_vocabulary_writes_the_same_sharding():
    s = parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
    got = conversions(s, None)
    assert list(got) == ["hlo", "shardy", "dtensor", "ttnn", "jax"]
    assert got["dtensor"] == "Shard(0), Replicate()  on mesh 2x2" and got["jax"] == jax_text(s)
    assert [SHARDING.form(s, f) for f in FORMS[:3]] == [got["hlo"], got["shardy"], got["dtensor"]]
    assert to_text(s, "ttnn-mesh", None) == got["ttnn"]


def test_a_vocabulary_that_cannot_say_it_gives_the_reason():
    s = parse_hlo("{devices=[2]1,0}", (4,))
    assert conversions(s, None, "dtensor")["dtensor"] == conversions(s, None)["dtensor"]
    with pytest.raises(NotRepresentableError):
        to_text(parse_hlo("{devices=[4]<=[4]}", (5,)), "jax", (4,))


def _factorizations(n):
    """Every mesh shape (sizes > 1, in order) of n devices."""
    if n == 1:
        return [()]
    return [(k,) + rest for k in range(2, n + 1) if n % k == 0 for rest in _factorizations(n // k)]


def _torch_sharding(shape, mesh, texts):
    """The Sharding torch's own DTensor arithmetic gives placements ``texts`` on ``mesh`` (ranks row-major)."""
    import numpy as np
    from torch.distributed.tensor import Replicate, Shard
    from torch.distributed.tensor._utils import _compute_local_shape_and_global_offset

    from unilayout.sharding import Sharding
    pls = [Replicate() if t == "Replicate()" else Shard(int(t[6:-1])) for t in texts]
    boxes = {}
    for r, coord in enumerate(np.ndindex(*mesh)):
        local, off = _compute_local_shape_and_global_offset(shape, mesh, list(coord), pls)
        boxes[r] = [tuple((o, o + k) for o, k in zip(off, local))] if all(local) else []
    return Sharding(shape, boxes)


def _dtensor_reference(s):
    """Some (mesh, placements) whose torch boxes are ``s``'s (every mesh, every Shard/Replicate choice), or None."""
    import itertools
    choices = ["Replicate()"] + [f"Shard({d})" for d in range(s.rank)]
    for mesh in _factorizations(s.num_devices) or [(1,)]:
        for texts in itertools.product(choices, repeat=len(mesh)):
            if _torch_sharding(s.shape, mesh, texts) == s:
                return mesh, texts
    return None


def _check_printed_placements(s, line):
    from unilayout.sharding import from_dtensor
    texts, mesh = line.split("  on mesh ")
    mesh = tuple(int(k) for k in mesh.split("x"))
    texts = [t.strip() + ")" for t in texts.split("),")]
    texts[-1] = texts[-1][:-1]
    if any(t.startswith("_Strided") for t in texts):  # torch's offsets do not describe a strided piece
        assert from_dtensor(texts, mesh, s.shape) == s
    else:
        assert _torch_sharding(s.shape, mesh, texts) == s, line


def test_dtensor_form_of_the_issue_sharding_matches_torch():
    pytest.importorskip("torch", reason="torch's DTensor arithmetic is the reference")
    s = parse_hlo("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}", (784, 16384))
    line = to_text(s, "dtensor", None)
    assert line == "Replicate(), Shard(0)  on mesh 2x4"
    _check_printed_placements(s, line)


def test_every_hlo_sharding_dtensor_can_say_gets_its_placements():
    """Random HLO iota shardings over 8 devices: placements exist for torch <=> the dtensor form finds them."""
    pytest.importorskip("torch", reason="torch's DTensor arithmetic is the reference")
    import itertools
    import random
    rng = random.Random(11)
    found = 0
    for _case in range(70):
        rank = rng.randint(1, 2)
        n = rng.choice([2, 4, 8])
        mesh = rng.choice(_factorizations(n))
        perm = list(range(len(mesh)))
        rng.shuffle(perm)
        # group the permuted iota dims into the tensor dims and the copies
        cuts = sorted(rng.randint(0, len(mesh)) for _ in range(rank))
        groups = [perm[a:b] for a, b in zip([0] + cuts, cuts + [len(mesh)])]
        tiles = [int(np.prod([mesh[j] for j in g])) for g in groups]
        reps = tiles[-1]
        dims = tiles[:-1] + ([reps] if reps > 1 else [])
        order = list(itertools.chain(*groups))
        body = f"<=[{','.join(map(str, mesh))}]T({','.join(map(str, order))})"
        text = f"{{devices=[{','.join(map(str, dims))}]{body}{' last_tile_dim_replicate' if reps > 1 else ''}}}"
        shape = tuple(rng.choice([t, 2 * t, t + 1, 7]) for t in tiles[:-1])
        s = parse_hlo(text, shape)
        ref = _dtensor_reference(s)
        try:
            line = to_text(s, "dtensor", None)
        except NotRepresentableError as e:
            assert ref is None, f"{text} {shape}: torch places it as {ref}, we say {e}"
            continue
        found += 1
        _check_printed_placements(s, line)
    assert found > 30


def test_any_device_order_gets_placements_on_a_device_mesh_torch_agrees_with():
    """Shuffled HLO device lists: placements on a DeviceMesh of those ranks, boxes as torch computes them."""
    pytest.importorskip("torch", reason="torch's DTensor arithmetic is the reference")
    import ast
    import random

    from torch.distributed.tensor import Replicate, Shard
    from torch.distributed.tensor._utils import _compute_local_shape_and_global_offset

    from unilayout.sharding import Sharding
    rng = random.Random(5)
    on_device_mesh = 0
    for _ in range(40):
        rank = rng.randint(1, 2)
        tiles = [rng.choice([1, 2, 4]) for _ in range(rank)]
        reps = rng.choice([1, 2])
        n = int(np.prod(tiles)) * reps
        ids = list(range(n))
        rng.shuffle(ids)
        dims = tiles + ([reps] if reps > 1 else [])
        text = (f"{{devices=[{','.join(map(str, dims))}]{','.join(map(str, ids))}"
                f"{' last_tile_dim_replicate' if reps > 1 else ''}}}")
        shape = tuple(rng.choice([t, 3 * t, t + 1]) for t in tiles)
        s = parse_hlo(text, shape)
        line = to_text(s, "dtensor", None)  # never 'not representable': DTensor can say every tile sharding
        if "DeviceMesh" not in line:
            _check_printed_placements(s, line)
            continue
        on_device_mesh += 1
        texts, mesh = line.split("  on DeviceMesh('cpu', ")
        ranks = np.asarray(ast.literal_eval(mesh[:-1]))
        pls = [Replicate() if t == "Replicate()" else Shard(int(t[6:-1])) for t in texts.split(", ")]
        boxes = {}
        for coord in np.ndindex(*ranks.shape):
            local, off = _compute_local_shape_and_global_offset(shape, ranks.shape, list(coord), pls)
            boxes[int(ranks[coord])] = [tuple((o, o + k) for o, k in zip(off, local))] if all(local) else []
        assert Sharding(shape, boxes) == s, (text, shape, line)
    assert on_device_mesh > 20


def test_placements_with_partial_sums_get_their_dtensor_form():
    """A DTensor with Partial() is said in DTensor again (it was refused: 'HLO has no partial sums')."""
    import random

    from unilayout.sharding import from_dtensor
    rng = random.Random(3)
    for _ in range(60):
        mesh = rng.choice([(2,), (4,), (2, 2), (2, 4), (4, 2), (2, 2, 2)])
        rank = rng.randint(1, 2)
        texts = [rng.choice(["Partial()", "Replicate()"] + [f"Shard({d})" for d in range(rank)]) for _ in mesh]
        if "Partial()" not in texts:
            texts[rng.randrange(len(mesh))] = "Partial()"
        shape = tuple(rng.choice([4, 8, 6]) for _ in range(rank))
        s = from_dtensor(texts, mesh, shape)
        line = to_text(s, "dtensor", None)
        got, on = line.split("  on mesh ")
        assert from_dtensor(got.split(", "), tuple(int(k) for k in on.split("x")), shape) == s, (texts, mesh, line)


MANUAL = "{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}"


@pytest.mark.parametrize("consumer, call, reason", [
    ("to_shardy", to_shardy, "sdy.manual_computation"),
    ("to_dtensor", lambda s: to_dtensor(s, (2, 2)), "DTensor"),
    ("to_ttnn", lambda s: to_ttnn(s, (2, 2)), "TTNN"),
    ("to_jax", lambda s: to_jax(s, None), "shard_map"),
    ("jax_text", jax_text, "PartitionSpec"),
    ("jax_text on a mesh", lambda s: jax_text(s, (2, 2)), "PartitionSpec"),
    ("to_text dtensor", lambda s: to_text(s, "dtensor", None), "DTensor"),
    ("to_text dtensor on a mesh", lambda s: to_text(s, "dtensor", (2, 2)), "DTensor"),
    ("to_text ttnn-mesh", lambda s: to_text(s, "ttnn-mesh", (4,)), "TTNN"),
    ("tile_assignment", lambda s: tile_assignment(s, "HLO"), "HLO tile assignment"),
    ("_meshes.plain", plain, "tile assignment"),
])
def test_a_manual_sharding_is_refused_by_every_vocabulary_of_one_global_array(consumer, call, reason):
    s = parse_hlo(MANUAL, (6, 3))
    with pytest.raises(NotRepresentableError, match=f"{reason}.*partially manual"):
        call(s)


def test_conversions_of_a_manual_sharding_say_why_each_vocabulary_cannot():
    got = conversions(parse_hlo(MANUAL, (6, 3)), None)
    assert got["hlo"] == "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"
    for name in ("shardy", "dtensor", "ttnn", "jax"):
        assert got[name].startswith("not representable: ") and "manual groups {0, 2}, {1, 3}" in got[name], name
