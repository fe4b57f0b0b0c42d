"""Reshaping and queries: transpose, reshape, flatten, resize and rename dims;
``free_variable_masks`` and ``num_consecutive_in_out``.

Each reshape keeps the function and changes only how its inputs or outputs
are named and split (or, for ``resize_*``, drops/adds bits explicitly).

>>> from unilayout.linear import identity_1d
>>> reshape_ins(identity_1d(8, "i", "o"), [("a", 2), ("b", 4)]).in_dims
[('a', 2), ('b', 4)]
>>> free_variable_masks(resize_in_dim(identity_1d(2, "i", "o"), "i", 4))
{'i': 2}
"""

from __future__ import annotations

from typing import Sequence

from ..._ints import as_pow2
from ...errors import LayoutError
from .. import gf2
from .._bases import _as_name
from ..layout import LinearLayout
from ._common import _check, _make, _names, _split_flat

__all__ = [
    "transpose_ins",
    "transpose_outs",
    "reshape_ins",
    "reshape_outs",
    "flatten_ins",
    "flatten_outs",
    "resize_in_dim",
    "resize_out_dim",
    "rename_in_dim",
    "remove_zero_bases_along_dim",
    "free_variable_masks",
    "num_consecutive_in_out",
]


def transpose_ins(layout: LinearLayout, names: Sequence[str]) -> LinearLayout:
    """The same function with in-dims listed in the order ``names``.

    **Pre-conditions:** ``names`` is a permutation of the in-dim names.

    >>> from unilayout.linear import identity_1d
    >>> transpose_ins(identity_1d(2, "a", "o") * identity_1d(2, "b", "o"), ["b", "a"]).bases
    [('b', [[2]]), ('a', [[1]])]
    """
    _check(layout, "transpose_ins")
    names = _names(names, "transpose_ins")
    have = [n for n, _ in layout._bases]
    if sorted(names) != sorted(have) or len(set(names)) != len(names):
        raise LayoutError(f"transpose_ins: {names} is not a permutation of the in-dims {have}")
    if names == have:
        return layout
    b = dict(layout._bases)
    return _make(tuple((n, b[n]) for n in names), layout._outs)


def transpose_outs(layout: LinearLayout, names: Sequence[str]) -> LinearLayout:
    """The same function with out-dims listed in the order ``names``.

    **Pre-conditions:** ``names`` is a permutation of the out-dim names.

    >>> from unilayout.linear import LinearLayout
    >>> transpose_outs(LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"]), ["b", "a"]).out_dim_names
    ['b', 'a']
    """
    _check(layout, "transpose_outs")
    names = _names(names, "transpose_outs")
    have = [n for n, _ in layout._outs]
    if sorted(names) != sorted(have) or len(set(names)) != len(names):
        raise LayoutError(f"transpose_outs: {names} is not a permutation of the out-dims {have}")
    if names == have:
        return layout
    pos = {n: k for k, n in enumerate(have)}
    perm = [pos[n] for n in names]
    sizes = dict(layout._outs)
    new = tuple((n, tuple(tuple(v[p] for p in perm) for v in vecs)) for n, vecs in layout._bases)
    return _make(new, tuple((n, sizes[n]) for n in names))


def _dim_sizes(new_dims, what: str) -> list[tuple[str, int]]:
    out = []
    try:
        items = list(new_dims)
    except TypeError:
        raise LayoutError(f"{what}: expected a list of (name, size) pairs, got {new_dims!r}") from None
    for item in items:
        if isinstance(item, str) or not hasattr(item, "__len__") or len(item) != 2:
            raise LayoutError(f"{what}: expected (name, size) pairs, got {item!r}")
        name = _as_name(item[0], f"{what}: dim name")
        out.append((name, as_pow2(item[1], f"{what}: size of {name!r}")))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise LayoutError(f"{what}: repeated dim names in {names}")
    return out


