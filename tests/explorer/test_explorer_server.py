"""The explorer's HTTP server: the page, JSON answers, 4xx with messages, loopback only, clean stop."""

import builtins
import http.client
import json
import os
import socket
import subprocess
import threading

import pytest

from unilayout import LayoutError
from unilayout.explorer import serve
from unilayout.explorer.api import MAX_REQUEST_BYTES


def request(srv, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, resp.getheader("Content-Type") or "", data
    finally:
        conn.close()


def post(srv, path, obj):
    status, ctype, data = request(srv, "POST", path, json.dumps(obj).encode(), {"Content-Type": "application/json"})
    assert ctype.startswith("application/json")
    return status, json.loads(data)


def test_binds_loopback_only(server):
    assert server.host == "127.0.0.1" and server.url == f"http://127.0.0.1:{server.port}/"
    assert server._httpd.socket.getsockname()[0] == "127.0.0.1"
    for host in ("0.0.0.0", "", "::", "192.168.1.1"):
        with pytest.raises(LayoutError, match="127.0.0.1 only"):
            serve(host=host)
    with pytest.raises(LayoutError, match="port"):
        serve(port=70000)


def test_page_and_its_files(server):
    status, ctype, data = request(server, "GET", "/")
    page = data.decode()
    assert status == 200 and ctype.startswith("text/html")
    for hook in ('id="layout-input"', 'id="layout-view"', 'id="layout-error"', 'id="cell-details"'):
        assert hook in page
    assert request(server, "GET", "/?layout=8:1")[0] == 200
    assert request(server, "GET", "/app.js")[1].startswith("text/javascript")
    assert request(server, "GET", "/style.css")[1].startswith("text/css")


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/static/../server.py", "/server.py", "/api/view",
                                  "/%2e%2e/__init__.py", "/app.js/../../api.py"])
def test_no_other_file_is_served(server, path):
    status, ctype, data = request(server, "GET", path)
    assert status == 404 and json.loads(data)["error"]["message"]


def test_view_request(server):
    status, view = post(server, "/api/view", {"text": "(4,8):(8,1)"})
    assert status == 200 and view["count"] == 32 and view["svg"].count('class="cell"') == 32


@pytest.mark.parametrize("body, status", [
    (b"{", 400), (b"[]", 400), (b'"text"', 400), (b'{"text": null}', 400), (b'{"text": ["8:1"]}', 400),
    (b'{"text": "(2,2):(1,"}', 400), (b'{"text": "(d0) -> (d0 floordiv 0)"}', 400),
    (b'{"text": "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, '
     b'memref<18x31xf32, #tt.memory_space<l1>>>>"}', 400),
])
def test_bad_view_requests_get_400_with_a_message(server, body, status):
    got, ctype, data = request(server, "POST", "/api/view", body, {"Content-Type": "application/json"})
    err = json.loads(data)["error"]
    assert got == status and isinstance(err["message"], str) and err["message"]
    assert "Traceback" not in err["message"]


def test_parse_error_carries_its_position(server):
    status, out = post(server, "/api/view", {"text": "((2,2),2):((4,1),2"})
    assert status == 400 and out["error"]["position"] == 18 and out["error"]["field"] == "text"


def test_unknown_paths_methods_and_sizes(server):
    assert post(server, "/api/exec", {"text": "8:1"})[0] == 404
    for method in ("PUT", "DELETE", "PATCH", "OPTIONS"):
        status, _, data = request(server, method, "/api/view", b"{}")
        assert status == 405 and "not allowed" in json.loads(data)["error"]["message"]
    big = b'{"text": "' + b"1" * MAX_REQUEST_BYTES + b'"}'
    status, _, data = request(server, "POST", "/api/view", big)
    assert status == 413 and json.loads(data)["error"]["message"]
    # A declared length beyond the cap is refused before the body is read.
    conn = socket.create_connection((server.host, server.port), timeout=10)
    conn.sendall(b"POST /api/view HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n")
    assert b" 413 " in conn.recv(4096).split(b"\r\n")[0] + b" "
    conn.close()
    conn = socket.create_connection((server.host, server.port), timeout=10)
    conn.sendall(b"POST /api/view HTTP/1.1\r\nHost: x\r\n\r\n")
    assert b" 411 " in conn.recv(4096).split(b"\r\n")[0] + b" "
    conn.close()


