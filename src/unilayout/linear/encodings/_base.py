"""The base of Triton's encoding values: frozen fields, the layout cache, and the printed attribute.

Every encoding (``encodings/blocked.py``, ``nvidia.py``, ...) is a frozen
dataclass deriving from :class:`_Encoding` and declaring, besides its fields
and ``to_linear(shape)``:

- ``MNEMONIC``: the attribute's name, e.g. ``"ttg.blocked"``; the class is then
  registered in ``linear.text.attr.KINDS``, the table the readers build from;
- ``FIELDS``: its :class:`Field` s in the order Triton prints them, each with
  Triton's (camelCase) name, the value field it fills, its type in the text,
  whether the text must give it (and the value when it does not), and when it
  is printed.

From those, ``str(enc)`` prints Triton's attribute and ``_read`` builds a value
from an attribute's fields, taking them in the order the value's constructor
lists them (so a text with several faults reports the first of those).
An encoding whose text departs from ``#kind<{name = value, ...}>`` says how:
``BRACED`` fields inside the braces (the rest follow them; 0: no braces), or an
own ``__str__`` / ``_read``.

Computed layouts are kept per (encoding, shape) (:func:`clear_caches` forgets
them). The small argument checks every encoding uses (``_ints``, ``_pow2s``,
``_order``, ``_shape``) are here too.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy(_Encoding):
...     size_per_thread: tuple
...     vec: int = 1
...     FIELDS = (Field("sizePerThread", "size_per_thread", "ints"), Field("vec", "vec", "int", False, 1, show=lambda v: v != 1))
...     def to_linear(self, shape):
...         return None
>>> Toy.MNEMONIC = "ttg.toy"    # set after the class: a toy, not registered for the readers
>>> str(Toy([1, 4])), str(Toy((2,), vec=8))
('#ttg.toy<{sizePerThread = [1, 4]}>', '#ttg.toy<{sizePerThread = [2], vec = 8}>')
"""

from __future__ import annotations

from functools import update_wrapper
from typing import Any, Callable, NamedTuple

from ..._ints import as_int, as_pow2
from ...errors import LayoutError
from ..text.attr import KINDS

_INT_TYPES = {int}
_SEQ_TYPES = {list, tuple}

#: In-dims of distributed encodings, in order.
DISTRIBUTED_IN_DIMS = ("register", "lane", "warp", "block")


