"""Helpers for the picture tests: parse SVG text and decode PNG bytes with the standard library."""

from __future__ import annotations

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
    """``(width, height, image (h, w, 3) uint8)`` of an 8-bit RGB, filter-0 PNG (what unilayout writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n : pos + 12 + n])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        chunks.append((kind, body))
        pos += 12 + n
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    w, h, depth, color, comp, filt, inter = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, color, comp, filt, inter) == (8, 2, 0, 0, 0)
    raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    assert len(raw) == h * (1 + 3 * w)
    rows = np.frombuffer(raw, dtype=np.uint8).reshape(h, 1 + 3 * w)
    assert (rows[:, 0] == 0).all()
    return w, h, rows[:, 1:].reshape(h, w, 3)
