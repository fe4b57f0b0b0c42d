"""to_named_sharding / from_named_sharding / natural_mesh: a NamedSharding only where it is exact."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

jax = pytest.importorskip("jax")
from helpers_distributed import check_distributed  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from unilayout import LayoutError, NotRepresentableError, tt  # noqa: E402
from unilayout.distributed import distribute, from_named_sharding, natural_mesh, to_named_sharding  # noqa: E402
from unilayout.distributed._plan import block_array  # noqa: E402

DEVS = jax.devices()
pytestmark = pytest.mark.skipif(len(DEVS) < 8, reason="needs 8 JAX devices (XLA_FLAGS set in conftest.py)")


def mesh(shape, names):
    return Mesh(np.array(DEVS[:int(np.prod(shape))]).reshape(shape), names)


def _placed_as_layout(ml, dev, sharding):
    """device_put of the block array with ``sharding`` gives each mesh position its chip's shards."""
    a = np.random.default_rng(0).random(ml.logical_shape).astype(np.float32)
    x = jax.device_put(block_array(ml, a), sharding)
    # mesh position m stands for the chip at tt mesh position m: map JAX devices back to chip ids
    flat = list(sharding.mesh.devices.flat)
    devs = [None] * (max(dev.chip_ids) + 1)
    for pos, chip in enumerate(dev.chip_ids):
        devs[chip] = flat[pos]
    check_distributed(x, a, ml, dev, devs)


def test_seed_examples():
    two = tt.SystemDesc(num_chips=2)
    dev = tt.Device.from_mesh(two, (2, 1, 1))
    ml = tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)])
    s = to_named_sharding(ml, dev, mesh((2,), ("batch",)))
    assert s.spec == P("batch", None, None)
    s3 = to_named_sharding(ml, dev, mesh((2, 1, 1), ("b", "y", "x")))
    assert s3.spec == P("b", None, None)
    _placed_as_layout(ml, dev, s3)

    dev = tt.Device.from_mesh(two, (1, 2))
    ml = tt.MetalLayout.from_collapse((256, 1024), (4, 16))
    s = to_named_sharding(ml, dev, mesh((1, 2), ("r", "c")))
    assert s.spec == P(None, "c")
    _placed_as_layout(ml, dev, s)

    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (2, 1, 2))
    ml = tt.MetalLayout.from_collapse((64, 256, 1024), (2, 4, 16), [])
    s = to_named_sharding(ml, dev, mesh((2, 2), ("batch", "model")))
    assert s.spec == P("batch", None, "model")
    _placed_as_layout(ml, dev, s)


def test_grid_dim_over_two_mesh_axes():
    dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), 8), (2, 2))  # grid 4x4
    ml = tt.MetalLayout((64, 8), "(d0, d1) -> (d0, d1)", (4, 1))
    dev2 = dev.reinterpret("(d0, d1) -> ((d0 floordiv 2) * 2 + d0 mod 2, d1, 0)")  # cells of dim 0 over both axes
    dev2.validate(tt.SystemDesc((4, 2), 8))
    s = to_named_sharding(ml, dev2, mesh((2, 2), ("a", "b")))
    assert s.spec == P(("a", "b"), None)
    _placed_as_layout(ml, dev2, s)
    dev3 = dev.reinterpret("(d0, d1) -> ((d0 mod 2) * 2 + d0 floordiv 2, d1, 0)")
    s = to_named_sharding(ml, dev3, mesh((2, 2), ("a", "b")))
    assert s.spec == P(("b", "a"), None)
    _placed_as_layout(ml, dev3, s)


def test_replicated_along_single_axes():
    dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), 8), (2, 2))  # grid 4x4
    ml = tt.MetalLayout.from_collapse((8, 6), (4, 2))  # columns on chip column 0 only
    assert dev.place(ml).distribution == ("sharded", "single")
    s = to_named_sharding(ml, dev, mesh((2, 2), ("a", "b")))
    assert s.spec == P("a", None) and s.is_fully_replicated is False
    a = np.arange(48, dtype=np.float32).reshape(8, 6)
    x = jax.device_put(block_array(ml, a), s)
    by_dev = {sh.device.id: np.asarray(sh.data) for sh in x.addressable_shards}
    assert np.array_equal(by_dev[0], by_dev[1]) and np.array_equal(by_dev[2], by_dev[3])
    assert not np.array_equal(by_dev[0], by_dev[2])
    _placed_as_layout(ml, dev, s)


