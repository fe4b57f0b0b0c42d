"""``python -m unilayout.cli``: the ``unilayout`` command, as ``python -m unilayout`` (``unilayout.cli.main``)."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
