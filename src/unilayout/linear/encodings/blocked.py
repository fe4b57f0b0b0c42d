"""Triton's distributed encodings that need no MMA unit: ``#ttg.blocked``, ``#ttg.slice`` and ``#ttg.linear``.

``Blocked`` gives each thread ``size_per_thread`` contiguous elements, lanes
and warps over the dims in ``order``; ``Slice`` drops one dim of a parent
encoding; ``LinearEncoding`` carries a ``LinearLayout`` as the encoding.

>>> str(Blocked([1, 4], [8, 4], [4, 1], [1, 0]))
'#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'
>>> Slice(0, Blocked([1, 4], [8, 4], [4, 1], [1, 0])).to_linear([16]).out_dims
[('dim0', 16)]
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter as _itemgetter
from typing import Any, Sequence

from ..._ints import as_int
from ...errors import LayoutError
from ..layout import LinearLayout
from ._base import _CGA, Field, _dims, _Encoding, _order, _pow2s, _shape
from ._fit import _cga_layout, _grow, _Tile


@dataclass(frozen=True)
class Blocked(_Encoding):
    """Triton's ``#ttg.blocked``: ``size_per_thread`` contiguous elements per thread,
    ``threads_per_warp`` and ``warps_per_cta`` per dim, dims walked in ``order`` (minor first).

    CTA layout: ``isn(register, spt, order) * isn(lane, tpw, order) * isn(warp, wpc, order)``
    (isn = :func:`identity_standard_nd`), then fitted to the shape. As in
    Triton 3.9.0, ``size_per_thread`` is first clamped to the (per-CTA) shape,
    so a thread holds no repeated register for a dim smaller than its vector.

    >>> Blocked([2, 2], [4, 8], [2, 2], [1, 0]).to_linear([32, 32]).bases[0]
    ('register', [[0, 1], [1, 0], [16, 0]])
    """

    size_per_thread: Sequence[int]
    threads_per_warp: Sequence[int]
    warps_per_cta: Sequence[int]
    order: Sequence[int]
    cga_layout: Sequence[Sequence[int]] | None = None

    MNEMONIC = "ttg.blocked"
    FIELDS = (
        Field("sizePerThread", "size_per_thread", "ints"),
        Field("threadsPerWarp", "threads_per_warp", "ints"),
        Field("warpsPerCTA", "warps_per_cta", "ints"),
        Field("order", "order", "ints"),
        _CGA,
    )

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> Blocked([1], [4], [1], [0]).to_linear([8]).bases[:2]
        [('register', [[4]]), ('lane', [[1], [2]])]
        """
        shape = _shape(shape)
        rank = len(shape)
        spt = _pow2s(self.size_per_thread, "size_per_thread", rank)
        tpw = _pow2s(self.threads_per_warp, "threads_per_warp", rank)
        wpc = _pow2s(self.warps_per_cta, "warps_per_cta", rank)
        order = _order(self.order, rank)
        # Triton 3.9.0 clamps size_per_thread to the per-CTA shape (no zero register bases).
        cga = _cga_layout(self.cga_layout, rank)
        csz = [s for _, s in cga._outs]
        spt = [min(s, max(1, n // c)) for s, n, c in zip(spt, shape, csz)]
        # isn(register, spt, order) * isn(lane, tpw, order) * isn(warp, wpc, order), built in place
        tile = _Tile().isn("register", spt, order).isn("lane", tpw, order).isn("warp", wpc, order)
        return tile.fit(shape, self.cga_layout)

    _dot_linear = staticmethod(lambda dot, shape: _fma_dot(dot, shape))  # a #ttg.dot_op of this parent (FMA)


def _fma_dot(dot, shape) -> LinearLayout:
    """A ``#ttg.dot_op`` whose parent is a ``#ttg.blocked`` (Triton ``fmaDotToLinearLayout``, the FMA path).

    Each thread holds the whole K dim (the parent's ``size_per_thread`` with K
    set to the shape's K), walked with the parent's ``order``; lanes and warps
    follow the parent's, broadcast along K; then fitted to the shape with the
    parent's CGA layout. ``kWidth`` plays no part.

    >>> from unilayout.linear.encodings import DotOperand
    >>> DotOperand(0, Blocked([1, 2], [4, 8], [2, 1], [1, 0]), 0).to_linear([16, 8]).bases[:2]
    [('register', [[0, 1], [0, 2], [0, 4], [8, 0]]), ('lane', [[0, 0], [0, 0], [0, 0], [1, 0], [2, 0]])]
    """
    parent = dot.parent
    shape = _shape(shape)
    rank = len(shape)
    idx = as_int(dot.operand_index, "operand_index")
    if idx not in (0, 1) or rank < 2:
        raise LayoutError(f"DotOperand: operand_index must be 0 (A) or 1 (B) and the rank at least 2, "
                          f"got {idx} and shape {list(shape)}")
    names, k_dim = _dims(rank), rank - 1 if idx == 0 else rank - 2
    if dot.k_width not in (0, None):  # Triton's verifier
        raise LayoutError(f"DotOperand: kWidth {dot.k_width} is not supported when the parent is a blocked layout "
                          "(write kWidth = 0 or leave it out)")
    spt = list(_pow2s(parent.size_per_thread, "size_per_thread", rank))
    tpw = _pow2s(parent.threads_per_warp, "threads_per_warp", rank)
    wpc = _pow2s(parent.warps_per_cta, "warps_per_cta", rank)
    order = _order(parent.order, rank)
    spt[k_dim] = shape[k_dim]
    tile = _Tile().isn("register", spt, order)
    for in_dim, sizes in (("lane", tpw), ("warp", wpc)):
        for d in order:
            tile.id(sizes[d], in_dim, names[d], zero=d == k_dim)
    return tile.fit(shape, parent.cga_layout)


def blocked(shape, size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.blocked`` for ``shape``; see :class:`Blocked`.

    >>> L = blocked([32, 32], [2, 2], [4, 8], [2, 2], [1, 0])
    >>> L.bases[1:3]
    [('lane', [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]]), ('warp', [[0, 16], [8, 0]])]
    """
    return Blocked(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout).to_linear(shape)


# ------------------------------------------------------------------ slice
@dataclass(frozen=True)
class Slice(_Encoding):
    """Triton's ``#ttg.slice<{dim, parent}>``: the parent at the shape with a 1
    inserted at ``dim``, with out-dim ``dim`` dropped (later dims renumbered)
    and all-zero register bases removed.

    >>> Slice(0, Blocked([2, 2], [4, 8], [2, 2], [1, 0])).to_linear([32]).bases[0]
    ('register', [[1]])
    """

    dim: int
    parent: Any

    MNEMONIC = "ttg.slice"
    FIELDS = (Field("dim", "dim", "int"), Field("parent", "parent", "enc"))

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> Slice(1, Blocked([2, 2], [4, 8], [2, 2], [1, 0])).to_linear([64]).bases[2]
        ('warp', [[0], [8]])
        """
        shape = list(_shape(shape))
        dim = as_int(self.dim, "slice dim")
        if not 0 <= dim <= len(shape):
            raise LayoutError(f"slice dim {dim} is out of range for a parent of rank {len(shape) + 1}")
        parent = self.parent
        if not hasattr(parent, "to_linear"):
            raise LayoutError(f"Slice: parent must be an encoding (Blocked, NvidiaMma, ...), got {parent!r}")
        pshape = shape[:dim] + [1] + shape[dim:]
        # the parent's own computation (the sliced layout is what is kept for reuse)
        P = getattr(type(parent).to_linear, "__wrapped__", type(parent).to_linear)(parent, pshape)
        # P's out-dims are dim0.. in order: drop out-dim ``dim`` (the later ones renumbered), and
        # the register bases that become zero
        keep = [k for k in range(len(P._outs)) if k != dim]
        get = _itemgetter(*keep) if len(keep) > 1 else None
        bases = []
        for name, vecs in P._bases:
            vecs = tuple(map(get, vecs)) if get is not None else tuple([(v[keep[0]],) for v in vecs])
            if name == "register":
                vecs = tuple(v for v in vecs if any(v))
            bases.append((name, vecs))
        outs = tuple((f"dim{i}", P._outs[k][1]) for i, k in enumerate(keep))
        return LinearLayout._make(tuple(bases), outs)


def slice_layout(shape, dim, parent) -> LinearLayout:
    """The linear layout of ``#ttg.slice<{dim, parent}>`` for ``shape``; see :class:`Slice`.

    >>> slice_layout([32], 0, Blocked([2, 2], [4, 8], [2, 2], [1, 0])).bases[1]
    ('lane', [[2], [4], [8], [0], [0]])
    """
    return Slice(dim, parent).to_linear(shape)


#: Triton's name for :func:`slice_layout` (shadows the builtin only inside this module's namespace).
slice = slice_layout  # noqa: A001


# ------------------------------------------------------------------ linear
@dataclass(frozen=True)
class LinearEncoding(_Encoding):
    """``#ttg.linear<{...}>`` as an encoding: its layout fixes the shape.

    >>> from unilayout.linear import parse
    >>> enc = LinearEncoding(parse("#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>"))
    >>> enc.to_linear([2]).out_dims, str(enc)
    ([('dim0', 2)], '#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>')
    """

    layout: LinearLayout

    MNEMONIC = "ttg.linear"  # read by linear.text's #ttg.linear reader (its own grammar), printed by to_attr

    def to_linear(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """The layout for ``shape`` (Triton ``LinearEncodingAttr::toLinearLayout``): the layout itself
        for its own shape; otherwise, with the out-dims taken in the layout's order (each dim as its
        register bases first move it, then the others last dim first), registers repeat the layout
        along each dim the shape is larger in, and every basis entry past a smaller dim is cleared
        (register bases so cleared are dropped: the elements they held are already held).

        >>> from unilayout.linear import parse
        >>> enc = LinearEncoding(parse("#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>"))
        >>> enc.to_linear([16]).bases[:2]
        [('register', [[1], [4], [8]]), ('lane', [[2]])]
        >>> enc.to_linear([2]).bases[:2]
        [('register', [[1]]), ('lane', [[0]])]
        """
        own = self.layout
        if shape is None:
            return own
        _verify_linear(own)
        shape = _shape(shape)
        outs = own.out_dim_names
        if list(shape) == [s for _, s in own.out_dims]:
            return own
        if len(shape) != len(outs):
            raise LayoutError(f"this #ttg.linear layout has rank {len(outs)}, the shape {list(shape)} rank {len(shape)}")
        bad = [n for n in shape if n < 1 or n & (n - 1)]
        if bad:
            raise LayoutError(f"a #ttg.linear layout fits only shapes of powers of two, got {list(shape)}")
        return _fit_linear(own, shape)

    def __str__(self) -> str:
        return self.layout.to_attr()


def _verify_linear(own: LinearLayout) -> None:
    """Triton's verifier of ``#ttg.linear`` as a tensor's encoding: once the zero (broadcast) bases are
    removed, the bases form a permutation matrix: each one power of two in one dim, no two the same."""
    moved = [tuple(v) for _, vecs in own.bases for v in vecs if any(v)]
    bad = next((v for v in moved if sum(e != 0 for e in v) != 1 or sum(v) & (sum(v) - 1)), None)
    if bad is not None or len(set(moved)) != len(moved):
        what = f"basis {list(bad)} is not one power of two in one dim" if bad is not None else "two bases are the same"
        raise LayoutError(f"#ttg.linear as a tensor encoding needs a permutation matrix once its zero bases are "
                          f"removed (Triton's verifier): {what}")


def _fit_linear(own: LinearLayout, shape) -> LinearLayout:
    """``#ttg.linear`` on another shape: Triton's repOrder transpose, ensureLayoutNotSmallerThan, then
    ensureLayoutNotLargerThan (register bases past the shape dropped), then the dims back in order."""
    outs = own.out_dim_names
    order = []
    for v in dict(own.bases).get("register", []):  # orderPerDim(register): the dims as registers first move them
        j = next((i for i, x in enumerate(v) if x), None)
        if j is not None and j not in order:
            order.append(j)
    order += [j for j in range(len(outs) - 1, -1, -1) if j not in order]
    names = [outs[j] for j in order]
    want = dict(zip(outs, shape))
    grown = _grow(own.transpose_outs(names), names, [want[n] for n in names])
    bases = []
    for name, vecs in grown.bases:
        kept = []
        for v in vecs:
            cut = [x if x < want[d] else 0 for x, d in zip(v, names)]
            if name == "register" and cut != list(v):
                continue  # Triton broadcasts a register past the shape away
            kept.append(cut)
        bases.append((name, kept))
    return LinearLayout(bases, names).transpose_outs(outs)
