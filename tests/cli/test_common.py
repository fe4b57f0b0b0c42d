"""What the verbs share (``unilayout.cli._common``): TEXT and standard input, --shape, the one JSON schema,
error printing."""

import json
import time

import pytest
from helpers_cli import CUTE, run

from unilayout import LayoutError, cute
from unilayout._families import EXPECTED
from unilayout.cli import SCREEN_CHARS


def test_one_json_schema(capsys):
    from unilayout.cli import JSON_SCHEMA

    outs = [run(capsys, "show", CUTE, "--json"), run(capsys, "check", CUTE, "--json"),
            run(capsys, "convert", "(4,8):(8,1)", "--to", "linear", "--json"), run(capsys, "show", "(2,3):(1,", "--json"),
            run(capsys, "convert", "(3,3):(3,1)", "--to", "linear", "--json")]
    docs = [json.loads(o[1]) for o in outs]
    for (status, _, _), d, cmd in zip(outs, docs, ["show", "check", "convert", "show", "convert"], strict=True):
        assert d["schema"] == JSON_SCHEMA and d["command"] == cmd
        assert d["ok"] is (status == 0)
        if d["ok"]:
            assert d["family"] == "cute" and d["text"]
        else:
            assert set(d["error"]) >= {"type", "message"}
    assert docs[3]["error"]["position"] == 9
    from unilayout import facts
    from unilayout.convert import convert_to

    assert docs[2]["result"] == facts.canonical_text(convert_to(cute.parse("(4,8):(8,1)"), "linear"))
    assert docs[1]["valid"] is True and docs[1]["checks"]


def test_long_parse_errors_stay_on_one_screen(capsys):
    text = "(" + ",".join(["2"] * 400) + "):(" + ",".join(["1"] * 399) + ")"
    status, _, err = run(capsys, "show", text)
    lines = err.splitlines()
    assert status == 2 and len(lines) == 3 and "^" in lines[2]
    # the 100-character window around the position, under the whole message (which quotes the long stride)
    assert len(lines[1]) <= 110 and lines[0].startswith("unilayout: error: stride (1,1,1")
    assert len(lines[0]) <= SCREEN_CHARS + 40


def test_error_longer_than_160_characters_is_printed_whole(capsys):
    assert len(EXPECTED) > 160
    status, out, err = run(capsys, "show", "hello")
    assert status == 2 and out == ""
    assert EXPECTED in err and err.startswith("unilayout: error: ")  # every accepted form is listed


def test_empty_text_names_the_stdin_hint(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("   \n"))
    status, _, err = run(capsys, "show", "-")
    assert status == 2 and "empty text" in err and "'-' to read standard input" in err
    status, _, err2 = run(capsys, "show", "")
    assert status == 2 and "empty text" in err2 and "'-' to read standard input" in err2


def test_shape_resolves_a_dynamic_tsl(capsys, tmp_path):
    dyn = "#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>"
    from unilayout import tsl

    want = tsl.parse(dyn).resolve((64, 64))
    status, out, _ = run(capsys, "show", dyn, "--shape", "64x64", "--json")
    assert status == 0 and json.loads(out)["text"] == str(want)
    p = tmp_path / "t.svg"
    status, _, _ = run(capsys, "render", dyn, "--shape", "64x64", "-o", str(p), "--max-cells", "100000")
    assert status == 0 and p.read_text().count('class="cell"') == 64 * 64


_METAL = ("tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, "
          "memref<32x32xf32, #tt.memory_space<l1>>>>")
_RANK64 = "x".join(["2"] * 64)


@pytest.mark.parametrize("argv, says", [
    (["plan", "grids", "9223372036854775808"], "SHAPE: sizes must be below 2**40"),
    (["plan", "grids", "999999999999999999999999999999x2"], "SHAPE: sizes must be below 2**40"),
    (["plan", "grids", _RANK64], "SHAPE: at most 16 sizes, got 64"),
    (["plan", "grids", "53x63", "--tile", "999999999999999999999999999999x2"], "--tile: sizes must be below"),
    (["plan", "grids", "53x63", "--mesh", _RANK64], "--mesh: at most 16 sizes, got 64"),
    (["plan", "grids", "53x63", "--mesh", "1048576x1048576"], "--mesh: a mesh of at most 65536 devices"),
    (["plan", "reshard", _METAL, _METAL, "--mesh", "1024x1024"], "--mesh: a mesh of at most 65536 devices"),
    (["sharding", "Shard(0), Shard(0)", "--mesh-shape", "1048576x1048576", "--shape", "4x4"],
     "--mesh-shape: a mesh of at most 65536 devices, got 1048576x1048576"),
    (["sharding", "Shard(0), Shard(0)", "--mesh-shape", "2x2", "--shape", _RANK64], "--shape: at most 16 sizes"),
    (["show", "Shard(0), Shard(0)", "--mesh-shape", "1048576x1048576", "--shape", "4x4"], "--mesh-shape: a mesh of"),
    (["show", "Shard(0), Shard(0)", "--mesh-shape", "2x2", "--shape", _RANK64], "--shape: at most 16 sizes"),
    (["show", "(d0, d1) -> (d1, d0)", "--shape", "999999999999999999999999999999x2"], "--shape: sizes must be"),
    (["render", "(d0, d1) -> (d1, d0)", "-o", "-", "--shape", "999999999999999999999999999999x2"], "--shape: sizes"),
    (["convert", "Shard(0)", "--shape", "4", "--mesh-shape", "1048576x1048576", "--to", "dtensor"], "--mesh-shape"),
])
def test_oversized_sizes_are_usage_errors_within_100_ms(capsys, argv, says):
    run(capsys, *argv)  # warm: the verb's lazy imports load once
    t = time.perf_counter()
    status, out, err = run(capsys, *argv)
    assert time.perf_counter() - t < 0.1
    assert status == 2 and "internal error" not in err and says in err, (status, err)


def test_sizes_bounds_rank_size_product_and_devices():
    from unilayout.cli._common import MAX_DEVICES, MAX_SIZE, sizes

    assert sizes("1x" * 15 + "1") == (1,) * 16 and sizes(f"{MAX_SIZE - 1}") == (MAX_SIZE - 1,)
    assert sizes("256x256", "--mesh", devices=True) == (256, 256) and 256 * 256 == MAX_DEVICES
    for text, kw in [("1x" * 16 + "1", {}), (str(MAX_SIZE), {}), (f"{1 << 20}x{1 << 20}", {}),
                     ("256x257", {"devices": True}), ("-1", {}), ("x", {})]:
        with pytest.raises(LayoutError):
            sizes(text, "--shape", **kw)
    assert sizes("0x8", least=0) == (0, 8)
