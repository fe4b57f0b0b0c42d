"""``unilayout rosetta``: one instruction's table, the whole matrix (text, JSON, Markdown) and the list."""

import json
import pathlib

from helpers_cli import run

from unilayout import rosetta

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "rosetta.md"


def test_one_instruction_prints_each_system_with_its_verdict(capsys):
    status, out, _ = run(capsys, "rosetta", "mma.sync.m16n8k16.f32.f16")
    assert status == 0 and out.splitlines()[0] == "mma.sync.m16n8k16.f32.f16 (reference: cute)"
    assert out.count(" reference ") == 3 and out.count(" same ") == 12  # tensor-layouts, TileLang, TIRx, Triton


def test_json_rows_are_the_table(capsys):
    status, out, _ = run(capsys, "rosetta", "mfma.32x32x8.f16", "--json")
    d = json.loads(out)
    assert status == 0 and d["command"] == "rosetta"
    assert [r["verdict"] for r in d["rows"]] == [r.verdict for r in rosetta.table("mfma.32x32x8.f16")]


def test_the_docs_hold_the_current_matrix(capsys):
    status, out, _ = run(capsys, "rosetta", "--all", "--markdown")
    assert status == 0 and out.strip() in DOC.read_text()  # regenerate with: unilayout rosetta --all --markdown


def test_list_and_usage_errors(capsys):
    status, out, _ = run(capsys, "rosetta", "--list")
    assert status == 0 and out.split() == rosetta.instruction_names()
    assert run(capsys, "rosetta")[0] == 2
    status, _, err = run(capsys, "rosetta", "wgmma.m64n7k16")
    assert status == 2 and "unknown instruction" in err
