"""parse_shardy / to_shardy: against the Shardy text JAX lowers to, sub-axes, round trips, errors."""

import random
import re

import numpy as np
import pytest

from unilayout import LayoutError, NotRepresentableError, ParseError
from unilayout.sharding import Sharding, parse_hlo, parse_shardy, to_shardy
from unilayout.sharding.shardy import parse_mesh

MESH = 'sdy.mesh @mesh = <["x"=4, "y"=2]>'


def test_sub_axes_match_their_hlo_form():
    # "x":(1)2 is the major half of x (coordinate x // 2), "x":(2)2 the minor half (x mod 2)
    major = parse_shardy('#sdy.sharding<@mesh, [{"x":(1)2}]>', '<["x"=4]>', (8,))
    assert major == parse_hlo("{devices=[2,2]<=[4] last_tile_dim_replicate}", (8,))
    minor = parse_shardy('#sdy.sharding<@mesh, [{"x":(2)2}]>', '<["x"=4]>', (8,))
    assert minor == parse_hlo("{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}", (8,))
    both = parse_shardy('#sdy.sharding<@mesh, [{"x":(2)2}, {"x":(1)2}]>', '<["x"=4]>', (4, 4))
    assert both.device_boxes[1] == [((2, 4), (0, 2))] and both.device_boxes[2] == [((0, 2), (2, 4))]


def test_device_ids_open_dims_priorities_replicated_unreduced():
    mesh = '<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>'
    s = parse_shardy('#sdy.sharding<@m, [{"x", ?}p1, {?}], replicated={"y"}>', mesh, (4, 2))
    assert s.device_boxes == {0: [((2, 4), (0, 2))], 1: [((2, 4), (0, 2))], 2: [((0, 2), (0, 2))],
                              3: [((0, 2), (0, 2))]}
    u = parse_shardy('#sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>', MESH, (8,))
    assert all(u.partial.values()) and u.device_boxes[1] == [((0, 2),)]
    inline = parse_shardy('#sdy.sharding<mesh<["a"=2]>, [{"a"}]>', None, (4,))
    assert inline.device_boxes == {0: [((0, 2),)], 1: [((2, 4),)]}
    maximal = parse_shardy('#sdy.sharding<@m, []>', '<[], device_ids=[5]>', (3,))  # names no dims, any shape
    assert maximal.device_boxes == {5: [((0, 3),)]}
    assert to_shardy(maximal) == ('#sdy.sharding<@mesh, []>', 'sdy.mesh @mesh = <[], device_ids=[5]>')


def test_uneven_dims_are_padded_tiles():
    s = parse_shardy('#sdy.sharding<@mesh, [{"x"}]>', MESH, (5,))
    assert [s.local_shape(d) for d in (0, 2, 4, 6)] == [(2,), (2,), (1,), (0,)]


def test_round_trips():
    rng = random.Random(5)
    for _ in range(100):
        t = [rng.choice([1, 2, 4]) for _ in range(rng.randint(1, 3))]
        R = rng.choice([1, 2])
        n = int(np.prod(t)) * R
        ids = list(range(n))
        rng.shuffle(ids)
        text = f"{{devices=[{','.join(map(str, t + ([R] if R > 1 else [])))}]{','.join(map(str, ids))}" \
               f"{' last_tile_dim_replicate' if R > 1 else ''}}}"
        shape = tuple(rng.randint(1, 9) * k for k in t)
        s = parse_hlo(text, shape)
        st, mt = to_shardy(s)
        assert parse_shardy(st, mt, shape) == s, (text, st, mt)
    p = Sharding((4,), {0: [((0, 4),)], 1: [((0, 4),)]}, partial=[0, 1])
    assert parse_shardy(*to_shardy(p), (4,)) == p


