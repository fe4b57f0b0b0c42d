"""What every algebra operation shares: the argument checks and the trusted constructor.

``_check`` refuses a non-layout operand, naming the operation; ``_names`` reads a
list of dim names (one bare name allowed); ``_split_flat`` cuts flattened columns
(out-dims packed low first, as ``LinearLayout._columns``) back into per-out-dim
vectors; ``_make`` builds a result without re-validating it (the operations
guarantee the invariants).

>>> from unilayout.linear import identity_1d
>>> _split_flat((("i", ((1, 0), (0, 1))),), [[1, 4]], (("a", 4), ("b", 2)))
(('i', ((1, 0), (0, 1))),)
>>> _names("lane", "sublayout")
['lane']
"""

from __future__ import annotations

from ...errors import LayoutError
from .._bases import _as_name
from ..layout import LinearLayout

_make = LinearLayout._make


def _check(layout, what: str) -> None:
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"{what}: expected a LinearLayout, got {type(layout).__name__}")


def _names(dims, what: str) -> list[str]:
    if isinstance(dims, str):
        return [dims]
    try:
        names = list(dims)
    except TypeError:
        raise LayoutError(f"{what}: expected a list of dim names, got {dims!r}") from None
    for n in names:
        _as_name(n, f"{what}: dim name")
    return names


def _split_flat(bases, flats, outs):
    """Bases tuple for in-dims of ``bases`` whose flattened columns are ``flats``, over ``outs``."""
    if len(outs) == 1:
        return tuple((name, tuple([(f,) for f in fl])) for (name, _), fl in zip(bases, flats))
    if len(outs) == 2:
        m0 = outs[0][1] - 1
        s1 = outs[0][1].bit_length() - 1
        return tuple((name, tuple([(f & m0, f >> s1) for f in fl])) for (name, _), fl in zip(bases, flats))
    spec = [(size - 1, size.bit_length() - 1) for _, size in outs]
    new = []
    for (name, _), fl in zip(bases, flats):
        vecs = []
        for f in fl:
            vec = []
            for mask, bits in spec:
                vec.append(f & mask)
                f >>= bits
            vecs.append(tuple(vec))
        new.append((name, tuple(vecs)))
    return tuple(new)
