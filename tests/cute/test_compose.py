import pytest

from unilayout import LayoutError, cute
from unilayout.cute import ComposedLayout, Swizzle, left_inverse, right_inverse


@pytest.mark.parametrize("inverse", [left_inverse, right_inverse])
@pytest.mark.parametrize("text", ["8:2@0", "(4,8):(1@0,1@1)", "(2,2):(1@1,4)"])
def test_inverses_of_basis_stride_layouts_are_a_layout_error(inverse, text):
    with pytest.raises(LayoutError, match=f"basis strides.*no {inverse.__name__}"):
        inverse(cute.parse(text))


@pytest.mark.parametrize("inverse", [left_inverse, right_inverse])
def test_inverse_of_a_swizzled_basis_layout_is_a_layout_error(inverse):
    with pytest.raises(LayoutError, match="basis strides"):
        inverse(ComposedLayout(Swizzle(1, 0, 1), 0, cute.parse("(2,2):(1@0,1@1)")))
