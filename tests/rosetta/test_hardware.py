"""bench/rosetta_hw: the loader turns the probes' output into fragments every system is compared with.

No GPU runs here: the loader is checked on the output the probes print when the hardware does what the PTX ISA
figures say (transcribed here, independently of every system), and on outputs that disagree. Where a GPU session
has stored its measurement as tests/rosetta/data/hardware.json, every system is checked against it.
"""

import importlib.util
import json
import pathlib

import numpy as np
import pytest

from unilayout import rosetta

ROOT = pathlib.Path(__file__).resolve().parents[2]
MEASURED = pathlib.Path(__file__).parent / "data" / "hardware.json"


def _load():
    spec = importlib.util.spec_from_file_location("rosetta_hw_load", ROOT / "bench" / "rosetta_hw" / "load.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _isa_output():
    """What run.py stores when the hardware is the PTX ISA's figures."""
    lane, i = np.meshgrid(np.arange(32), np.arange(8), indexing="ij")
    ld = (64 * i[:, ::2] // 2 + 8 * (lane[:, ::2] // 4) + 2 * (lane[:, ::2] % 4))  # register r: matrix r
    ld = np.stack([ld, ld + 1], axis=-1).reshape(32, 8)  # low half: column 2 (t % 4), high half: + 1
    a_row = lane // 4 + 8 * ((i // 2) % 2)
    a_col = 2 * (lane % 4) + i % 2 + 8 * (i // 4)
    lb, j = np.meshgrid(np.arange(32), np.arange(4), indexing="ij")
    b_k, b_n = 2 * (lb % 4) + j % 2 + 8 * (j // 2), lb // 4
    lc, r = np.meshgrid(np.arange(32), np.arange(4), indexing="ij")
    c = np.stack([lc // 4 + 8 * (r // 2), 2 * (lc % 4) + r % 2], axis=-1).reshape(32, 8)
    t, w = np.meshgrid(np.arange(128), np.arange(32), indexing="ij")
    wg = np.stack([16 * (t // 32) + (t % 32) // 4 + 8 * ((w // 2) % 2), 2 * (t % 4) + w % 2 + 8 * (w // 4)], axis=-1)
    dev = {"device": "ISA figures", "sm": 90}
    return {"ldmatrix_x4": dict(dev, D=ld.tolist()),
            "mma_m16n8k16": dict(dev, product_max_error=0, A=(16 * a_row + a_col).tolist(),
                                 B=(16 * b_n + b_k).tolist(), C=c.tolist()),
            "wgmma_m64n64k16": dict(dev, product_max_error=0, C=wg.reshape(128, 64).tolist())}


def test_the_isa_figures_read_back_as_the_fragments_every_system_spells(tmp_path):
    path = tmp_path / "hardware.json"
    path.write_text(json.dumps(_isa_output()))
    load = _load()
    hw = load.fragments(path)
    assert set(hw) == {"ldmatrix.x4", "mma.sync.m16n8k16.f32.f16", "wgmma.m64n64k16.f32.f16"}
    lines = load.report(path)
    assert len(lines) >= 12 and all(line.endswith(" same") for line in lines), lines
    assert rosetta.compare(hw["mma.sync.m16n8k16.f32.f16"]["C"], rosetta.fragments(
        "mma.sync.m16n8k16.f32.f16")["triton"]["C"]).same


def test_a_hardware_order_of_registers_or_threads_shows_in_the_report(tmp_path):
    out = _isa_output()
    c = np.asarray(out["mma_m16n8k16"]["C"]).reshape(32, 4, 2)
    out["mma_m16n8k16"]["C"] = c[:, [1, 0, 2, 3]].reshape(32, 8).tolist()  # two registers the other way round
    wg = np.asarray(out["wgmma_m64n64k16"]["C"]).reshape(128, 32, 2)
    out["wgmma_m64n64k16"]["C"] = wg[np.r_[1, 0, 2:128]].reshape(128, 64).tolist()  # threads 0 and 1 swapped
    path = tmp_path / "hardware.json"
    path.write_text(json.dumps(out))
    lines = _load().report(path)
    assert any("mma.sync.m16n8k16.f32.f16" in x and " C cute" in x and "permutation [1, 0, 2, 3]" in x for x in lines)
    assert any("wgmma" in x and "differ: thread 0 value 0 holds (0, 2)" in x for x in lines)


def test_a_failed_product_check_is_refused(tmp_path):
    out = _isa_output()
    out["mma_m16n8k16"]["product_max_error"] = 3
    path = tmp_path / "hardware.json"
    path.write_text(json.dumps(out))
    with pytest.raises(ValueError, match="not A B"):
        _load().fragments(path)


@pytest.mark.skipif(not MEASURED.exists(), reason="no GPU session has stored bench/rosetta_hw's output yet")
def test_every_system_agrees_with_the_measured_hardware():
    lines = _load().report(MEASURED)
    assert lines and all(line.endswith(" same") for line in lines), "\n".join(lines)
