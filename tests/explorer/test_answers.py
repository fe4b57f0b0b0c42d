"""The server answers a request it has answered before without recomputing it, within a byte bound."""

import http.client
import json

from unilayout.explorer import serve
from unilayout.explorer import server as server_mod
from unilayout.explorer._answers import Answers


def post(srv, path, body):
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
    conn.request("POST", path, body, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    out = resp.status, resp.read()
    conn.close()
    return out


def test_a_repeated_request_is_answered_from_memory(monkeypatch):
    calls = []
    real = server_mod.handle

    def counting(path, body):
        calls.append(body)
        return real(path, body)

    monkeypatch.setattr(server_mod, "handle", counting)
    with serve(port=0) as srv:
        first = post(srv, "/api/view", b'{"text": "(4,8):(8,1)"}')
        second = post(srv, "/api/view", b'{"text": "(4,8):(8,1)"}')
        bad = [post(srv, "/api/view", b'{"text": "(4,8):(8,"}') for _ in range(2)]
        other = post(srv, "/api/view", b'{"text": "(4,8):(1,4)"}')
    assert first == second and first[0] == 200 and json.loads(first[1])["count"] == 32
    assert bad[0] == bad[1] and bad[0][0] == 400
    assert other[0] == 200 and other[1] != first[1]
    assert len(calls) == 3  # one per distinct body


def test_a_500_is_not_kept(monkeypatch):
    answers = iter([(500, {"error": {"message": "boom"}}), (200, {"count": 1})])
    monkeypatch.setattr(server_mod, "handle", lambda path, body: next(answers))
    with serve(port=0) as srv:
        assert post(srv, "/api/view", b'{"text": "1"}')[0] == 500
        assert post(srv, "/api/view", b'{"text": "1"}')[0] == 200


def test_answers_stay_within_their_bytes_least_recently_used_first_out():
    a = Answers(max_bytes=100, max_entry=60)
    a.put(("p", b"a"), 200, b"x" * 39)  # 40 bytes with its key
    a.put(("p", b"b"), 200, b"y" * 39)
    assert a.get(("p", b"a")) is not None  # now b is the least recently used
    a.put(("p", b"c"), 200, b"z" * 39)
    assert a.get(("p", b"b")) is None and a.get(("p", b"a")) and a.get(("p", b"c"))
    a.put(("p", b"d"), 200, b"w" * 80)  # bigger than one entry may be: not kept
    assert a.get(("p", b"d")) is None and a.get(("p", b"c"))
