"""A TiledMMA from what C++ writes: ``print(tiled_mma)``'s block, or the ``make_tiled_mma(...)`` expression.

Three spellings read to the same ``TiledMMA``:

- unilayout's own (``SM80_16x8x16_F32F16F16F32_TN (2,2,1)``,
  ``make_tiled_mma(NAME, layout, perm)``; ``tiled.parse_tiled_mma``);
- the C++ expression, as a kernel writes it::

      make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}, Tile<_32,_32,_16>{})

  (``Layout<Shape<..>, Stride<..>>``, ``make_layout(make_shape(..))``,
  ``Int<N>``, ``_N``, ``Underscore``, ``MMA_Atom<OP>``, GMMA's
  ``<GMMA::Major::K, GMMA::Major::MN>``);
- the block ``print(tiled_mma)`` writes::

      TiledMMA
        ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)
        PermutationMNK: (_32,_32,_16)
      MMA_Atom
        ThrID:      _32:_1
        Shape_MNK:  (_16,_8,_16)
        LayoutA_TV: ...

  C++ prints no atom name: the atom is the first catalogue atom
  (``mma_atoms()`` order) with exactly these ThrID, Shape_MNK and A/B/C
  layouts. Atoms that differ only in their value types (F16 and BF16 inputs)
  share those layouts, so the TiledMMA read is the same function of threads
  and values; only its ``atom.name`` is a representative. The atom layout is
  recovered from ThrLayoutVMNK and checked: rebuilding the TiledMMA must give
  the printed ThrLayoutVMNK. A bare ``print(mma_atom)`` block (``MMA_Atom``,
  ``ThrID: ..``) reads as a TiledMMA of one atom.

>>> mma = parse_tiled_mma("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}, Tile<_32,_32,_16>{})")
>>> mma.tile_size_mnk(), str(mma.thr_layout_vmnk)
((32, 32, 16), '(32,2,2,1):(1,32,64,0)')
>>> parse_tiled_mma(str(mma)) == mma
True
"""

from __future__ import annotations

import re

import numpy as np

from .._text import Scanner, check_text
from ..errors import LayoutError, ParseError
from .algebra import complement
from .atoms_mma import _specs, mma_atom
from .layout import Layout, _static_compact
from .text import parse as parse_cute
from .tiled import TiledMMA, make_tiled_mma
from .tiled import parse_tiled_mma as _parse_own

__all__ = ["parse_tiled_mma"]

_MMA_KEYS = ("ThrID", "Shape_MNK", "LayoutA_TV", "LayoutB_TV", "LayoutC_TV")
_TUPLES = {"Shape", "Stride", "Tile", "Step", "tuple", "make_shape", "make_stride", "make_tile", "make_tuple",
           "make_step"}


def parse_tiled_mma(text: str):
    """A TiledMMA from any of its three spellings, or None when ``text`` is not a TiledMMA.

    >>> parse_tiled_mma("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_0>>{})").size
    128
    >>> parse_tiled_mma("SM70_8x8x4_F32F16F16F32_NT (2,2,1)").tile_size_mnk()
    (16, 16, 4)
    >>> parse_tiled_mma("8:1") is None
    True
    """
    body = check_text(text, "TiledMMA description")
    start = len(body) - len(body.lstrip())
    if re.match(r"TiledMMA\s", body[start:]) or re.match(r"MMA_Atom[ \t]*(?:\w+[ \t]*)?\n\s*ThrID", body[start:]):
        return _block(body, start)
    if re.match(r"(?:cute::)?make_tiled_mma\s*\(", body[start:]) and re.search(r"[{<]", body):
        return _expression(body)
    return _parse_own(body)


# -- print(tiled_mma) -------------------------------------------------------------------------------

def _fields(text: str, start: int) -> tuple:
    """``[(key, value, position of value)]`` of ``Key: value`` lines, the section headers seen, and the atom name
    when the header names it (``str(TiledMMA)`` writes ``MMA_Atom SM80_..``; C++ writes ``MMA_Atom``)."""
    fields, headers, pos, named = [], [], 0, None
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        at = pos + len(line) - len(line.lstrip())
        pos += len(line)
        if not stripped:
            continue
        m = re.match(r"(\w+):\s*(.*?)\s*$", stripped)
        if m:
            fields.append((m.group(1), m.group(2), at + m.start(2)))
        elif stripped in ("TiledMMA", "MMA_Atom", "TiledCopy", "Copy_Atom"):
            headers.append(stripped)
        elif re.fullmatch(r"MMA_Atom\s+\w+", stripped):
            headers.append("MMA_Atom")
            named = (stripped.split()[1], at + len(stripped) - len(stripped.split()[1]))
        else:
            raise ParseError("expected 'Key: value' (a line of print(tiled_mma) or print(tiled_copy))", text, at)
    return fields, headers, named


