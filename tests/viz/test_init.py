"""unilayout.viz: dispatch by family and writing files."""

import pytest

from svgcheck import cells, decode_png, parse_svg
from unilayout import LayoutError, affine, cute, linear, tsl, tt, viz

VALUES = [
    cute.parse("(4,2):(2,1)"),
    cute.parse("Sw<1,0,1> o 0 o (2,2):(2,1)"),
    linear.identity_1d(4, "register", "dim0") * linear.identity_1d(4, "lane", "dim0"),
    tsl.parse("[2, 2] -> (8, 2), [2, 2] -> (4, 1)"),
    tt.MetalLayout.from_collapse((5, 6), (2, 2)),
    tt.Device.from_mesh(tt.SystemDesc(num_chips=1), (1,)),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_every_family_renders_svg_and_png(value, tmp_path):
    svg = viz.render(value, tmp_path / "x.svg")
    root = parse_svg(open(svg).read())
    assert len(cells(root)) > 0
    w, h, img = decode_png(open(viz.render(value, tmp_path / "x.PNG"), "rb").read())
    assert img.shape == (h, w, 3)


def test_affine_needs_shape_option():
    m = affine.parse("(d0, d1) -> (d1, d0)")
    assert len(cells(parse_svg(viz.to_svg(m, shape=(2, 3))))) == 6
    with pytest.raises(LayoutError):
        viz.to_svg(m)


def test_scene_passes_through():
    s = viz.scene(cute.Layout(4))
    assert viz.scene(s) is s


def test_option_errors(tmp_path):
    with pytest.raises(LayoutError, match=r"\.svg or \.png"):
        viz.render(cute.Layout(4), tmp_path / "x.jpg")
    with pytest.raises(LayoutError):
        viz.scene(tsl.parse("[4] -> (1)"), color="bank")
    with pytest.raises(LayoutError):
        viz.scene(linear.identity_1d(4, "lane", "dim0"), tv=(2, 2))
    with pytest.raises(LayoutError):
        viz.scene(cute.Layout((2, 2)), tv=(2, 2), color="bank")
    with pytest.raises(LayoutError, match="no picture"):
        viz.scene("(4,2):(2,1)")


def test_scene_is_the_family_records_picture_and_refuses_foreign_options():
    from unilayout._families import record
    from unilayout.viz.svg import to_svg

    L = cute.Layout((2, 3), (3, 1))
    assert to_svg(viz.scene(L, color="bank")) == to_svg(record("cute").picture(L, color="bank", max_cells=16384))
    with pytest.raises(LayoutError, match="do not apply"):
        viz.scene(L, shape=(2, 3))
    with pytest.raises(LayoutError, match="do not apply"):
        viz.scene(tsl.parse("[4] -> (1)"), layout=L)
    with pytest.raises(LayoutError, match="expected a unilayout layout value"):
        viz.scene([1, 2])
