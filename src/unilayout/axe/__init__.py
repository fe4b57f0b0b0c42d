"""TVM TIRx (Axe) layouts: a logical index -> coordinates on named hardware axes.

TIRx (``apache-tvm-tirx``, the Axe paper's ``TileLayout``) writes one layout
for every level of a GPU: ``S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]``
splits a 128-element index row-major into four coordinates that land on the
lane, the warp and the memory (register) axis; ``R[..]`` iters replicate each
element (every warp holds a copy), ``+ 3@m`` offsets an axis, and
``ComposeLayout`` swizzles the memory axis. This family holds the values
(``layout``), reads and prints both the paper's text and TIRx's own print
(``text``), knows TIRx's axes (``axes``) and evaluates ``apply`` exactly as
TIRx, vectorised over the whole domain (``TileLayout.table``). The bridge
``unilayout.convert.axe`` turns a layout into CuTe (one basis per axis) or a
linear layout where that is exact.

>>> from unilayout import axe
>>> L = axe.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]")
>>> L.apply(5) == {"laneid": 2, "warpid": 0, "m": 1}, L.size
(True, 128)
"""

from .axes import AXES, AxisInfo, kind
from .layout import MAX_POINTS, ComposeLayout, Iter, TileLayout
from .text import paper_text, parse, tirx_text

__all__ = ["TileLayout", "ComposeLayout", "Iter", "parse", "paper_text", "tirx_text", "AXES", "AxisInfo", "kind",
           "MAX_POINTS"]
