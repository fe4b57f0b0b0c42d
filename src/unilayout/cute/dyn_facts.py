"""What is known about a layout with dynamic leaves before its values are: ``show``'s facts without binding.

A CuTe DSL kernel's layouts hold ``?`` leaves until launch. Without their
values ``show`` still reports the rank and depth, which top-level modes are
static, every dynamic leaf with its divisibility and width, and whether the
layout is *provably* injective or compact: what holds for every value the
leaves admit.

>>> from unilayout.cute import Layout
>>> from unilayout.cute.dyn import Dyn
>>> d = dyn_facts(Layout((4, Dyn()), (1, 4)))
>>> d["static modes"], d["dynamic leaves"], d["injective"], d["compact"]
('0', '? (shape of mode 1, any i32)', True, True)
>>> dyn_facts(Layout((Dyn(), 8), (8, Dyn(div=16))))["injective"]
'unknown until bound'

The proof is the column-major argument: drop the modes of size 1, sort the
rest by stride; if each stride is at least the previous stride times the
previous size the layout is injective, and if each is exactly that and the
first is 1 it is compact (onto ``0..size-1``). Only the last mode in that
order may have a dynamic size; a dynamic stride leaves the question open. A
mode of static size above 1 with stride 0, or two such modes with the same
static stride, make it provably not injective.
"""

from __future__ import annotations

from .basis import ScaledBasis
from .dyn import Dyn, dyn_leaves, has_dyn
from .ir_print import tuple_string

__all__ = ["dyn_facts", "provably_injective", "UNKNOWN"]

#: How a fact that depends on the values reads before they are given.
UNKNOWN = "unknown until bound"


def _leaves(t):
    if type(t) is tuple:
        for v in t:
            yield from _leaves(v)
    else:
        yield t


def provably_injective(shapes, strides):
    """``(injective, compact)``: each True or False when every value of the dynamic leaves agrees, else None.

    >>> provably_injective((Dyn(), 4), (4, 1)), provably_injective((2, 2), (1, 1)), provably_injective((Dyn(),), (2,))
    ((True, True), (False, False), (True, False))
    """
    modes = [(s, d) for s, d in zip(shapes, strides) if not (type(s) is int and s == 1)]
    if any(type(d) is ScaledBasis for d in strides):
        return None, None
    static = [(s, d) for s, d in modes if type(s) is int and type(d) is int]
    seen = set()
    for _, d in static:  # a repeated or zero stride on two points or more: two coordinates meet
        if d == 0 or abs(d) in seen:
            return False, False
        seen.add(abs(d))
    if any(type(d) is Dyn for _, d in modes):
        return None, None
    order = sorted(modes, key=lambda m: abs(m[1]))
    injective, compact, reach = True, bool(order) and abs(order[0][1]) == 1, 1
    for i, (s, d) in enumerate(order):
        if abs(d) < reach:
            return None, None  # overlapping steps: depends on more than this argument sees
        compact = compact and abs(d) == reach and d > 0
        if type(s) is Dyn:
            if i != len(order) - 1:
                return None, None
            break
        reach = abs(d) * s
    if not order:
        compact = True
    return injective, compact


def dyn_facts(L) -> dict:
    """``show``'s facts for a ``Layout`` with dynamic leaves: structure, each leaf, and what is provable.

    >>> from unilayout.cute import Layout
    >>> d = dyn_facts(Layout((Dyn(), (2, 4)), (Dyn(div=8, bits=64), (1, 2))))
    >>> d["rank"], d["depth"], d["size"], d["static modes"]
    (2, 2, '?{div=8}', '1')
    >>> print(d["dynamic leaves"])
    ? (shape of mode 0, any i32); ?{i64 div=8} (stride of mode 0, a multiple of 8, i64)
    """
    d = {"shape": tuple_string(L.shape), "stride": tuple_string(L.stride)}
    shape, stride = L.shape, L.stride
    modes = list(zip(shape, stride)) if type(shape) is tuple else [(shape, stride)]
    d["rank"], d["depth"] = len(modes), int(L.depth)
    try:
        d["size"] = str(L.size)
    except Exception:  # noqa: BLE001  (a size the dynamic algebra cannot state is left out, not an error of show)
        pass
    d["static modes"] = ", ".join(str(i) for i, (s, t) in enumerate(modes) if not has_dyn(s) and not has_dyn(t)) \
        or "none"
    d["dynamic leaves"] = "; ".join(f"{leaf} ({where}, {_known(leaf)})" for leaf, where in dyn_leaves(L))
    inj, compact = provably_injective(tuple(_leaves(shape)), tuple(_leaves(stride)))
    d["injective"] = UNKNOWN if inj is None else inj
    d["compact"] = UNKNOWN if compact is None else compact
    d["note"] = "dynamic leaves: bind their values (cute.bind) to tabulate, draw or convert the layout"
    return d


def _known(leaf: Dyn) -> str:
    width = f"i{leaf.bits}"
    return f"a multiple of {leaf.div}, {width}" if leaf.div > 1 else f"any {width}"
