"""``unilayout plan`` (``unilayout.cli.plan`` and its option readers ``unilayout.cli._plan_inputs``).

The planner's own tests (grids, reshard, chain, convert through the command) are in tests/plan/test_command.py.
"""

import argparse

import pytest
from helpers_cli import run

from unilayout.cli import _plan_inputs
from unilayout.errors import LayoutError


def test_the_old_module_path_is_an_alias_of_the_verb():
    from unilayout.cli import plan as verb
    from unilayout.plan import command

    assert command.main_for_tests is verb.main_for_tests and command.add_parser is verb.add_parser
    assert command.run is verb.run and command._EXAMPLES == verb.EXAMPLES


def test_plan_without_what_says_what_to_plan(capsys):
    status, out, err = run(capsys, "plan")
    assert status == 2 and out == "" and "grids, reshard, chain or convert" in err


def test_plan_help_lists_its_subcommands_and_examples(capsys):
    status, out, _ = run(capsys, "plan", "--help")
    assert status == 0 and all(w in out for w in ("grids", "reshard", "chain", "convert")) and "examples:" in out


def test_collapse_intervals_read_pairs_and_refuse_other_text():
    assert _plan_inputs.collapse_intervals("0:3,-3:-1") == [(0, 3), (-3, -1)]
    with pytest.raises(LayoutError, match="--collapse: expected intervals"):
        _plan_inputs.collapse_intervals("0-3")


def test_device_is_one_of_device_or_mesh_and_defaults_to_one_chip():
    ns = argparse.Namespace
    assert _plan_inputs.device(ns(device=None, mesh=None)).grid_shape == (8, 8)
    with pytest.raises(LayoutError, match="not both"):
        _plan_inputs.device(ns(device="#tt.device<...>", mesh="1x2"))
    with pytest.raises(LayoutError, match="--device takes a #tt.device"):
        _plan_inputs.device(ns(device="tensor<8x8xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, "
                                      "memref<8x8xf32, #tt.memory_space<l1>>>>", mesh=None))


def test_metal_names_the_option_it_read():
    with pytest.raises(LayoutError, match="SRC must be a tensor"):
        _plan_inputs.metal("#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, "
                           "chipIds = [0]>", "SRC")


def test_write_picture_refuses_other_formats(tmp_path):
    with pytest.raises(LayoutError, match=r"must end in \.svg or \.png"):
        _plan_inputs.write_picture(None, str(tmp_path / "x.jpg"))
