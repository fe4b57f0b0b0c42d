"""Against TVM TIRx itself, where ``apache-tvm-tirx`` is installed (it is not a dependency; CI checks the recorded
facts in data/facts.json instead, see test_layout.py and test_text.py)."""

import random

import pytest

from unilayout import axe

tirx = pytest.importorskip("tvm_tirx.tirx.layout", reason="apache-tvm-tirx is not installed (the recorded facts "
                                                          "in tests/axe/data are checked instead)")


def _random(rng):
    its = lambda n: [(rng.choice([1, 2, 3, 4]), rng.choice([0, 1, 2, 4, -1]), rng.choice(["m", "laneid", "warpid"]))  # noqa: E731
                     for _ in range(n)]
    return axe.TileLayout(its(rng.randint(1, 4)), its(rng.randint(0, 2)), {"m": rng.randrange(5)})


def test_random_layouts_print_and_apply_as_tirx_does():
    import tvm_tirx.backend.cuda.axis as cuda_axis

    cuda_axis.register()
    rng = random.Random(7)
    for _ in range(30):
        ours = _random(rng)
        theirs = tirx.TileLayout.from_iters([tirx.Iter(*i) for i in ours.shard], [tirx.Iter(*i) for i in ours.replica],
                                            dict(ours.offset))
        assert str(theirs) == ours.to_tirx()
        for i in range(ours.size):
            assert {k: int(v) for k, v in theirs.apply(i).items()} == ours.apply(i, replicas=False)
