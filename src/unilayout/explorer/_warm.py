"""Import, before the first request, every module a request may import lazily: no request races an import.

unilayout imports a family only when a text or a value needs it
(``unilayout._families``), and a family imports its picture and bridge
modules inside the hooks that use them. A command imports them one at a
time; the explorer answers requests in threads, and two first requests that
import the same modules at once could meet a half-imported module (Python's
``partially initialized module`` ImportError, a 500). ``warm()`` imports
them all once, under a lock, before the server takes its first connection:
every registered family's record, every module of its folder, and the
folders the explorer's requests draw on (pictures, facts, bridges, the
planner, the panels). It takes about half a second, once per process.

>>> import sys
>>> warm()
>>> all(name in sys.modules for name in ("unilayout.tt.device", "unilayout.affine.map", "unilayout.plan.panel"))
True
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import threading
import warnings

from .._families import WINGS, record

__all__ = ["warm", "PACKAGES"]

_log = logging.getLogger(__name__)

#: Folders a request may import from besides the families' own: pictures, facts, bridges, the planner, the panels.
PACKAGES = ("unilayout.draw", "unilayout.facts", "unilayout.viz", "unilayout.convert", "unilayout.distributed",
            "unilayout.plan", "unilayout.explorer")

_LOCK = threading.Lock()
_warmed = set()  # the packages imported already (a family registered later is warmed by the next server)


def _modules(package: str) -> list:
    """``package`` and every module under it (a plain module: itself)."""
    mod = importlib.import_module(package)
    names = [package]
    path = getattr(mod, "__path__", None)
    if path is not None:
        names += [m.name for m in pkgutil.walk_packages(path, package + ".")]
    return names


def warm() -> None:
    """Import every family record and every module a request may need (idempotent, thread-safe)."""
    with _LOCK:
        for w in list(WINGS):
            try:
                record(w.name)
            except Exception:  # noqa: BLE001 -- a family that cannot load answers its own error when asked
                _log.warning("family %r does not load", w.name, exc_info=True)
        todo = [p for p in dict.fromkeys([w.package for w in WINGS] + list(PACKAGES)) if p not in _warmed]
        with warnings.catch_warnings():  # alias modules kept for a release warn when imported; nobody asked for them
            warnings.simplefilter("ignore", DeprecationWarning)
            for package in todo:
                try:
                    names = _modules(package)
                except Exception:  # noqa: BLE001 -- as above: the request that needs it will say why
                    _log.warning("package %s does not import", package, exc_info=True)
                    continue
                for name in names:
                    try:
                        importlib.import_module(name)
                    except Exception:  # noqa: BLE001 -- as above
                        _log.warning("module %s does not import", name, exc_info=True)
                _warmed.add(package)
