"""Basis-stride layouts as coordinate tables (cute.coords), against the layout's own evaluation ``L(i)``."""

import numpy as np
import pytest

from unilayout import LayoutError, cute
from unilayout.cute.coords import coordinate_columns, coordinate_labels

CASES = ["(4,5):(1@0,1@1)", "8:2@0", "(2,3):(1@1,2@0)", "(128,32):(1@2,1@3)", "(2,(3,4)):(1@0,(1@(1,0),1@(1,1)))",
         "((2,2),3):((1@0,2@0),1@1)", "(4,2):(1@0,0)", "(3,1,2):(1@1,5,2@1)"]


def _spelled(c, width):
    """L(i) (an ArithTuple, possibly nested) as a flat dict {path: value}."""
    out = {}

    def walk(x, path):
        if isinstance(x, tuple):
            for k, y in enumerate(x):
                walk(y, path + (k,))
        elif x:
            out[path] = x
    walk(c, ())
    return out


@pytest.mark.parametrize("text", CASES)
def test_columns_equal_the_layouts_own_evaluation(text):
    L = cute.parse(text)
    paths, vals = coordinate_columns(L)
    assert vals.shape == (L.size, len(paths))
    for i in range(L.size):
        got = {p: int(v) for p, v in zip(paths, vals[i]) if v}
        assert got == _spelled(L(i), len(paths)), i


@pytest.mark.parametrize("text", CASES[:6])
def test_labels_spell_the_coordinate_as_cute_prints_it(text):
    L = cute.parse(text)
    labels = coordinate_labels(*coordinate_columns(L))
    assert labels.tolist() == [str(L(i)).replace(" ", "").replace(",)", ")") for i in range(L.size)]  # CuTe: (0)


def test_far_apart_modes_cost_one_column_each():
    L = cute.parse("(4,5):(1@100000000,1@1)")
    paths, vals = coordinate_columns(L)
    assert paths == ((1,), (100000000,)) and vals.shape == (20, 2) and vals.nbytes == 20 * 2 * 8
    assert coordinate_labels(paths, vals)[5] == "1@1+1@100000000"


def test_only_some_coordinates():
    L = cute.parse("(4,5):(1@0,1@1)")
    assert coordinate_columns(L, np.array([7, 19]))[1].tolist() == [[3, 1], [3, 4]]


@pytest.mark.parametrize("text", ["(4,2):(1@0,1)", "(2,2):(1@0,3)"])
def test_integer_strides_next_to_basis_ones_are_refused(text):
    with pytest.raises(LayoutError, match="cannot add an integer"):
        coordinate_columns(cute.parse(text))
