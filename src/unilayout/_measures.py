"""Measures of an integer table (ground floor): the numbers every family's facts are made of.

A layout's table (``unilayout.index_map``) says where each domain point
goes; these functions measure it without knowing whose it is:

- ``vector_width``: the largest power of two ``v`` such that each aligned run
  of ``v`` points holds ``v`` consecutive values starting at a multiple of
  ``v`` (how wide a vector load can be);
- ``longest_run``: the longest stretch of points holding consecutive values;
- ``injectivity``: no value twice, and every value of a range present;
- ``table_facts``: those three written into a facts dict.

>>> d = {}
>>> table_facts(d, [0, 1, 2, 3, 8, 9, 10, 11])
>>> d["injective"], d["surjective"], d["contiguity"], d["longest_run"]
(True, False, 4, 4)
"""

from __future__ import annotations

import numpy as np

__all__ = ["vector_width", "longest_run", "injectivity", "table_facts", "MAX_TABULATE"]

#: Largest number of points whose table is computed for the facts (bigger ones get a ``note``).
MAX_TABULATE = 1 << 24


def vector_width(values) -> int:
    """Largest power of two v: each aligned run of v domain points holds v consecutive, v-aligned values.

    ``[0, 1, 2, 3, 8, 9, 10, 11]`` is two aligned runs of 4 (starting at 0
    and 8); runs of 8 would need ``4`` after ``3``. ``[1, 2]`` is consecutive
    but starts at an odd value, so no pair is aligned.

    >>> vector_width([0, 1, 2, 3, 8, 9, 10, 11]), vector_width([0, 2, 1, 3]), vector_width([1, 2])
    (4, 1, 1)
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    n = v.size
    best = 1
    w = 2
    # bad[i]: steps j < i (from point j to j+1) that are not +1; one pass, then O(n / w) per width.
    if n > 1:
        steps = np.diff(v) != 1
        if steps.all() or v[0] % 2:  # nothing is consecutive, or the first pair is not aligned
            return 1
        bad = np.concatenate(([0], np.cumsum(steps, dtype=np.int32 if n < 1 << 31 else np.int64)))
    while w <= n and n % w == 0:
        # block b covers points b*w .. b*w+w-1: its steps b*w .. b*w+w-2 (strided views, no copies)
        if (bad[w - 1::w] != bad[0:n:w]).any() or (v[0:n:w] & (w - 1)).any():
            break
        best = w
        w *= 2
    return best


def longest_run(values) -> int:
    """Longest stretch of consecutive domain points whose values are consecutive (+1 each step); 0 when empty.

    >>> longest_run([0, 1, 2, 8, 9, 3]), longest_run([5]), longest_run([])
    (3, 1, 0)
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    if v.size == 0:
        return 0
    breaks = np.flatnonzero(np.diff(v) != 1)
    edges = np.concatenate(([-1], breaks, [v.size - 1]))
    return int(np.diff(edges).max())


def injectivity(values, lo=None, hi=None):
    """``(injective, surjective)`` of a table of ints: no value twice; every value of ``lo..hi`` present.

    ``lo`` / ``hi`` default to the table's minimum and maximum.

    >>> injectivity([0, 2, 1]), injectivity([0, 0, 2]), injectivity([0, 2], 0, 2)
    ((True, True), (False, False), (True, False))
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    if v.size == 0:
        return True, True
    lo = int(v.min()) if lo is None else int(lo)
    hi = int(v.max()) if hi is None else int(hi)
    span = hi - lo + 1
    if span <= 4 * v.size + 1024:
        counts = np.bincount(v - lo, minlength=span)
        return bool((counts <= 1).all()), bool((counts >= 1).all())
    u = np.unique(v)
    return u.size == v.size, u.size == span


def table_facts(d, vals, lo=None, hi=None, run=True):
    """Write ``injective``, ``surjective``, ``bijective``, ``contiguity`` (and ``longest_run``) of ``vals`` into ``d``.

    ``lo``/``hi`` bound the values that surjectivity must cover (default: the table's own range).

    >>> d = {}
    >>> table_facts(d, [0, 2], 0, 2, run=False)
    >>> d
    {'injective': True, 'surjective': False, 'bijective': False, 'contiguity': 1}
    """
    inj, sur = injectivity(vals, lo, hi)
    d["injective"], d["surjective"], d["bijective"] = inj, sur, inj and sur
    d["contiguity"] = vector_width(vals)
    if run:
        d["longest_run"] = longest_run(vals)
