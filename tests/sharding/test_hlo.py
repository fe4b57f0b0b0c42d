"""parse_hlo / to_hlo: against the HLO text JAX itself produces, round trips, refusals and parse errors."""

import random

import pytest

from unilayout import LayoutError, NotRepresentableError, ParseError
from unilayout.sharding import Sharding, parse_hlo, to_hlo


def test_named_forms():
    s = parse_hlo("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", (8, 6))
    assert s.device_boxes[0] == s.device_boxes[3] == [((0, 4), (0, 6))]
    assert s.device_boxes[4] == [((4, 8), (0, 6))]
    t = parse_hlo("{devices=[2,4]<=[4,2]T(1,0)}", (4, 8))
    # iota [4,2] transposed: tile (0, k) holds devices 0,2,4,6 ; tile (1, k) holds 1,3,5,7
    assert [t.device_boxes[d][0] for d in (0, 2, 4, 6)] == [((0, 2), (2 * k, 2 * k + 2)) for k in range(4)]
    assert t.device_boxes[1] == [((2, 4), (0, 2))]
    assert parse_hlo("sharding={devices=[2]1,0 metadata={op_name=\"x\"}}", (4,)).device_boxes == \
        {0: [((2, 4),)], 1: [((0, 2),)]}
    m = parse_hlo("{maximal device=2}", (3,), num_devices=3)
    assert m.devices == (0, 1, 2) and m.device_boxes[2] == [((0, 3),)] and m.device_boxes[0] == []
    assert to_hlo(m) == "{maximal device=2}"
    assert parse_hlo("{replicated}", (3,), num_devices=4).is_fully_replicated
    # '{replicated}' names no device count: over 4 devices the count is written as a replicated tile
    assert to_hlo(parse_hlo("{replicated}", (3,), num_devices=4)) == "{devices=[1,4]<=[4] last_tile_dim_replicate}"
    assert to_hlo(parse_hlo("{replicated}", (3,))) == "{replicated}"
    sub = parse_hlo("{devices=[2,2]<=[4] last_tile_dims={replicated}}", (4,))
    assert sub == parse_hlo("{devices=[2,2]<=[4] last_tile_dim_replicate}", (4,))


