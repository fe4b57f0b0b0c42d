import pytest

from unilayout.cute import composition, flat_divide, logical_divide, parse, tiled_divide, zipped_divide


def _values(L):
    return sorted(tuple(L(i)) for i in range(L.size))


@pytest.mark.parametrize("a, b", [("(8,4):(1@1,1@0)", "2:4@0"), ("(8,4):(1@1,1@0)", "(2,2):(1@0,2@1)"),
                                  ("(4,6):(1@0,1@1)", "3:2@1")])
def test_divide_by_a_basis_tiler_splits_the_coordinates_of_a_basis_layout(a, b):
    """The tiler's values are coordinates of A; its complement, taken in the coordinate space shape(coalesce(A)),
    gives the rest: mode 0 is A o B, and the divide reaches exactly A's values, each once."""
    A, B = parse(a), parse(b)
    R = logical_divide(A, B)
    assert R[0] == composition(A, B)
    assert _values(R) == _values(A)
    for op in (zipped_divide, tiled_divide, flat_divide):
        assert _values(op(A, B)) == _values(A)


def test_divide_by_a_basis_tiler_is_the_cute_ir_result():
    assert str(logical_divide(parse("(128,64):(1@1,1@0)"), parse("2:64@0"))) == "(2,(64,64)):(64@1,(1@1,1@0))"
