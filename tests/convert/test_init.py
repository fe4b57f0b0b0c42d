"""convert_to and the package's re-exports (unilayout.convert)."""

import numpy as np
import pytest

from unilayout import LayoutError, NotRepresentableError, affine, cute, tsl, tt
from unilayout.convert import convert_to, cute_to_tsl, family_of, metal_to_affine, tsl_to_affine, tsl_to_cute

# --------------------------------------------------------------------------------- dispatch


def test_convert_to_every_pair():
    C = cute.parse("(4,2):(2,1)")
    assert convert_to(C, "cute") is C
    lin = convert_to(C, "linear")
    assert convert_to(lin, "cute") == C
    assert convert_to(C, "tsl") == cute_to_tsl(C)
    assert str(convert_to(C, "affine")) == "(d0, d1) -> (d0 * 2 + d1)"
    assert convert_to(lin, "affine").index_map((4, 2)).shape == (8, 1)
    assert str(convert_to(lin, "tsl")) == "#tsl.tsl<[4] -> (2), [2] -> (1)>"
    t = tsl.parse("[4] -> (2), [2] -> (1)")
    assert convert_to(t, "cute") == C and convert_to(t, "linear") == lin
    assert convert_to(t, "affine") == tsl_to_affine(t)
    m = affine.parse("(d0, d1) -> (d0 * 2 + d1)")
    assert convert_to(m, "cute", shape=(4, 2)) == C
    assert convert_to(m, "tsl", shape=(4, 2)) == t
    assert convert_to(m, "linear", shape=(4, 2), in_dims=["dim0", "dim1"], out_dims=["offset"]) == lin
    ml = tt.MetalLayout.from_collapse((8, 8), (2, 2))
    assert convert_to(ml, "affine") == metal_to_affine(ml)
    assert convert_to(ml, "affine", flat=True) == metal_to_affine(ml, flat=True)
    assert len(convert_to(ml, "cute")) == 4
    dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 2), (1, 2))
    assert convert_to(dev, "affine") == dev.grid_map
    assert convert_to(C, "linear", in_dims=("a", "b")).in_dim_names == ["a", "b"]
    dyn = tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>")
    assert convert_to(dyn, "cute", shape=(64, 64)) == tsl_to_cute(dyn.resolve((64, 64)))
    assert convert_to(dyn, "tsl", shape=(64, 64)) == dyn.resolve((64, 64))


def test_convert_to_errors():
    C = cute.parse("Sw<1,0,1> o 0 o 4:1")
    with pytest.raises(NotRepresentableError, match="ComposedLayout: a TSL only adds"):
        convert_to(C, "tsl")
    with pytest.raises(LayoutError, match="shape is the box of an affine map"):
        convert_to(cute.Layout(4, 1), "linear", shape=(4,))
    for junk in (cute.Tensor(np.arange(4), cute.Layout(4, 1)), tsl.Stride(2, 1), affine.dim(0), tt.SystemDesc()):
        with pytest.raises(LayoutError, match="expected a unilayout layout value"):
            convert_to(junk, "cute")
    with pytest.raises(NotRepresentableError, match="metal layout"):
        convert_to(tt.MetalLayout.from_collapse((8, 8), (2, 2)), "linear")
    with pytest.raises(NotRepresentableError, match="device"):
        convert_to(tt.Device.from_mesh(tt.SystemDesc((8, 8), 1), (1, 1)), "cute")
    with pytest.raises(LayoutError, match="unknown target family"):
        convert_to(C, "metal")
    with pytest.raises(LayoutError, match="options"):
        convert_to(cute.Layout(4, 1), "affine", bogus=1)
    with pytest.raises(LayoutError, match="expected a unilayout layout value"):
        convert_to(3, "cute")
    assert family_of(affine.parse("(d0) -> (d0)")) == "affine"


