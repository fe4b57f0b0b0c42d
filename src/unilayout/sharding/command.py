"""The sharding texts the command reads: HLO, Shardy, DTensor/TTNN placements and XLA tiled layouts.

``read(text, shape, mesh, mesh_shape)`` reads any of them (recognised by its start):

- HLO ``{devices=[2,1,4]<=[8] last_tile_dim_replicate}`` (``sharding=`` prefix allowed; needs the shape);
- Shardy ``#sdy.sharding<@mesh, [{"x"}, {}]>`` (needs the shape and the mesh text
  ``sdy.mesh @mesh = <["x"=2]>`` unless the mesh is inline);
- DTensor placements ``Shard(0), Replicate()`` or TTNN ``PlacementShard(0), PlacementReplicate()`` (needs
  the shape and the mesh shape);
- an XLA tiled layout ``f32[128,256]{1,0:T(8,128)(2,1)}`` (its own shape).

``is_sharding_text``, ``is_placements`` and ``is_xla`` tell the command which
texts are these; ``convert`` gives one sharding in another vocabulary,
``jax_text`` its JAX ``PartitionSpec``, ``scene`` its picture and ``view`` the
explorer's view. The ``unilayout sharding`` verb itself (options, printing)
moved to ``unilayout.cli.sharding``; its names are kept here as aliases.

>>> kind, s = read("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
>>> kind, s.num_devices, convert("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "dtensor", (8, 6))
('sharding', 4, 'Shard(0), Replicate()  on mesh 2x2')
"""

from __future__ import annotations

import re

from ..errors import LayoutError, NotRepresentableError

__all__ = ["add_parser", "run", "main_for_tests", "read", "is_sharding_text", "show", "convert", "jax_text", "scene",  # noqa: F822 (the verb's names come from __getattr__)
           "is_placements", "is_xla", "view", "CONVERT_TARGETS"]

#: Names of the ``unilayout sharding`` verb, moved to ``unilayout.cli.sharding`` and kept here as aliases.
_MOVED = ("add_parser", "run", "show", "main_for_tests")

_PLACEMENT = re.compile(r"^\s*\[?\s*(Shard|Replicate|Partial|_StridedShard|_S|S\(|R\b|P\b|Placement)")