def _value(text, key, fields, end):
    for k, v, at in fields:
        if k == key:
            try:
                return parse_cute(v), at
            except ParseError:
                raise ParseError(f"{key}: {v!r} is not a CuTe layout", text, at) from None
    raise ParseError(f"print(tiled_mma) without its {key} line", text, end)


def _tiles(text, value, at):
    """PermutationMNK's text ``(_32,(_8,_2):(_1,_8),_)`` -> (32, Layout, None)."""
    s = Scanner(value)
    if not s.accept("("):
        raise ParseError("PermutationMNK is a tuple of tiles", text, at)
    tiles = []
    while not s.accept(")"):
        p = s.skip()
        if s.at("_") and not re.match(r"_\d", value[p:p + 2]):
            s.pos = p + 1
            tiles.append(None)
        else:
            depth, q = 0, p
            while q < len(value) and not (depth == 0 and value[q] in ",)"):
                depth += value[q] == "("
                depth -= value[q] == ")"
                q += 1
            piece = value[p:q]
            try:
                v = parse_cute(piece)
            except ParseError:
                raise ParseError(f"PermutationMNK: cannot read tile {piece!r}", text, at + p) from None
            tiles.append(v if ":" in piece or isinstance(v.shape, tuple) else v.shape)
            s.pos = q
        s.accept(",")
    return tuple(tiles)


def _atom_of(text, found, at, named=None):
    """The atom ``named`` (checked against the printed layouts), else the first catalogue atom with the printed
    ThrID, Shape_MNK and LayoutA/B/C_TV."""
    thr, shape, a, b, c = found
    mnk = shape.shape if isinstance(shape.shape, tuple) else (shape.shape,)
    specs = _specs()
    if named is not None and named[0] not in specs:
        raise ParseError(f"no MMA atom named {named[0]!r} (cute.mma_atoms() lists them)", text, named[1])
    for name, spec in ([(named[0], specs[named[0]])] if named else specs.items()):
        if spec[1] == mnk and (spec[2], spec[3], spec[4], spec[5]) == (thr, a, b, c):
            return mma_atom(name)
    raise ParseError(f"no MMA atom in the catalogue has ThrID {thr}, Shape_MNK {shape}, LayoutA_TV {a}, "
                     f"LayoutB_TV {b}, LayoutC_TV {c} (cute.mma_atoms() lists them)", text, at)


def _atom_layout(thr_id: Layout, vmnk: Layout) -> Layout:
    """The atom layout whose ``tiled_product(thr_id, .)`` is ``vmnk``: its modes 1..3, each stride mapped back
    through ``complement(thr_id)`` (thread offset -> atom index)."""
    rest = Layout(tuple(vmnk.shape[1:]), tuple(vmnk.stride[1:]))
    n = rest.size
    comp = complement(thr_id, thr_id.size * max(n, 1) * max(thr_id.cosize, 1))
    offsets = comp.index_map()
    where = {int(v): i for i, v in reversed(list(enumerate(offsets.tolist())))}  # offset -> its first atom index

    def back(d):
        if isinstance(d, tuple):
            return tuple(back(x) for x in d)
        if d == 0:
            return 0
        if d not in where:
            raise LayoutError(f"ThrLayoutVMNK stride {d} is no atom offset of ThrID {thr_id}")
        return where[d]

    return Layout(rest.shape, back(rest.stride))


def _block(text: str, start: int) -> TiledMMA:
    fields, headers, named = _fields(text, start)
    end = len(text)
    found = tuple(_value(text, k, fields, end)[0] for k in _MMA_KEYS)
    if not all(isinstance(v, Layout) for v in found):
        raise ParseError("an MMA_Atom's ThrID, Shape_MNK and layouts are plain layouts", text, start)
    atom = _atom_of(text, found, start, named)
    if "TiledMMA" not in headers:
        return make_tiled_mma(atom)
    vmnk, vat = _value(text, "ThrLayoutVMNK", fields, end)
    perm_text = next(((v, at) for k, v, at in fields if k == "PermutationMNK"), None)
    if perm_text is None:
        raise ParseError("print(tiled_mma) without its PermutationMNK line", text, end)
    perm = _tiles(text, *perm_text)
    try:
        if not isinstance(vmnk, Layout) or vmnk.rank != 4:
            raise LayoutError(f"ThrLayoutVMNK {vmnk} is not a rank-4 (V, M, N, K) layout")
        mma = make_tiled_mma(atom, _atom_layout(atom.thr_id, vmnk), perm)
    except LayoutError as e:
        raise ParseError(str(e), text, vat) from None
    got = mma.thr_layout_vmnk
    if got.shape != vmnk.shape or not np.array_equal(got.index_map(), vmnk.index_map()):
        raise ParseError(f"ThrLayoutVMNK {vmnk} is no tiled_product of ThrID {atom.thr_id} with an atom layout "
                         f"(the nearest is {got})", text, vat)
    return mma


