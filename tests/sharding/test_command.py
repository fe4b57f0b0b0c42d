"""`unilayout sharding`: every text kind, --to, --json, -o, and errors (exit status 2 with the reason)."""

import json

from unilayout.cli import main


def run(capsys, *argv):
    code = main(["sharding", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_hlo_shardy_placements_and_xla(capsys):
    code, out, _ = run(capsys, "{devices=[2,2]<=[2,2]T(1,0)}", "--shape", "8x8")
    assert code == 0 and "[0:4, 4:8]  device 2" in out and "hlo:     {devices=[2,2]<=[2,2]T(1,0)}" in out
    code, out, _ = run(capsys, '#sdy.sharding<@mesh, [{"x"}, {}]>', "--mesh", 'sdy.mesh @mesh = <["x"=2, "y"=4]>',
                       "--shape", "8x6", "--to", "hlo")
    assert code == 0 and out.strip() == "hlo:     {devices=[2,1,4]<=[8] last_tile_dim_replicate}"
    code, out, _ = run(capsys, "[Shard(0), Shard(0)]", "--mesh-shape", "2x2", "--shape", "5x3")
    assert code == 0 and "hlo:     not representable: dim 0 of size 5 is split 2+1+1+1" in out
    code, out, _ = run(capsys, "PlacementShard(1), PlacementReplicate()", "--mesh-shape", "2x2", "--shape", "2x8",
                       "--to", "dtensor")
    assert code == 0 and out.strip() == "dtensor: Shard(1), Replicate()  on mesh 2x2"
    code, out, _ = run(capsys, "bf16[128,256]{1,0:T(8,128)(2,1)}")
    assert code == 0 and "buffer_shape:   16x2x4x128x2x1" in out and "cute:" in out


def test_json_and_picture(capsys, tmp_path):
    code, out, _ = run(capsys, "{devices=[2,1]0,1}", "--shape", "4x2", "--json")
    d = json.loads(out)
    assert code == 0 and d["ok"] and d["devices"]["1"] == [[[2, 4], [0, 2]]]
    assert d["conversions"]["dtensor"] == "Shard(0)  on mesh 2"
    path = tmp_path / "who.svg"
    code, _, _ = run(capsys, "{devices=[2,1]0,1}", "--shape", "4x2", "-o", str(path))
    assert code == 0 and "<svg" in path.read_text()


def test_errors_exit_2_with_the_reason(capsys):
    for argv, msg in [(["{devices=[2]0,1}"], "needs the tensor's shape"),
                      (["Shard(0)", "--shape", "4"], "give --mesh-shape"),
                      (["hello", "--shape", "4"], "expected an HLO sharding"),
                      (["{devices=[3]0,1}", "--shape", "4"], "needs 3 device ids"),
                      (["f32[4]", "-o", "x.svg"], "-o draws shardings")]:
        code, _, err = run(capsys, *argv)
        assert code == 2 and msg in err, (argv, err)


def test_show_reads_sharding_and_xla_texts_through_the_registry(capsys):
    code = main(["show", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}", "--shape", "8x6"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("family:         sharding") and "sharding of 8x6 over 8 devices" in out
    assert "dtensor: Shard(0), Replicate()" in out
    code = main(["show", "f32[3,5]{1,0:T(2,2)}", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["family"] == "xla" and d["cosize"] == 24 and d["padded"] is True
    code = main(["show", "(4,2):(2,1)"])  # other families are untouched
    assert code == 0 and "family:" in capsys.readouterr().out


# ---------------------------------------------------------------- convert, render and the explorer (issue #17, part 2)
import random  # noqa: E402
import re  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from test_pairs import REASONS, random_sharding  # noqa: E402

from unilayout import NotRepresentableError  # noqa: E402
from unilayout.sharding import (  # noqa: E402
    from_dtensor,
    from_ttnn,
    parse_hlo,
    parse_shardy,
    parse_xla_layout,
    to_dtensor,
    to_hlo,
    to_shardy,
    to_ttnn,
)
from unilayout.sharding.command import jax_text  # noqa: E402


def _convert(capsys, text, to, shape, mesh_shape=None):
    argv = ["convert", text, "--to", to, "--shape", "x".join(map(str, shape))]
    if mesh_shape is not None:
        argv += ["--mesh-shape", "x".join(map(str, mesh_shape))]
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out.strip(), out.err


def _jax_back(out, shape):
    """The Sharding JAX itself gives for the spec and mesh ``convert --to jax`` printed."""
    jax = pytest.importorskip("jax")
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from unilayout.sharding import from_jax
    m = re.fullmatch(r"PartitionSpec\((.*)\)  on mesh (\(.*?\)) of shape (\(.*?\))(?:, device ids (\[.*\]) in mesh order)?",
                     out)
    assert m, out
    spec = eval("PartitionSpec(" + m.group(1) + ")", {"PartitionSpec": PartitionSpec})  # unreduced= too
    names, sizes = eval(m.group(2)), eval(m.group(3))
    ids = eval(m.group(4)) if m.group(4) else list(range(int(np.prod(sizes))))
    devs = {d.id: d for d in jax.devices()}
    mesh = Mesh(np.array([devs[i] for i in ids], dtype=object).reshape(sizes), names,
                axis_types=(jax.sharding.AxisType.Explicit,) * len(names))  # JAX's unreduced axes must be Explicit
    return from_jax(NamedSharding(mesh, spec), shape)


def _direct(s, to, ms):
    """What the library function says for ``to`` (the text, or the refusal's message)."""
    try:
        if to == "hlo":
            return to_hlo(s)
        if to == "shardy":
            return "  over  ".join(to_shardy(s))
        if to == "jax":
            return jax_text(s, ms)
        pl = to_dtensor(s, ms, as_text=True) if to == "dtensor" else to_ttnn(s, ms)
        return f"{', '.join(pl)}  on mesh {'x'.join(map(str, ms))}"
    except NotRepresentableError as e:
        return "refused: " + str(e)


def test_convert_reads_placements_and_writes_every_vocabulary_exactly_or_says_why(capsys):
    pytest.importorskip("jax")
    rng = random.Random(1717)
    seen = {"exact": 0, "refused": 0}
    for _ in range(60):
        ms, texts, shape, s = random_sharding(rng)
        for to in ("hlo", "shardy", "dtensor", "jax", "ttnn-mesh"):
            code, out, err = _convert(capsys, ", ".join(texts), to, shape, ms)
            want = _direct(s, "ttnn" if to == "ttnn-mesh" else to, ms)
            if code == 2:  # the refusal is the library's NotRepresentableError, with its reason
                seen["refused"] += 1
                assert want.startswith("refused: ") and err.strip() == "unilayout: error: " + want[9:], (to, err)
                assert any(r in err for r in REASONS), err
                continue
            assert code == 0 and out == want, (to, out, want)
            seen["exact"] += 1
            if to == "hlo":
                back = parse_hlo(out, shape, s.num_devices)
            elif to == "shardy":
                back = parse_shardy(*out.split("  over  "), shape)
            elif to == "jax":
                back = _jax_back(out, shape)
            else:
                pl, mesh = out.split("  on mesh ")
                mesh = tuple(int(v) for v in mesh.split("x"))
                back = (from_dtensor if to == "dtensor" else from_ttnn)(pl.split(", "), mesh, shape)
            assert back == s, (to, texts, ms, shape, out)
    assert seen["exact"] > 150 and seen["refused"] > 10, seen


def test_convert_from_hlo_and_shardy_texts_to_jax_checks_with_jax(capsys):
    pytest.importorskip("jax")
    rng = random.Random(99)
    done = 0
    for _ in range(80):
        ms, texts, shape, s = random_sharding(rng)
        try:
            hlo = to_hlo(s)
        except NotRepresentableError:
            continue
        code, out, err = _convert(capsys, hlo, "jax", shape)
        if code == 0:  # ('{replicated}' names no device count: the text's own sharding, on one device)
            assert _jax_back(out, shape) == parse_hlo(hlo, shape), (hlo, out)
            done += 1
        else:
            assert "unilayout: error: " in err and any(r in err for r in REASONS), err
        st, mt = to_shardy(s)
        code, out, _ = _convert(capsys, mt + "\n" + st, "hlo", shape)  # a Shardy text carrying its mesh
        assert code == 0 and parse_hlo(out, shape, s.num_devices) == s
    assert done > 20


def test_convert_refuses_targets_that_do_not_apply(capsys):
    for argv, msg in [(["(4,2):(2,1)", "--to", "hlo"], "--to hlo is a sharding form: it converts a sharding value"),
                      (["{devices=[2]0,1}", "--to", "cute", "--shape", "4"], "no sharding value converts to cute"),
                      (["f32[4,4]{1,0}", "--to", "dtensor"], "not a xla value"),
                      (["{devices=[2]0,1}", "--to", "hlo"], "needs the tensor's shape"),
                      (["f32[3,5]{1,0:T(2,2)}", "--to", "cute"], "a CuTe layout has no padding")]:
        code = main(["convert", *argv])
        err = capsys.readouterr().err
        assert code == 2 and msg in err, (argv, err)


def test_convert_of_an_xla_layout_is_its_buffer_offsets():
    import unilayout
    from unilayout import cute

    for text in ("f32[4,8]{0,1}", "bf16[16,256]{1,0:T(8,128)(2,1)}", "s8[2,3,4]{0,2,1}"):
        x = parse_xla_layout(text)
        want = np.array([x(*i) for i in np.ndindex(*x.dims)])
        code_cute = unilayout.sharding.command.convert(text, "cute")
        L = cute.parse(code_cute)
        # CuTe's 1-D coordinate is column-major over the dims: compare element by element
        got = np.array([L(int(np.ravel_multi_index(i, x.dims, order="F"))) for i in np.ndindex(*x.dims)])
        assert np.array_equal(got, want), text
        aff = unilayout.parse(unilayout.sharding.command.convert(text, "affine"))
        assert np.array_equal(aff.index_map(x.dims)[:, 0], want), text


def test_render_draws_a_sharding_with_the_lowest_holder_of_each_block(capsys, tmp_path):
    s = parse_hlo("{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}", (8, 6))
    path = tmp_path / "s.svg"
    code = main(["render", "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}", "--shape", "8x6", "-o",
                 str(path)])
    assert code == 0
    svg = path.read_text()
    got = sorted(int(v) for v in re.findall(r'data-device="(-?\d+)"', svg))
    want = sorted(min(d for d in s.devices if s.device_boxes[d][0][0][0] == lo) for lo in (0, 4))
    assert got == want
    code = main(["render", "{devices=[2]0,1}", "--shape", "4", "-o", str(tmp_path / "s.png")])
    assert code == 0 and (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    code = main(["render", "{devices=[2]0,1}", "--shape", "4", "-o", str(tmp_path / "s.svg"), "--color", "bank"])
    assert code == 2 and "not to a sharding value" in capsys.readouterr().err
    code = main(["render", "{devices=[2]0,1}", "--shape", "4", "-o", str(tmp_path / "s.gif")])
    assert code == 2 and "must end in .svg, .png or .html" in capsys.readouterr().err
    # The offline page draws shardings and XLA layouts as the explorer does: one cell per block / element.
    code = main(["render", "{devices=[2]0,1}", "--shape", "4", "-o", str(tmp_path / "s.html")])
    assert code == 0 and (tmp_path / "s.html").read_text().count('data-device="') == 2
    code = main(["render", "f32[4,4]{1,0}", "-o", str(tmp_path / "x.html")])
    assert code == 0 and (tmp_path / "x.html").read_text().count('class="cell') == 16
    code = main(["render", "f32[4,4]{0,1}", "-o", str(tmp_path / "x.svg")])
    svg = (tmp_path / "x.svg").read_text()
    assert code == 0 and "XLA layout f32[4,4]{0,1}" in svg


def _holders_at(s, point):
    return [d for d in s.devices if any(all(a <= p < z for p, (a, z) in zip(point, b)) for b in s.device_boxes[d])]


def test_the_explorer_view_of_a_sharding_lists_every_block_and_its_holders():
    from unilayout.explorer.api import handle

    rng = random.Random(5)
    for _ in range(40):
        ms, texts, shape, s = random_sharding(rng)
        try:
            text = to_hlo(s)
        except NotRepresentableError:
            continue
        s = parse_hlo(text, shape)  # the text's own sharding ('{replicated}' names no device count)
        status, v = handle("/api/view", json.dumps({"text": text, "shape": list(shape)}).encode())
        assert status == 200 and v["family"] == "sharding", v
        assert v["count"] == len(v["details"]) == v["svg"].count('class="cell"')
        volume = 0
        for block, who, partial in v["details"]:
            rng_ = [tuple(int(t) for t in p.split(":")) for p in block.strip("[]").split(", ")]
            volume += int(np.prod([z - a for a, z in rng_]))
            holders = _holders_at(s, [a for a, _ in rng_])  # who holds the block's first element
            assert who == ", ".join(map(str, holders)), (text, block)
            assert partial == ("yes" if any(s.partial[d] for d in holders) else "no")
        assert volume == int(np.prod(shape))
        facts = dict(v["facts"])
        assert facts["hlo"] == to_hlo(s)


def test_the_explorer_view_of_an_xla_layout_and_its_errors():
    from unilayout.explorer.api import handle

    status, v = handle("/api/view", b'{"text": "f32[3,5]{1,0:T(2,2)}"}')
    x = parse_xla_layout("f32[3,5]{1,0:T(2,2)}")
    assert status == 200 and v["family"] == "xla" and v["count"] == 15
    assert [int(r[2]) for r in v["details"]] == [x(*i) for i in np.ndindex(3, 5)]
    assert dict(v["facts"])["padded"] == "yes"
    status, v = handle("/api/view", b'{"text": "{devices=[2]0,1}"}')
    assert status == 400 and "shape" in v["error"]["message"] and v["error"]["field"] == "text"
    status, v = handle("/api/view", b'{"text": "{devices=[2]0,", "shape": [4]}')
    assert status == 400 and v["error"]["position"] is not None
    status, v = handle("/api/view", b'{"text": "{devices=[70000]<=[70000]}", "shape": [70000]}')
    assert status == 400 and "at most" in v["error"]["message"]


def test_an_xla_layout_is_a_registry_family():
    import unilayout

    x = unilayout.parse("  bf16[16,256]{1,0:T(8,128)(2,1)}")
    assert unilayout.family_of(x) == "xla"
    want = np.array([x(*i) for i in np.ndindex(16, 256)])
    assert np.array_equal(unilayout.index_map(x), want)
    d = unilayout.facts.describe(x)
    assert d["cosize"] == x.storage_size and d["bijective"] == (len(set(want.tolist())) == want.size == x.storage_size)
