"""Pictures of basis-stride layouts (cute.picture_basis): coordinates in print_layout's grid."""

import numpy as np

from unilayout import cute
from unilayout.cute.picture_basis import basis_cells, basis_scene


def test_cells_sit_where_print_layout_puts_them():
    L = cute.make_identity_layout((3, 4))
    s = basis_scene(L)
    assert s.shape == (3, 4)
    for m in range(3):
        for n in range(4):
            assert s.labels[m, n] == f"({m},{n})" and s.index[m, n] == m + 3 * n
    assert s.attrs["coord0"].tolist() == [[m] * 4 for m in range(3)]


def test_colour_follows_coordinate_order():
    s = basis_scene(cute.parse("4:1@0"))
    light = s.fill.reshape(-1, 3).astype(np.int64).sum(axis=1)
    assert (np.diff(light) < 0).all()                                       # light = first


def test_big_layouts_are_cropped_with_a_note():
    L = cute.make_identity_layout((256, 256))
    s = basis_scene(L, max_cells=1024)
    assert s.index.size <= 1024 and any("showing rows 0..31" in n for n in s.notes)
    c = basis_cells(cute.make_identity_layout((512, 256)))
    assert c.total == 131072 and c.index.size < 131072 and c.note


def test_unlabelled_when_asked():
    assert (basis_scene(cute.parse("(2,2):(1@0,1@1)"), labels=False).labels == "").all()
