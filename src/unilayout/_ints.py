"""Neutral integer checks shared by every family: one function, one wording, per error kind.

Each family validates its arguments once, on construction, with these
helpers, so that the same mistake reads the same in CuTe, linear, affine,
TSL and tt code. ``what`` names the argument as the user wrote it
(``"grid dim 1"``, ``"size of in-dim 'lane'"``); the message is
``"<what> must be ..., got <value>"``.

==================  ===============================================  =============================
helper              accepts                                          message when it refuses
==================  ===============================================  =============================
``as_int``          int, numpy integer (not bool, float, str)        ``X must be an integer, got V``
``as_nonneg``       an ``as_int`` value >= 0                         ``X must be >= 0, got V``
``as_positive``     an ``as_int`` value >= 1                         ``X must be >= 1, got V``
``as_pow2``         an ``as_int`` value that is a power of two       ``X N is not a power of two: pad to P``
``as_shape``        a sequence of ``as_nonneg`` values               ``X must be a sequence of integers, got V``
``check_table``     a count of values to tabulate <= ``MAX_TABLE``   ``X: N values are more than ...``
==================  ===============================================  =============================

>>> as_int(__import__("numpy").int64(4), "grid dim")
4
>>> as_pow2(12, "size of in-dim 'lane'")
Traceback (most recent call last):
...
unilayout.errors.LayoutError: size of in-dim 'lane' 12 is not a power of two: pad to 16
>>> as_shape([2, 3], "shape"), ceil_div(7, 2), is_pow2(8), next_pow2(5)
((2, 3), 4, True, 8)
"""

from __future__ import annotations

import operator

from .errors import LayoutError

#: Most values one tabulation (an ``index_map``, a comparison table, a fit) may hold: 2**30 int64s are 8 GiB.
MAX_TABLE = 1 << 30


def as_int(value, what: str) -> int:
    """``value`` as a Python int; bools, floats, strings and arrays are refused with ``LayoutError``.

    >>> as_int(2.0, "tile height")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: tile height must be an integer, got 2.0
    """
    if isinstance(value, bool):
        raise LayoutError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise LayoutError(f"{what} must be an integer, got {value!r}") from None


def as_nonneg(value, what: str) -> int:
    """``as_int(value)`` that is >= 0.

    >>> as_nonneg(-1, "offset")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: offset must be >= 0, got -1
    """
    n = as_int(value, what)
    if n < 0:
        raise LayoutError(f"{what} must be >= 0, got {n}")
    return n


def as_positive(value, what: str) -> int:
    """``as_int(value)`` that is >= 1.

    >>> as_positive(0, "grid dim 0")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: grid dim 0 must be >= 1, got 0
    """
    n = as_int(value, what)
    if n < 1:
        raise LayoutError(f"{what} must be >= 1, got {n}")
    return n


def is_pow2(n: int) -> bool:
    """True iff the int ``n`` is a power of two (1, 2, 4, ...).

    >>> [is_pow2(n) for n in (0, 1, 6, 64)]
    [False, True, False, True]
    """
    return n > 0 and n & (n - 1) == 0


def next_pow2(n: int) -> int:
    """The smallest power of two >= ``n`` (1 for ``n <= 1``).

    >>> next_pow2(1), next_pow2(12), next_pow2(16)
    (1, 16, 16)
    """
    return 1 << max(n - 1, 0).bit_length()


def as_pow2(value, what: str) -> int:
    """``as_int(value)`` that is a power of two; the message names the next one to pad to.

    >>> as_pow2(0, "size")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: size 0 is not a power of two: pad to 1
    """
    n = as_int(value, what)
    if not is_pow2(n):
        raise LayoutError(f"{what} {n} is not a power of two: pad to {next_pow2(n)}")
    return n


def as_shape(value, what: str) -> tuple:
    """``value`` as a tuple of non-negative Python ints (a list, tuple or 1-D array of integers).

    >>> as_shape((4, "8"), "shape")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: shape must be a sequence of integers, got (4, '8')
    >>> as_shape((4, -1), "shape")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: shape dim 1 must be >= 0, got -1
    """
    if isinstance(value, (str, bytes)):
        raise LayoutError(f"{what} must be a sequence of integers, got {value!r}")
    try:
        items = tuple(value)
    except TypeError:
        raise LayoutError(f"{what} must be a sequence of integers, got {value!r}") from None
    if any(isinstance(v, bool) or not hasattr(v, "__index__") for v in items):
        raise LayoutError(f"{what} must be a sequence of integers, got {value!r}")
    return tuple(as_nonneg(v, f"{what} dim {i}") for i, v in enumerate(items))


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` for ints, exactly (no float): ``-(-a // b)``.

    >>> ceil_div(53, 32), ceil_div(64, 32), ceil_div(0, 5)
    (2, 2, 0)
    """
    return -(-a // b)


def product(values) -> int:
    """The product of a sequence of Python ints (1 for none), exact at any size.

    >>> product((2, 3, 4)), product(())
    (24, 1)
    """
    n = 1
    for v in values:
        n *= v
    return n


def check_table(count: int, what: str, cap: int | None = None) -> int:
    """``count`` if a table of that many values may be built, else ``LayoutError`` before anything is allocated.

    ``cap`` defaults to ``MAX_TABLE``.

    >>> check_table(1 << 20, "index_map")
    1048576
    >>> check_table(1 << 40, "index_map")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: index_map: 1099511627776 values are more than the 1073741824 one table may hold
    """
    cap = MAX_TABLE if cap is None else cap
    if count > cap:
        raise LayoutError(f"{what}: {count} values are more than the {cap} one table may hold")
    return count
