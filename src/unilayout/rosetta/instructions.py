"""The instruction table: each instruction's operand fragments as each system spells them, and the verdicts.

Instruction names follow PTX and AMD: ``mma.sync.m16n8k16.f32.f16`` (C type,
then A type, then B's when it differs), ``wgmma.m64n128k16.f32.f16``,
``mfma.32x32x8.f16``. Systems:

============== ============================================================== =========================================
system         spelling                                                       instructions
============== ============================================================== =========================================
cute           CuTe's atom (C++ name), ``LayoutA/B/C_TV``, copy bit layouts   mma.sync (SM70-SM89), wgmma, ldmatrix,
                                                                              stmatrix, tcgen05.ld/st
triton         ``#ttg.nvidia_mma`` (v2, v3) / ``#ttg.dot_op`` / ``#ttg.amd_mfma`` mma.sync, wgmma, mfma
tensor-layouts the ``tensor-layouts`` package's atom (where installed)           mma.sync, wgmma, mfma, wmma, dpas,
                                                                              ldmatrix, stmatrix
tilelang       the ``Fragment`` TileLang's TensorCoreIntrinEmitter builds (its B   mma.sync (f16, bf16, tf32, s8)
               buffer is ``(n, k)``), as TileLang prints it
mosaic         JAX Pallas ``plgpu.Layout.WGMMA`` (Mosaic GPU's TiledLayout)     wgmma accumulators
triton (AMD)   ``#ttg.amd_wmma`` v1/v2/v3 and its ``#ttg.dot_op``               wmma (gfx11, gfx12, gfx1250)
tirx           the ``TileLayout`` (laneid, m) of TIRx's CUDA tile pattern's     mma.sync m16n8k8/k16 f16/bf16, ldmatrix,
               atom, as TIRx prints it (``rosetta.tirx``)                       stmatrix (x1/x2/x4), tcgen05.ld/st
============== ============================================================== =========================================

A copy's fragment is its register side in bits (operand ``D`` of a load, ``S``
of a store): (thread, bit) -> the bit of the copied tile, as CuTe's
``DstLayout``/``SrcLayout``.

The reference of an NVIDIA instruction is CuTe (its atoms transcribe the PTX
ISA's fragment figures); of an AMD one, Triton (AMD's own compiler); of Intel's
DPAS, tensor-layouts (the only system that spells it: Triton 3.9 upstream has
no Intel encoding). A
thread is CuTe's logical thread (``ThrID`` maps it to a hardware thread: the
SM70 quad-pairs), Triton's ``lane + 32 * warp``.

>>> "wgmma.m64n256k16.f32.f16" in instruction_names(), len(instruction_names()) >= 40
(True, True)
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from ..errors import LayoutError
from .fragment import Fragment, fragment, from_cute_tv, from_linear, from_tilelang
from .verdict import compare

__all__ = ["INSTRUCTIONS", "Row", "Spelling", "Instruction", "instruction_names", "fragments", "table", "matrix"]

_TYPES = re.compile(r"BF16|TF32|F64|F32|F16|S32|S8|U8|S4|U4|E4M3|E5M2|U1")


class Spelling(NamedTuple):
    """One system's spelling of one operand: ``text`` as the system writes it, ``build()`` -> ``Fragment``."""

    system: str
    operand: str
    text: str
    build: object


class Instruction(NamedTuple):
    """An instruction: its name, ``(m, n, k)``, the reference system and every spelling of its operands."""

    name: str
    shape: tuple
    reference: str
    spellings: tuple


class Row(NamedTuple):
    """One line of a table: a system's spelling of an operand and its verdict against the reference.

    ``verdict`` is ``reference``, ``same``, ``permuted`` (same after ``detail``'s register permutation),
    ``different`` (``detail``: the first difference) or ``error`` (it could not be built: ``detail`` says why).
    """

    instruction: str
    operand: str
    system: str
    spelling: str
    verdict: str
    detail: str


def _name(kind, m, n, k, types):
    t = [x.lower() for x in _TYPES.findall(types)]
    if len(t) < 3:
        return None
    d, a, b = t[0], t[1], t[2]
    tail = f"{d}.{a}" + (f".{b}" if b != a else "")
    return f"mma.sync.m{m}n{n}k{k}.{tail}" if kind == "mma" else f"wgmma.m{m}n{n}k{k}.{tail}"


