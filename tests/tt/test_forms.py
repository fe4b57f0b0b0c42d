"""tt.forms: one metal layout in tt-mlir's v1, v2 and TTNN forms, every element in the same slot."""

import pytest

from unilayout import LayoutError, NotRepresentableError, tt
from unilayout.tt.family import METAL
from unilayout.tt.forms import FORMS, metal_form


@pytest.mark.parametrize("form", FORMS)
def test_each_form_places_every_element_in_the_same_slot(form):
    v1 = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    out = metal_form(v1, form)
    assert type(out).__name__ == {"v1": "MetalLayout", "v2": "MetalLayoutV2", "ttnn": "TTNNTensorLayout"}[form]
    assert out.index_map().tolist() == v1.index_map().tolist()
    assert tt.parse(METAL.form(v1, form)).index_map().tolist() == v1.index_map().tolist()


def test_a_form_that_cannot_place_the_elements_says_why():
    with pytest.raises(NotRepresentableError, match="v1 cannot pad a group's end"):
        metal_form(tt.MetalLayout.from_v2((3, 43, 7), (1, 1)), "v1")
    with pytest.raises(LayoutError, match="form must be 'v1', 'v2' or 'ttnn'"):
        metal_form(tt.MetalLayout.from_collapse((4, 4), (1, 1)), "v3")
    with pytest.raises(LayoutError, match="expected a MetalLayout"):
        metal_form("tensor<4x4xf32>", "v1")
