"""``Sharding``: which part of a global tensor each device holds, as plain boxes.

Every sharding vocabulary (JAX ``NamedSharding``, DTensor placements, HLO and
Shardy text, TTNN mesh mappers, a metal layout on a tt device) answers one
question per device: *which global indices does it hold, and is that a
copy or a partial sum?* ``Sharding`` stores exactly that answer and nothing
of the vocabulary it came from:

- ``shape``: the global tensor's shape;
- ``device_boxes``: ``{device id: [box, ...]}``, a box being a tuple of
  ``(start, stop)`` per dim (half-open, as Python slices). A device may hold
  several boxes (a DTensor ``_StridedShard``, a metal layout whose shards
  wrap rows) or none (the empty last chunk of an uneven split);
- ``partial``: the devices whose values are partial sums (DTensor
  ``Partial()``, Shardy ``unreduced``): the tensor is the sum over the
  devices holding an element, not any one of them;
- ``replicated`` (derived): the devices that share an element with another
  device (a replica, or a partial-sum peer);
- ``manual`` (``ManualGroups`` or None): XLA's manual subgroups
  (``last_tile_dims={manual}``). Each group holds a value of its own, so the
  boxes of its devices are boxes of *that* value: ``group_boxes`` gives them,
  and everything that speaks of one global array (``device_boxes``,
  ``boxes``, ``owners``, ``arrays``, every other vocabulary) raises
  ``NotRepresentableError`` saying so rather than calling the groups replicas.

Two shardings are equal when these facts are: the boxes are put in a
canonical form on construction (the fewest cuts, merged greedily in
row-major order), so the same set of indices gives the same boxes however
they were written.

A 5x4 tensor split 3+2 over two devices along dim 0 (``torch.chunk``'s
uneven last shard), and the same tensor replicated on two devices:

>>> s = Sharding((5, 4), {0: [((0, 3), (0, 4))], 1: [((3, 5), (0, 4))]})
>>> s.num_devices, s.local_shape(1), s.replicated
(2, (2, 4), {0: False, 1: False})
>>> r = Sharding((5, 4), {0: [((0, 5), (0, 4))], 1: [((0, 5), (0, 4))]})
>>> r.replicated, r.is_fully_replicated
({0: True, 1: True}, True)

Boxes that cover the same indices compare equal:

>>> Sharding((4,), {0: [((0, 2),), ((2, 4),)]}) == Sharding((4,), {0: [((0, 4),)]})
True
"""

from __future__ import annotations

import numpy as np

from .._ints import as_nonneg, as_shape, check_table, product
from ..errors import LayoutError, NotRepresentableError
from ._boxes import _as_box, _canonical, _connected, _overlap
from .manual import ManualGroups

__all__ = ["Sharding"]


def _as_groups(sum_groups, partial):
    """``sum_groups`` checked against the partial devices: None (one group of all), or a tuple of frozensets."""
    if sum_groups is None:
        return None
    try:
        groups = [frozenset(as_nonneg(d, "sum group device id") for d in g) for g in sum_groups]
    except TypeError:
        raise LayoutError(f"sum_groups must be lists of device ids, got {sum_groups!r}") from None
    seen = set()
    for g in groups:
        if g & seen:
            raise LayoutError(f"sum_groups: devices {sorted(g & seen)} are in two groups")
        seen |= g
    if seen != set(partial):
        raise LayoutError(f"sum_groups cover devices {sorted(seen)} but the partial devices are {sorted(partial)}")
    return tuple(g for g in groups if g)


def _as_manual(manual, devices, partial):
    """``manual`` as a ``ManualGroups`` covering exactly ``devices`` (None stays None); no partial sums with it."""
    if manual is None:
        return None
    manual = ManualGroups(manual)
    if set(manual.devices) != set(devices):
        raise LayoutError(f"the manual groups hold devices {list(manual.devices)} but the sharding's devices are "
                          f"{list(devices)}")
    if partial:
        raise LayoutError("a partially manual sharding has no partial sums (XLA's manual subgroups hold whole values)")
    if all(len(g) == 1 for g in manual.groups):  # fully manual: XLA's {manual}, whose groups have no order
        manual = ManualGroups(sorted(manual.groups))
    return manual


