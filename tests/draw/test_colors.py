"""unilayout.draw.colors."""

import numpy as np

from unilayout.draw.colors import EMPTY, PADDING, PALETTE, categorical, gradient, hex_color, text_color


def test_categorical_cycles():
    c = categorical(np.arange(30))
    assert c.shape == (30, 3) and c.dtype == np.uint8
    assert (c[:12] == PALETTE).all() and (c[12:24] == PALETTE).all()
    assert len({tuple(x) for x in PALETTE.tolist()}) == len(PALETTE)


def test_padding_differs_from_every_palette_colour():
    assert all(np.abs(PALETTE.astype(int) - PADDING.astype(int)).sum(axis=1) > 100)
    assert tuple(EMPTY) != tuple(PADDING)


def test_gradient_is_monotone_in_lightness():
    g = gradient(np.arange(10)).astype(int).sum(axis=1)
    assert (np.diff(g) < 0).all()
    assert gradient([3, 3]).tolist() == gradient([0, 0]).tolist()
    assert gradient(np.zeros((2, 2))).shape == (2, 2, 3)
    assert gradient([]).shape == (0, 3)


def test_text_colour_contrasts():
    assert text_color([(0, 0, 0), (255, 255, 255)]).tolist() == [[255, 255, 255], [0, 0, 0]]
    assert text_color(PADDING[None]).tolist() == [[255, 255, 255]]


def test_hex():
    assert hex_color((0, 16, 255)) == "#0010ff"
