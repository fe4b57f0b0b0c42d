"""from_jax / to_jax against JAX's own devices_indices_map, on random meshes, shapes and specs."""

import random

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is the reference engine for these tests (pip install 'unilayout[jax]')")
from helpers_sharding import random_case  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P

from unilayout import LayoutError, NotRepresentableError  # noqa: E402
from unilayout.sharding import Sharding, from_jax, to_jax  # noqa: E402

DEVS = jax.devices()
pytestmark = pytest.mark.skipif(len(DEVS) < 8, reason="needs 8 JAX devices (XLA_FLAGS set in conftest.py)")

def boxes_of(named, shape):
    """JAX's answer as {device id: [box]}."""
    out = {}
    for d, idx in named.devices_indices_map(shape).items():
        out[d.id] = [tuple(sl.indices(n)[:2] for sl, n in zip(idx, shape))]
    return out


def test_random_specs_match_devices_indices_map_and_round_trip():
    rng = random.Random(17)
    for _ in range(300):
        mesh, spec, shape = random_case(rng, DEVS, Mesh, P)
        named = NamedSharding(mesh, spec)
        s = from_jax(named, shape)
        assert s == Sharding(shape, boxes_of(named, shape)), (mesh, spec, shape)
        back = to_jax(s, mesh)
        assert from_jax(back, shape) == s
        assert back.is_equivalent_to(named, len(shape)), (mesh, spec, shape, back.spec)


def test_refusals_name_the_difference():
    mesh2 = Mesh(np.array(DEVS[:2]), ("x",))
    with pytest.raises(NotRepresentableError, match=r"dim 0 of size 5 does not divide into 2 shards"):
        from_jax(NamedSharding(mesh2, P("x")), (5, 3))
    uneven = Sharding((5, 3), {0: [((0, 3), (0, 3))], 1: [((3, 5), (0, 3))]})
    with pytest.raises(NotRepresentableError, match=r"split 3\+2: JAX needs 2 equal shards \(5 is not divisible by 2\)"):
        to_jax(uneven, mesh2)
    partial = Sharding((4,), {0: [((0, 4),)], 1: [((0, 4),)]}, partial=[0, 1])
    with pytest.raises(NotRepresentableError, match="partial sums"):
        to_jax(partial, mesh2)
    strided = Sharding((4,), {0: [((0, 1),), ((2, 3),)], 1: [((1, 2),), ((3, 4),)]})
    with pytest.raises(NotRepresentableError, match="2 separate boxes"):
        to_jax(strided, mesh2)
    with pytest.raises(NotRepresentableError, match="not the mesh's devices"):
        to_jax(Sharding((4,), {0: [((0, 4),)], 5: [((0, 4),)]}), mesh2)
    diag = Sharding((4, 4), {0: [((0, 2), (0, 2))], 1: [((2, 4), (2, 4))]})
    with pytest.raises(NotRepresentableError, match="moves the data along dims"):
        to_jax(diag, mesh2)
    # a device order that needs a mesh transpose: 2x2 mesh, tiles laid column-major over ids 0..3
    mesh22 = Mesh(np.array(DEVS[:4]).reshape(2, 2), ("x", "y"))
    s = Sharding((4,), {0: [((0, 1),)], 1: [((2, 3),)], 2: [((3, 4),)], 3: [((1, 2),)]})
    with pytest.raises(NotRepresentableError, match="explicit mesh transpose"):
        to_jax(s, mesh22)
    with pytest.raises(NotRepresentableError, match="whole mesh axes"):
        to_jax(Sharding((4,), {0: [((0, 2),)], 1: [((2, 4),)], 2: [((0, 2),)], 3: [((0, 2),)]}), mesh22)


def test_bad_arguments():
    mesh2 = Mesh(np.array(DEVS[:2]), ("x",))
    with pytest.raises(LayoutError, match="NamedSharding"):
        from_jax("x", (2,))
    with pytest.raises(LayoutError, match="has 2 entries but the array has rank 1"):
        from_jax(NamedSharding(mesh2, P("x", None)), (2,))
    with pytest.raises(LayoutError, match="Mesh"):
        to_jax(Sharding((2,), {0: [((0, 2),)]}), "mesh")
    with pytest.raises(LayoutError, match="Sharding"):
        to_jax("s", mesh2)


def test_unreduced_axes_against_jax_lowering_and_round_trips(jax_devices):
    """JAX's ``P(..., unreduced={axes})``: partial sums over those axes, as JAX's own Shardy lowering says."""
    import re

    from helpers_sharding import positions
    from jax.sharding import AxisType

    from unilayout.sharding import from_dtensor, parse_shardy
    devs = jax_devices
    rng = random.Random(23)
    groups_seen = set()
    for _ in range(30):
        mesh0, spec0, shape = random_case(rng, devs, Mesh, P)
        mesh = Mesh(mesh0.devices, mesh0.axis_names, axis_types=(AxisType.Explicit,) * len(mesh0.axis_names))
        used = {a for e in spec0 if e is not None for a in ((e,) if isinstance(e, str) else e)}
        free = [a for a in mesh.axis_names if a not in used]
        if not free:
            continue
        un = set(rng.sample(free, rng.randint(1, len(free))))
        named = NamedSharding(mesh, P(*spec0, unreduced=un))
        s = from_jax(named, shape)
        text = jax.jit(lambda a: a, in_shardings=named, out_shardings=named).lower(
            jax.ShapeDtypeStruct(shape, np.float32, sharding=named)).as_text()
        mesh_line = next(line.strip() for line in text.splitlines() if line.strip().startswith("sdy.mesh"))
        sharding = re.search(r"#sdy\.sharding<@\w+, \[.*?\][^>]*>", text).group(0)
        assert "unreduced" in sharding
        assert parse_shardy(sharding, mesh_line, shape) == s.relabel(positions(mesh)), (sharding, mesh_line)
        back = to_jax(s, mesh)
        assert from_jax(back, shape) == s and set(back.spec.unreduced) <= set(mesh.axis_names)
        groups_seen.add(len(s.sum_groups))
    assert len(groups_seen) >= 2, groups_seen
    with pytest.raises(NotRepresentableError, match="must be Explicit"):  # Auto axes: JAX refuses unreduced there
        to_jax(from_dtensor(["Partial()"], (8,), (4,)), Mesh(np.array(devs[:8]), ("a",)))
