"""``unilayout convert`` (``unilayout.cli.convert``): exact conversions, metal shards and forms, and the reasons
why not."""

import json

import pytest
from helpers_cli import AFFINE, CUTE, DEVICE, LINEAR, MEMCFG, METAL, TSL, run

from unilayout import cute, linear, tt


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


def test_a_value_with_a_default_tile_converts_without_shape(capsys):
    # a Mosaic register layout converts over its own base tile; an affine map still asks for its box
    from unilayout import mosaic

    status, out, _ = run(capsys, "convert", "plgpu.Layout.WGMMA", "--to", "cute")
    assert status == 0 and out.strip() == str(mosaic.WGMMA.to_cute_tv())
    status, _, err = run(capsys, "convert", "(d0) -> (d0)", "--to", "cute")
    assert status == 2 and "give --shape" in err
