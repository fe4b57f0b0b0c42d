"""The project's own fuzzing engine, shared by ``tests/fuzz`` (a bounded sample in CI) and ``bench/fuzz.py`` (long runs).

Three kinds of input, each run under a time limit and the shared table cap:

- **texts**: every layout text found in the docs (code blocks and inline
  code that ``unilayout.parse`` accepts) and the seeds, mutated — characters
  inserted, deleted or swapped, substrings repeated, numbers replaced by huge
  ones, brackets nested deeply — and fed to every family's parser and to
  ``unilayout.parse``;
- **calls**: public functions given arguments of the wrong type or range;
- **numerics**: random layouts of each family evaluated vectorised
  (``index_map`` / ``evaluate``) and one point at a time, compared exactly,
  with values near 2**63.

An outcome is one of ``value`` (parsed, and ``str(v)`` parses back to ``v``),
``clean`` (a unilayout ``LayoutError``), ``bare`` (any other exception: a
bug), ``hang`` (over the time limit), ``memory`` (a ``MemoryError``: past the
address-space limit ``bench/fuzz.py`` sets), ``wrong`` (a value that is not exact:
a round trip that does not come back, a vectorised answer that differs).
"""

from __future__ import annotations

import gc
import json
import pathlib
import random
import re
import signal
import time
import traceback

import numpy as np

import unilayout
from unilayout import LayoutError, affine, cute, linear, tsl, tt
from unilayout.facts import canonical_text

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUTCOMES = ("value", "clean", "bare", "hang", "memory", "wrong")


class Hang(BaseException):
    """Raised by the alarm when one input takes longer than the limit."""


def _alarm(signum, frame):
    # Re-armed before raising: an alarm landing in a callback whose exceptions Python ignores (a gc callback
    # hypothesis installs) would otherwise be lost and leave the input running unbounded. run_limited disarms it.
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    raise Hang()


def run_limited(fn, limit: float):
    """``(outcome, result_or_exception, seconds)`` of ``fn()`` under a ``limit``-second alarm (main thread only).

    The cyclic garbage collector is paused meanwhile: in a full test run its passes over the whole process's
    heap (and hypothesis's callback on them) would be charged to the input.
    """
    collecting = gc.isenabled()
    gc.disable()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    t = time.perf_counter()
    try:
        r = fn()
        return "value", r, time.perf_counter() - t
    except Hang as e:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return "hang", e, time.perf_counter() - t
    except LayoutError as e:
        return "clean", e, time.perf_counter() - t
    except MemoryError as e:  # an allocation past the address-space limit (bench/fuzz.py: 1 GiB over the start)
        return "memory", e, time.perf_counter() - t
    except Exception as e:  # noqa: BLE001 -- what the fuzzer looks for
        return "bare", e, time.perf_counter() - t
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if collecting:
            gc.enable()


def new_counts() -> dict:
    return dict(inputs=0, **{o: 0 for o in OUTCOMES})


# --- the corpus: texts from the docs and the seeds ----------------------------------------------

_CODE = re.compile(r"`([^`\n]{2,400})`")
_QUOTED = re.compile(r"""['"]([^'"\n]{3,400})['"]""")


