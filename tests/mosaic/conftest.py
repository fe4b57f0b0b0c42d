"""tests/mosaic: make the shared helpers importable as ``mosaic_facts`` (stored jax facts, the jax oracle)."""

import importlib.util
import pathlib
import sys

_path = pathlib.Path(__file__).with_name("_facts.py")
if "mosaic_facts" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("mosaic_facts", _path)
    _mod = importlib.util.module_from_spec(_spec)
    sys.modules["mosaic_facts"] = _mod
    _spec.loader.exec_module(_mod)
