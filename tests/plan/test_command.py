"""`unilayout plan`: each subcommand against the API, JSON in the one schema, pictures, errors, the help examples."""

import json
import subprocess
import sys

import pytest

import unilayout
from unilayout import plan, tt
from unilayout.cli import main

A = "tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, memref<32x32xf32, #tt.memory_space<l1>>>>"
AT = "tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d1, d0), undef, <8x8>, memref<32x32xf32, #tt.memory_space<l1>>>>"
DEV8 = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")


def run(capsys, *argv):
    status = main(["plan", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_grids_table_and_json(capsys):
    status, out, _ = run(capsys, "grids", "53x63", "--top", "0")
    g = plan.grids((53, 63), DEV8)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 1 + len(g)
    assert lines[1].split()[1] == "x".join(map(str, g[0].grid))
    status, out, _ = run(capsys, "grids", "16x3x64x128", "--mesh", "2x1x1", "--collapse", "1:-1", "--json", "--top", "3")
    d = json.loads(out)
    assert d["schema"] == "unilayout/1" and d["command"] == "plan" and d["what"] == "grids"
    assert d["grids"][0]["grid"] == [2, 8, 8] and d["grids"][0]["cores_used"] == 128
    assert tt.parse(d["grids"][0]["layout"]).grid == (2, 8, 8)


def test_reshard_reports_the_transpose(capsys, tmp_path):
    status, out, err = run(capsys, "reshard", A, AT, "-o", str(tmp_path / "t.png"))
    assert status == 0 and "reinterpretation:   transposed" in out and "moved_bytes:        0" in out
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    status, out, _ = run(capsys, "reshard", A, AT, "--no-reinterpret", "--json")
    d = json.loads(out)
    want = plan.reshard_cost(tt.parse(A), tt.parse(AT), DEV8, reinterpret=False)
    assert d["moved_bytes"] == want.moved_bytes and d["transfers"] == want.transfers and d["reinterpretation"] is None


def test_chain(capsys):
    status, out, _ = run(capsys, "chain", "--op", A, "--op", A, "--op", AT)
    assert status == 0 and "total moved: 0 bytes" in out and "transposed" in out
    status, out, _ = run(capsys, "chain", "--op", A, "--op", f"{A}; {AT}", "--no-reinterpret", "--json")
    d = json.loads(out)
    assert d["choices"] == [0, 0] and d["total_bytes"] == 0 and len(d["edge_costs"][0][0]) == 2


def test_convert(capsys):
    status, out, _ = run(capsys, "convert", "(8,8):(8,1)", "(8,8):(8,1)", "--bits", "16", "--json")
    assert status == 0 and json.loads(out)["vector"] == 8
    blocked = "tensor<32x32xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>>"
    other = "tensor<32x32xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>>"
    status, out, _ = run(capsys, "convert", blocked, other, "--bits", "16")
    assert status == 0 and "level:           lane" in out


_ROW = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
_COL = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"


@pytest.mark.parametrize("elem, bits", [("f16", 16), ("bf16", 16), ("f32", 32), ("f8E4M3FN", 8), ("i64", 64)])
def test_convert_prices_the_element_type_of_the_pasted_tensors(capsys, elem, bits):
    # issue 23: xf16 was priced as 32-bit (32,768 scratch bytes instead of 16,384 for 64x128)
    src, dst = f"tensor<64x128x{elem}, {_ROW}>", f"tensor<64x128x{elem}, {_COL}>"
    status, out, _ = run(capsys, "convert", src, dst, "--json")
    want = plan.triton_conversion(unilayout.parse(src), unilayout.parse(dst), bitwidth=bits)
    assert status == 0 and json.loads(out)["shared_bytes"] == want.shared_bytes == 64 * 128 * bits // 8


def test_convert_reports_triton_s_own_path_and_scratch_bytes(capsys):
    src, dst = f"tensor<64x128xf16, {_ROW}>", f"tensor<64x128xf16, {_COL}>"
    status, out, _ = run(capsys, "convert", src, dst, "--json")
    low = plan.triton_lowering(unilayout.parse(src), unilayout.parse(dst), bitwidth=16)
    d = json.loads(out)
    assert status == 0 and (d["path"], d["scratch_bytes"]) == (low.path, low.scratch_bytes) == ("shared", low.scratch_bytes)
    assert low.scratch_bytes > 0


def test_convert_refuses_two_element_types_unless_bits_are_given(capsys):
    src, dst = f"tensor<64x128xf16, {_ROW}>", f"tensor<64x128xf32, {_COL}>"
    status, _, err = run(capsys, "convert", src, dst)
    assert status == 2 and "16-bit" in err and "32-bit" in err
    status, out, _ = run(capsys, "convert", src, dst, "--bits", "32", "--json")
    assert status == 0 and json.loads(out)["shared_bytes"] == 64 * 128 * 4


def test_errors_exit_2(capsys, tmp_path):
    assert run(capsys, "grids", "53x0")[0] == 2
    assert run(capsys, "grids", "8x8", "--device", A)[0] == 2
    assert run(capsys, "reshard", A, "(4,4):(4,1)")[0] == 2
    assert run(capsys, "convert", A, "(4,4):(4,1)")[0] == 2
    status, _, err = run(capsys, "grids", "8x8", "-o", str(tmp_path / "x.txt"))
    assert status == 2 and ".svg or .png" in err
    status, _, err = run(capsys, "grids", "8x8", "--collapse", "zero")
    assert status == 2 and "--collapse" in err and "Traceback" not in err


def test_help_examples_run(tmp_path):
    from unilayout.plan.command import _EXAMPLES

    text = _EXAMPLES.replace("\\\n", " ")
    lines = [ln.strip().split("  #")[0].strip() for ln in text.splitlines()[1:]]
    assert len(lines) == 4
    for line in lines:
        cmd = line.replace("unilayout ", f"{sys.executable} -m unilayout ", 1)
        r = subprocess.run(cmd, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, (line, r.stderr)


def test_grids_priced_from_a_producer(capsys):
    src = "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>"
    status, out, _ = run(capsys, "grids", "53x63", "--top", "3", "--from", src, "--json")
    d = json.loads(out)
    g = plan.grids((53, 63), DEV8)[:3]
    want = [plan.reshard_cost(tt.parse(src), c.layout, DEV8,
                              dst_device=None if c.placement == "physical" else c.device).moved_bytes for c in g]
    assert [r["moved_from_producer"] for r in d["grids"]] == want
    status, out, _ = run(capsys, "grids", "53x63", "--top", "3", "--from", src)
    assert "moved from producer" in out.splitlines()[0] and out.splitlines()[1].split()[-1] == str(want[0])
