"""TIRx (Axe) layouts as CuTe and linear layouts, and Triton's linear layouts as TIRx layouts: exact, or why not.

A TIRx ``TileLayout`` sends the logical index ``i`` (row-major over its shard
extents) to coordinates on named axes. Both directions here are the same
function, checked over the whole domain:

- ``axe_to_cute``: the CuTe layout ``i -> coordinate``. CuTe splits ``i``
  column-major, so the modes are the shard iters *reversed*. A layout on the
  memory axis ``m`` alone has integer strides; otherwise every axis is a basis
  ``1@k``, ``k`` its place in ``layout.axes`` (so ``L(i)`` is the tuple of
  coordinates in that order). A ``ComposeLayout`` is CuTe's ``Sw<B,M,±S> o off
  o layout``. Replica iters (a CuTe layout gives one coordinate per element)
  and offsets on a basis layout are refused.
- ``axe_to_linear``: Triton's view, hardware -> element: in-dims one per axis
  (``m`` named ``register``, ``laneid`` ``lane``, ``warpid`` ``warp``; any
  other axis by its name), one out-dim ``dim0`` (the logical index). Exact
  when every extent and stride is a power of two, there is no offset and the
  iters on an axis cover its bits once each; replica iters are zero bases
  (Triton's broadcast). Every element and replica is checked through the
  result (up to ``axe.MAX_POINTS`` placements).
- ``cute_tv_to_axe``: a CuTe (thread, value) -> element layout over an
  ``M x N`` tile (the element as its column-major index ``m + M * n``, CuTe's
  convention) as the TIRx layout of the tile (row-major) on ``laneid``,
  ``warpid`` (thread ``= 32 * warp + lane``) and ``m`` (the value), through
  ``cute_to_linear`` and ``linear_to_axe``.
- ``linear_to_axe``: the inverse, for a linear layout whose bases are each one
  bit of the output or zero (a Triton distributed encoding's
  ``to_linear``): out-dims flattened row-major (``dim0`` outermost) are the
  logical index; zero bases become replica iters.

>>> from unilayout import axe
>>> L = axe.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]")
>>> str(axe_to_cute(L))
'(2,4,2,8):(1@2,1@0,1@1,4@0)'
>>> axe_to_linear(L).bases
[('lane', [[2], [4], [16], [32], [64]]), ('warp', [[8]]), ('register', [[1]])]
>>> linear_to_axe(axe_to_linear(L)) == L
True
"""

from __future__ import annotations

import numpy as np

from .. import cute
from .._ints import is_pow2
from ..axe import MAX_POINTS, ComposeLayout, Iter, TileLayout
from ..errors import LayoutError, NotRepresentableError
from ..linear import LinearLayout
from ..linear import evaluate as linear_evaluate

__all__ = ["axe_to_cute", "axe_to_linear", "linear_to_axe", "cute_tv_to_axe", "IN_DIM", "AXIS_OF"]

#: The linear layout in-dim of a TIRx axis (Triton's names where they mean the same; other axes keep theirs).
IN_DIM = {"m": "register", "laneid": "lane", "warpid": "warp"}
#: The TIRx axis of a linear layout in-dim (``IN_DIM`` inverted).
AXIS_OF = {v: k for k, v in IN_DIM.items()}


def _check(x, what):
    if not isinstance(x, (TileLayout, ComposeLayout)):
        raise LayoutError(f"{what}: expected an axe TileLayout or ComposeLayout, got {type(x).__name__}")
    if 0 in x.box:
        raise NotRepresentableError(f"{what}: a shard iter has extent 0 (an empty layout)")


def axe_to_cute(x):
    """The CuTe layout of a TIRx layout: the same ``i -> coordinate`` (module docstring).

    >>> from unilayout import axe
    >>> axe_to_cute(axe.parse("S[(4,8):(8,1)] + 2"))
    ComposedLayout(Swizzle(0, 0, 0), 2, Layout((8, 4), (1, 8)))
    >>> axe_to_cute(axe.parse("T.ComposeLayout(0, 2, 3, S[8, 8])"))
    ComposedLayout(Swizzle(2, 0, 3), 0, Layout((8, 8), (1, 8)))
    """
    _check(x, "axe -> cute")
    tile = x.tile_layout if isinstance(x, ComposeLayout) else x
    if tile.replica:
        raise NotRepresentableError(f"axe -> cute: {tile.replicas} replicas of each element (R[..]): a CuTe layout "
                                    "gives one coordinate per element; axe_to_linear keeps replicas as zero bases")
    axes = x.axes
    only_m = set(axes) <= {"m"}
    off = dict(tile.offset)
    if not only_m and any(off.values()):
        raise NotRepresentableError(f"axe -> cute: the offset {off} on named axes: a CuTe layout with basis strides "
                                    "starts at the origin")
    if isinstance(x, ComposeLayout) and not only_m:
        raise NotRepresentableError("axe -> cute: a swizzle over a layout on several axes (CuTe swizzles integers)")
    its = tile.shard[::-1] or (Iter(1, 0, "m"),)
    shape = tuple(it.extent for it in its)
    if only_m:
        stride = tuple(it.stride for it in its)
    else:
        stride = tuple(cute.ScaledBasis(it.stride, axes.index(it.axis)) if it.stride else 0 for it in its)
    layout = cute.Layout(shape if len(shape) > 1 else shape[0], stride if len(stride) > 1 else stride[0])
    offset = off.get("m", 0)
    if isinstance(x, ComposeLayout):
        s = x.atom_len if x.swizzle_inner else -x.atom_len
        if x.swizzle_len == 0:
            s = 0
        return cute.ComposedLayout(cute.Swizzle(x.swizzle_len, x.per_element, s), offset, layout)
    if offset:
        return cute.ComposedLayout(cute.Swizzle(0, 0, 0), offset, layout)
    return layout