def test_convert_to_names_options_the_conversion_does_not_take_without_hiding_its_own_errors():
    from unilayout import cute
    from unilayout.convert import convert_to

    with pytest.raises(LayoutError, match=r"cute -> linear does not take the options \['bogus'\]"):
        convert_to(cute.parse("4:1"), "linear", bogus=1)
    # a TypeError inside the conversion is not reported as a wrong option
    with pytest.raises(LayoutError) as e:
        convert_to(cute.parse("4:1"), "linear", in_dims=3)
    assert "does not take the options" not in str(e.value)


# --------------------------------------------------------------------------------- the pair table and the affine hub


def test_the_table_is_the_pair_files_pairs():
    from unilayout import convert

    pairs = [pair for module in convert.PAIR_MODULES for pair in module.PAIRS]
    assert len(pairs) == len(set(pairs)) == len(convert._TABLE)
    families = ("cute", "linear", "tsl", "affine")
    want = {(a, b) for a in families for b in families if a != b} - {("affine", "affine")}
    want |= {("metal", "affine"), ("metal", "cute"), ("device", "affine")}
    want |= {("xla", b) for b in families + ("metal", "mosaic")}
    want |= {("mosaic", "cute"), ("mosaic", "linear"), ("mosaic", "xla"), ("tilelang", "cute"), ("tilelang", "linear")}
    want |= {p for p in pairs if "axe" in p}  # the Axe bridge lands with its family (issue 26)
    assert set(pairs) == want
    assert all(convert._TABLE[p] is m.PAIRS[p] for m in convert.PAIR_MODULES for p in m.PAIRS)


def test_an_xla_layout_converts_to_metal_and_no_other_value_does():
    from unilayout import xla
    from unilayout.convert import xla_to_metal

    x = xla.parse("f32[4,6]{0,1:T(2,2)}")
    assert convert_to(x, "metal") == xla_to_metal(x)
    with pytest.raises(LayoutError, match="unknown target family 'metal'; choose one of cute, linear, affine, tsl"):
        convert_to(tsl.parse("[4] -> (1)"), "metal")
    with pytest.raises(LayoutError, match="unknown target family 'metal'"):
        convert_to(3, "metal")


def test_a_family_with_an_affine_form_and_no_pair_goes_through_the_affine_hub(monkeypatch):
    """A family no pair file names converts with its record's to_affine, then affine -> target on its box."""
    import sys
    import types

    from unilayout import _families
    from unilayout._family import Family

    class Scaled:  # i -> k * i over [0, n)
        __module__ = "hubtoy"

        def __init__(self, n, k):
            self.n, self.k = n, k

    class ScaledFamily(Family):
        name, types = "hubtoy", (Scaled,)

        def index_map(self, v, shape=None):
            return np.arange(v.n, dtype=np.int64) * v.k

        def box(self, v):
            return (v.n,) if v.n else None

        def to_affine(self, v):
            return affine.parse(f"(d0) -> (d0 * {v.k})")

    module = types.ModuleType("hubtoy")
    module.FAMILY = ScaledFamily()
    monkeypatch.setitem(sys.modules, "hubtoy", module)
    _families.register(_families.Wing("hubtoy", "hubtoy"))
    try:
        v = Scaled(8, 2)
        assert str(convert_to(v, "affine")) == "(d0) -> (d0 * 2)"
        assert convert_to(v, "cute") == cute.Layout(8, 2)
        assert str(convert_to(v, "tsl")) == "#tsl.tsl<[8] -> (2)>"
        assert convert_to(v, "linear").index_map().reshape(-1).tolist() == [0, 2, 4, 6, 8, 10, 12, 14]
        with pytest.raises(NotRepresentableError, match="hubtoy -> cute: a hubtoy value has no box"):
            convert_to(Scaled(0, 2), "cute")
        with pytest.raises(LayoutError, match="hubtoy -> cute does not take the options"):
            convert_to(v, "cute", bogus=1)
    finally:
        _families.unregister("hubtoy")


def test_a_family_without_an_affine_form_keeps_its_no_pair_message():
    from unilayout import sharding

    s = sharding.from_dtensor(["Shard(0)"], (2,), (4, 4))
    with pytest.raises(NotRepresentableError, match="convert_to: sharding -> cute: no sharding value converts to cute"):
        convert_to(s, "cute")
