"""``unilayout lens FILE``: the table, --json, --values, --function, standard input and bad input (cli/lens.py)."""

import argparse
import io
import json

import pytest

from unilayout.cli import lens as verb
from unilayout.errors import LayoutError, ParseError

DUMP = """#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @first(%x: tensor<64x128xf16, #a>) {
    %0 = ttg.convert_layout %x : tensor<64x128xf16, #a> -> tensor<64x128xf16, #b>
    tt.return
  }
  tt.func @second(%y: tensor<64x128xf16, #b>) {
    %0 = ttg.convert_layout %y : tensor<64x128xf16, #b> -> tensor<64x128xf16, #a>
    tt.return
  }
}
"""


def _run(capsys, *argv):
    p = argparse.ArgumentParser(prog="unilayout")
    verb.add_parser(p.add_subparsers(dest="command"))
    args = p.parse_args(["lens", *argv])
    status = args.run(args)
    return status, capsys.readouterr().out


@pytest.fixture
def dump_file(tmp_path):
    f = tmp_path / "kernel.ttgir"
    f.write_text(DUMP)
    return str(f)


def test_the_table(capsys, dump_file):
    status, out = _run(capsys, dump_file)
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("triton dump: cuda:90")
    assert "@first: 1 move, 16384 B scratch" in lines and "@second: 1 move, 16384 B scratch" in lines


def test_one_function_and_its_values(capsys, dump_file):
    status, out = _run(capsys, dump_file, "--function", "second", "--values")
    assert status == 0 and "@first" not in out and "@second: 1 move" in out
    assert "  @second %y  line 8:" in out and "%x" not in out


def test_json(capsys, dump_file):
    status, out = _run(capsys, dump_file, "--json")
    d = json.loads(out)
    assert status == 0 and d["command"] == "lens" and d["ok"] is True
    assert [f["name"] for f in d["lens"]["functions"]] == ["first", "second"]
    assert d["lens"]["functions"][0]["moves"][0]["scratch_bytes"] == 16384


def test_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(DUMP))
    status, out = _run(capsys, "-")
    assert status == 0 and "@first" in out


def test_bad_input(capsys, tmp_path, dump_file):
    with pytest.raises(LayoutError, match="no function @third"):
        _run(capsys, dump_file, "--function", "third")
    bad = tmp_path / "bad.ttgir"
    bad.write_text(DUMP.replace("tensor<64x128xf16, #b>)", "tensor<64x128xf16, #b)"))
    with pytest.raises(ParseError, match="line 8, column"):
        _run(capsys, str(bad))
    binary = tmp_path / "k.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LayoutError, match="not text"):
        _run(capsys, str(binary))