def _log2(v, what):
    if v < 1 or not is_pow2(v):
        raise NotRepresentableError(f"axe -> linear: {what} {v} is not a power of two")
    return v.bit_length() - 1


def axe_to_linear(x):
    """The linear layout ``(axis bits) -> logical index`` of a TIRx layout, proved on every element and replica.

    >>> from unilayout import axe
    >>> axe_to_linear(axe.parse("S[(2,2):(1@laneid,1@m)] + R[2:1@warpid]")).bases
    [('lane', [[2]]), ('register', [[1]]), ('warp', [[0]])]
    >>> axe_to_linear(axe.parse("S[(2,2):(2@laneid,1@m)]"))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: axe -> linear: bit 0 of laneid is reached by no iter (that lane holds nothing; a linear layout's lanes all hold elements)
    """
    _check(x, "axe -> linear")
    tile = x.tile_layout if isinstance(x, ComposeLayout) else x
    if any(v for _, v in tile.offset):
        raise NotRepresentableError(f"axe -> linear: the offset {dict(tile.offset)}: a linear layout maps 0 to 0")
    ks = [_log2(it.extent, f"the extent of {it}") for it in tile.shard]
    size_bits = sum(ks)
    bits = {}  # axis -> {axis bit: image (an int of the logical index, 0 for a replica bit)}
    pos = size_bits
    for it, k in zip(tile.shard, ks):
        pos -= k
        if k and it.stride <= 0:
            raise NotRepresentableError(f"axe -> linear: {it} does not move on {it.axis} (stride {it.stride})")
        s = _log2(it.stride, f"the stride of {it}") if k else 0
        for j in range(k):
            bits.setdefault(it.axis, {})
            if s + j in bits[it.axis]:
                raise NotRepresentableError(f"axe -> linear: bit {s + j} of {it.axis} is used twice: two elements "
                                            "on one place")
            bits[it.axis][s + j] = 1 << (pos + j)
    for it in tile.replica:
        k = _log2(it.extent, f"the replica extent of {it}")
        s = _log2(it.stride, f"the stride of replica {it}") if k else 0
        for j in range(k):
            bits.setdefault(it.axis, {})
            if s + j in bits[it.axis]:
                raise NotRepresentableError(f"axe -> linear: bit {s + j} of {it.axis} is used twice")
            bits[it.axis][s + j] = 0
    for a, b in bits.items():
        for j in range(len(b)):
            if j not in b:
                raise NotRepresentableError(f"axe -> linear: bit {j} of {a} is reached by no iter (that "
                                            f"{IN_DIM.get(a, a).rstrip('s')} holds nothing; a linear layout's "
                                            f"{IN_DIM.get(a, a)}s all hold elements)")
    if isinstance(x, ComposeLayout) and "m" in bits:
        n = len(bits["m"])
        top = x.per_element + x.atom_len + x.swizzle_len
        if x.swizzle_len and top > n:
            raise NotRepresentableError(f"axe -> linear: the swizzle reads bit {top - 1} of m, beyond its {n} bits")
        img = bits["m"]
        sw = x._sw(np.int64(1) << np.arange(n, dtype=np.int64))  # register bit j holds what m = sw(2**j) holds
        bits["m"] = {j: int(np.bitwise_xor.reduce([img[b] for b in range(n) if (int(v) >> b) & 1] or [0]))
                     for j, v in enumerate(sw)}
    bases = {IN_DIM.get(a, a): [[b[j]] for j in range(len(b))] for a, b in bits.items()}
    L = LinearLayout(bases, {"dim0": 1 << size_bits}, require_surjective=False)
    _prove(x, L)
    return L


def _prove(x, L):
    """Every (element, replica): the linear layout at its coordinates is the element (vectorised). Above
    ``MAX_POINTS`` placements the bit bookkeeping alone stands (each logical bit is one axis bit, checked above)."""
    if x.size * x.replicas > MAX_POINTS:
        return
    t = x.table(replicas=True)
    env = {IN_DIM.get(a, a): t[:, :, k].reshape(-1) for k, a in enumerate(x.all_axes)}
    got = linear_evaluate(L, env)["dim0"].reshape(t.shape[:2])
    want = np.arange(t.shape[0], dtype=np.int64)[:, None]
    bad = np.argwhere(got != want)
    if bad.size:  # a slip in the bit bookkeeping above would land here, never a silent wrong answer
        i, r = (int(v) for v in bad[0])
        raise NotRepresentableError(f"axe -> linear: element {i} (replica {r}) comes back as {int(got[i, r])}")


