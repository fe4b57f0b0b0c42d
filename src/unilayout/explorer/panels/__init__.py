"""The explorer's panels beside the main view: each one a JSON request about one family's own operations.

``algebra`` (``/api/algebra``: CuTe's layout algebra on two layouts),
``encodings`` (``/api/encodings``: two Triton encodings of one tensor and the
levels a conversion crosses) and ``metal`` (``/api/metal``: a metal layout
built from its shape, grid and collapse). Each module imports its family
when a request first needs it (``explorer.api`` imports the panel then), so
starting the explorer loads no family; ``answer(body)`` gives the request's
JSON answer and raises ``_request.RequestError`` for bad fields.
"""