def test_uneven_tiles_are_ceil_tiles():
    s = parse_hlo("{devices=[4]<=[4]}", (5,))
    assert [s.local_shape(d) for d in range(4)] == [(2,), (2,), (1,), (0,)]
    # every uneven (size, tiles) pair below 10: XLA's ceil rule, device by device
    for n in range(1, 10):
        for t in range(1, 9):
            s = parse_hlo(f"{{devices=[{t}]<=[{t}]}}", (n,))
            c = -(-n // t)
            for k in range(t):
                a, z = min(k * c, n), min((k + 1) * c, n)
                assert s.device_boxes[k] == ([((a, z),)] if z > a else [])


def test_against_jax_hlo_text(jax_devices):
    from helpers_sharding import positions, random_case
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    from unilayout.sharding import from_jax
    devs = jax_devices
    rng = random.Random(3)
    for _ in range(300):
        mesh, spec, shape = random_case(rng, devs, Mesh, P)
        named = NamedSharding(mesh, spec)
        text = str(named._to_xla_hlo_sharding(len(shape)))
        want = from_jax(named, shape).relabel(positions(mesh))
        got = parse_hlo(text, shape, num_devices=mesh.size)
        assert got == want, (text, spec, shape)
        again = to_hlo(got)
        assert parse_hlo(again, shape, num_devices=mesh.size) == got, (text, again)


def test_refusals():
    with pytest.raises(NotRepresentableError, match=r"split 2\+1\+1\+1: HLO cuts it into 4 tiles of ceil\(5/4\) = 2, i.e. 2\+2\+1\+0"):
        to_hlo(Sharding((5,), {0: [((0, 2),)], 1: [((2, 3),)], 2: [((3, 4),)], 3: [((4, 5),)]}))
    with pytest.raises(NotRepresentableError, match="partial sums"):
        to_hlo(Sharding((2,), {0: [((0, 2),)], 1: [((0, 2),)]}, partial=[0, 1]))
    with pytest.raises(NotRepresentableError, match="2 separate boxes"):
        to_hlo(Sharding((4,), {0: [((0, 1),), ((2, 3),)], 1: [((1, 2),), ((3, 4),)]}))
    with pytest.raises(NotRepresentableError, match="same number of devices"):
        to_hlo(Sharding((4,), {0: [((0, 2),)], 1: [((2, 4),)], 2: [((0, 2),)]}))
    # a manual sharding reads (test_manual_subgroups_*), but has no boxes of one global array
    with pytest.raises(NotRepresentableError, match="manual groups {0, 2}, {1, 3}"):
        parse_hlo("{devices=[2,2]<=[4] last_tile_dims={manual}}", (4,)).boxes(0)


@pytest.mark.parametrize("text, msg", [
    ("{devices=[3]0,1}", "needs 3 device ids, got 2"),
    ("{devices=[2]<=[3]}", "has 3 devices but the tile assignment"),
    ("{devices=[2,2]<=[2,2]T(0,0)}", "not a permutation"),
    ("{devices=[2]0,0}", "appears twice"),
    ("{devices=[0]}", "tile counts must be >= 1"),
    ("{tiled}", "unknown HLO sharding 'tiled'"),
    ("{devices=[2]<=[2]", "'}' to close"),
    ("devices=[2]<=[2]}", "'{' to open"),
    ("{{replicated}}", "tuple sharding"),
    ("{maximal 3}", "'device=' after 'maximal'"),
    ("{devices=[2]<=[2] last_tile_dims={odd}}", "unknown subgroup type"),
])
def test_parse_errors_have_positions(text, msg):
    with pytest.raises(ParseError, match=msg) as e:
        parse_hlo(text, (4,))
    assert e.value.position is not None


def test_rank_and_argument_errors():
    with pytest.raises(LayoutError, match="tiles 2 dims"):
        parse_hlo("{devices=[2,1]0,1}", (4,))
    with pytest.raises(LayoutError, match="expected HLO sharding text"):
        parse_hlo(3, (4,))
    with pytest.raises(LayoutError, match="Sharding"):
        to_hlo("s")


def test_uneven_tiles_with_empty_devices_round_trip():
    """5 rows over 4 tiles leaves the 4th tile empty: to_hlo / to_shardy still say it (empty devices take empty tiles)."""
    import numpy as np

    from unilayout.sharding import parse_shardy, to_shardy
    rng = random.Random(13)
    empties = 0
    for _ in range(200):
        t = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(1, 3))]
        R = rng.choice([1, 2])
        ids = list(range(int(np.prod(t)) * R))
        rng.shuffle(ids)
        text = f"{{devices=[{','.join(map(str, t + ([R] if R > 1 else [])))}]{','.join(map(str, ids))}" \
               f"{' last_tile_dim_replicate' if R > 1 else ''}}}"
        shape = tuple(rng.randint(1, 9) for _ in t)
        s = parse_hlo(text, shape)
        empties += any(not b for b in s.device_boxes.values())
        if all(not b for b in s.device_boxes.values()):
            continue
        assert parse_hlo(to_hlo(s), shape, s.num_devices) == s, (text, shape)
        assert parse_shardy(*to_shardy(s), shape) == s, (text, shape)
    assert empties > 30


def test_device_counts_are_bounded_before_building():
    from unilayout.sharding._grid import MAX_DEVICES

    assert parse_hlo("{maximal device=100000000}", (8,)).devices == (100000000,)  # one device, nothing to build
    with pytest.raises(LayoutError, match=f"more than the {MAX_DEVICES}"):
        parse_hlo("{maximal device=100000000}", (8,), num_devices=100000001)
    with pytest.raises(LayoutError, match=f"more than the {MAX_DEVICES}"):
        parse_hlo("{replicated}", (8,), num_devices=1 << 40)
    with pytest.raises(ParseError, match=f"more than the {MAX_DEVICES}"):
        parse_hlo("{devices=[4294967296,4294967296]<=[18446744073709551615]}", (8, 8))
    assert parse_hlo(f"{{maximal device={MAX_DEVICES - 1}}}", (2,), num_devices=MAX_DEVICES).num_devices == MAX_DEVICES


