"""The layout planner: price reshards in bytes and find the grid reinterpretations that move nothing.

>>> from unilayout import plan, tt
>>> dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
>>> a = tt.MetalLayout.from_collapse((256, 256), (8, 8))
>>> str(plan.reshard_cost(a, tt.MetalLayout((256, 256), "(d0, d1) -> (d1, d0)", (8, 8)), dev).reinterpretation)
'transposed'
"""

from .chains import ChainPlan, chain
from .choose import GridChoice, collapse_choices, grids
from .cute import CopyCost, cute_copy
from .reinterpret import REINTERPRETATIONS, Reinterpretation, reinterpret, reinterpretations, row_major
from .reshard import ReshardCost, reshard_cost, transfer_table
from .triton import TritonCost, shuffle_rounds, triton_conversion

__all__ = ["ChainPlan", "CopyCost", "GridChoice", "TritonCost", "chain", "cute_copy", "shuffle_rounds", "triton_conversion", "REINTERPRETATIONS", "collapse_choices", "grids", "Reinterpretation", "ReshardCost", "reinterpret", "reinterpretations",
           "reshard_cost", "row_major", "transfer_table"]
