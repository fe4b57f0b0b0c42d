"""The ``unilayout`` command: show, convert, check and render any layout text, and a guided tour.

    unilayout show TEXT [--json] [--shape 8x8]
    unilayout convert TEXT --to cute|linear|affine|tsl [--shape 8x8]
    unilayout check TEXT [--json]
    unilayout render TEXT -o FILE.svg|png|html [--color index|thread|bank|warp|register] [--tv MxN] [--place TENSOR]
    unilayout serve [--port N]
    unilayout tour [-o DIR]

TEXT is any text form unilayout reads (CuTe ``(4,2):(2,1)``, ``#ttg.linear<{...}>``,
``#tsl.tsl<...>``, an affine map, ``tensor<..., #tt.metal_layout<...>>``,
``#tt.device<...>``), or ``-`` for standard input. Bad input exits with
status 2 and a short message pointing at the problem, never a traceback.

>>> main(["--version"])  # doctest: +ELLIPSIS
unilayout ...
0
>>> main(["show", "(2,2):(1,2)"])
family:         cute
text:           (2,2):(1,2)
shape:          (2,2)
stride:         (1,2)
size:           4
cosize:         4
rank:           2
depth:          1
injective:      yes
surjective:     yes (onto 0..3)
bijective:      yes
contiguity:     4 (vectorisation width: aligned runs of 4 points hold 4 consecutive values)
longest_run:    4 (longest run of consecutive points holding consecutive values)
<BLANKLINE>
(2,2):(1,2)
      0   1 
    +---+---+
 0  | 0 | 2 |
    +---+---+
 1  | 1 | 3 |
    +---+---+
0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from . import __version__
from .errors import LayoutError, ParseError

__all__ = ["main", "parse_text", "describe", "canonical_text", "family", "vector_width", "longest_run", "TOUR"]

#: Largest number of points the command tabulates for show/check (bigger ones report "not tabulated").
MAX_TABULATE = 1 << 24
#: Cells at most in a printed table.
MAX_TABLE_CELLS = 4096


# ------------------------------------------------------------------------------------------------
# Parsing and naming (unilayout.parse and unilayout.convert do the work; these are thin adapters)
# ------------------------------------------------------------------------------------------------


def parse_text(text):
    """The value of any layout text: ``unilayout.parse`` (which detects the family).

    >>> str(parse_text("  (4,2):(2,1) "))
    '(4,2):(2,1)'
    """
    import unilayout

    if not isinstance(text, str) or not text.strip():
        raise LayoutError("expected layout text, got nothing (give TEXT, or '-' to read standard input)")
    return unilayout.parse(text)


def family(value) -> str:
    """Family name of a value: cute, linear, affine, tsl, metal or device (``unilayout.convert.family_of``).

    >>> from unilayout import cute
    >>> family(cute.Layout(4, 1))
    'cute'
    """
    from .convert import family_of

    return family_of(value)


def canonical_text(value) -> str:
    """The canonical text of a value (what ``unilayout.parse`` reads back).

    >>> from unilayout import linear
    >>> canonical_text(linear.identity_1d(2, "register", "dim0") * linear.identity_1d(2, "lane", "dim0")
    ...                * linear.zeros_1d(1, "warp", "dim0") * linear.zeros_1d(1, "block", "dim0"))
    '#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>'
    """
    fam = family(value)
    if fam == "linear":
        try:
            return value.to_attr()
        except LayoutError:
            return str(value).strip("\n")
    if fam == "metal":
        return value.tensor_type()
    return str(value)


def _dims(text):
    """``"8x8"`` or ``"8,8"`` -> (8, 8)."""
    if text is None:
        return None
    parts = [p for p in text.replace(",", "x").lower().split("x") if p.strip()]
    try:
        dims = tuple(int(p) for p in parts)
    except ValueError:
        raise LayoutError(f"expected sizes like 8x8, got {text!r}") from None
    if not dims or any(d < 1 for d in dims):
        raise LayoutError(f"expected positive sizes like 8x8, got {text!r}")
    return dims


# ------------------------------------------------------------------------------------------------
# Facts
# ------------------------------------------------------------------------------------------------


def vector_width(values) -> int:
    """Largest power of two v: each aligned run of v domain points holds v consecutive, v-aligned values.

    >>> vector_width([0, 1, 2, 3, 8, 9, 10, 11]), vector_width([0, 2, 1, 3]), vector_width([1, 2])
    (4, 1, 1)
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    n = v.size
    best = 1
    w = 2
    while w <= n and n % w == 0:
        runs = v.reshape(-1, w)
        if not ((runs - runs[:, :1] == np.arange(w)).all() and (runs[:, 0] % w == 0).all()):
            break
        best = w
        w *= 2
    return best


