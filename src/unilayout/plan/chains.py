"""Choosing layouts along a chain of ops: least total reshard traffic, by dynamic programming.

A chain ``op_0 -> op_1 -> ... -> op_k`` passes one tensor from each op to
the next; each op has candidate layouts it can work in. Between two
consecutive ops the tensor is resharded from the producer's layout to the
consumer's (``reshard_cost``), and the seed's "nasty reblocking" is exactly
that price. A *state* is a candidate layout together with the device view
it is read through (the device itself or, with ``reinterpret=True``, one of
its grid reinterpretations), so a transpose implemented by a transposed
grid costs nothing and the ops after it keep the transposed view.

``chain`` minimises ``sum over edges of (on_chip_bytes + chip_weight *
chip_to_chip_bytes)`` exactly (Viterbi over the states: cost(op j, state s)
= min over producer states p of cost(op j-1, p) + edge(p, s)); every edge
matrix is kept so the price of every alternative is shown.

The seed's ``exp -> transpose -> relu`` on one 8x8 chip: ``exp`` and
``transpose`` work on ``a`` in its 8x8 blocks; ``relu`` reads ``aT``, which
is ``a`` with ``linear = (d1, d0)``, or the same blocks re-cut 4x16:

>>> from unilayout import tt
>>> dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
>>> a = tt.MetalLayout.from_collapse((256, 256), (8, 8))
>>> aT = tt.MetalLayout((256, 256), "(d0, d1) -> (d1, d0)", (8, 8))
>>> p = chain([[a], [a], [aT, aT.with_grid((4, 8))]], dev)
>>> p.total_bytes, [str(v) for v in p.views], p.choices
(0, ['device', 'device', 'transposed'], (0, 0, 0))
>>> chain([[a], [a], [aT]], dev, reinterpret=False).total_bytes
229376
"""

from __future__ import annotations

import numpy as np

from .. import tt
from ..errors import LayoutError
from .choose import GridChoice
from .regrid import Reinterpretation, reinterpretations
from .reshard import _check_fits, _fits, _price, _with_in_place
from .transfers import transfer_table

__all__ = ["ChainPlan", "chain"]


def _candidate(c, where):
    """``(layout, device or None)`` of a candidate: a MetalLayout, a GridChoice or a (layout, device) pair."""
    if isinstance(c, tt.MetalLayout):
        return c, None
    if isinstance(c, GridChoice):
        return c.layout, (None if c.placement == "physical" else c.device)
    if isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], tt.MetalLayout) and isinstance(c[1], tt.Device):
        return c
    raise LayoutError(f"chain: {where} must be a tt.MetalLayout, a GridChoice or a (layout, device) pair, got {c!r}")


class ChainPlan:
    """The result of ``chain``.

    - ``choices``: per op, the index of the chosen candidate; ``layouts``
      and ``views`` (``"device"``, or the ``Reinterpretation`` it is read
      through; ``"given"`` for a candidate that came with its own device);
    - ``edges``: the ``ReshardCost`` of each chosen edge; ``total_bytes``
      the minimised cost; ``total_moved_bytes`` the plain sum of moved bytes;
    - ``states``: per op, the ``(candidate index, view name)`` of each state;
      ``edge_costs``: per edge, the cost matrix (producer state x consumer state).

    >>> from unilayout import tt
    >>> dev = tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")
    >>> a = tt.MetalLayout.from_collapse((64, 64), (2, 2))
    >>> p = chain([[a], [a.with_grid((1, 2)), a]], dev, reinterpret=False)
    >>> p.choices, p.edge_costs[0].tolist()
    ((0, 1), [[8192.0, 0.0]])
    """

    __slots__ = ("choices", "layouts", "views", "devices", "edges", "total_bytes", "states", "edge_costs")

    def __init__(self, **fields):
        for k in self.__slots__:
            object.__setattr__(self, k, fields[k])

    def __setattr__(self, name, value):
        raise AttributeError("ChainPlan is immutable")

    @property
    def total_moved_bytes(self) -> int:
        """Sum of ``moved_bytes`` over the chosen edges.

        >>> from unilayout import tt
        >>> a = tt.MetalLayout.from_collapse((64, 64), (2, 2))
        >>> chain([[a], [a]], tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")).total_moved_bytes
        0
        """
        return sum(e.moved_bytes for e in self.edges)

    def table(self) -> str:
        """A plain-text table of the chosen path: one line per edge with its bytes.

        >>> from unilayout import tt
        >>> a = tt.MetalLayout.from_collapse((64, 64), (2, 2))
        >>> print(chain([[a], [a.with_grid((1, 2))]], tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")).table())
        edge  from         to                 local  on-chip  chip-to-chip  transfers
        0->1  #0 2x2       #0 1x2              8192     8192             0          2
        total moved: 8192 bytes
        """
        head = f"{'edge':5} {'from':12} {'to':12} {'local':>11} {'on-chip':>8} {'chip-to-chip':>13} {'transfers':>10}"
        lines = [head]

        def name(i):
            v = self.views[i]
            g = "x".join(map(str, self.layouts[i].grid))
            tag = f"#{self.choices[i]} {g}" + ("" if v == "device" else f" {v}")
            return tag

        for i, e in enumerate(self.edges):
            lines.append(f"{f'{i}->{i + 1}':5} {name(i):12} {name(i + 1):12} {e.local_bytes:>11} {e.on_chip_bytes:>8} "
                         f"{e.chip_to_chip_bytes:>13} {e.transfers:>10}")
        lines.append(f"total moved: {self.total_moved_bytes} bytes")
        return "\n".join(lines)

    def __repr__(self):
        return (f"ChainPlan(choices={self.choices!r}, views={[str(v) for v in self.views]!r}, "
                f"total_bytes={self.total_bytes!r})")