@pytest.mark.parametrize("text", [
    "{maximal device=9223372036854775808}",
    "{devices=[2]0,9223372036854775808}",
    "{devices=[9223372036854775808]<=[2]}",
    "{devices=[2]<=[9223372036854775808]}",
])
def test_ids_and_sizes_past_int64_are_parse_errors(text):
    with pytest.raises(ParseError, match="out of range"):
        parse_hlo(text, (8,))


@pytest.mark.parametrize("shape", [(4,), (3, 5), (), (0, 4)])
@pytest.mark.parametrize("n", [1, 2, 6])
def test_replicated_round_trips_with_the_shape_alone(shape, n):
    full = tuple((0, v) for v in shape)
    s = Sharding(shape, {d: [full] for d in range(n)})
    assert parse_hlo(to_hlo(s), shape) == s
    shuffled = Sharding(shape, {d: [full] for d in (5, 2, 9)[:n]})
    assert parse_hlo(to_hlo(shuffled), shape) == shuffled


def test_zero_size_replicated_equals_every_reading():
    from unilayout.sharding import parse_shardy

    hlo = parse_hlo("{replicated}", (0, 4), num_devices=2)
    sdy = parse_shardy('#sdy.sharding<@mesh, [{}, {}]>', '<["x"=2]>', (0, 4))
    tiled = parse_hlo("{devices=[2,1]0,1}", (0, 4))
    assert hlo == sdy == tiled and sdy == hlo and hash(hlo) == hash(sdy) == hash(tiled)
    assert hlo.is_fully_replicated and sdy.is_fully_replicated
    assert parse_hlo("{maximal device=1}", (0, 4), num_devices=2) == hlo


def test_maximal_on_every_device_round_trips():
    """XLA counts one device in {maximal device=k} (HloSharding.num_devices() == 1): every k reads back the same."""
    xc = pytest.importorskip("jax._src.lib", reason="XLA's HloSharding is the reference").xla_client
    from unilayout.sharding import parse_shardy, to_shardy
    from unilayout.sharding.family import SHARDING
    for k in range(6):
        text = f"{{maximal device={k}}}"
        ref = xc.HloSharding.from_string(text)
        s = parse_hlo(text, (4, 2))
        assert ref.is_maximal() and s.num_devices == ref.num_devices() == 1
        assert list(s.devices) == list(ref.tile_assignment_devices()) == [k]
        assert parse_hlo(to_hlo(s), (4, 2)) == s
        assert SHARDING.parse(SHARDING.canonical(s), shape=(4, 2)) == s
        assert parse_shardy(*to_shardy(s), (4, 2)) == s
        for n in range(k + 1, k + 4):  # over a module of n devices (num_devices): the others hold nothing
            m = parse_hlo(text, (4, 2), num_devices=n)
            assert m.num_devices == n and parse_hlo(to_hlo(m), (4, 2), n) == m