def longest_run(values) -> int:
    """Longest stretch of consecutive domain points whose values are consecutive (+1 each step).

    >>> longest_run([0, 1, 2, 8, 9, 3])
    3
    """
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    if v.size == 0:
        return 0
    breaks = np.flatnonzero(np.diff(v) != 1)
    edges = np.concatenate(([-1], breaks, [v.size - 1]))
    return int(np.diff(edges).max())


def _injectivity(values, lo=None, hi=None):
    """(injective, surjective onto lo..hi) of an int array."""
    v = np.asarray(values, dtype=np.int64).reshape(-1)
    if v.size == 0:
        return True, True
    lo = int(v.min()) if lo is None else lo
    hi = int(v.max()) if hi is None else hi
    span = hi - lo + 1
    if span <= 4 * v.size + 1024:
        counts = np.bincount(v - lo, minlength=span)
        return bool((counts <= 1).all()), bool((counts >= 1).all())
    u = np.unique(v)
    return u.size == v.size, u.size == span


def _yes(b):
    return "yes" if b else "no"


def describe(value, shape=None):
    """An ordered dict of the facts ``show`` prints (the ``--json`` object without the tables).

    >>> from unilayout import tsl
    >>> d = describe(tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"))
    >>> d["family"], d["size"], d["offset"], d["injective"], d["contiguity"]  # offset 5 misaligns vectors
    ('tsl', 64, 5, True, 1)
    """
    fam = family(value)
    d = {"family": fam, "text": canonical_text(value)}
    fn = {"cute": _facts_cute, "linear": _facts_linear, "affine": _facts_affine, "tsl": _facts_tsl,
          "metal": _facts_metal, "device": _facts_device}[fam]
    fn(value, d, shape)
    return d


def _facts_cute(L, d, shape):
    from . import cute
    from .viz.cute import swizzle_layout

    if isinstance(L, cute.Swizzle):
        d["bits"], d["base"], d["shift"] = L.bits, L.base, L.shift
        d["view"] = str(swizzle_layout(L))
        L = swizzle_layout(L)
    elif isinstance(L, cute.ComposedLayout):
        d["swizzle"] = str(L.outer)
        d["offset"] = L.offset
        d["inner"] = str(L.inner)
    else:
        d["shape"] = _tuple_text(L.shape)
        d["stride"] = _tuple_text(L.stride)
    d["size"], d["cosize"], d["rank"], d["depth"] = int(L.size), int(L.cosize), int(L.rank), int(L.depth)
    if L.size <= MAX_TABULATE:
        vals = cute.index_map(L)
        inj, sur = _injectivity(vals, 0, int(L.cosize) - 1)
        d["injective"], d["surjective"], d["bijective"] = inj, sur, inj and sur
        d["contiguity"] = vector_width(vals)
        d["longest_run"] = longest_run(vals)
    else:
        d["note"] = f"size {L.size:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"


def _tuple_text(t):
    if isinstance(t, tuple):
        return "(" + ",".join(_tuple_text(x) for x in t) + ")"
    return str(t)


def _facts_linear(L, d, shape):
    d["in_dims"] = {n: int(L.in_dim_size(n)) for n in L.in_dim_names}
    d["out_dims"] = {n: int(L.out_dim_size(n)) for n in L.out_dim_names}
    d["size"] = int(L.total_in_dim_size)
    d["cosize"] = int(L.total_out_dim_size)
    d["injective"], d["surjective"] = bool(L.is_injective()), bool(L.is_surjective())
    d["bijective"] = d["injective"] and d["surjective"]
    d["contiguity"] = int(L.num_consecutive_in_out())


