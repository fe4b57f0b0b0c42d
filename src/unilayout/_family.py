"""The family protocol: what every layout family tells the rest of unilayout, with defaults (ground floor).

A family is one folder that declares itself in its ``family.py`` with one
record, an instance of a ``Family`` subclass. Callers (``facts``, ``viz``,
``convert``, the explorer, the command, notebooks) ask the record and never
branch on a family's name. A new family overrides four hooks — ``types``,
``parse``, ``index_map`` and ``box`` — and every other hook has a default
built from those four:

==================  ==========================================================  ==============================
hook                answers                                                     default
==================  ==========================================================  ==============================
``name``            the family's name (``unilayout.family_of``)                 —
``types``           the value classes (the registry maps a value to its record) —
``parse``           ``parse(text, *, shape=None, mesh=None, mesh_shape=None)``  —
``index_map``       ``index_map(v, shape=None)``: int64 ``(N,)`` or ``(N, k)``   —
``box``             ``box(v)``: the domain as sizes, None if it has none        —
``with_shape``      the value a ``--shape`` makes of ``v``                      ``v`` unchanged
``canonical``       text that ``unilayout.parse`` reads back                    ``str(v)``
``facts``           ``show``'s facts after ``family`` and ``text``              common facts of the table
``checks``          ``unilayout check``'s rows after ``parses``                 injective/surjective
``tables``          ``[(title, text)]`` under the facts                         ``index_map`` over ``box``
``picture``         the ``draw.Scene`` of ``v`` (options refused if unknown)    ``draw.box_scene`` over ``box``
``cells``           the explorer's ``Cells``: per-cell columns, groups, keys    index, coordinate, value
                    (``canvas``: False draws it cell by cell at any size)       over ``box``; ``canvas`` True
``default_shape``   the box to draw a value with none of its own               None
``size``/``rank``   cells of its picture / numbers per cell                     ``prod(box)`` / ``len(box)``
``to_affine``       the exact ``affine.AffineMap`` (the conversion hub)         NotRepresentableError
``bits``            images of the input bits when the value is GF(2)-linear     None
``same``            two values of the family equal by its own exact test        None (compare tables)
``box_rank``        how many sizes a box of the value has                      ``len(box)``
``values_as``       the table rewritten with ``k`` values per point             None (cannot)
``index_order``     ``index_map``'s rows over the box: ``"C"`` or ``"F"``       ``"C"`` (row-major)
``flat_domain``     the domain is ``[0, N)``, the box only a factorisation      False
``concrete``        the value ``v`` stands for when drawn or converted           ``v``
``forms``/``form``  its own text forms ``convert --to`` offers; ``form(v, name)``  ``()``
``conversions``     families ``show`` lists the value converted to              ``()``
``glosses``         the family's own words for a fact in ``show``               ``{}`` (the common words)
==================  ==========================================================  ==============================

A worked example, a toy family of "multiply by k" layouts over ``[0, n)``:

>>> import numpy as np
>>> class Times:
...     def __init__(self, n, k): self.n, self.k = n, k
...     def __str__(self): return f"times<{self.n}, {self.k}>"
>>> class TimesFamily(Family):
...     name, types = "times", (Times,)
...     def parse(self, text, **given): return Times(*map(int, text[6:-1].split(",")))
...     def index_map(self, v, shape=None): return np.arange(v.n) * v.k
...     def box(self, v): return (v.n,)
>>> T = TimesFamily()
>>> v = T.parse("times<4, 2>")
>>> T.facts(v, None)["contiguity"], T.size(v, None), T.canonical(v)
(1, 4, 'times<4, 2>')
>>> T.picture(v).labels.tolist()
[['0', '2', '4', '6']]
>>> T.picture(v, color="thread")
Traceback (most recent call last):
...
unilayout.errors.LayoutError: colour modes apply to CuTe and linear layouts, not to a times value
>>> c = T.cells(v)
>>> list(c.columns), c.columns["value"], c.index.tolist()
(['index', 'coordinate', 'value'], ['0', '2', '4', '6'], [0, 1, 2, 3])

This module imports only the ground floor (``errors``; ``_measures`` and
``draw`` inside the defaults that need them, so that ``import unilayout``
loads no numpy) and knows no family.
"""

from __future__ import annotations

