"""What unilayout says about a layout value: the facts of ``unilayout show`` and of the explorer, in one place.

Every family answers the same few questions about a value, computed from its
table (``unilayout.index_map``) or from the family's own exact test:

- **size / cosize**: how many domain points, how many codomain slots;
- **injective / surjective / bijective**: do two points share a value, is
  every value in ``0..cosize-1`` held;
- **contiguity** (the vector width): the largest power of two ``v`` such that
  each aligned run of ``v`` domain points holds ``v`` consecutive values
  starting at a multiple of ``v`` — how wide a vector load can be;
- **longest_run**: the longest stretch of consecutive points holding
  consecutive values (aligned or not);
- **padding** (metal layouts): slots of the shards that hold no element.

A worked example: ``(2,4):(4,1)`` walks its 8 points (column-major 1-D order,
mode 0 fastest) to ``0 4 1 5 2 6 3 7``; no aligned pair is consecutive, so
the contiguity is 1, and no two neighbours are consecutive either:

>>> from unilayout import cute
>>> d = describe(cute.Layout((2, 4), (4, 1)))
>>> d["size"], d["cosize"], d["bijective"], d["contiguity"], d["longest_run"]
(8, 8, True, 1, 1)

while its transpose ``(2,4):(1,2)`` holds ``0..7`` in order, one vector of 8:

>>> d = describe(cute.Layout((2, 4), (1, 2)))
>>> d["contiguity"], d["longest_run"]
(8, 8)

``describe`` gives the facts as an ordered dict (the ``show --json`` object);
``fact_lines`` turns them into ``(name, text)`` pairs with the glosses
``show`` prints and the explorer lists, so both say the same facts in the same
words; ``summary`` is the one-line form of the explorer's header; ``checks``
is what ``unilayout check`` reports. Values above ``MAX_TABULATE`` points are
described without their table (a ``note`` says so).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from ._families import family_of
from ._ints import check_table
from .errors import LayoutError

__all__ = ["describe", "fact_lines", "format_facts", "summary", "checks", "canonical_text", "vector_width",
           "longest_run", "injectivity", "MAX_TABULATE"]

#: Largest number of points whose table is computed for the facts (bigger ones get a ``note``).
MAX_TABULATE = 1 << 24


def vector_width(values) -> int:
    """Largest power of two v: each aligned run of v domain points holds v consecutive, v-aligned values.

    ``[0, 1, 2, 3, 8, 9, 10, 11]`` is two aligned runs of 4 (starting at 0
    and 8); runs of 8 would need ``4`` after ``3``. ``[1, 2]`` is consecutive
    but starts at an odd value, so no pair is aligned.

    >>> vector_width([0, 1, 2, 3, 8, 9, 10, 11]), vector_width([0, 2, 1, 3]), vector_width([1, 2])
    (4, 1, 1)
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    n = v.size
    best = 1
    w = 2
    # bad[i]: steps j < i (from point j to j+1) that are not +1; one pass, then O(n / w) per width.
    if n > 1:
        steps = np.diff(v) != 1
        if steps.all() or v[0] % 2:  # nothing is consecutive, or the first pair is not aligned
            return 1
        bad = np.concatenate(([0], np.cumsum(steps, dtype=np.int32 if n < 1 << 31 else np.int64)))
    while w <= n and n % w == 0:
        # block b covers points b*w .. b*w+w-1: its steps b*w .. b*w+w-2 (strided views, no copies)
        if (bad[w - 1::w] != bad[0:n:w]).any() or (v[0:n:w] & (w - 1)).any():
            break
        best = w
        w *= 2
    return best


def longest_run(values) -> int:
    """Longest stretch of consecutive domain points whose values are consecutive (+1 each step); 0 when empty.

    >>> longest_run([0, 1, 2, 8, 9, 3]), longest_run([5]), longest_run([])
    (3, 1, 0)
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    if v.size == 0:
        return 0
    breaks = np.flatnonzero(np.diff(v) != 1)
    edges = np.concatenate(([-1], breaks, [v.size - 1]))
    return int(np.diff(edges).max())


def injectivity(values, lo=None, hi=None):
    """``(injective, surjective)`` of a table of ints: no value twice; every value of ``lo..hi`` present.

    ``lo`` / ``hi`` default to the table's minimum and maximum.

    >>> injectivity([0, 2, 1]), injectivity([0, 0, 2]), injectivity([0, 2], 0, 2)
    ((True, True), (False, False), (True, False))
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    if v.size == 0:
        return True, True
    lo = int(v.min()) if lo is None else int(lo)
    hi = int(v.max()) if hi is None else int(hi)
    span = hi - lo + 1
    if span <= 4 * v.size + 1024:
        counts = np.bincount(v - lo, minlength=span)
        return bool((counts <= 1).all()), bool((counts >= 1).all())
    u = np.unique(v)
    return u.size == v.size, u.size == span


