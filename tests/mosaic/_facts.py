"""The stored jax facts (``jax_facts.json``) and jax itself when installed, for the Mosaic GPU tests."""

from __future__ import annotations

import importlib.util
import json
import pathlib

import pytest

HERE = pathlib.Path(__file__).parent
FACTS = json.loads((HERE / "jax_facts.json").read_text())


def oracle():
    """The ``jax_oracle`` module beside this file (it imports jax only inside its functions)."""
    spec = importlib.util.spec_from_file_location("mosaic_jax_oracle", HERE / "jax_oracle.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def need_jax():
    """Skip with the reason when jax (with Mosaic GPU's Python modules) is not installed."""
    pytest.importorskip("jax.experimental.mosaic.gpu.fragmented_array",
                        reason="jax (CPU) with Mosaic GPU is the oracle; the stored facts still run without it")
