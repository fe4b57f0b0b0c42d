"""Shared arithmetic of mesh-based shardings (numpy, vectorised over devices).

Two ways to cut a dim of size ``n`` among devices:

- **tiles** (JAX, HLO, Shardy): the mesh axes naming the dim, major first,
  give each device a tile index ``t`` in ``[0, T)``; tile ``t`` is
  ``[t*c, min((t+1)*c, n))`` with ``c = ceil(n / T)`` (XLA pads the last
  tiles; JAX refuses ``n % T != 0``);
- **chunks in sequence** (DTensor, TTNN): mesh dims are applied left to
  right; each cuts the current local range ``[a, b)`` of its tensor dim as
  ``torch.chunk`` does: ``c = ceil(L / k)``, piece ``r`` is
  ``[a + min(r*c, L), a + min((r+1)*c, L))``.

| n | k | torch.chunk pieces | tiles (ceil) |
|---|---|---|---|
| 5 | 2 | 3, 2 | 3, 2 |
| 5 | 4 | 2, 2, 1, 0 | 2, 2, 1, 0 |
| 5 | 2x2 (nested) | 2, 1, 1, 1 | 2, 2, 1, 0 |
"""

from __future__ import annotations

import numpy as np

from .._ints import INT64_MAX, as_positive, as_shape, product
from ..errors import LayoutError

#: The most devices one sharding read from text or a mesh may span (2**20): a
#: mesh, tile assignment or device count above it is refused before any
#: per-device array is built.
MAX_DEVICES = 1 << 20

#: The largest device id or mesh axis size read from text (int64: the arrays of ids are int64).
MAX_ID = INT64_MAX


def check_devices(count: int, what: str) -> int:
    """``count`` if a sharding may span that many devices (``<= MAX_DEVICES``), else ``LayoutError`` naming the limit.

    >>> check_devices(8, "mesh")
    8
    >>> check_devices(1 << 30, "mesh")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: mesh: 1073741824 devices are more than the 1048576 a sharding may span
    """
    if count > MAX_DEVICES:
        raise LayoutError(f"{what}: {count} devices are more than the {MAX_DEVICES} a sharding may span")
    return count


def mesh_coords(mesh_shape) -> np.ndarray:
    """(mesh rank, devices) int64 coordinates of the row-major mesh positions.

    >>> mesh_coords((2, 3)).tolist()
    [[0, 0, 0, 1, 1, 1], [0, 1, 2, 0, 1, 2]]
    """
    return np.indices(tuple(mesh_shape), dtype=np.int64).reshape(len(mesh_shape), -1)


def tiles(n: int, sizes, coords, exact: bool):
    """Starts and stops of dim ``n`` cut into tiles by mesh axes of ``sizes`` (major first) at ``coords``.

    >>> [a.tolist() for a in tiles(5, [4], [np.arange(4)], exact=False)]
    [[0, 2, 4, 5], [2, 4, 5, 5]]
    """
    T, t = 1, None
    for k, c in zip(sizes, coords):
        t = c if t is None else t * k + c
        T *= k
    if exact and n % T:
        raise AssertionError  # callers check first
    c = -(-n // T)
    if exact:
        start = t * c
        return start, start + c
    start = np.minimum(t * c, n)
    return start, np.minimum(start + c, n)


def chunk(start, stop, k: int, r):
    """``torch.chunk`` of the ranges ``[start, stop)`` into ``k`` pieces; piece ``r`` of each.

    >>> [a.tolist() for a in chunk(np.array([0, 0]), np.array([5, 5]), 2, np.array([0, 1]))]
    [[0, 3], [3, 5]]
    """
    L = stop - start
    c = -(-L // k)
    return start + np.minimum(r * c, L), start + np.minimum((r + 1) * c, L)


def check_mesh_shape(mesh_shape, what="mesh shape"):
    """``mesh_shape`` as a tuple of sizes >= 1 (an int is a one-axis mesh), else ``LayoutError``.

    >>> check_mesh_shape(4), check_mesh_shape([2, 4])
    ((4,), (2, 4))
    >>> check_mesh_shape(())
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: mesh shape must have at least one axis
    """
    if isinstance(mesh_shape, (int, np.integer)) and not isinstance(mesh_shape, bool):
        mesh_shape = (mesh_shape,)
    shape = as_shape(mesh_shape, what)
    if not shape:
        raise LayoutError(f"{what} must have at least one axis")
    shape = tuple(as_positive(n, f"{what} dim {i}") for i, n in enumerate(shape))
    check_devices(product(shape), what)
    return shape


def split_text(sizes) -> str:
    """``3+2`` for sizes (3, 2).

    >>> split_text([2, 2, 1, 0])
    '2+2+1+0'
    """
    return "+".join(str(int(v)) for v in sizes)
