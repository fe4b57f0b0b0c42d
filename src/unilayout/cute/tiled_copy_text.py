"""A TiledCopy from the block C++'s ``print(tiled_copy)`` writes (and ``str(TiledCopy)``)::

    TiledCopy
      Tiler_MN:       (_16,_64)
      TiledLayout_TV: ((_8,_16),_8):((_128,_1),_16)
    Copy_Atom
      ThrID:        _1:_0
      ValLayoutSrc: (_1,_8):(_0,_1)
      ValLayoutDst: (_1,_8):(_0,_1)
      ValLayoutRef: (_1,_8):(_0,_1)
      ValueType:    16b

C++ names no copy op: the atom read is the first catalogue op
(``copy_atoms()`` order) whose ``Copy_Atom<Op, T>`` at the printed element
width has exactly the printed ThrID and Src/Dst/Ref layouts. Ops with the
same layouts (``UniversalCopy<uint128_t>`` and cp.async of 128 bits) make
the same TiledCopy function; ``atom.name`` is then a representative.
``str(TiledCopy)``'s header ``Copy_Atom NAME (16-bit)`` names the op and is
read as named. Every other spelling goes to ``tiled_copy.parse_tiled_copy``.

>>> tc = parse_tiled_copy('''TiledCopy
...   Tiler_MN:       (_16,_64)
...   TiledLayout_TV: ((_8,_16),_8):((_128,_1),_16)
... Copy_Atom
...   ThrID:        _1:_0
...   ValLayoutSrc: (_1,_8):(_0,_1)
...   ValLayoutDst: (_1,_8):(_0,_1)
...   ValLayoutRef: (_1,_8):(_0,_1)
...   ValueType:    16b''')
>>> tc.atom.name, tc.tiler_mn, tc.size
('UniversalCopy<uint128_t>', (16, 64), 128)
>>> parse_tiled_copy(str(tc)) == tc
True
"""

from __future__ import annotations

import re

from ..errors import LayoutError, ParseError
from .atoms_copy import copy_atom, copy_atoms
from .layout import Layout
from .tiled_copy import TiledCopy
from .tiled_copy import parse_tiled_copy as _parse_own
from .tiled_text import _fields, _tiles, _value

__all__ = ["parse_tiled_copy"]

_KEYS = ("ThrID", "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef")


def parse_tiled_copy(text: str):
    """A TiledCopy from C++'s ``print`` block or any spelling ``tiled_copy.parse_tiled_copy`` reads; None when
    ``text`` is not a TiledCopy.

    >>> parse_tiled_copy("make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>, (16,8):(8,1))").tiler_mn
    (16, 8)
    """
    if not isinstance(text, str):
        return _parse_own(text)
    start = len(text) - len(text.lstrip())
    if re.match(r"TiledCopy[ \t]*\n", text[start:]):
        return _block(text, start)
    return _parse_own(text)


def _atom(text, found, bits, named, at):
    names = [named[0]] if named else copy_atoms()
    for name in names:
        if name.startswith("SM90_TMA") and not named:
            continue
        try:
            atom = copy_atom(name, bits)
        except LayoutError:
            if named:
                raise ParseError(f"no copy atom {name!r} of {bits}-bit elements", text, named[1]) from None
            continue
        if (atom.thr_id, atom.layout_src, atom.layout_dst, atom.layout_ref) == found:
            return atom
    thr, src, dst, ref = found
    raise ParseError(f"no copy atom of {bits}-bit elements in the catalogue has ThrID {thr}, ValLayoutSrc {src}, "
                     f"ValLayoutDst {dst}, ValLayoutRef {ref} (cute.copy_atoms() lists them)", text, at)


def _header(text):
    """``Copy_Atom NAME (16-bit)`` (``str(TiledCopy)``): ``(name, position)`` and the bits, or None."""
    m = re.search(r"^[ \t]*Copy_Atom[ \t]+(\S.*?)[ \t]+\((\d+)-bit\)[ \t]*$", text, re.M)
    return ((m.group(1), m.start(1)), int(m.group(2))) if m else (None, None)


def _block(text: str, start: int) -> TiledCopy:
    named, named_bits = _header(text)
    body = text
    if named is not None:  # the named header is not a 'Key: value' line: blank it for the field reader
        line_start = text.rfind("\n", 0, named[1]) + 1
        line_end = text.find("\n", named[1])
        line_end = len(text) if line_end < 0 else line_end
        body = text[:line_start] + "Copy_Atom" + " " * (line_end - line_start - 9) + text[line_end:]
    fields, headers, _ = _fields(body, start)
    end = len(text)
    found = tuple(_value(text, k, fields, end)[0] for k in _KEYS)
    if not all(isinstance(v, Layout) for v in found):
        raise ParseError("a Copy_Atom's ThrID and value layouts are plain layouts", text, start)
    bits = named_bits
    if bits is None:
        vt = next(((v, at) for k, v, at in fields if k == "ValueType"), None)
        m = re.fullmatch(r"(\d+)b", vt[0]) if vt else None
        if m is None:
            raise ParseError("print(tiled_copy) without a 'ValueType: <bits>b' line", text, vt[1] if vt else end)
        bits = int(m.group(1))
    atom = _atom(text, found, bits, named, start)
    tv, tv_at = _value(text, "TiledLayout_TV", fields, end)
    tiler_text = next(((v, at) for k, v, at in fields if k == "Tiler_MN"), None)
    if tiler_text is None:
        raise ParseError("print(tiled_copy) without its Tiler_MN line", text, end)
    tiler = _tiles(text, *tiler_text)
    if any(t is None for t in tiler) or not isinstance(tv, Layout):
        raise ParseError("Tiler_MN holds sizes or layouts and TiledLayout_TV a layout", text, tiler_text[1])
    try:
        return TiledCopy(atom, tv, tiler)
    except LayoutError as e:
        raise ParseError(str(e), text, tv_at) from None
