"""``ManualGroups``: the manual subgroups of a partially manual XLA sharding.

XLA writes ``{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}`` for an array
inside a partly manual computation (a ``shard_map`` over some mesh axes):
the tile assignment's last dim is *manual*. The devices at manual index
``k`` (here ``[[0], [2]]`` at ``k = 0``, ``[[1], [3]]`` at ``k = 1``) form
manual group ``k``; each group holds **a value of its own** (what the manual
code computed there), of the array's shape, and the data dims tile that
value over the group's devices (device 0 holds rows ``0:n/2`` of group 0's
value, device 2 its rows ``n/2:n``). No global array holds the groups'
values side by side, so a device's boxes are boxes of its group's value,
and the groups are not replicas of each other.

``ManualGroups`` is the small immutable field a ``Sharding`` carries to say
so: the devices of each group, in manual-index order (the order matters:
XLA tells ``0,1,2,3`` from ``1,0,3,2``), each group's ids ascending.

>>> g = ManualGroups([[2, 0], [3, 1]])
>>> g, g.groups, g.group_of(3), len(g)
(ManualGroups(((0, 2), (1, 3))), ((0, 2), (1, 3)), 1, 2)
>>> eval(repr(g)) == g, g.relabel({0: 4, 1: 5, 2: 6, 3: 7})
(True, ManualGroups(((4, 6), (5, 7))))
"""

from __future__ import annotations

from .._ints import as_nonneg
from ..errors import LayoutError

__all__ = ["ManualGroups"]


def _items(x, whole) -> list:
    """``x`` as a list, or a LayoutError (a string, a scalar, a 0-d array is not a list of ids)."""
    if not isinstance(x, (str, bytes)):
        try:
            return list(x)
        except TypeError:
            pass
    raise LayoutError(f"manual groups must be lists of device ids, got {whole!r:.80}")


class ManualGroups:
    """The devices of each manual subgroup, in manual-index order (each group's ids ascending).

    ``ManualGroups(groups)``: a non-empty list of non-empty lists of device
    ids, no device in two groups.

    >>> ManualGroups([[0, 1], [1]])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: manual groups: device 1 is in two groups
    """

    __slots__ = ("_groups", "_hash")

    def __init__(self, groups):
        if isinstance(groups, ManualGroups):
            groups = groups.groups
        out, seen = [], set()
        for g in _items(groups, groups):
            ids = sorted(as_nonneg(d, "manual group device id") for d in _items(g, groups))
            if not ids:
                raise LayoutError("manual groups: a group has no device")
            for k, d in enumerate(ids):
                if d in seen or (k and ids[k - 1] == d):
                    raise LayoutError(f"manual groups: device {d} is in two groups")
                seen.add(d)
            out.append(tuple(ids))
        if not out:
            raise LayoutError("manual groups: at least one group is needed")
        object.__setattr__(self, "_groups", tuple(out))
        object.__setattr__(self, "_hash", hash((ManualGroups, self._groups)))

    def __setattr__(self, name, value):
        raise AttributeError("ManualGroups is immutable")

    @property
    def groups(self) -> tuple:
        """The groups: a tuple of ascending device-id tuples, in manual-index order.

        >>> ManualGroups([[1], [0]]).groups
        ((1,), (0,))
        """
        return self._groups

    @property
    def devices(self) -> tuple:
        """Every device of every group, ascending.

        >>> ManualGroups([[3, 1], [0]]).devices
        (0, 1, 3)
        """
        return tuple(sorted(d for g in self._groups for d in g))

    def group_of(self, device) -> int:
        """The manual index of the group holding ``device``.

        >>> ManualGroups([[0, 2], [1, 3]]).group_of(2)
        0
        """
        for k, g in enumerate(self._groups):
            if device in g:
                return k
        raise LayoutError(f"device {device!r} is in no manual group of {self!r}")

    def relabel(self, rename) -> "ManualGroups":
        """The groups with device ``d`` renamed ``rename[d]`` (a dict), in the same manual order.

        >>> ManualGroups([[0], [1]]).relabel({0: 9, 1: 8})
        ManualGroups(((9,), (8,)))
        """
        return ManualGroups([[rename[d] for d in g] for g in self._groups])

    def __len__(self):
        return len(self._groups)

    def __eq__(self, other):
        if not isinstance(other, ManualGroups):
            return NotImplemented
        return self._groups == other._groups

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"ManualGroups({self._groups!r})"
