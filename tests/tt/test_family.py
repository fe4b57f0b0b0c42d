"""The tt family records: show of metal layouts stays bounded."""



def test_show_of_the_seven_d_seed_tensor_is_bounded():
    # issue 30: the 7-D seed tensor's 110,100,480 slots made `show` tabulate 1.6 GB
    import subprocess
    import sys

    text = ("tensor<5x3x2x2x7x32x32xf32, #tt.metal_layout<(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 2688 + d1 * 896 + "
            "d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6), undef, <3x2x2x2>, memref<4480x4x16x16xf32, "
            "#tt.memory_space<l1>>>>")
    # the child's own peak (VmHWM starts anew at exec; ru_maxrss would carry the parent's over)
    code = ("import sys; from unilayout.cli import main; status = main(['show', sys.argv[1]]); "
            "print('RSS', [ln.split()[1] for ln in open('/proc/self/status') if ln.startswith('VmHWM')][0])")
    r = subprocess.run([sys.executable, "-c", code, text], capture_output=True, text=True, timeout=120)
    assert "padding:        slots=109670400" in r.stdout and "not tabulated" in r.stdout
    rss_kb = int(r.stdout.rsplit("RSS", 1)[1])
    assert rss_kb < 150_000  # the interpreter with numpy and the family (about 32 MB), not a table of every slot
