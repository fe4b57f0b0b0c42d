"""The ``unilayout`` command, in-process (main(argv) -> status, capsys) and once through the console script."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from unilayout import __version__, cute, linear, tt
from unilayout._families import EXPECTED
from unilayout._tour import TOUR
from unilayout.cli import SCREEN_CHARS, main

CUTE = "((2,2),(2,3)):((1,12),(2,4))"
LINEAR = ("#ttg.linear<{register = [[1, 0], [2, 0], [0, 32]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], "
          "warp = [[0, 16], [16, 0]], block = []}>")
TSL = "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"
AFFINE = "(d0, d1) -> (d0 * 8 + d1)"
METAL = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
         "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")
DEVICE = ("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, "
          "meshShape = 1x2, chipIds = [0, 1]>")
ALL = [CUTE, LINEAR, TSL, AFFINE, METAL, DEVICE]
FAMILIES = ["cute", "linear", "tsl", "affine", "metal", "device"]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_version(capsys):
    assert run(capsys, "--version") == (0, f"unilayout {__version__}\n", "")


def test_no_command_prints_help(capsys):
    status, out, _ = run(capsys)
    assert status == 0 and "show" in out and "tour" in out


@pytest.mark.parametrize("text,fam", list(zip(ALL, FAMILIES)))
def test_show_every_family(capsys, text, fam):
    status, out, _ = run(capsys, "show", text)
    assert status == 0
    assert out.startswith(f"family:         {fam}\n")


def test_show_cute_prints_print_layout(capsys):
    _, out, _ = run(capsys, "show", CUTE)
    assert cute.layout_table(cute.parse(CUTE)) in out
    assert "injective:      yes" in out and "surjective:     yes (onto 0..23)" in out
    assert "contiguity:     2" in out


def test_show_linear_prints_triton_views(capsys):
    from unilayout.viz.linear import hardware_view, tensor_view

    L = linear.parse(LINEAR)
    _, out, _ = run(capsys, "show", LINEAR)
    assert str(L).strip("\n") in out
    assert hardware_view(L).rstrip("\n") in out and tensor_view(L).rstrip("\n") in out
    assert "contiguity:     4" in out and "bijective:      yes" in out


def test_show_metal_prints_padding_and_shards(capsys):
    _, out, _ = run(capsys, "show", METAL)
    assert "padding:        slots=2805" in out
    assert "grid of shards (each core: data extent +padding per dim):" in out
    assert "2  17x32 +15,+0  17x31 +15,+1" in out
    assert "per core:" in out and "(2,1)   17x31    +15,+1    497" in out


def test_show_affine_with_and_without_shape(capsys):
    _, out, _ = run(capsys, "show", AFFINE)
    assert "--shape" in out
    _, out, _ = run(capsys, "show", AFFINE, "--shape", "2x3")
    assert "bounds:         [[0, 10]]" in out and "1   8  9 10" in out


@pytest.mark.parametrize("text,fam", list(zip(ALL, FAMILIES)))
def test_show_json(capsys, text, fam):
    status, out, _ = run(capsys, "show", text, "--json")
    d = json.loads(out)
    assert status == 0 and d["family"] == fam and "tables" in d and d["text"]


def test_show_json_facts(capsys):
    d = json.loads(run(capsys, "show", TSL, "--json")[1])
    assert (d["size"], d["offset"], d["injective"], d["addresses"]) == (64, 5, True, [5, 68])
    d = json.loads(run(capsys, "show", METAL, "--json")[1])
    assert d["padding"]["slots"] == 2805 and d["grid"] == [3, 2] and d["tile"] == [32, 32]


def test_show_big_layout_skips_the_table(capsys):
    status, out, _ = run(capsys, "show", "(4096,4096):(4096,1)")
    assert status == 0 and "not shown" in out and "size:           16777216" in out


def test_show_reads_stdin(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("8:1\n"))
    status, out, _ = run(capsys, "show", "-")
    assert status == 0 and "text:           8:1" in out


@pytest.mark.parametrize("argv,expected", [
    (["(4,2):(2,1)", "--to", "tsl"], "#tsl.tsl<[4] -> (2), [2] -> (1)>"),
    (["(4,2):(2,1)", "--to", "affine"], "(d0, d1) -> (d0 * 2 + d1)"),
    ([TSL, "--to", "affine"], "(d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + (d1 floordiv 4) * 16 + d1 mod 4 + 5)"),
    ([AFFINE, "--to", "cute", "--shape", "4x8"], "(4,8):(8,1)"),
    ([CUTE, "--to", "cute"], CUTE),
])
def test_convert(capsys, argv, expected):
    status, out, _ = run(capsys, "convert", *argv)
    assert status == 0 and out == expected + "\n"


def test_convert_linear_round_trip(capsys):
    status, out, _ = run(capsys, "convert", LINEAR, "--to", "cute")
    assert status == 0
    L = cute.parse(out.strip())
    lin = linear.index_map(linear.parse(LINEAR))
    assert (cute.index_map(L) == lin[:, 0] + 32 * lin[:, 1]).all()  # out-dims flattened, dim0 least significant
    status, out, _ = run(capsys, "convert", "(4,2):(2,1)", "--to", "linear")
    assert status == 0 and "where out dims are: [offset (size 8)]" in out


def test_convert_metal_to_cute_lists_shards(capsys):
    status, out, _ = run(capsys, "convert", METAL, "--to", "cute")
    assert status == 0 and len(out.splitlines()) == 6 and out.startswith("core (0, 0)")


@pytest.mark.parametrize("argv,needle", [
    (["(3,2):(1,3)", "--to", "linear"], "not a power of two"),
    ([TSL, "--to", "cute"], "offset 5"),
    ([AFFINE, "--to", "cute"], "--shape"),
    ([DEVICE, "--to", "cute"], "device"),
])
def test_convert_not_representable(capsys, argv, needle):
    status, out, err = run(capsys, "convert", *argv)
    assert status == 2 and out == "" and err.startswith("unilayout: error:") and needle in err


@pytest.mark.parametrize("text", ALL)
def test_check_valid(capsys, text):
    status, out, _ = run(capsys, "check", text)
    assert status == 0 and out.startswith("valid: ")
    status, out, _ = run(capsys, "check", text, "--json")
    d = json.loads(out)
    assert status == 0 and d["valid"] is True and d["checks"][0]["check"] == "parses"


def test_check_reports_the_reason(capsys):
    bad_device = "#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1 floordiv 2)>, meshShape = 1, chipIds = [0]>"
    status, out, _ = run(capsys, "check", bad_device)
    assert status == 2 and out.startswith("INVALID") and "both land on chip 0" in out
    status, out, _ = run(capsys, "check", bad_device, "--json")
    d = json.loads(out)
    assert status == 2 and d["valid"] is False and not d["checks"][1]["ok"]


def test_check_parse_error(capsys):
    bad = METAL.replace("1x1x!tt", "2x1x!tt")
    status, out, err = run(capsys, "check", bad)
    assert status == 2 and "memref" in err and "^" in err
    status, out, _ = run(capsys, "check", "(2,3):(1,", "--json")
    d = json.loads(out)
    assert status == 2 and d["valid"] is False and d["error"]["type"] == "ParseError" and d["error"]["position"] == 9


@pytest.mark.parametrize("text", ALL)
@pytest.mark.parametrize("ext", [".svg", ".png"])
def test_render(capsys, tmp_path, text, ext):
    path = str(tmp_path / ("pic" + ext))
    argv = ["render", text, "-o", path] + (["--shape", "4x8"] if text == AFFINE else [])
    status, out, err = run(capsys, *argv)
    assert status == 0 and out == ""
    assert "rendering" in err and f"wrote {path}" in err
    data = open(path, "rb").read()
    if ext == ".svg":
        import xml.etree.ElementTree as ET

        root = ET.fromstring(data)
        assert root.tag.endswith("svg")
        assert any("cell" in (g.get("class") or "").split() for g in root.iter("{http://www.w3.org/2000/svg}g"))
    else:
        assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_options(capsys, tmp_path):
    p = str(tmp_path / "b.svg")
    assert run(capsys, "render", "(32,32):(32,1)", "-o", p, "--color", "bank")[0] == 0
    assert 'class="conflict"' in open(p).read()
    assert run(capsys, "render", "((32,4),4):((16,4),1)", "-o", p, "--tv", "16x32")[0] == 0
    assert ">T0<" in open(p).read()
    placed = ("tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, "
              "memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")
    assert run(capsys, "render", DEVICE, "-o", p, "--place", placed)[0] == 0
    assert 'data-shard="1"' in open(p).read()
    status, _, err = run(capsys, "render", "(300,300):(300,1)", "-o", p, "--max-cells", "100")
    assert status == 0 and "note: showing rows" in err


@pytest.mark.parametrize("argv,needle", [
    (["render", "(4,2):(2,1)", "-o", "x.jpg"], ".svg, .png or .html"),
    (["render", "(4,2):(2,1)", "-o", "/nonexistent-dir/x.svg"], "No such file"),
    (["render", TSL, "-o", "x.svg", "--color", "bank"], "colour modes"),
    (["render", AFFINE, "-o", "x.svg"], "shape"),
    (["render", "(4,2):(2,1)", "-o", "x.svg", "--tv", "4xq"], "8x8"),
    (["render", DEVICE, "-o", "x.svg", "--place", CUTE], "--place"),
    (["show", "(2,3):(1,2"], "position 10"),
    (["show", "#tsl.tsl<[a, b] -> (8, 1)>"], "position 10"),
    (["show", "#ttg.linear<{register = [[1]], lane = []}>"], "error"),
    (["show", "tensor<4x4xf32>"], "metal"),
    (["show", "   "], "empty text"),
    (["show", "(4,2):(2,1)", "--max-cells", "x"], "invalid int"),
    (["convert", "(4,2):(2,1)"], "--to"),
    (["convert", "(4,2):(2,1)", "--to", "metal"], "invalid choice"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_with_a_short_message(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert needle in err and len(err.splitlines()) <= 24


def test_long_parse_errors_stay_on_one_screen(capsys):
    text = "(" + ",".join(["2"] * 400) + "):(" + ",".join(["1"] * 399) + ")"
    status, _, err = run(capsys, "show", text)
    lines = err.splitlines()
    assert status == 2 and len(lines) == 3 and "^" in lines[2]
    # the 100-character window around the position, under the whole message (which quotes the long stride)
    assert len(lines[1]) <= 110 and lines[0].startswith("unilayout: error: stride (1,1,1")
    assert len(lines[0]) <= SCREEN_CHARS + 40


def test_tour(capsys, tmp_path):
    out_dir = tmp_path / "tour"
    status, out, err = run(capsys, "tour", "-o", str(out_dir))
    assert status == 0
    files = sorted(os.listdir(out_dir))
    assert len(files) == 2 * len(TOUR) and files[0] == "1-cute-blocked-product.png"
    for k, stop in enumerate(TOUR, 1):
        assert out.count(f"== {k}.") == 1 and (out + err).count(stop[1]) == 1  # each heading once
    assert err.count("[") == 0  # no progress bar off a terminal
    assert "storage[18]" in out and "2805" in out
    assert "shard (3, 15) on (1, 3, 7)" in out  # the 256x1024 tensor's last shard: chip 1, core (3, 7)
    assert run(capsys, "tour", "-o", str(tmp_path / "svg"), "--format", "svg")[0] == 0
    from unilayout.viz.png import png_size

    one = png_size((out_dir / files[0]).read_bytes())
    assert run(capsys, "tour", "-o", str(tmp_path / "x2"), "--format", "png", "--scale", "2")[0] == 0
    assert png_size((tmp_path / "x2" / files[0]).read_bytes()) == (2 * one[0], 2 * one[1])
    assert all(f.endswith(".svg") for f in os.listdir(tmp_path / "svg"))


def test_tour_texts_parse_to_the_seed_values():
    from unilayout.linear import encodings as E

    values = [t[3] for t in TOUR]
    assert cute.parse(values[0]) == cute.blocked_product(cute.Layout((2, 2), (1, 2)), cute.Layout((2, 3), (3, 1)))
    assert linear.parse(values[1]) == E.amd_mfma([32, 64], 3, [16, 16, 16], False, [2, 2])
    assert tt.parse(values[3]).padding_summary().total == 2805
    assert tt.parse(values[4]).physical_core(0, 8) == (1, 0, 0)


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


def _console():
    exe = shutil.which("unilayout")
    return [exe] if exe else [sys.executable, "-m", "unilayout.cli"]


def test_console_script():
    ok = subprocess.run(_console() + ["show", "(4,2):(2,1)", "--json"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and json.loads(ok.stdout)["size"] == 8
    bad = subprocess.run(_console() + ["show", "(4,2):(2,1"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "position 10" in bad.stderr


def test_bare_swizzle(capsys, tmp_path):
    status, out, _ = run(capsys, "show", "Sw<2,0,2>")
    assert status == 0 and "bijective:      yes" in out and "view:           Sw<2,0,2> o 0 o (4,4):(4,1)" in out
    assert " 1  |  5 |  4 |  7 |  6 |" in out
    assert run(capsys, "render", "Sw<3,4,3>", "-o", str(tmp_path / "sw.svg"))[0] == 0


def test_render_html_is_the_explorer_page(capsys, tmp_path):
    path = tmp_path / "page.html"
    scalar = METAL.replace("1x1x!tt.tile<32 x 32, bfp_bf8>", "18x32xf32")  # the seed's untilized form
    status, out, err = run(capsys, "render", scalar, "-o", str(path))
    assert status == 0 and out == "" and f"wrote {path}" in err
    html = path.read_text()
    assert "layout-input" in html and html.count('class="cell padding"') == 117
    status, _, err = run(capsys, "render", CUTE, "-o", str(path), "--color", "bank")
    assert status == 2 and ".svg and .png" in err


def test_serve_prints_its_url_and_stops_on_interrupt():
    import signal
    import urllib.request

    # (serve stops on SIGINT even where the shell started it with SIGINT ignored, as a background job is)
    proc = subprocess.Popen(_console() + ["serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("unilayout explorer: http://127.0.0.1:")
        url = line.split(": ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200 and "layout-input" in r.read().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err


PLACED = ("tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x16>, "
          "memref<32x64xf32, #tt.memory_space<l1>>>>")
TWO_CHIPS = ("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, "
             "meshShape = 1x2, chipIds = [0, 1]>")


def test_show_place_summarises_each_devices_shard(capsys):
    status, out, _ = run(capsys, "show", TWO_CHIPS, "--place", PLACED)
    assert status == 0 and "per-device shards:" in out and "256x512" in out
    status, out, _ = run(capsys, "show", TWO_CHIPS, "--place", PLACED, "--json")
    devices = json.loads(out)["devices"]
    assert [d["chip_id"] for d in devices] == [0, 1] and all(d["bytes"] == 256 * 512 * 4 for d in devices)
    status, _, err = run(capsys, "show", CUTE, "--place", PLACED)
    assert status == 2 and "--place" in err


def test_render_blocks_draws_which_device_holds_which_block(capsys, tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "blocks.svg"
    status, _, _ = run(capsys, "render", TWO_CHIPS, "--place", PLACED, "--blocks", "-o", str(out))
    assert status == 0
    cells = [e for e in ET.parse(out).iter() if "cell" in e.get("class", "").split()]
    assert {e.get("data-chip") for e in cells} == {"0", "1"}
    status, _, err = run(capsys, "render", TWO_CHIPS, "--blocks", "-o", str(out))
    assert status == 2 and "--blocks" in err


def test_a_reader_that_goes_away_ends_the_command_quietly():
    # `unilayout show BIG | head -1` (the output is larger than a pipe's buffer): the closed pipe is not an error
    cmd = [sys.executable, "-m", "unilayout.cli", "show", "(128,128):(1,128)", "--max-cells", "16384"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "error" not in err.lower() and "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# Examples in --help, -o -, python -m unilayout, one JSON schema, --scale, --shape for TSL
# ---------------------------------------------------------------------------------------------


def _help_examples():
    from unilayout.cli import _EXAMPLES

    for name, text in _EXAMPLES.items():
        for line in text.splitlines()[1:]:
            line = line.strip()
            if line.startswith(("unilayout ", "python -m unilayout", "echo ")) and " serve" not in line:
                yield name, line.split("  #")[0].strip()


def test_every_help_has_examples(capsys):
    from unilayout.cli import _EXAMPLES, _parser

    for name in [None, "show", "convert", "check", "render", "serve", "tour"]:
        argv = ["--help"] if name is None else [name, "--help"]
        with pytest.raises(SystemExit):
            _parser().parse_args(argv)
        out = capsys.readouterr().out
        assert "examples:" in out and _EXAMPLES[name].splitlines()[1].strip() in out


@pytest.mark.parametrize("name,line", list(_help_examples()))
def test_help_examples_run(tmp_path, name, line):
    cmd = line.replace("python -m unilayout", "unilayout").replace("unilayout ", f"{sys.executable} -m unilayout ")
    r = subprocess.run(cmd, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (line, r.stderr)
    assert "Traceback" not in r.stderr


def test_python_dash_m_and_output_to_stdout():
    r = subprocess.run([sys.executable, "-m", "unilayout", "render", "(4,4):(4,1)", "-o", "-", "--format", "png",
                        "--scale", "2"], capture_output=True, timeout=120)
    assert r.returncode == 0 and r.stdout[:8] == b"\x89PNG\r\n\x1a\n"
    from unilayout.viz.png import png_size

    one = subprocess.run([sys.executable, "-m", "unilayout", "render", "(4,4):(4,1)", "-o", "-", "--format", "png"],
                         capture_output=True, timeout=120)
    w, h = png_size(one.stdout)
    assert png_size(r.stdout) == (2 * w, 2 * h)
    svg = subprocess.run([sys.executable, "-m", "unilayout", "render", "(4,4):(4,1)", "-o", "-"], capture_output=True,
                         text=True, timeout=120)
    assert svg.returncode == 0 and svg.stdout.startswith("<svg") and svg.stdout.count('class="cell"') == 16


def test_scale_is_checked(capsys, tmp_path):
    status, _, err = run(capsys, "render", CUTE, "-o", str(tmp_path / "a.svg"), "--scale", "2")
    assert status == 2 and "--scale" in err
    status, _, err = run(capsys, "render", CUTE, "-o", str(tmp_path / "a.png"), "--scale", "0")
    assert status == 2 and "scale" in err


def test_one_json_schema(capsys):
    from unilayout.cli import JSON_SCHEMA

    outs = [run(capsys, "show", CUTE, "--json"), run(capsys, "check", CUTE, "--json"),
            run(capsys, "convert", "(4,8):(8,1)", "--to", "linear", "--json"), run(capsys, "show", "(2,3):(1,", "--json"),
            run(capsys, "convert", "(3,3):(3,1)", "--to", "linear", "--json")]
    docs = [json.loads(o[1]) for o in outs]
    for (status, _, _), d, cmd in zip(outs, docs, ["show", "check", "convert", "show", "convert"]):
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


def test_shape_resolves_a_dynamic_tsl(capsys, tmp_path):
    dyn = "#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>"
    from unilayout import tsl

    want = tsl.parse(dyn).resolve((64, 64))
    status, out, _ = run(capsys, "show", dyn, "--shape", "64x64", "--json")
    assert status == 0 and json.loads(out)["text"] == str(want)
    p = tmp_path / "t.svg"
    status, _, _ = run(capsys, "render", dyn, "--shape", "64x64", "-o", str(p), "--max-cells", "100000")
    assert status == 0 and p.read_text().count('class="cell"') == 64 * 64


def test_show_of_a_huge_metal_layout_is_fast():
    import time

    big = ("tensor<65536x65536xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, "
           "memref<8192x8192xf32, #tt.memory_space<l1>>>>")
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", "import sys, tracemalloc; tracemalloc.start(); from unilayout.cli import main; "
                        "main(sys.argv[1:]); print(tracemalloc.get_traced_memory()[1])", "show", big],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "slots=0" in r.stdout
    assert time.perf_counter() - t0 < 5  # about 0.3 s here; a generous bound for a shared CI machine
    assert int(r.stdout.split()[-1]) < 50_000_000  # bytes at peak (numpy's included): the padding mask was 4 GB


MEMCFG = ("#ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), "
          "(3,1)>]>, <32x64>, <row_major>>>")


def test_show_a_bare_ttnn_config_prints_its_text_and_fields(capsys):
    status, out, _ = run(capsys, "show", MEMCFG)
    facts = dict(line.split(":", 1) for line in out.splitlines())
    assert status == 0 and facts["family"].strip() == "ttnn" and facts["text"].strip() == MEMCFG
    assert facts["memory_layout"].strip() == "block_sharded" and facts["cores"].strip() == "8"
    status, out, _ = run(capsys, "show", MEMCFG, "--json")
    d = json.loads(out)
    assert status == 0 and (d["family"], d["kind"], d["shard_shape"]) == ("ttnn", "memory_config", [32, 64])
    nd = str(tt.NdShardSpec((32, 32), (2, 2), distribution="GRID_2D"))
    status, out, _ = run(capsys, "show", nd)
    assert status == 0 and "distribution:   grid_2d" in out


def test_a_ttnn_config_with_shape_is_the_layout_it_gives_that_tensor(capsys, tmp_path):
    want = tt.parse(MEMCFG).to_metal((64, 256))
    status, out, _ = run(capsys, "show", MEMCFG, "--shape", "64x256", "--json")
    assert status == 0 and json.loads(out)["text"] == want.tensor_type() and json.loads(out)["grid"] == [2, 4]
    status, out, err = run(capsys, "show", MEMCFG, "--shape", "64x250")
    assert status == 2 and "is not the shard" in err
    for ext in (".svg", ".html"):
        status, _, err = run(capsys, "render", MEMCFG, "--shape", "64x256", "-o", str(tmp_path / f"m{ext}"))
        assert status == 0 and (tmp_path / f"m{ext}").stat().st_size > 1000, err
    status, _, err = run(capsys, "render", MEMCFG, "-o", str(tmp_path / "n.svg"))
    assert status == 2 and "no tensor shape" in err and "--shape" in err


@pytest.mark.parametrize("form", ["v1", "v2", "ttnn"])
def test_convert_between_tt_metal_forms(capsys, form):
    v1 = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    status, out, _ = run(capsys, "convert", str(v1), "--to", form)
    got = tt.parse(out.strip())
    assert status == 0 and got.index_map().tolist() == v1.index_map().tolist()
    assert type(got).__name__ == {"v1": "MetalLayout", "v2": "MetalLayoutV2", "ttnn": "TTNNTensorLayout"}[form]
    status, out, _ = run(capsys, "convert", MEMCFG, "--to", form, "--shape", "64x256", "--json")
    assert status == 0 and json.loads(out)["to"] == form and json.loads(out)["family"] == "metal"


def test_convert_between_tt_forms_refuses_with_the_reason(capsys):
    status, _, err = run(capsys, "convert", str(tt.MetalLayout.from_v2((3, 43, 7), (1, 1))), "--to", "v1")
    assert status == 2 and "v1 cannot pad a group's end" in err
    status, _, err = run(capsys, "convert", CUTE, "--to", "v2")
    assert status == 2 and "not a cute value" in err
    status, _, err = run(capsys, "convert", MEMCFG, "--to", "ttnn")
    assert status == 2 and "--shape" in err


def test_an_nd_sharded_ttnn_tensor_shows_its_fields_and_draws_as_its_metal_layout(capsys, tmp_path):
    nd = ("tensor<64x96xbf16, #ttnn.ttnn_nd_layout<<2x3>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, "
          "<block_sharded>, <row_major>, <grid_2d>>>")
    status, out, _ = run(capsys, "show", nd, "--json")
    d = json.loads(out)
    assert status == 0 and (d["family"], d["kind"], d["shard_grid"]) == ("ttnn", "ttnn_nd_layout", [2, 3])
    assert d["metal"] == tt.parse(nd).to_metal().tensor_type()
    status, out, _ = run(capsys, "convert", nd, "--to", "ttnn")
    assert status == 0 and tt.parse(out.strip()).index_map().tolist() == tt.parse(nd).to_metal().index_map().tolist()
    status, _, err = run(capsys, "render", nd, "-o", str(tmp_path / "nd.svg"))
    assert status == 0 and (tmp_path / "nd.svg").stat().st_size > 1000, err
    status, out, _ = run(capsys, "check", nd)
    assert status == 0 and out.startswith("valid: ttnn tensor<64x96xbf16, #ttnn.ttnn_nd_layout")
    rr = nd.replace("<2x3>, memref<1x1x", "<1x2>, memref<2x1x").replace("grid_2d", "round_robin_1d")
    status, _, err = run(capsys, "render", rr, "-o", str(tmp_path / "rr.svg"))
    assert status == 2 and "round-robin" in err
