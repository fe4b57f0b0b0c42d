"""``unilayout tour`` (``unilayout.cli.tour``): one stop per family, pictures in a folder."""

import os

from helpers_cli import run

from unilayout import cute, linear, tt
from unilayout._tour import TOUR


def test_tour(capsys, tmp_path):
    out_dir = tmp_path / "tour"
    status, out, err = run(capsys, "tour", "-o", str(out_dir))
    assert status == 0
    files = sorted(os.listdir(out_dir))
    assert len(files) == 2 * len(TOUR) and files[0] == "1-cute-blocked-product.png"
    for k, stop in enumerate(TOUR, 1):
        assert out.count(f"== {k}.") == 1 and (out + err).count(stop[1]) == 1  # each heading once
    assert err.count("[") == 0  # no progress bar off a terminal
    assert "storage[18]" in out and "2805" in out
    assert "shard (3, 15) on (1, 3, 7)" in out  # the 256x1024 tensor's last shard: chip 1, core (3, 7)
    assert run(capsys, "tour", "-o", str(tmp_path / "svg"), "--format", "svg")[0] == 0
    from unilayout.viz.png import png_size

    one = png_size((out_dir / files[0]).read_bytes())
    assert run(capsys, "tour", "-o", str(tmp_path / "x2"), "--format", "png", "--scale", "2")[0] == 0
    assert png_size((tmp_path / "x2" / files[0]).read_bytes()) == (2 * one[0], 2 * one[1])
    assert all(f.endswith(".svg") for f in os.listdir(tmp_path / "svg"))


def test_tour_texts_parse_to_the_seed_values():
    from unilayout.linear import encodings as E

    values = [t[3] for t in TOUR]
    assert cute.parse(values[0]) == cute.blocked_product(cute.Layout((2, 2), (1, 2)), cute.Layout((2, 3), (3, 1)))
    assert linear.parse(values[1]) == E.amd_mfma([32, 64], 3, [16, 16, 16], False, [2, 2])
    assert tt.parse(values[3]).padding_summary().total == 2805
    assert tt.parse(values[4]).physical_core(0, 8) == (1, 0, 0)
