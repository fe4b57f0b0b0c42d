"""tests/cli: make the shared texts and the ``run`` helper importable as ``helpers_cli``."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))  # helpers_cli
