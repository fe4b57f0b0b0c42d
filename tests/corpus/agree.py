"""Does unilayout agree with the producer on one corpus text? (Shared by tests/corpus and bench/corpus.py.)

``check(entry)`` reads ``entry["text"]`` the way a user would (``unilayout.parse`` or the family's
parser, with the context the producer's test used) and returns ``None`` when unilayout agrees with every
fact the producer gave, or ``(category, reason)`` when it does not. Categories:

- ``parse bug``: the producer reads the text, unilayout raises a LayoutError (where the producer reads the
  text but has no layout for it, ``facts["producer_note"]``, unilayout's ``NotRepresentableError`` agrees);
- ``accepts rejected``: the producer rejects the text, unilayout reads it;
- ``fact mismatch``: both read it, a fact differs (the reason names the first one);
- ``crash``: unilayout raised something other than a LayoutError (never allowed).

A *placeholder* (``facts["placeholder"]``, with the reason) is a text a producer's test writes by hand that the
producer's own builders never make and its parser reads unchecked (a tt-mlir memref or map that contradicts the
tensor): it says nothing about the producer's rules, so unilayout may read it or refuse it with a LayoutError
(never crash), and it is counted apart, not scored.
"""

from __future__ import annotations

import json
import pathlib
from collections import Counter

import unilayout
from unilayout import cute, sharding
from unilayout.errors import LayoutError, NotRepresentableError

HERE = pathlib.Path(__file__).resolve().parent
PRODUCERS = {"triton": "Triton 3.9", "cute": "CUTLASS pycute / CuTe C++", "hlo": "XLA HLO sharding (JAX boxes)",
             "shardy": "Shardy (JAX boxes)", "xla": "XLA shape layouts", "ttnn": "tt-mlir TTNN layouts",
             "ttcore": "tt-mlir metal layouts"}


