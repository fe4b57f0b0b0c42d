"""Shardy ``#sdy.sharding<@mesh, [{"x"}, {}]>`` + ``sdy.mesh`` text <-> ``Sharding``.

Grammar read here (the Shardy dialect's attribute syntax):

```
mesh       := ['sdy.mesh' '@' NAME '='] ['#sdy.mesh' | 'mesh'] '<' '[' axis (',' axis)* ']'
              (',' 'device_ids' '=' '[' INT (',' INT)* ']')? '>'      (also '<[]>' and '<[], device_ids=[k]>')
axis       := '"' NAME '"' '=' INT
sharding   := '#sdy.sharding' '<' ('@' NAME | mesh) ',' '[' dim (',' dim)* ']'
              (',' 'replicated' '=' axes)? (',' 'unreduced' '=' axes)? '>'
dim        := '{' (ref (',' ref)*)? (',' '?')? '}' ('p' INT)?      ('{?}' is an open dim)
ref        := '"' NAME '"' (':' '(' INT ')' INT)?                  sub-axis "x":(pre)size
axes       := '{' (ref (',' ref)*)? '}'
```

**Meaning.** The mesh is an array of device ids (``device_ids``, row-major,
default ``0..n-1``) with named axes. A dim sharded by refs ``a, b, ...``
(major first) is cut into ``T = |a| * |b| * ...`` tiles of ``ceil(n / T)``
(as HLO: the last tiles are padded); the device at mesh coordinate ``m``
holds tile ``(m_a * |b| + m_b) * ...``. A sub-axis ``"x":(p)k`` of an axis
``x`` of size ``n`` is the middle factor of ``x`` seen as ``p x k x n/(p*k)``:
its coordinate is ``(m_x // (n / (p*k))) mod k``. Axes named nowhere (or
in ``replicated``) hold copies; ``unreduced`` axes hold partial sums (every
device of the sharding is then marked partial). Open dims (``?``) and
priorities are read and ignored: they guide propagation, not placement.

>>> mesh = 'sdy.mesh @mesh = <["x"=2, "y"=4]>'
>>> s = parse_shardy('#sdy.sharding<@mesh, [{"x"}, {"y":(2)2}]>', mesh, (8, 8))
>>> s.device_boxes[3], s.device_boxes[5]
([((0, 4), (4, 8))], [((4, 8), (4, 8))])
>>> to_shardy(s)
('#sdy.sharding<@mesh, [{"d0"}, {"d1"}]>', 'sdy.mesh @mesh = <["d0"=2, "d1"=2, "r"=2], device_ids=[0, 2, 1, 3, 4, 6, 5, 7]>')
"""

from __future__ import annotations

import numpy as np

from .._ints import as_shape, product
from .._text import Scanner, check_text
from ..errors import LayoutError, NotRepresentableError
from ._grid import MAX_DEVICES, MAX_ID, tiles
from .hlo import _skip_braced, tile_assignment
from .value import Sharding

__all__ = ["parse_shardy", "to_shardy", "parse_mesh"]


class Mesh:
    """A parsed Shardy mesh: axis names and sizes, device ids row-major.

    >>> parse_mesh('<["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>')
    Mesh(name=None, axes=(('a', 2), ('b', 2)), device_ids=(3, 2, 1, 0))
    """

    __slots__ = ("name", "axes", "device_ids", "maximal")

    def __init__(self, name, axes, device_ids, maximal=False):
        self.name, self.axes, self.device_ids = name, tuple(axes), tuple(device_ids)
        self.maximal = maximal  # '<[], device_ids=[k]>': one device, and shardings on it name no dims

    def __repr__(self):
        return f"Mesh(name={self.name!r}, axes={self.axes!r}, device_ids={self.device_ids!r})"

    def __eq__(self, other):
        return isinstance(other, Mesh) and (self.name, self.axes, self.device_ids) == \
            (other.name, other.axes, other.device_ids)

    __hash__ = None


def _string(sc: Scanner, what="a quoted axis name"):
    start = sc.skip()
    if not sc.accept('"'):
        sc.expected(what)
    t, p = sc.text, sc.pos
    end = t.find('"', p)
    if end < 0:
        sc.fail("unterminated string", start)
    sc.pos = end + 1
    name = t[p:end]
    if not name:
        sc.fail("an axis name must not be empty", start)
    return name


