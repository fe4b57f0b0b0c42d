"""The explorer server's memory of recent answers: the same request body is answered again without recomputing.

Every explorer request is a pure function of its path and body (it parses,
builds and draws; nothing else), and the page asks the same thing often:
reloading a shared link, switching back to a panel, Enter then blur on the
layout box. ``Answers`` keeps the encoded JSON of the most recent answers
(200 and 4xx, never a 500), least recently used first out, within
``MAX_BYTES`` in all; an answer bigger than ``MAX_ENTRY`` is not kept.

>>> a = Answers(max_bytes=10)
>>> a.put(("/api/view", b"1"), 200, b"12345"); a.put(("/api/view", b"2"), 200, b"123456")
>>> a.get(("/api/view", b"1")), a.get(("/api/view", b"2"))
(None, (200, b'123456'))
"""

from __future__ import annotations

import threading
from collections import OrderedDict

__all__ = ["Answers", "MAX_BYTES", "MAX_ENTRY"]

#: Bytes of answers kept in all.
MAX_BYTES = 32 << 20
#: The biggest answer kept.
MAX_ENTRY = 4 << 20


class Answers:
    """A thread-safe, byte-bounded LRU map ``(path, body) -> (status, encoded answer)``."""

    def __init__(self, max_bytes=MAX_BYTES, max_entry=MAX_ENTRY):
        self._max_bytes, self._max_entry = max_bytes, min(max_entry, max_bytes)
        self._items = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key):
        """``(status, data)`` answered for ``key`` before, or None."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key, status, data):
        """Keep the answer ``data`` (bytes) of ``key``; the least recently used go when the bytes run out."""
        size = len(data) + len(key[1])
        if size > self._max_entry:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= len(old[1]) + len(key[1])
            self._items[key] = (status, data)
            self._bytes += size
            while self._bytes > self._max_bytes:
                k, (_, d) = self._items.popitem(last=False)
                self._bytes -= len(d) + len(k[1])
