"""Long fuzzing run (issue #18): counts of inputs, values, clean errors, bare exceptions, hangs, memory; server latency.

    .ci/venv/bin/python bench/fuzz.py                 # the issue's size: 100,000 texts per parser, 10,000 layouts
    .ci/venv/bin/python bench/fuzz.py --texts 5000 --layouts 1000 --requests 50   # a quick look
    .ci/venv/bin/python bench/fuzz.py --server-only   # the explorer's load test alone (part 4)

What it runs (the engine is ``tests/fuzz/fuzzlib.py``, the same as the CI sample):

1. texts: the docs' layout texts and their mutations through every parser and
   ``unilayout.parse``; a value must print back to an equal value ("wrong" if not);
2. calls: the public call sites with arguments of the wrong type or range;
3. numerics: random layouts per family, vectorised against scalar evaluation,
   values near 2**63 included;
4. the explorer: ``unilayout serve`` on a free port, 8 threads x N mixed
   requests (good ones and every malformed kind of the issue), latency p50/p99/max
   and the status counts; then each malformed request alone, its time. The
   latency includes waiting for the GIL: server and client threads share one
   process, so each request's CPU time (the 53x63 metal view is the biggest:
   about 10 ms building and encoding a 1.1 MB answer) is multiplied by the
   threads queued behind it, and by other load on the machine.

The parsers are every family the registry knows (each record's ``parse`` hook,
``fuzzlib.all_parsers``): a family registered later is fuzzed with no edit here.

Memory: the table cap is lowered to 2**24 values and the address space of
this process limited to its size at start + 1 GiB, so an allocation past
1 GiB shows up as a MemoryError (column "> 1 GiB") instead of swapping; the
peak RSS is printed. Column "> 2 s" counts inputs that take more than 2 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import resource
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
sys.path.insert(0, str(ROOT / "tests"))

import fuzzlib as F  # noqa: E402

from unilayout import _ints  # noqa: E402


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _vm_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


#: The table's columns: outcome -> heading (``hang``: over the 2 s limit; ``memory``: a MemoryError past 1 GiB).
COLUMNS = {"inputs": "texts", "value": "values", "clean": "clean err", "bare": "bare", "hang": "> 2 s",
           "memory": "> 1 GiB", "wrong": "wrong"}


def _table(title, counts, first="texts"):
    cols = list(COLUMNS)
    print(f"\n{title}")
    print(f"  {'':24s}" + "".join(f"{(first if c == 'inputs' else COLUMNS[c]):>10s}" for c in cols))
    for name, c in counts.items():
        print(f"  {name:24s}" + "".join(f"{c[k]:>10,d}" for k in cols))


MALFORMED = [
    ("/api/algebra", {"a": "4:2", "op": [1]}),
    ("/api/encodings", {"shape": [32, 32], "a": {"kind": ["blocked"]}}),
    ("/api/view", {"text": "Sw<1,68719476736,1>"}),
    ("/api/view", {"text": "Sw<1,8589934592,1>"}),
    ("/api/view", {"text": "1" * 5000 + ":1"}),
    ("/api/view", {"text": "(" + ",".join(["1"] * 4000) + ")"}),
    ("/api/view", {"text": "(" + ",".join(["1"] * 2000) + "):(" + ",".join(["0"] * 2000) + ")"}),
    ("/api/metal", {"shape": [1 << 20, 1 << 20], "grid": [1 << 20, 1 << 20]}),
    ("/api/view", {"text": 8}),
    ("/api/view", []),
]
GOOD = [
    ("/api/view", {"text": "(8,8):(8,1)"}),
    ("/api/view", {"text": "Sw<3,4,3> o 0 o (8,64):(64,1)"}),
    ("/api/view", {"text": "(d0, d1) -> (d1, d0 floordiv 2)", "shape": [8, 8]}),
    ("/api/metal", {"shape": [53, 63], "grid": [3, 2]}),
    ("/api/algebra", {"a": "4:2", "b": "16", "op": "complement"}),
]


def _post(conn, path, body, headers=None):
    raw = json.dumps(body).encode()
    t = time.perf_counter()
    conn.request("POST", path, body=raw, headers=headers or {"Content-Type": "application/json"})
    resp = conn.getresponse()
    resp.read()
    return resp.status, time.perf_counter() - t


def bench_server(per_thread: int, threads: int = 8):
    from unilayout.explorer import serve

    srv = serve(port=0)
    mixed = GOOD + MALFORMED + [("/api/view", {"text": "8:1"}, {"Content-Type": "text/plain"}),
                                ("/api/view", {"text": "8:1"}, {"Content-Type": "application/json",
                                                                "Origin": "http://evil.example"})]
    lat, statuses, errors = [], {}, []
    lock = threading.Lock()

    def worker(k):
        conn = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
        for i in range(per_thread):
            item = mixed[(k * 7 + i) % len(mixed)]
            try:
                status, secs = _post(conn, *item)
            except (OSError, http.client.HTTPException) as e:  # the server closed a refused request's connection
                conn.close()
                conn = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
                with lock:
                    errors.append(type(e).__name__)
                continue
            with lock:
                lat.append(secs)
                statuses[status] = statuses.get(status, 0) + 1
        conn.close()

    for path, body in GOOD:  # warm up the imports
        c = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
        _post(c, path, body)
        c.close()
    t = time.perf_counter()
    ts = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    wall = time.perf_counter() - t
    lat.sort()
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000  # noqa: E731
    print(f"\nexplorer: {threads} threads x {per_thread} mixed requests in {wall:.2f} s "
          f"({len(lat) / wall:.0f} req/s)")
    print(f"  latency ms: p50 {q(0.5):.1f}  p99 {q(0.99):.1f}  max {lat[-1] * 1000:.1f}   (target p99 < 200)")
    print(f"  statuses: {dict(sorted(statuses.items()))}   500s: {statuses.get(500, 0)}   "
          f"connection errors: {len(errors)}")
    print("  each malformed request alone (target: a 4xx in < 100 ms):")
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
    for path, body in MALFORMED:
        status, secs = _post(conn, path, body)
        shown = json.dumps(body)
        shown = shown if len(shown) < 60 else shown[:57] + "..."
        print(f"    {status}  {secs * 1000:6.1f} ms  {path:15s} {shown}")
    print("  each good request alone (best of 5, answer size):")
    for path, body in GOOD:
        best, size = None, 0
        for _ in range(5):
            t = time.perf_counter()
            conn.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            size = len(resp.read())
            secs = time.perf_counter() - t
            best = secs if best is None else min(best, secs)
        shown = json.dumps(body)
        print(f"    {resp.status}  {best * 1000:6.1f} ms  {size / 1e6:5.2f} MB  {path:15s} {shown[:60]}")
    conn.close()
    srv.shutdown()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=100_000, help="texts per parser (default %(default)s)")
    ap.add_argument("--layouts", type=int, default=10_000, help="random layouts per family (default %(default)s)")
    ap.add_argument("--requests", type=int, default=200, help="requests per server thread (default %(default)s)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--server-only", action="store_true", help="run only the explorer's load test")
    args = ap.parse_args(argv)
    if args.server_only:
        bench_server(args.requests)
        return

    _ints.set_max_table(1 << 24)
    limit = _vm_bytes() + (1 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
    print(f"table cap {_ints.max_table():,} values; address space limited to {limit / 2**30:.1f} GiB (start + 1 GiB); "
          f"start RSS {_rss_mib():.0f} MiB")

    t = time.perf_counter()
    texts = F.corpus()
    counts, findings = F.fuzz_texts(args.texts, seed=args.seed, texts=texts, limit=2.0)
    secs = time.perf_counter() - t
    _table(f"texts: {len(texts)} from the docs, the seeds and tests/corpus, then mutations ({secs:.1f} s, "
           f"{args.texts * len(counts) / secs:,.0f} parses/s)", counts)
    for f in findings[:10]:
        print("   finding:", f[0], repr(f[1])[:80], f[2], f[3][:160], f[4] or "")

    t = time.perf_counter()
    c, findings = F.fuzz_calls(limit=2.0)
    _table(f"wrong-typed calls at {len(F.public_callables())} public call sites ({time.perf_counter() - t:.1f} s)",
           {"calls": c}, first="calls")
    for f in findings[:10]:
        print("   finding:", f)

    t = time.perf_counter()
    c, bad = F.sweep_public(limit=2.0, texts=texts, optional=True)
    _table(f"every public name and method, each positional argument in turn wrong-typed ({time.perf_counter() - t:.1f} s)",
           {"public names": c}, first="calls")
    for name, found in sorted(bad.items()):
        print(f"   bare at {name}: {len(found)} calls, e.g. argument {found[0][0]} = {found[0][1]}: {found[0][3][:110]}")

    t = time.perf_counter()
    counts, findings = F.fuzz_numerics(args.layouts, seed=args.seed)
    _table(f"numerics: vectorised vs scalar, {args.layouts:,} random layouts per family "
           f"({time.perf_counter() - t:.1f} s)", counts, first="layouts")
    for f in findings[:10]:
        print("   finding:", f)

    print(f"\npeak RSS {_rss_mib():.0f} MiB (a MemoryError past the address-space limit counts in \"> 1 GiB\")")
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    if args.requests:
        bench_server(args.requests)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