def corpus(per_producer: int = 12) -> list:
    """The texts to fuzz: ``(text, given)`` pairs, ``given`` the keywords ``unilayout.read`` needs for the text.

    Every distinct text in the docs, the seeds and the shared test texts that ``unilayout.parse`` reads (given
    ``{}``), then the first ``per_producer`` texts of each producer in ``tests/corpus/corpus.jsonl`` that
    ``unilayout.read`` reads with the row's ``shape``/``mesh`` (a sharding is read against its tensor's shape).
    """
    candidates = []
    for path in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "tests" / "seed_texts.py"]:
        src = path.read_text(encoding="utf-8", errors="replace")
        candidates += _CODE.findall(src) + _QUOTED.findall(src)
        for block in re.findall(r"```[a-z]*\n(.*?)```", src, re.S):
            candidates += [line.strip() for line in block.splitlines()]
            candidates.append(block)
    out, seen = [], set()
    for c in candidates:
        c = c.strip()
        if c in seen or not c or len(c) > 2000:
            continue
        seen.add(c)
        outcome, _, _ = run_limited(lambda c=c: unilayout.parse(c), 2.0)
        if outcome == "value":
            out.append((c, {}))
    taken = {}
    path = ROOT / "tests" / "corpus" / "corpus.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else ():
        row = json.loads(line)
        text, ctx = row["text"], row.get("context") or {}
        if taken.get(row["producer"], 0) >= per_producer or text in seen or row.get("expect") != "reads":
            continue
        given = {k: ctx[k] for k in ("shape", "mesh", "mesh_shape") if ctx.get(k) is not None}
        outcome, _, _ = run_limited(lambda: unilayout.read(text, **given), 2.0)
        if outcome == "value":
            seen.add(text)
            out.append((text, given))
            taken[row["producer"]] = taken.get(row["producer"], 0) + 1
    return out


def _encodings_parse(text, **given):
    return linear.encodings.parse(text)


#: Parsers that are not a family record's hook (a sub-grammar read on its own); fuzzed besides the registry's.
EXTRA_PARSERS = {
    "linear.encodings.parse": _encodings_parse,
}


def _hook(rec):
    """One text through ``rec``'s ``parse`` hook, called as ``unilayout.read`` calls it."""
    def parse(text, shape=None, mesh=None, mesh_shape=None):
        return rec.parse(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape)
    return parse


def all_parsers() -> dict:
    """Every parser the fuzzer feeds, name -> function of one text (and the keywords ``shape``, ``mesh``,
    ``mesh_shape``), read from the registry at call time: ``unilayout.parse`` (``unilayout.read``), then ``<family>.parse`` (the family record's ``parse`` hook, called directly, so that a
    bare exception is not hidden behind ``unilayout.read``'s "unreadable text" wrapper) for every family
    ``unilayout.families()`` names, then ``EXTRA_PARSERS``. A family registered later is fuzzed with no edit here.
    """
    from unilayout import _families

    out = {"unilayout.parse": unilayout.read}
    for name in unilayout.families():
        out[f"{name}.parse"] = _hook(_families.record(name))
    out.update(EXTRA_PARSERS)
    return out


_HUGE = ["0", "-1", "18446744073709551616", "9223372036854775807", "9223372036854775808", "1" * 5000,
         "68719476736", "4294967296", "-9223372036854775809", "99999999999999999999999", "63", "64", "65536"]
_JUNK = list("()[]{}<>,:;=-+*x?#%@!._ \n\t\"'\\") + ["d0", "s0", "floordiv", "mod", "ceildiv", "o", "Sw<",
                                                      "\u00b2", "\uff11", "\x00", "->", "tensor<", "#tt.", "?"]


def mutate(text: str, rng: random.Random) -> str:
    """One random mutation (sometimes several) of ``text``."""
    for _ in range(1 + (rng.random() < 0.3) * rng.randint(1, 4)):
        n = len(text)
        k = rng.randrange(9)
        i = rng.randrange(n + 1)
        if k == 0 and n:  # delete a span
            j = min(n, i + rng.randint(1, 4))
            text = text[:i] + text[j:]
        elif k == 1:  # insert junk
            text = text[:i] + rng.choice(_JUNK) + text[i:]
        elif k == 2 and n:  # replace a character
            text = text[:i] + rng.choice(_JUNK) + text[i + 1:]
        elif k == 3:  # a number becomes a huge or edge one
            nums = list(re.finditer(r"-?\d+", text))
            if nums:
                m = rng.choice(nums)
                text = text[:m.start()] + rng.choice(_HUGE) + text[m.end():]
        elif k == 4 and n:  # repeat a span
            j = min(n, i + rng.randint(1, 12))
            text = text[:i] + text[i:j] * rng.randint(2, 50) + text[j:]
        elif k == 5:  # deep nesting
            depth = rng.choice([10, 100, 1000, 5000])
            text = text[:i] + "(" * depth + text[i:] + ")" * depth
        elif k == 6 and n:  # truncate
            text = text[:i]
        elif k == 7:  # move a span to the end
            j = rng.randrange(n + 1)
            text = text[:min(i, j)] + text[max(i, j):] + text[min(i, j):max(i, j)]
        else:  # a digit changes
            digits = [p for p, ch in enumerate(text) if ch.isdigit()]
            if digits:
                p = rng.choice(digits)
                text = text[:p] + rng.choice("0123456789") + text[p + 1:]
    return text


