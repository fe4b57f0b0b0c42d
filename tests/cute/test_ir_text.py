"""cute.ir_text: CuTe IR, the CuTe DSL, FlyDSL and Mojo texts read to values that print back as CuTe IR does.

The texts are the ones the producers print (tests/cute/data/cute_ir_types.txt names each source file); the
malformed ones are CuTe IR's own negative tests (tests/cute/data/cute_ir_errors.txt).
"""

import pathlib

import pytest

from unilayout import cute
from unilayout.cute.dyn import Dyn
from unilayout.cute.ir_text import claims, is_mojo, parse_ir
from unilayout.cute.ir_values import IRTuple, MemRef, Tile
from unilayout.errors import LayoutError, NotRepresentableError, ParseError

DATA = pathlib.Path(__file__).parent / "data"


def _cases():
    mode, out = None, []
    for n, line in enumerate((DATA / "cute_ir_types.txt").read_text().splitlines(), 1):
        if line.startswith("## expect: "):
            mode = line[len("## expect: "):]
        elif line and not line.startswith("#"):
            out.append(pytest.param(line, mode, id=f"L{n}"))
    return out


def _errors():
    out = []
    for n, line in enumerate((DATA / "cute_ir_errors.txt").read_text().splitlines(), 1):
        if line and not line.startswith("#"):
            text, pattern, pos = line.split("\t")
            out.append(pytest.param(text, pattern, int(pos), id=f"L{n}"))
    return out


CASES = _cases()


def test_the_data_file_holds_every_kind_of_type():
    texts = [c.values[0] for c in CASES]
    for head in ("!cute.layout<", "!cute.composed_layout<", "!cute.shape<", "!cute.stride<", "!cute.int_tuple<",
                 "!cute.coord<", "!cute.tile<", "!cute.memref<", "!cute.swizzle<", "tensor<ptr<", "!fly.layout<",
                 "!fly.tile<", "!fly.memref<", "!fly.int_tuple<", "(("):
        assert any(t.startswith(head) for t in texts), head
    assert len(texts) > 150


@pytest.mark.parametrize("text, mode", CASES)
def test_printed_types_read_and_print_back_as_cute_ir(text, mode):
    if mode == "not-representable":
        with pytest.raises(NotRepresentableError):
            cute.parse(text)
        return
    value = cute.parse(text)
    want = text if mode == "round-trip" else mode[len("ir="):]
    assert cute.to_ir(value) == want
    assert cute.parse(cute.to_ir(value)) == value


@pytest.mark.parametrize("text, pattern, pos", _errors())
def test_malformed_types_are_parse_errors_at_the_fault(text, pattern, pos):
    with pytest.raises(ParseError, match=pattern) as e:
        cute.parse(text)
    assert e.value.position == pos


def test_dynamic_leaves_read_with_their_divisibility_and_width():
    L = cute.parse('!cute.layout<"(?,?{div=64}):(?{i64 div=64},?{i64})">')
    assert L.shape == (Dyn(), Dyn(div=64))
    assert L.stride == (Dyn(div=64, bits=64), Dyn(bits=64))


def test_i32_is_the_default_width_and_prints_as_nothing():
    assert cute.to_ir(cute.parse('!cute.int_tuple<"?{i32 div=8}">')) == '!cute.int_tuple<"?{div=8}">'


def test_composed_layout_reads_as_outer_offset_inner():
    C = cute.parse('!cute.composed_layout<"(4,5):(1,4) o 2 o (2,3):(1,2)">')
    assert (C.outer, C.offset, C.inner) == (cute.Layout((4, 5), (1, 4)), 2, cute.Layout((2, 3), (1, 2)))
    assert [C(i) for i in range(6)] == [C.outer(2 + C.inner(i)) for i in range(6)]


def test_memref_swizzle_acts_on_bytes_so_its_element_function_moves_the_base():
    m = cute.parse('!cute.memref<f16, smem, align<1024>, S<3,4,3>, "(8,64):(64,1)">')
    assert m.function() == cute.parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")
    assert m.function() == cute.ComposedLayout(cute.Swizzle(3, 3, 3), 0, cute.Layout((8, 64), (64, 1)))


