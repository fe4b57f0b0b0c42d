"""``unilayout check`` (``unilayout.cli.check``): valid texts, the reasons of invalid ones, parse errors."""

import json

import pytest
from helpers_cli import ALL, METAL, run


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
