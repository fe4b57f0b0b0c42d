"""Moved: kept as an alias for one release (remove by 2027-06-01).

The sharding readers are the family's own now (``unilayout.sharding.text``:
HLO, Shardy, DTensor and TTNN placements; ``unilayout.sharding.forms``: each
vocabulary's text, ``jax_text``), XLA layouts are their own family
(``unilayout.xla``), every text is read through the registry
(``unilayout.read``), and the ``unilayout sharding`` verb is
``unilayout.cli.sharding``. The old names below delegate to those.

>>> kind, s = read("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
>>> kind, s.num_devices, convert("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "dtensor", (8, 6))
('sharding', 4, 'Shard(0), Replicate()  on mesh 2x2')
"""

from __future__ import annotations

from .._families import detect, record
from .._families import read as _read
from .forms import FORMS as CONVERT_TARGETS
from .forms import jax_text
from .text import is_placements

__all__ = ["add_parser", "run", "main_for_tests", "read", "is_sharding_text", "show", "convert", "jax_text",  # noqa: F822
           "scene", "is_placements", "is_xla", "view", "CONVERT_TARGETS"]

#: Names of the ``unilayout sharding`` verb, moved to ``unilayout.cli.sharding``.
_MOVED = ("add_parser", "run", "show", "main_for_tests")


def read(text, shape=None, mesh=None, mesh_shape=None):
    """``(kind, value)``: ``"xla"`` for an XLA layout, else ``"sharding"`` (``unilayout.read`` is the front door)."""
    value = _read(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape)
    return ("xla" if record(value).name == "xla" else "sharding"), value


def convert(text, to, shape=None, mesh=None, mesh_shape=None) -> str:
    """One line of ``text`` in vocabulary ``to`` (a family's own form, or a family): what ``convert --to`` prints."""
    from ..convert import convert_to  # lazy: deprecated alias of the bridge (remove by 2027-06-01)
    from ..facts import canonical_text  # lazy: as above

    value = _read(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape)
    fam = record(value)
    if to in fam.forms:
        return fam.form(value, to, mesh_shape=mesh_shape)
    return canonical_text(convert_to(value, to))


def scene(text, shape=None, mesh=None, mesh_shape=None, max_cells=None):
    """The picture of a sharding or XLA layout text (``viz.scene`` of what ``unilayout.read`` gives)."""
    from .. import viz  # lazy: deprecated alias of the picture face (remove by 2027-06-01)

    value = _read(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape)
    return viz.scene(value, max_cells=max_cells or viz.DEFAULT_MAX_CELLS)


def view(text, shape=None, mesh=None, mesh_shape=None) -> dict:
    """The explorer's view of a sharding or XLA layout text (``explorer.text_view``)."""
    from ..explorer.views import text_view  # lazy: deprecated alias of the explorer (remove by 2027-06-01)

    return text_view(text, shape)


def is_sharding_text(text) -> bool:
    """Whether the registry reads ``text`` as a sharding or an XLA layout.

    >>> is_sharding_text("{replicated}"), is_sharding_text("f32[4,4]{1,0}"), is_sharding_text("(4,2):(2,1)")
    (True, True, False)
    """
    wing = detect(text) if isinstance(text, str) else None
    return wing is not None and wing.name in ("sharding", "xla")


def is_xla(text) -> bool:
    """Whether the registry reads ``text`` as an XLA layout (``f32[4,4]{1,0}``).

    >>> is_xla(" bf16[8]{0}"), is_xla("{replicated}")
    (True, False)
    """
    wing = detect(text) if isinstance(text, str) else None
    return wing is not None and wing.name == "xla"


def __getattr__(name):
    if name in _MOVED:
        from ..cli import sharding as verb  # lazy: deprecated alias of the command (remove by 2027-06-01)

        return getattr(verb, name)
    raise AttributeError(f"module 'unilayout.sharding.command' has no attribute {name!r}")
