"""config_facts: the facts of TTNN placements, bounded whatever the tensor's size."""

import time

import pytest

import unilayout
from unilayout import facts
from unilayout.tt.ttnn.facts import config_facts
from unilayout.tt.ttnn.nd import TTNNNDTensorLayout


@pytest.mark.parametrize("distribution", ["round_robin_1d", "grid_2d"])
def test_nd_facts_of_2_pow_54_rows_are_a_bounded_answer(distribution):
    L = TTNNNDTensorLayout((2**54, 32), (1, 3), (32, 32), distribution=distribution, orientation="col_major")
    t = time.perf_counter()
    f = config_facts(L)
    assert f["shard_grid"] == [2**49, 1] and f["cores"] == 3
    if distribution == "round_robin_1d":
        per = f["shards_per_core"]  # round robin: every shard once, the first cores one more
        assert sum(per) == 2**49 and per == sorted(per, reverse=True) and per[0] - per[-1] <= 1
        assert f["metal"].startswith("none: ") and "round-robin" in f["metal"]
    else:  # a 2**49 x 1 grid of shards needs 2**49 cores in a column of 3
        assert "shards_per_core" not in f and f["metal"].startswith("none: GRID_2D")
    d = facts.describe(unilayout.parse(str(L)))
    assert d["shard_grid"] == [2**49, 1] and time.perf_counter() - t < 2