def reshape_ins(layout: LinearLayout, new_in_dims: Sequence[tuple[str, int]]) -> LinearLayout:
    """Concatenate all bases (in-dim order, low first) and re-split them by ``[(name, size), ...]``.

    **Pre-conditions:** sizes are powers of two whose product is the total in size.

    >>> from unilayout.linear import identity_1d
    >>> reshape_ins(identity_1d(8, "i", "o"), [("a", 4), ("b", 2)]).bases
    [('a', [[1], [2]]), ('b', [[4]])]
    """
    _check(layout, "reshape_ins")
    dims = _dim_sizes(new_in_dims, "reshape_ins")
    total = sum(s.bit_length() - 1 for _, s in dims)
    if total != layout.total_in_dim_size_log2:
        raise LayoutError(
            f"reshape_ins: the new in-dims {dims} have {1 << total} points but the layout has "
            f"{layout.total_in_dim_size}: the sizes must multiply to the same total"
        )
    flat = [v for _, vecs in layout._bases for v in vecs]
    new = []
    i = 0
    for name, size in dims:
        k = size.bit_length() - 1
        new.append((name, tuple(flat[i:i + k])))
        i += k
    return _make(tuple(new), layout._outs)


def reshape_outs(layout: LinearLayout, new_out_dims: Sequence[tuple[str, int]]) -> LinearLayout:
    """Flatten every basis to one int (first out-dim lowest) and re-split by ``[(name, size), ...]``.

    **Pre-conditions:** sizes are powers of two whose product is the total out size.

    >>> from unilayout.linear import LinearLayout
    >>> L = LinearLayout({"in1": [[1], [4], [8]], "in2": [[3]]}, {"out": 16})
    >>> reshape_outs(L, [("o2", 2), ("o3", 8)]).bases
    [('in1', [[1, 0], [0, 2], [0, 4]]), ('in2', [[1, 1]])]
    """
    _check(layout, "reshape_outs")
    dims = _dim_sizes(new_out_dims, "reshape_outs")
    total = sum(s.bit_length() - 1 for _, s in dims)
    if total != layout.total_out_dim_size_log2:
        raise LayoutError(
            f"reshape_outs: the new out-dims {dims} have {1 << total} points but the layout has "
            f"{layout.total_out_dim_size}: the sizes must multiply to the same total"
        )
    cols = layout._columns()
    flats = []
    c = 0
    for _, vecs in layout._bases:
        flats.append(cols[c:c + len(vecs)])
        c += len(vecs)
    outs = tuple(dims)
    return _make(_split_flat(layout._bases, flats, outs), outs)


def flatten_ins(layout: LinearLayout) -> LinearLayout:
    """One in-dim named after the first in-dim, of the total size (unchanged without in-dims).

    >>> from unilayout.linear import identity_1d
    >>> flatten_ins(identity_1d(2, "a", "o") * identity_1d(4, "b", "o")).bases
    [('a', [[1], [2], [4]])]
    """
    _check(layout, "flatten_ins")
    if len(layout._bases) <= 1:
        return layout
    flat = tuple(v for _, vecs in layout._bases for v in vecs)
    return _make(((layout._bases[0][0], flat),), layout._outs)


def flatten_outs(layout: LinearLayout) -> LinearLayout:
    """One out-dim named after the first out-dim, of the total size (unchanged without out-dims).

    >>> from unilayout.linear import LinearLayout
    >>> flatten_outs(LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"])).out_dims
    [('a', 4)]
    """
    _check(layout, "flatten_outs")
    if len(layout._outs) <= 1:
        return layout
    return reshape_outs(layout, [(layout._outs[0][0], layout.total_out_dim_size)])


def resize_in_dim(layout: LinearLayout, in_dim: str, new_size: int) -> LinearLayout:
    """Shrink an in-dim (drop its most significant bases) or grow it (append zero bases: broadcast).

    >>> from unilayout.linear import identity_1d
    >>> resize_in_dim(identity_1d(8, "i", "o"), "i", 2).bases
    [('i', [[1]])]
    """
    _check(layout, "resize_in_dim")
    k = layout._in_index(in_dim)
    n = as_pow2(new_size, f"resize_in_dim: new size of {in_dim!r}").bit_length() - 1
    name, vecs = layout._bases[k]
    if n <= len(vecs):
        vecs = vecs[:n]
    else:
        vecs = vecs + ((0,) * len(layout._outs),) * (n - len(vecs))
    return _make(layout._bases[:k] + ((name, vecs),) + layout._bases[k + 1:], layout._outs)


