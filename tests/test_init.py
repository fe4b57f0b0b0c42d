"""The top level: unilayout.parse (family detection), index_map, equivalent, family_of."""

import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unilayout
from seed_texts import SEED_DEVICE, SEED_LINEAR, SEED_TENSOR, SEED_TILED
from unilayout import LayoutError, ParseError, affine, cute, linear, tsl, tt


@pytest.mark.parametrize(
    "text, kind, family",
    [
        ("((2,2),2):((4,1),2)", cute.Layout, "cute"),
        ("8:1", cute.Layout, "cute"),
        ("(8,4)", cute.Layout, "cute"),
        ("(_8, _4) : (_4, _1)", cute.Layout, "cute"),
        ("Sw<3,4,3> o 0 o (8,64):(64,1)", cute.ComposedLayout, "cute"),
        ("Sw<2,0,2>", cute.Swizzle, "cute"),
        ("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>", tsl.TiledStridedLayout, "tsl"),
        ("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>", tsl.TiledStridedLayout, "tsl"),
        ("[2, 4] -> (32, 4), [2, 4] -> (16, 1)", tsl.TiledStridedLayout, "tsl"),
        ("(d0, d1) -> (d0 * 2 + d1)", affine.AffineMap, "affine"),
        ("(d0)[s0] -> (d0 mod s0)", affine.AffineMap, "affine"),
        ("affine_map<(i, j) -> (j, i)>", affine.AffineMap, "affine"),
        ("() -> (0)", affine.AffineMap, "affine"),
        (SEED_TENSOR, tt.MetalLayout, "metal"),
        (SEED_TILED, tt.MetalLayout, "metal"),
        (SEED_DEVICE, tt.Device, "device"),
        (SEED_LINEAR, linear.LinearLayout, "linear"),
        ("  \n " + SEED_LINEAR, linear.LinearLayout, "linear"),
    ],
)
def test_parse_detects_every_form(text, kind, family):
    v = unilayout.parse(text)
    assert isinstance(v, kind)
    assert unilayout.family_of(v) == family


SEEDS = pathlib.Path("/work/shared/seeds")


def _blocks(text, starts):
    """Every balanced ``<...>`` block of ``text`` beginning with one of ``starts``."""
    out = []
    for start in starts:
        i = text.find(start)
        while i >= 0:
            depth, j = 0, i
            while j < len(text):
                depth += text[j] == "<"
                depth -= text[j] == ">" and text[j - 1] != "-"
                j += 1
                if depth == 0 and text[j - 1] == ">":
                    break
            out.append(text[i:j])
            i = text.find(start, j)
    return out


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed texts not available")
def test_parse_agrees_with_the_family_parsers_on_every_seed_text():
    count = 0
    for path, starts, family_parse in [
        ("tt-mlir-tensor-layout.txt", ["tensor<"], tt.parse),
        ("tt-mlir-device.txt", ["tensor<", "#tt.device<"], tt.parse),
        ("snax-tsl-memory-layouts.txt", ["#tsl.tsl<"], tsl.parse),
    ]:
        for block in _blocks((SEEDS / path).read_text(), starts):
            count += 1
            try:
                want = family_parse(block)
            except ParseError as e:
                with pytest.raises(ParseError) as info:
                    unilayout.parse(block)
                assert info.value.position == e.position
                continue
            assert unilayout.parse(block) == want
    assert count >= 20


def test_parse_round_trips_printed_forms():
    for text in ["((2,2),2):((4,1),2)", "Sw<3,4,3> o 0 o (8,64):(64,1)",
                 "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>", "(d0, d1) -> (d1, d0 * 2)"]:
        assert str(unilayout.parse(text)) == text
    ml = unilayout.parse(SEED_TENSOR)
    assert unilayout.parse(ml.tensor_type()) == ml
    dev = unilayout.parse(SEED_DEVICE)
    assert unilayout.parse(str(dev)) == dev
    L = unilayout.parse(SEED_LINEAR)
    assert unilayout.parse(linear.to_attr(L)) == L


