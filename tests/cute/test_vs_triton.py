"""CuTe's SM80/SM89/SM90 MMA fragments against Triton's nvidia_mma / dot_op: each row of the docs' table."""

import numpy as np
import pytest

from unilayout.convert import cute_to_linear, cute_triton
from unilayout.convert.cute_triton import FRAGMENT_ROWS, compare_fragment, fragment_table, triton_fragment
from unilayout.cute import mma_atom
from unilayout.errors import LayoutError
from unilayout.linear import algebra as LA

NO_COUNTERPART = {("SM80_16x8x8_F16F16F16F16_TN", "A"), ("SM80_16x8x8_F16F16F16F16_TN", "B"),
                  ("SM80_16x8x4_F32TF32TF32F32_TN", "A"), ("SM80_16x8x4_F32TF32TF32F32_TN", "B")}


@pytest.mark.parametrize("name, operand", FRAGMENT_ROWS)
def test_fragment_row(name, operand):
    if (name, operand) in NO_COUNTERPART:
        with pytest.raises(LayoutError, match="Triton's dot_op tile"):
            compare_fragment(name, operand)
    else:
        assert compare_fragment(name, operand) == "same"


@pytest.mark.parametrize("name", ["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x32_S32S8S8S32_TN",
                                  "SM80_16x8x8_F32TF32TF32F32_TN"])
@pytest.mark.parametrize("operand", "ABC")
def test_the_same_rows_are_equal_linear_layouts_through_cute_to_linear(name, operand):
    atom = mma_atom(name)
    m, n, k = atom.shape_mnk
    lay = {"A": atom.layout_a, "B": atom.layout_b, "C": atom.layout_c}[operand]
    outs = {"A": {"dim0": m, "dim1": k}, "B": {"dim1": n, "dim0": k}, "C": {"dim0": m, "dim1": n}}[operand]
    vals = ("register",) * len(lay[1].shape) if isinstance(lay[1].shape, tuple) else "register"
    ours = cute_to_linear(lay, in_dims=(("lane", "lane"), vals), out_dims=outs)
    ours = LA.transpose_outs(LA.transpose_ins(ours, ["register", "lane"]), ["dim0", "dim1"])
    enc, shape = triton_fragment(atom, operand)
    theirs = LA.sublayout(enc.to_linear(shape), ["register", "lane"], ["dim0", "dim1"])
    assert ours == theirs


def test_the_comparison_can_say_different_and_same_per_thread(monkeypatch):
    atom = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    real = cute_triton._cute_coords
    monkeypatch.setattr(cute_triton, "_cute_coords", lambda a, op: real(a, op)[:, ::-1])  # registers reversed
    assert compare_fragment(atom, "C") == "same per thread"
    monkeypatch.setattr(cute_triton, "_cute_coords", lambda a, op: np.roll(real(a, op), 1, axis=0))  # threads moved
    assert compare_fragment(atom, "C") == "different"


def test_table_and_refusals():
    rows = fragment_table()
    assert len(rows) == len(FRAGMENT_ROWS) and sum(r[3] == "same" for r in rows) == len(FRAGMENT_ROWS) - 4
    with pytest.raises(LayoutError, match="no mma encoding"):
        compare_fragment("SM70_8x8x4_F32F16F16F32_TN", "C")
    with pytest.raises(LayoutError, match="operand must be"):
        compare_fragment("SM80_16x8x16_F32F16F16F32_TN", "D")


def test_cute_vs_triton_is_an_alias_of_convert_cute_triton():
    from unilayout.cute import vs_triton

    assert [getattr(vs_triton, n) for n in vs_triton.__all__] == [getattr(cute_triton, n) for n in vs_triton.__all__]
