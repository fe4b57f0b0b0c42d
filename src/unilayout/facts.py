"""What unilayout says about a layout value: the facts of ``unilayout show`` and of the explorer, in one place.

Every family answers the same few questions about a value, computed from its
table (``unilayout.index_map``) or from the family's own exact test:

- **size / cosize**: how many domain points, how many codomain slots;
- **injective / surjective / bijective**: do two points share a value, is
  every value in ``0..cosize-1`` held;
- **contiguity** (the vector width): the largest power of two ``v`` such that
  each aligned run of ``v`` domain points holds ``v`` consecutive values
  starting at a multiple of ``v`` — how wide a vector load can be;
- **longest_run**: the longest stretch of consecutive points holding
  consecutive values (aligned or not);
- **padding** (metal layouts): slots of the shards that hold no element.

A worked example: ``(2,4):(4,1)`` walks its 8 points (column-major 1-D order,
mode 0 fastest) to ``0 4 1 5 2 6 3 7``; no aligned pair is consecutive, so
the contiguity is 1, and no two neighbours are consecutive either:

>>> from unilayout import cute
>>> d = describe(cute.Layout((2, 4), (4, 1)))
>>> d["size"], d["cosize"], d["bijective"], d["contiguity"], d["longest_run"]
(8, 8, True, 1, 1)

while its transpose ``(2,4):(1,2)`` holds ``0..7`` in order, one vector of 8:

>>> d = describe(cute.Layout((2, 4), (1, 2)))
>>> d["contiguity"], d["longest_run"]
(8, 8)

``describe`` gives the facts as an ordered dict (the ``show --json`` object);
``fact_lines`` turns them into ``(name, text)`` pairs with the glosses
``show`` prints and the explorer lists, so both say the same facts in the same
words; ``summary`` is the one-line form of the explorer's header; ``checks``
is what ``unilayout check`` reports. Values above ``MAX_TABULATE`` points are
described without their table (a ``note`` says so).
"""

from __future__ import annotations

from ._families import record
from ._measures import MAX_TABULATE, injectivity, longest_run, vector_width  # noqa: F401 (re-exported)
from .errors import LayoutError, NotRepresentableError

__all__ = ["describe", "fact_lines", "format_facts", "summary", "checks", "canonical_text", "vector_width",
           "longest_run", "injectivity", "MAX_TABULATE"]


def canonical_text(value) -> str:
    """The text of a value that ``unilayout.parse`` reads back (a shared linear layout: Triton's bases).

    >>> from unilayout import linear, tt
    >>> canonical_text(linear.identity_1d(2, "register", "dim0") * linear.identity_1d(2, "lane", "dim0")
    ...                * linear.zeros_1d(1, "warp", "dim0") * linear.zeros_1d(1, "block", "dim0"))
    '#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>'
    >>> canonical_text(tt.MetalLayout.from_collapse((4, 4), (1, 1)))[:14]
    'tensor<4x4xf32'
    """
    return record(value).canonical(value)


def describe(value, shape=None) -> dict:
    """The facts of a value as an ordered dict (``unilayout show --json`` without the tables).

    Keys common to the families: ``family``, ``text`` (``canonical_text``),
    ``size``, ``cosize``, ``injective``, ``surjective``, ``bijective``,
    ``contiguity``, ``longest_run``, ``note``; then each family's own
    (CuTe ``shape``/``stride``/``rank``/``depth``, linear ``in_dims``/``out_dims``,
    TSL ``offset``/``dense``, metal ``grid``/``padding``, device ``valid`` ...).
    A fact that does not apply, or was not tabulated, is absent. ``shape`` is
    the box an affine map is tabulated on (other families ignore it). The
    family's own facts come from its record (``record(value).facts``): a bare
    ``#ttnn.memory_config`` / ``#ttnn.nd_shard_spec`` (family ``"ttnn"``) gives
    its fields.

    >>> from unilayout import tsl
    >>> d = describe(tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"))
    >>> d["family"], d["size"], d["offset"], d["injective"], d["contiguity"]  # offset 5 misaligns vectors
    ('tsl', 64, 5, True, 1)
    >>> describe("8:1")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: describe takes a layout value, not text: read '8:1' with unilayout.parse first
    """
    if isinstance(value, str):
        raise LayoutError(f"describe takes a layout value, not text: read {value!r} with unilayout.parse first")
    fam = record(value)
    d = {"family": fam.name, "text": fam.canonical(value)}
    d.update(fam.facts(value, shape))
    if fam.conversions:
        from .convert import convert_to  # lazy: convert loads every family; only these values need it

        for target in fam.conversions:
            try:
                d[target] = canonical_text(convert_to(value, target))
            except NotRepresentableError as e:
                d[target] = f"not representable: {e}"
    return d


