"""Helpers for the picture tests: parse SVG text and decode PNG bytes with the standard library."""

from __future__ import annotations

import io
import struct
import xml.etree.ElementTree as ET
import zlib

import numpy as np

NS = "{http://www.w3.org/2000/svg}"


def parse_svg(text):
    """The root element; fails the test when the text is not well-formed SVG."""
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def classes(el):
    return el.get("class", "").split()


def cells(root, cls="cell"):
    """The ``<g>`` elements with class ``cls`` (document order)."""
    return [g for g in root.iter(NS + "g") if cls in classes(g)]


def texts(root, cls="label"):
    return [t for t in root.iter(NS + "text") if cls in classes(t)]


def label_text(g):
    """The label of a cell group ('' when none), lines joined by newlines."""
    t = g.find(NS + "text")
    if t is None:
        return ""
    spans = t.findall(NS + "tspan")
    return "\n".join(s.text or "" for s in spans) if spans else (t.text or "")


def decode_png(data):
    """``(width, height, image (h, w, 3) uint8)`` of an 8-bit RGB PNG, decoded by Pillow after a chunk check."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, kinds = 8, []
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        (crc,) = struct.unpack(">I", data[pos + 8 + n : pos + 12 + n])
        assert crc == zlib.crc32(data[pos + 4 : pos + 8 + n]) & 0xFFFFFFFF
        kinds.append(kind)
        pos += 12 + n
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    from PIL import Image

    im = Image.open(io.BytesIO(data))
    assert im.mode == "RGB"
    return im.width, im.height, np.asarray(im)