def _cute_spellings(atom):
    m, n, k = atom.shape_mnk
    tiles = {"A": (m, k), "B": (n, k), "C": (m, n)}
    layouts = {"A": atom.layout_a, "B": atom.layout_b, "C": atom.layout_c}
    ops = ("A", "B", "C") if not atom.name.startswith("SM90") else (("A", "C") if "_RS" in atom.name else ("C",))
    out = []
    for op in ops:
        lay, tile = layouts[op], tiles[op]
        out.append(Spelling("cute", op, f"{atom.name} Layout{op}_TV = {lay}",
                            functools.partial(from_cute_tv, lay, tile, op == "B", "cute", atom.name)))
    return out


#: Triton's element type of an operand of this PTX/AMD type.
_ELEM = {"f16": "f16", "bf16": "bf16", "f32": "f32", "tf32": "f32", "f64": "f64", "s8": "i8", "u8": "i8",
         "s4": "i4", "u4": "i4", "s32": "i32", "e4m3": "f8E4M3FN", "e5m2": "f8E5M2", "u1": "i1"}


def _elem(name, operand):
    """Triton's element type of ``operand`` of the instruction ``name`` (C: its first type, A/B: their own)."""
    types = name.split(".")[-3:] if name.startswith(("mma", "wgmma")) else ["f32", name.split(".")[-1]]
    types = [t for t in types if t in _ELEM] or ["f32"]
    d, a = types[0], types[1] if len(types) > 1 else types[0]
    b = types[2] if len(types) > 2 else a
    return _ELEM[{"C": d, "A": a, "B": b}[operand]]


def _triton_spellings(atom, ops, iname):
    from ..convert.cute_triton import triton_fragment  # lazy: the bridge loads when the table is first built

    out = []
    for op in ops:
        try:
            enc, shape = triton_fragment(atom, op)
        except LayoutError:
            continue
        if any(d & (d - 1) for d in list(shape) + list(atom.shape_mnk)):  # Triton's shapes are powers of two
            continue
        text = f"tensor<{shape[0]}x{shape[1]}x{_elem(iname, op)}, {enc}>"
        out.append(Spelling("triton", op, text, functools.partial(_triton_build, enc, shape, atom.num_threads, text)))
    return out


def _triton_build(enc, shape, threads, text):
    return from_linear(enc.to_linear(list(shape)), "triton", text, threads)


def _text_build(text, threads):
    return fragment(text, threads=threads)._replace(system="triton")


def _tensor_layouts_atom(name, vendor=None):
    try:
        import tensor_layouts.atoms_amd as amd  # lazy: optional package, only for its spellings
        import tensor_layouts.atoms_nv as nv  # lazy: optional package, only for its spellings
    except ImportError:
        return None
    if vendor == "xe":
        try:
            import tensor_layouts.atoms_xe as xe  # lazy: optional package, only for its spellings
        except ImportError:
            return None
        return getattr(xe, name, None)
    found = getattr(nv, name, None) or getattr(amd, name, None)
    if found is None:
        for group in (g for g in dir(nv) if g.startswith("COPY_ATOMS")):
            found = next((a for a in getattr(nv, group) if a.name == name), None) or found
    return found


def _tl_spellings(atom_name, shape, ops, vendor=None):
    from .. import cute  # lazy: the cute family reads the package's layouts

    t = _tensor_layouts_atom(atom_name, vendor)
    if t is None:
        return []
    m, n, k = shape
    tiles = {"A": (m, k), "B": (n, k), "C": (m, n)}
    lays = {"A": t.a_layout, "B": t.b_layout, "C": t.c_layout}
    out = []
    for op in ops:
        lay = cute.Layout(lays[op].shape, lays[op].stride)
        out.append(Spelling("tensor-layouts", op, f"tensor_layouts {atom_name}.{op.lower()}_layout = {lay}",
                            functools.partial(from_cute_tv, lay, tiles[op], op == "B", "tensor-layouts",
                                              atom_name)))
    return out


def _nvidia():
    from .. import cute  # lazy: the catalogue of atoms

    out = {}
    pat = re.compile(r"SM(70|75|80|89|90)_(\d+)x(\d+)x(\d+)_([A-Z0-9]+?)(?:_(TN|SS|RS|RS_TN|SS_TN))?$")
    for name in cute.mma_atoms():
        mt = pat.match(name)
        if not mt or "SATURATE" in name or "POPC" in name:
            continue
        sm, m, n, k, types, major = mt.groups()
        m, n, k = int(m), int(n), int(k)
        if sm == "70" and major != "TN":
            continue
        if sm == "90":
            if "F32F16F16" not in types and (n not in (64, 128, 256)):
                continue
            iname = _name("wgmma", m, n, k, types)
        else:
            iname = _name("mma", m, n, k, types)
        if iname is None:
            continue
        atom = cute.mma_atom(name)
        spell = _cute_spellings(atom)
        ops = tuple(s.operand for s in spell)
        spell += _triton_spellings(atom, ops, iname)
        spell += _tl_spellings(name, (m, n, k), ops)
        prev = out.get(iname)
        if prev is None or (sm == "90" and "_RS" in name):  # the RS atom adds the register A operand
            merged = spell if prev is None else list(prev.spellings) + [s for s in spell if s.operand == "A"]
            out[iname] = Instruction(iname, (m, n, k), "cute", tuple(merged))
    return out


