"""Random JAX meshes, shapes and specs shared by the tests of tests/sharding."""

import numpy as np

MESH_SHAPES = [(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8), (2, 1, 4), (4,), (2, 2), (2,), (1,)]


def random_case(rng, devs, mesh_cls, spec_cls, divisible=True):
    """(mesh, spec, shape): a mesh of shuffled devices, a spec naming each axis at most once."""
    ms = rng.choice(MESH_SHAPES)
    names = tuple("abcd"[: len(ms)])
    chosen = list(devs[: int(np.prod(ms))])
    rng.shuffle(chosen)
    mesh = mesh_cls(np.array(chosen).reshape(ms), names)
    rank = rng.randint(1, 4)
    axes = list(names)
    rng.shuffle(axes)
    spec = [[] for _ in range(rank)]
    for a in axes:
        if rng.random() < 0.7:
            spec[rng.randrange(rank)].append(a)
    entries = [None if not e else e[0] if len(e) == 1 and rng.random() < 0.5 else tuple(e) for e in spec]
    size = dict(zip(names, ms))
    if divisible:
        shape = tuple(int(np.prod([size[a] for a in e])) * rng.randint(1, 3) for e in spec)
    else:
        shape = tuple(rng.randint(1, 12) for _ in spec)
    return mesh, spec_cls(*entries), shape


def positions(mesh):
    """{device id: position in the mesh}: HLO and Shardy number devices by mesh position."""
    return {d.id: k for k, d in enumerate(mesh.devices.flat)}