def test_to_hlo_prints_iota_assignments_as_xla_does():
    """XLA's HloSharding prints the canonical iota (no size-1 dims, neighbour dims merged): to_hlo writes the same."""
    xc = pytest.importorskip("jax._src.lib", reason="XLA's HloSharding is the reference").xla_client
    import numpy as np
    rng = random.Random(1)
    for _ in range(200):
        mesh = rng.choice([(2, 4), (4, 2), (2, 2, 2), (8,), (2, 2), (2, 4, 2), (3, 2), (2, 3, 2)])
        perm = list(range(len(mesh)))
        rng.shuffle(perm)
        a = np.arange(int(np.prod(mesh))).reshape(mesh).transpose(perm)
        dims = [mesh[p] for p in perm]
        rank = rng.randint(1, 3)
        while len(dims) > rank + 1:  # regroup neighbouring transposed dims into the tensor's tiles
            i = rng.randrange(len(dims) - 1)
            dims[i:i + 2] = [dims[i] * dims[i + 1]]
        rep = len(dims) == rank + 1
        dims += [] if rep else [1] * (rank - len(dims))
        text = (f"{{devices=[{','.join(map(str, dims))}]{','.join(map(str, a.reshape(-1)))}"
                f"{' last_tile_dim_replicate' if rep else ''}}}")
        shape = tuple(d * rng.randint(1, 3) for d in dims[:rank])
        s = parse_hlo(text, shape)
        ours = to_hlo(s)
        assert ours == str(xc.HloSharding.from_string(ours)), text  # XLA reads ours and prints it back unchanged
        assert parse_hlo(ours, shape) == s


def test_a_tile_left_empty_keeps_its_device_in_the_printed_text():
    # fuzz (issue 30): one row over 2 devices printed as {maximal device=0}, which reads back as one device
    s = parse_hlo("{devices=[2,1]<=[2]}", (1, 16))
    assert s.num_devices == 2 and to_hlo(s) == "{devices=[2,1]<=[2]}" and parse_hlo(to_hlo(s), (1, 16)) == s


# the four texts of XLA's spmd_partitioner_test.cc that the corpus holds (tests/corpus), with their shapes
XLA_MANUAL_TEXTS = [
    ("{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}", (6, 3)),
    ("{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}", (2, 2)),
    ("{devices=[2,1,2]0,2,1,3 last_tile_dims={manual}}", (2, 2)),
    ("{devices=[1,2,2]0,1,2,3 last_tile_dims={manual,replicated}}", (2,)),
]


def _xla_groups(ref):
    """The manual groups of XLA's canonical HloSharding ``ref``: the devices at each index of its manual dim."""
    import numpy as np
    dims = ref.tile_assignment_dimensions()
    types = [str(t).rsplit(".", 1)[-1] for t in ref.subgroup_types()]
    a = np.asarray(ref.tile_assignment_devices()).reshape(dims)
    m = len(dims) - len(types) + types.index("MANUAL")
    return [sorted(np.take(a, k, axis=m).reshape(-1).tolist()) for k in range(dims[m])]


@pytest.mark.parametrize("text, shape", XLA_MANUAL_TEXTS)
def test_manual_subgroups_of_xla_tests_print_back_as_xla_prints_them(text, shape):
    """The corpus's manual texts: XLA's HloSharding::ToString of the text, byte for byte, and XLA's groups."""
    xc = pytest.importorskip("jax._src.lib", reason="XLA's HloSharding is the reference").xla_client
    ref = xc.HloSharding.from_string(text)
    s = parse_hlo(text, shape, num_devices=4)
    assert to_hlo(s, explicit=True) == str(ref)  # e.g. 'last_tile_dims={manual, replicated}', as XLA spells it
    assert [list(g) for g in s.manual.groups] == _xla_groups(ref)
    assert xc.HloSharding.from_string(to_hlo(s)) == ref  # the iota spelling is the same sharding to XLA
    assert parse_hlo(to_hlo(s), shape) == s == parse_hlo(to_hlo(s, explicit=True), shape)


def test_manual_subgroups_boxes_are_tiles_of_each_groups_own_value():
    s = parse_hlo("{devices=[2,1,2]0,2,1,3 last_tile_dims={manual}}", (4, 2))
    # manual index 0 is devices 0 (tile 0) and 1 (tile 1); manual index 1 is devices 2 and 3
    assert s.manual.groups == ((0, 1), (2, 3))
    assert s.group_boxes == {0: [((0, 2), (0, 2))], 1: [((2, 4), (0, 2))], 2: [((0, 2), (0, 2))],
                             3: [((2, 4), (0, 2))]}
    assert s.replicated == {d: False for d in range(4)}  # devices 0 and 2 hold the same box of different values
    r = parse_hlo("{devices=[1,2,2]0,1,2,3 last_tile_dims={manual,replicated}}", (2,))
    assert r.replicated == {d: True for d in range(4)} and r.manual.groups == ((0, 1), (2, 3))