def test_against_jax_lowering(jax_devices):
    import jax
    from helpers_sharding import positions, random_case
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    from unilayout.sharding import from_jax
    devs = jax_devices
    rng = random.Random(11)
    for _ in range(30):
        mesh, spec, shape = random_case(rng, devs, Mesh, P)
        named = NamedSharding(mesh, spec)
        text = jax.jit(lambda a: a, in_shardings=named).lower(jax.ShapeDtypeStruct(shape, np.float32)).as_text()
        mesh_line = next(line.strip() for line in text.splitlines() if line.strip().startswith("sdy.mesh"))
        sharding = re.search(r"#sdy\.sharding<@\w+, \[.*?\]>", text).group(0)
        got = parse_shardy(sharding, mesh_line, shape)
        assert got == from_jax(named, shape).relabel(positions(mesh)), (sharding, mesh_line)


def test_refusals_and_errors():
    with pytest.raises(NotRepresentableError, match="only some devices hold partial sums"):
        to_shardy(Sharding((4,), {0: [((0, 4),)], 1: [((0, 4),)]}, partial=[0]))
    with pytest.raises(NotRepresentableError, match=r"split 2\+1\+1\+1: Shardy cuts it"):
        to_shardy(Sharding((5,), {0: [((0, 2),)], 1: [((2, 3),)], 2: [((3, 4),)], 3: [((4, 5),)]}))
    for sharding, mesh, msg in [
        ('#sdy.sharding<@mesh, [{"x"}, {"x"}]>', MESH, "used twice"),
        ('#sdy.sharding<@mesh, [{"x":(1)4}, {"x":(2)2}]>', MESH, "sub-axis size is equal to the full axis size"),
        ('#sdy.sharding<@mesh, [{"x":(3)2}]>', MESH, "doesn't divide"),
        ('#sdy.sharding<@mesh, [{"x"}]>', MESH, "1 dim shardings for an array of rank 2"),
        ('#sdy.sharding<@mesh, [{"x"}, {}], odd={}>', MESH, "expected 'replicated=' or 'unreduced='"),
        ('#sdy.shard<@mesh, [{}]>', MESH, "'#sdy.sharding'"),
        ('#sdy.sharding<@mesh, [{"x"}, {}]>', '<["x"=2, "x"=2]>', "named twice"),
        ('#sdy.sharding<@mesh, [{"x"}, {}]>', '<["x"=2], device_ids=[0]>', "device_ids has 1 ids"),
        ('#sdy.sharding<@mesh, [{"x"}, {}]>', '<["x"=0]>', "sizes are >= 1"),
    ]:
        with pytest.raises(ParseError, match=msg):
            parse_shardy(sharding, mesh, (8, 8))
    with pytest.raises(LayoutError, match="names mesh @mesh but the mesh text is @other"):
        parse_shardy('#sdy.sharding<@mesh, [{}]>', 'sdy.mesh @other = <["x"=2]>', (2,))
    with pytest.raises(ParseError, match="give its text"):
        parse_shardy('#sdy.sharding<@mesh, [{}]>', None, (2,))
    assert parse_mesh('#sdy.mesh<["a"=2]>').axes == (("a", 2),)


def test_mesh_sizes_and_ids_are_bounded():
    from unilayout.sharding._grid import MAX_DEVICES

    with pytest.raises(ParseError, match=f"more than the {MAX_DEVICES}"):
        parse_mesh('<["x"=4294967296, "y"=4294967296]>')
    with pytest.raises(ParseError, match=f"more than the {MAX_DEVICES}"):
        parse_mesh('<["x"=100000000]>')
    with pytest.raises(ParseError, match="out of range"):
        parse_mesh('<["x"=9223372036854775808]>')
    with pytest.raises(ParseError, match="out of range"):
        parse_mesh('<["x"=2], device_ids=[0, 9223372036854775808]>')
    with pytest.raises(ParseError, match="out of range"):
        parse_shardy('#sdy.sharding<@mesh, [{"x":(9223372036854775808)1}]>', '<["x"=2]>', (4,))


