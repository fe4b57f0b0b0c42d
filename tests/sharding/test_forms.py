"""sharding.forms: one sharding in each vocabulary that can say it, or why not."""

import pytest

from unilayout import NotRepresentableError
from unilayout.sharding import parse_hlo
from unilayout.sharding.family import SHARDING
from unilayout.sharding.forms import FORMS, conversions, jax_text, to_text


def test_every_vocabulary_writes_the_same_sharding():
    s = parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
    got = conversions(s, None)
    assert list(got) == ["hlo", "shardy", "dtensor", "ttnn", "jax"]
    assert got["dtensor"] == "Shard(0), Replicate()  on mesh 2x2" and got["jax"] == jax_text(s)
    assert [SHARDING.form(s, f) for f in FORMS[:3]] == [got["hlo"], got["shardy"], got["dtensor"]]
    assert to_text(s, "ttnn-mesh", None) == got["ttnn"]


def test_a_vocabulary_that_cannot_say_it_gives_the_reason():
    s = parse_hlo("{devices=[2]1,0}", (4,))
    assert conversions(s, None, "dtensor")["dtensor"] == conversions(s, None)["dtensor"]
    with pytest.raises(NotRepresentableError):
        to_text(parse_hlo("{devices=[4]<=[4]}", (5,)), "jax", (4,))