import math

from .errors import LayoutError, NotRepresentableError

__all__ = ["Family", "Cells", "only_options"]


def only_options(name, rest):
    """Refuse picture options that do not apply to a ``name`` value (``None`` values are "not given").

    >>> only_options("tsl", {"color": None, "labels": True})
    >>> only_options("tsl", {"tv": (4, 4)})
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: tv= (a thread-value tile) applies to CuTe layouts only
    """
    given = sorted(k for k, v in rest.items() if v is not None and k not in ("element_bytes", "labels"))
    if given:
        if "color" in given:
            raise LayoutError(f"colour modes apply to CuTe and linear layouts, not to a {name} value")
        if "tv" in given:
            raise LayoutError("tv= (a thread-value tile) applies to CuTe layouts only")
        raise LayoutError(f"picture options {given} do not apply to a {name} value")


class Cells:
    """What the browser explorer shows of a value, cell by cell: data a ``cells`` hook gives, never markup.

    The explorer (``unilayout.explorer.views``) turns it into its JSON view:
    it draws ``scene`` (or, when None, the record's ``picture`` of ``value``
    over ``shape``), numbers each drawn cell with its row here, writes
    ``columns`` as the details rows and ``groups``/``keys`` as integer lists,
    and adds the facts of ``value``. The fields:

    - ``value``, ``shape``: what the picture and the facts are of (a value may
      be shown as another: a TTNN memory config as its metal layout);
    - ``index``: per row, the domain position of its cell (``data-index``,
      the order of ``index_map``); None when the rows are not found by index;
    - ``columns``: ``{name: per-row values}``, each a list of ``str`` or an
      integer array (written one number per cell);
    - ``groups``: ``{name: one int per row}``, equal numbers belong together;
      ``keys``: ``{name: one int per row}`` that tie a cell to another view's;
    - ``padding``: per row, whether the cell is padding (or None: none is);
    - ``match``: how a drawn cell finds its row: ``"index"`` (its
      ``data-index`` among ``index``), ``"drawn"`` (the drawn cells row-major
      are the rows) or the name of a scene attribute that holds the row;
    - ``title``, ``text`` (the canonical text; None: the value has none),
      ``summary``, ``note`` (what the picture leaves out, e.g. a crop),
      ``total`` (cells of the whole value; None: the rows), ``family`` (the
      name shown; None: the record's), ``facts`` (``[[name, text]]`` instead
      of the common facts; None: ``facts.describe``), ``extras`` (more keys
      of the view, e.g. a per-core table).

    A ``cells`` hook asked for no ``details`` (the explorer draws the value on
    a canvas, without per-cell rows) gives ``index=None`` and no columns.

    >>> Cells("v", index=[0, 1], columns={"value": ["a", "b"]}).rows
    2
    """

    __slots__ = ("value", "shape", "index", "columns", "groups", "keys", "padding", "match", "scene", "title", "text",
                 "summary", "note", "total", "family", "facts", "extras")

    def __init__(self, value, *, shape=None, index=None, columns=None, groups=None, keys=None, padding=None,
                 match="index", scene=None, title="", text=None, summary="", note="", total=None, family=None,
                 facts=None, extras=None):
        self.value, self.shape, self.index, self.padding, self.match = value, shape, index, padding, match
        self.columns, self.groups, self.keys = columns or {}, groups or {}, keys or {}
        self.scene, self.title, self.text, self.summary, self.note = scene, title, text, summary, note
        self.total, self.family, self.facts, self.extras = total, family, facts, extras or {}

    @property
    def rows(self) -> int:
        """How many rows (described cells) there are."""
        if self.index is not None:
            return len(self.index)
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def __repr__(self):
        return f"<Cells of {type(self.value).__name__}: {self.rows} rows, columns {list(self.columns)}>"


