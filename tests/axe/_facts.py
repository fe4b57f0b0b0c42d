"""The facts TIRx recorded (bench/axe_facts.py), loaded once for the tests of this folder."""

import json
import pathlib

from unilayout import axe

FACTS = json.loads((pathlib.Path(__file__).parent / "data" / "facts.json").read_text())


def build(rec):
    """The unilayout value a recorded layout was built from (its iters and offsets, not its text)."""
    tile = axe.TileLayout(rec["shard"], rec["replica"], rec["offset"])
    if rec["kind"] == "compose":
        return axe.ComposeLayout(rec["per_element"], rec["swizzle_len"], rec["atom_len"], tile, rec["swizzle_inner"])
    return tile
