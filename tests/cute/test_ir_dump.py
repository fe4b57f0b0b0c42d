"""cute.ir_dump: every CuTe IR type of an MLIR dump, read once each, errors at their place in the dump."""

import pytest

from unilayout import cute
from unilayout.cute.ir_dump import ir_types
from unilayout.errors import ParseError

# Lines shaped as the CuTe DSL's dumps (examples/python/CuTeDSL/*.mlir in NVIDIA/cutlass).
DUMP = """!copy_simt = !cute.tiled_copy<!cute_nvgpu.atom.universal_copy<f16, 128 b>, layout_copy_tv = <"(1,8):(0,1)">, tiler_mn = <"[8:1;1:0;1:0]">>
!memref_gmem_f16_ = !cute.memref<f16, gmem, align<16>, "(?,?{div=64}):(?{i64 div=64},1)">
      %2375 = "cute.get_layout"(%arg250) : (!memref_gmem_f16_) -> !cute.layout<"(?,?{div=64}):(?{i64 div=64},1)">
      %2381 = "cute.get_iter"(%arg250) : (!memref_gmem_f16_) -> !cute.ptr<f16, gmem, align<16>>
      %2374 = "cute.make_coord"(%2372, %2367) : (i32, i32) -> !cute.coord<"(?,_,(?,?))">
      %2380 = "cute.crd2idx"(%2374, %2375) : (!cute.coord<"(?,_,(?,?))">, !cute.layout<"(?,?{div=64}):(?{i64 div=64},1)">) -> !cute.int_tuple<"?{i64 div=64}">
      %tile = cute.make_tile() : () -> !cute.tile<"[1:0;1024:1;1:0]">
"""


def test_every_cute_type_of_a_dump_is_read_in_order_and_others_are_passed_over():
    found = ir_types(DUMP)
    assert [t.split("<", 1)[0] for _, t, _ in found] == [
        "!cute.memref", "!cute.layout", "!cute.coord", "!cute.coord", "!cute.layout", "!cute.int_tuple", "!cute.tile"]
    for pos, text, value in found:
        assert DUMP[pos:pos + len(text)] == text
        assert cute.to_ir(value) == text


def test_a_repeated_type_is_read_once():
    found = ir_types(DUMP)
    layouts = [v for _, t, v in found if t.startswith("!cute.layout")]
    assert layouts[0] is layouts[1]


def test_a_malformed_type_is_a_parse_error_at_its_place_in_the_dump():
    bad = DUMP.replace('"(?,_,(?,?))">,', '"(?,_,(?,?)">,')
    at = bad.index('(?,_,(?,?)">,') + len("(?,_,(?,?)")
    with pytest.raises(ParseError) as e:
        ir_types(bad)
    assert e.value.position == at


def test_an_unclosed_type_is_a_parse_error():
    with pytest.raises(ParseError, match="not closed") as e:
        ir_types('x = !cute.layout<"(2,3):(1,2)"')
    assert e.value.position == 4


def test_a_type_unilayout_cannot_hold_has_its_reason_in_place_of_the_value():
    from unilayout.errors import NotRepresentableError

    [(_, _, a), (_, _, b)] = ir_types('%v = cute.local_tile(%t) : !cute.coord_tensor<"(?,0)", "(4,8):(1@0,1@1)"> '
                                      '-> !cute.stride<"(1,?@0)">')
    assert isinstance(a, NotRepresentableError) and "starts at (?,0)" in str(a)
    assert isinstance(b, NotRepresentableError) and "dynamic basis" in str(b)
