"""Test set-up for tests/plan: make ``svgcheck`` (tests/viz, the SVG readers) importable for the picture tests."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "viz"))
