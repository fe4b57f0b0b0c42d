"""The registry of layout families: one line per family, saying where its record lives and which texts it claims.

Every place that must know "which family is this?" asks here:
``unilayout.parse``, ``unilayout.index_map``, ``unilayout.equivalent``,
``viz.scene``, ``facts``, the explorer and the command. A family is a folder
whose ``family.py`` declares its record (a ``_family.Family``; ``FAMILY``, or
``FAMILIES`` when one folder holds several); this module lists the folders and
imports none of them until a text or a value needs it.

===========  ==============================  ==================================================  ============
family       record                          text it claims (at its first non-space character)    value order
===========  ==============================  ==================================================  ============
``sharding`` ``sharding.family``             HLO ``{..}``/``sharding=``, Shardy, placements       —
``tsl``      ``tsl.family``                  ``#tsl.tsl<``, a bare body ``[``                     row-major box
``linear``   ``linear.family``               ``#ttg.``/``#ttng.`` texts, Triton ``tensor<..>``,   input bits
                                             ``!ttg.memdesc<``, alias lines, ``toString``
``device``   ``tt.family``                   ``#tt.device<``, ``#ttcore.device<``                 worker grid
``metal``    ``tt.family``                   ``tensor<``, ``#tt.``/``#ttcore.``/``#ttnn.``, their   row-major box
                                             alias lines (``#l1 = #ttnn...``)
``tiled``    ``cute.family``                 ``SM80_..`` atoms, ``make_tiled_mma/copy(..)``,        —
                                             C++'s ``print(tiled_mma)`` block
``axe``      ``axe.family``                  ``S[``, ``R[``, ``TileLayout(..)``, ``ComposeLayout``     row-major box
``xla``      ``xla.family``                  an XLA shape ``f32[128,256]{1,0:T(8,128)}``          row-major box
``tilelang`` ``tilelang.family``             ``Layout((..) -> ..``, ``Fragment((..) -> ..``         row-major box
``affine``   ``affine.family``               ``affine_map<``, any text holding ``->``             the box given
``cute``     ``cute.family``                 a digit, ``(``, ``_``, ``Sw``, C++'s ``ptr[..] o``      1-D coords
``mosaic``   ``mosaic.family``               ``#mosaic_gpu.``, ``plgpu.Layout.X``, ``#tpu.``        its tile
===========  ==============================  ==================================================  ============

The order of the table is the order of detection (a TSL body and Triton's
``toString`` both hold ``->``, so they come before affine maps). Records
that claim no text (``ttnn``: TTNN memory configs, read by ``metal``'s
reader) are found by their values' types.

>>> from unilayout import cute
>>> family_of(cute.Layout(4, 1)), detect("#tsl.tsl<[2] -> (1)>").name, detect("8:1").name
('cute', 'tsl', 'cute')
>>> detect("hello") is None
True

Adding a family is one ``Wing`` line here (or ``register`` at run time, for
a plug-in outside the package); ``docs/architecture.md`` has the recipe.
"""

from __future__ import annotations

from ._family import Family
from .errors import LayoutError, ParseError

__all__ = ["Family", "Wing", "WINGS", "register", "families", "family_of", "record", "detect", "read", "parse",
           "index_map", "EXPECTED"]

#: What ``parse`` says when text belongs to no family.
EXPECTED = (
    "expected a layout: CuTe 'shape:stride' or 'Sw<B,M,S> o 0 o shape:stride', an affine map "
    "'(d0, ..) -> (..)' or 'affine_map<..>', '#tsl.tsl<..>', '#ttg.linear<{..}>', 'tensor<64x64xf16, #ttg.blocked<..>>', "
    "'tensor<..., #tt.metal_layout<..>>' or '#tt.device<..>'"
)


class Wing:
    """One registry line: the family ``name``, the ``module`` whose ``FAMILY``/``FAMILIES`` holds its record, and the
    regex its texts match at their first non-space character (None: it claims no text).

    >>> Wing("cute", "unilayout.cute.family", r"[0-9(_]|Sw").claims("(4,2):(2,1)")
    True
    """

    __slots__ = ("name", "module", "package", "claims_text", "_pattern")

    def __init__(self, name, module, claims=None):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "module", module)
        object.__setattr__(self, "package", module.rsplit(".", 1)[0])
        object.__setattr__(self, "claims_text", claims)
        object.__setattr__(self, "_pattern", None)

    def __setattr__(self, name, value):
        raise AttributeError("Wing is immutable")

    def claims(self, body) -> bool:
        """Whether ``body`` (text without its leading spaces) is this family's."""
        if self.claims_text is None:
            return False
        if self._pattern is None:  # compiled on first use: `import re` stays out of `import unilayout`
            import re  # lazy: import time (re and its compiler cost more than the rest of import unilayout)

            object.__setattr__(self, "_pattern", re.compile(self.claims_text))
        return self._pattern.match(body) is not None

    def __repr__(self):
        return f"Wing({self.name!r}, {self.module!r}, {self.claims_text!r})"