def test_not_representable():
    two = tt.SystemDesc(num_chips=2)
    dev = tt.Device.from_mesh(two, (1, 2))
    m = mesh((1, 2), ("r", "c"))
    with pytest.raises(NotRepresentableError, match="grid dim 1 has 12 cells in blocks of 8 per chip: the last chip gets 4"):
        to_named_sharding(tt.MetalLayout.from_collapse((256, 960), (4, 12)), dev, m)
    stair = tt.Device((8, 16), "(d0, d1) -> (((d0 + d1) floordiv 8) mod 2, d0, (d0 + d1) mod 8)", (1, 2), (0, 1))
    with pytest.raises(NotRepresentableError, match="the cells of chip 0 are not one box"):
        to_named_sharding(tt.MetalLayout.from_collapse((64, 128), (8, 16)), stair, m)
    four = tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (1, 4))
    with pytest.raises(NotRepresentableError, match="the layout uses 2 of the 4 chips along mesh axis 1"):
        to_named_sharding(tt.MetalLayout.from_collapse((64, 128), (8, 16)), four, mesh((4,), ("c",)))
    with pytest.raises(NotRepresentableError, match=r"the device's mesh 1x2 does not line up with the JAX mesh a=2, b=2"):
        to_named_sharding(tt.MetalLayout.from_collapse((64, 128), (8, 16)), dev, mesh((2, 2), ("a", "b")))
    swapped = tt.Device.from_mesh(tt.SystemDesc((2, 2), 8), (2, 2)).reinterpret("(d0, d1) -> ((d1 floordiv 2) * 2 + d0 floordiv 2, d0 mod 2, d1 mod 2)")
    s = to_named_sharding(tt.MetalLayout.from_collapse((8, 8), (4, 4)), swapped, mesh((2, 2), ("a", "b")))
    assert s.spec == P("b", "a")  # transposed chips: still exact, the axes swap
    diag = tt.Device((2, 2), "(d0, d1) -> (d0 * 2 + (d0 + d1) mod 2, 0, 0)", (2, 2), (0, 1, 2, 3)).validate()
    with pytest.raises(NotRepresentableError, match="mesh axis 1 depends on grid dims"):
        to_named_sharding(tt.MetalLayout.from_collapse((8, 8), (2, 2)), diag, mesh((2, 2), ("a", "b")))
    # ... but distribute still places it device by device
    a = np.arange(64, dtype=np.float32).reshape(8, 8)
    check_distributed(distribute(a, tt.MetalLayout.from_collapse((8, 8), (2, 2)), diag), a,
                      tt.MetalLayout.from_collapse((8, 8), (2, 2)), diag, DEVS)


def test_bad_arguments():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    ml = tt.MetalLayout.from_collapse((64, 128), (8, 16))
    with pytest.raises(LayoutError, match="expected a jax.sharding.Mesh"):
        to_named_sharding(ml, dev, "mesh")
    with pytest.raises(LayoutError, match="expected a tt.MetalLayout"):
        to_named_sharding("ml", dev, mesh((2,), ("c",)))
    m = mesh((2, 2), ("a", "b"))
    with pytest.raises(LayoutError, match="expected a jax.sharding.NamedSharding"):
        from_named_sharding((4, 4), "s")
    with pytest.raises(NotRepresentableError, match=r"dim 0 of size 5 does not divide into 2 shards \(mesh axes \('a',\)\)"):
        from_named_sharding((5, 4), NamedSharding(m, P("a")))
    with pytest.raises(LayoutError, match="PartitionSpec .* has 2 entries but the shape 4 has rank 1"):
        from_named_sharding((4,), NamedSharding(m, P("a", "b")))
    with pytest.raises(LayoutError, match=r"shape \(4, 0\) must have rank >= 1 and every dim >= 1"):
        from_named_sharding((4, 0), NamedSharding(m, P("a")))
    with pytest.raises(LayoutError, match="chip id 2 has no JAX device: jax_devices has 2"):
        natural_mesh(tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (2, 2)), DEVS[:2])


