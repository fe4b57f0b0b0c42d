"""Do two fragments agree? ``compare`` says: the same, the same up to a register permutation, or where not.

``compare(a, b)`` puts both on (thread, value) -> (row, col) tables
(``fragment``) and decides exhaustively, with numpy over the whole table:

- ``same``: every thread's value ``v`` is the same element in both;
- ``register_permutation``: not the same, but one permutation ``p`` of the
  values makes them so for every thread — ``a[t, p[v]] == b[t, v]`` — which
  is what a kernel author applies (a register shuffle inside the thread, no
  data movement between threads);
- ``first_difference``: otherwise the first ``(thread, value)`` (thread-major)
  where they differ, with both elements: ``((t, v), (row, col) in a, in b)``.

>>> from unilayout import cute
>>> from unilayout.rosetta import from_cute_tv
>>> atom = cute.mma_atom("SM80_16x8x16_F32F16F16F32_TN")
>>> triton_c = ("tensor<16x8xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
...             "instrShape = [16, 8]}>>")
>>> compare(from_cute_tv(atom.layout_c, (16, 8)), triton_c)
Verdict(same=True, register_permutation=None, first_difference=None)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import LayoutError
from .fragment import fragment

__all__ = ["Verdict", "compare", "assert_same_fragment"]


class Verdict(NamedTuple):
    """The answer of ``compare`` (module docstring): exactly one of the three is set (or ``same`` is True).

    >>> Verdict(False, (1, 0), None).register_permutation
    (1, 0)
    """

    same: bool
    register_permutation: tuple | None
    first_difference: tuple | None

    def describe(self) -> str:
        """One line: ``same``, ``same after registers (1, 0, ...)``, or the first difference.

        >>> Verdict(False, None, ((3, 1), (0, 2), (8, 2))).describe()
        'differ: thread 3 value 1 holds (0, 2) in one and (8, 2) in the other'
        """
        if self.same:
            return "same"
        if self.register_permutation is not None:
            return f"same after the register permutation {list(self.register_permutation)}"
        (t, v), ca, cb = self.first_difference
        return f"differ: thread {t} value {v} holds {ca} in one and {cb} in the other"


def _first(a, b):
    """The first (t, v) thread-major where the tables differ (or where one has a value the other lacks)."""
    T, V = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    diff = (a[:T, :V] != b[:T, :V]).any(axis=-1)
    hit = np.argwhere(diff)
    if hit.size:
        t, v = (int(x) for x in hit[0])
        return (t, v), tuple(int(x) for x in a[t, v]), tuple(int(x) for x in b[t, v])
    t, v = (T, 0) if a.shape[0] != b.shape[0] else (0, V)
    get = lambda c: tuple(int(x) for x in c[t, v]) if t < c.shape[0] and v < c.shape[1] else None  # noqa: E731
    return (t, v), get(a), get(b)


def compare(a, b, operand=None, shape=None) -> Verdict:
    """Compare two fragments of any systems over the same tile (module docstring), exhaustively and vectorised.

    ``a`` and ``b``: ``Fragment`` values, linear layouts or Triton texts, CuTe
    (thread, value) layouts (with ``shape`` = the tile ``(M, N)``, and
    ``operand="B"`` for CuTe's ``(n, k)`` B), plug-in values with
    ``to_linear``. Tiles of different shapes are a ``LayoutError``.

    >>> from unilayout import cute
    >>> row = cute.Layout((4, 2), (1, 4))   # thread t holds (t, 0), (t, 1) of a 4x2 tile
    >>> compare(row, cute.Layout((4, 2), (1, 4)), shape=(4, 2)).same
    True
    >>> a, b = cute.Layout((4, (2, 2)), (1, (4, 8))), cute.Layout((4, (2, 2)), (1, (8, 4)))
    >>> compare(a, b, shape=(4, 4)).register_permutation
    (0, 2, 1, 3)
    >>> compare(row, cute.Layout((4, 2), (2, 1)), shape=(4, 2)).first_difference
    ((0, 1), (0, 1), (1, 0))
    """
    fa = fragment(a, shape, operand)
    fb = fragment(b, shape, operand)
    if tuple(fa.shape) != tuple(fb.shape):
        raise LayoutError(f"rosetta: the fragments cover different tiles: {fa.shape[0]}x{fa.shape[1]} and "
                          f"{fb.shape[0]}x{fb.shape[1]}")
    A, B = fa.coords, fb.coords
    if A.shape == B.shape and np.array_equal(A, B):
        return Verdict(True, None, None)
    if A.shape == B.shape and A.shape[0] and A.shape[1]:
        cols = fa.shape[1]
        ka, kb = A[..., 0] * cols + A[..., 1], B[..., 0] * cols + B[..., 1]
        order = np.argsort(ka[0], kind="stable")
        at = np.searchsorted(ka[0][order], kb[0])
        if (at < len(order)).all():
            perm = order[np.minimum(at, len(order) - 1)]
            if np.array_equal(ka[:, perm], kb):
                return Verdict(False, tuple(int(p) for p in perm), None)
    return Verdict(False, None, _first(A, B))


def assert_same_fragment(a, b, operand=None, shape=None) -> None:
    """Raise ``AssertionError`` with the first difference unless ``a`` and ``b`` are the same fragment.

    For users' own tests: a register permutation is not the same fragment
    (the message gives the permutation).

    >>> from unilayout import cute
    >>> assert_same_fragment(cute.Layout((4, 2), (1, 4)), cute.Layout((4, 2), (2, 1)), shape=(4, 2))
    Traceback (most recent call last):
    ...
    AssertionError: fragments differ: thread 0 value 1 holds (0, 1) in one and (1, 0) in the other
    """
    v = compare(a, b, operand, shape)
    if not v.same:
        raise AssertionError(f"fragments {v.describe()}" if v.first_difference else f"fragments are only the "
                             f"{v.describe()}")

