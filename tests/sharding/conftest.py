"""JAX on the CPU with 8 simulated devices for tests/sharding (as tests/distributed/conftest.py).

XLA reads the flag when JAX starts its CPU backend, so it is set here, before
any test module imports jax. Tests that need JAX or PyTorch skip cleanly,
with the reason, when the engine is not installed.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))  # helpers_sharding

_FLAG = "--xla_force_host_platform_device_count=8"
if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _FLAG).strip()