def test_dsl_tensor_and_memref_are_the_same_value():
    a = cute.parse("tensor<ptr<f16, smem, align<1024>, S<3,4,3>> o (8,64):(64,1)>")
    b = cute.parse('!cute.memref<f16, smem, align<1024>, S<3,4,3>, "(8,64):(64,1)">')
    assert a == b
    assert str(a) == "tensor<ptr<f16, smem, align<1024>, S<3,4,3>> o (8,64):(64,1)>"


def test_fly_basis_modes_are_outer_first_and_cute_inner_first():
    assert cute.parse("!fly.int_tuple<1E0E1>") == cute.parse('!cute.int_tuple<"1@1@0">')
    assert cute.parse('!cute.int_tuple<"1@1@0">').value == cute.ScaledBasis(1, (0, 1))


def test_fly_spaces_read_as_cute_spaces():
    assert [cute.parse(f"!fly.memref<f16, {s}, 8:1>").space for s in ("global", "shared", "register")] == \
        ["gmem", "smem", "rmem"]


def test_mojo_layout_is_the_cute_layout_in_parentheses():
    assert cute.parse("(((2, 2), 4):((1, 2), 4))") == cute.parse("((2,2),4):((1,2),4)")
    assert cute.parse("(8:1)") == cute.Layout(8, 1)


def test_claims_and_mojo_detection_leave_plain_cute_text_alone():
    assert not claims("((2,2),2):((4,1),2)")
    assert not is_mojo("((2,2),2):((4,1),2)")
    assert cute.parse("((2,2),2):((4,1),2)") == cute.Layout(((2, 2), 2), ((4, 1), 2))


def test_plain_cute_text_reads_dynamic_leaves_and_the_dsl_swizzle_spelling():
    assert cute.parse("(?,8):(8,1)") == cute.Layout((Dyn(), 8), (8, 1))
    assert cute.parse("S<3,4,3> o 0 o (8,?):(?{div=8},1)") == cute.ComposedLayout(
        cute.Swizzle(3, 4, 3), 0, cute.Layout((8, Dyn()), (Dyn(div=8), 1)))


def test_a_dynamic_basis_stride_in_plain_text_is_not_representable():
    with pytest.raises(NotRepresentableError, match="dynamic basis stride"):
        cute.parse("(4,8):(?@0,1@1)")


def test_values_of_the_other_types():
    assert parse_ir('!cute.coord<"(_,(?,1))">') == IRTuple("coord", (None, (Dyn(), 1)))
    assert parse_ir('!cute.tile<"[(2,3):(1,2);_]">') == Tile(cute.Layout((2, 3), (1, 2)), None)
    assert isinstance(parse_ir('!cute.memref<f32, gmem, "8:1">'), MemRef)


def test_a_chained_fly_composition_is_not_representable():
    with pytest.raises(NotRepresentableError, match="chained"):
        parse_ir("!fly.composed_layout<S<1,0,1> o 0 o 4:1 o 0 o 4:1>")


def test_deep_nesting_is_a_parse_error_not_a_recursion_error():
    text = '!cute.shape<"' + "(" * 200 + "1" + ")" * 200 + '">'
    with pytest.raises(ParseError, match="nesting deeper"):
        cute.parse(text)


def test_non_text_is_a_layout_error():
    with pytest.raises(LayoutError, match="expected CuTe IR text"):
        parse_ir(8)


def _dsl_facts():
    import json

    data = json.loads((DATA / "cute_ir_facts.json").read_text())
    return [f for f in data["facts"] if "type" in f]


def test_the_cute_dsl_facts_are_recorded():
    facts = _dsl_facts()
    kinds = {f["what"] for f in facts}
    assert {"layout", "composed_layout", "swizzle", "tensor", "op"} <= kinds
    assert any("?{i64 div=" in f["type"] for f in facts) and any("S<3,4,3>," in f["type"] for f in facts)


