"""The explorer's request handler in-process: any JSON body (or none) to any route is answered, never a 500."""

import json
import random

import fuzzlib as F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unilayout.explorer.api import handle

ROUTES = ["/api/view", "/api/metal", "/api/algebra", "/api/encodings"]

GOOD = [
    ("/api/view", {"text": "(2,2):(1,2)"}),
    ("/api/view", {"text": "(d0, d1) -> (d1, d0)", "shape": [4, 4]}),
    ("/api/metal", {"shape": [53, 63], "grid": [3, 2], "tile": [32, 32]}),
    ("/api/algebra", {"a": "4:2", "b": "16", "op": "complement"}),
    ("/api/algebra", {"a": "(4,2):(1,4)", "b": "2:1", "op": "logical_divide"}),
    ("/api/encodings", {"shape": [16, 16], "a": {"kind": "blocked", "params": {
        "size_per_thread": [1, 1], "threads_per_warp": [4, 8], "warps_per_cta": [1, 1], "order": [1, 0]}}}),
]

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["text", "shape", "grid", "op", "a", "b", "kind", "params", "collapse", "tile",
                         "alignments", "oob_val", "x"]), inner, max_size=5),
    max_leaves=20)


def _answer(path, body):
    outcome, result, secs = F.run_limited(lambda: handle(path, body), 5.0)
    assert outcome == "value", (path, body[:200], outcome, F.describe(result))
    status, payload = result
    assert status == 200 or (400 <= status < 500 and payload["error"]["message"]), (path, body[:200], status)
    return status


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ROUTES), _json)
def test_any_json_body_is_answered_without_a_500(path, body):
    _answer(path, json.dumps(body).encode())


def _mutate_json(obj, rng):
    """Replace one value somewhere in ``obj`` by a weird one."""
    weird = [None, [1], {"k": 1}, "1" * 5000, 1 << 70, -1, 0, 1.5, True, "", "x" * 9000, [[0, "a"]], ["blocked"]]
    if isinstance(obj, dict) and obj:
        k = rng.choice(list(obj))
        obj = dict(obj)
        obj[k] = _mutate_json(obj[k], rng) if rng.random() < 0.4 else rng.choice(weird)
        return obj
    if isinstance(obj, list) and obj:
        obj = list(obj)
        i = rng.randrange(len(obj))
        obj[i] = rng.choice(weird)
        return obj
    return rng.choice(weird)


def test_mutated_good_requests_are_answered_without_a_500():
    rng = random.Random(18)
    statuses = []
    for _ in range(600):
        path, body = rng.choice(GOOD)
        body = _mutate_json(body, rng)
        raw = json.dumps(body).encode()
        if rng.random() < 0.2:  # and some bytes broken
            raw = F.mutate(raw.decode(), rng).encode("utf-8", "surrogatepass")
        statuses.append(_answer(path, raw))
    assert statuses.count(200) > 0 and any(400 <= s < 500 for s in statuses)
