"""The layout of a Triton tensor or memory-descriptor type: ``tensor<SHAPExT, #enc>`` -> ``LinearLayout``.

``layout(text)`` reads the alias lines above the type (``linear.text``) and
asks the encoding for its layout at the type's shape: distributed encodings
give ``register, lane, warp, block`` -> tensor, shared ones ``offset, block``
(a multi-buffered memdesc stacks its buffers above one buffer's offsets; a
memdesc with a trailing alloc shape, a subslice, is laid out over that alloc
shape's last dims, as Triton's ``toLinearLayout`` of a memdesc is),
tensor memory ``row, col, block`` (a multi-buffered one puts its buffers one
after another along the columns, as Triton allocates them); ``padded_shared`` gives the affine map of
each element's padded address (padding is not linear over GF(2)). This is
what ``unilayout.parse`` does for such text.

>>> L = layout("!ttg.memdesc<2x4x8xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #smem>")
>>> L.out_dims
[('dim0', 2), ('dim1', 4), ('dim2', 8)]
"""

from __future__ import annotations

import re

from ..._text import Scanner
from ...errors import LayoutError, NotRepresentableError, ParseError
from ..layout import LinearLayout
from ..text.module import _ALIAS, _DIALECTS, _TYPE, _module, parse, parse_type
from ._fit import _implied_shape
from .blocked import LinearEncoding
from .padded import PaddedShared
from .shared import NvmmaShared, SharedLinear, SwizzledShared
from .tmem import TensorMemory, TensorMemoryScales

__all__ = ["layout"]


def layout(text: str) -> LinearLayout:
    """A tensor type (inline encoding, or an alias defined by lines above it) -> its LinearLayout.

    What ``unilayout.parse`` does for such text. Shared layouts give
    ``offset, block`` -> tensor (a multi-buffered ``!ttg.memdesc<NxSHAPE, ..>`` whose
    encoding is written for SHAPE: N buffers one after another, the buffer index
    the highest offset bits); tensor memory ``row, col, block``;
    ``padded_shared`` gives the affine map of each element's padded address
    (``PaddedShared.address_map``; padding is not linear over GF(2)).

    >>> L = layout('''#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
    ... tensor<64xf32, #b>''')
    >>> L.bases[2]
    ('warp', [[32]])
    """
    if not isinstance(text, str):
        raise LayoutError(f"layout: expected text, got {type(text).__name__}")
    lines = text.splitlines(keepends=True)
    head = 0
    spans: list = []
    _module(text, spans)  # where each alias's attribute ends: one may continue on the lines below it
    at = 0
    for i, line in enumerate(lines):
        at, start = at + len(line), at
        if any(a < start < b for a, b in spans):  # a line an alias's attribute continues on
            continue
        if _TYPE.match(line):
            head = i
            break
        if line.strip() and not _ALIAS.match(line) and not line.strip().startswith("//"):
            s = Scanner(text, sum(len(x) for x in lines[:i]))
            if line.lstrip().startswith(_DIALECTS):
                start = sum(len(x) for x in lines[:i])
                aliases = _module(text[:start]) if i else {}
                try:
                    enc = parse(text[start:], aliases)
                except ParseError as e:
                    raise ParseError(e.message, text, e.position + start) from None
                if isinstance(enc, (SharedLinear, LinearEncoding)):
                    return enc.to_linear()  # the bases fix the shape
                s.skip()
                kind = line.strip().split("<", 1)[0]
                s.fail(f"{kind} needs a tensor shape: write tensor<SHAPExT, {kind}<...>>")
            s.skip()
            s.expected("tensor<...> or an alias line '#name = ...'")
    else:
        s = Scanner(text, len(text))
        s.expected("a tensor type tensor<SHAPExT, #encoding> after the alias lines")
    offset = sum(len(x) for x in lines[:head])
    aliases = _module(text[:offset]) if head else {}
    try:
        shape, elem, enc = parse_type(text[offset:], aliases)
    except ParseError as e:
        raise ParseError(e.message, text, e.position + offset) from None
    try:
        bits = re.search(r"\d+", elem)
        if isinstance(enc, TensorMemory) and bits and int(bits.group()) * int(enc.col_stride) > 32:
            raise LayoutError(f"bitwidth * colStride must be less than or equal to 32 (Triton's verifier); got "
                              f"{bits.group()} and {enc.col_stride}")
        alloc = _ALLOC.search(text[offset:])
        if alloc and text[offset:].lstrip().startswith("!ttg.memdesc"):
            shape = _alloc_shape(shape, [int(x) for x in alloc.group(1).split("x")])
        return _type_layout(enc, shape)
    except (ParseError, NotRepresentableError):
        raise
    except LayoutError as e:  # Triton's verifier rejects the type: point at its encoding
        raise ParseError(str(e), text, text.find("#", offset) if "#" in text[offset:] else offset) from None


_ALLOC = re.compile(r",\s*(\d+(?:x\d+)*)\s*>\s*$")  # a memdesc's trailing alloc shape: .., mutable, 2x64x64>


