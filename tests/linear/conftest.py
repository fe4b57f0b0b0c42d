"""tests/linear: make the shared helpers importable as ``linear_helpers``."""

import importlib.util
import pathlib
import sys

_path = pathlib.Path(__file__).with_name("_helpers.py")
if "linear_helpers" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("linear_helpers", _path)
    _mod = importlib.util.module_from_spec(_spec)
    sys.modules["linear_helpers"] = _mod
    _spec.loader.exec_module(_mod)
