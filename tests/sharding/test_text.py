"""sharding.text: HLO, Shardy, DTensor and TTNN placement texts over a tensor shape."""

import pytest

from unilayout import LayoutError, ParseError
from unilayout.sharding.text import is_placements, parse


def test_each_vocabulary_reads_to_the_same_sharding():
    want = parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
    assert parse("sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6)) == want
    assert parse('#sdy.sharding<@mesh, [{"x"}, {}]>', (8, 6), mesh='sdy.mesh @mesh = <["x"=2, "y"=2]>') == want
    assert parse('sdy.mesh @mesh = <["x"=2, "y"=2]> #sdy.sharding<@mesh, [{"x"}, {}]>', (8, 6)) == want
    assert parse("Shard(0), Replicate()", (8, 6), mesh_shape=(2, 2)) == want
    assert parse("[PlacementShard(0), PlacementReplicate()]", (8, 6), mesh_shape=(2, 2)) == want


def test_what_a_text_needs_beside_it_is_asked_for():
    with pytest.raises(LayoutError, match="needs the tensor's shape"):
        parse("{devices=[2]0,1}")
    with pytest.raises(ParseError) as e:  # a bad HLO text is a positioned error even without its shape
        parse("  {1, 2}")
    assert e.value.position == 3
    with pytest.raises(LayoutError, match="give --mesh-shape"):
        parse("Shard(0)", (4,))
    with pytest.raises(LayoutError, match="expected an HLO sharding"):
        parse("hello", (4,))


def test_is_placements():
    assert is_placements("[Shard(0), R]") and is_placements("PlacementReplicate()") and not is_placements("8:1")
