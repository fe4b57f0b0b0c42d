"""Linear algebra over GF(2) with Python ints as bit vectors (no size cap).

A vector over GF(2) is a Python ``int``: bit ``r`` is coordinate ``r``.
Addition is XOR. A matrix is given by its *columns* (a sequence of ints,
column ``c`` is the image of input bit ``c``), which is how a linear layout
stores its bases, or by its *rows* (for :func:`rref`), where bit ``c`` of a
row is the entry in column ``c``.

Everything here is exact for any number of bits: Python ints grow as needed,
so layouts with hundreds of input and output bits work (Triton caps both at 64).

>>> rank([0b01, 0b10, 0b11])
2
>>> rref([0b110, 0b011])
([5, 6], [0, 1])
>>> solve([0b01, 0b10, 0b11], 0b11)
3
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Iterable, Sequence

__all__ = ["rank", "rref", "ColumnBasis", "solve", "free_columns"]


def rank(columns: Iterable[int]) -> int:
    """The GF(2) rank of the matrix with these columns.

    **Post-conditions:** ``0 <= rank(cols) <= min(len(cols), max bit length)``.

    >>> rank([1, 2, 3, 0])
    2
    >>> rank([])
    0
    """
    cols = columns if isinstance(columns, (list, tuple)) else list(columns)
    # Fast path: distinct non-zero columns with pairwise disjoint bits (e.g. the
    # powers of two of distributed layouts) are independent: sum == OR.
    nonzero = set(cols)
    nonzero.discard(0)
    if sum(nonzero) == reduce(or_, nonzero, 0):
        return len(nonzero)
    pivots: dict[int, int] = {}
    for v in cols:
        while v:
            top = v.bit_length() - 1
            p = pivots.get(top)
            if p is None:
                pivots[top] = v
                break
            v ^= p
    return len(pivots)


def rref(rows: Sequence[int]) -> tuple[list[int], list[int]]:
    """Reduced row echelon form of a matrix given by rows (bit c = column c).

    Columns are eliminated from the lowest bit up, exactly as Triton's
    ``f2reduce`` orders them: the pivot of each non-zero output row is its
    lowest set bit, pivots increase down the rows, every pivot column is zero
    in all other rows, and zero rows are dropped.

    Returns ``(nonzero_rows, pivot_columns)``.

    **Post-conditions:** ``len(rows_out) == rank(columns of rows)``;
    ``(r & -r).bit_length() - 1 == pivot`` for each row.

    >>> rref([0b11, 0b01, 0b10])
    ([1, 2], [0, 1])
    """
    work = [r for r in rows if r]
    out: list[int] = []
    pivots: list[int] = []
    while work:
        # The next pivot is the smallest lowest-set-bit among remaining rows.
        best = min(range(len(work)), key=lambda i: work[i] & -work[i])
        row = work.pop(best)
        bit = row & -row
        work = [w ^ row if w & bit else w for w in work]
        work = [w for w in work if w]
        out = [o ^ row if o & bit else o for o in out]
        out.append(row)
        pivots.append(bit.bit_length() - 1)
    return out, pivots


class ColumnBasis:
    """An echelon basis of the span of a list of columns, remembering how each
    basis vector is made from the original columns.

    Column ``c`` is a *pivot* iff it is not in the span of columns ``0..c-1``.
    :meth:`express` writes a vector as a XOR of pivot columns only, which is
    the unique solution with every free (non-pivot) variable set to zero: the
    solution Triton's ``invertAndCompose`` picks.

    >>> b = ColumnBasis([0b01, 0b01, 0b10])
    >>> b.pivots
    [0, 2]
    >>> b.express(0b11)  # columns 0 and 2
    5
    >>> b.express(0b100) is None
    True
    """

    __slots__ = ("_table", "pivots", "free")

    def __init__(self, columns: Iterable[int]):
        table: dict[int, tuple[int, int]] = {}
        pivots: list[int] = []
        free: list[int] = []
        for c, v in enumerate(columns):
            combo = 1 << c
            while v:
                top = v.bit_length() - 1
                entry = table.get(top)
                if entry is None:
                    table[top] = (v, combo)
                    pivots.append(c)
                    break
                v ^= entry[0]
                combo ^= entry[1]
            else:
                free.append(c)
        self._table = table
        self.pivots = pivots
        self.free = free

    @property
    def rank(self) -> int:
        """Number of pivot columns.

        >>> ColumnBasis([1, 1, 2]).rank
        2
        """
        return len(self.pivots)

    def express(self, v: int) -> int | None:
        """Mask of pivot columns whose XOR is ``v``, or None if ``v`` is not in the span.

        >>> ColumnBasis([0b10, 0b01]).express(0b11)
        3
        """
        table = self._table
        combo = 0
        while v:
            entry = table.get(v.bit_length() - 1)
            if entry is None:
                return None
            v ^= entry[0]
            combo ^= entry[1]
        return combo


def solve(columns: Sequence[int], target: int) -> int | None:
    """A mask ``x`` with ``XOR(columns[c] for c in x) == target``, free variables 0.

    Returns None when ``target`` is not in the column span.

    **Post-conditions:** the result uses only pivot columns (columns not in
    the span of the columns before them), so it is unique.

    >>> solve([0, 1, 2], 3)
    6
    >>> solve([1], 2) is None
    True
    """
    return ColumnBasis(columns).express(target)


def free_columns(columns: Sequence[int]) -> list[int]:
    """Indices of the columns that lie in the span of the columns before them.

    >>> free_columns([1, 2, 3, 0, 4])
    [2, 3]
    """
    return ColumnBasis(columns).free
