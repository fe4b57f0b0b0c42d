"""``unilayout show`` (``unilayout.cli.show``): facts and tables of every family, --json, --place, TTNN configs."""

import json
import subprocess
import sys

import pytest
from helpers_cli import AFFINE, ALL, CUTE, FAMILIES, LINEAR, MEMCFG, METAL, PLACED, TSL, TWO_CHIPS, run

from unilayout import cute, linear, tt


@pytest.mark.parametrize("text,fam", list(zip(ALL, FAMILIES, strict=True)))
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


@pytest.mark.parametrize("text,fam", list(zip(ALL, FAMILIES, strict=True)))
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


def test_bare_swizzle(capsys, tmp_path):
    status, out, _ = run(capsys, "show", "Sw<2,0,2>")
    assert status == 0 and "bijective:      yes" in out and "view:           Sw<2,0,2> o 0 o (4,4):(4,1)" in out
    assert " 1  |  5 |  4 |  7 |  6 |" in out
    assert run(capsys, "render", "Sw<3,4,3>", "-o", str(tmp_path / "sw.svg"))[0] == 0


def test_show_place_summarises_each_devices_shard(capsys):
    status, out, _ = run(capsys, "show", TWO_CHIPS, "--place", PLACED)
    assert status == 0 and "per-device shards:" in out and "256x512" in out
    status, out, _ = run(capsys, "show", TWO_CHIPS, "--place", PLACED, "--json")
    devices = json.loads(out)["devices"]
    assert [d["chip_id"] for d in devices] == [0, 1] and all(d["bytes"] == 256 * 512 * 4 for d in devices)
    status, _, err = run(capsys, "show", CUTE, "--place", PLACED)
    assert status == 2 and "--place" in err


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