def _ttnn_config(value) -> bool:
    """A tt ``MemoryConfig`` / ``NdShardSpec`` (TTNN placements without a tensor shape) or ``TTNNNDTensorLayout``
    (an ND-sharded tensor, not a grid split): TTNN values in no layout family."""
    tt = sys.modules.get("unilayout.tt")
    return tt is not None and isinstance(value, (tt.MemoryConfig, tt.NdShardSpec, tt.TTNNNDTensorLayout))


def canonical_text(value) -> str:
    """The text of a value that ``unilayout.parse`` reads back (a shared linear layout: Triton's bases).

    >>> from unilayout import linear, tt
    >>> canonical_text(linear.identity_1d(2, "register", "dim0") * linear.identity_1d(2, "lane", "dim0")
    ...                * linear.zeros_1d(1, "warp", "dim0") * linear.zeros_1d(1, "block", "dim0"))
    '#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>'
    >>> canonical_text(tt.MetalLayout.from_collapse((4, 4), (1, 1)))[:14]
    'tensor<4x4xf32'
    """
    if _ttnn_config(value):
        return str(value)
    fam = family_of(value)
    if fam == "linear":
        try:
            return value.to_attr()
        except LayoutError:  # offset/block (shared) layouts have no #ttg.linear form
            return str(value).strip("\n")
    if fam == "metal":
        return value.tensor_type()
    return str(value)


def _tuple_text(t):
    if isinstance(t, tuple):
        return "(" + ",".join(_tuple_text(x) for x in t) + ")"
    return str(t)


def _table_facts(d, vals, lo=None, hi=None, run=True):
    inj, sur = injectivity(vals, lo, hi)
    d["injective"], d["surjective"], d["bijective"] = inj, sur, inj and sur
    d["contiguity"] = vector_width(vals)
    if run:
        d["longest_run"] = longest_run(vals)


def _facts_cute(L, d, shape):
    from . import cute
    from .viz.cute import swizzle_layout

    if isinstance(L, cute.Swizzle):
        d["bits"], d["base"], d["shift"] = L.bits, L.base, L.shift
        L = swizzle_layout(L)
        d["view"] = str(L)
    elif isinstance(L, cute.ComposedLayout):
        d["swizzle"], d["offset"], d["inner"] = str(L.outer), L.offset, str(L.inner)
    else:
        d["shape"], d["stride"] = _tuple_text(L.shape), _tuple_text(L.stride)
    d["size"], d["cosize"], d["rank"], d["depth"] = int(L.size), int(L.cosize), int(L.rank), int(L.depth)
    if L.size > MAX_TABULATE:
        d["note"] = f"size {L.size:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
        return
    _table_facts(d, cute.index_map(L), 0, int(L.cosize) - 1)


def _facts_linear(L, d, shape):
    d["in_dims"] = {n: int(L.in_dim_size(n)) for n in L.in_dim_names}
    d["out_dims"] = {n: int(L.out_dim_size(n)) for n in L.out_dim_names}
    d["size"], d["cosize"] = int(L.total_in_dim_size), int(L.total_out_dim_size)
    d["injective"], d["surjective"] = bool(L.is_injective()), bool(L.is_surjective())
    d["bijective"] = d["injective"] and d["surjective"]
    d["contiguity"] = int(L.num_consecutive_in_out())


def _facts_affine(m, d, shape):
    d["num_dims"], d["num_symbols"], d["num_results"] = int(m.num_dims), int(m.num_symbols), int(m.num_results)
    if shape is None:
        d["note"] = "an affine map has no box of its own: give --shape (e.g. --shape 8x8) to tabulate it"
        return
    shape = tuple(int(s) for s in shape)
    if len(shape) != m.num_dims:
        raise LayoutError(f"shape {'x'.join(map(str, shape))} has {len(shape)} sizes but the map has {m.num_dims} dims")
    d["shape"] = list(shape)
    d["size"] = int(np.prod(shape, dtype=np.int64))
    if m.num_symbols:
        d["note"] = "the map has symbols: not tabulated"
        return
    d["bounds"] = [list(b) for b in m.bounds(shape)]
    if d["size"] > MAX_TABULATE:
        d["note"] = f"size {d['size']:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
        return
    vals = m.index_map(shape)
    d["injective"] = bool(np.unique(vals, axis=0).shape[0] == vals.shape[0])
    if m.num_results == 1:
        d["contiguity"] = vector_width(vals[:, 0])


