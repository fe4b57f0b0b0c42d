"""The checks behind ``LinearLayout(bases, out_dims)``: basis normalisation, out-dim sizes, ranges.

:func:`check` turns what a caller gives (``{name: [[...], ...]}``, ``(name,
vectors)`` pairs, any sequences of ints; out-dims as ``{name: size}``, pairs or
bare names whose sizes are inferred) into the value's canonical tuples, and
refuses the first broken invariant with a message naming the dim and the fix.
The value (``layout.py``) keeps only the surjectivity check, which needs its
GF(2) rank. ``from_bases_args`` and ``standard_nd`` are the argument work of
``from_bases`` and ``identity_standard_nd``. Nothing here imports the value, so
it sits below ``layout.py``.

>>> check({"i": [[1], [2]]}, ["o"], True)
((('i', ((1,), (2,))),), (('o', 4),), 2, False, True)
>>> check({"i": [[1, 0]]}, {"a": 2}, True)
Traceback (most recent call last):
...
unilayout.errors.LayoutError: basis i=1 has 2 entries but there are 1 out-dims ['a']: give one entry per out-dim
>>> standard_nd("register", [2, 4], [1, 0])
((('register', ((1, 0), (2, 0), (0, 1))),), (('dim1', 4), ('dim0', 2)))
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, repeat
from operator import lshift as _lshift
from operator import or_ as _or
from typing import Any, Sequence

from .._ints import as_int, as_items, as_pow2
from ..errors import LayoutError

_SEQ_TYPES = {list, tuple}
_STR_TYPES = {str}
_INT_TYPES = {int}


def _as_name(value: Any, what: str) -> str:
    """``value`` if it is a dim name (a ``str``), else a LayoutError naming ``what``.

    >>> _as_name("lane", "in-dim name")
    'lane'
    """
    if not isinstance(value, str):
        raise LayoutError(f"{what} must be a string, got {type(value).__name__} {value!r}")
    return value


def _normalise_bases(bases: Any) -> tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]:
    if type(bases) is dict or isinstance(bases, Mapping):
        items = list(bases.items())
    else:
        try:
            items = list(bases)
        except TypeError:
            raise LayoutError(
                f"bases must map in-dim names to lists of basis vectors, got {type(bases).__name__}"
            ) from None
    names = []
    groups = []
    seen = set()
    for k, item in enumerate(items):
        if type(item) is not tuple or len(item) != 2:
            if isinstance(item, (str, bytes)) or not hasattr(item, "__len__") or len(item) != 2:
                raise LayoutError(
                    f"bases entry {k} must be a pair (in_dim_name, [basis, ...]), got {item!r}"
                )
        name, vectors = item
        if type(name) is not str:
            _as_name(name, f"in-dim name of bases entry {k}")
        if name in seen:
            raise LayoutError(f"in-dim {name!r} appears twice in bases: give each in-dim one entry")
        seen.add(name)
        names.append(name)
        groups.append(vectors)
    # Fast path: lists/tuples of lists/tuples of ints, checked in bulk.
    if set(map(type, groups)) <= _SEQ_TYPES:
        flat = list(chain.from_iterable(groups))
        if set(map(type, flat)) <= _SEQ_TYPES:
            rows = list(map(tuple, flat))
            if set(map(type, chain.from_iterable(rows))) <= _INT_TYPES:
                out = []
                i = 0
                for name, g in zip(names, groups):
                    n = len(g)
                    out.append((name, tuple(rows[i:i + n])))
                    i += n
                return tuple(out)
    return tuple((name, _normalise_vectors(name, g)) for name, g in zip(names, groups))


def _normalise_vectors(name: str, vectors: Any) -> tuple[tuple[int, ...], ...]:
    if isinstance(vectors, (str, bytes)):
        raise LayoutError(f"bases of in-dim {name!r} must be a list of basis vectors, got {vectors!r}")
    try:
        vecs = list(vectors)
    except TypeError:
        raise LayoutError(f"bases of in-dim {name!r} must be a list of basis vectors, got {vectors!r}") from None
    rows = []
    for i, vec in enumerate(vecs):
        if isinstance(vec, (str, bytes)):
            raise LayoutError(f"basis {name}={1 << i} must be a list of ints, got {vec!r}")
        try:
            t = tuple(vec)
        except TypeError:
            raise LayoutError(
                f"basis {name}={1 << i} must be a list of ints (one per out-dim), got {vec!r}"
            ) from None
        rows.append(tuple(as_int(e, f"basis {name}={1 << i} entry {j}") for j, e in enumerate(t)))
    return tuple(rows)


def check(bases: Any, out_dims: Any, require_surjective: bool):
    """The arguments of ``LinearLayout(bases, out_dims, require_surjective)`` checked and normalised.

    Returns ``(bases, outs, rank, check_surjective, inferred)``: the bases as
    ``((in_dim, ((entry, ...), ...)), ...)``, the out-dims as ``((name, size),
    ...)``, the GF(2) rank when a fast path already knows it (else None),
    whether the caller must still check surjectivity (it needs the rank), and
    whether the out sizes were inferred from the entries.

    >>> check([("i", [[0]])], [("o", 1)], False)
    ((('i', ((0,),)),), (('o', 1),), None, False, False)
    """
    # -- bases: fast bulk path for {name: [[int, ...], ...]}, detailed path otherwise.
    # The group types are checked before chaining so that a one-shot iterable
    # (a generator of vectors) is left intact for the detailed path.
    nbases = per_out = None
    if (
        type(bases) is dict
        and set(map(type, bases)) <= _STR_TYPES
        and set(map(type, groups := list(bases.values()))) <= _SEQ_TYPES
        and set(map(type, rows := list(chain.from_iterable(groups)))) <= _SEQ_TYPES
    ):
        try:
            # one tuple per out-dim; strict: every vector has the same length
            per_out = list(zip(*rows, strict=True))
        except ValueError:
            per_out = None
        if per_out is not None and set(map(type, chain.from_iterable(per_out))) <= _INT_TYPES:
            vecs = tuple(zip(*per_out)) if per_out else ((),) * len(rows)
            out = []
            i = 0
            for name, g in zip(bases, groups):
                n = len(g)
                out.append((name, vecs[i:i + n]))
                i += n
            nbases = tuple(out)
    if nbases is None:
        nbases = _normalise_bases(bases)
        rows = [v for _, vecs in nbases for v in vecs]
        per_out = None
    # -- out-dims: {name: size}, [(name, size)], or [name] (sizes inferred)
    if type(out_dims) is list and set(map(type, out_dims)) == _STR_TYPES:
        out_items = out_dims
        inferred = True
    elif type(out_dims) is dict or isinstance(out_dims, Mapping):
        out_items = list(out_dims.items())
        inferred = False
    else:
        if isinstance(out_dims, (str, bytes)):
            raise LayoutError(
                f"out_dims must be a dict {{name: size}} or a list of names, got the string {out_dims!r}"
            )
        try:
            out_items = list(out_dims)
        except TypeError:
            raise LayoutError(
                f"out_dims must be a dict {{name: size}} or a list of names, got {type(out_dims).__name__}"
            ) from None
        inferred = all(isinstance(o, str) for o in out_items)
        if not inferred:
            for o in out_items:
                if isinstance(o, str) or not hasattr(o, "__len__") or len(o) != 2:
                    raise LayoutError(
                        f"out_dims must be all names or all (name, size) pairs, got {out_items!r}"
                    )
    names = out_items if inferred else [o[0] for o in out_items]
    if not inferred and set(map(type, names)) - _STR_TYPES:
        for n in names:
            _as_name(n, "out-dim name")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise LayoutError(f"out-dim {dup!r} appears twice: give each out-dim one name")
    nout = len(names)
    if rows and len(rows[0]) != nout or (per_out is None and rows and set(map(len, rows)) != {nout}):
        for name, vecs in nbases:
            for i, vec in enumerate(vecs):
                if len(vec) != nout:
                    raise LayoutError(
                        f"basis {name}={1 << i} has {len(vec)} entries but there are {nout} out-dims "
                        f"{names}: give one entry per out-dim"
                    )
    if per_out is None:
        per_out = list(zip(*rows))
    if not rows:
        per_out = [()] * nout
    # With a surjectivity check ahead, the distinct flattened columns (out-dim 1
    # shifted above out-dim 0) also give the negativity check: a column is
    # negative iff one of its entries is. They feed the rank's fast path below.
    nonzero = None
    if nout == 2 and rows:
        c0, c1 = per_out
        maxes = [max(c0), max(c1)]
        if require_surjective or inferred:
            nonzero = set(map(_or, c0, map(_lshift, c1, repeat(maxes[0].bit_length()))))
            negative = min(nonzero) < 0
        else:
            negative = min(c0) < 0 or min(c1) < 0
    else:
        maxes = [max(c) if c else 0 for c in per_out]
        negative = bool(rows) and nout > 0 and min(map(min, per_out)) < 0
    if negative:
        for name, vecs in nbases:
            for i, vec in enumerate(vecs):
                for j in range(nout):
                    if vec[j] < 0:
                        raise LayoutError(
                            f"basis {name}={1 << i} has the negative entry {vec[j]} for out-dim "
                            f"{names[j]!r}: entries are coordinates in [0, size)"
                        )
    if inferred:
        sizes = [1 << m.bit_length() for m in maxes]
        require_surjective = True
    else:
        sizes = [as_pow2(o[1], f"size of out-dim {names[j]!r}") for j, o in enumerate(out_items)]
        for j in range(nout):
            if maxes[j] >= sizes[j]:
                for name, vecs in nbases:
                    for i, vec in enumerate(vecs):
                        e = vec[j]
                        if e >= sizes[j]:
                            raise LayoutError(
                                f"basis {name}={1 << i} entry {e} for out-dim {names[j]!r} is out of range "
                                f"[0, {sizes[j]}): enlarge that out-dim to {1 << e.bit_length()} or fix the basis"
                            )
    outs = tuple(zip(names, sizes))
    # The rank is computed here only when a fast path knows it; the caller checks surjectivity
    # (with the value's lazily computed rank) when it is still needed.
    rank = None
    if require_surjective:
        out_bits = sum(map(int.bit_length, sizes)) - nout
        if nout == 1:
            nonzero = set(per_out[0])
        if nonzero is not None:
            # Fast path: out_bits distinct non-zero columns with one bit each
            # (distributed layouts) are the unit vectors, so the rank is full.
            nonzero.discard(0)
            if len(nonzero) == out_bits and sum(map(int.bit_count, nonzero)) == out_bits:
                rank = out_bits
        return nbases, outs, rank, rank != out_bits, inferred
    return nbases, outs, rank, False, inferred


def from_bases_args(out_dim_names: Any, out_dim_sizes: Any, require_surjective: bool):
    """``from_bases``'s out-dim arguments as the constructor's ``(out_dims, require_surjective)``.

    >>> from_bases_args(["a", "b"], None, True)
    (['a', 'b'], True)
    >>> from_bases_args(["a"], [4, 2], True)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: from_bases: 1 out-dim names ['a'] but 2 sizes [4, 2]: give one size per name
    """
    if not isinstance(out_dim_names, (str, list, tuple)):
        raise LayoutError(f"from_bases: out_dim_names must be a list of names, got {type(out_dim_names).__name__}")
    names = list(out_dim_names) if not isinstance(out_dim_names, str) else [out_dim_names]
    if out_dim_sizes is None:
        return names, True
    try:
        sizes = list(out_dim_sizes)
    except TypeError:
        raise LayoutError(f"from_bases: out_dim_sizes must be a list of sizes, got {type(out_dim_sizes).__name__}") \
            from None
    if len(sizes) != len(names):
        raise LayoutError(
            f"from_bases: {len(names)} out-dim names {names} but {len(sizes)} sizes {sizes}: give one size per name"
        )
    return list(zip(names, sizes)), require_surjective


def standard_nd(in_dim: Any, shape: Sequence[int], order: Sequence[int]):
    """The ``(bases, outs)`` of ``identity_standard_nd(in_dim, shape, order)``, None for rank 0.

    >>> standard_nd("offset", [4], [0])
    ((('offset', ((1,), (2,))),), (('dim0', 4),))
    """
    shape = [as_int(s, "shape entry") for s in as_items(shape)]
    order = [as_int(o, "order entry") for o in as_items(order)]
    if sorted(order) != list(range(len(shape))):
        raise LayoutError(
            f"identity_standard_nd: order {order} must be a permutation of 0..{len(shape) - 1} (one entry per shape dim)"
        )
    in_dim = _as_name(in_dim, "in-dim name")
    if not order:
        return None
    rank = len(order)
    vecs = []
    for k, d in enumerate(order):  # built directly: the same bases as the product of identity_1d's
        size = shape[d]
        if size == 0:
            raise LayoutError(f"identity_standard_nd: shape {shape} has a zero entry")
        as_pow2(size, f"size of dim{d}")
        for i in range(size.bit_length() - 1):
            v = [0] * rank
            v[k] = 1 << i
            vecs.append(tuple(v))
    return ((in_dim, tuple(vecs)),), tuple((f"dim{d}", shape[d]) for d in order)