def _mesh_body(sc: Scanner, name=None) -> Mesh:
    sc.expect("<", "'<' to open the mesh")
    at = sc.expect("[", "'[' to open the mesh axes")
    axes = []
    if not sc.accept("]"):
        while True:
            k = sc.skip()
            a = _string(sc)
            sc.expect("=")
            n = sc.integer(what="an axis size", limit=MAX_ID)
            if n < 1:
                sc.fail(f"axis {a!r} has size {n}: sizes are >= 1", k)
            if any(a == b for b, _ in axes):
                sc.fail(f"axis {a!r} is named twice", k)
            axes.append((a, n))
            if not sc.accept(","):
                break
        sc.expect("]")
    total = product(n for _, n in axes)
    if total > MAX_DEVICES:
        sc.fail(f"the mesh axes {[n for _, n in axes]} have {total} devices, more than the {MAX_DEVICES} a "
                "sharding may span", at)
    ids, explicit = list(range(total)), False
    if sc.accept(","):
        explicit = True
        k = sc.skip()
        if not sc.keyword("device_ids"):
            sc.expected("'device_ids'")
        sc.expect("=")
        sc.expect("[")
        ids = []
        if not sc.accept("]"):
            ids.append(sc.integer(what="a device id", limit=MAX_ID))
            while sc.accept(","):
                ids.append(sc.integer(what="a device id", limit=MAX_ID))
            sc.expect("]")
        if not axes and len(ids) > 1:
            sc.fail("axes is empty and device_ids has more than one element (Shardy's mesh verifier)", k)
        if len(ids) != total:
            sc.fail(f"device_ids has {len(ids)} ids but the mesh axes {[n for _, n in axes]} need {total}", k)
        if len(set(ids)) != len(ids):
            sc.fail("a device id appears twice in device_ids", k)
        if axes and sorted(ids) != list(range(total)):
            sc.fail(f"sorted device ids must be 0..{total - 1} (iota(product(axes))), got {sorted(ids)[:8]}"
                    f"{'...' if total > 8 else ''} (Shardy's mesh verifier)", k)
    sc.expect(">", "'>' to close the mesh")
    return Mesh(name, axes, ids, maximal=explicit and not axes)


def _mesh(sc: Scanner) -> Mesh:
    sc.skip()
    name = None
    if sc.keyword("sdy.mesh"):
        sc.expect("@")
        name = sc.identifier("a mesh name")
        sc.expect("=")
    sc.skip()
    if sc.accept("#sdy.mesh"):
        pass
    else:
        sc.keyword("mesh")
    return _mesh_body(sc, name)


def parse_mesh(text) -> Mesh:
    """A Shardy mesh from ``sdy.mesh @m = <[...]>``, ``#sdy.mesh<[...]>`` or ``<[...]>`` text.

    >>> parse_mesh('sdy.mesh @mesh = <["x"=2, "y"=4]>').axes
    (('x', 2), ('y', 4))
    """
    check_text(text, "Shardy mesh text")
    sc = Scanner(text)
    m = _mesh(sc)
    sc.skip()
    if sc.at("{"):  # attribute dictionary after the op (stablehlo.mesh = ...): ignored
        _skip_braced(sc)
    sc.expect_end()
    return m


def _ref(sc: Scanner, sizes):
    k = sc.skip()
    a = _string(sc)
    if a not in sizes:
        sc.fail(f"axis {a!r} is not an axis of the mesh ({', '.join(sizes) or 'none'})", k)
    n = sizes[a]
    if sc.accept(":"):
        sc.expect("(")
        pre = sc.integer(what="a sub-axis pre-size", limit=MAX_ID)
        sc.expect(")")
        size = sc.integer(what="a sub-axis size", limit=MAX_ID)
        name = f'"{a}":({pre}){size}'
        if pre < 1:
            sc.fail(f"sub-axis pre-size must be at least 1: {name}", k)
        if size <= 1:
            sc.fail(f"sub-axis sizes must be greater than 1: {name}", k)
        if n % (pre * size):
            sc.fail(f"sub-axis next pre-size {pre * size} doesn't divide the size of the full axis {n}: {name}", k)
        if size == n:
            sc.fail(f"sub-axis size is equal to the full axis size: {name} (write the full axis \"{a}\")", k)
        return (a, pre, size, k)
    return (a, 1, n, k)