# --------------------------------------------------------------- argument checks
def _ints(values: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    # fast path: a tuple or list of plain ints (what encodings store and parse gives)
    if (type(values) is tuple or type(values) is list) and set(map(type, values)) <= _INT_TYPES and (
            length is None or len(values) == length):
        return tuple(values)
    if isinstance(values, (str, bytes)):
        raise LayoutError(f"{what} must be a list of ints, got {values!r}")
    try:
        out = tuple(as_int(v, f"{what} entry") for v in values)
    except TypeError:
        raise LayoutError(f"{what} must be a list of ints, got {values!r}") from None
    if length is not None and len(out) != length:
        raise LayoutError(f"{what} has {len(out)} entries but the tensor has rank {length}: give one per dim")
    return out


def _pow2s(values: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    out = _ints(values, what, length)
    if all(v > 0 and not v & (v - 1) for v in out):
        return out
    for i, v in enumerate(out):
        as_pow2(v, f"{what} {list(out)}: entry {i}")
    return out


def _order(order: Any, rank: int, what: str = "order") -> tuple[int, ...]:
    out = _ints(order, what, rank)
    if sorted(out) != list(range(rank)):
        raise LayoutError(f"{what} {list(out)} must be a permutation of 0..{rank - 1}")
    return out


def _shape(shape: Any) -> tuple[int, ...]:
    out = _pow2s(shape, "shape")
    if not out:
        raise LayoutError("shape must have at least one dim")
    return out


def _dims(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


def _bool(value):
    """``True``/``False`` kept; 0/1 become booleans; anything else is left for the checks to refuse."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return value


def _freeze(value):
    """Lists (nested) -> tuples, so that encodings compare, hash and print by value."""
    if type(value) is tuple or type(value) is list:
        if not _SEQ_TYPES.intersection(map(type, value)):
            return tuple(value)  # flat: no recursion
        return tuple(_freeze(v) for v in value)
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _dot_common(dot, shape):
    """``(rank, operand index, k_width, dim names, K dim, non-K dim)`` of a dot operand for ``shape``, checked."""
    rank = len(shape)
    if rank not in (2, 3):
        raise LayoutError(f"dot operand layouts have rank 2 or 3, got shape {list(shape)}")
    idx = as_int(dot.operand_index, "operand_index")
    if idx not in (0, 1):
        raise LayoutError(f"operand_index must be 0 (A) or 1 (B), got {idx}")
    kw = _pow2s([dot.k_width], "k_width")[0]
    names = _dims(rank)
    k_idx, nonk_idx = (rank - 1, rank - 2) if idx == 0 else (rank - 2, rank - 1)
    return rank, idx, kw, names, k_idx, nonk_idx


# --------------------------------------------------------------- the layout cache
#: Layouts already computed, by (encoding, shape): values are immutable, so they are shared (as
#: Triton caches toLinearLayout by attribute and shape). Bounded; cleared by :func:`clear_caches`.
_LAYOUTS: dict = {}
_MAX_CACHED = 4096


def clear_caches() -> None:
    """Forget the layouts kept for reuse (``encodings.clear_caches`` also forgets parsed texts).

    >>> clear_caches()
    """
    _LAYOUTS.clear()


def _cached(method):
    def to_linear(self, shape=None):
        try:
            key = (self, None if shape is None else tuple(map(int, shape)))
            got = _LAYOUTS.get(key)
        except (TypeError, ValueError):  # unhashable fields or shape: computed, not kept
            return method(self, shape) if shape is not None else method(self)
        if got is None:
            got = method(self, shape) if shape is not None else method(self)
            if len(_LAYOUTS) >= _MAX_CACHED:
                _LAYOUTS.clear()
            _LAYOUTS[key] = got
        return got

    return update_wrapper(to_linear, method)


# --------------------------------------------------------------- the printed attribute
def _list(v) -> str:
    """``[1, 4]``, ``[[0, 1], [1, 0]]``: a (nested) list as Triton prints it."""
    if set(map(type, v)) <= _INT_TYPES:  # the common case, a flat list of ints
        return "[" + ", ".join(map(str, v)) + "]"
    return "[" + ", ".join(_list(x) if isinstance(x, (list, tuple)) else _scalar(x) for x in v) + "]"


def _scalar(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


def to_text(enc) -> str:
    """Triton's printed attribute of an encoding value (``str(enc)``).

    >>> from unilayout.linear import encodings as E
    >>> to_text(E.NvidiaMma(2, [4, 1], [16, 8]))
    '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>'
    """
    if not isinstance(enc, _Encoding):
        raise LayoutError(f"to_text: expected an encoding value, got {type(enc).__name__}")
    return enc.__str__()


#: How each kind of field prints its value ("text": the field's ``get`` gives the text itself).
_PRINT = {"int": str, "bool": _scalar, "ints": _list, "bases": _list, "enc": to_text, "text": str}


class Field(NamedTuple):
    """One field of an encoding's attribute text.

    ``name`` is Triton's (camelCase) name and ``attr`` the value field it fills;
    ``kind`` its type in the text (``int``, ``bool``, ``ints``, ``bases`` (a list of
    int lists), ``enc`` (an attribute), or ``text`` (printed by ``get``)). The
    reader refuses a text without it when ``required``, else uses ``default``;
    the printer prints it when ``show(value)`` is true (always when ``show`` is
    None), reading the value with ``get(enc)`` when given.

    >>> Field("kWidth", "k_width", "int", False, 0, show=bool).required
    False
    """

    name: str
    attr: str | None
    kind: str
    required: bool = True
    default: Any = None
    show: Callable[[Any], bool] | None = None
    get: Callable[[Any], Any] | None = None


def _is_true(value) -> bool:
    """Printed only when exactly ``True`` (Triton's optional flags)."""
    return value is True


#: The optional ``CGALayout`` field most encodings end with (printed when it has bases).
_CGA = Field("CGALayout", "cga_layout", "bases", False, show=bool)

class _Encoding:
    """Base of the encoding values: each implements ``to_linear(shape)``; ``str()`` is Triton's attribute.

    Fields given as lists are stored as tuples (and ``cga_layout=None`` as ``()``),
    so ``parse(str(enc)) == enc`` and encodings hash.
    """

    #: The attribute's name (``"ttg.blocked"``); None for a base that is not an attribute.
    MNEMONIC: str | None = None
    #: The attribute's fields in printed order (see :class:`Field`).
    FIELDS: tuple = ()
    #: How many leading FIELDS print inside ``{...}`` (None: all; 0: no braces).
    BRACED: int | None = None

    def __post_init__(self):
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "cga_layout" and value is None:
                object.__setattr__(self, name, ())
            elif isinstance(value, (list, tuple)):
                object.__setattr__(self, name, _freeze(value))
        self._normalise()

    def _normalise(self):
        """Per-kind canonical form (defaults made explicit); nothing to do by default."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "to_linear" in cls.__dict__:
            cls.to_linear = _cached(cls.__dict__["to_linear"])
        if cls.__dict__.get("MNEMONIC"):
            KINDS[cls.MNEMONIC] = cls

    def __str__(self) -> str:
        """Triton's printed attribute: ``#MNEMONIC<{name = value, ...}>`` over ``FIELDS``."""
        if not self.MNEMONIC:
            raise LayoutError(f"to_text: expected an encoding value, got {type(self).__name__}")
        n = self.BRACED
        inner, outer = [], []
        for k, f in enumerate(self.FIELDS):
            v = getattr(self, f.attr) if f.get is None else f.get(self)
            if f.show is None or f.show(v):
                (inner if n is None or k < n else outer).append(f"{f.name} = {_PRINT[f.kind](v)}")
        if n == 0:
            return f"#{self.MNEMONIC}<{', '.join(outer)}>"
        return f"#{self.MNEMONIC}<{{{', '.join(inner)}}}{''.join(', ' + p for p in outer)}>"

    @classmethod
    def _read(cls, f):
        """The value of an attribute's fields ``f`` (the readers' ``_Fields``: ``f.int(name, required,
        default)``, ``f.ints``, ``f.bool``, ``f.bases``, ``f.enc``), taken in the value's field order."""
        spec = cls.__dict__.get("_reading")
        if spec is None:
            by_attr = {x.attr: x for x in cls.FIELDS}
            spec = tuple(by_attr[a] for a in cls.__dataclass_fields__ if a in by_attr)
            cls._reading = spec
        return cls(**{x.attr: getattr(f, x.kind)(x.name, x.required, x.default) for x in spec})
