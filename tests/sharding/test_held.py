"""Shardings as people hold them (sharding.held): HLO lines, MLIR attributes, torch and JAX reprs.

Each text is what the producer itself prints (JAX's HLO and StableHLO dumps,
torch's and JAX's reprs); the boxes read from it are checked against the
producer's own answer (``devices_indices_map``, the torch placements read
directly).
"""

import random
import re

import pytest

from unilayout import LayoutError, ParseError, _families
from unilayout.sharding import from_dtensor, from_jax, parse_hlo
from unilayout.sharding.family import SHARDING
from unilayout.sharding.held import is_held, unwrap
from unilayout.sharding.text import parse

jax = pytest.importorskip("jax", reason="JAX prints the texts these tests read (pip install 'unilayout[jax]')")
import jax.numpy as jnp  # noqa: E402
from helpers_sharding import positions, random_case  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

DEVS = jax.devices()
pytestmark = pytest.mark.skipif(len(DEVS) < 8, reason="needs 8 JAX devices (XLA_FLAGS set in conftest.py)")


def _cases(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        mesh, spec, shape = random_case(rng, DEVS, Mesh, P)
        out.append((mesh, spec, shape))
    return out


def _same(got, want, text):
    """``got`` is JAX's ``want``; ``{replicated}`` names no device count (the module's num_partitions does)."""
    if want.is_fully_replicated and "{replicated}" in text:
        assert got.is_fully_replicated and got.num_devices == 1, text
    else:
        assert got == want, text


def _lowered(mesh, spec, shape):
    return jax.jit(lambda x: x + 1, in_shardings=NamedSharding(mesh, spec)).lower(jnp.zeros(shape, jnp.float32))


def test_hlo_instruction_lines_jax_prints_read_with_their_shape():
    for mesh, spec, shape in _cases(25, 3):
        hlo = _lowered(mesh, spec, shape).as_text(dialect="hlo")
        line = next(ln for ln in hlo.splitlines() if "parameter(0)" in ln)
        want = from_jax(NamedSharding(mesh, spec), shape).relabel(positions(mesh))  # HLO numbers mesh positions
        got = parse(line.strip())  # the shape comes from the line
        assert got == parse_hlo(re.search(r"sharding=(\{[^}]*\})", line).group(1), shape) == SHARDING.parse(line)
        _same(got, want, line)


def test_mhlo_sharding_attributes_of_stablehlo_read_with_their_shape():
    jax.config.update("jax_use_shardy_partitioner", False)
    try:
        for mesh, spec, shape in _cases(15, 5):
            text = _lowered(mesh, spec, shape).as_text()
            line = next(ln for ln in text.splitlines() if "mhlo.sharding" in ln)
            _same(parse(line), from_jax(NamedSharding(mesh, spec), shape).relabel(positions(mesh)), line)
    finally:
        jax.config.update("jax_use_shardy_partitioner", True)


def test_sdy_mesh_pasted_with_a_stablehlo_argument():
    for mesh, spec, shape in _cases(15, 9):
        text = _lowered(mesh, spec, shape).as_text()
        lines = [ln for ln in text.splitlines() if "sdy.mesh @" in ln or "sdy.sharding = " in ln]
        want = from_jax(NamedSharding(mesh, spec), shape).relabel(positions(mesh))
        if "sdy.sharding = " not in "\n".join(lines):  # fully replicated: JAX writes no sharding
            continue
        assert parse("\n".join(lines)) == want, lines


def test_xla_sdy_sharding_frontend_attributes_escaped_as_mlir_and_hlo_print_them():
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    hlo = _lowered(mesh, P("y", "x"), (8, 16)).as_text(dialect="hlo")
    want = from_jax(NamedSharding(mesh, P("y", "x")), (8, 16)).relabel(positions(mesh))
    attr = re.search(r'xla\.sdy\.sharding=("(?:[^"\\]|\\.)*")', hlo).group(1)
    meshes = re.search(r"xla\.sdy\.meshes=(\{.*?>\})", hlo).group(1)
    # HLO's own escaping (\") and MLIR's (\22) of the same attributes
    hlo_form = f"xla.sdy.sharding={attr}, xla.sdy.meshes={meshes}"
    mlir_form = ('mhlo.frontend_attributes = {xla.sdy.sharding = ' + attr.replace('\\"', "\\22") + '}, '
                 'xla.sdy.meshes = "' + meshes.replace('"', "\\22") + '"')
    assert parse(hlo_form, (8, 16)) == parse(mlir_form, (8, 16)) == want


def test_torch_placement_tuple_repr():
    pytest.importorskip("torch", reason="torch prints the placements")
    from torch.distributed.tensor import Partial, Replicate, Shard
    from torch.distributed.tensor.placement_types import _StridedShard
    for pls, mesh, shape in [((Shard(0), Replicate()), (2, 4), (8, 6)), ((Shard(dim=1), Shard(0)), (2, 2), (5, 3)),
                             ((Partial(), Shard(0)), (2, 2), (4,)), ((_StridedShard(0, split_factor=2), Shard(0)),
                                                                    (2, 2), (8,))]:
        text = repr(pls)
        assert text.startswith("(") and is_held(text)
        assert parse(text, shape, mesh_shape=mesh) == from_dtensor(list(pls), mesh, shape), text


def test_jax_partition_spec_and_named_sharding_reprs():
    for mesh, spec, shape in _cases(40, 21):
        named = NamedSharding(mesh, spec)
        want = from_jax(named, shape).relabel(positions(mesh))  # a Mesh repr names no devices: mesh order
        assert parse(repr(named), shape) == want, repr(named)
        assert parse(repr(spec), shape, mesh=repr(mesh)) == want, (repr(spec), repr(mesh))
        assert parse(str(spec).replace("P(", "PartitionSpec(", 1), shape, mesh=repr(mesh)) == want


def test_jax_unreduced_spec_is_a_partial_sum():
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    s = parse(repr(P("x", unreduced={"y"})), (8, 4), mesh=repr(mesh))
    assert all(s.partial.values()) and s.sum_groups == ((0, 1, 2, 3), (4, 5, 6, 7))


def test_held_text_errors_point_into_the_text():
    line = "%p = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1]<=[3]}"
    with pytest.raises(ParseError) as e:
        parse(line)
    assert e.value.text == line and line[e.value.position:].startswith("<=[3]")
    with pytest.raises(LayoutError, match="not of shape"):
        parse(line.replace("[3]", "[2]"), (4, 4))
    with pytest.raises(LayoutError, match="needs its mesh"):
        parse("P('x', None)", (4, 4))
    with pytest.raises(LayoutError, match="not an axis of the mesh"):
        parse("P('z')", (4,), mesh="Mesh('x': 2)")
    with pytest.raises(ParseError, match="not a number"):
        parse("%a: tensor<?x16xf32> {mhlo.sharding = \"{replicated}\"}")
    assert unwrap("{replicated}")[0] == "{replicated}" and not is_held("Shard(0)")
    # an attribute dictionary pasted whole, braces and all
    assert unwrap('{mhlo.sharding = "{devices=[2]<=[2]}"}')[0] == "{devices=[2]<=[2]}"


def test_dtensor_partial_shorthand_is_not_a_partition_spec():
    assert not is_held("P(), Shard(0)") and is_held("P(None, 'x')") and is_held("PartitionSpec()")
    assert parse("P(), Shard(0)", (4,), mesh_shape=(2, 2)) == from_dtensor(["Partial()", "Shard(0)"], (2, 2), (4,))
    assert parse("PartitionSpec()", (4,), mesh="Mesh('x': 2)").is_fully_replicated


WING = next(w for w in _families.WINGS if w.name == "sharding").claims_text  # the registry's own line


@pytest.mark.parametrize("text, held", [
    ("%p = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}", True),
    ('%arg0: tensor<8xf32> {mhlo.sharding = "{replicated}"}', True),
    ('%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}', True),
    ('mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{}]>"}', True),
    ("(Shard(dim=0), Replicate())", True), ("P('x', None)", True), ("PartitionSpec()", True),
    ('sdy.mesh @mesh = <["x"=2]>\n%2 = sdy.sharding_constraint %1 <@mesh, [{"x"}]> : tensor<8xf32>', True),
    ("NamedSharding(mesh=Mesh('x': 2), spec=P('x'))", True), ('{mhlo.sharding = "{replicated}"}', True),
    ("f32[8,16]{1,0:T(8,128)}", False), ("(4,2):(2,1)", False), ("#ttg.blocked<{}>", False),
])
def test_the_registry_regex_for_the_sharding_wing_claims_held_texts(text, held):
    """The regex the sharding wing of _families.py needs (WING): it claims exactly the held texts."""
    assert bool(re.match(WING, text)) is held and is_held(text) is held


def test_op_attributes_and_sharding_constraints_jax_prints():
    """with_sharding_constraint lowers to sdy.sharding_constraint (Shardy) or a @Sharding custom call (mhlo)."""
    from jax.sharding import AxisType
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    for spec, shape in [(P("y", "x"), (8, 16)), (P(None, ("x", "y")), (4, 16)), (P("x"), (6, 5))]:
        named = NamedSharding(mesh, spec)
        want = from_jax(named, shape).relabel(positions(mesh))
        f = jax.jit(lambda x, named=named: jax.lax.with_sharding_constraint(x * 2, named))
        text = f.lower(jnp.zeros(shape, jnp.float32)).as_text()
        lines = [ln for ln in text.splitlines() if "sdy.mesh @" in ln or "sdy.sharding_constraint" in ln]
        assert len(lines) == 2 and parse("\n".join(lines)) == want, lines
        jax.config.update("jax_use_shardy_partitioner", False)
        try:
            text = f.lower(jnp.zeros(shape, jnp.float32)).as_text()
        finally:
            jax.config.update("jax_use_shardy_partitioner", True)
        line = next(ln for ln in text.splitlines() if "@Sharding" in ln)
        assert parse(line) == want, line  # the shape is the op's result type, after '->'


def test_an_op_sharding_per_value_of_one_result():
    mesh = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'
    op = '%0 = stablehlo.add %arg0, %arg1 {sdy.sharding=#sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>'
    from unilayout.sharding import parse_shardy
    assert parse(mesh + op) == parse_shardy('#sdy.sharding<@mesh, [{}, {"b"}]>', mesh, (8, 8))
    with pytest.raises(LayoutError, match="a sharding per result"):
        parse(mesh + op.replace('<[<@mesh, [{}, {"b"}]>]>', '<[<@mesh, [{}, {"b"}]>, <@mesh, [{"a"}, {}]>]>'))


@pytest.mark.parametrize("text", [
    '%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding@mesh, [{"y"}, {"x"}]>}',
    "P('x, None)", "P(None, unreduced)", "P(None, unreduced=", "PartitionSpec('x', reduced={'y'})",
    '%0 = stablehlo.add %a, %b {sdy.sharding=#sdy.sharding_per_value<<@mesh, [{}]>>} : tensor<8xf32>',
    "NamedSharding(mesh=Mesh('x': 2), spec=None)", "(Shard(0), Replicate()) trailing",
])
def test_broken_held_texts_are_layout_errors(text):
    with pytest.raises(LayoutError):
        parse(text, (8,), mesh="Mesh('x': 2, 'y': 2)" if not text.startswith("Named") else None)


def test_a_dim_past_int64_in_a_held_text_is_a_parse_error():
    from unilayout import ParseError

    with pytest.raises(ParseError, match="past int64"):
        parse('%arg0: tensor<' + "1" * 5000 + 'x16xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}')
    with pytest.raises(ParseError, match="past int64"):
        parse("%p = f32[8,18446744073709551616]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}")
