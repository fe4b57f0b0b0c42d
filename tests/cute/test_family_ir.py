"""The cute family's record takes CuTe IR's values: show, render, the explorer and notebooks (cute/family.py)."""

import pytest

from unilayout import cute
from unilayout.cute.family import CUTE
from unilayout.errors import LayoutError, NotRepresentableError
from unilayout.facts import describe


def test_a_memref_is_drawn_as_its_function_of_element_offsets(tmp_path):
    from unilayout.viz import render

    m = cute.parse('!cute.memref<f16, smem, align<1024>, S<3,4,3>, "(8,64):(64,1)">')
    assert CUTE.index_map(m).tolist() == cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)").index_map().tolist()
    out = render(m, str(tmp_path / "m.svg"))
    assert (tmp_path / "m.svg").read_text().startswith("<svg") and out


def test_show_of_a_memref_names_its_pointer_and_its_layout_facts():
    d = describe(cute.parse('!cute.memref<f32, smem, align<16>, "(4,8):(8,1)">'))
    assert (d["element"], d["space"], d["align"], d["size"], d["injective"]) == ("f32", "smem", 16, 32, True)
    assert d["text"] == '!cute.memref<f32, smem, align<16>, "(4,8):(8,1)">'


def test_a_dynamic_layout_has_no_box_until_its_values_are_given():
    L = cute.parse('!cute.layout<"(?,8):(8,?{div=2})">')
    assert CUTE.box(L) is None
    assert CUTE.with_shape(L, (4, 2)) == cute.Layout((4, 8), (8, 2))
    with pytest.raises(LayoutError, match=r"\?\{div=2\}"):
        CUTE.with_shape(L, (4, 3))
    with pytest.raises(LayoutError, match="bind"):
        CUTE.index_map(L)


def test_tables_of_a_dynamic_layout_say_to_bind_it():
    [(title, text)] = CUTE.tables(cute.parse("(?,4):(4,1)"), None, 100)
    assert "cute.bind" in text


def test_tiles_and_int_tuples_have_facts_but_no_picture():
    t = cute.parse('!cute.tile<"[(4,2):(1,4);_]">')
    assert describe(t)["modes"] == "(4,2):(1,4); _ (pass-through)"
    with pytest.raises(NotRepresentableError, match="not a layout"):
        CUTE.index_map(t)
    assert describe(cute.parse('!cute.shape<"(?,4)">'))["static"] is False


def test_canonical_text_reads_back_to_the_value():
    for text in ('!cute.coord<"(_,?)">', '!cute.tile<"[8:1;_]">', "tensor<ptr<f16, gmem, align<16>> o (8,?):(?,1)>",
                 '!cute.layout<"(?,8):(1,?{i64 div=8})">'):
        v = cute.parse(text)
        assert cute.parse(CUTE.canonical(v)) == v


def test_the_explorer_draws_a_dynamic_layout_once_its_values_are_bound():
    from unilayout.explorer.views import text_view

    v = text_view("(?,8):(8,?{div=2})", (4, 2))
    assert v["count"] == 32 and v["text"] == "(4,8):(8,2)"


def test_notebook_draws_a_memref_and_falls_back_to_text_for_a_dynamic_one():
    from unilayout import _notebook

    assert _notebook.svg(cute.parse('!cute.memref<f32, gmem, "(4,2):(2,1)">')).startswith("<svg")
    assert _notebook.svg(cute.parse("(?,2):(2,1)")) is None


def test_bind_gives_the_static_value_and_names_a_contradicting_leaf():
    m = cute.parse('!cute.memref<f16, gmem, align<16>, "(?,?{div=8}):(?{i64 div=8},1)">')
    assert CUTE.with_shape(m, (2, 16, 16)).layout == cute.Layout((2, 16), (16, 1))
    with pytest.raises(LayoutError, match=r"leaf 1 \(\?\{div=8\}, shape of mode 1\) is not a multiple of 8"):
        CUTE.with_shape(m, (2, 12, 16))


def test_print_layout_of_a_dsl_tensor_is_its_layout_table():
    from unilayout.cute.printing import layout_table

    t = cute.parse("tensor<ptr<f32, gmem, align<16>> o (2,4):(4,1)>")
    assert layout_table(t) == layout_table(cute.Layout((2, 4), (4, 1)))


def test_drawing_a_dynamic_layout_says_how_to_give_its_values():
    with pytest.raises(LayoutError, match=r"--shape V0xV1"):
        CUTE.picture(cute.parse("(?,4):(4,1)"), max_cells=100)


def test_cute_bind_takes_every_cute_ir_value():
    t = cute.parse("tensor<ptr<f16, gmem, align<16>> o (128,32,?):(1,?{i64 div=8},?{i64 div=256})>")
    assert str(cute.bind(t, [4, 128, 4096])) == "tensor<ptr<f16, gmem, align<16>> o (128,32,4):(1,128,4096)>"
    assert cute.bind(cute.parse('!cute.tile<"[?:1;_]">'), [16]) == cute.Tile(16, None)
    with pytest.raises(LayoutError, match=r"leaf 1 \(\?\{i64 div=8\}, stride of mode 1\)"):
        cute.bind(t, [4, 100, 4096])
