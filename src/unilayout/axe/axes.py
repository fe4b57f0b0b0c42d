"""The named axes TVM TIRx defines: where a layout's coordinates live (memory, or which thread).

A TIRx layout sends a logical index to coordinates on *named* axes. The
memory axis ``m`` is built in; the CUDA backend registers the thread axes of
a kernel (``bx``/``by``/``bz`` blocks, ``cbx``/``cby``/``cbz`` blocks in a
cluster, ``tx`` a thread in its block, ``warpid``, ``laneid``, ``wgid``,
``tid_in_wg``, ``wid_in_wg``) and tensor memory's two axes (``TLane`` rows,
``TCol`` columns); the Trainium backend its SBUF axes (``P`` partition, ``F``
free, ``Bank``). Each thread axis runs over a subscope inside a scope: a lane
is a thread inside a warp. Any other name is an axis too (TIRx registers it
on first use, with no kind).

>>> AXES["laneid"]
AxisInfo(name='laneid', thread=True, memory=False, backend='cuda', scope='cuda.warp', subscope='cuda.thread')
>>> [a for a, i in AXES.items() if i.memory]
['m', 'TCol', 'TLane', 'P', 'F', 'Bank']
>>> kind("warpid"), kind("TCol"), kind("my_axis")
('thread', 'memory', 'unknown')
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import LayoutError

__all__ = ["AxisInfo", "AXES", "kind", "THREAD_AXES", "MEMORY_AXES"]


class AxisInfo(NamedTuple):
    """One axis TIRx registers: is it a thread or a memory axis, which backend owns it, its scope and subscope.

    >>> AXES["tid_in_wg"].scope, AXES["tid_in_wg"].subscope
    ('cuda.warpgroup', 'cuda.thread')
    """

    name: str
    thread: bool
    memory: bool
    backend: str | None
    scope: str | None
    subscope: str | None


def _t(name, scope, sub):
    return AxisInfo(name, True, False, "cuda", f"cuda.{scope}", f"cuda.{sub}")


def _mem(name, backend):
    return AxisInfo(name, False, True, backend, None, None)


#: The axes TIRx 0.1 registers (``m``; ``tvm_tirx.backend.cuda.axis``; ``tvm_tirx.backend.trn.axis``), by name.
AXES = {a.name: a for a in (
    _mem("m", None),
    _t("bx", "kernel", "cta"), _t("by", "kernel", "cta"), _t("bz", "kernel", "cta"),
    _t("cbx", "cluster", "cta"), _t("cby", "cluster", "cta"), _t("cbz", "cluster", "cta"),
    _t("tx", "cta", "thread"), _t("warpid", "cta", "warp"), _t("laneid", "warp", "thread"),
    _t("wgid", "cta", "warpgroup"), _t("tid_in_wg", "warpgroup", "thread"), _t("wid_in_wg", "warpgroup", "warp"),
    _mem("TCol", "cuda"), _mem("TLane", "cuda"),
    _mem("P", "trn"), _mem("F", "trn"), _mem("Bank", "trn"),
)}

THREAD_AXES = tuple(a for a, i in AXES.items() if i.thread)
MEMORY_AXES = tuple(a for a, i in AXES.items() if i.memory)


def kind(axis: str) -> str:
    """``"thread"``, ``"memory"`` or ``"unknown"`` (a name TIRx would register without a kind).

    >>> kind("m")
    'memory'
    """
    if not isinstance(axis, str):
        raise LayoutError(f"kind: an axis is a name such as 'laneid', got {type(axis).__name__}")
    info = AXES.get(axis)
    return "unknown" if info is None else "thread" if info.thread else "memory"