#: AMD MFMA instructions: (name, (m, n, k), Triton's encoding version, tensor-layouts atom).
_MFMA = (
    ("mfma.32x32x8.f16", (32, 32, 8), 2, "CDNA_32x32x8_F32F16F16_MFMA"),
    ("mfma.16x16x16.f16", (16, 16, 16), 2, "CDNA_16x16x16_F32F16F16_MFMA"),
    ("mfma.32x32x8.bf16_1k", (32, 32, 8), 2, "CDNA_32x32x8_F32BF16BF16_1K_MFMA"),
    ("mfma.16x16x16.bf16_1k", (16, 16, 16), 2, "CDNA_16x16x16_F32BF16BF16_1K_MFMA"),
    ("mfma.32x32x16.f16", (32, 32, 16), 4, "CDNA3P_32x32x16_F32F16F16_MFMA"),
    ("mfma.16x16x32.f16", (16, 16, 32), 4, "CDNA3P_16x16x32_F32F16F16_MFMA"),
    ("mfma.32x32x2.f32", (32, 32, 2), 2, "CDNA_32x32x2_F32F32F32_MFMA"),
    ("mfma.16x16x4.f32", (16, 16, 4), 2, "CDNA_16x16x4_F32F32F32_MFMA"),
)


#: AMD WMMA (wave32): (name, (m, n, k), Triton's ``#ttg.amd_wmma`` version, the ``kWidth`` Triton's AMD backend
#: gives its operands there, element type, tensor-layouts atom). The target is in the name: gfx11 (RDNA3, v1),
#: gfx12 (RDNA4, v2) and gfx1250 (v3) lay out the same mnemonic differently.
_WMMA = (
    ("wmma.16x16x16.f16.gfx11", (16, 16, 16), 1, 16, "f16", "RDNA3_16x16x16_F32F16F16_WMMA"),
    ("wmma.16x16x16.bf16.gfx11", (16, 16, 16), 1, 16, "bf16", "RDNA3_16x16x16_F32BF16BF16_WMMA"),
    ("wmma.16x16x16.f16.gfx12", (16, 16, 16), 2, 8, "f16", None),
    ("wmma.16x16x16.bf16.gfx12", (16, 16, 16), 2, 8, "bf16", None),
    ("wmma.16x16x32.f16.gfx1250", (16, 16, 32), 3, 8, "f16", "RDNA4_16x16x32_F32F16F16_WMMA"),
    ("wmma.16x16x32.bf16.gfx1250", (16, 16, 32), 3, 8, "bf16", "RDNA4_16x16x32_F32BF16BF16_WMMA"),
)

#: Intel Xe DPAS, as the tensor-layouts package spells it (Triton 3.9 upstream has no Intel encoding): (name,
#: (m, n, k), atom). Only the accumulator: the package's K for 16-bit types (8) is not the ISA's (16).
_DPAS = (
    ("dpas.8x8.f32.f16.simd8", (8, 8, 8), "XeHPC_8x8x8_F32F16F16_DPAS"),
    ("dpas.8x8.f32.bf16.simd8", (8, 8, 8), "XeHPC_8x8x8_F32BF16BF16_DPAS"),
    ("dpas.8x8.f32.f16.simd16", (8, 16, 8), "XeHPG_8x16x8_F32F16F16_DPAS"),
    ("dpas.8x8.f32.bf16.simd16", (8, 16, 8), "XeHPG_8x16x8_F32BF16BF16_DPAS"),
)