def linear_to_axe(L, *, out_dims=None):
    """The TIRx ``TileLayout`` of a linear layout whose bases are single output bits or zero (module docstring).

    ``out_dims`` orders the out-dims (outermost first; default: as the layout lists them). In-dims become axes
    (``register`` -> ``m``, ``lane`` -> ``laneid``, ``warp`` -> ``warpid``, others by name).

    >>> from unilayout import linear
    >>> L = linear.LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [1, 0]], "warp": [[0, 0]]},
    ...                         {"dim0": 2, "dim1": 4})
    >>> str(linear_to_axe(L))
    'S[(4,2):(1@laneid,1@m)] + R[2:1@warpid]'
    """
    if not isinstance(L, LinearLayout):
        raise LayoutError(f"linear_to_axe: expected a LinearLayout, got {type(L).__name__}")
    outs = list(out_dims) if out_dims is not None else [n for n, _ in L.out_dims]
    sizes = dict(L.out_dims)
    if sorted(outs) != sorted(sizes):
        raise LayoutError(f"linear_to_axe: out_dims {outs} must order the layout's out-dims {sorted(sizes)}")
    shift, acc = {}, 0
    for n in reversed(outs):  # row-major: the last out-dim is the lowest bits of the logical index
        shift[n] = acc
        acc += sizes[n].bit_length() - 1
    owner, replica = {}, []
    names = [n for n, _ in L.out_dims]
    for d, vecs in L.bases:
        axis = AXIS_OF.get(d, d)
        for j, vec in enumerate(vecs):
            flat = [(names[o], v) for o, v in enumerate(vec) if v]
            if not flat:
                replica.append(Iter(2, 1 << j, axis))
                continue
            if len(flat) != 1 or not is_pow2(flat[0][1]):
                raise NotRepresentableError(f"linear -> axe: {d}={1 << j} goes to {dict(flat)}, not one output bit "
                                            "(a TIRx layout moves one axis per logical bit; no XOR of bits)")
            b = shift[flat[0][0]] + flat[0][1].bit_length() - 1
            if b in owner:
                raise NotRepresentableError(f"linear -> axe: logical bit {b} is reached from {owner[b][2]} and {d}: "
                                            "one element in two places is a replica, not a second basis")
            owner[b] = (axis, 1 << j, d)
    missing = [b for b in range(acc) if b not in owner]
    if missing:
        raise NotRepresentableError(f"linear -> axe: logical bit {missing[0]} is reached by no input (the layout "
                                    "is not surjective)")
    shard = []
    for b in range(acc - 1, -1, -1):  # merge runs of bits that step one axis by doubling strides
        axis, stride, _ = owner[b]
        if shard and shard[-1].axis == axis and shard[-1].stride == 2 * stride:
            shard[-1] = Iter(shard[-1].extent * 2, stride, axis)
        else:
            shard.append(Iter(2, stride, axis))
    rep = []
    for it in replica:
        if rep and rep[-1].axis == it.axis and rep[-1].stride * rep[-1].extent == it.stride:
            rep[-1] = Iter(rep[-1].extent * 2, rep[-1].stride, it.axis)
        else:
            rep.append(it)
    return TileLayout(shard, rep)


def cute_tv_to_axe(tv, tile):
    """The TIRx layout of a CuTe (thread, value) -> element layout over ``tile = (M, N)`` (module docstring).

    >>> from unilayout import cute
    >>> str(cute_tv_to_axe(cute.parse("((4,8),2):((16,1),8)"), (8, 8)))
    'S[(32,2):(1@laneid,1@m)]'
    """
    if isinstance(tile, int):
        tile = (tile,)
    tile = tuple(tile)
    if len(tile) not in (1, 2) or any(not isinstance(t, int) or t < 1 for t in tile):
        raise LayoutError(f"cute_tv_to_axe: tile is (M,) or (M, N) with positive sizes, got {tile!r}")
    if not isinstance(tv, cute.Layout) or cute.rank(tv) != 2:
        raise LayoutError(f"cute_tv_to_axe: expected a CuTe (thread, value) layout of rank 2, got {tv!r}")
    from .cute_linear import cute_to_linear  # lazy: a sibling pair file, needed by this one function

    outs = {f"dim{k}": t for k, t in enumerate(tile)}
    lin = cute_to_linear(tv, in_dims=("thread", "register"), out_dims=outs)
    b = dict(lin.bases)
    thread = b.get("thread", [])
    bases = {"register": b.get("register", []), "lane": thread[:5], "warp": thread[5:]}
    return linear_to_axe(LinearLayout(bases, outs, require_surjective=False), out_dims=list(outs))


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("axe", "cute"): axe_to_cute, ("axe", "linear"): axe_to_linear, ("linear", "axe"): linear_to_axe}
