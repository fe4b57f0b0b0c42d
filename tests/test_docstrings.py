"""Every public docstring example in the package runs and gives what it shows."""

import doctest
import importlib
import pkgutil

import pytest

import unilayout

# Modules that need an optional extra are checked only when it is installed.
OPTIONAL = {"unilayout.distributed": "jax"}


def _modules():
    names = ["unilayout"]
    for info in pkgutil.walk_packages(unilayout.__path__, "unilayout."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_pass(name):
    for prefix, extra in OPTIONAL.items():
        if name.startswith(prefix):
            pytest.importorskip(extra)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