def _printed(v) -> str:
    """The text a parsed value prints for its reader: its record's canonical text, or ``str`` for a value no
    family owns (an encoding of ``linear.encodings.parse``)."""
    try:
        unilayout.family_of(v)
    except LayoutError:
        return str(v)
    return canonical_text(v)


def check_text(parser, text: str, limit: float = 1.0, given=None):
    """``(outcome, detail)`` of one parser on one text (with ``given``: the keywords of ``unilayout.read``, a
    sharding's tensor shape); a value must print back to an equal value.

    The parser reads back the value's canonical text (its family record's ``canonical``: CuTe's print of a
    TiledMMA is for people, its ``make_tiled_mma(...)`` for the reader).
    """
    given = given or {}
    outcome, v, _ = run_limited(lambda: parser(text, **given), limit)
    if outcome != "value":
        return outcome, v
    outcome, printed, _ = run_limited(lambda: _printed(v), limit)
    if outcome != "value":
        return outcome, printed
    back, v2, _ = run_limited(lambda: parser(printed, **given), limit)  # the same parser reads what it printed
    if back == "clean" and "shape" not in given and isinstance(getattr(v, "shape", None), tuple):
        # a text that carried its tensor (an HLO line, an MLIR attribute) prints the sharding alone: read it back
        # over the tensor it was read with
        back, v2, _ = run_limited(lambda: parser(printed, **given, shape=v.shape), limit)
    if back == "value":
        if v2 != v:
            return "wrong", f"{text!r} -> {v!r}: {printed!r} parses back to {v2!r}"
        return "value", v
    if back == "clean":
        if "needs its tensor" in str(v2):  # a bare #tt.metal_layout prints without its tensor: by design
            return "value", v
        return "wrong", f"{text!r} -> {v!r}: {printed!r} does not parse back: {v2}"
    return back, v2


def fuzz_texts(n: int, seed: int = 0, parsers=None, texts=None, limit: float = 1.0):
    """Fuzz ``n`` texts (the corpus first, then mutations) through every parser; ``({parser: counts}, findings)``.

    ``texts``: the corpus (``corpus()``'s ``(text, given)`` pairs, or plain texts); ``parsers``: name -> parser
    (``all_parsers()``: every parser the registry knows now). A mutation keeps its original's ``given``.
    """
    rng = random.Random(seed)
    texts = texts if texts is not None else corpus()
    texts = [(t, {}) if isinstance(t, str) else t for t in texts]
    parsers = parsers or all_parsers()
    counts = {name: new_counts() for name in parsers}
    findings = []
    for k in range(n):
        text, given = texts[k] if k < len(texts) else rng.choice(texts)
        if k >= len(texts):
            text = mutate(text, rng)
        for name, parser in parsers.items():
            outcome, detail = check_text(parser, text, limit, given)
            c = counts[name]
            c["inputs"] += 1
            c[outcome] += 1
            if outcome in ("bare", "hang", "memory", "wrong") and len(findings) < 200:
                findings.append((name, text, outcome, describe(detail), given))
    return counts, findings


def describe(detail) -> str:
    if isinstance(detail, BaseException):
        tb = traceback.extract_tb(detail.__traceback__)
        where = f" at {pathlib.Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
        return f"{type(detail).__name__}: {str(detail)[:160]}{where}"
    return str(detail)[:300]


# --- wrong-typed calls ------------------------------------------------------------------------------

WEIRD = [1.5, None, "x", b"4", [], (), {}, -1, 0, 1 << 70, np.array(2), np.array([1.5]), np.float64(2.0), True,
         object(), np.zeros(2, dtype="V4"), np.ma.masked_array([1, 2], mask=[0, 1])]


