"""convert_to and the package's re-exports (unilayout.convert)."""

import numpy as np
import pytest

from unilayout import LayoutError, NotRepresentableError, affine, cute, linear, tsl, tt
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
