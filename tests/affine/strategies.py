"""Hypothesis strategies shared by the affine tests: random affine expressions and maps."""

from hypothesis import strategies as st

from unilayout.affine import AffineMap, Binary, Constant, Dim, Symbol


def exprs(num_dims=2, num_symbols=1, max_leaves=8):
    """Random expressions built with the folding operators (always valid affine)."""
    leaves = st.one_of(
        st.integers(0, num_dims - 1).map(Dim),
        st.integers(-9, 9).map(Constant),
        *([st.integers(0, num_symbols - 1).map(Symbol)] if num_symbols else []),
    )

    def extend(children):
        divisor = st.integers(1, 9).map(Constant)
        if num_symbols:
            divisor = st.one_of(divisor, st.integers(0, num_symbols - 1).map(Symbol))
        factor = st.one_of(st.integers(-6, 6).map(Constant), *( [st.integers(0, num_symbols - 1).map(Symbol)] if num_symbols else []))
        return st.one_of(
            st.tuples(children, children).map(lambda t: t[0] + t[1]),
            st.tuples(children, children).map(lambda t: t[0] - t[1]),
            st.tuples(children, factor).map(lambda t: t[0] * t[1]),
            st.tuples(children, divisor).map(lambda t: t[0].floordiv(t[1])),
            st.tuples(children, divisor).map(lambda t: t[0].ceildiv(t[1])),
            st.tuples(children, divisor).map(lambda t: t[0] % t[1]),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def maps(num_dims=2, num_symbols=1, max_results=3):
    return st.lists(exprs(num_dims, num_symbols), min_size=1, max_size=max_results).map(
        lambda rs: AffineMap(num_dims, num_symbols, rs)
    )


def raw_exprs(num_dims=2, num_symbols=1, max_leaves=8):
    """Random trees of raw ``Binary`` nodes (no folds: right-nested sums, constant sums, ``x * 1`` ...)."""
    leaves = st.one_of(
        st.integers(0, num_dims - 1).map(Dim),
        st.integers(-9, 9).map(Constant),
        *([st.integers(0, num_symbols - 1).map(Symbol)] if num_symbols else []),
    )
    free = st.one_of(st.integers(-6, 6).map(Constant), *([st.integers(0, num_symbols - 1).map(Symbol)] if num_symbols else []))
    divisor = st.one_of(st.integers(1, 9).map(Constant), *([st.integers(0, num_symbols - 1).map(Symbol)] if num_symbols else []))

    def extend(children):
        return st.one_of(
            st.tuples(children, children).map(lambda t: Binary("+", t[0], t[1])),
            st.tuples(children, free).map(lambda t: Binary("*", t[0], t[1])),
            st.tuples(free, children).map(lambda t: Binary("*", t[0], t[1])),
            st.tuples(st.sampled_from(["floordiv", "ceildiv", "mod"]), children, divisor).map(
                lambda t: Binary(t[0], t[1], t[2])),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def raw_maps(num_dims=2, num_symbols=1, max_results=3):
    return st.lists(raw_exprs(num_dims, num_symbols), min_size=1, max_size=max_results).map(
        lambda rs: AffineMap(num_dims, num_symbols, rs)
    )
