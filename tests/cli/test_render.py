"""``unilayout render`` (``unilayout.cli.render``): .svg, .png and .html files, the drawing options, --blocks,
--scale."""

import pytest
from helpers_cli import AFFINE, ALL, CUTE, DEVICE, METAL, PLACED, TWO_CHIPS, run


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


def test_render_html_is_the_explorer_page(capsys, tmp_path):
    path = tmp_path / "page.html"
    scalar = METAL.replace("1x1x!tt.tile<32 x 32, bfp_bf8>", "18x32xf32")  # the seed's untilized form
    status, out, err = run(capsys, "render", scalar, "-o", str(path))
    assert status == 0 and out == "" and f"wrote {path}" in err
    html = path.read_text()
    assert "layout-input" in html and html.count('class="cell padding"') == 117
    status, _, err = run(capsys, "render", CUTE, "-o", str(path), "--color", "bank")
    assert status == 2 and ".svg and .png" in err


def test_render_blocks_draws_which_device_holds_which_block(capsys, tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "blocks.svg"
    status, _, _ = run(capsys, "render", TWO_CHIPS, "--place", PLACED, "--blocks", "-o", str(out))
    assert status == 0
    cells = [e for e in ET.parse(out).iter() if "cell" in e.get("class", "").split()]
    assert {e.get("data-chip") for e in cells} == {"0", "1"}
    status, _, err = run(capsys, "render", TWO_CHIPS, "--blocks", "-o", str(out))
    assert status == 2 and "--blocks" in err


def test_scale_is_checked(capsys, tmp_path):
    status, _, err = run(capsys, "render", CUTE, "-o", str(tmp_path / "a.svg"), "--scale", "2")
    assert status == 2 and "--scale" in err
    status, _, err = run(capsys, "render", CUTE, "-o", str(tmp_path / "a.png"), "--scale", "0")
    assert status == 2 and "scale" in err