def _facts_tsl(t, d, shape):
    d["offset"] = t.offset
    d["dynamic"] = bool(t.is_dynamic)
    if t.is_dynamic:
        d["note"] = "the layout has '?' values: not tabulated (resolve it for a shape)"
        return
    d["shape"] = list(t.shape)
    d["size"] = int(t.size)
    try:
        d["dense"] = bool(t.is_dense())
        d["injective"] = not bool(t.self_overlaps())
    except LayoutError as e:  # too many points to decide by table
        d["note"] = f"density and injectivity not decided: {e}"
        return
    if t.size <= MAX_TABULATE:
        vals = t.index_map()
        d["addresses"] = [int(vals.min()), int(vals.max())] if vals.size else []
        d["contiguity"] = vector_width(vals)
        d["longest_run"] = longest_run(vals)


#: Slots above which a metal layout's padding is counted per core by formula, not by its padding mask.
MAX_MASK_SLOTS = 1 << 22


def padding_summary(ml):
    """``ml.padding_summary()``, in constant time and memory when ``ml``'s map is the identity on a huge layout.

    With the identity map every physical slot inside the data extent holds an
    element, so a core's padding slots are its padded shard's volume minus the
    product of its data extents (no mask of every slot is built; a
    65536x65536 layout answers at once). Any other map, or a layout of at
    most ``MAX_MASK_SLOTS`` slots, asks ``tt`` (exact for every map).

    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))
    >>> import unilayout.facts as F
    >>> old, F.MAX_MASK_SLOTS = F.MAX_MASK_SLOTS, 0
    >>> fast = padding_summary(ml)
    >>> F.MAX_MASK_SLOTS = old
    >>> fast.slots.tolist() == ml.padding_summary().slots.tolist(), fast.total
    (True, 2805)
    """
    slots = math.prod(ml.shards_shape)  # exact: np.prod in int64 wraps for huge grids
    dims = ", ".join(f"d{i}" for i in range(len(ml.logical_shape)))
    if slots <= MAX_MASK_SLOTS or str(ml.linear) != f"({dims}) -> ({dims})" or getattr(ml, "interleaved_pages", False):
        return ml.padding_summary()
    cores = math.prod(ml.grid)
    check_table(cores * (len(ml.grid) + 2), f"padding_summary: a grid of {cores} cores")  # before np.indices
    G = np.indices(ml.grid, dtype=np.int64)
    extent = np.stack(
        [np.clip(P - G[i] * s, 0, s) for i, (P, s) in enumerate(zip(ml.physical_shape, ml.shard_shape))], axis=-1
    )
    padded = np.asarray(ml.padded_shard_shape, dtype=np.int64)
    per_core = int(np.prod(padded, dtype=np.int64))
    counts = per_core - np.prod(extent, axis=-1, dtype=np.int64)
    from .tt.shard import PaddingSummary

    return PaddingSummary(extent, padded - extent, counts, int(counts.sum()))


def _facts_metal(ml, d, shape):
    d["logical_shape"] = list(ml.logical_shape)
    d["element_type"] = ml.element_type
    d["linear"] = str(ml.linear)
    d["grid"] = list(ml.grid)
    d["physical_shape"] = list(ml.physical_shape)
    d["shard_shape"] = list(ml.shard_shape)
    d["memref_shape"] = list(ml.memref_shape)
    d["tile"] = list(ml.tile) if ml.tile else None
    d["memory_space"] = ml.memory_space
    d["oob_val"] = ml.oob_val
    if hasattr(ml, "dim_alignments"):  # tt.MetalLayoutV2
        d["dim_alignments"] = list(ml.dim_alignments)
        d["collapsed_intervals"] = [list(p) for p in ml.collapsed_intervals]
        d["device_shape"] = list(ml.device_shape)
    if hasattr(ml, "buffer_type"):  # tt.TTNNTensorLayout
        d["buffer_type"] = ml.buffer_type
    if hasattr(ml, "memory_layout"):
        d["memory_layout"] = ml.memory_layout
    d["size"] = int(ml.volume)
    slots = int(np.prod(ml.shards_shape, dtype=np.int64))
    d["cosize"] = slots
    s = padding_summary(ml)
    d["padding"] = {"slots": int(s.total), "fraction": round(s.total / slots, 4) if slots else 0.0}
    if ml.volume > MAX_TABULATE:
        d["note"] = f"{ml.volume:,} elements: injectivity and contiguity not tabulated"
        return
    try:
        ml.check_injective()
    except LayoutError as e:
        d["injective"] = False
        d["injective_reason"] = str(e)
        return
    d["injective"] = True
    flat = ml.index_map()
    d["contiguity"] = vector_width(flat)
    d["longest_run"] = longest_run(flat)