def public_callables():
    """``(name, fn, good_args)``: public functions and methods with one set of arguments that works."""
    L = cute.Layout((4, 2), (2, 1))
    ll = linear.LinearLayout.identity_1d(8, "i", "o")
    m = affine.parse("(d0, d1) -> (d1, d0 floordiv 2)")
    t = tsl.parse("#tsl.tsl<[2, 4] -> (4, 1)>")
    ml = tt.MetalLayout.from_collapse((53, 63), (3, 2))
    sw = cute.Swizzle(3, 4, 3)
    return [
        ("cute.Layout", cute.Layout, ((4, 2), (2, 1))),
        ("cute.Swizzle", cute.Swizzle, (3, 4, 3)),
        ("cute.ComposedLayout", cute.ComposedLayout, (sw, 0, L)),
        ("cute.composition", cute.composition, (L, cute.Layout(2, 1))),
        ("cute.complement", cute.complement, (cute.Layout(4, 2), 16)),
        ("cute.right_inverse", cute.right_inverse, (L,)),
        ("cute.left_inverse", cute.left_inverse, (L,)),
        ("cute.coalesce", cute.coalesce, (L,)),
        ("cute.logical_divide", cute.logical_divide, (L, cute.Layout(2, 1))),
        ("cute.logical_product", cute.logical_product, (L, cute.Layout(2, 1))),
        ("cute.idx2crd", cute.idx2crd, (3, (2, 4))),
        ("cute.crd2idx", cute.crd2idx, ((1, 1), (2, 4))),
        ("cute.index_map", cute.index_map, (L,)),
        ("cute.evaluate", cute.evaluate, (L, np.arange(4))),
        ("Layout.__call__", L, (3,)),
        ("Swizzle.__call__", sw, (5,)),
        ("linear.LinearLayout.identity_1d", linear.LinearLayout.identity_1d, (8, "i", "o")),
        ("LinearLayout.apply", ll.apply, ({"i": 3},)),
        ("linear.evaluate", linear.evaluate, (ll, {"i": np.arange(4)})),
        ("affine.AffineMap", affine.AffineMap, (2, 0, [affine.dim(0)])),
        ("affine.identity", affine.identity, (2,)),
        ("AffineMap.__call__", m, (1, 2)),
        ("AffineMap.index_map", m.index_map, ((2, 2),)),
        ("AffineMap.evaluate", m.evaluate, (np.arange(3), np.arange(3))),
        ("TiledStridedLayout.__call__", t, (1, 1)),
        ("tt.MetalLayout.from_collapse", tt.MetalLayout.from_collapse, ((53, 63), (3, 2))),
        ("MetalLayout.shard", ml.shard, (np.zeros((53, 63)),)),
        ("unilayout.index_map", unilayout.index_map, (L,)),
        ("unilayout.parse", unilayout.parse, ("8:1",)),
    ]


def fuzz_calls(limit: float = 1.0, calls=None):
    """Every public callable with each argument replaced, in turn, by each weird value; ``(counts, findings)``."""
    counts = new_counts()
    findings = []
    for name, fn, good in calls or public_callables():
        for i in range(len(good)):
            for w in WEIRD:
                args = list(good)
                args[i] = w
                outcome, detail, _ = run_limited(lambda: fn(*args), limit)
                counts["inputs"] += 1
                counts[outcome] += 1
                if outcome in ("bare", "hang", "memory"):
                    findings.append((name, i, short(w), outcome, describe(detail)))
    return counts, findings


def short(v) -> str:
    r = repr(v).replace("\n", " ")
    return r if len(r) < 40 else r[:37] + "..."


# --- differential numerics: vectorised vs scalar -------------------------------------------------------

BIG = 1 << 62


