"""unilayout._notebook: every family's values display as their SVG picture through IPython's formatters."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

IPython = pytest.importorskip("IPython")

from unilayout import _families, _notebook, affine, cute, linear, sharding, tsl, tt  # noqa: E402

VALUES = {
    "cute": cute.parse("((2,2),2):((4,1),2)"),
    "swizzle": cute.parse("Sw<2,0,2> o 0 o (4,4):(4,1)"),
    "bare swizzle": cute.Swizzle(2, 0, 2),
    "linear": linear.parse("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2]], warp = [], block = []}>"),
    "affine": affine.parse("(d0, d1) -> (d1, d0)"),
    "tsl": tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"),
    "metal": tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)),
    "device": tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (1, 2)),
    "xla": sharding.parse_xla_layout("f32[3,5]{1,0:T(2,2)}"),
}


@pytest.fixture(scope="module")
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    assert _notebook.register(ip)
    return ip


def test_types_are_the_registrys():
    want = {t for name in _families.families() for t in _families.record(name).types}
    assert set(_notebook.value_types()) == want and len(want) >= 14


@pytest.mark.parametrize("name", list(VALUES))
def test_each_family_formats_as_its_svg(shell, name):
    from unilayout import viz

    value = VALUES[name]
    data, _ = shell.display_formatter.format(value)
    svg = data["image/svg+xml"]
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    kw = {"shape": (8, 8)} if name == "affine" else {}
    assert svg == viz.to_svg(value, max_cells=_notebook.MAX_CELLS, **kw)
    assert svg.count('class="cell') + svg.count('class="core') > 0
    assert "text/html" not in data and "text/plain" in data  # the picture once (issue 23: it was stored twice)


def test_undrawable_values_fall_back_to_text(shell):
    data, _ = shell.display_formatter.format(tsl.parse("#tsl.tsl<[?, 4] -> (?, 1)>"))
    assert "image/svg+xml" not in data and "text/plain" in data


def test_values_do_not_import_viz():
    code = ("import sys, unilayout; from unilayout import cute, linear, affine, tsl, tt; "
            "cute.Layout(4, 1); print('unilayout.viz' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "False"


def test_import_inside_ipython_registers():
    code = ("from IPython.testing.globalipapp import start_ipython; ip = start_ipython(); import unilayout; "
            "from unilayout import cute; d = ip.display_formatter.formatters['image/svg+xml'].lookup(cute.Layout(4, 1))(cute.Layout(4, 1)); "
            "print(d.startswith('<svg'))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip().endswith("True"), r.stderr[-2000:]


def test_explorer_widget_is_the_explorer_page():
    pytest.importorskip("anywidget")
    from unilayout import LayoutError
    from unilayout.explorer import render_html

    w = _notebook.explorer_widget("(4,8):(8,1)")
    assert w.html == render_html("(4,8):(8,1)") and w.html.count('class="cell"') == 32
    w.text = "tensor<300x300xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x4>, " \
             "memref<75x75xf32, #tt.memory_space<l1>>>>"
    assert '"canvas"' in w.html and len(w.html) < 500_000  # the big layout on the canvas, compactly
    w2 = _notebook.explorer_widget(VALUES["affine"], shape=(3, 5))
    assert w2.html.count('class="cell"') == 15 and "render(" in w2._esm
    with pytest.raises(LayoutError):
        _notebook.explorer_widget("(2,2):(1,")


def test_a_real_notebook_stores_each_picture_once_sharding_and_tiled_mma_included():
    # issue 23: 7 values made 4.4 MB of outputs (every picture twice), Sharding and TiledMMA showed as text
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    cells = ["import unilayout\nfrom unilayout import cute, linear, sharding, tt",
             "sharding.parse_hlo('{devices=[2,2]<=[4]}', (8, 8))",
             "cute.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (2, 2, 1))",
             "cute.parse('Sw<3,3,3> o 0 o (8,64):(64,1)')",
             "linear.parse('#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2]], warp = [], block = []}>')",
             "tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    for cell in nb.cells[1:]:
        (out,) = cell.outputs
        data = out["data"]
        assert set(data) == {"text/plain", "image/svg+xml"}, (cell.source, set(data))
        assert sum(str(v).count("<svg") for v in data.values()) == 1, cell.source
        assert 'class="cell' in data["image/svg+xml"] or 'class="core' in data["image/svg+xml"], cell.source