def _random_subgroup_text(rng):
    """A tile assignment with random manual / replicated subgroup dims (some of size 1), as a list or an iota."""
    import numpy as np
    rank = rng.randint(0, 2)
    data = [rng.choice([1, 2, 3]) for _ in range(rank)]
    types = [rng.choice(["manual", "replicated"]) for _ in range(rng.randint(1, 3))]
    types[rng.randrange(len(types))] = "manual"
    sub = [rng.choice([1, 2, 2, 3]) for _ in types]
    dims = data + sub
    n = int(np.prod(dims))
    if n > 1 and rng.random() < 0.5:  # (XLA's parser wants more than one device in a list)
        body = ",".join(map(str, rng.sample(range(n), n)))
    else:
        a = rng.choice([d for d in (2, 3, 4, 6) if n % d == 0 and d < n] or [n])
        body = f"<=[{a},{n // a}]T(1,0)" if a < n and rng.random() < 0.5 else f"<=[{n}]"  # XLA needs T( for 2 dims
    text = f"{{devices=[{','.join(map(str, dims))}]{body} last_tile_dims={{{','.join(types)}}}}}"
    shape = tuple(t * rng.randint(1, 3) - rng.randint(0, 1) for t in data)
    return text, shape, n, all((t - 1) * -(-k // t) < k for t, k in zip(data, shape))


def test_manual_subgroups_against_xla_on_random_texts():
    """XLA's Subgroup canonical form (size-1 dims dropped, manual dims merged, manual first, copies sorted)."""
    xc = pytest.importorskip("jax._src.lib", reason="XLA's HloSharding is the reference").xla_client
    rng = random.Random(23)
    kinds = set()
    for _ in range(300):
        text, shape, n, filled = _random_subgroup_text(rng)
        ref = xc.HloSharding.from_string(text)
        s = parse_hlo(text, shape, num_devices=n)
        if ref.is_manual():  # XLA's {manual}: every device a group of its own
            kinds.add("manual")
            assert s.manual.groups == tuple((d,) for d in range(n)), text
            assert to_hlo(s) == ("{manual}" if n == 1 else f"{{devices=[{','.join(['1'] * len(shape) + [str(n)])}]"
                                 f"<=[{n}] last_tile_dims={{manual}}}}")
        elif not ref.subgroup_types():  # the manual dims were all of size 1: one global array, as XLA reads it
            kinds.add("global")
            assert s.manual is None, text
            if ref.is_replicated():  # (to_hlo writes the device count XLA's '{replicated}' leaves out)
                assert s.is_fully_replicated, text
            elif filled and n > 1:  # (one device: XLA keeps '{devices=[1]<=[1]}', to_hlo writes '{replicated}')
                assert to_hlo(s, explicit=not ref.is_tile_assignment_iota()) == str(ref), text
        else:
            kinds.add("partial")
            ours = to_hlo(s, explicit=not ref.is_tile_assignment_iota())
            assert str(xc.HloSharding.from_string(to_hlo(s))) == to_hlo(s)  # XLA prints our iota back unchanged
            if filled:  # (devices of empty tiles hold nothing: which empty tile each one takes is not a fact)
                assert [list(g) for g in s.manual.groups] == _xla_groups(ref), text
                assert ours == str(ref) or xc.HloSharding.from_string(ours) == ref, (text, ours)
                assert ours == str(ref) or ref.is_tile_assignment_iota(), (text, ours)
        assert parse_hlo(to_hlo(s), shape, num_devices=n) == s, text
    assert kinds == {"manual", "global", "partial"}
