"""``unilayout serve`` (``unilayout.cli.serve``): prints its URL, serves the explorer, stops on SIGINT."""

import subprocess

from helpers_cli import console


def test_serve_prints_its_url_and_stops_on_interrupt():
    import signal
    import urllib.request

    # (serve stops on SIGINT even where the shell started it with SIGINT ignored, as a background job is)
    proc = subprocess.Popen(console() + ["serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("unilayout explorer: http://127.0.0.1:")
        url = line.split(": ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200 and "layout-input" in r.read().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err