def _yes(b):
    return "yes" if b else "no"


def _plain(key, v):
    if isinstance(v, bool):
        return _yes(v)
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        if all(isinstance(x, int) for x in v) and key.endswith(("shape", "grid", "tile")):
            return "x".join(str(x) for x in v)
        return str(v)
    if isinstance(v, dict):
        return ", ".join(f"{a}={b}" for a, b in v.items())
    return str(v)


def _common_words(key, v) -> str:
    """A fact's value with the words every family shares (a family's ``glosses`` may say it its own way)."""
    if key == "contiguity":
        return f"{v} (vectorisation width: aligned runs of {v} points hold {v} consecutive values)"
    if key == "longest_run":
        return f"{v} (longest run of consecutive points holding consecutive values)"
    return _plain(key, v)


def fact_lines(d) -> list:
    """``[(name, text)]``: the facts of ``describe`` in words, as ``show`` prints them and the explorer lists them.

    >>> from unilayout import cute
    >>> dict(fact_lines(describe(cute.Layout(4, 1))))["contiguity"]
    '4 (vectorisation width: aligned runs of 4 points hold 4 consecutive values)'
    """
    try:
        glosses = record(d["family"]).glosses if "family" in d else {}
    except LayoutError:  # facts of a family no longer registered: the common words
        glosses = {}
    out = []
    for k, v in d.items():
        own = glosses.get(k)
        text = own(v, d) if own is not None else None
        out.append((k, _common_words(k, v) if text is None else text))
    return out


def format_facts(d) -> str:
    """The facts as ``unilayout show`` prints them: one ``name: text`` line each, names aligned.

    A value of several lines (a linear layout's ``toString``) continues under
    the first, so the names stay in their column.

    >>> from unilayout import cute
    >>> print(format_facts(describe(cute.Layout(2, 1))).splitlines()[5])
    cosize:         2
    """
    pad = "\n" + " " * 16
    return "\n".join(f"{k + ':':<15} {pad.join(str(v).strip(chr(10)).splitlines())}" for k, v in fact_lines(d))


def summary(d) -> str:
    """One line of the headline facts (size, cosize, injectivity, contiguity, padding) for the explorer's header.

    >>> from unilayout import cute
    >>> summary(describe(cute.Layout((2, 2), (2, 1))))
    'size 4, cosize 4, bijective, contiguity 1'
    """
    parts = [f"{k} {d[k]}" for k in ("size", "cosize") if k in d]
    if d.get("bijective"):
        parts.append("bijective")
    elif "injective" in d:
        parts.append("injective" if d["injective"] else "not injective")
    if "contiguity" in d:
        parts.append(f"contiguity {d['contiguity']}")
    if "padding" in d:
        parts.append(f"{d['padding']['slots']} padding slots")
    if "valid" in d:
        parts.append("valid" if d["valid"] else "invalid: " + d["reason"])
    return ", ".join(parts)


def checks(value) -> list:
    """What ``unilayout check`` reports: ``[{"check", "ok", "detail"}]``, the value valid when every ``ok`` holds.

    Properties that are not errors (a CuTe layout that is not injective)
    are listed as passing checks whose detail says yes or no.

    >>> from unilayout import cute
    >>> [(c["check"], c["ok"], c["detail"]) for c in checks(cute.Layout(2, 0))][1]
    ('injective', True, 'no (a property, not an error)')
    """
    d = describe(value)
    return [{"check": "parses", "ok": True, "detail": d["text"]}] + record(value).checks(value, d)
