"""TIRx's fragments: unilayout's reading of the recorded TileLayouts against TIRx's own apply and patterns.

tests/rosetta/data/tirx_facts.json is written by bench/rosetta_tirx.py with apache-tvm-tirx installed: for
each fragment, TIRx's ``apply`` on every point of the atom and the image its CUDA tile pattern passes to
PTX ((lane, register) -> atom coordinate). Here, without TIRx, each is checked element by element.
"""

import base64
import json
import pathlib
import zlib

import numpy as np
import pytest

from unilayout import LayoutError, rosetta
from unilayout.rosetta import tirx
from unilayout.rosetta.tirx_spellings import SPELLINGS

FACTS = json.loads((pathlib.Path(__file__).parent / "data" / "tirx_facts.json").read_text())
PAIRS = [(name, op) for name, ops in FACTS["fragments"].items() for op in ops]


def _unpack(rec):
    raw = np.frombuffer(zlib.decompress(base64.b64decode(rec["zlib_b64"])), dtype="<i2")
    return raw.reshape(rec["shape"]).astype(np.int64)


def test_the_stored_spellings_are_the_recorded_ones():
    assert {(n, op) for n, ops in SPELLINGS.items() for op in ops} == set(PAIRS)
    for name, op in PAIRS:
        atom, _unit, text = SPELLINGS[name][op]
        assert text == FACTS["fragments"][name][op]["text"] and list(atom) == FACTS["fragments"][name][op]["atom"]


@pytest.mark.parametrize("key", sorted(FACTS["tables"]))
def test_axe_reads_each_layout_as_tirx_applies_it(key):
    from unilayout import axe

    layout = axe.parse(key.split("] ", 1)[1])
    table = layout.table()
    ours = np.stack([table[:, list(layout.axes).index(a)] if a in layout.axes else np.zeros(len(table), np.int64)
                     for a in ("laneid", "m")], axis=-1)
    assert np.array_equal(ours, _unpack(FACTS["tables"][key]["apply"]))


@pytest.mark.parametrize("name,op", [p for p in PAIRS if not p[0].startswith("tcgen05.st")])
def test_the_fragment_is_the_image_tirx_passes_to_ptx(name, op):
    layout, atom = tirx.tirx_layout(name, op)
    rec = FACTS["fragments"][name][op]
    img = _unpack(FACTS["tables"][f"{rec['atom']} {rec['text']}"]["image"])  # [lane, register] -> atom coordinate, from the pattern
    frag = tirx.from_tirx(name, op)
    if name.startswith("mma") and op != "C":  # words -> two 16-bit K elements, low half first
        row, col = (frag.coords[..., 1], frag.coords[..., 0]) if op == "B" else (frag.coords[..., 0],
                                                                                frag.coords[..., 1])
        assert np.array_equal(row[:, 0::2], img[..., 0]) and np.array_equal(row[:, 1::2], img[..., 0])
        assert np.array_equal(col[:, 0::2], 2 * img[..., 1]) and np.array_equal(col[:, 1::2], 2 * img[..., 1] + 1)
    elif name.startswith("mma"):
        assert np.array_equal(frag.coords, img)
    else:  # bit 32 * point + b, point row-major over the atom ((row, half, column) for 16x32bx2)
        if ".16x32bx2." in name:
            img = img[..., [1, 0, 2]]
            atom = (atom[1], atom[0], atom[2])
        point = np.ravel_multi_index(tuple(np.moveaxis(img, -1, 0)), atom)
        assert np.array_equal(frag.coords[:, ::32, 0], 32 * point)
        assert np.array_equal(frag.coords[:, 5::32, 0], 32 * point + 5)


def test_every_tirx_spelling_is_in_the_table_and_the_same_as_cute():
    rows = [r for r in rosetta.matrix() if r.system == "tirx"]
    assert {(r.instruction, r.operand) for r in rows} == set(PAIRS)
    assert {r.verdict for r in rows} == {"same"}
    assert len({r.instruction for r in rows}) >= 80


def test_tirx_mma_a_is_the_ptx_figure():
    lane, i = np.meshgrid(np.arange(32), np.arange(8), indexing="ij")
    a = np.stack([lane // 4 + 8 * ((i // 2) % 2), 2 * (lane % 4) + i % 2 + 8 * (i // 4)], axis=-1)
    assert np.array_equal(rosetta.fragments("mma.sync.m16n8k16.f32.bf16")["tirx"]["A"].coords, a)


def test_an_operand_tirx_does_not_describe_is_a_layout_error():
    with pytest.raises(LayoutError, match="TIRx describes no operand 'C' of 'ldmatrix.x4'"):
        tirx.from_tirx("ldmatrix.x4", "C")