def _facts_device(dev, d, shape):
    d["grid_shape"] = list(dev.grid_shape)
    d["grid_map"] = str(dev.grid_map)
    d["mesh_shape"] = list(dev.mesh_shape)
    d["chip_ids"] = list(dev.chip_ids)
    d["cores"] = int(np.prod(dev.grid_shape, dtype=np.int64))
    try:
        dev.validate()
        d["valid"] = True
    except LayoutError as e:
        d["valid"] = False
        d["reason"] = str(e)


def _facts_xla(x, d, shape):
    """An XLA tiled layout (``sharding.XlaLayout``): its buffer, its exact affine / CuTe / metal forms or why not."""
    from .errors import NotRepresentableError

    d["shape"], d["element_type"] = list(x.dims), x.element_type
    d["minor_to_major"], d["tiles"] = list(x.minor_to_major), [list(t) for t in x.tiles]
    d["buffer_shape"], d["size"], d["cosize"] = list(x.buffer_shape), math.prod(x.dims), int(x.storage_size)
    d["padded"] = bool(x.padded)
    d["affine"] = str(x.to_affine())
    for key, make in (("cute", x.to_cute), ("metal", x.to_metal)):
        try:
            d[key] = canonical_text(make())
        except NotRepresentableError as e:
            d[key] = f"not representable: {e}"
    if d["size"] > MAX_TABULATE:
        d["note"] = f"size {d['size']:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
        return
    _table_facts(d, x.offsets().reshape(-1), 0, d["cosize"] - 1)


_FACTS = {"cute": _facts_cute, "linear": _facts_linear, "affine": _facts_affine, "tsl": _facts_tsl,
          "metal": _facts_metal, "device": _facts_device, "xla": _facts_xla}


def describe(value, shape=None) -> dict:
    """The facts of a value as an ordered dict (``unilayout show --json`` without the tables).

    Keys common to the families: ``family``, ``text`` (``canonical_text``),
    ``size``, ``cosize``, ``injective``, ``surjective``, ``bijective``,
    ``contiguity``, ``longest_run``, ``note``; then each family's own
    (CuTe ``shape``/``stride``/``rank``/``depth``, linear ``in_dims``/``out_dims``,
    TSL ``offset``/``dense``, metal ``grid``/``padding``, device ``valid`` ...).
    A fact that does not apply, or was not tabulated, is absent. ``shape`` is
    the box an affine map is tabulated on (other families ignore it). A bare
    ``#ttnn.memory_config`` / ``#ttnn.nd_shard_spec`` (no tensor shape, so in
    no family) gives ``family`` ``"ttnn"``, its ``text`` and its fields
    (``tt.ttnn_attrs.config_facts``).

    >>> from unilayout import tsl
    >>> d = describe(tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"))
    >>> d["family"], d["size"], d["offset"], d["injective"], d["contiguity"]  # offset 5 misaligns vectors
    ('tsl', 64, 5, True, 1)
    >>> describe("8:1")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: describe takes a layout value, not text: read '8:1' with unilayout.parse first
    """
    if isinstance(value, str):
        raise LayoutError(f"describe takes a layout value, not text: read {value!r} with unilayout.parse first")
    if _ttnn_config(value):  # a #ttnn.memory_config / #ttnn.nd_shard_spec: its fields (no shape, no table)
        from .tt.ttnn_attrs import config_facts

        return {"family": "ttnn", "text": str(value), **config_facts(value)}
    fam = family_of(value)
    d = {"family": fam, "text": canonical_text(value)}
    _FACTS[fam](value, d, shape)
    return d