class Family:
    """The protocol a family's record implements; see the module docstring for each hook and its default.

    Subclasses set ``name`` and ``types`` and define ``parse``, ``index_map``
    and ``box``; a record is stateless, so one instance per family is the
    registry's entry (``unilayout._families.WINGS`` names where it lives).
    """

    #: The family's name, as ``unilayout.family_of`` answers.
    name = ""
    #: The value classes of the family (a value's record is found by its type, subclasses included).
    types = ()
    #: The names of the family's own text forms that ``convert --to`` offers besides the families (``form``).
    forms = ()
    #: Families whose form of a value ``show`` lists after its facts (``convert`` computes them, or says why not).
    conversions = ()
    #: ``{fact: function(value, facts) -> text or None}``: the family's own words for a fact in ``show`` (None: the
    #: common words), e.g. what CuTe's surjectivity means.
    glosses = {}
    #: The order of ``index_map``'s rows over the box: ``"C"`` (row-major, last dim fastest) or ``"F"`` (first fastest).
    index_order = "C"
    #: True when the domain is ``[0, N)`` and the box only a factorisation of it (CuTe's 1-D coordinate, a linear
    #: layout's flattened input): ``equivalent`` compares such domains by their size, not their box.
    flat_domain = False

    def __repr__(self):
        return f"<family {self.name!r}>"

    # -- the four hooks a family must give ----------------------------------------------------------------
    def parse(self, text, *, shape=None, mesh=None, mesh_shape=None):
        """The value ``text`` spells (``ParseError`` with the position on bad text)."""
        raise NotImplementedError(f"family {self.name!r} gives no parse")

    def index_map(self, value, shape=None):
        """The value at every point of the domain, int64 ``(N,)`` or ``(N, k)``, in the family's domain order."""
        raise NotImplementedError(f"family {self.name!r} gives no index_map")

    def box(self, value):
        """The domain as a tuple of sizes (row-major order of ``index_map``), or None when it has none of its own."""
        raise NotImplementedError(f"family {self.name!r} gives no box")

    def refuse_shape(self, shape):
        """For a family whose values have their own domain: ``index_map(v, shape)`` with a shape is a LayoutError.

        >>> class F(Family): name = "toy"
        >>> F().refuse_shape(None)
        >>> F().refuse_shape((4,))
        Traceback (most recent call last):
        ...
        unilayout.errors.LayoutError: index_map: shape is only for affine maps, swizzles and dynamic TSLs, not a toy layout
        """
        if shape is not None:
            raise LayoutError(f"index_map: shape is only for affine maps, swizzles and dynamic TSLs, not a {self.name} "
                              "layout")

    # -- hooks with defaults ------------------------------------------------------------------------------
    def with_shape(self, value, shape):
        """The value that ``--shape`` makes of ``value`` (a dynamic layout resolved, a placement on a tensor)."""
        return value

    def concrete(self, value):
        """The value ``value`` stands for when it is drawn or converted (a placement: the layout it makes)."""
        return value

    def form(self, value, name, *, mesh_shape=None) -> str:
        """``value`` as text in the family's own form ``name`` (one of ``forms``), or NotRepresentableError why not."""
        raise LayoutError(f"a {self.name} value has no text form {name!r}")

    def canonical(self, value) -> str:
        """Text of ``value`` that ``unilayout.parse`` reads back."""
        return str(value)

    def _box_of(self, value, shape):
        box = self.box(value)
        if box is None and shape is not None:
            box = tuple(int(s) for s in shape)
        return box

    def facts(self, value, shape) -> dict:
        """``show``'s facts after ``family`` and ``text``: by default size and the table's measures over ``box``."""
        from ._measures import MAX_TABULATE, table_facts  # lazy: numpy, kept out of `import unilayout`

        d = {}
        box = self._box_of(value, shape)
        if box is None:
            d["note"] = f"a {self.name} value has no box of its own: give --shape to tabulate it"
            return d
        d["shape"] = list(box)
        d["size"] = math.prod(box)
        if d["size"] > MAX_TABULATE:
            d["note"] = f"size {d['size']:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
            return d
        vals = self.index_map(value, shape)
        if vals.ndim == 1:
            d["cosize"] = int(vals.max()) + 1 if vals.size else 0
            table_facts(d, vals, 0, d["cosize"] - 1)
        return d

    def checks(self, value, facts) -> list:
        """``unilayout check``'s rows after ``parses``: injectivity and surjectivity as properties, not errors."""
        return [{"check": key, "ok": True, "detail": ("yes" if facts[key] else "no") + " (a property, not an error)"}
                for key in ("injective", "surjective") if key in facts]

    def tables(self, value, shape, max_cells) -> list:
        """``[(title, text)]`` under ``show``'s facts: the values over the box, rows x last dim."""
        from .draw.table import grid_text, too_big  # lazy: numpy, kept out of `import unilayout`

        box = self._box_of(value, shape)
        if box is None:
            return []
        if math.prod(box) > max_cells:
            return [too_big("values", math.prod(box), max_cells)]
        return [("values (row-major box; rows x last dim)", grid_text(self.index_map(value, shape), box))]

    def picture(self, value, *, shape=None, max_cells=None, labels=True, **options):
        """The ``draw.Scene`` of ``value``: its values over its box (cropped to ``max_cells``)."""
        from .draw import DEFAULT_MAX_CELLS, box_scene  # lazy: numpy, kept out of `import unilayout`

        only_options(self.name, options)
        box = self._box_of(value, shape)
        if box is None:
            raise LayoutError(f"a {self.name} value has no box of its own: give a shape to draw it")
        scene = box_scene(f"{self.name} {self.canonical(value)}", self.index_map(value, shape), box,
                          max_cells=max_cells or DEFAULT_MAX_CELLS, labels=labels is not False)
        scene.kind = self.name
        return scene

    #: Whether the explorer may draw a big value on its canvas (no per-cell rows): False for a family whose cells
    #: are few and whose ``cells`` always gives every row (a sharding's blocks, a tiled MMA's operand cells).
    canvas = True

    def cells(self, value, shape=None, *, details=True) -> Cells:
        """The explorer's ``Cells`` of ``value``: by default each point of the box, its coordinate and value.

        The rows are the points ``picture`` draws (the top-left block of a box
        above ``draw.cells.MAX_CELLS``), in row-major order; ``details=False``
        (a canvas picture) gives only the value-level parts.
        """
        import numpy as np  # lazy: numpy, kept out of `import unilayout`

        from .draw.cells import box_block, fmts, same, strs  # lazy: numpy, kept out of `import unilayout`

        box = self._box_of(value, shape)
        if box is None:
            raise LayoutError(f"a {self.name} value has no box of its own: give a shape to draw it")
        text = self.canonical(value)
        shown = "x".join(map(str, box)) or "a point"
        c = Cells(value, shape=shape, title=f"{self.name} {text}", text=text, total=math.prod(box),
                  summary=f"{self.name} layout over {shown}")
        if not details:
            return c
        idx, c.note = box_block(box, f"the {self.name} box {shown}")
        vals = self.index_map(value, shape)
        vals = vals.reshape(vals.shape[0], -1)[idx]
        crds = np.unravel_index(idx, box) if box else ()
        c.index = idx
        c.columns = {"index": idx, "coordinate": fmts(crds, idx.size),
                     "value": strs(vals[:, 0]) if vals.shape[1] == 1 else fmts(list(vals.T), idx.size)}
        c.groups = {"value": same(vals)}
        return c

    def default_shape(self, value):
        """The box a picture of ``value`` uses when none is given and it has none of its own (None: it has one)."""
        return None

    def size(self, value, shape=None) -> int:
        """Cells of ``value``'s whole picture, without evaluating it."""
        box = self._box_of(value, shape if shape is not None else self.default_shape(value))
        return math.prod(box) if box is not None else 0

    def rank(self, value) -> int:
        """How many numbers describe one cell of ``value`` (the explorer bounds an answer by cells x rank)."""
        box = self.box(value)
        return len(box) if box is not None else 0

    def to_affine(self, value):
        """The exact ``affine.AffineMap`` of ``value`` over its box: the hub every conversion may go through."""
        raise NotRepresentableError(f"a {self.name} value has no affine form")

    def bits(self, value):
        """The images of the input bits when ``value`` is a GF(2)-linear map of a power-of-two domain, else None."""
        return None

    def same(self, a, b, shape):
        """Whether ``a`` and ``b`` (both of this family, ``a != b``) are one function by the family's own exact test,
        or None to compare their tables (``unilayout.equivalent``)."""
        return None

    def box_rank(self, value):
        """How many sizes a box of ``value`` has (a value without a box of its own: how many it takes)."""
        box = self.box(value)
        return None if box is None else len(box)

    def values_as(self, value, table, k):
        """``table`` (``index_map``'s values, one row per point) with ``k`` values per point, or None if it cannot."""
        return None
