"""unilayout._families: the one registry (detection by the wings' claims, family_of by type, dispatch to records)."""

import subprocess
import sys

import numpy as np
import pytest

import unilayout
from unilayout import LayoutError, ParseError, _families, affine, axe, cute, linear, mosaic, sharding, tilelang, tsl, tt

# one value per family (and per CuTe type), with the text it is written in
VALUES = {
    "cute": [cute.parse("((2,2),2):((4,1),2)"), cute.Swizzle(2, 0, 2), cute.parse("Sw<1,0,1> o 0 o (4,2):(2,1)")],
    "linear": [linear.LinearLayout({"register": [[1], [2]], "lane": [[4]]}, {"dim0": 8})],
    "affine": [affine.parse("(d0, d1) -> (d0 * 2 + d1)")],
    "tsl": [tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>")],
    "metal": [tt.MetalLayout.from_collapse((64, 128), (2, 2))],
    "device": [tt.Device.from_mesh(tt.SystemDesc(), (1, 1))],
    "xla": [sharding.parse_xla_layout("f32[3,5]{1,0:T(2,2)}")],
    "ttnn": [tt.NdShardSpec((32, 64), (4, 2), distribution="GRID_2D")],
    "tiled": [cute.make_tiled_mma(cute.mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))],
    "sharding": [sharding.parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (4, 2))],
    "tilelang": [tilelang.parse("Fragment((8, 8) -> (2,), replicate: 1, thread: 32, forward_thread: _i * 4 + _j // 2, "
                                "forward_index: (_j % 2,))"),
                 tilelang.parse("Layout((4, 8) -> (32,), transform: (_i, _j) -> (_j * 4 + _i,))")],
    "mosaic": [mosaic.TCGEN05],
    "axe": [axe.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)] + R[2:1@wgid]")],
}
CASES = [(fam, v) for fam, vs in VALUES.items() for v in vs]


def test_the_registry_has_one_record_per_family_in_detection_order():
    assert _families.families() == unilayout.families() == (
        "sharding", "tsl", "linear", "device", "metal", "ttnn", "tiled", "axe", "xla", "tilelang", "affine", "cute", "mosaic")
    for name in _families.families():
        f = _families.record(name)
        assert isinstance(f, _families.Family) and f.name == name and f.types


@pytest.mark.parametrize("fam, value", CASES)
def test_family_of_is_by_isinstance(fam, value):
    assert _families.family_of(value) == fam == unilayout.family_of(value)
    assert isinstance(value, _families.record(fam).types)


def test_family_of_accepts_subclasses_and_refuses_other_values():
    class MyLayout(cute.Layout):
        pass

    assert _families.family_of(MyLayout(4, 1)) == "cute"
    for x in (1, "8:1", np.arange(4), cute.Tensor([1, 2], cute.Layout(2, 1))):
        with pytest.raises(LayoutError, match="expected a unilayout layout value"):
            _families.family_of(x)


def test_unknown_family_name_lists_the_known_ones():
    with pytest.raises(LayoutError, match=r"unknown family 'torch'; choose one of sharding, tsl, linear, device, metal"):
        _families.record("torch")


@pytest.mark.parametrize("text, fam", [
    ("  #tsl.tsl<[2] -> (1)>", "tsl"), ("[2] -> (1)", "tsl"),
    ("#ttg.linear<{register = [], lane = [], warp = [], block = []}>", "linear"),
    (" - register=1 -> (1)\nwhere out dims are: [dim0 (size 2)]", "linear"),
    ("tensor<4xf32, #tt.metal_layout<...>>", "metal"), ("#tt.device<...>", "device"),
    ("#ttcore.device<...>", "device"), ("affine_map<(d0) -> (d0)>", "affine"), ("(d0) -> (d0)", "affine"),
    ("8:1", "cute"), ("(4,2)", "cute"), ("_8:_1", "cute"), ("Sw<1,0,1>", "cute"),
    ("#ttg.blocked<{}>", "linear"), ("tensor<8xf16, #ttg.blocked<{}>>", "linear"),
    ("!ttg.memdesc<8xf16, #ttg.nvmma_shared<{}>>", "linear"), ("f32[128,256]{1,0:T(8,128)(2,1)}", "xla"), ("#b = #ttg.blocked<{}>\ntensor<8xf16, #b>", "linear"),
    ("{devices=[2]<=[2]}", "sharding"), ("#sdy.sharding<@mesh, [{}]>", "sharding"), ("Shard(0), Replicate()", "sharding"),
    ("SM80_16x8x16_F32F16F16F32_TN (2,2,1)", "tiled"), ("make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>, "
                                                        "Layout<Shape<_4,_8>>{})", "tiled"),
    ("#ttnn.memory_config<#l1, <interleaved>>", "metal"),
    ('!cute.layout<"(?,8):(1,?{div=8})">', "cute"), ("!fly.layout<(8, 16):(1, 8)>", "cute"),
    ("tensor<ptr<f16, gmem, align<16>> o (128,32):(1,128)>", "cute"), ("S<3,4,3> o 0 o (8,64):(64,1)", "cute"),
])
def test_detect_picks_the_family_of_each_text_form(text, fam):
    assert _families.detect(text).name == fam