def random_cute(rng: random.Random):
    """A random CuTe layout, swizzle or composed layout; strides and offsets sometimes near 2**63."""
    rank = rng.randint(1, 3)
    shape = tuple(rng.randint(1, 6) for _ in range(rank))
    big = rng.random() < 0.3
    stride = tuple(rng.choice([0, 1, 2, 3, rng.randint(-8, 64)]) * (rng.randint(1, BIG >> 4) if big else 1)
                   for _ in range(rank))
    L = cute.Layout(shape, stride)
    k = rng.random()
    if k < 0.5:
        return L
    b = rng.randint(0, 5)
    m = rng.randint(0, 63 - 2 * b)
    s = rng.choice([-1, 1]) * rng.randint(b, 63 - b - m) if b + m <= 63 - b else b
    sw = cute.Swizzle(b, m, s)
    if k < 0.7:
        return sw
    return cute.ComposedLayout(sw, rng.choice([0, 1, rng.randint(0, BIG)]), L)


def check_cute(v, rng):
    """Vectorised (``evaluate`` / the swizzle on an array) against scalar ``v(i)``, exactly or a justified refusal."""
    if isinstance(v, cute.Swizzle):
        xs = [rng.randint(0, (1 << 63) - 1) for _ in range(16)] + list(range(16))
        outcome, got, _ = run_limited(lambda: v(np.array(xs, dtype=np.int64)), 1.0)
    else:
        xs = list(range(min(v.size, 64)))
        outcome, got, _ = run_limited(lambda: cute.evaluate(v, np.array(xs, dtype=np.int64)), 1.0)
    scalar, want, _ = run_limited(lambda: [v(x) for x in xs], 1.0)
    if scalar == "clean":  # the scalar path refuses (a negative offset): the vectorised one must refuse too
        return ("clean", got) if outcome == "clean" else ("wrong", f"{v}: vectorised answered, scalar refused")
    if scalar != "value":
        return scalar, want
    if outcome != "value":  # a refusal is right only where some scalar answer is past int64
        if outcome == "clean" and all(-(1 << 63) <= w < (1 << 63) for w in want):
            return "wrong", f"{v}: refused ({got}) though every answer fits in int64"
        return outcome, got
    if got.tolist() != want:
        return "wrong", f"{v}: vectorised {got.tolist()[:6]} != scalar {want[:6]}"
    return "value", None


def random_linear(rng):
    outs = [(f"out{i}", 1 << rng.choice([0, 1, 2, 4, rng.randint(0, 62)])) for i in range(rng.randint(1, 2))]
    bases = {}
    for i in range(rng.randint(1, 2)):
        bases[f"in{i}"] = [[rng.randrange(s) for _, s in outs] for _ in range(rng.randint(0, 3))]
    return linear.LinearLayout(bases, outs, require_surjective=False)


def check_linear(L, rng):
    sizes = [(name, size) for name, size in L.in_dims]
    grids = np.meshgrid(*[np.arange(s) for _, s in sizes], indexing="ij")
    ins = {name: g.reshape(-1) for (name, _), g in zip(sizes, grids)}
    outcome, got, _ = run_limited(lambda: linear.evaluate(L, ins), 1.0)
    if outcome != "value":
        return outcome, got
    n = len(next(iter(ins.values()))) if ins else 0
    for j in range(n):
        one = dict(L.apply({name: int(a[j]) for name, a in ins.items()}))
        for name in got:
            if int(np.asarray(got[name]).reshape(-1)[j]) != int(one[name]):
                return "wrong", f"{L}: evaluate {name} != apply {one[name]} at {j}"
    return "value", None


def random_affine(rng):
    nd = rng.randint(1, 3)
    terms = []
    for _ in range(rng.randint(1, 3)):
        e = " + ".join(f"d{rng.randrange(nd)} * {rng.choice([1, 2, 3, -1, rng.randint(1, 1 << 40)])}"
                       for _ in range(rng.randint(1, 3)))
        op = rng.choice(["", f" floordiv {rng.randint(1, 9)}", f" mod {rng.randint(1, 9)}",
                         f" ceildiv {rng.randint(1, 9)}"])
        terms.append(f"({e}){op}" if op else e)
    dims = ", ".join(f"d{i}" for i in range(nd))
    return affine.parse(f"({dims}) -> ({', '.join(terms)})"), tuple(rng.randint(1, 5) for _ in range(nd))


