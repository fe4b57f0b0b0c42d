"""JAX on the CPU with 8 simulated devices for tests/sharding (as tests/distributed/conftest.py).

XLA reads the flag when JAX starts its CPU backend, so it is set here, before
any test module imports jax. Tests that need JAX or PyTorch skip cleanly,
with the reason, when the engine is not installed.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # helpers_sharding

_FLAG = "--xla_force_host_platform_device_count=8"
if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _FLAG).strip()


@pytest.fixture
def jax_devices():
    """JAX's devices (8 simulated CPU ones); skips, saying why, without JAX or with fewer than 8."""
    jax = pytest.importorskip("jax", reason="JAX is the reference engine (pip install 'unilayout[jax]')")
    devs = jax.devices()
    if len(devs) < 8:
        pytest.skip("needs 8 JAX devices (XLA_FLAGS set in conftest.py)")
    return devs
