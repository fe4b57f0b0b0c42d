"""The command's entry point (``unilayout.cli``): the parser built from the verbs, --version, --help and its
examples, exit statuses, the console script and ``python -m``."""

import json
import pathlib
import shutil
import subprocess
import sys

import pytest
from helpers_cli import AFFINE, CUTE, DEVICE, TSL, console, run

from unilayout import __version__


def test_version(capsys):
    assert run(capsys, "--version") == (0, f"unilayout {__version__}\n", "")


def test_no_command_prints_help(capsys):
    status, out, _ = run(capsys)
    assert status == 0 and "show" in out and "tour" in out


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
    (["convert", "(4,2):(2,1)", "--to", "metal"], "unknown target family"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_with_a_short_message(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert needle in err and len(err.splitlines()) <= 24


def test_console_script():
    ok = subprocess.run(console() + ["show", "(4,2):(2,1)", "--json"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and json.loads(ok.stdout)["size"] == 8
    bad = subprocess.run(console() + ["show", "(4,2):(2,1"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "position 10" in bad.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly():
    # `unilayout show BIG | head -1` (the output is larger than a pipe's buffer): the closed pipe is not an error
    cmd = [sys.executable, "-m", "unilayout.cli", "show", "(128,128):(1,128)", "--max-cells", "16384"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "error" not in err.lower() and "Traceback" not in err


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
    if name == "lens":  # its examples read a dump: docs/lens.md's epilogue kernel as Triton prints its TTGIR
        shutil.copy(pathlib.Path(__file__).parent / "data" / "kernel.ttgir", tmp_path / "kernel.ttgir")
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


def test_help_loads_no_family():
    # the command starts fast: --help builds every verb's parser without importing a family (or the explorer)
    code = ("import sys, contextlib, io; from unilayout.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(['--help'])\n"
            "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('unilayout.')}))")
    loaded = eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    heavy = {"cute", "linear", "tsl", "tt", "xla", "sharding", "affine", "convert", "explorer", "distributed", "plan"}
    assert not heavy & set(loaded), heavy & set(loaded)


_METAL_T = ("tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, "
            "memref<32x32xf32, #tt.memory_space<l1>>>>")
#: Every verb with one option value left open ({}), filled in turn with each oversized or malformed value.
_SLOTS = [
    ["plan", "grids", "{}"], ["plan", "grids", "53x63", "--mesh", "{}"], ["plan", "grids", "53x63", "--tile", "{}"],
    ["plan", "grids", "53x63", "--top", "{}"], ["plan", "grids", "53x63", "--collapse", "{}"],
    ["plan", "reshard", _METAL_T, _METAL_T, "--mesh", "{}"], ["plan", "convert", CUTE, CUTE, "--bits", "{}"],
    ["plan", "chain", "--op", _METAL_T, "--mesh", "{}"],
    ["show", CUTE, "--shape", "{}"], ["show", AFFINE, "--shape", "{}"], ["show", "#tsl.tsl<[?] -> (1)>", "--shape", "{}"],
    ["show", "Shard(0), Shard(0)", "--mesh-shape", "{}", "--shape", "4x4"],
    ["show", "Shard(0), Shard(0)", "--mesh-shape", "2x2", "--shape", "{}"],
    ["sharding", "Shard(0), Shard(0)", "--mesh-shape", "{}", "--shape", "4x4", "--to", "hlo"],
    ["sharding", "Shard(0), Shard(0)", "--mesh-shape", "2x2", "--shape", "{}"],
    ["sharding", "{devices=[2,1]0,1}", "--shape", "{}"], ["sharding", "{}"],
    ["convert", CUTE, "--to", "affine", "--shape", "{}"], ["convert", AFFINE, "--to", "cute", "--shape", "{}"],
    ["convert", "Shard(0)", "--shape", "4", "--mesh-shape", "{}", "--to", "dtensor"],
    ["check", "{}"], ["check", AFFINE, "--shape", "{}"],
    ["render", CUTE, "-o", "-", "--scale", "{}"], ["render", CUTE, "-o", "-", "--tv", "{}"],
    ["render", AFFINE, "-o", "-", "--shape", "{}"],
    ["codegen", CUTE, "--to", "c", "--shape", "{}"], ["codegen", "{}", "--to", "c"],
    ["rosetta", "{}"], ["serve", "--port", "{}"],
]
_BAD_VALUES = ["9223372036854775808", "x".join(["2"] * 64), "1048576x1048576", "9" * 30 + "x2", "-1", "0", "x", "",
               "\x00", "1" * 5000]


@pytest.mark.parametrize("template", _SLOTS, ids=lambda t: " ".join(a[:12] for a in t))
def test_every_verb_with_oversized_or_malformed_values_is_a_usage_error_or_an_answer(capsys, template):
    for value in _BAD_VALUES:
        argv = [value if a == "{}" else a for a in template]
        if argv[0] == "serve" and value in ("0", ""):
            continue  # port 0 is a free port: it would serve
        status, out, err = run(capsys, *argv)
        assert "internal error" not in err and status in (0, 2), (argv[:6], status, err[-300:])
