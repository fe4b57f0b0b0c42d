"""Test set-up for tests/viz: make ``svgcheck`` (beside this file) importable."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