def _facts_affine(m, d, shape):
    d["num_dims"], d["num_symbols"], d["num_results"] = int(m.num_dims), int(m.num_symbols), int(m.num_results)
    if shape is None:
        d["note"] = "an affine map has no box of its own: give --shape (e.g. --shape 8x8) to tabulate it"
        return
    if len(shape) != m.num_dims:
        raise LayoutError(f"--shape {'x'.join(map(str, shape))} has {len(shape)} sizes but the map has {m.num_dims} dims")
    d["shape"] = list(shape)
    d["size"] = int(np.prod(shape, dtype=np.int64))
    if m.num_symbols:
        d["note"] = "the map has symbols: not tabulated"
        return
    d["bounds"] = [list(b) for b in m.bounds(tuple(shape))]
    if d["size"] <= MAX_TABULATE:
        vals = m.index_map(tuple(shape))
        u = np.unique(vals, axis=0)
        d["injective"] = bool(u.shape[0] == vals.shape[0])
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
    d["dense"] = bool(t.is_dense())
    d["injective"] = not bool(t.self_overlaps())
    if t.size <= MAX_TABULATE:
        vals = t.index_map()
        d["addresses"] = [int(vals.min()), int(vals.max())] if vals.size else []
        d["contiguity"] = vector_width(vals)
        d["longest_run"] = longest_run(vals)


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
    d["size"] = int(ml.volume)
    slots = int(np.prod(ml.shards_shape, dtype=np.int64))
    d["cosize"] = slots
    s = ml.padding_summary()
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


# ------------------------------------------------------------------------------------------------
# Tables
# ------------------------------------------------------------------------------------------------


def _tables(value, shape, max_cells):
    """``[(title, text)]``: the readable tables of ``show``."""
    fam = family(value)
    if fam == "cute":
        return _tables_cute(value, max_cells)
    if fam == "linear":
        return _tables_linear(value, max_cells)
    if fam == "tsl":
        if value.is_dynamic or value.size > max_cells:
            return [("addresses", f"(not shown: {'dynamic' if value.is_dynamic else f'{value.size:,} points'})")]
        return [("addresses (row-major box; rows x last dim)", _grid_text(value.index_map(), value.shape))]
    if fam == "affine":
        if shape is None or value.num_symbols or int(np.prod(shape)) > max_cells:
            return []
        vals = value.index_map(tuple(shape))
        return [("values (row-major box; rows x last dim)", _grid_text(vals, tuple(shape)))]
    if fam == "metal":
        from .viz.tt import shard_grid, shard_table

        return [("grid of shards (each core: data extent +padding per dim)", shard_grid(value)),
                ("per core", shard_table(value))]
    if fam == "device":
        return [("chip of each logical core", _device_text(value, max_cells))]
    return []


def _tables_cute(L, max_cells):
    from . import cute
    from .viz.cute import swizzle_layout

    if isinstance(L, cute.Swizzle):
        L = swizzle_layout(L)
    if L.size > max_cells:
        return [("table", f"(not shown: {L.size:,} cells > {max_cells:,}; use --max-cells or render)")]
    if L.rank <= 2:
        return [("", cute.layout_table(L))]
    rows = cute.size(L[0])
    vals = cute.index_map(L).reshape(-1, rows).T
    return [(f"rank {L.rank}: rows = mode 0, columns = modes 1.. (1-D order)", _grid_text(vals.reshape(-1), vals.shape))]


def _tables_linear(L, max_cells):
    from .viz.linear import hardware_view, shared_hardware_view, shared_tensor_view, tensor_view

    out = [("bases (Triton)", str(L).strip("\n"))]
    hw = {"register", "lane", "warp", "block"}
    n = int(L.total_in_dim_size)
    if set(L.in_dim_names) <= hw and "lane" in L.in_dim_names:
        if n > max_cells:
            out.append(("views", f"(not shown: {n:,} inputs > {max_cells:,}; use --max-cells or render)"))
        else:
            out.append(("hardware view (Triton get_distributed_view(True))", hardware_view(L).rstrip("\n")))
            out.append(("tensor view (Triton get_distributed_view(False))", tensor_view(L).rstrip("\n")))
    elif "offset" in L.in_dim_names and set(L.in_dim_names) <= {"offset", "block"}:
        if int(L.total_out_dim_size) > max_cells:
            out.append(("views", f"(not shown: {int(L.total_out_dim_size):,} elements > {max_cells:,})"))
        else:
            try:
                out.append(("hardware view (Triton get_shared_view(True))", shared_hardware_view(L).rstrip("\n")))
                out.append(("tensor view (Triton get_shared_view(False))", shared_tensor_view(L).rstrip("\n")))
            except LayoutError as e:
                out.append(("views", f"(not shown: {e})"))
    return out