@pytest.mark.parametrize("text", ["", "   ", "hello", "#tttg.blocked<{}>", "}", "-> oops"[3:]])
def test_detect_finds_no_family_in_other_text(text):
    assert _families.detect(text) is None


def test_parse_has_one_behaviour_for_empty_and_foreign_text():
    for text in ("", "  \n"):
        with pytest.raises(ParseError, match="^empty text: expected a layout") as e:
            _families.parse(text)
        assert e.value.position == len(text)
    with pytest.raises(ParseError) as e:
        _families.parse("  hello")
    assert e.value.position == 2
    with pytest.raises(LayoutError, match="parse: expected text, got int"):
        _families.parse(3)


@pytest.mark.parametrize("fam, value", [(f, v) for f, v in CASES if f not in ("affine", "ttnn")])
def test_index_map_dispatches_to_the_family(fam, value):
    got = _families.index_map(value)
    if fam == "sharding":  # the lowest device holding each element, row-major
        want = np.array([min(d for d, bs in value.device_boxes.items() for b in bs
                             if all(a <= i < z for i, (a, z) in zip(crd, b))) for crd in np.ndindex(*value.shape)])
    elif fam == "tiled":  # the C thread-value layout
        want = value.get_layoutC_TV().index_map()
    elif fam == "device":
        want = value.physical_cores().reshape(-1, 3)
    elif isinstance(value, cute.Swizzle):
        want = value(np.arange(value.size, dtype=np.int64))
    elif fam == "xla":  # XLA's linear index of each element, one at a time, row-major
        want = np.array([value(*i) for i in np.ndindex(*value.dims)], dtype=np.int64)
    elif fam == "tilelang":  # a layout's buffer offset, a fragment's (thread, index in its buffer)
        want = value.offsets() if isinstance(value, tilelang.Layout) else value.index_map()
    elif fam == "mosaic":  # over the layout's default tile: (thread, value index) of each element
        want = _families.index_map(value, _families.record(value).default_shape(value))
    else:
        want = value.index_map().reshape(-1) if fam == "tsl" else value.index_map()
    assert got.dtype == np.int64 and np.array_equal(got, want)


def test_index_map_of_an_affine_map_takes_its_box_and_others_refuse_one():
    m = VALUES["affine"][0]
    assert _families.index_map(m, (2, 2))[:, 0].tolist() == [0, 1, 2, 3]
    with pytest.raises(LayoutError, match="shape is only for affine maps"):
        _families.index_map(VALUES["linear"][0], (8,))
    assert _families.index_map(cute.Swizzle(1, 0, 1), (4,)).tolist() == [0, 1, 3, 2]  # x ^ ((x & 2) >> 1)


@pytest.mark.parametrize("fam, value", CASES)
def test_box_is_the_domain_of_the_value(fam, value):
    box = _families.record(fam).box(value)
    if fam in ("affine", "ttnn", "mosaic"):  # values over a shape given to them (mosaic: its default tile)
        assert box is None
    else:
        n = int(np.prod(box))
        assert n == len(_families.index_map(value))


@pytest.mark.parametrize("fam, value", CASES)
def test_picture_draws_every_family(fam, value):
    from unilayout.viz import Scene

    options = {"shape": (2, 2)} if fam == "affine" else {}
    if fam == "ttnn":  # a shard spec draws the metal layout it gives a tensor of a shape
        fam, value = "metal", _families.record(fam).with_shape(value, (64, 256))
    scene = _families.record(fam).picture(value, max_cells=4096, **options)
    assert isinstance(scene, Scene) and scene.count_cells() > 0


def test_picture_options_that_do_not_apply_are_refused():
    with pytest.raises(LayoutError, match="colour modes apply to CuTe and linear layouts"):
        _families.record("tsl").picture(VALUES["tsl"][0], color="bank", max_cells=64)
    with pytest.raises(LayoutError, match="tv= .* applies to CuTe layouts only"):
        _families.record("linear").picture(VALUES["linear"][0], tv=(4, 2), max_cells=64)


def test_the_registry_imports_no_family_until_asked():
    code = ("import sys, unilayout, unilayout._families as F\n"
            "try:\n    F.family_of(object())\nexcept unilayout.LayoutError:\n    pass\n"
            "F.detect('8:1')\n"
            "print(sorted(m for m in sys.modules if m.startswith('unilayout.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out)
    assert not any(m.split(".")[1] in ("cute", "linear", "affine", "tsl", "tt", "viz", "convert") for m in loaded)


def test_read_checks_the_shape_it_is_given():
    assert unilayout.read("#tsl.tsl<[?] -> (1)>", shape=[8]).shape == (8,)
    for bad in ("8x8", [2, "a"], (-1,)):
        with pytest.raises(LayoutError, match="read: shape"):
            _families.read("8:1", shape=bad)
