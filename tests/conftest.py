"""Shared test set-up: make the helper modules beside this file importable."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
