"""``python -m unilayout``: the ``unilayout`` command (``unilayout.cli.main``).

>>> import subprocess, sys
>>> r = subprocess.run([sys.executable, "-m", "unilayout", "show", "8:1", "--json"], capture_output=True, text=True)
>>> r.returncode, '"size": 8' in r.stdout
(0, True)
"""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