def _grid_text(values, shape):
    v = np.asarray(values)
    shape = tuple(shape) or (1,)
    cols = shape[-1]
    if v.ndim == 2 and v.shape[1] > 1:
        cells = [",".join(str(x) for x in row) for row in v.tolist()]
    else:
        cells = [str(x) for x in v.reshape(-1).tolist()]
    w = max([len(c) for c in cells] + [len(str(cols - 1))])
    rows = [cells[i : i + cols] for i in range(0, len(cells), cols)]
    hw = len(str(len(rows) - 1))
    head = " " * (hw + 2) + " ".join(f"{j:>{w}}" for j in range(cols))
    return "\n".join([head] + [f"{i:>{hw}}  " + " ".join(f"{c:>{w}}" for c in r) for i, r in enumerate(rows)])


def _device_text(dev, max_cells):
    phys = dev.physical_cores()
    chips = phys[..., 0]
    grid = tuple(dev.grid_shape)
    lines = []
    for cid in np.unique(chips).tolist():
        lines.append(f"chip {cid}: {int((chips == cid).sum())} cores")
    if chips.size <= max_cells:
        rows = chips.reshape(-1, grid[-1])
        lines.append("")
        lines.append(_grid_text(rows.reshape(-1), rows.shape))
    return "\n".join(lines)


def _format_facts(d):
    lines = []
    for k, v in d.items():
        if isinstance(v, bool):
            v = _yes(v)
        elif v is None:
            v = "none"
        elif isinstance(v, (list, tuple)):
            v = "x".join(str(x) for x in v) if all(isinstance(x, int) for x in v) and k.endswith(("shape", "grid", "tile")) \
                else str(v)
        elif isinstance(v, dict):
            v = ", ".join(f"{a}={b}" for a, b in v.items())
        lines.append((k, str(v)))
    # A few readable glosses.
    out = []
    for k, v in lines:
        if k == "surjective" and d.get("family") == "cute" and v == "yes":
            v = f"yes (onto 0..{d['cosize'] - 1})"
        if k == "contiguity" and d.get("family") in ("cute", "tsl", "metal", "affine"):
            w = d["contiguity"]
            v = f"{w} (vectorisation width: aligned runs of {w} points hold {w} consecutive values)"
        if k == "longest_run":
            v = f"{v} (longest run of consecutive points holding consecutive values)"
        if k == "contiguity" and d.get("family") == "linear":
            v = f"{d['contiguity']} (consecutive elements held in consecutive registers: Triton's num_consecutive_in_out)"
        out.append(f"{k + ':':<15} {v}")
    return "\n".join(out)


# ------------------------------------------------------------------------------------------------
# Subcommands
# ------------------------------------------------------------------------------------------------


def _read_text(text):
    if text == "-":
        return sys.stdin.read()
    return text


def _cmd_show(args):
    value = parse_text(_read_text(args.text))
    shape = _dims(args.shape)
    facts = describe(value, shape)
    tables = _tables(value, shape, args.max_cells)
    if args.place:
        placed, summary = _placement_summary(value, args.place)
        facts = dict(facts)
        facts["placed"] = canonical_text(placed)
        facts["devices"] = [d._asdict() for d in summary.devices]
        tables.append(("per-device shards", summary.text().rstrip("\n")))
    if args.json:
        facts = dict(facts)
        facts["tables"] = {t or "table": body for t, body in tables}
        print(json.dumps(facts, indent=2, default=_json_default))
        return 0
    print(_format_facts(facts))
    for title, body in tables:
        print()
        if title:
            print(title + ":")
        print(body)
    return 0


def _placement_summary(device, tensor_text):
    """``(metal layout, distributed.ShardSummary)`` of the tensor ``tensor_text`` placed on ``device``."""
    from . import distributed

    placed = parse_text(tensor_text)
    if family(device) != "device" or family(placed) != "metal":
        raise LayoutError("--place goes with a #tt.device<...> and takes a tensor<..., #tt.metal_layout<...>>")
    return placed, distributed.shard_summary(placed, device)