# -- make_tiled_mma(OP{}, Layout<..>{}, Tile<..>{}) ----------------------------------------------------

def _term(s: Scanner, depth=0):
    """``NAME [<args>|(args)] [{args}]`` or an integer literal -> ``(name, args, at)``."""
    if depth > 32:
        s.fail("C++ expression nested too deep")
    at = s.skip()
    if s.peek().isdigit():
        return ("#", s.integer(), at)
    name = s.identifier("a C++ type or value")
    while s.text.startswith("::", s.pos):
        s.pos += 2
        name += "::" + s.identifier("a name after '::'")
    args = None
    for open_, close in (("<", ">"), ("(", ")")):
        if s.accept(open_):
            args = []
            while not s.accept(close):
                args.append(_term(s, depth + 1))
                if not s.accept(",") and not s.at(close):
                    s.expected(f"',' or '{close}'")
            break
    if s.accept("{"):
        inner = []
        while not s.accept("}"):
            inner.append(_term(s, depth + 1))
            if not s.accept(",") and not s.at("}"):
                s.expected("',' or '}'")
        if inner:
            args = (args or []) + inner
    return (name.removeprefix("cute::"), args, at)


def _eval(s: Scanner, term):
    """A term's value: int, None (``_``), tuple, Layout."""
    name, args, at = term
    if name == "#":
        return args
    if re.fullmatch(r"_\d+", name):
        if len(name[1:].lstrip("0")) > 19:
            s.fail(f"the integer {name[:24]}... is past int64", at)
        return int(name[1:])
    if name in ("_", "Underscore"):
        return None
    if name in ("Int", "C", "_Int") and args and len(args) == 1:
        return _eval(s, args[0])
    if name in _TUPLES:
        return tuple(_eval(s, a) for a in args or ())
    if name in ("Layout", "make_layout") and args and len(args) <= 2:
        parts = [_eval(s, a) for a in args]
        try:
            return Layout(*parts) if len(parts) == 2 else _static_compact(parts[0])  # C++'s static: _1 modes get _0
        except LayoutError as e:
            s.fail(str(e), at)
    s.fail(f"cannot read {name!r} here (expected Layout<..>, Shape<..>, Stride<..>, Tile<..>, _N, Int<N> or _)", at)


def _atom_term(s: Scanner, term):
    name, args, at = term
    if name in ("MMA_Atom", "MMA_Traits") and args and len(args) == 1:
        return _atom_term(s, args[0])
    majors = []
    for a in args or ():
        m = re.fullmatch(r"(?:GMMA|UMMA)::Major::(K|MN)", a[0])
        if m is None:
            s.fail("the atom's template arguments must be GMMA::Major::K or ::MN (the catalogue names SM100 UMMA "
                   "atoms SM100_<M>x<N>x<K>_<types>_SS)", a[2])
        majors.append(m.group(1))
    try:
        return mma_atom(name, *majors)
    except (LayoutError, TypeError) as e:
        s.fail(str(e), at)


def _expression(text: str) -> TiledMMA:
    s = Scanner(text)
    call = _term(s)
    s.expect_end()
    name, args, at = call
    if name != "make_tiled_mma" or not args or len(args) > 3:
        s.fail("expected make_tiled_mma(ATOM{}, Layout<..>{}, Tile<..>{})", at)
    atom = _atom_term(s, args[0])
    layout = _eval(s, args[1]) if len(args) > 1 else None
    perm = _eval(s, args[2]) if len(args) > 2 else None
    if isinstance(perm, int) or (perm is not None and not isinstance(perm, tuple)):
        s.fail("the permutation is a Tile<..> of up to three tilers", args[2][2])
    try:
        return make_tiled_mma(atom, layout, perm)
    except LayoutError as e:
        s.fail(str(e), at)
