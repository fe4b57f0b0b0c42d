"""Every copy atom's bit layouts equal the Copy_Traits definitions in the CUTLASS headers themselves.

The headers (``cute/atom/copy_traits_sm{75,80,90,100}.hpp`` of the
``nvidia-cutlass`` wheel that CI installs) are read as data: each
``struct Copy_Traits<OP>`` gives ``ThrID``, ``SrcLayout``, ``DstLayout`` and
``RefLayout`` as ``Layout<Shape<..>,Stride<..>>`` types, or as another op's
(``typename Copy_Traits<LOAD>::DstLayout`` for a tcgen05 store). The test
resolves those references and compares them with ``copy_atom(OP, bits)``'s
``thr_id``/``bits_src``/``bits_dst``/``bits_ref``, atom by atom, and checks
that every tcgen05 ld/st op of the header is in the catalogue.
"""

import os
import re

import pytest

from unilayout import cute
from unilayout.cute import copy_atom, copy_atoms


def _include():
    try:
        import cutlass_library
    except ImportError:
        return None
    path = os.path.join(os.path.dirname(cutlass_library.__file__), "source", "include", "cute", "atom")
    return path if os.path.isdir(path) else None


INCLUDE = _include()
pytestmark = pytest.mark.skipif(INCLUDE is None, reason="the CUTLASS headers (pip install nvidia-cutlass) are missing")
KEYS = ("ThrID", "SrcLayout", "DstLayout", "RefLayout")


def _traits():
    """{op: {key: definition text without spaces}} from the copy traits headers."""
    out = {}
    for sm in ("75", "80", "90", "100"):
        path = os.path.join(INCLUDE, f"copy_traits_sm{sm}.hpp")
        text = open(path).read()
        for m in re.finditer(r"struct Copy_Traits<(\w+)>\s*\{(.*?)\n\};", text, re.S):
            defs = {}
            for key in KEYS:
                d = re.search(r"using %s\s*=\s*(.*?);" % key, m.group(2), re.S)
                if d:
                    defs[key] = re.sub(r"\s+", "", d.group(1))
            if len(defs) == 4:
                out[m.group(1)] = defs
    return out


def _layout(defs, key, traits, depth=0):
    """The layout ``defs[key]`` names, following ``SrcLayout`` / ``typename Copy_Traits<OP>::X`` references."""
    d = defs[key]
    if d in KEYS:
        return _layout(defs, d, traits, depth + 1)
    ref = re.fullmatch(r"typenameCopy_Traits<(\w+)>::(\w+)", d)
    if ref:
        assert depth < 8, d
        return _layout(traits[ref.group(1)], ref.group(2), traits, depth + 1)
    body = re.fullmatch(r"Layout<(.*)>", d).group(1)
    text = body.replace("Shape<", "(").replace("Stride<", "(").replace(">", ")").replace("_", "")
    depth, cut = 0, None
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if c == "," and depth == 0:
            cut = i
    if cut is None:  # a shape alone (Layout<_32>): column-major, and CuTe's static algebra gives a size-1 mode stride 0
        lay = cute.parse(text)
        zero = lambda sh, st: tuple(zero(a, b) for a, b in zip(sh, st)) if isinstance(sh, tuple) else (0 if sh == 1 else st)
        return cute.Layout(lay.shape, zero(lay.shape, lay.stride))
    return cute.parse(text[:cut] + ":" + text[cut + 1:])


TRAITS = _traits() if INCLUDE else {}
OURS = [n for n in copy_atoms() if not n.startswith("SM90_TMA") and not n.startswith(("UniversalCopy", "SM80_CP"))]


def test_the_headers_are_read():
    assert len(TRAITS) > 150 and "SM100_TMEM_LOAD_16dp256b1x_16b" in TRAITS and "SM75_U32x1_MOVM_T" in TRAITS


def test_every_tcgen05_op_of_the_header_is_in_the_catalogue():
    tmem = {n for n in TRAITS if n.startswith("SM100_TMEM_")}
    assert len(tmem) == 148
    assert tmem == set(copy_atoms("SM100_TMEM_"))


@pytest.mark.parametrize("name", OURS)
def test_bit_layouts_equal_the_header(name):
    assert name in TRAITS, name
    defs, a = TRAITS[name], copy_atom(name, 8)  # the bit layouts do not depend on the element width
    for key, ours in zip(KEYS, (a.thr_id, a.bits_src, a.bits_dst, a.bits_ref)):
        want = _layout(defs, key, TRAITS)
        assert str(ours) == str(want), key  # the same shape, modes and strides as the header writes


def test_a_16b_packing_moves_the_same_bits_as_its_plain_op():
    """``.pack::16b`` changes how registers hold the bits, not which bits a thread gets: same traits layouts."""
    for name in copy_atoms("SM100_TMEM_LOAD_16dp"):
        if name.endswith("_16b"):
            p, q = copy_atom(name, 16), copy_atom(name[:-4], 16)
            assert (p.bits_src, p.bits_dst) == (q.bits_src, q.bits_dst) and p.ptx != q.ptx
