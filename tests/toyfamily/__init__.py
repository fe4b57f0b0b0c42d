"""A toy layout family that lives outside the package, to prove a family is one folder plus one registry line.

Values are ``toy<n, k>``: the layout ``i -> i * k`` over ``[0, n)``. The
folder follows docs/architecture.md's recipe: a value (``layout.py``), its
reader, and a ``family.py`` that gives only ``types``, ``parse``,
``index_map`` and ``box``; everything else comes from the protocol's
defaults.
"""
