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

# The differential tests compare unilayout with the reference systems where they install. Without them those
# tests skip; say so in one line at the end of the run, with how to install them (README "Install ... run the tests").
_REFERENCES = ("pycute", "triton", "CUTLASS", "tensor_layouts", "torch", "jax")
REFERENCE_INSTALL = ("pip install --no-deps nvidia-cutlass==4.2.0.0 nvidia-cuda-runtime-cu12 nvidia-cuda-cccl-cu12 "
                     "nvidia-cuda-nvcc-cu12 && pip install triton==3.9.0 'torch==2.13.0+cpu' (or run: bash .ci/run)")


def _reference_skips(terminalreporter):
    out = []
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if any(name in reason for name in _REFERENCES):
            out.append(reason)
    return out


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skips = _reference_skips(terminalreporter)
    if skips:
        missing = sorted({name for name in _REFERENCES for reason in skips if name in reason})
        terminalreporter.write_line(
            f"differential tests skipped: {len(skips)} (reference missing: {', '.join(missing)}); "
            f"to run them: {REFERENCE_INSTALL}", yellow=True, bold=True)
