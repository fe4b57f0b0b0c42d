"""Shared-memory swizzle atoms: equal to CuTe C++'s (position-independent form), and one function across
CuTe, Triton's nvmma_shared and TMA (each row of the docs' table is a case here)."""

import pytest

from unilayout import cute
from unilayout.convert import cute_triton
from unilayout.convert.cute_triton import (
    SMEM_KINDS,
    check_equivalents,
    smem_atom,
    smem_atom_bits,
    smem_equivalents,
    smem_table,
)
from unilayout.errors import LayoutError

from . import cute_cpp

CPP = cute_cpp.load()


@pytest.mark.parametrize("kind, bits", cute_cpp.SMEM)
def test_atom_equals_cute_cpp(kind, bits):
    printed, independent = CPP[f"smem:{kind}:{bits}"].split("|")
    atom = smem_atom(kind, bits)
    # C++ prints Sw<B,4,3> (on byte addresses) over the element layout; the tensor form is on elements
    assert printed == f"Sw<{atom.outer.bits},4,3>o0o{atom.inner}".replace(" ", "")
    expected = cute.parse(independent.replace("o0o", " o 0 o "))
    if isinstance(expected, cute.Layout):  # INTER: C++ drops the identity swizzle
        assert atom.outer.bits == 0 and atom.inner == expected
    else:
        assert atom == expected


@pytest.mark.parametrize("kind", SMEM_KINDS)
@pytest.mark.parametrize("bits", [8, 16, 32])
def test_cute_triton_and_tma_name_one_function(kind, bits):
    check_equivalents(kind, bits)


def test_the_check_can_fail():
    """A 128-byte atom is not Triton's 64-byte layout, nor a K-major atom the transposed one."""
    real = cute_triton._triton_linear
    try:
        cute_triton._triton_linear = lambda kind, bits, shape: real(kind.replace("SW128", "SW64"), bits, shape)
        with pytest.raises(LayoutError, match="Triton's nvmma_shared reads"):
            check_equivalents("K_SW128", 16)
        cute_triton._triton_linear = lambda kind, bits, shape: real("MN" + kind[1:] if kind[0] == "K" else kind, bits, shape)
        with pytest.raises(LayoutError):
            check_equivalents("K_SW64", 16)
    finally:
        cute_triton._triton_linear = real


def test_equivalents_and_table():
    e = smem_equivalents("MN_SW128", 8)
    assert e["triton"] == "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>"
    assert e["tma"] == "CU_TENSOR_MAP_SWIZZLE_128B" and e["umma"] == "UMMA::Layout_MN_SW128_Atom<T>"
    rows = smem_table(16)
    assert [r[0] for r in rows] == list(SMEM_KINDS)
    assert rows[0][3] == "CU_TENSOR_MAP_SWIZZLE_NONE"


def test_bits_form_and_refusals():
    assert str(smem_atom_bits("K_SW128")) == "Sw<3,4,3> o 0 o (8,1024):(1024,1)"
    with pytest.raises(LayoutError, match="kind must be one of"):
        smem_atom("SW128", 16)
    with pytest.raises(LayoutError, match="element_bits must be"):
        smem_atom("K_SW128", 12)


def test_the_old_paths_are_aliases_of_convert_cute_triton():
    """cute.smem (module) and cute.smem_atom & co. (package names) are the functions of convert.cute_triton."""
    from unilayout.cute import smem

    for name in ("SMEM_KINDS", "check_equivalents", "smem_atom", "smem_equivalents", "smem_table"):
        assert getattr(cute, name) is getattr(cute_triton, name) is getattr(smem, name)
    assert smem.smem_atom_bits is smem_atom_bits and set(cute.__all__) >= set(smem.__all__) - {"smem_atom_bits"}
    with pytest.raises(AttributeError, match="no attribute 'smem_atoms'"):
        _ = cute.smem_atoms
