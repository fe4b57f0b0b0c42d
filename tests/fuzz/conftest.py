"""tests/fuzz: make fuzzlib importable and cap tables low, so that a runaway allocation fails fast in CI."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(autouse=True)
def small_table_cap():
    from unilayout import _ints

    old = _ints.set_max_table(1 << 24)  # 128 MiB of int64 per table while fuzzing
    yield
    _ints.set_max_table(old)