@pytest.mark.parametrize(
    "text, position",
    [
        ("", 0),
        ("   ", 3),
        ("hello", 0),
        ("  {1, 2}", 3),
        ("#foo<1>", 0),
        ("#ttg.blocked<{sizePerThread = [1, 1]}>", 37),  # Triton's text: the missing field, at the closing '>'
        ("(2,3):(1,", 9),
        ("  (2,3):(1,", 11),
        ("(d0) -> (d0 +)", 13),
        ("#tsl.tsl<[a, b] -> (8, 1)>", 10),
        ("#ttg.linear<{register = [[1]], lane = []}", 41),
        ("tensor<4xf32, #tt.metal_layout<(d0) -> (d0), undef, <1>, memref<5xf32, #tt.memory_space<l1>>>>", None),
    ],
)
def test_bad_text_gives_parse_error_with_position(text, position):
    with pytest.raises(ParseError) as info:
        unilayout.parse(text)
    e = info.value
    assert e.text == text and 0 <= e.position <= len(text)
    if position is not None:
        assert e.position == position, str(e)
    assert "^" in str(e)


def test_parse_rejects_non_text():
    with pytest.raises(LayoutError, match="expected text"):
        unilayout.parse(3)


@given(st.text(max_size=30))
@settings(max_examples=200, deadline=None)
def test_parse_never_crashes(text):
    try:
        unilayout.parse(text)
    except LayoutError:
        pass


PREFIXES = ["(", "8:", "Sw<", "#tsl.tsl<[", "[2, ", "#ttg.linear<{register = [", "tensor<4x", "#tt.device<",
            "affine_map<(d0) -> (", "(d0) -> (", "(2,2):(1,2) o "]


@given(st.sampled_from(PREFIXES), st.text(alphabet="0123456789(),:<>[]{}-x ?=#abdfimnorstuv_\u00b2", max_size=25))
@settings(max_examples=400, deadline=None)
def test_parse_of_broken_family_text_is_a_positioned_parse_error(prefix, rest):
    text = prefix + rest
    try:
        unilayout.parse(text)
    except ParseError as e:
        assert 0 <= e.position <= len(text)
    except LayoutError:
        pass


# ------------------------------------------------------------------------------------------ index_map


def test_index_map_every_family():
    assert unilayout.index_map(cute.parse("(2,2):(2,1)")).tolist() == [0, 2, 1, 3]
    C = cute.parse("Sw<1,0,1> o 0 o 4:1")
    assert unilayout.index_map(C).tolist() == [0, 1, 3, 2]
    sw = cute.Swizzle(1, 0, 1)
    assert unilayout.index_map(sw).tolist() == [0, 1, 3, 2]
    assert unilayout.index_map(sw, shape=(8,)).tolist() == [0, 1, 3, 2, 4, 5, 7, 6]
    L = linear.LinearLayout({"t": [[1, 1], [2, 2]], "w": [[0, 1], [0, 2]]}, ["x", "y"])
    im = unilayout.index_map(L)
    assert im.shape == (16, 2) and im.dtype == np.int64 and im[15].tolist() == [3, 0]
    t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>")
    assert unilayout.index_map(t).shape == (64,)
    assert unilayout.index_map(t)[:8].tolist() == [5, 6, 7, 8, 21, 22, 23, 24]
    dyn = tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>")
    np.testing.assert_array_equal(unilayout.index_map(dyn, shape=(64, 64)), dyn.resolve((64, 64)).index_map().reshape(-1))
    m = affine.parse("(d0, d1) -> (d1, d0)")
    assert unilayout.index_map(m, shape=(2, 3)).tolist() == [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]
    ml = unilayout.parse(SEED_TENSOR)
    np.testing.assert_array_equal(unilayout.index_map(ml), ml.index_map())
    dev = unilayout.parse(SEED_DEVICE)
    cores = unilayout.index_map(dev)
    assert cores.shape == (128, 3) and cores[8].tolist() == [1, 0, 0]


def test_index_map_errors():
    with pytest.raises(LayoutError, match="pass the shape"):
        unilayout.index_map(affine.parse("(d0) -> (d0)"))
    with pytest.raises(LayoutError, match="only for"):
        unilayout.index_map(cute.Layout(4, 1), shape=(4,))
    with pytest.raises(LayoutError, match="expected a unilayout layout value"):
        unilayout.index_map([1, 2])
    with pytest.raises(LayoutError):
        unilayout.index_map(cute.Swizzle(1, 0, 1), shape=(2, 2))


def test_lazy_family_imports_and_exports():
    assert unilayout.__version__
    assert unilayout.cute.Layout is cute.Layout
    assert unilayout.convert.convert_to
    with pytest.raises(AttributeError):
        unilayout.nope  # noqa: B018 (the attribute access is the test)
    for name in unilayout.__all__:
        assert hasattr(unilayout, name)