def resize_out_dim(layout: LinearLayout, out_dim: str, new_size: int) -> LinearLayout:
    """Shrink an out-dim to ``new_size``; entries ``>= new_size`` become 0.

    >>> from unilayout.linear import identity_1d
    >>> resize_out_dim(identity_1d(8, "i", "o"), "o", 4).bases
    [('i', [[1], [2], [0]])]
    """
    _check(layout, "resize_out_dim")
    j = layout._out_index(out_dim)
    n = as_pow2(new_size, f"resize_out_dim: new size of {out_dim!r}")
    cur = layout._outs[j][1]
    if n > cur:
        raise LayoutError(f"resize_out_dim: out-dim {out_dim!r} has size {cur}; it can only shrink, not grow to {n}")
    new = tuple(
        (name, tuple(v if v[j] < n else v[:j] + (0,) + v[j + 1:] for v in vecs)) for name, vecs in layout._bases
    )
    return _make(new, layout._outs[:j] + ((out_dim, n),) + layout._outs[j + 1:])


def rename_in_dim(layout: LinearLayout, old: str, new: str) -> LinearLayout:
    """Rename in-dim ``old`` to ``new`` (which must not already be an in-dim).

    >>> from unilayout.linear import identity_1d
    >>> rename_in_dim(identity_1d(2, "i", "o"), "i", "lane").in_dims
    [('lane', 2)]
    """
    _check(layout, "rename_in_dim")
    k = layout._in_index(old)
    new = _as_name(new, "rename_in_dim: new name")
    if new == old:
        return layout
    if layout.has_in_dim(new):
        raise LayoutError(f"rename_in_dim: {new!r} is already an in-dim: pick an unused name")
    return _make(layout._bases[:k] + ((new, layout._bases[k][1]),) + layout._bases[k + 1:], layout._outs)


def remove_zero_bases_along_dim(layout: LinearLayout, in_dim: str) -> LinearLayout:
    """Drop the all-zero bases of ``in_dim``; out sizes are re-inferred (Triton's rule), so the
    result must be surjective.

    >>> from unilayout.linear import LinearLayout
    >>> remove_zero_bases_along_dim(LinearLayout({"r": [[0], [1]]}, ["o"]), "r").bases
    [('r', [[1]])]
    """
    _check(layout, "remove_zero_bases_along_dim")
    new = tuple(
        (name, tuple(v for v in vecs if any(v)) if name == in_dim else vecs) for name, vecs in layout._bases
    )
    return LinearLayout(new, [n for n, _ in layout._outs])


# ---------------------------------------------------------------- queries
def free_variable_masks(layout: LinearLayout) -> dict[str, int]:
    """Per in-dim, a mask of the input bits in the span of all earlier input bits (flattened order).

    Those bits can change without changing the output; all masks are 0 iff
    the layout is injective.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> free_variable_masks(identity_1d(4, "i", "o") * zeros_1d(2, "i", "o"))
    {'i': 4}
    """
    _check(layout, "free_variable_masks")
    free = gf2.ColumnBasis(layout._columns()).free
    fset = set(free)
    out = {}
    c = 0
    for name, vecs in layout._bases:
        m = 0
        for i in range(len(vecs)):
            if c + i in fset:
                m |= 1 << i
        out[name] = m
        c += len(vecs)
    return out


def num_consecutive_in_out(layout: LinearLayout) -> int:
    """The largest V such that V consecutive values of the first in-dim land on V consecutive
    values of the first out-dim (Triton ``getNumConsecutiveInOut``).

    k = number of leading bases of the first in-dim equal to (2**j, 0, ..., 0);
    t = trailing zeros of the OR of the first out-coordinate of all other
    bases (infinite if none); the result is ``2**min(k, t)`` (1 without dims).

    >>> from unilayout.linear import LinearLayout
    >>> num_consecutive_in_out(LinearLayout({"i": [[1], [2], [4], [10]]}, {"o": 16}))
    2
    """
    _check(layout, "num_consecutive_in_out")
    if not layout._bases or not layout._outs:
        return 1
    first = layout._bases[0][1]
    k = 0
    for j, v in enumerate(first):
        if v[0] != 1 << j or any(v[1:]):
            break
        k += 1
    other = 0
    for idx, (_, vecs) in enumerate(layout._bases):
        for i, v in enumerate(vecs):
            if idx != 0 or i >= k:
                other |= v[0]
    if other:
        t = (other & -other).bit_length() - 1
        k = min(k, t)
    return 1 << k