def _amd():
    from ..linear.encodings import AmdMfma, AmdWmma, DotOperand  # lazy: Triton's AMD encodings

    out = {}
    for name, (m, n, k), version, tl_name in _MFMA:
        enc = AmdMfma(version, [m, n, k], False, [1, 1])
        text = f"tensor<{m}x{n}xf32, {enc}>"
        spell = [Spelling("triton", "C", text, functools.partial(_triton_build, enc, (m, n), 64, text))]
        spell += _tl_spellings(tl_name, (m, n, k), ("C",))
        out[name] = Instruction(name, (m, n, k), "triton", tuple(spell))
    for name, (m, n, k), version, kw, elem, tl_name in _WMMA:
        parent = AmdWmma(version, False, [], instr_shape=[m, n, k] if version == 3 else None)
        spell = []
        for op, enc, shape, et in (("A", DotOperand(0, parent, kw), (m, k), elem),
                                   ("B", DotOperand(1, parent, kw), (k, n), elem), ("C", parent, (m, n), "f32")):
            # Triton's parser wants the (empty) warp bases of a one-warp layout written out
            text = f"tensor<{shape[0]}x{shape[1]}x{et}, {enc}>".replace("ctaLayout = {}", "ctaLayout = {warp = []}")
            spell.append(Spelling("triton", op, text, functools.partial(_text_build, text, 32)))
        spell += _tl_spellings(tl_name, (m, n, k), ("A", "B", "C")) if tl_name else []
        out[name] = Instruction(name, (m, n, k), "triton", tuple(spell))
    for name, mnk, tl_name in _DPAS:
        spell = _tl_spellings(tl_name, mnk, ("C",), "xe")
        if spell:
            out[name] = Instruction(name, mnk, "tensor-layouts", tuple(spell))
    return out


def _bits_fragment(lay, system, spelling):
    """A copy's register side in bits: (thread, bit) -> (bit of the copied tile, 0)."""
    from .. import cute  # lazy: the cute family reads the layouts

    lay = cute.Layout(lay.shape, lay.stride)
    n = cute.size(lay.shape[0]) * cute.size(lay.shape[1])
    return from_cute_tv(lay, (max(n, int(lay.index_map().max()) + 1), 1), False, system, spelling)


def _copy_name(name):
    """PTX's name of a CuTe copy atom (``SM75_U32x4_LDSM_N`` -> ``ldmatrix.x4``), or None."""
    m = re.match(r"SM(?:75|90)_U(32|16)x(\d)_(LDSM|STSM)_(N|T)$", name)
    if m:
        bits, count, kind, trans = m.groups()
        x = int(count) if bits == "32" else int(count) // 2
        return f"{'ldmatrix' if kind == 'LDSM' else 'stmatrix'}.x{x}" + (".trans" if trans == "T" else "")
    m = re.match(r"SM100_TMEM_(LOAD|STORE)_(\d+)dp(\d+)b(\d+)x(_16b)?$", name)
    if m:
        kind, dp, b, n, pack = m.groups()
        shape = f"{dp}x{b}b" if dp == "32" or b != "32" else "16x32bx2"
        return f"tcgen05.{'ld' if kind == 'LOAD' else 'st'}.{shape}.x{n}" + (".pack16b" if pack else "")
    return None


def _copies():
    """ldmatrix / stmatrix (x1, x2, x4, .trans) and tcgen05.ld / st: the register side of each copy, in bits."""
    from .. import cute  # lazy: the catalogue of copy atoms

    out = {}
    for name in cute.copy_atoms():
        iname = _copy_name(name)
        if iname is None:
            continue
        atom = cute.copy_atom(name, 16 if "U16" in name or "_16b" in name else 32)
        load = "LDSM" in name or "LOAD" in name
        reg = atom.bits_dst if load else atom.bits_src
        op = "D" if load else "S"
        spell = [Spelling("cute", op, f"{name} {'Dst' if load else 'Src'}Layout (bits) = {reg}",
                          functools.partial(_bits_fragment, reg, "cute", name))]
        t = _tensor_layouts_atom(name) if name.startswith("SM75") or name.startswith("SM90") else None
        if t is not None:
            lay = t.dst_layout_bits if load else t.src_layout_bits
            spell.append(Spelling("tensor-layouts", op, f"tensor_layouts {name}.{'dst' if load else 'src'}_layout_bits"
                                  f" = {lay}", functools.partial(_bits_fragment, lay, "tensor-layouts", name)))
        out[iname] = Instruction(iname, (0, 0, 0), "cute", tuple(spell))
    return out


def _tilelang_build(text, op):
    from .. import tilelang  # lazy: the TileLang family reads its own text

    return from_tilelang(tilelang.parse(text), op == "B", "tilelang", text)


def _mosaic_build(n):
    from .. import mosaic  # lazy: the Mosaic family, for its WGMMA layout

    return from_cute_tv(mosaic.WGMMA.to_cute_tv((64, n)), (64, n), False, "mosaic", "plgpu.Layout.WGMMA")


