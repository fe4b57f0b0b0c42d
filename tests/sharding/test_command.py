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


def test_show_hands_sharding_texts_to_the_sharding_command(capsys):
    code = main(["show", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}", "--shape", "8x6"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("sharding of 8x6 over 8 devices") and "dtensor: Shard(0), Replicate()" in out
    code = main(["show", "f32[3,5]{1,0:T(2,2)}", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["storage_size"] == 24 and d["padded"] is True
    code = main(["show", "(4,2):(2,1)"])  # other families are untouched
    assert code == 0 and "family:" in capsys.readouterr().out