def _refs(sc: Scanner, sizes, allow_open=False):
    sc.expect("{")
    refs, opened = [], False
    if not sc.accept("}"):
        while True:
            if allow_open and sc.accept("?"):
                opened = True
                break
            refs.append(_ref(sc, sizes))
            if not sc.accept(","):
                break
        sc.expect("}")
    return refs, opened


def parse_shardy(sharding_text, mesh_text, shape) -> Sharding:
    """The ``Sharding`` that ``#sdy.sharding<...>`` over the mesh ``mesh_text`` gives an array of ``shape``.

    ``mesh_text`` may be None when the sharding writes its mesh inline
    (``#sdy.sharding<mesh<["x"=2]>, [...]>``). Device keys are the mesh's
    device ids.

    **Post-condition**: ``parse_shardy(*to_shardy(s), s.shape) == s`` for what ``to_shardy`` accepts.

    >>> parse_shardy('#sdy.sharding<@mesh, [{}, {"x"}], replicated={"y"}>', '<["x"=2, "y"=2]>', (2, 4)).device_boxes[2]
    [((0, 2), (2, 4))]
    >>> parse_shardy('#sdy.sharding<@mesh, [{"z"}]>', '<["x"=2]>', (4,))
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: axis 'z' is not an axis of the mesh (x) at position 23
      #sdy.sharding<@mesh, [{"z"}]>
                             ^
    """
    shape = as_shape(shape, "shape")
    check_text(sharding_text, "Shardy sharding text")
    sc = Scanner(sharding_text)
    sc.skip()
    if not sc.accept("#sdy.sharding"):
        sc.expected("'#sdy.sharding'")
    sc.expect("<")
    sc.skip()
    if sc.accept("@"):
        ref_name = sc.identifier("a mesh name")
        if mesh_text is None:
            sc.fail(f"the sharding names mesh @{ref_name}: give its text (mesh_text)")
        mesh = parse_mesh(mesh_text) if not isinstance(mesh_text, Mesh) else mesh_text
        if mesh.name is not None and mesh.name != ref_name:
            raise LayoutError(f"the sharding names mesh @{ref_name} but the mesh text is @{mesh.name}")
    else:
        mesh = _mesh(sc)
    sizes = dict(mesh.axes)
    sc.expect(",")
    at = sc.expect("[", "'[' to open the dim shardings")
    dims = []
    if not sc.accept("]"):
        while True:
            k = sc.skip()
            refs, opened = _refs(sc, sizes, allow_open=True)
            sc.skip()
            if sc.at("p") and sc.text[sc.pos + 1:sc.pos + 2].isdigit():
                sc.pos += 1
                sc.integer(what="a priority", limit=MAX_ID)
                if not refs and not opened:
                    sc.fail(f"dim {len(dims)} is empty and closed but has a priority (Shardy's verifier)", k)
            dims.append(refs)
            if not sc.accept(","):
                break
        sc.expect("]")
    if mesh.maximal and len(dims):  # a maximal mesh <[], device_ids=[k]>: one device
        sc.fail("a maximal sharding (mesh <[], device_ids=[k]>) can only have a sharding with rank 0 ([]) and no "
                "replicated or unreduced axes (Shardy's verifier)", at)
    if len(dims) != len(shape) and not mesh.maximal:
        sc.fail(f"{len(dims)} dim shardings for an array of rank {len(shape)} (shape {tuple(shape)})", at)
    unreduced, replicated = [], []
    while sc.accept(","):
        k = sc.skip()
        if sc.keyword("replicated"):
            sc.expect("=")
            replicated += _refs(sc, sizes)[0]
        elif sc.keyword("unreduced"):
            sc.expect("=")
            unreduced += _refs(sc, sizes)[0]
        else:
            sc.fail("expected 'replicated=' or 'unreduced='", k)
    sc.expect(">", "'>' to close the sharding")
    sc.expect_end()
    _verify(sc, mesh, dims, replicated, unreduced)
    names = [a for a, _ in mesh.axes]
    msizes = [n for _, n in mesh.axes]
    coords = np.indices(msizes, dtype=np.int64).reshape(len(msizes), -1) if msizes else np.zeros((0, 1), np.int64)
    ids = np.asarray(mesh.device_ids, dtype=np.int64)
    lo = np.zeros((ids.size, len(shape)), dtype=np.int64)
    hi = np.zeros((ids.size, len(shape)), dtype=np.int64)
    for i, (n, refs) in enumerate(zip(shape, dims or [[]] * len(shape))):
        ks, cs = [], []
        for a, pre, size, _ in refs:
            m = coords[names.index(a)]
            inner = sizes[a] // (pre * size)
            ks.append(size)
            cs.append((m // inner) % size)
        if not ks:
            hi[:, i] = n
            continue
        lo[:, i], hi[:, i] = tiles(n, ks, cs, exact=False)
    partial = ids.tolist() if unreduced else ()
    groups = None
    if unreduced:  # devices differing only along the unreduced (sub-)axes sum together
        kept = coords.copy()
        for a, pre, size, _ in unreduced:
            j = names.index(a)
            inner = sizes[a] // (pre * size)
            kept[j] -= ((kept[j] // inner) % size) * inner
        key = np.ravel_multi_index(kept, msizes) if msizes else np.zeros(ids.size, np.int64)
        order = np.argsort(key, kind="stable")
        groups = [ids[g].tolist() for g in np.split(order, np.flatnonzero(np.diff(key[order])) + 1)]
    return Sharding._from_arrays(shape, ids, lo, hi, partial, groups)


def _verify(sc: Scanner, mesh: Mesh, dims, replicated, unreduced):
    """Shardy's tensor-sharding verifier (``verifyTensorShardingAttr``): each rule broken is a ParseError at the ref.

    Every ref names each factor of an axis once (no duplicate, no full axis beside
    its sub-axis, no overlapping sub-axes); two neighbours of one list that are
    consecutive sub-axes of one axis must be written merged; ``replicated`` and
    ``unreduced`` list their axes in mesh order.
    """
    sizes = dict(mesh.axes)
    order = {a: j for j, (a, _) in enumerate(mesh.axes)}

    def text(r):
        a, pre, size, _ = r
        return f'"{a}"' if (pre, size) == (1, sizes[a]) else f'"{a}":({pre}){size}'

    if mesh.maximal and (replicated or unreduced):
        sc.fail("a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes "
                "(Shardy's verifier)", (replicated or unreduced)[0][3])
    seen, by_axis = set(), {}
    for what, refs in [(None, d) for d in dims] + [("replicated", replicated), ("unreduced", unreduced)]:
        keys = [(order[a], pre, size) for a, pre, size, _ in refs]
        if what and keys != sorted(keys):
            sc.fail(f"{what} axes are not ordered w.r.t. mesh (Shardy's verifier)", refs[0][3])
        prev = None
        for r in refs:
            a, pre, size, k = r
            if (a, pre, size) in seen:
                sc.fail(f"duplicate axis ref: {text(r)} (an axis is used twice)", k)
            seen.add((a, pre, size))
            full = (pre, size) == (1, sizes[a])
            if not full:
                by_axis.setdefault(a, []).append(r)
                if prev is not None and prev[0] == a and (prev[1], prev[2]) != (1, sizes[a]) and \
                        prev[1] * prev[2] == pre:
                    sc.fail(f"two consecutive sub-axes can be merged: {text(prev)}, {text(r)}", k)
            prev = r
    for a, subs in by_axis.items():
        if (a, 1, sizes[a]) in seen:
            sc.fail(f'both sub-axis and full-axis are used for axis name: "{a}"', subs[0][3])
        subs = sorted(subs, key=lambda r: (r[1], r[2]))
        for p, q in zip(subs, subs[1:]):
            if p[1] * p[2] > q[1]:
                sc.fail(f"overlapping sub-axes: {text(p)}, {text(q)}", q[3])


def _by_sum_group(s, rows):
    """``(rows, u)``: each tile's copies (a row) ordered group by group, every group of one size ``u``."""
    of = {d: k for k, g in enumerate(s.sum_groups) for d in g}
    out, u = [], None
    for row in rows.tolist():
        parts = {}
        for d in row:
            parts.setdefault(of[d], []).append(d)
        sizes = {len(p) for p in parts.values()}
        if len(sizes) > 1 or (u is not None and sizes != {u}):
            raise NotRepresentableError(
                f"partial sums add up in groups of different sizes ({sorted(s.sum_groups, key=len)[0]} and "
                f"{sorted(s.sum_groups, key=len)[-1]}): Shardy's unreduced axes sum groups of one size")
        u = sizes.pop()
        out.append([d for _, p in sorted(parts.items()) for d in p])
    return np.asarray(out, dtype=np.int64), u


def to_shardy(sharding, mesh_name="mesh"):
    """``(sharding_text, mesh_text)``: a Shardy sharding of ``sharding`` and the mesh it names.

    The mesh has one axis ``"d<i>"`` per tiled dim ``i`` and ``"r"`` for the
    copies of each tile (``"u"``, in ``unreduced``, when the copies are
    partial sums; ``"r"`` and ``"u"`` when they sum in several groups,
    ``Sharding.sum_groups``); ``device_ids`` lists the devices in mesh order. Raises
    ``NotRepresentableError`` as ``to_hlo`` does (Shardy tiles are HLO's),
    and for partial sums on only some devices.

    **Post-condition**: ``parse_shardy(*to_shardy(s), s.shape) == s``.

    >>> from unilayout.sharding import Sharding
    >>> to_shardy(Sharding((4,), {0: [((0, 4),)], 1: [((0, 4),)]}, partial=[0, 1]))
    ('#sdy.sharding<@mesh, [{}], unreduced={"u"}>', 'sdy.mesh @mesh = <["u"=2]>')
    """
    if not isinstance(sharding, Sharding):
        raise LayoutError(f"expected a unilayout.sharding.Sharding, got {type(sharding).__name__}")
    s = sharding
    s._global("Shardy (manual axes belong to an sdy.manual_computation, not to a #sdy.sharding)")
    flags = list(s.partial.values())
    if any(flags) and not all(flags):
        d = next(d for d, p in s.partial.items() if not p)
        raise NotRepresentableError(
            f"only some devices hold partial sums (device {d} does not): Shardy's unreduced axes make every "
            "device of the sharding partial")
    plain = Sharding._trusted(s.shape, s.devices, s._boxes) if any(flags) else s
    T, R, assign = tile_assignment(plain, "Shardy")
    axes, dims = [], []
    for i, t in enumerate(T):
        if t > 1:
            axes.append((f"d{i}", t))
            dims.append(f'{{"d{i}"}}')
        else:
            dims.append("{}")
    rep = "u" if any(flags) else "r"
    u = R
    if any(flags) and len(s.sum_groups) > 1:  # copies split into groups that sum: axes "r" (copies) x "u" (summed)
        assign, u = _by_sum_group(s, assign.reshape(-1, R))
        if R // u > 1:
            axes.append(("r", R // u))
    if u > 1:
        axes.append((rep, u))
    elif any(flags):
        axes.append((rep, 1))
    ids = assign.reshape(-1).tolist()
    if axes and sorted(ids) != list(range(len(ids))):
        raise NotRepresentableError(f"devices {sorted(ids)[:8]}{'...' if len(ids) > 8 else ''} are not 0..{len(ids) - 1}: "
                                    "a Shardy mesh numbers its devices 0..n-1 (only a maximal mesh names one other id)")
    if not axes and ids != [0]:  # one device k: Shardy's maximal mesh, whose sharding names no dims
        dims = []
    axes_text = ", ".join(f'"{a}"={n}' for a, n in axes)
    id_text = "" if ids == list(range(len(ids))) else f", device_ids=[{', '.join(map(str, ids))}]"
    extra = ', unreduced={"u"}' if any(flags) else ""
    return (f"#sdy.sharding<@{mesh_name}, [{', '.join(dims)}]{extra}>",
            f"sdy.mesh @{mesh_name} = <[{axes_text}]{id_text}>")