#: The families in detection order.
WINGS = [
    Wing("sharding", "unilayout.sharding.family",
         r"\{|sharding=|#sdy\.sharding|sdy\.mesh(?=[\s\S]*#sdy\.sharding)|"
         r"\[?\s*(?:(?:Shard|Replicate|Partial|_StridedShard|_S|S|Placement\w*)\(|[RP]\s*(?:,|\]|$))|"
         r"\(\s*(?:Shard|Replicate|Partial|_StridedShard|_S)\(|"
         r"NamedSharding\(|PartitionSpec\(|P\(\s*(?:['\"(]|None\b|unreduced|reduced)|"
         r"(?=[\s\S]*?(?:(?<![\w.])sharding=\{|\b(?:mhlo|xla\.sdy|sdy)\.sharding\s*=|"
         r"\bsdy\.(?:sharding_constraint|reshard)\s+%))"),
    Wing("tsl", "unilayout.tsl.family", r"#tsl\.|\["),
    Wing("linear", "unilayout.linear.family",
         r"#ttg\.|#triton_gpu\.|#ttng\.|!ttg\.memdesc|- |where out dims|\(empty layout|"
         r"(?=tensor|#[^\n]*=)(?=[\s\S]*#(?:ttg|triton_gpu|ttng)\.)"),
    Wing("device", "unilayout.tt.family", r"#tt\.device|#ttcore\.device"),
    Wing("metal", "unilayout.tt.family", r"tensor ?<(?!\s*ptr\s*<)|#tt\.|#ttcore\.|#ttnn\.|#[\w.$-]+[ \t]*=[ \t]*#(?:tt|ttcore|ttnn)\."),
    Wing("ttnn", "unilayout.tt.family"),
    Wing("tiled", "unilayout.cute.family",
         r"SM\d+_|(?:cute::)?make_tiled_(?:mma|copy)\w*\s*\(|MMA_Atom\b|Copy_Atom\b|TiledMMA\s|TiledCopy\s"),
    Wing("axe", "unilayout.axe.family", r"(?:T\.)?(?:TileLayout|ComposeLayout)\b|[SR]\["),
    Wing("xla", "unilayout.xla.family", r"(?!(?:gmem_|smem_|rmem_)?(?:sub)?ptr\[|tmem_\[)[A-Za-z_][A-Za-z0-9_]*\["),
    Wing("tilelang", "unilayout.tilelang.family", r"(?:Layout|Fragment)\(\s*\("),
    Wing("affine", "unilayout.affine.family", r"affine_map|[\s\S]*->"),
    Wing("cute", "unilayout.cute.family", r"[0-9(_]|Sw|SW|(?:gmem_|smem_|rmem_)?(?:sub)?ptr\[|tmem_\[|sparse<|ArithTuple\(|"
         r"[!#](?:cute|fly)\.|tensor\s*<\s*ptr\s*<|S<"),  # CuTe IR, FlyDSL and the CuTe DSL's prints
    Wing("mosaic", "unilayout.mosaic.family", r"#mosaic_gpu\.|#tpu\.|(?:plgpu\.)?Layout\.[A-Z_]|memref<"),
]

_RECORDS = {}  # name -> Family, filled as wings load
_BY_TYPE = {}  # value class -> Family


def register(wing, *, before=None):
    """Add a family's ``Wing`` to the registry (a plug-in outside the package), ``before`` the named one or last.

    >>> w = Wing("toy", "toyfamily.family", r"toy<")
    >>> register(w, before="cute"); names = [x.name for x in WINGS]; names[names.index("toy") + 1]
    'cute'
    >>> unregister("toy")
    """
    if any(w.name == wing.name for w in WINGS):
        raise LayoutError(f"a family named {wing.name!r} is registered already")
    at = len(WINGS) if before is None else [w.name for w in WINGS].index(before)
    WINGS.insert(at, wing)


def unregister(name):
    """Remove the family ``name`` (and its loaded record) from the registry."""
    WINGS[:] = [w for w in WINGS if w.name != name]
    fam = _RECORDS.pop(name, None)
    for cls in [c for c, f in _BY_TYPE.items() if f is fam]:
        del _BY_TYPE[cls]


