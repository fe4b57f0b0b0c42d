"""XLA tiled layouts (``sharding.XlaLayout``, family ``xla``) to the layout families.

An XLA layout is the function "element index -> buffer offset" over its
dims. Its affine map is always exact (floordiv/mod per tile level,
``XlaLayout.to_affine``); a CuTe layout exists where no tile pads its dim
(``XlaLayout.to_cute``), and linear / TSL forms go through that CuTe layout
(exact, or ``NotRepresentableError`` with the reason).

CuTe's 1-D coordinate runs over the dims colexicographically (dim 0
fastest), as for every box family; the value at element ``(i, j)`` is XLA's
linear index of that element:

>>> from unilayout import sharding
>>> x = sharding.parse_xla_layout("f32[4,8]{0,1}")
>>> str(xla_to_cute(x)), str(xla_to_affine(x))
('(4,8):(1,4)', '(d0, d1) -> (d1 * 4 + d0)')
"""

from __future__ import annotations

__all__ = ["xla_to_affine", "xla_to_cute", "xla_to_linear", "xla_to_tsl"]


def xla_to_affine(x):
    """XLA's tiled linear index as an affine map over the dims (always exact).

    >>> from unilayout import sharding
    >>> print(xla_to_affine(sharding.parse_xla_layout("f32[3,5]{1,0:T(2,2)}")))
    (d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + (d0 mod 2) * 2 + d1 mod 2)
    """
    return x.to_affine()


def xla_to_cute(x):
    """The CuTe layout of ``x`` (``NotRepresentableError`` where a tile pads a dim).

    >>> from unilayout import sharding
    >>> str(xla_to_cute(sharding.parse_xla_layout("f32[4,4]{1,0:T(2,2)}")))
    '((2,2),(2,2)):((2,8),(1,4))'
    """
    return x.to_cute()


def xla_to_linear(x, in_dims=None, out_dims=None):
    """The linear layout of ``x``'s CuTe layout (exact where it is GF(2)-linear, else ``NotRepresentableError``).

    >>> from unilayout import sharding
    >>> xla_to_linear(sharding.parse_xla_layout("f32[2,2]{0,1}")).bases
    [('dim0', [[1]]), ('dim1', [[2]])]
    """
    from .cute_linear import cute_to_linear

    options = {k: v for k, v in (("in_dims", in_dims), ("out_dims", out_dims)) if v is not None}
    return cute_to_linear(x.to_cute(), **options)


def xla_to_tsl(x):
    """The TSL of ``x``'s CuTe layout (exact where no tile pads a dim).

    >>> from unilayout import sharding
    >>> print(xla_to_tsl(sharding.parse_xla_layout("f32[2,4]{1,0}")))
    #tsl.tsl<[2] -> (4), [4] -> (1)>
    """
    from .to_tsl import cute_to_tsl

    return cute_to_tsl(x.to_cute())