def _placements(text):
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    out, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def read(text, shape=None, mesh=None, mesh_shape=None):
    """``(kind, value)``: kind ``"sharding"`` (a ``Sharding``) or ``"xla"`` (an ``XlaLayout``), from any text.

    >>> read("Shard(0), Replicate()", (4, 2), mesh_shape=(2, 2))[1].device_boxes[3]
    [((2, 4), (0, 2))]
    """
    from . import from_dtensor, from_ttnn, parse_hlo, parse_shardy, parse_xla_layout
    body = text.strip()
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*\[", body):
        return "xla", parse_xla_layout(body)
    if shape is None:
        raise LayoutError("a sharding text needs the tensor's shape: give --shape, e.g. --shape 8x6 (the explorer: "
                          "the shape field)")
    if body.startswith("{") or body.startswith("sharding"):
        return "sharding", parse_hlo(body, shape)
    if body.startswith("#sdy.sharding"):
        return "sharding", parse_shardy(body, mesh, shape)
    if body.startswith("sdy.mesh") and "#sdy.sharding" in body:  # 'sdy.mesh @m = <[..]>' then '#sdy.sharding<@m, ..>'
        at = body.index("#sdy.sharding")
        if mesh is not None:
            raise LayoutError("the text holds its sdy.mesh already: give --mesh only with a bare #sdy.sharding")
        return "sharding", parse_shardy(body[at:], body[:at].strip(), shape)
    if _PLACEMENT.match(body):
        if mesh_shape is None:
            raise LayoutError("placements need the mesh: give --mesh-shape, e.g. --mesh-shape 2x4")
        pl = _placements(body)
        if any(p.startswith("Placement") for p in pl):
            return "sharding", from_ttnn(pl, mesh_shape, shape)
        return "sharding", from_dtensor(pl, mesh_shape, shape)
    raise LayoutError("expected an HLO sharding '{devices=[...]...}', a Shardy '#sdy.sharding<...>', DTensor or TTNN "
                      "placements 'Shard(0), Replicate()', or an XLA layout 'f32[8,8]{1,0:T(8,128)}'")


def _mesh_for(s, mesh_shape):
    """The mesh to print placements on: --mesh-shape, else the HLO tile assignment's shape."""
    if mesh_shape is not None:
        return mesh_shape
    from .hlo import tile_assignment
    T, R, _ = tile_assignment(s, "HLO")
    dims = tuple(t for t in T if t > 1) + ((R,) if R > 1 else ())
    return dims or (1,)


def _conversions(s, mesh_shape, only=None):
    """``{vocabulary: text or 'not representable: why'}`` for ``show`` (every vocabulary, or ``only`` one)."""
    out = {}
    for name in [only] if only else ["hlo", "shardy", "dtensor", "ttnn", "jax"]:
        try:
            out[name] = _to_text(s, name, mesh_shape)
        except (NotRepresentableError, LayoutError) as e:
            out[name] = f"not representable: {e}"
    return out


def _to_text(s, to, mesh_shape):
    """One line of ``s`` in vocabulary ``to`` (``ttnn``/``ttnn-mesh``: TTNN mesh-mapper placements), or raise why not."""
    if to == "jax":
        return jax_text(s, mesh_shape)
    from . import to_dtensor, to_hlo, to_shardy, to_ttnn
    if to == "hlo":
        return to_hlo(s)
    if to == "shardy":
        st, mt = to_shardy(s)
        return f"{st}  over  {mt}"
    m = _mesh_for(s, mesh_shape)
    if s.devices != tuple(range(s.num_devices)):
        raise NotRepresentableError(f"device ids {list(s.devices)} are not ranks 0..{s.num_devices - 1}: "
                                    f"{to} places by rank")
    pl = to_dtensor(s, m, as_text=True) if to == "dtensor" else to_ttnn(s, m)
    return f"{', '.join(pl)}  on mesh {'x'.join(map(str, m))}"


def jax_text(s, mesh_shape=None) -> str:
    """The JAX ``PartitionSpec`` of ``s`` and the mesh it names, as text (JAX itself is not needed).

    The mesh is ``mesh_shape`` (axes ``m0, m1, ..``, devices in rank order) or,
    without one, the mesh ``to_shardy`` prints (axes ``d<i>`` per tiled dim,
    ``r`` for copies, its device order). ``NotRepresentableError`` says why no
    spec over that mesh holds ``s`` (``to_jax``'s reasons).

    >>> from unilayout.sharding import parse_hlo
    >>> jax_text(parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6)))
    "PartitionSpec('d0',)  on mesh ('d0', 'r') of shape (2, 2)"
    >>> jax_text(parse_hlo("{devices=[2,2]<=[2,2]T(1,0)}", (8, 8)), (2, 2))
    "PartitionSpec('m1', 'm0')  on mesh ('m0', 'm1') of shape (2, 2)"
    """
    import numpy as np

    from .jax import _spec_for, _split_sums
    from .shardy import parse_mesh, to_shardy

    if mesh_shape is None:
        m = parse_mesh(to_shardy(s)[1])
        names, sizes = [a for a, _ in m.axes], [k for _, k in m.axes]
        ids = list(m.device_ids) or list(range(s.num_devices))
        if not names:  # one device: a mesh of one axis (JAX meshes have at least one)
            names, sizes, ids = ["r"], [s.num_devices], list(s.devices)
    else:
        names, sizes = [f"m{i}" for i in range(len(mesh_shape))], list(mesh_shape)
        ids = list(range(int(np.prod(sizes, dtype=np.int64))))
    names, sizes, idv = tuple(names), tuple(sizes), np.asarray(ids, dtype=np.int64)
    unreduced = ()
    if s.has_partial:  # JAX >= 0.7: PartitionSpec(..., unreduced={axes}) says which axes the sums add up along
        s, unreduced = _split_sums(s, names, sizes, idv)
    spec = _spec_for(s, names, sizes, idv)
    order = "" if ids == list(range(len(ids))) else f", device ids {ids} in mesh order"
    entries = [repr(e) for e in spec] + ([f"unreduced={set(unreduced)!r}"] if unreduced else [])
    return (f"PartitionSpec({', '.join(entries)}{',' if len(spec) == 1 and not unreduced else ''})  on mesh "
            f"{names!r} of shape {sizes!r}{order}")


#: ``unilayout convert --to`` targets for a sharding text (``ttnn-mesh``: TTNN mesh-mapper placements; ``ttnn``
#: alone is tt-mlir's ``#ttnn.ttnn_layout`` form of a metal layout).
CONVERT_TARGETS = ("hlo", "shardy", "dtensor", "jax", "ttnn-mesh")


def convert(text, to, shape=None, mesh=None, mesh_shape=None) -> str:
    """What ``unilayout convert TEXT --to TO`` prints for a sharding text (HLO, Shardy, DTensor/TTNN placements).

    ``to`` is one of ``CONVERT_TARGETS``. An XLA layout text converts to a
    layout family instead (``affine``, ``cute``, ``linear``, ``tsl``) or to a
    metal form (``v1``, ``v2``, ``ttnn``), exactly or with the reason why not.
    Raises ``NotRepresentableError`` with the reason when the target cannot
    say the sharding, ``LayoutError`` for a target that does not apply.

    >>> convert("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "dtensor", (8, 6))
    'Shard(0), Replicate()  on mesh 2x2'
    >>> convert("Shard(0), Shard(0)", "jax", (5, 3), mesh_shape=(2, 2))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: dim 0 of size 5 is split 2+1+1+1: JAX needs 4 equal shards (5 is not divisible by 4)
    >>> convert("f32[4,8]{0,1}", "cute")
    '(4,8):(1,4)'
    """
    kind, value = read(text, shape, mesh, mesh_shape)
    if kind == "xla":
        return _convert_xla(value, to)
    if to not in CONVERT_TARGETS:
        raise LayoutError(f"--to {to} converts layouts; a sharding converts to {', '.join(CONVERT_TARGETS)}")
    return _to_text(value, to, mesh_shape)


def _convert_xla(x, to):
    from ..facts import canonical_text
    if to in CONVERT_TARGETS:
        raise LayoutError(f"--to {to} converts shardings; an XLA layout converts to affine, cute, linear, tsl, "
                          "v1, v2 or ttnn")
    from ..convert import convert_to, metal_form
    if to in ("v1", "v2", "ttnn"):
        return canonical_text(metal_form(x.to_metal(), to))
    return canonical_text(convert_to(x, to))  # the registry's xla pairs (convert/xla.py)


def scene(text, shape=None, mesh=None, mesh_shape=None, max_cells=None):
    """The picture of a sharding text: ``viz.sharding.sharding_scene`` (an XLA layout: its registry picture).

    >>> scene("{devices=[2,2]<=[4]}", (4, 4)).labels.tolist()
    [['0', '1'], ['2', '3']]
    """
    from .. import viz
    from ..viz.sharding import sharding_scene
    kind, value = read(text, shape, mesh, mesh_shape)
    cap = max_cells or viz.DEFAULT_MAX_CELLS
    return viz.scene(value, max_cells=cap) if kind == "xla" else sharding_scene(value, max_cells=cap)


def view(text, shape=None, mesh=None, mesh_shape=None) -> dict:
    """The explorer's view of a sharding or XLA layout text: ``unilayout.explorer.text_view`` (kept as a delegate).

    The cells moved to ``sharding.picture.sharding_cells`` (the family's
    ``cells`` hook) and the view to the explorer; this name stays for one
    release (remove by 2027-06-01). The conversions among the facts are
    printed on the sharding's own mesh.

    >>> v = view("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
    >>> v["family"], v["count"], v["details"][1], v["svg"].count('class="cell"')
    ('sharding', 2, ['[4:8, 0:6]', '2, 3', 'no'], 2)
    >>> view("f32[3,5]{1,0:T(2,2)}")["details"][2]
    ['2', '(0, 2)', '4']
    """
    from ..explorer.views import text_view  # lazy: deprecated delegate to the face above (remove by 2027-06-01)

    return text_view(text, shape, mesh=mesh, mesh_shape=mesh_shape)


def is_sharding_text(text) -> bool:
    """Whether ``unilayout show`` should hand ``text`` to this command: HLO, Shardy or an XLA layout.

    No other family's text starts with ``{``, ``sharding=``, ``#sdy.`` or ``name[``.

    >>> is_sharding_text("{replicated}"), is_sharding_text("f32[4,4]{1,0}"), is_sharding_text("(4,2):(2,1)")
    (True, True, False)
    """
    body = text.lstrip() if isinstance(text, str) else ""
    return body.startswith(("{", "sharding=", "#sdy.sharding")) or (body.startswith("sdy.mesh") and "#sdy.sharding"
                                                                     in body) or is_xla(body)


def is_placements(text) -> bool:
    """Whether ``text`` is DTensor or TTNN placements (``Shard(0), Replicate()``, ``PlacementShard(1)``).

    >>> is_placements("[Shard(0), R]"), is_placements("PlacementReplicate()"), is_placements("8:1")
    (True, True, False)
    """
    return isinstance(text, str) and bool(_PLACEMENT.match(text))


def is_xla(text) -> bool:
    """Whether ``text`` is an XLA shape with a layout (``f32[4,4]{1,0}``), not a sharding.

    >>> is_xla(" bf16[8]{0}"), is_xla("{replicated}")
    (True, False)
    """
    return isinstance(text, str) and bool(re.match(r"^[A-Za-z_][A-Za-z0-9_]*\[", text.lstrip()))


def __getattr__(name):
    """The ``unilayout sharding`` verb's names (``main_for_tests``, ``show``, ...), read from ``unilayout.cli.sharding``."""
    if name in _MOVED:
        from ..cli import sharding as verb  # lazy: moved up to the command, which imports this module's readers

        return getattr(verb, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