def test_natural_mesh():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=8), (2, 2), [7, 3, 0, 1])
    m = natural_mesh(dev)
    assert m.axis_names == ("mesh0", "mesh1") and [d.id for d in m.devices.flat] == [7, 3, 0, 1]


# --- from_named_sharding round trips -----------------------------------------------------------

@st.composite
def shardings(draw):
    sizes = draw(st.sampled_from([(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8), (2, 1, 4), (1,), (2,)]))
    names = tuple("abcd"[: len(sizes)])
    perm = draw(st.permutations(range(8)))[: int(np.prod(sizes))]
    m = Mesh(np.array([DEVS[i] for i in perm]).reshape(sizes), names)
    rank = draw(st.integers(1, 3))
    free = list(draw(st.permutations(names)))
    spec = []
    for _ in range(rank):
        k = draw(st.integers(0, min(2, len(free))))
        axes, free = tuple(free[:k]), free[k:]
        spec.append(None if not axes else axes[0] if len(axes) == 1 and draw(st.booleans()) else axes)
    size = dict(zip(names, sizes))
    shape = tuple(int(np.prod([size[a] for a in ((e,) if isinstance(e, str) else e or ())])) * draw(st.integers(1, 3))
                  for e in spec)
    return shape, NamedSharding(m, P(*spec))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shardings())
def test_from_named_sharding_round_trips(case):
    shape, s = case
    ml, dev = from_named_sharding(shape, s)
    assert ml.logical_shape == shape and ml.physical_shape == shape
    back = to_named_sharding(ml, dev, s.mesh)
    assert back.is_equivalent_to(s, len(shape))
    # the layout says where JAX puts the data: each device's shard is its chip's shards
    a = np.random.default_rng(2).random(shape).astype(np.float32)
    x = jax.device_put(a, s)
    check_distributed(x, a, ml, dev, DEVS)
    y = distribute(a, ml, dev)
    assert y.sharding.is_equivalent_to(s, len(shape))
    for sh in y.addressable_shards:
        np.testing.assert_array_equal(np.asarray(sh.data), a[sh.index])


def test_uneven_split_over_chips_is_refused_through_sharding():
    """Issue 17: a 5x3x20x40 batch split 3+2 over two chips has no NamedSharding JAX accepts for the tensor."""
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
    ml = tt.MetalLayout.from_collapse((5, 3, 20, 40), (2, 1, 1), [(1, -1)])
    m = mesh((2,), ("m0",))
    with pytest.raises(NotRepresentableError, match=r"physical array 5x60x40 .* split 3\+2: JAX needs 2 equal shards"):
        to_named_sharding(ml, dev, m)
    # JAX itself refuses that shape with the spec the old code answered
    with pytest.raises(ValueError):
        jax.device_put(np.zeros((5, 60, 40), np.float32), NamedSharding(m, P("m0", None, None)))
    # distribute still places it (each device's block padded), and gathers it back
    a = np.random.default_rng(1).random((5, 3, 20, 40)).astype(np.float32)
    from unilayout.distributed import gather
    assert (gather(distribute(a, ml, dev), ml) == a).all()


def test_from_named_sharding_agrees_with_the_canonical_sharding():
    from unilayout.sharding import from_jax, from_metal
    for shape_m, names, spec, shape in [((2, 4), ("x", "y"), P(("y", "x")), (64, 6)),
                                        ((2, 2), ("a", "b"), P("b", "a"), (4, 6)),
                                        ((2, 2), ("a", "b"), P(None, "a"), (3, 4)),
                                        ((8,), ("c",), P(None, "c"), (2, 16))]:
        s = NamedSharding(mesh(shape_m, names), spec)
        ml, dev = from_named_sharding(shape, s)
        assert from_metal(ml, dev) == from_jax(s, shape)