class Sharding:
    """For each device, the global index boxes it holds; which devices hold partial sums.

    ``Sharding(shape, device_boxes, partial=())``: ``device_boxes`` maps a
    device id (int >= 0) to a list of boxes (a box: one ``(start, stop)``
    per dim of ``shape``); ``partial`` lists the devices holding partial sums;
    ``sum_groups`` (default: one group of them all) says which of those add up
    together (``Sharding.sum_groups``); ``manual`` (a ``ManualGroups``, or its
    list of groups) makes it a partially manual sharding, the boxes then
    being boxes of each group's own value (``Sharding.manual``).

    **Post-conditions**: ``eval(repr(s)) == s``; ``s.device_boxes[d]`` is the
    canonical box list of what ``d`` holds (non-empty boxes, disjoint).

    >>> s = Sharding((4, 6), {0: [((0, 2), (0, 6))], 1: [((2, 4), (0, 6))]}, partial=())
    >>> s
    Sharding((4, 6), {0: [((0, 2), (0, 6))], 1: [((2, 4), (0, 6))]})
    >>> eval(repr(s)) == s, s.devices, s.device_boxes[1]
    (True, (0, 1), [((2, 4), (0, 6))])
    >>> Sharding((4,), {0: [((0, 5),)]})
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: device 0 box 0 dim 0 is (0, 5): needs 0 <= start <= stop <= 4
    """

    __slots__ = ("_shape", "_devs", "_bx", "_arr", "_partial", "_hash", "_replicated", "_groups", "_sums", "_pos",
                 "_manual")

    def __init__(self, shape, device_boxes, partial=(), sum_groups=None, manual=None):
        shape = as_shape(shape, "Sharding shape")
        if not isinstance(device_boxes, dict):
            raise LayoutError(f"device_boxes must be a dict {{device id: [box, ...]}}, got {type(device_boxes).__name__}")
        if not device_boxes:
            raise LayoutError("a Sharding needs at least one device")
        items = []
        for d, boxes in device_boxes.items():
            d = as_nonneg(d, "device id")
            if isinstance(boxes, (str, bytes)):
                raise LayoutError(f"device {d}: expected a list of boxes, got {boxes!r}")
            try:
                boxes = list(boxes)
            except TypeError:
                raise LayoutError(f"device {d}: expected a list of boxes, got {boxes!r}") from None
            boxes = [_as_box(b, shape, f"device {d} box {k}") for k, b in enumerate(boxes)]
            items.append((d, _canonical(boxes, len(shape))))
        items.sort()
        devices = tuple(d for d, _ in items)
        if len(set(devices)) != len(devices):
            raise LayoutError(f"device ids repeat in {devices}")
        if isinstance(partial, (str, bytes)) or not hasattr(partial, "__iter__"):
            raise LayoutError(f"partial must be a list of device ids, got {partial!r}")
        partial = frozenset(as_nonneg(d, "partial device id") for d in partial)
        missing = sorted(partial - set(devices))
        if missing:
            raise LayoutError(f"partial devices {missing} are not devices of the sharding {devices}")
        self._init(shape, devices, tuple(b for _, b in items), partial)
        self._groups = _as_groups(sum_groups, partial)
        self._manual = _as_manual(manual, devices, partial)

    def _init(self, shape, devices, boxes, partial, arr=None, groups=None, manual=None):
        self._shape = shape
        self._devs = devices
        self._bx = boxes
        self._arr = arr          # (ids, lo, hi) sorted by id, one box per device (empty rows zeroed), or None
        self._partial = partial
        self._hash = None
        self._replicated = None
        self._groups = groups    # None: the partial devices holding an element all sum together; else the groups
        self._sums = None        # canonical sum groups (computed on first use)
        self._pos = None         # {device id: position} (built on first use: boxes(d) of every d stays linear)
        self._manual = manual    # ManualGroups: each group's boxes are of its own value (None: one global array)

    @property
    def _devices(self):
        if self._devs is None:
            self._devs = tuple(self._arr[0].tolist())
        return self._devs

    @property
    def _boxes(self):
        """Canonical boxes per device (built from the arrays on first use: one-box shardings stay arrays)."""
        if self._bx is None:
            ids, lo, hi = self._arr
            both = np.stack([lo, hi], axis=-1).tolist()
            ne = (hi > lo).all(axis=1).tolist() if lo.shape[1] else [True] * len(both)
            self._bx = tuple((tuple(map(tuple, b)),) if ok else () for b, ok in zip(both, ne))
        return self._bx

    @classmethod
    def _trusted(cls, shape, devices, boxes, partial=frozenset()):
        """Build from already canonical parts (sorted device ids, canonical box tuples): no checks."""
        s = cls.__new__(cls)
        # a box empty along some dim (a dim of size 0) holds nothing: dropped, as the canonical form does
        boxes = tuple(bs if all(a < z for b in bs for a, z in b) else tuple(b for b in bs if all(a < z for a, z in b))
                      for bs in boxes)
        s._init(shape, devices, boxes, partial)
        return s

    @classmethod
    def _from_arrays(cls, shape, ids, starts, stops, partial=frozenset(), sum_groups=None, manual=None):
        """One box per device from int arrays ``starts``/``stops`` (devices x rank); empty boxes dropped."""
        ids = np.asarray(ids, dtype=np.int64)
        lo = np.asarray(starts, dtype=np.int64)
        hi = np.asarray(stops, dtype=np.int64)
        if ids.size > 1 and not (ids[1:] > ids[:-1]).all():
            order = np.argsort(ids, kind="stable")
            ids, lo, hi = ids[order], lo[order], hi[order]
            if (ids[1:] == ids[:-1]).any():
                raise LayoutError(f"device ids repeat in {tuple(ids.tolist())}")
        if lo.shape[1]:
            empty = ~(hi > lo).all(axis=1)
            if empty.any():
                lo, hi = lo.copy(), hi.copy()
                lo[empty] = 0
                hi[empty] = 0
        s = cls.__new__(cls)
        partial = frozenset(int(d) for d in partial)
        s._init(tuple(shape), None, None, partial, (ids, lo, hi), _as_groups(sum_groups, partial))
        if manual is not None:
            s._manual = _as_manual(manual, s.devices, partial)
        return s

    def arrays(self):
        """``(ids, lo, hi)`` int64 arrays when every device holds at most one box (rows of zeros: nothing), else None.

        >>> [a.tolist() for a in Sharding((4,), {1: [((2, 4),)], 0: [((0, 2),)]}).arrays()]
        [[0, 1], [[0], [2]], [[2], [4]]]
        """
        self._global("arrays()")
        if self._arr is None:
            if any(len(b) > 1 for b in self._bx):
                return None
            r = len(self._shape)
            lo = np.zeros((len(self._devs), r), dtype=np.int64)
            hi = np.zeros((len(self._devs), r), dtype=np.int64)
            for k, b in enumerate(self._bx):
                if b:
                    arr = np.asarray(b[0], dtype=np.int64).reshape(r, 2)
                    lo[k], hi[k] = arr[:, 0], arr[:, 1]
            self._arr = (np.asarray(self._devs, dtype=np.int64), lo, hi)
        return self._arr

    # --- facts ------------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        """The global tensor's shape.

        >>> Sharding((8, 2), {0: [((0, 8), (0, 2))]}).shape
        (8, 2)
        """
        return self._shape

    @property
    def rank(self) -> int:
        """``len(shape)``.

        >>> Sharding((8, 2), {0: [((0, 8), (0, 2))]}).rank
        2
        """
        return len(self._shape)

    @property
    def devices(self) -> tuple:
        """The device ids, ascending.

        >>> Sharding((2,), {3: [((0, 2),)], 1: [((0, 2),)]}).devices
        (1, 3)
        """
        return self._devices

    @property
    def num_devices(self) -> int:
        """How many devices the sharding spans (those holding nothing included).

        >>> Sharding((2,), {0: [((0, 2),)], 1: []}).num_devices
        2
        """
        return len(self._devices)

    @property
    def device_boxes(self) -> dict:
        """``{device id: [box, ...]}`` in canonical form (a box: ``(start, stop)`` per dim).

        >>> Sharding((4,), {0: [((0, 1),), ((1, 3),)], 1: [((3, 4),)]}).device_boxes
        {0: [((0, 3),)], 1: [((3, 4),)]}
        """
        self._global("device_boxes")
        return {d: list(b) for d, b in zip(self._devices, self._boxes)}

    def boxes(self, device) -> tuple:
        """The canonical boxes of one device (a tuple).

        >>> Sharding((4,), {0: [((0, 4),)]}).boxes(0)
        (((0, 4),),)
        """
        self._global(f"boxes({device!r})")
        return self._own_boxes(device)

    def _own_boxes(self, device):
        """A device's canonical boxes (of its manual group's value, in a manual sharding)."""
        if self._pos is None:
            self._pos = {d: k for k, d in enumerate(self._devices)}
        try:
            return self._boxes[self._pos[device]]
        except (KeyError, TypeError):
            raise LayoutError(f"device {device!r} is not one of the sharding's devices {self._devices}") from None

    @property
    def manual(self):
        """The manual subgroups (a ``ManualGroups``), or None when the boxes are of one global array.

        >>> s = Sharding((4,), {0: [((0, 4),)], 1: [((0, 4),)]}, manual=[[0], [1]])
        >>> s.manual, s.manual.groups
        (ManualGroups(((0,), (1,))), ((0,), (1,)))
        """
        return self._manual

    @property
    def group_boxes(self) -> dict:
        """``{device id: [box, ...]}``: each device's boxes, of its manual group's own value (``device_boxes`` else).

        >>> s = Sharding((4,), {0: [((0, 2),)], 1: [((0, 2),)], 2: [((2, 4),)], 3: [((2, 4),)]}, manual=[[0, 2], [1, 3]])
        >>> s.group_boxes[3]
        [((2, 4),)]
        """
        return {d: list(b) for d, b in zip(self._devices, self._boxes)}

    def _global(self, what):
        """Raise ``NotRepresentableError`` when ``what`` needs boxes of one global array and the sharding is manual."""
        if self._manual is not None:
            groups = ", ".join("{" + ", ".join(map(str, g)) + "}" for g in self._manual.groups)
            raise NotRepresentableError(
                f"{what}: the sharding is partially manual (manual groups {groups}); each group holds a value of its "
                "own, so its devices' boxes are of that value, not of one global array (Sharding.group_boxes)")

    @property
    def partial(self) -> dict:
        """``{device id: True when its values are partial sums}``.

        >>> Sharding((2,), {0: [((0, 2),)], 1: [((0, 2),)]}, partial=[0, 1]).partial
        {0: True, 1: True}
        """
        return {d: d in self._partial for d in self._devices}

    @property
    def sum_groups(self) -> tuple:
        """Which partial sums add up together: sorted groups of devices (empty when nothing is partial).

        Every element's value is the sum of the partial values of its holders
        in one group; the groups holding an element are copies of each other.
        "Partial on mesh axis a, Replicate on b" sums along ``a`` only, "Partial
        on both" sums over the whole mesh. The groups are canonical: each is
        cut into the parts its devices' boxes connect (devices of one group that
        share no element need no grouping), so two vocabularies saying the
        same sums give the same groups.

        >>> full = ((0, 4),)
        >>> both = Sharding((4,), {d: [full] for d in range(4)}, partial=range(4))
        >>> one_axis = Sharding((4,), {d: [full] for d in range(4)}, partial=range(4), sum_groups=[[0, 2], [1, 3]])
        >>> both.sum_groups, one_axis.sum_groups, both == one_axis
        (((0, 1, 2, 3),), ((0, 2), (1, 3)), False)
        """
        if self._sums is None:
            self._sums = self._canonical_sums()
        return self._sums

    def _canonical_sums(self):
        if not self._partial:
            return ()
        groups = [sorted(self._partial)] if self._groups is None else [sorted(g) for g in self._groups]
        pos = {d: k for k, d in enumerate(self._devices)}
        out = []
        for g in groups:
            out.extend(_connected(g, [self._boxes[pos[d]] for d in g]))
        return tuple(sorted(out))

    @property
    def has_partial(self) -> bool:
        """Whether any device holds partial sums.

        >>> Sharding((2,), {0: [((0, 2),)]}).has_partial
        False
        """
        return bool(self._partial)

    @property
    def replicated(self) -> dict:
        """``{device id: True when some element it holds is held by another device too}``.

        >>> Sharding((4,), {0: [((0, 3),)], 1: [((2, 4),)], 2: [((0, 1),)]}).replicated
        {0: True, 1: True, 2: True}
        >>> Sharding((4,), {0: [((0, 2),)], 1: [((2, 4),)]}).replicated
        {0: False, 1: False}
        """
        if self._replicated is None:
            self._replicated = self._compute_replicated()
        return dict(zip(self._devices, self._replicated))

    def _compute_replicated(self):
        if self._manual is not None:  # copies are within a group: the groups' values differ
            flags = {}
            for g in self._manual.groups:
                sub = Sharding._trusted(self._shape, g, tuple(self._own_boxes(d) for d in g))
                flags.update(zip(g, sub._compute_replicated()))
            return tuple(flags[d] for d in self._devices)
        arr = self.arrays() if self.rank else None
        if arr is not None:
            # devices with the same box are copies; distinct boxes overlap only if they are not cells of one grid
            _, lo, hi = arr
            r = self.rank
            uniq, inv, counts = np.unique(np.concatenate([lo, hi], axis=1), axis=0, return_inverse=True,
                                          return_counts=True)
            inv = inv.reshape(-1)
            ulo, uhi = uniq[:, :r], uniq[:, r:]
            cells = bool((uhi > ulo).all())
            for i in range(r):
                if not cells:
                    break
                cuts = np.unique(np.concatenate([ulo[:, i], uhi[:, i]]))
                cells = bool((np.searchsorted(cuts, uhi[:, i]) - np.searchsorted(cuts, ulo[:, i]) == 1).all())
            out = np.zeros(uniq.shape[0], dtype=bool)
            if not cells:  # some distinct boxes may overlap: compare them pairwise (in chunks)
                u = uniq.shape[0]
                step = max(1, (1 << 22) // max(1, u * r))
                for s0 in range(0, u, step):
                    ov = ((ulo[s0:s0 + step, None] < uhi[None]) & (ulo[None] < uhi[s0:s0 + step, None])).all(axis=-1)
                    idx = np.arange(s0, min(u, s0 + step))
                    ov[idx - s0, idx] = False
                    out[s0:s0 + step] = ov.any(axis=1)
            return tuple((out[inv] | (counts[inv] > 1)).tolist())
        flags = []
        for k, bs in enumerate(self._boxes):
            flags.append(any(_overlap(a, b) for j, other in enumerate(self._boxes) if j != k
                             for a in bs for b in other))
        return tuple(flags)

    @property
    def is_fully_replicated(self) -> bool:
        """Every device holds the whole tensor (and none holds partial sums).

        Of a zero-size tensor every sharding without partial sums is: there is
        nothing to hold, so each device holds all of it (its box list is empty).

        >>> Sharding((3,), {0: [((0, 3),)], 5: [((0, 3),)]}).is_fully_replicated
        True
        """
        return not self._partial and self._manual is None and all(b == self._full for b in self._boxes)

    @property
    def _full(self) -> tuple:
        """The canonical box list of the whole tensor: one box, or none when some dim is 0 (nothing to hold)."""
        return (tuple((0, n) for n in self._shape),) if all(self._shape) else ()

    def local_shape(self, device) -> tuple:
        """The shape of a device's data when it is one box (zeros when it holds nothing).

        ``LayoutError`` when the device holds several boxes (no single local shape).

        >>> Sharding((5, 4), {0: [((0, 3), (0, 4))], 1: [((3, 5), (0, 4))]}).local_shape(0)
        (3, 4)
        """
        b = self._own_boxes(device)
        if not b:
            return tuple(0 for _ in self._shape)
        if len(b) > 1:
            raise LayoutError(f"device {device} holds {len(b)} boxes: it has no single local shape")
        return tuple(z - a for a, z in b[0])

    def owners(self) -> np.ndarray:
        """An int64 array of ``shape``: the lowest device id holding each element (-1 where none does).

        >>> Sharding((4,), {1: [((0, 2),)], 0: [((2, 4),)], 2: [((0, 4),)]}).owners().tolist()
        [1, 1, 0, 0]
        """
        self._global("owners()")
        check_table(product(self._shape), "Sharding.owners")
        out = np.full(self._shape, -1, dtype=np.int64)
        for d, bs in zip(reversed(self._devices), reversed(self._boxes)):
            for b in bs:
                out[tuple(slice(a, z) for a, z in b)] = d
        return out

    def covers(self) -> bool:
        """Whether every element is held by some device.

        >>> Sharding((4,), {0: [((0, 2),)]}).covers()
        False
        """
        if self._manual is not None:  # each group's value is covered by its own devices
            return all(Sharding._trusted(self._shape, g, tuple(self._own_boxes(d) for d in g)).covers()
                       for g in self._manual.groups)
        total = sum((np.prod([z - a for a, z in b], dtype=object) for bs in self._boxes for b in bs), 0)
        if self.rank == 0:
            return True
        if not any(b for b in self._boxes):
            return False
        if product(self._shape) <= 1 << 22:
            return bool((self.owners() >= 0).all())
        # disjoint boxes summing to the volume cover it
        return total >= product(self._shape) and not any(self._compute_replicated())

    def relabel(self, mapping) -> "Sharding":
        """The same sharding with device ``d`` renamed ``mapping[d]`` (a dict or a sequence).

        >>> Sharding((2,), {0: [((0, 1),)], 1: [((1, 2),)]}).relabel({0: 7, 1: 3}).device_boxes
        {3: [((1, 2),)], 7: [((0, 1),)]}
        """
        try:
            new = [int(mapping[d]) for d in self._devices]
        except (KeyError, IndexError, TypeError, ValueError):
            raise LayoutError(f"relabel: mapping must give a device id for each of {self._devices}") from None
        rename = dict(zip(self._devices, new))
        return Sharding(self._shape, {n: list(b) for n, b in zip(new, self._boxes)},
                        [n for n, d in zip(new, self._devices) if d in self._partial],
                        [[rename[d] for d in g] for g in self.sum_groups] if self._partial else None,
                        None if self._manual is None else self._manual.relabel(rename))

    # --- value ------------------------------------------------------------------------------
    def _key(self):
        return (self._shape, self._devices, self._boxes, self._partial, self._manual)

    def __eq__(self, other):
        if not isinstance(other, Sharding):
            return NotImplemented
        if self is other:
            return True
        if self._shape != other._shape or self._partial != other._partial or self._manual != other._manual:
            return False
        if self._arr is not None and other._arr is not None:
            a, b = self._arr, other._arr
            same = all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b))
        else:
            same = self._key() == other._key()
        return same and (not self._partial or self.sum_groups == other.sum_groups)

    def __hash__(self):
        if self._hash is None:
            self._hash = hash((self._shape, self._devices, self._boxes, tuple(sorted(self._partial)), self._manual))
        return self._hash

    def __repr__(self):
        boxes = ", ".join(f"{d}: {list(b)!r}" for d, b in zip(self._devices, self._boxes))
        extra = f", partial={sorted(self._partial)!r}" if self._partial else ""
        if self._partial and len(self.sum_groups) > 1:  # more than one group: say which sums add up
            extra += f", sum_groups={[list(g) for g in self.sum_groups]!r}"
        if self._manual is not None:
            extra += f", manual={self._manual!r}"
        return f"Sharding({self._shape!r}, {{{boxes}}}{extra})"

    def __str__(self):
        """A short human form: shape, devices, and each distinct box with its holders.

        >>> print(Sharding((4, 2), {0: [((0, 2), (0, 2))], 1: [((2, 4), (0, 2))], 2: [((0, 2), (0, 2))]}))
        sharding of 4x2 over 3 devices
          [0:2, 0:2]  devices 0, 2
          [2:4, 0:2]  device 1
        """
        shape = 'x'.join(map(str, self._shape)) or 'scalar'
        plural = 's' if self.num_devices != 1 else ''
        if self._manual is not None:
            lines = [f"manual sharding of {shape} over {self.num_devices} device{plural} in "
                     f"{len(self._manual)} manual group{'s' if len(self._manual) != 1 else ''}, each holding its own "
                     f"value of shape {shape}"]
            for k, g in enumerate(self._manual.groups):
                lines.append(f"  manual group {k}: device{'s' if len(g) > 1 else ''} {', '.join(map(str, g))}")
                lines += ["  " + x for x in self._box_lines(g)]
            return "\n".join(lines)
        lines = [f"sharding of {shape} over {self.num_devices} device{plural}"] + self._box_lines(self._devices)
        if self._partial and len(self.sum_groups) > 1:
            lines.append("  partial sums add up within " + ", ".join(
                "{" + ", ".join(map(str, g)) + "}" for g in self.sum_groups))
        return "\n".join(lines)

    def _box_lines(self, devices):
        """``  [a:b, ..]  devices ..`` for each distinct box list of ``devices``, in order of first holder."""
        groups = {}
        for d in devices:
            groups.setdefault(self._own_boxes(d), []).append(d)
        lines = []
        for bs, ds in groups.items():
            text = " + ".join("[" + ", ".join(f"{a}:{z}" for a, z in b) + "]" for b in bs) or "(nothing)"
            who = ("devices " if len(ds) > 1 else "device ") + ", ".join(map(str, ds))
            if any(d in self._partial for d in ds):
                who += " (partial sums)"
            lines.append(f"  {text}  {who}")
        return lines