def _yes(b):
    return "yes" if b else "no"


def _plain(key, v):
    if isinstance(v, bool):
        return _yes(v)
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        if all(isinstance(x, int) for x in v) and key.endswith(("shape", "grid", "tile")):
            return "x".join(str(x) for x in v)
        return str(v)
    if isinstance(v, dict):
        return ", ".join(f"{a}={b}" for a, b in v.items())
    return str(v)


def fact_lines(d) -> list:
    """``[(name, text)]``: the facts of ``describe`` in words, as ``show`` prints them and the explorer lists them.

    >>> from unilayout import cute
    >>> dict(fact_lines(describe(cute.Layout(4, 1))))["contiguity"]
    '4 (vectorisation width: aligned runs of 4 points hold 4 consecutive values)'
    """
    fam = d.get("family")
    out = []
    for k, v in d.items():
        text = _plain(k, v)
        if k == "surjective" and fam == "cute" and v is True:
            text = f"yes (onto 0..{d['cosize'] - 1})"
        elif k == "contiguity" and fam == "linear":
            text = f"{v} (consecutive elements held in consecutive registers: Triton's num_consecutive_in_out)"
        elif k == "contiguity":
            text = f"{v} (vectorisation width: aligned runs of {v} points hold {v} consecutive values)"
        elif k == "longest_run":
            text = f"{v} (longest run of consecutive points holding consecutive values)"
        out.append((k, text))
    return out


def format_facts(d) -> str:
    """The facts as ``unilayout show`` prints them: one ``name: text`` line each, names aligned.

    A value of several lines (a linear layout's ``toString``) continues under
    the first, so the names stay in their column.

    >>> from unilayout import cute
    >>> print(format_facts(describe(cute.Layout(2, 1))).splitlines()[5])
    cosize:         2
    """
    pad = "\n" + " " * 16
    return "\n".join(f"{k + ':':<15} {pad.join(str(v).strip(chr(10)).splitlines())}" for k, v in fact_lines(d))


def summary(d) -> str:
    """One line of the headline facts (size, cosize, injectivity, contiguity, padding) for the explorer's header.

    >>> from unilayout import cute
    >>> summary(describe(cute.Layout((2, 2), (2, 1))))
    'size 4, cosize 4, bijective, contiguity 1'
    """
    parts = [f"{k} {d[k]}" for k in ("size", "cosize") if k in d]
    if d.get("bijective"):
        parts.append("bijective")
    elif "injective" in d:
        parts.append("injective" if d["injective"] else "not injective")
    if "contiguity" in d:
        parts.append(f"contiguity {d['contiguity']}")
    if "padding" in d:
        parts.append(f"{d['padding']['slots']} padding slots")
    if "valid" in d:
        parts.append("valid" if d["valid"] else "invalid: " + d["reason"])
    return ", ".join(parts)


def checks(value) -> list:
    """What ``unilayout check`` reports: ``[{"check", "ok", "detail"}]``, the value valid when every ``ok`` holds.

    Properties that are not errors (a CuTe layout that is not injective)
    are listed as passing checks whose detail says yes or no.

    >>> from unilayout import cute
    >>> [(c["check"], c["ok"], c["detail"]) for c in checks(cute.Layout(2, 0))][1]
    ('injective', True, 'no (a property, not an error)')
    """
    d = describe(value)
    fam = d["family"]
    out = [{"check": "parses", "ok": True, "detail": d["text"]}]
    if fam == "metal":
        out.append({"check": "memref matches map and grid", "ok": True, "detail": str(value.memref_shape)})
        if "injective" in d:
            out.append({"check": "injective (no two elements share a slot)", "ok": d["injective"],
                        "detail": d.get("injective_reason", "")})
    elif fam == "device":
        out.append({"check": "valid worker grid (chips exist, cores distinct)", "ok": d["valid"],
                    "detail": d.get("reason", "")})
    elif fam == "tsl":
        if d["dynamic"]:
            out.append({"check": "static", "ok": True, "detail": "has '?' values (resolved at lowering)"})
        else:
            out.append({"check": "no self-overlap", "ok": True, "detail": _yes(d["injective"])})
    elif fam in ("cute", "linear", "xla"):
        for key in ("injective", "surjective"):
            if key in d:
                out.append({"check": key, "ok": True, "detail": _yes(d[key]) + " (a property, not an error)"})
    return out