def _alloc_shape(shape, alloc) -> tuple:
    """The shape a memdesc's layout is computed for: Triton's ``toLinearLayout(MemDescType)`` takes the
    alloc shape's last ``rank`` dims (a subslice is laid out as the buffer it was cut from); its verifier
    wants the alloc dims powers of two and no smaller than the shape's."""
    if any(a < 1 or a & (a - 1) for a in alloc):
        raise LayoutError(f"alloc shape must have power-of-2 and non-zero dimensions; got {alloc}")
    if len(alloc) < len(shape) or any(s > a for s, a in zip(shape, alloc[len(alloc) - len(shape):])):
        raise LayoutError(f"shape must be less than or equal to allocShape: shape {list(shape)}, allocShape {alloc}")
    return tuple(alloc[len(alloc) - len(shape):])


def _type_layout(enc, shape) -> LinearLayout:
    """The layout of a type whose shape and encoding were read (see :func:`layout`)."""
    buffers, rank = None, _shared_rank(enc)
    if rank is not None and len(shape) == rank + 1:
        # a multi-buffered !ttg.memdesc<NxSHAPE, ...>: N buffers of SHAPE, one after another in memory
        buffers, shape = shape[0], shape[1:]
    if isinstance(enc, PaddedShared):
        if buffers is not None:
            raise NotRepresentableError(f"a {buffers}-buffer padded_shared memdesc: the address of one buffer is "
                                        f"PaddedShared.address_map({list(shape)}); the buffers' spacing is not "
                                        "in the type")
        own = _padded_shape(enc)
        if own is not None and tuple(own) != tuple(shape):  # Triton: "Mismatch in expected shape for dimension"
            raise LayoutError(f"this padded_shared layout is written for shape {list(own)}, not the tensor's "
                              f"{list(shape)}; Triton requires them equal")
        return enc.address_map(shape)  # padding is affine, not linear: the affine family carries it
    if isinstance(enc, (TensorMemory, TensorMemoryScales)) and len(shape) == 3:
        return _tmem_buffers(enc, shape)
    L = enc.to_linear(shape)
    if buffers is None:
        return L
    if buffers & (buffers - 1):
        raise NotRepresentableError(f"a {buffers}-buffer memdesc: the buffer index is not a power of two, so offset -> "
                                    f"element is not linear over GF(2); one buffer's layout is "
                                    f"{type(enc).__name__}.to_linear({list(shape)})")
    rename = {f"dim{i}": f"dim{i + 1}" for i in range(len(shape))}
    per = LinearLayout._make(tuple((n, v) for n, v in L._bases if n == "offset"),
                             tuple((rename[n], sz) for n, sz in L._outs))
    stacked = per * LinearLayout.identity_1d(buffers, "offset", "dim0")  # out-dims dim1.., dim0
    blocks = tuple((n, tuple(tuple(x) + (0,) for x in v)) for n, v in L._bases if n != "offset")
    out = LinearLayout._make(stacked._bases + blocks, stacked._outs)
    return out.transpose_outs([f"dim{i}" for i in range(len(shape) + 1)])


def _tmem_buffers(enc, shape) -> LinearLayout:
    """A multi-buffered tensor-memory memdesc ``NxMxK``: buffer b starts at column b times one buffer's columns
    (Triton's ``getTmemAllocSizes`` multiplies the columns by N), so the buffer index is the next column bits."""
    buffers = shape[0]
    if buffers & (buffers - 1):
        raise NotRepresentableError(f"a {buffers}-buffer tensor-memory memdesc: the buffer index is not a power of "
                                    "two, so (row, col) -> element is not linear over GF(2); one buffer's layout is "
                                    f"{type(enc).__name__}.to_linear({list(shape[1:])})")
    L = enc.to_linear(shape[1:])
    bases = [(n, [[0] + list(v) for v in vecs] + ([[1 << i, 0, 0] for i in range(buffers.bit_length() - 1)]
                                                 if n == "col" else [])) for n, vecs in L.bases]
    return LinearLayout(bases, [("dim0", buffers)] + [(f"dim{i + 1}", sz) for i, (_, sz) in enumerate(L.out_dims)],
                        require_surjective=False)


def _padded_shape(enc):
    """The shape a ``padded_shared`` layout is written for (its ``shape`` field, or what its bases span)."""
    if enc.shape is not None:
        return tuple(enc.shape)
    if enc.offset_bases:
        return _implied_shape(list(enc.offset_bases) + list(enc.block_bases or ()), "padded_shared")
    return None


def _shared_rank(enc):
    """The tensor rank a shared encoding is written for, or None when any rank fits."""
    if isinstance(enc, SwizzledShared):
        return len(enc.order)
    if isinstance(enc, NvmmaShared):
        return enc.rank or (len(enc.cga_layout[0]) if enc.cga_layout else 2)
    if isinstance(enc, PaddedShared):
        return len(enc.shape) if enc.shape is not None else len(enc.offset_bases[0]) if enc.offset_bases else None
    if isinstance(enc, SharedLinear):
        return len(enc.offset_bases[0]) if enc.offset_bases else None
    return None