def test_big_layouts_are_drawn_not_refused(server):
    status, out = post(server, "/api/view", {"text": "tensor<300x300xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), "
                                                     "undef, <1x1>, memref<300x300xf32, #tt.memory_space<l1>>>>"})
    assert status == 200 and out["count"] == 90000 and out["canvas"]["rows"] * out["canvas"]["cols"] == 90000
    status, out = post(server, "/api/view", {"text": "(300,300):(1,300)"})
    assert status == 200 and out["count"] == out["total"] == 90000 and out["svg"] == ""


def test_only_parsing_and_rendering_run(server, monkeypatch, tmp_path):
    """Text that is code stays text: with eval/exec/os.system/subprocess booby-trapped, every request is answered.

    The one ``exec`` allowed is unilayout.affine's evaluator running the code it
    generates from a parsed map (file names ``<affine-map-...>``).
    """
    ok = [("/api/view", {"text": "8:1"}), ("/api/view", {"text": "{devices=[2]<=[2]}", "shape": [4]}),
          ("/api/metal", {"shape": "53x63", "grid": "3x2"}),
          ("/api/algebra", {"a": "4:1", "b": "2:1", "op": "composition"}),
          ("/api/encodings", {"shape": [16, 16], "a": {"kind": "blocked", "params": {
              "size_per_thread": [1, 1], "threads_per_warp": [4, 8], "warps_per_cta": [1, 1], "order": [1, 0]}}})]
    for path, body in ok:  # warm up: lazy imports (a family's first text) run module code through exec, legitimately
        assert post(server, path, body)[0] == 200, path
    calls = []
    real_exec = builtins.exec

    def affine_exec_only(code, *args, **kwargs):
        if getattr(code, "co_filename", "").startswith("<affine-map-"):
            return real_exec(code, *args, **kwargs)
        calls.append("exec")
        raise AssertionError("the explorer called exec")

    def trap(name):
        def refuse(*args, **kwargs):
            calls.append(name)
            raise AssertionError(f"the explorer called {name}")
        return refuse

    for mod, name in [(builtins, "eval"), (os, "system"), (os, "popen"), (subprocess, "Popen"), (subprocess, "run")]:
        monkeypatch.setattr(mod, name, trap(name))
    monkeypatch.setattr(builtins, "exec", affine_exec_only)
    marker = tmp_path / "pwned"
    evil = [f"__import__('os').system('touch {marker}')", f"open('{marker}', 'w')", "exec('1')",
            "(2,2):(1,2); import os", "{{7*7}}", "<script>alert(1)</script>"]
    for text in evil:
        status, out = post(server, "/api/view", {"text": text})
        assert status == 400 and out["error"]["message"], text
    status, out = post(server, "/api/encodings", {"shape": [8, 8], "a": {"kind": "__import__", "params": {}}})
    assert status == 400
    status, out = post(server, "/api/algebra", {"a": "4:1", "b": "2:1", "op": "__class__"})
    assert status == 400
    for path, body in ok:
        assert post(server, path, body)[0] == 200, path
    assert not marker.exists() and calls == []


def test_concurrent_requests(server):
    results = []

    def go():
        results.append(post(server, "/api/view", {"text": "(8,8):(8,1)"})[1]["count"])

    threads = [threading.Thread(target=go) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == [64] * 8


def test_stops_cleanly():
    srv = serve(port=0)
    port = srv.port
    assert request(srv, "GET", "/")[0] == 200
    before = threading.active_count()
    srv.shutdown()
    assert not srv.running and srv.wait(0)
    assert not srv._thread.is_alive() and threading.active_count() <= before - 1
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    srv.shutdown()  # idempotent
    again = serve(port=port)  # the port is free again
    assert again.port == port
    again.shutdown()


def test_busy_port_is_a_clear_error():
    with serve(port=0) as srv:
        with pytest.raises(LayoutError, match="cannot listen"):
            serve(port=srv.port)


def test_a_bug_answers_a_brief_500_and_is_logged_once(server, monkeypatch, caplog):
    import logging

    from unilayout.explorer import server as server_module

    def broken(path, body):
        raise RuntimeError("boom")

    monkeypatch.setattr(server_module, "handle", broken)
    with caplog.at_level(logging.ERROR, logger="unilayout.explorer.server"):
        status, answer = post(server, "/api/view", {"text": "4:1"})
    assert status == 500 and answer["error"]["message"] == "internal error: RuntimeError: boom"
    records = [r for r in caplog.records if r.name == "unilayout.explorer.server"]
    assert len(records) == 1 and records[0].exc_info and "Traceback" not in json.dumps(answer)