def _json_default(x):
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def _cmd_convert(args):
    from .convert import convert_to

    value = parse_text(_read_text(args.text))
    options = {}
    shape = _dims(args.shape)
    if shape is not None:
        options["shape"] = shape
    elif family(value) == "affine" and args.to != "affine":
        raise LayoutError(f"an affine map has no box of its own: give --shape (one size per dim, e.g. --shape "
                          f"{'x'.join(['8'] * max(value.num_dims, 1))}) to convert it to {args.to}")
    out = convert_to(value, args.to, **options)
    if isinstance(out, tuple):  # a metal layout's shards
        for s in out:
            print(f"core {s.grid_coord}: origin {s.origin}, offset {s.offset}: {s.layout}")
    else:
        print(canonical_text(out))
    return 0


def _cmd_check(args):
    text = _read_text(args.text)
    try:
        value = parse_text(text)
    except LayoutError as e:
        result = {"valid": False, "error": _error_dict(e)}
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            _print_error(e)
        return 2
    checks = [{"check": "parses", "ok": True, "detail": canonical_text(value)}]
    fam = family(value)
    facts = describe(value)
    if fam == "metal":
        checks.append({"check": "memref matches map and grid", "ok": True, "detail": str(value.memref_shape)})
        if "injective" in facts:
            checks.append({"check": "injective (no two elements share a slot)", "ok": facts["injective"],
                           "detail": facts.get("injective_reason", "")})
    elif fam == "device":
        checks.append({"check": "valid worker grid (chips exist, cores distinct)", "ok": facts["valid"],
                       "detail": facts.get("reason", "")})
    elif fam == "tsl":
        if facts["dynamic"]:
            checks.append({"check": "static", "ok": True, "detail": "has '?' values (resolved at lowering)"})
        else:
            checks.append({"check": "no self-overlap", "ok": True, "detail": _yes(facts["injective"])})
    for key in ("injective", "surjective"):
        if fam in ("cute", "linear") and key in facts:
            checks.append({"check": key, "ok": True, "detail": _yes(facts[key]) + " (a property, not an error)"})
    valid = all(c["ok"] for c in checks)
    result = {"valid": valid, "family": fam, "text": canonical_text(value), "checks": checks}
    if args.json:
        print(json.dumps(result, indent=2, default=_json_default))
    else:
        print(f"{'valid' if valid else 'INVALID'}: {fam} {canonical_text(value)}")
        for c in checks:
            mark = "ok " if c["ok"] else "BAD"
            print(f"  [{mark}] {c['check']}" + (f": {c['detail']}" if c["detail"] else ""))
    return 0 if valid else 2


def _cmd_render(args):
    from . import viz

    args.text = _read_text(args.text)
    value = parse_text(args.text)
    options = {"max_cells": args.max_cells, "element_bytes": args.element_bytes}
    if args.color:
        options["color"] = args.color
    if args.tv:
        options["tv"] = _dims(args.tv)
    if args.shape:
        options["shape"] = _dims(args.shape)
    if args.place:
        placed = parse_text(args.place)
        if family(placed) != "metal":
            raise LayoutError("--place takes a tensor<..., #tt.metal_layout<...>> to place on the device")
        options["layout"] = placed
    ext = os.path.splitext(args.output)[1].lower()
    if ext == ".html":
        return _render_html(args)
    if args.blocks:
        return _render_blocks(value, args, ext)
    if ext not in viz.FORMATS:
        raise LayoutError(f"cannot write {args.output!r}: the file name must end in .svg, .png or .html")
    t0 = time.perf_counter()
    _progress(f"rendering {family(value)} {canonical_text(value)[:60]} ...")
    s = viz.scene(value, **options)
    _progress(f"  {s.count_cells():,} {s.cell_class}s, {int(s.width)}x{int(s.height)} px; writing {ext[1:].upper()} ...")
    viz.render(s, args.output)
    _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    for note in s.notes:
        if note.startswith(("showing", "summary")):
            _progress("note: " + note)
    return 0


def _render_blocks(device, args, ext):
    """``render DEVICE --place TENSOR --blocks -o FILE.svg``: which device holds which block."""
    from . import distributed

    if not args.place or ext != ".svg":
        raise LayoutError("--blocks needs --place TENSOR and an .svg output file")
    placed, _ = _placement_summary(device, args.place)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(distributed.shard_svg(placed, device))
    _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes)")
    return 0


def _render_html(args):
    """``render -o FILE.html``: the explorer's page for the layout, as one offline file."""
    from . import explorer

    if args.color or args.tv or args.place:
        raise LayoutError("--color, --tv and --place apply to .svg and .png pictures; the .html page has its own view")
    t0 = time.perf_counter()
    _progress("rendering the explorer page ...")
    html = explorer.render_html(args.text, shape=_dims(args.shape))
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(html)
    _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    return 0


