"""The layout planner: choose grids ("max the grid"), price reshards and conversions, find the free reinterpretations.

The tt-mlir tensor-layout seed leaves the choice of layouts open: "max the
grid at all costs", and keep exploring only "if producers/consumers end up
with nasty reblocking". ``plan`` answers those questions exactly, in bytes:

======================================  ==============================================================
name                                    answers
======================================  ==============================================================
``grids(tensor, device, ...)``          every legal grid (collapse choices, physical and virtual
                                        grids), ranked: fits L1, most cores, least padding
``reshard_cost(src, dst, device)``      bytes that stay local, cross the NoC, cross chips; per-core
                                        send/receive maxima; transfers; padding carried; and the grid
                                        reinterpretation (transposed, extra wide/tall, staircase)
                                        under which nothing moves
``chain(candidates_per_op, device)``    the layouts along a producer/consumer chain with the least
                                        total reshard traffic (dynamic programming), per-edge costs
``triton_conversion(src, dst)``         a Triton ``convert_layout``: levels, shuffle rounds, shared
                                        staging bytes, bank conflicts, vector widths
``triton_lowering(src, dst)``           what Triton 3.9 itself emits for it: path, scratch bytes,
                                        instruction classes (checked against its PTX)
``cute_copy(src, dst)``                 a CuTe copy: common vector width, transactions
``reinterpretations(device)``           the device seed's grid reinterpretations of a device
======================================  ==============================================================

The seed's ``exp -> transpose -> relu``: consuming the transposed tensor in
the same 8x8 blocks would move 56 of the 64 blocks, unless the grid is
reinterpreted as transposed:

>>> from unilayout import plan, tt
>>> dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
>>> a = tt.MetalLayout.from_collapse((256, 256), (8, 8))
>>> aT = tt.MetalLayout((256, 256), "(d0, d1) -> (d1, d0)", (8, 8))
>>> c = plan.reshard_cost(a, aT, dev)
>>> str(c.reinterpretation), c.moved_bytes
('transposed', 0)
>>> plan.grids((53, 63), dev)[0].grid
(2, 32)

Modules: ``reshard`` (``reshard_cost``), ``transfers`` (``transfer_table``:
the exact counting under it), ``regrid`` (reinterpretations), ``choose``
(``grids``), ``chains`` (``chain``), ``triton``, ``cute``, ``panel`` (the
explorer panel's JSON answer), ``picture`` (the traffic heat map and the
chosen grid over the device; ``viz.plan`` is its old name). The ``unilayout
plan`` command is ``unilayout.cli.plan`` (``plan.command`` is its old name).
Names load on first use, so ``import unilayout.plan`` (and the command line)
stays cheap.
"""

from __future__ import annotations

import importlib

_NAMES = {
    "ChainPlan": "chains", "chain": "chains",
    "GridChoice": "choose", "collapse_choices": "choose", "grids": "choose",
    "CopyCost": "cute", "cute_copy": "cute",
    "REINTERPRETATIONS": "regrid", "Reinterpretation": "regrid", "reinterpret": "regrid",
    "reinterpretations": "regrid", "row_major": "regrid",
    "ReshardCost": "reshard", "reshard_cost": "reshard", "transfer_table": "transfers",
    "TritonCost": "triton", "shuffle_rounds": "triton", "triton_conversion": "triton", "element_bits": "triton",
    "TritonLowering": "triton", "triton_lowering": "triton",
}

__all__ = sorted(_NAMES)


def __getattr__(name):
    module = _NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'unilayout.plan' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_NAMES))