def check_affine(case, rng):
    m, shape = case
    outcome, got, _ = run_limited(lambda: m.index_map(shape), 1.0)
    if outcome != "value":
        return outcome, got
    coords = np.stack(np.unravel_index(np.arange(int(np.prod(shape))), shape), axis=1)
    for row, c in zip(got.tolist(), coords.tolist()):
        want = list(m(*c))
        if row != want:
            return "wrong", f"{m} at {c}: index_map {row} != scalar {want}"
    return "value", None


def random_tsl(rng):
    dims = []
    for _ in range(rng.randint(1, 2)):
        k = rng.randint(1, 2)
        bounds = [rng.randint(1, 4) for _ in range(k)]
        steps = [rng.choice([1, 2, 16, rng.randint(1, 1 << 40)]) for _ in range(k)]
        dims.append(f"[{', '.join(map(str, bounds))}] -> ({', '.join(map(str, steps))})")
    return tsl.parse(f"#tsl.tsl<{', '.join(dims)}>")


def check_tsl(t, rng):
    outcome, got, _ = run_limited(lambda: t.index_map(), 1.0)
    if outcome != "value":
        return outcome, got
    flat = got.reshape(-1).tolist()
    coords = np.stack(np.unravel_index(np.arange(len(flat)), t.shape), axis=1).tolist()
    for v, c in zip(flat, coords):
        if v != t(*c):
            return "wrong", f"{t} at {c}: index_map {v} != scalar {t(*c)}"
    return "value", None


def random_metal(rng):
    shape = tuple(rng.randint(1, 40) for _ in range(rng.randint(1, 3)))
    grid = tuple(rng.randint(1, 4) for _ in range(min(2, len(shape))))
    return tt.MetalLayout.from_collapse(shape, grid)


def check_metal(ml, rng):
    outcome, got, _ = run_limited(lambda: ml.index_map(), 1.0)
    if outcome != "value":
        return outcome, got
    a = np.arange(int(np.prod(ml.logical_shape))).reshape(ml.logical_shape)
    outcome, sh, _ = run_limited(lambda: ml.shard(a), 1.0)
    if outcome != "value":
        return outcome, sh
    if np.asarray(sh).reshape(-1)[got].tolist() != a.reshape(-1).tolist():
        return "wrong", f"{ml}: shard()[index_map] is not the logical array"
    return "value", None


def random_xla(rng):
    """A random XLA layout: dims, a minor-to-major order and tiles, some near 2**63 (a buffer of 2**63 slots)."""
    from unilayout.xla import XlaLayout  # lazy: xla is not a module fuzzlib needs elsewhere

    r = rng.randint(1, 3)
    dims = tuple(rng.randint(1, 6) for _ in range(r))
    big = [1 << 31, 1 << 62, (1 << 63) - 1, (1 << 61) + 1]
    tiles = tuple(tuple(rng.choice([1, 2, 4, 8, 128] + (big if rng.random() < 0.15 else [])) for _ in range(k))
                  for k in [rng.randint(1, r) for _ in range(rng.randint(0, 2))])
    return XlaLayout(rng.choice(["f32", "s8", "bf16", "pred"]), dims, tuple(rng.sample(range(r), r)), tiles)


def check_xla(x, rng):
    """``offsets()`` (vectorised) against the scalar offset ``x(*index)`` at every element."""
    outcome, got, _ = run_limited(lambda: x.offsets(), 1.0)
    if outcome != "value":
        return outcome, got
    want = np.vectorize(lambda *c: x(*c), otypes=[object])(*np.indices(x.dims))
    if got.tolist() != want.tolist():
        return "wrong", f"{x}: offsets() {got.reshape(-1).tolist()[:6]} != scalar {want.reshape(-1).tolist()[:6]}"
    return "value", None


FAMILIES = {
    "cute": (random_cute, check_cute),
    "linear": (random_linear, check_linear),
    "affine": (random_affine, check_affine),
    "tsl": (random_tsl, check_tsl),
    "metal": (random_metal, check_metal),
    "xla": (random_xla, check_xla),
}


