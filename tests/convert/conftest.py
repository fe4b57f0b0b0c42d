"""tests/convert: make the shared helpers importable as ``convert_helpers``."""

import importlib.util
import pathlib
import sys

_path = pathlib.Path(__file__).with_name("_helpers.py")
if "convert_helpers" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("convert_helpers", _path)
    _mod = importlib.util.module_from_spec(_spec)
    sys.modules["convert_helpers"] = _mod
    _spec.loader.exec_module(_mod)