def load_corpus() -> list[dict]:
    with open(HERE / "corpus.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_pending() -> dict[str, dict]:
    path = HERE / "pending.jsonl"
    if not path.exists():
        return {}
    with open(path) as f:
        return {p["id"]: p for p in (json.loads(line) for line in f if line.strip())}


def _read(entry: dict):
    """unilayout's value for the text, with the context the producer used."""
    ctx, text = entry["context"], entry["text"]
    p = entry["producer"]
    if p == "hlo":
        return sharding.parse_hlo(text, tuple(ctx["shape"]), num_devices=ctx["num_devices"])
    if p == "shardy":
        return sharding.parse_shardy(text, ctx["mesh"], tuple(ctx["shape"]))
    if p == "cute":
        return cute.parse(text)
    return unilayout.parse(text)


def _layout(d: dict):
    return cute.Layout(_tuple(d["shape"]), _tuple(d["stride"]))


def _tuple(x):
    return tuple(_tuple(y) for y in x) if isinstance(x, list) else x


def _facts(entry: dict, v) -> str | None:
    """The first fact on which ``v`` disagrees with the producer, or None."""
    p, f = entry["producer"], entry["facts"]
    if p == "triton" and "bases" in f:
        got = {k: [list(b) for b in bs] for k, bs in v.bases}
        for dim, want in f["bases"].items():
            if got.get(dim, []) != want:
                return f"{dim} bases: unilayout {got.get(dim, [])} vs Triton {want}"
        extra = [k for k, bs in got.items() if bs and k not in f["bases"]]
        return f"unilayout has in-dims {extra} Triton lacks" if extra else None
    if p == "cute":
        if (v.size, v.cosize) != (f["size"], f["cosize"]):
            return f"size/cosize: unilayout {(v.size, v.cosize)} vs pycute {(f['size'], f['cosize'])}"
        if "values" in f and cute.index_map(v).tolist() != f["values"]:
            return "values differ from pycute's L(i)"
        if "printed_values" in f and cute.index_map(v).tolist() != f["printed_values"]:
            return "values differ from those the CuTe docs print"
        for op in ("coalesce", "complement", "left_inverse", "right_inverse", "composition", "logical_product"):
            if op in f:
                other = f[op].get("other")
                args = [v] + ([] if other is None else [other if isinstance(other, int) else _layout(other)])
                r = getattr(cute, op)(*args)
                if cute.index_map(r).tolist() != cute.index_map(_layout(f[op])).tolist() or \
                        (r.size, r.cosize) != (_layout(f[op]).size, _layout(f[op]).cosize):
                    return f"{op}: unilayout {r} vs {f[op].get('by', 'pycute')} {f[op]['text']}"
        return None
    if p in ("hlo", "shardy") and "boxes" in f:
        # the fact is which elements each device holds: a box of zero volume holds none, whether it is
        # listed (JAX lists one per device) or not (unilayout drops empty boxes)
        def held(boxes):
            return [[list(d) for d in bx] for bx in boxes if all(stop > start for start, stop in bx)]
        got = v.device_boxes
        for dev, box in f["boxes"].items():
            have, want = held(got.get(int(dev), [])), held([box])
            if have != want:
                return f"device {dev}: unilayout {have} vs JAX {want}"
        return None
    if p == "xla":
        got = (list(v.dims), list(v.minor_to_major))
        if got != (f["dims"], f["minor_to_major"]):
            return f"dims/minor_to_major: unilayout {got} vs the text's {(f['dims'], f['minor_to_major'])}"
        return None
    if p == "ttcore" and f.get("device_shape"):
        if list(v.device_shape) != f["device_shape"]:
            return f"device shape: unilayout {list(v.device_shape)} vs the tensor's {f['device_shape']}"
        return None
    if p == "ttnn":
        if f.get("memref_shape") and list(v.memref_shape) != f["memref_shape"]:
            return f"memref: unilayout {list(v.memref_shape)} vs tt-mlir {f['memref_shape']}"
        if f.get("device_shape") and list(v.to_v2().device_shape) != f["device_shape"]:
            return f"metal device shape: unilayout {list(v.to_v2().device_shape)} vs tt-mlir {f['device_shape']}"
    return None


def check(entry: dict) -> tuple[str, str] | None:
    """``None`` when unilayout agrees with the producer on ``entry``, else ``(category, reason)``."""
    try:
        v = _read(entry)
    except LayoutError as e:
        if "placeholder" in entry["facts"]:
            return None  # a hand-written placeholder the producer never builds: refusing it is fine (not scored)
        if entry["expect"] == "rejected":
            return None
        if "producer_note" in entry["facts"] and isinstance(e, NotRepresentableError):
            return None  # the producer reads the text but has no layout for it either (Triton's toLinearLayout aborts)
        return "parse bug", str(e).splitlines()[0][:240]
    except Exception as e:  # any other exception is a bug in itself: report it, never hide it
        return "crash", f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
    if "placeholder" in entry["facts"]:
        return None  # reading it is fine too: the producer's parser reads it unchecked (not scored)
    if entry["expect"] == "rejected":
        why = entry["facts"].get("producer_error", "the producer's test expects an error")
        return "accepts rejected", f"producer rejects: {why}"[:240]
    try:
        bad = _facts(entry, v)
    except LayoutError as e:
        return "fact mismatch", f"computing a fact raised {str(e).splitlines()[0][:200]}"
    except Exception as e:  # any other exception is a bug in itself
        return "crash", f"while comparing facts: {type(e).__name__}: {str(e).splitlines()[0][:180]}"
    return None if bad is None else ("fact mismatch", bad[:300])


def summary(entries: list[dict], results: dict) -> str:
    """The agreement rate per producer, as printed by bench/corpus.py and at the end of the test run."""
    total, good = Counter(), Counter()
    cats, aside = Counter(), Counter()
    for e in entries:
        if "placeholder" in e["facts"]:
            aside[e["producer"]] += 1
            continue
        total[e["producer"]] += 1
        r = results.get(e["id"])
        if r is None:
            good[e["producer"]] += 1
        else:
            cats[r[0]] += 1
    scored = sum(total.values())
    lines = [f"corpus: {len(entries)} texts from the producers' test suites"
             + (f" ({sum(aside.values())} placeholders not scored)" if aside else "")]
    for p in sorted(total, key=lambda k: -total[k]):
        note = f"  + {aside[p]} placeholders" if aside[p] else ""
        lines.append(f"  {PRODUCERS.get(p, p):32s} {good[p]:5d}/{total[p]:<5d} agree  "
                     f"({100.0 * good[p] / total[p]:.1f}%){note}")
    all_good = sum(good.values())
    lines.append(f"  {'all':32s} {all_good:5d}/{scored:<5d} agree  ({100.0 * all_good / max(1, scored):.1f}%)")
    if cats:
        lines.append("  disagreements: " + ", ".join(f"{c} {n}" for c, n in cats.most_common()))
    return "\n".join(lines)

