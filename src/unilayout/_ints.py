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
import os
from typing import TYPE_CHECKING

from .errors import LayoutError

if TYPE_CHECKING:  # numpy is imported where it is used (as_int_array): the ground floor loads no numpy
    import numpy as np

#: The range of numpy's int64, the dtype of every vectorised path.
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def _memory_bytes() -> int:
    """This machine's memory: physical RAM, or the cgroup's limit when that is lower (8 GiB if unknown)."""
    total = 8 << 30
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - non-POSIX
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        if limit.isdigit():
            total = min(total, int(limit))
    except OSError:
        pass
    return total


def _default_max_table() -> int:
    """The cap sized to this machine, unless ``UNILAYOUT_MAX_TABLE`` (a count of values) says otherwise.

    One table of int64s may take at most a sixteenth of the memory (a table
    and its temporaries several times over still fit), rounded down to a
    power of two, at most 2**30 values and at least 2**20.
    """
    env = os.environ.get("UNILAYOUT_MAX_TABLE", "").strip()
    if env.isdigit() and len(env) < 20 and int(env) > 0:
        return int(env)
    n = max(_memory_bytes() // (8 * 16), 1 << 20)
    return min(1 << (n.bit_length() - 1), 1 << 30)


#: Most values one tabulation or allocation (an ``index_map``, a comparison
#: table, a padding summary, a fit) may hold, sized to this machine's memory
#: when unilayout is imported (``UNILAYOUT_MAX_TABLE`` overrides it; so does
#: ``set_max_table``). Every table is checked against it *before* allocating.
MAX_TABLE = _default_max_table()


def max_table() -> int:
    """The current cap on the values one table may hold (``MAX_TABLE``, as ``set_max_table`` left it).

    >>> max_table() >= 1 << 20
    True
    """
    return MAX_TABLE


def set_max_table(count) -> int:
    """Set the cap on the values one table may hold; returns the previous cap.

    >>> old = set_max_table(1 << 10)
    >>> check_table(1 << 11, "index_map")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: index_map: 2048 values are more than the 1024 one table may hold
    >>> set_max_table(old)
    1024
    """
    global MAX_TABLE
    old, MAX_TABLE = MAX_TABLE, as_positive(count, "max_table")
    return old


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

    ``cap`` defaults to ``MAX_TABLE`` (as ``set_max_table`` left it); a
    ``cap`` given is lowered to it too, so one setting bounds every table.

    >>> check_table(1 << 20, "index_map")
    1048576
    >>> check_table(1 << 40, "index_map", cap=1 << 20)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: index_map: 1099511627776 values are more than the 1048576 one table may hold
    """
    cap = MAX_TABLE if cap is None else min(cap, MAX_TABLE)
    if count > cap:
        raise LayoutError(f"{what}: {count} values are more than the {cap} one table may hold")
    return count


def as_instance(value, types, what: str, expected: str | None = None):
    """``value`` if it is an instance of ``types``, else ``LayoutError`` naming the argument and the type.

    The one type check of every public call site: ``what`` names the
    argument, ``expected`` says what was wanted (the type names by default).

    >>> as_instance(1.5, tuple, "right_inverse: layout", "a CuTe Layout")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: right_inverse: layout must be a CuTe Layout, got float 1.5
    """
    if isinstance(value, types):
        return value
    if expected is None:
        names = types if isinstance(types, tuple) else (types,)
        expected = "a " + " or ".join(t.__name__ for t in names)
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise LayoutError(f"{what} must be {expected}, got {type(value).__name__} {shown}")


def as_int_array(value, what: str) -> np.ndarray:
    """``value`` (an int, a sequence of ints or an integer ndarray) as an int64 ndarray, exactly, else ``LayoutError``.

    Refused, never converted silently: floats, bools, strings, structured
    (void) and object arrays holding anything but ints, masked arrays (whose
    mask a plain array would lose), and values outside int64.

    >>> as_int_array([1, 2], "coordinates").tolist()
    [1, 2]
    >>> as_int_array(__import__("numpy").array([1.5]), "coordinates")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: coordinates must be integers, got dtype float64
    >>> as_int_array([1 << 63], "coordinates")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: coordinates: 9223372036854775808 does not fit in int64
    """
    import numpy as np  # lazy: the ground floor stays numpy-free (`import unilayout` loads no numpy)

    if isinstance(value, np.ma.MaskedArray):
        raise LayoutError(f"{what}: a masked array would lose its mask; pass arr.filled(...) or arr.compressed()")
    if isinstance(value, (str, bytes, bool, np.bool_)):
        raise LayoutError(f"{what} must be integers, got {type(value).__name__} {value!r:.60}")
    if isinstance(value, np.ndarray):
        arr = value
    else:
        try:
            arr = np.asarray(value, dtype=object if _has_big_int(value) else None)
        except (TypeError, ValueError, OverflowError):
            raise LayoutError(f"{what} must be integers, got {type(value).__name__}") from None
    kind = arr.dtype.kind
    if kind == "i":
        return arr.astype(np.int64, copy=False)
    if kind == "u":
        if arr.size and arr.dtype.itemsize == 8 and int(arr.max()) > INT64_MAX:
            raise LayoutError(f"{what}: {int(arr.max())} does not fit in int64")
        return arr.astype(np.int64)
    if kind == "O":
        flat = arr.reshape(-1).tolist()
        for v in flat:
            if isinstance(v, bool) or not isinstance(v, int) and not isinstance(v, np.integer):
                raise LayoutError(f"{what} must be integers, got {type(v).__name__} {v!r:.60}")
            if not INT64_MIN <= int(v) <= INT64_MAX:
                raise LayoutError(f"{what}: {int(v)} does not fit in int64")
        return np.array([int(v) for v in flat], dtype=np.int64).reshape(arr.shape)
    raise LayoutError(f"{what} must be integers, got dtype {arr.dtype}")


def _has_big_int(value) -> bool:
    """Whether a (nested) list holds a Python int numpy would not take as int64."""
    stack, seen = [value], 0
    while stack and seen < 1 << 16:
        v = stack.pop()
        seen += 1
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, int) and not INT64_MIN <= v <= INT64_MAX:
            return True
    return False


def check_int64(lo: int, hi: int, what: str) -> None:
    """``LayoutError`` unless every value in ``[lo, hi]`` fits in int64 (checked before a vectorised path runs).

    >>> check_int64(0, 1 << 63, "Sw<1,0,-63> o 1 o 1:1: offsets")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Sw<1,0,-63> o 1 o 1:1: offsets up to 9223372036854775808 do not fit in int64
    """
    if hi > INT64_MAX:
        raise LayoutError(f"{what} up to {hi} do not fit in int64")
    if lo < INT64_MIN:
        raise LayoutError(f"{what} down to {lo} do not fit in int64")


def as_items(value) -> tuple:
    """``value`` as a tuple of items: a sequence or 1-D array is its items; a str, bytes, non-iterable or 0-d array is one item.

    For arguments that take "a dim or a sequence of dims" (a 0-d numpy array
    is one dim, not an error from iterating it).

    >>> as_items(4), as_items((2, 3)), as_items(__import__("numpy").array(8)), as_items("ab")
    ((4,), (2, 3), (array(8),), ('ab',))
    """
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__") or getattr(value, "ndim", None) == 0:
        return (value,)
    try:
        return tuple(value)
    except TypeError:
        return (value,)
