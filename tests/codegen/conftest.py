"""tests/codegen: make the random values of every family importable as ``codegen_layouts``."""

import importlib.util
import pathlib
import sys

_path = pathlib.Path(__file__).with_name("_layouts.py")
if "codegen_layouts" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("codegen_layouts", _path)
    _mod = importlib.util.module_from_spec(_spec)
    sys.modules["codegen_layouts"] = _mod
    _spec.loader.exec_module(_mod)