def _load(wing) -> Family:
    """The record of ``wing``, importing its module on first use (the registry's one dynamic import)."""
    fam = _RECORDS.get(wing.name)
    if fam is None:
        import importlib  # lazy: the loader is the one documented dynamic import

        module = importlib.import_module(wing.module)
        records = getattr(module, "FAMILIES", None) or (module.FAMILY,)
        for r in records:
            _RECORDS[r.name] = r
            for cls in r.types:
                _BY_TYPE.setdefault(cls, r)
        fam = _RECORDS.get(wing.name)
        if fam is None:
            raise LayoutError(f"{wing.module} declares no record named {wing.name!r}")
    return fam


def families() -> tuple:
    """The names of every registered family, in detection order.

    >>> families()[:3]
    ('sharding', 'tsl', 'linear')
    """
    return tuple(w.name for w in WINGS)


def record(value_or_name) -> Family:
    """The record of a layout value (by its type, subclasses included), or of a family name (a ``str``).

    >>> record("tsl").name, record("tsl").types[0].__name__
    ('tsl', 'TiledStridedLayout')
    """
    if isinstance(value_or_name, str):
        for w in WINGS:
            if w.name == value_or_name:
                return _load(w)
        raise LayoutError(f"unknown family {value_or_name!r}; choose one of {', '.join(families())}")
    return _of_value(value_or_name)


def _of_value(value) -> Family:
    fam = _of_type(type(value))
    if fam is None:
        raise LayoutError(
            "expected a unilayout layout value (CuTe Layout/ComposedLayout/Swizzle, LinearLayout, AffineMap, "
            f"TiledStridedLayout, MetalLayout or Device), got {type(value).__name__}"
        )
    return fam


def _of_type(cls):
    mro = cls.__mro__
    for c in mro:
        if c in _BY_TYPE:
            return _BY_TYPE[c]
    # the value's folder is imported but its record not yet: load the wings of the folders its classes live in
    loaded = False
    for c in mro:
        for w in WINGS:
            if w.name not in _RECORDS and (c.__module__ == w.package or c.__module__.startswith(w.package + ".")):
                _load(w)
                loaded = True
    if loaded:
        for c in mro:
            if c in _BY_TYPE:
                return _BY_TYPE[c]
    return None


def family_of(value) -> str:
    """The family name of a layout value: ``cute``, ``linear``, ``affine``, ``tsl``, ``metal``, ``device`` ...

    >>> from unilayout import cute
    >>> family_of(cute.Swizzle(1, 0, 1))
    'cute'
    >>> family_of(cute.Tensor([1, 2], cute.Layout(2, 1)))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: expected a unilayout layout value (CuTe Layout/ComposedLayout/Swizzle, LinearLayout, AffineMap, TiledStridedLayout, MetalLayout or Device), got Tensor
    """
    return _of_value(value).name


def detect(text: str):
    """The ``Wing`` of the family whose text ``text`` is (leading spaces ignored), or None; imports no family.

    >>> detect("  affine_map<(d0) -> (d0)>").name, detect("#tt.device<...>").name
    ('affine', 'device')
    """
    body = text.lstrip()
    if not body:
        return None
    for w in WINGS:
        if w.claims(body):
            return w
    return None


def read(text, *, shape=None, mesh=None, mesh_shape=None):
    """The one front door: the value of any family's ``text``; with ``shape``, the value that shape makes of it.

    ``shape`` resolves a dynamic TSL, gives a TTNN memory config its tensor and
    a sharding its tensor; ``mesh``/``mesh_shape`` name a sharding's mesh.
    Errors are ``ParseError`` with the position in ``text`` (leading spaces
    counted); text of no family points at its first character.

    >>> read("#tsl.tsl<[?] -> (1)>", shape=(8,)).shape
    (8,)
    >>> read("8:1", shape="8x8")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: read: shape must be a sequence of integers, got '8x8'
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse: expected text, got {type(text).__name__}")
    at = len(text) - len(text.lstrip())
    if at == len(text):
        raise ParseError(f"empty text: {EXPECTED}", text, at)
    if shape is not None:
        from ._ints import as_shape  # lazy: import time (_ints loads typing; most texts come without a shape)

        shape = as_shape(shape, "read: shape")
    wing = detect(text)
    if wing is None:
        raise ParseError(EXPECTED, text, at)
    fam = _load(wing)
    try:
        value = fam.parse(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape)
        if shape is not None:
            value = record(value).with_shape(value, shape)
        return value
    except LayoutError:
        raise
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, ArithmeticError, RecursionError) as e:
        # a family parser's slip: still a positioned error, never a traceback
        raise ParseError(f"unreadable {fam.name} text ({type(e).__name__}: {e})", text, at) from None


def parse(text):
    """Read the text of any family (see ``unilayout.parse``): ``ParseError`` with the position on bad text."""
    return read(text)


def index_map(value, shape=None):
    """``value``'s table in its family's domain order (see ``unilayout.index_map``)."""
    return _of_value(value).index_map(value, shape)
