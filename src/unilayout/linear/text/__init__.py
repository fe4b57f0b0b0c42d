"""Triton's texts of layouts and encodings, read: ``linear.parse`` and the encoding readers.

- ``linear_attr.py``: a linear layout's own texts, the ``#ttg.linear<{...}>``
  attribute (``to_attr``) and ``toString`` (``str(L)``);
- ``attr.py``: the positioned reader of encoding attributes (``#ttg.blocked<...>``,
  ...), driven by the encoding classes registered in ``attr.KINDS``;
- ``fast.py``: a token reader giving the same values on well-formed text;
- ``module.py``: the entry points ``parse`` (one attribute), ``parse_module``
  (alias lines) and ``parse_type`` (``tensor<...>``, ``!ttg.memdesc<...>``).

The readers name no encoding class, so ``linear.encodings`` builds on them
(``encodings.parse``, a type's layout ``encodings.types.layout``);
``unilayout.linear.ttgir`` is the old name of these entry points.

:func:`parse` here reads a *linear layout* from any of its texts:

>>> L = parse("#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>")
>>> L.out_dims
[('dim0', 4), ('dim1', 2)]
>>> to_attr(L)
'#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>'
>>> parse(str(L)) == L
True
"""

from __future__ import annotations

from ..._text import Scanner, check_text
from ..layout import LinearLayout
from . import module
from .linear_attr import IN_DIMS, _attr, _tostring, to_attr

__all__ = ["parse", "to_attr", "IN_DIMS"]


def parse(text: str) -> LinearLayout:
    """Parse ``#ttg.linear<{...}>``, ``#ttg.shared_linear<...>`` (the ``offset`` in-dim) or Triton's
    ``toString`` (``str(L)``); ``parse(str(L)) == L`` for every ``L``.

    The ``#ttg.linear`` prefix may be left off (``<{...}>`` or ``{...}``); all
    four in-dims are required and the layout must be surjective. The
    ``toString`` form carries any in-dims and out-dim sizes.

    >>> parse("{register = [[1]], lane = [], warp = [], block = []}").bases
    [('register', [[1]]), ('lane', []), ('warp', []), ('block', [])]
    >>> parse(" - i=1 -> (0)\\n   i=2 -> (2)\\nwhere out dims are: [o (size 4)]").is_surjective()
    False
    >>> parse("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>").bases[0]
    ('offset', [[0, 1], [1, 0]])
    >>> parse("#ttg.linear<{register = [[1]], lane = [[1, 0]], warp = [], block = []}>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: basis lane=1 has 2 entries but earlier bases have 1: every basis needs one entry per tensor dim at position 39
      #ttg.linear<{register = [[1]], lane = [[1, 0]], warp = [], block = []}>
                                             ^
    """
    s = Scanner(check_text(text, "linear layout text"))
    if s.at("-") or s.at("where") or s.at("(empty layout"):
        return _tostring(s)
    if s.at("#ttg.shared_linear"):
        return module.parse(text).to_linear()  # the encoding's reader; its layout fixes the shape
    return _attr(s)