def fuzz_numerics(n: int, seed: int = 0, families=None):
    """``n`` random layouts per family, vectorised against scalar; ``({family: counts}, findings)``."""
    rng = random.Random(seed)
    counts, findings = {}, []
    for fam, (make, check) in (families or FAMILIES).items():
        c = counts[fam] = new_counts()
        for _ in range(n):
            outcome, v, _ = run_limited(lambda: make(rng), 1.0)
            detail = v
            if outcome == "value":
                outcome, detail = check(v, rng)
            c["inputs"] += 1
            c[outcome] += 1
            if outcome in ("bare", "hang", "memory", "wrong") and len(findings) < 100:
                findings.append((fam, outcome, describe(detail)))
    return counts, findings


# --- every public name: each required positional argument replaced, in turn, by a weird value --------------

SWEEP_WEIRD = [1.5, None, "x", -1, 0, 1 << 70, np.array(2), True, [], {}]
_WRITES = re.compile(r"save|write|render|draw|plot|show|serve|open")  # methods the sweep leaves alone (files, servers)


def sweep_public(limit: float = 1.0, texts=None, optional: bool = False):
    """Every public callable of every registered family's package (and of ``unilayout``), and every public method
    of the family's sample value (but those that write files or serve), called with its required positional
    arguments set to a sample value of that family and one of them, in turn, to each ``SWEEP_WEIRD`` value.

    With ``optional`` the positional arguments that have defaults are swept too (``bench/fuzz.py``; the others are
    given the sample then). A family's sample is the first ``texts`` (default ``corpus()``) value of its package. Returns
    ``(counts, {name: [findings]})`` where a finding is a bare exception, a hang or a ``MemoryError``.
    """
    import importlib  # lazy: the family packages the registry names
    import inspect

    from unilayout import _families

    samples = {"cute": cute.Layout((4, 2), (2, 1)), "linear": linear.LinearLayout.identity_1d(8, "i", "o"),
               "affine": affine.parse("(d0, d1) -> (d1, d0)"), "tsl": tsl.parse("#tsl.tsl<[2, 4] -> (4, 1)>"),
               "tt": tt.MetalLayout.from_collapse((53, 63), (3, 2)), "unilayout": cute.Layout(8, 1)}
    mods = {"unilayout": unilayout}
    texts = corpus() if texts is None else texts
    for w in _families.WINGS:  # every registered family's package, with a value of the family as its sample
        mname = w.package.rsplit(".", 1)[-1]
        if mname in mods:
            continue
        mods[mname] = importlib.import_module(w.package)
        for text, given in texts:
            if mname in samples:
                break
            outcome, v, _ = run_limited(lambda: unilayout.read(text, **given), limit)
            if outcome == "value" and type(v).__module__.startswith(w.package):
                samples[mname] = v
        samples.setdefault(mname, samples["unilayout"])
    counts, bad = new_counts(), {}
    for mname, mod in mods.items():
        sample = samples[mname]
        targets = [(f"{mname}.{name}", getattr(mod, name)) for name in getattr(mod, "__all__", ())
                   if name != "parse"]
        if mname != "unilayout" and sample is not samples["unilayout"]:  # the public methods of a family's value
            targets += [(f"{mname}.{type(sample).__name__}.{name}", getattr(sample, name, None))
                        for name in dir(type(sample))
                        if (not name.startswith("_") or name == "__call__") and not _WRITES.search(name)]
        for label, f in targets:
            if not callable(f) or inspect.ismodule(f) or inspect.isclass(f) and label.count(".") == 2:
                continue
            try:
                params = inspect.signature(f).parameters.values()
            except (TypeError, ValueError):
                continue
            k = sum(1 for p in params if (optional or p.default is p.empty)
                    and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
            for i in range(k):
                for w in SWEEP_WEIRD:
                    args = tuple(w if j == i else sample for j in range(k))
                    outcome, detail, _ = run_limited(lambda: f(*args), limit)
                    counts["inputs"] += 1
                    counts[outcome] += 1
                    if outcome in ("bare", "hang", "memory"):
                        bad.setdefault(label, []).append((i, short(w), outcome, describe(detail)))
    return counts, bad
