"""``unilayout serve``: the browser explorer on 127.0.0.1, until Ctrl-C (or SIGINT).

    unilayout serve [--port N]

It prints ``unilayout explorer: http://127.0.0.1:PORT/`` on standard output
(port 0 picks a free one), then serves until interrupted.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="unilayout")
>>> add_parser(p.add_subparsers(dest="command"))
>>> p.parse_args(["serve", "--port", "8000"]).port
8000
"""

from __future__ import annotations

import argparse
import signal
import time

from ._common import progress

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout serve                # http://127.0.0.1:<a free port>/
  unilayout serve --port 8000    # a fixed port"""


def add_parser(sub):
    """Register ``serve`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("serve", help="run the browser explorer on 127.0.0.1 and print its URL",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("--port", type=int, default=0, help="port (default: 0 = a free port, printed at start)")
    q.set_defaults(run=run)


def run(args) -> int:
    """``serve``: run the browser explorer on 127.0.0.1 until interrupted (Ctrl-C or SIGINT)."""
    from .. import explorer  # lazy: the explorer loads every family (~0.4 s)

    # A background job starts with SIGINT ignored, and Python then raises no KeyboardInterrupt: stop on SIGINT anyway.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    srv = explorer.serve(port=args.port)
    print(f"unilayout explorer: {srv.url}", flush=True)
    progress("press Ctrl-C to stop")
    try:
        while srv.running:
            time.sleep(0.2)
    except KeyboardInterrupt:
        progress("stopping")
    finally:
        srv.shutdown()
    return 0