# Shardy's own verifier cases (shardy/dialect/sdy/ir/test/tensor_sharding_verification.mlir and
# mesh_verification.mlir): each sharding there carries an expected-error; each is an error here too
SDY_MESH = 'sdy.mesh @mesh = <["a"=8, "b"=4]>'
SDY_ERRORS = [
    ('[{}, {"a":(1)8}]', "sub-axis size is equal to the full axis size"),
    ('[{}, {"a":(2)1}]', "sub-axis sizes must be greater than 1"),
    ('[{}, {"a":(3)2}]', "next pre-size 6 doesn't divide the size of the full axis 8"),
    ('[{}, {"a":(4)4}]', "next pre-size 16 doesn't divide"),
    ('[{"a":(2)4}, {"b":(2)2}], replicated={"a":(1)4}', "overlapping sub-axes"),
    ('[{}, {"a":(2)2, "a":(4)2}]', "two consecutive sub-axes can be merged"),
    ('[{}, {}], replicated={"a":(2)2, "a":(4)2}', "two consecutive sub-axes can be merged"),
    ('[{}, {"a"}], replicated={"a":(2)2}', "both sub-axis and full-axis are used"),
    ('[{}, {"a"}], unreduced={"a":(2)2}', "both sub-axis and full-axis are used"),
    ('[{}, {"a":(2)2}], replicated={"a":(2)2}', "duplicate axis ref"),
    ('[{}, {"a"}], replicated={"a"}', "duplicate axis ref"),
    ('[{}, {}], replicated={"a"}, unreduced={"a"}', "duplicate axis ref"),
    ('[{}, {"a", "a"}]', "duplicate axis ref"),
    ('[{"a"}, {"a"}]', "duplicate axis ref"),
    ('[{}, {}], replicated={"b", "a"}', "replicated axes are not ordered w.r.t. mesh"),
    ('[{}, {}], unreduced={"a":(4)2, "a":(1)2, "b"}', "unreduced axes are not ordered w.r.t. mesh"),
    ('[{"a"}, {}p3]', "dim 1 is empty and closed but has a priority"),
]


@pytest.mark.parametrize("dims, message", SDY_ERRORS)
def test_shardy_verifier_rules_are_errors(dims, message):
    with pytest.raises(ParseError, match=message):
        parse_shardy(f"#sdy.sharding<@mesh, {dims}>", SDY_MESH, (8, 8))


def test_shardy_verifier_accepts_what_it_accepts():
    ok = parse_shardy('#sdy.sharding<@mesh, [{"a":(1)2}, {"a":(4)2, ?}p0], replicated={"a":(2)2, "b"}>', SDY_MESH,
                      (8, 8))
    assert ok.num_devices == 32 and ok.device_boxes[0] == [((0, 4), (0, 4))]
    assert parse_shardy('#sdy.sharding<@mesh, [{?}p2, {}]>', SDY_MESH, (8, 8)).is_fully_replicated  # open: fine


@pytest.mark.parametrize("mesh, message", [
    ('<["a"=2, "b"=2, "a"=4]>', "named twice"),
    ('<[], device_ids=[1, 0]>', "axes is empty and device_ids has more than one element"),
    ('<["a"=2, "b"=2], device_ids=[0, 2, 1, 3, 4, 5]>', "device_ids has 6 ids"),
    ('<["a"=2], device_ids=[1, 1]>', "appears twice"),
    ('<["a"=2], device_ids=[2, 1]>', "sorted device ids must be 0..1"),
])
def test_shardy_mesh_verifier_rules_are_errors(mesh, message):
    with pytest.raises(ParseError, match=message):
        parse_mesh(mesh)


def test_maximal_mesh_sharding_names_no_dims():
    with pytest.raises(ParseError, match="a maximal sharding"):
        parse_shardy('#sdy.sharding<@m, [{}, {}]>', '<[], device_ids=[0]>', (8, 8))
    with pytest.raises(NotRepresentableError, match="numbers its devices 0..n-1"):
        to_shardy(Sharding((4,), {3: [((0, 2),)], 7: [((2, 4),)]}))