def _tirx_spellings(table):
    """TIRx's fragments (its CUDA tile patterns' images, as ``TileLayout`` texts: ``rosetta.tirx``)."""
    from . import tirx  # lazy: the stored TIRx spellings load with the table

    for name, ops in tirx.instructions().items():
        if name in table:
            extra = tuple(Spelling("tirx", op, tirx.tirx_spelling_text(name, op),
                                   functools.partial(tirx.from_tirx, name, op)) for op in ops)
            table[name] = table[name]._replace(spellings=table[name].spellings + extra)


def _more_systems(table):
    """TileLang's mma.sync fragments (as TileLang prints them) and Mosaic GPU's WGMMA accumulator."""
    from .tilelang_spellings import SPELLINGS  # lazy: the stored spellings load with the table

    for name, ops in SPELLINGS.items():
        if name in table:
            extra = tuple(Spelling("tilelang", op, text, functools.partial(_tilelang_build, text, op))
                          for op, text in ops.items())
            table[name] = table[name]._replace(spellings=table[name].spellings + extra)
    for name, ins in table.items():
        if name.startswith("wgmma.m64n"):
            n = ins.shape[1]
            extra = Spelling("mosaic", "C", "plgpu.Layout.WGMMA (#mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], "
                             "[2]], warp_dims = [-7], lane_dims = [-3, -2], vector_dim = -1>)",
                             functools.partial(_mosaic_build, n))
            table[name] = ins._replace(spellings=ins.spellings + (extra,))


@functools.lru_cache(maxsize=1)
def _table():
    out = _nvidia()
    _more_systems(out)
    out.update(_amd())
    out.update(_copies())
    _tirx_spellings(out)
    return out


class _Lazy:
    """``INSTRUCTIONS``: the table, built on first use (``name -> Instruction``)."""

    def __getitem__(self, name):
        return _table()[name]

    def __iter__(self):
        return iter(_table())

    def __len__(self):
        return len(_table())

    def __contains__(self, name):
        return name in _table()


INSTRUCTIONS = _Lazy()


def instruction_names() -> list:
    """Every instruction of the table, in order.

    >>> instruction_names()[0]
    'mma.sync.m8n8k4.f16.f16'
    """
    return list(_table())


def _get(instruction):
    try:
        return _table()[instruction]
    except KeyError:
        close = [n for n in _table() if instruction.split(".")[0] in n][:5]
        raise LayoutError(f"rosetta: unknown instruction {instruction!r}" +
                          (f"; for example {', '.join(close)}" if close else "")) from None


def fragments(instruction: str) -> dict:
    """``{system: {operand: Fragment}}`` of one instruction.

    >>> f = fragments("mma.sync.m16n8k16.f32.f16")
    >>> sorted(f), f["cute"]["B"].shape
    (['cute', 'tensor-layouts', 'tilelang', 'tirx', 'triton'], (16, 8))
    """
    out: dict = {}
    for s in _get(instruction).spellings:
        out.setdefault(s.system, {})[s.operand] = s.build()
    return out


def table(instruction: str) -> list:
    """The ``Row`` of every spelling of ``instruction``, each checked against the reference system's.

    >>> [r.verdict for r in table("mma.sync.m16n8k8.f32.tf32")]
    ['reference', 'reference', 'reference', 'same', 'same', 'same', 'same', 'same', 'same', 'same', 'same', 'same']
    """
    ins = _get(instruction)
    refs = {}
    for s in ins.spellings:
        if s.system == ins.reference:
            refs[s.operand] = s.build()
    rows = []
    for s in sorted(ins.spellings, key=lambda s: (s.system != ins.reference, s.system, s.operand)):
        rows.append(_row(ins, s, refs))
    return rows


def _row(ins, s, refs):
    if s.system == ins.reference:
        return Row(ins.name, s.operand, s.system, s.text, "reference", "")
    try:
        frag: Fragment = s.build()
        ref = refs.get(s.operand)
        if ref is None:
            return Row(ins.name, s.operand, s.system, s.text, "error", "the reference system has no such operand")
        v = compare(ref, frag)
    except LayoutError as e:
        return Row(ins.name, s.operand, s.system, s.text, "error", str(e))
    if v.same:
        return Row(ins.name, s.operand, s.system, s.text, "same", "")
    if v.register_permutation is not None:
        return Row(ins.name, s.operand, s.system, s.text, "permuted", str(list(v.register_permutation)))
    return Row(ins.name, s.operand, s.system, s.text, "different", v.describe())


def matrix() -> list:
    """Every instruction's rows (``table``) in one list: the whole verdict matrix.

    >>> rows = matrix()
    >>> len({r.instruction for r in rows}) == len(instruction_names()), {r.system for r in rows} >= {"cute", "triton"}
    (True, True)
    """
    return [r for name in _table() for r in table(name)]
