import pytest

from unilayout import LayoutError, cute
from unilayout.cute import (
    ComposedLayout,
    Layout,
    Swizzle,
    blocked_product,
    complement,
    left_inverse,
    logical_product,
    parse,
    right_inverse,
    upcast,
)


@pytest.mark.parametrize("inverse", [left_inverse, right_inverse])
@pytest.mark.parametrize("text", ["8:2@0", "(4,8):(1@0,1@1)", "(2,2):(1@1,4)"])
def test_inverses_of_basis_stride_layouts_are_a_layout_error(inverse, text):
    with pytest.raises(LayoutError, match=f"basis strides.*no {inverse.__name__}"):
        inverse(cute.parse(text))


@pytest.mark.parametrize("inverse", [left_inverse, right_inverse])
def test_inverse_of_a_swizzled_basis_layout_is_a_layout_error(inverse):
    with pytest.raises(LayoutError, match="basis strides"):
        inverse(ComposedLayout(Swizzle(1, 0, 1), 0, cute.parse("(2,2):(1@0,1@1)")))


@pytest.mark.parametrize("text", ["(4,5):(1@0,1@1)", "8:2@0"])
def test_complement_and_products_of_basis_strides_are_layout_errors(text):
    """CuTe's complement sorts and divides integral strides; with basis strides it is a LayoutError, not a TypeError."""
    L = parse(text)
    for f in (lambda: complement(L), lambda: logical_product(L, Layout(2, 1)), lambda: blocked_product(L, Layout(2, 1)),
              lambda: upcast(2, L)):
        with pytest.raises(LayoutError, match="basis stride"):
            f()
