"""from_ttnn / to_ttnn: TTNN's chunk rule, ShardTensor2dMesh, round trips and refusals."""

import random

import pytest

from unilayout import LayoutError, NotRepresentableError, ParseError
from unilayout.sharding import Sharding, from_dtensor, from_ttnn, parse_hlo, shard_tensor_2d_mesh, to_ttnn


def ttnn_chunks(n, k):
    """TTNN's xtensor::chunk sizes, written from its definition: ceil-sized chunks until the dim is used up."""
    c = -(-n // k)
    out, start = [], 0
    while len(out) < k and start < n:
        out.append(min(c, n - start))
        start += out[-1]
    return out


def test_chunk_rule_against_the_definition():
    for n in range(1, 12):
        for k in range(1, 9):
            pieces = ttnn_chunks(n, k) if k <= n else None
            if pieces is None or len(pieces) < k:
                with pytest.raises(NotRepresentableError, match="needs one piece per device"):
                    from_ttnn(["PlacementShard(0)"], (k,), (n,))
            else:
                s = from_ttnn(["PlacementShard(0)"], (k,), (n,))
                assert [s.local_shape(d)[0] for d in range(k)] == pieces


def test_same_as_dtensor_where_ttnn_accepts_and_round_trip():
    rng = random.Random(2)
    done = 0
    for _ in range(200):
        ms = rng.choice([(2,), (4,), (2, 2), (2, 4), (1, 8), (4, 2)])
        rank = rng.randint(1, 3)
        shape = tuple(rng.randint(1, 12) for _ in range(rank))
        pl = [rng.choice(["PlacementReplicate()"] + [f"PlacementShard({d})" for d in range(rank)]) for _ in ms]
        try:
            s = from_ttnn(pl, ms, shape)
        except NotRepresentableError:
            continue
        assert s == from_dtensor([p.replace("Placement", "") for p in pl], ms, shape)
        assert from_ttnn(to_ttnn(s, ms), ms, shape) == s
        done += 1
    assert done > 100


def test_shard_tensor_2d_mesh():
    assert shard_tensor_2d_mesh((0, 1)) == ("PlacementShard(0)", "PlacementShard(1)")
    s = from_ttnn(shard_tensor_2d_mesh((1, None)), (2, 4), (3, 8))
    assert s.device_boxes[4] == [((0, 3), (4, 8))] and s.replicated[4]
    with pytest.raises(LayoutError, match="dims=\\(row_dim, col_dim\\)"):
        shard_tensor_2d_mesh((0, 1, 2))


def test_refusals_and_errors():
    with pytest.raises(NotRepresentableError, match="has no Partial placement"):
        to_ttnn(Sharding((2,), {0: [((0, 2),)], 1: [((0, 2),)]}, partial=[0, 1]), (2,))
    with pytest.raises(NotRepresentableError, match=r"3 pieces \(2\+2\+1\) for the 4 devices"):
        to_ttnn(parse_hlo("{devices=[4]<=[4]}", (5,)), (4,))
    with pytest.raises(NotRepresentableError, match="into at most 2 pieces"):
        from_ttnn(["PlacementShard(0)"], (4,), (2,))
    with pytest.raises(ParseError, match="unknown TTNN placement 'Split'"):
        from_ttnn(["Split(0)"], (2,), (4,))
    with pytest.raises(LayoutError, match="out of range"):
        from_ttnn(["PlacementShard(3)"], (2,), (4,))
    with pytest.raises(LayoutError, match="2 placements for a mesh of 1 dims"):
        from_ttnn(["PlacementShard(0)", "PlacementReplicate()"], (2,), (4,))
    with pytest.raises(LayoutError, match="expected a TTNN placement"):
        from_ttnn([object()], (2,), (4,))