@pytest.mark.parametrize("fact", _dsl_facts(), ids=lambda f: f["what"])
def test_types_the_cute_dsl_prints_read_and_print_back(fact):
    """bench/cute_ir_facts.py recorded the DSL's print(value) and the value's MLIR type (nvidia-cutlass-dsl on a CPU)."""
    from unilayout.cute.ir_print import ir_string

    value = cute.parse(fact["type"])
    assert cute.to_ir(value) == fact["type"]
    assert cute.parse(fact["print"]) == value or isinstance(value, IRTuple)
    printed = str(value) if isinstance(value, MemRef) else ir_string(value)
    assert printed == fact["print"]


def _random_tree(rng, depth, leaf):
    if depth == 0 or rng.random() < 0.4:
        return leaf()
    return tuple(_random_tree(rng, depth - 1, leaf) for _ in range(rng.randint(1, 3)))


def _same_profile(t, leaf):
    return tuple(_same_profile(v, leaf) for v in t) if isinstance(t, tuple) else leaf()


def test_random_dynamic_layouts_print_read_back_and_bind_as_the_static_layout():
    import random

    rng = random.Random(24)
    dyn = [Dyn(), Dyn(div=4), Dyn(div=64, bits=64), Dyn(bits=64)]
    for _ in range(300):
        shape = _random_tree(rng, 3, lambda: rng.choice(dyn) if rng.random() < 0.3 else rng.randint(1, 6))
        stride = _same_profile(shape, lambda: rng.choice(dyn) if rng.random() < 0.3 else rng.randint(0, 40))
        L = cute.Layout(shape, stride)
        text = cute.to_ir(L)
        assert cute.parse(text) == L
        leaves = [d for d in (list(cute.flatten(shape)) if isinstance(shape, tuple) else [shape])
                  + (list(cute.flatten(stride)) if isinstance(stride, tuple) else [stride]) if type(d) is Dyn]
        values = [d.div * rng.randint(1, 3) for d in leaves]
        bound, want = cute.bind(cute.parse(text), values), cute.bind(L, values)
        assert bound == want
        if want.size <= 4096:
            assert bound.index_map().tolist() == want.index_map().tolist()


@pytest.mark.parametrize("text", [
    # FlyDSL's printed types (ROCm/FlyDSL lit tests' CHECK lines and docs)
    "!fly.layout<(4,8):(1,4)>", "!fly.layout<27:1>", "!fly.layout<(128,64):(1E0,1E1)>", "!fly.int_tuple<(1E0,1E1)>",
    "!fly.int_tuple<?>", "!fly.tile<[*|*|(4,16,2):(1,8,4)]>", "!fly.tile<[32:1|32:1]>",
    "!fly.layout<(?,?):(?{i64 div=16},1)>", "!fly.composed_layout<S<3,4,3> o 0 o (8,64):(64,1)>",
])
def test_fly_types_print_back_as_flydsl_prints_them(text):
    assert cute.to_ir(cute.parse(text), dialect="fly") == text


def test_fly_printing_refuses_what_flydsl_has_no_type_for():
    with pytest.raises(NotRepresentableError):
        cute.to_ir(cute.parse('!cute.memref<f16, gmem, "8:1">'), dialect="fly")
    with pytest.raises(NotRepresentableError):
        cute.to_ir(cute.parse('!cute.tile<"[1:0;[(2,4):(1,2);_]]">'), dialect="fly")
    with pytest.raises(LayoutError, match="dialect"):
        cute.to_ir(cute.Layout(8, 1), dialect="mlir")


def test_mutated_types_are_read_or_refused_with_a_layout_error_and_what_reads_prints_back():
    import random

    rng = random.Random(2024)
    texts = [c.values[0] for c in CASES]
    alphabet = '()[],:;?{}<>"_-0123456789@E*|o S/ivd=#!.'
    for _ in range(2000):
        t = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(t))
            if rng.random() < 0.5:
                del t[i]
            else:
                t.insert(i, rng.choice(alphabet))
        text = "".join(t)
        try:
            value = cute.parse(text)
        except LayoutError:
            continue
        try:
            ir = cute.to_ir(value)
        except LayoutError:
            continue
        assert cute.parse(ir) == value, text
