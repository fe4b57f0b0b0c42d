"""Regenerate tests/tilelang/data/facts.json from TileLang itself (run where ``tilelang`` installs: pip install tilelang).

For seeded random layouts and fragments (and TileLang's named swizzled layouts) it records what TileLang
prints, its output shape and thread extent, and — point by point through ``map_forward_index`` /
``map_forward_thread`` — the maps, so that tests/tilelang checks unilayout against TileLang without it.

    python bench/tilelang_facts.py            # writes tests/tilelang/data/facts.json
"""

import json
import pathlib
import random

OUT = pathlib.Path(__file__).resolve().parents[1] / "tests" / "tilelang" / "data" / "facts.json"


def _expr(rng, vs, depth=0):
    from tvm import tirx

    r = rng.random()
    if depth > 2 or r < 0.3:
        return rng.choice(vs) if rng.random() < 0.85 else rng.randint(0, 9)
    a = _expr(rng, vs, depth + 1)
    b = _expr(rng, vs, depth + 1)
    k = rng.choice([2, 3, 4, 8, 16])
    ops = [lambda: a + b, lambda: a * rng.choice([2, 3, 4]), lambda: a // k, lambda: a % k,
           lambda: tirx.bitwise_xor(a, b) if not isinstance(a, int) and not isinstance(b, int) else a + b,
           lambda: a - b]
    return rng.choice(ops)()


def _point_value(x):
    from tvm import arith

    v = arith.Analyzer().simplify(x)
    return int(v.value)


def _thread(F, p, r):
    """The thread of point ``p``, replica ``r`` (TileLang's map takes the replica as its first index when it has one)."""
    try:
        out = F.map_forward_thread([r] + p)  # the replica comes first (TileLang's GetForwardVars)
    except BaseException:  # noqa: BLE001 -- tvm's InternalError: a fragment without replicas takes the point alone
        out = F.map_forward_thread(p)
    return out[0] if not hasattr(out, "value") else out


def _index(F, p):
    """The local index of point ``p`` (TileLang's map may take a replica index too: 0)."""
    try:
        return F.map_forward_index(p)
    except BaseException:  # noqa: BLE001 -- tvm's InternalError: the map takes the replica as well
        return F.map_forward_index([0] + p)


def _extent(F):
    """TileLang's thread extent (``get_thread_size``; its printed ``thread:`` when that is symbolic)."""
    n = F.get_thread_size()
    try:
        return int(n)
    except TypeError:
        text = str(F).split("thread: ", 1)[1].split(",", 1)[0]
        return int(text) if text.lstrip("-").isdigit() else text


def main():
    from tvm import tirx

    import tilelang  # noqa: F401 (registers the layout types)
    from tilelang import layout as TL

    rng = random.Random(26)
    facts = []
    for _ in range(120):
        shape = [rng.choice([2, 3, 4, 8]) for _ in range(rng.randint(1, 2))]
        kind = rng.random()
        if kind < 0.5:
            n_out = rng.randint(1, 2)
            L = TL.Layout(shape, lambda *v: [_expr(rng, list(v)) for _ in range(n_out)])
            pts = [list(p) for p in __import__("itertools").product(*[range(s) for s in shape])]
            vals = [[_point_value(x) for x in L.map_forward_index(p)] for p in pts]
            facts.append({"text": str(L), "output_shape": [int(x) for x in L.get_output_shape()], "index": vals})
        else:
            rep = rng.choice([1, 1, 2, 4])
            F = TL.Fragment(shape, forward_fn=lambda *v: (_expr(rng, list(v)[:-1]) + v[-1] * 8,
                                                          _expr(rng, list(v)[:-1])), replicate=rep) \
                if rep > 1 else TL.Fragment(shape, forward_fn=lambda *v: (_expr(rng, list(v)), _expr(rng, list(v))))
            pts = [list(p) for p in __import__("itertools").product(*[range(s) for s in shape])]
            threads = [[_point_value(_thread(F, p, r)) for r in range(rep)] for p in pts]
            idx = [[_point_value(x) for x in _index(F, p)] for p in pts]
            facts.append({"text": str(F), "output_shape": [int(x) for x in F.get_output_shape()],
                          "thread_extent": _extent(F), "thread": threads, "index": idx})
    buf = tirx.decl_buffer((64, 64), "float16", name="A", scope="shared")
    for fn in ("make_swizzled_layout", "make_full_bank_swizzled_layout", "make_half_bank_swizzled_layout",
               "make_quarter_bank_swizzled_layout", "make_linear_layout"):
        L = getattr(TL, fn)(buf)
        facts.append({"named": fn, "shape": [64, 64], "dtype": "float16", "text": str(L),
                      "output_shape": [int(x) for x in L.get_output_shape()]})
    facts.append({"named": "make_gemm_fragment_8x8", "text": str(TL.make_gemm_fragment_8x8())})
    OUT.write_text(json.dumps(facts, indent=1) + "\n")
    print(f"wrote {OUT} ({len(facts)} facts)")


if __name__ == "__main__":
    main()