def chain(layout_choices_per_op, device, *, chip_weight=1, reinterpret=True, element_bytes=None) -> ChainPlan:
    """The candidate per op minimising the total reshard cost along the chain (see the module docstring).

    ``layout_choices_per_op``: one non-empty list of candidates per op
    (``tt.MetalLayout``, ``plan.GridChoice`` or ``(layout, device)``), all of
    one logical shape. ``device``: where plain layouts live. ``chip_weight``
    scales chip-to-chip bytes against on-chip bytes.

    **Post-conditions**: ``total_bytes == sum(e.on_chip_bytes + chip_weight *
    e.chip_to_chip_bytes for e in edges)`` and no other choice of states has
    a smaller sum.

    >>> from unilayout import tt
    >>> dev = tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)")
    >>> x = tt.MetalLayout.from_collapse((64, 64), (4, 4))
    >>> y = tt.MetalLayout.from_collapse((64, 64), (2, 4))
    >>> chain([[x, y], [y], [x, y]], dev).choices
    (1, 0, 1)
    """
    if not isinstance(device, tt.Device):
        raise LayoutError(f"chain: device must be a tt.Device, got {type(device).__name__}")
    try:
        ops = [list(c) for c in layout_choices_per_op]
    except TypeError:
        raise LayoutError("chain: layout_choices_per_op must be a list of candidate lists, one per op") from None
    if not ops:
        raise LayoutError("chain: give at least one op")
    try:
        weight = float(chip_weight)
    except (TypeError, ValueError):
        raise LayoutError(f"chain: chip_weight must be a number >= 0, got {chip_weight!r}") from None
    if not weight >= 0:
        raise LayoutError(f"chain: chip_weight must be >= 0, got {chip_weight!r}")
    views = [("device", device)]
    if reinterpret:
        views += [(r, r.device) for r in reinterpretations(device)]
    states = []  # per op: list of (candidate index, view label, layout, device)
    for j, cands in enumerate(ops):
        if not cands:
            raise LayoutError(f"chain: op {j} has no candidate layouts")
        out = []
        for k, c in enumerate(cands):
            ml, own = _candidate(c, f"op {j} candidate {k}")
            if own is not None:
                _check_fits(ml, own, f"op {j} candidate {k}")
                out.append((k, "given", ml, own))
                continue
            for label, dev in views:
                if _fits(ml.grid, dev):
                    out.append((k, label, ml, dev))
        if not out:
            raise LayoutError(f"chain: no candidate of op {j} fits the device grid {device.grid_shape}")
        states.append(out)
    if element_bytes is None:
        element_bytes = tt.memory.element_bytes(states[0][0][2].element_type)
    tables = {}
    costs, prices = [], []
    for j in range(len(states) - 1):
        A, B = states[j], states[j + 1]
        M = np.zeros((len(A), len(B)))
        P = {}
        for a, (_ka, _, la, da) in enumerate(A):
            for b, (_kb, lab, lb, db) in enumerate(B):
                key = (la, lb)
                if key not in tables:
                    tables[key] = transfer_table(la, lb)
                rin = lab if isinstance(lab, Reinterpretation) else None
                c = _price(tables[key], la, lb, da, db, element_bytes, None)
                if rin is not None and c.moved_bytes == 0 and da is device:
                    c = c._replace(reinterpretation=rin)
                M[a, b] = c.on_chip_bytes + weight * c.chip_to_chip_bytes
                P[a, b] = c
        costs.append(M)
        prices.append(P)
    # Viterbi; ties go to the plain device on the earliest ops (penalties 2**-(j+1): below one byte in all)
    pen = [np.array([0.0 if isinstance(s[1], str) else 2.0 ** -(j + 1) for s in op]) for j, op in enumerate(states)]
    best = pen[0].copy()
    back = []
    for j, M in enumerate(costs):
        tot = best[:, None] + M + pen[j + 1][None, :]
        arg = np.argmin(tot, axis=0)
        back.append(arg)
        best = tot[arg, np.arange(M.shape[1])]
    path = [int(np.argmin(best))]
    for arg in reversed(back):
        path.append(int(arg[path[-1]]))
    path.reverse()
    chosen = [states[j][s] for j, s in enumerate(path)]
    edges = tuple(_with_in_place(prices[j][path[j], path[j + 1]], chosen[j][2], chosen[j + 1][2])
                  for j in range(len(costs)))
    total = sum(e.on_chip_bytes + weight * e.chip_to_chip_bytes for e in edges)
    return ChainPlan(
        choices=tuple(c[0] for c in chosen), layouts=tuple(c[2] for c in chosen), views=tuple(c[1] for c in chosen),
        devices=tuple(c[3] for c in chosen), edges=edges, total_bytes=int(total) if total == int(total) else total,
        states=tuple(tuple((s[0], str(s[1])) for s in op) for op in states), edge_costs=tuple(costs),
    )