def _cmd_serve(args):
    """``serve``: run the browser explorer on 127.0.0.1 until interrupted."""
    from . import explorer

    srv = explorer.serve(port=args.port)
    print(f"unilayout explorer: {srv.url}", flush=True)
    _progress("press Ctrl-C to stop")
    try:
        while srv.running:
            time.sleep(0.2)
    except KeyboardInterrupt:
        _progress("stopping")
    finally:
        srv.shutdown()
    return 0


def _progress(msg):
    print(msg, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------------
# Tour
# ------------------------------------------------------------------------------------------------

#: The tour: (file stem, heading, explanation, text, render options).
TOUR = (
    ("1-cute-blocked-product", "CuTe: blocked_product((2,2):(1,2), (2,3):(3,1))",
     "A 2x2 tile repeated over a 2x3 grid of tiles; element ((0,1),(1,1)) is storage[18].",
     "((2,2),(2,3)):((1,12),(2,4))", {}),
    ("2-linear-mfma", "Triton linear layout: AMD MFMA 16x16, warpsPerCTA [2, 2], on tensor<32x64xf32>",
     "Registers walk dim0 in 4s, 16 lanes walk dim1, lanes 16-63 step dim0 by 4; warps tile 16x16 blocks.",
     "#ttg.linear<{register = [[1, 0], [2, 0], [0, 32]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], "
     "[8, 0]], warp = [[0, 16], [16, 0]], block = []}>", {}),
    ("3-tsl-offset", "snax TSL: 8x8 in 4x4 tiles, tile (I, J) at 32*I + 16*J, base offset 5",
     "Every dim has tiles of tiles; the offset is added to every address.",
     "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>", {}),
    ("4-metal-53x63-padded", "Tenstorrent metal layout: 53x63 f32 on a 3x2 grid, tilized 32x32",
     "Each 18x32 shard is padded to one 32x32 tile: 14 padding rows per core, 15 on the last row of cores.",
     "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>", {}),
    ("5-device-2-chips", "Tenstorrent device: two 8x8 chips side by side as one 8x16 grid",
     "Columns 8..15 wrap to chip 1; a 256x1024 tensor on a 4x16 grid spans the upper half of both chips.",
     "#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, "
     "meshShape = 1x2, chipIds = [0, 1]>",
     {"place": "tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, "
               "memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>"}),
)


def _cmd_tour(args):
    from . import viz

    out = args.output
    os.makedirs(out, exist_ok=True)
    formats = [".svg", ".png"] if args.format == "both" else ["." + args.format]
    written = []
    for k, (stem, heading, why, text, opts) in enumerate(TOUR, 1):
        _progress(f"[{k}/{len(TOUR)}] {heading}")
        value = parse_text(text)
        print(f"== {k}. {heading}")
        print(why)
        print(f"$ unilayout show '{text}'")
        facts = describe(value)
        print(_format_facts(facts))
        for title, body in _tables(value, None, 256 if family(value) != "metal" else MAX_TABLE_CELLS):
            if "not shown" in body or title.startswith(("tensor view", "hardware view")):
                continue
            print()
            if title:
                print(title + ":")
            print(body)
        options = {}
        if "place" in opts:
            placed = parse_text(opts["place"])
            where = value.place(placed)
            print(f"\nplacing {opts['place']}")
            last = tuple(g - 1 for g in placed.grid)
            first_core = tuple(where.cores[(0,) * len(last)].tolist())
            print(f"  shards on chips {list(where.chips)}, mesh distribution {where.distribution}; "
                  f"shard {(0,) * len(last)} on (chip, y, x) {first_core}, shard {last} on {tuple(where.cores[last].tolist())}")
            options["layout"] = placed
        s = viz.scene(value, **options)
        for ext in formats:
            path = os.path.join(out, stem + ext)
            viz.render(s, path)
            written.append(path)
            print(f"picture: {path}")
        print()
    _progress(f"wrote {len(written)} pictures to {out}")
    return 0


# ------------------------------------------------------------------------------------------------
# Errors and the entry point
# ------------------------------------------------------------------------------------------------


def _error_dict(e):
    d = {"type": type(e).__name__, "message": getattr(e, "message", str(e))}
    if isinstance(e, ParseError):
        d["position"] = e.position
    return d


def _shorten(line, width=160):
    return line if len(line) <= width else line[: width - 3] + "..."


def _print_error(e):
    msg = str(e)
    lines = msg.splitlines() or [""]
    # One screen at most: long texts are cut around the position, long lines shortened.
    if isinstance(e, ParseError) and len(e.text) > 100:
        p = e.position
        a = max(0, p - 50)
        snippet = e.text[a : a + 100].replace("\n", " ")
        lines = [_shorten(f"{e.message}") + f" at position {p}", f"  {'...' if a else ''}{snippet}",
                 f"  {' ' * ((3 if a else 0) + p - a)}^"]
    lines = [_shorten(ln) for ln in lines[:20]]
    print(f"unilayout: error: {lines[0]}", file=sys.stderr)
    for ln in lines[1:]:
        print(ln, file=sys.stderr)


def _parser():
    p = argparse.ArgumentParser(prog="unilayout", description="Exact tensor layouts: CuTe, linear, affine, TSL, metal.")
    p.add_argument("--version", action="store_true", help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def add_text(q):
        q.add_argument("text", metavar="TEXT", help="layout text (CuTe, #ttg.linear, #tsl.tsl, affine map, tensor<...>, "
                                                 "#tt.device), or - for standard input")

    q = sub.add_parser("show", help="facts and a table of values")
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--place", metavar="TENSOR",
                   help="with a device: a tensor<..., #tt.metal_layout> whose per-device shards to summarise")
    q.add_argument("--shape", help="box for an affine map, e.g. 8x8")
    q.add_argument("--max-cells", type=int, default=MAX_TABLE_CELLS, help="largest table printed (default %(default)s)")
    q.set_defaults(run=_cmd_show)

    q = sub.add_parser("convert", help="convert to another family (exact, or an error saying why not)")
    add_text(q)
    q.add_argument("--to", required=True, choices=["cute", "linear", "affine", "tsl"])
    q.add_argument("--shape", help="box for an affine source, e.g. 8x8")
    q.set_defaults(run=_cmd_convert)

    q = sub.add_parser("check", help="validate, with the reasons")
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(run=_cmd_check)

    q = sub.add_parser("render", help="write a picture (.svg or .png)")
    add_text(q)
    q.add_argument("-o", "--output", required=True, help="FILE.svg, FILE.png, or FILE.html (the explorer page, offline)")
    q.add_argument("--color", choices=["index", "thread", "bank", "warp", "register", "block"],
                   help="cell colours (CuTe: index, thread, bank; linear: thread, warp, register, block, index)")
    q.add_argument("--tv", metavar="MxN", help="draw a CuTe (thread, value) layout over an M x N tile")
    q.add_argument("--shape", help="box for an affine map, e.g. 8x8")
    q.add_argument("--place", metavar="TENSOR", help="with a device: a tensor<..., #tt.metal_layout> to place on it")
    q.add_argument("--blocks", action="store_true",
                   help="with a device and --place: draw which device holds which block of the tensor (.svg)")
    q.add_argument("--element-bytes", type=int, default=4, help="bytes per element for --color bank (default 4)")
    q.add_argument("--max-cells", type=int, default=16384, help="cells drawn before cropping or summarising")
    q.set_defaults(run=_cmd_render)

    q = sub.add_parser("serve", help="run the browser explorer on 127.0.0.1 and print its URL")
    q.add_argument("--port", type=int, default=8000, help="port (default %(default)s; 0 = any free port)")
    q.set_defaults(run=_cmd_serve)

    q = sub.add_parser("tour", help="one example of each family, with pictures")
    q.add_argument("-o", "--output", default="unilayout-tour", help="folder for the pictures (default %(default)s)")
    q.add_argument("--format", choices=["svg", "png", "both"], default="both")
    q.set_defaults(run=_cmd_tour)
    return p


def main(argv=None) -> int:
    """Entry point of the ``unilayout`` console script; returns the exit status (2 on bad input).

    >>> main(["show", "(2,3):(1"])
    2
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse reports usage errors with status 2
        return int(e.code or 0)
    if args.version:
        print(f"unilayout {__version__}")
        return 0
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except LayoutError as e:
        _print_error(e)
        return 2
    except OSError as e:
        print(f"unilayout: error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("unilayout: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: say so in one line rather than a traceback
        print(f"unilayout: internal error ({type(e).__name__}: {e}); please report it with the command line",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
