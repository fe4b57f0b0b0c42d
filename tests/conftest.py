"""Shared test set-up: make the helper modules beside this file importable."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

# Property tests draw the same examples on every run, so CI is reproducible; set
# UNILAYOUT_HYPOTHESIS_EXPLORE=1 to draw fresh examples (and keep a database) while developing.
from hypothesis import settings  # noqa: E402

settings.register_profile("reproducible", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile("explore" if os.environ.get("UNILAYOUT_HYPOTHESIS_EXPLORE") else "reproducible")
