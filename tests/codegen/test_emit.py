"""``codegen.emit``: the emitted code, run or compiled, equals ``index_map`` on the whole domain.

Every family, 1,000 seeded random values each: Python and numpy are executed, C and CUDA (as C++ with the
CUDA qualifiers defined away) compiled by the system compiler and run, MLIR affine maps read back by
``unilayout.affine``; Triton's interpreter (tests/codegen/test_triton.py) and the CuTe C++ against the
CUTLASS headers (tests/codegen/test_cute_cpp.py) are checked beside.
"""

import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
import pytest
from codegen_layouts import FAMILIES, expected, grid, random_values

from unilayout import LayoutError, NotRepresentableError, affine, codegen, cute
from unilayout.codegen import ir

N = int(os.environ.get("UNILAYOUT_CODEGEN_LAYOUTS", "1000"))


@pytest.fixture(scope="module", params=FAMILIES)
def cases(request):
    out = []
    for v in random_values(request.param, N, seed=29):
        try:
            out.append((v, *expected(v)))
        except NotRepresentableError:
            continue
    assert len(out) >= 0.9 * N, request.param  # nearly every random value has code
    return request.param, out


def _run_python(src, k, cols, numpy):
    env = {}
    exec(compile(src, "<codegen>", "exec"), env)
    f = env[k.name]
    if numpy:
        got = f(*cols)
        got = got if isinstance(got, tuple) else (got,)
        return np.stack([np.broadcast_to(np.asarray(g, dtype=np.int64), cols[0].shape) for g in got], axis=1)
    rows = [f(*(int(c[j]) for c in cols)) for j in range(len(cols[0]))]
    return np.array([r if isinstance(r, tuple) else (r,) for r in rows], dtype=np.int64)


@pytest.mark.parametrize("lang", ["python", "numpy"])
def test_python_and_numpy_code_equals_index_map_on_the_whole_domain(cases, lang):
    _, items = cases
    for v, k, table in items:
        src = codegen.emit(v[0] if isinstance(v, tuple) else v, lang, name="f", shape=v[1] if isinstance(v, tuple) else None)
        cols = grid(k)
        got = _run_python(src, k, cols, lang == "numpy")
        assert np.array_equal(got, table), (v, src)


def _c_program(items, cuda):
    parts = ["#include <stdio.h>", "#include <stdint.h>"]
    if cuda:
        parts += ["#define __device__", "#define __forceinline__ inline"]
    main = ["int main(void) {"]
    for j, (v, k, _) in enumerate(items):
        value, shape = v if isinstance(v, tuple) else (v, None)
        src = codegen.emit(value, "cuda" if cuda else "c", name=f"f{j}", shape=shape).replace("#include <stdint.h>", "")
        parts.append(src)
        t = "long long"
        ext = [e for _, e in k.inputs]
        names = [f"x{a}" for a in range(len(ext))]
        loop_order = list(range(len(ext)))[::-1] if k.order == "F" else list(range(len(ext)))
        body = []
        for a in loop_order:
            body.append(f"for ({t} {names[a]} = 0; {names[a]} < {ext[a]}; ++{names[a]})")
        args = ", ".join(names)
        if len(k.outputs) == 1:
            call = f'printf("%lld\\n", (long long)f{j}({args}));'
        else:
            t_out = re.search(r"void f\d+\((int64_t|long long|int) ", src).group(1)
            decl = "".join(f"{t_out} o{b}; " for b in range(len(k.outputs)))
            outs = ", ".join(f"&o{b}" for b in range(len(k.outputs)))
            fmt = " ".join(["%lld"] * len(k.outputs))
            vals = ", ".join(f"(long long)o{b}" for b in range(len(k.outputs)))
            call = f'{{ {decl}f{j}({args}, {outs}); printf("{fmt}\\n", {vals}); }}'
        main.append("  " + " ".join(body) + " " + call)
    main.append("  return 0;\n}")
    return "\n".join(parts + main)


@pytest.mark.parametrize("lang", ["c", "cuda"])
def test_c_and_cuda_code_compiled_equals_index_map(cases, lang):
    cc = shutil.which("g++" if lang == "cuda" else "gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler on this machine")
    family, items = cases
    program = _c_program(items, lang == "cuda")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "t.cpp" if lang == "cuda" else "t.c")
        open(src, "w").write(program)
        exe = os.path.join(d, "t")
        flags = ["-std=c++17"] if lang == "cuda" else ["-std=c99"]
        r = subprocess.run([cc, *flags, "-O0", "-Wall", "-Werror", "-Wno-unused-function", "-Wno-unused-variable",
                            src, "-o", exe], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[:3000]
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split("\n")
    pos = 0
    for v, _, table in items:
        rows = table.shape[0]
        got = np.array([list(map(int, line.split())) for line in out[pos:pos + rows]], dtype=np.int64)
        pos += rows
        assert np.array_equal(got.reshape(table.shape), table), (family, v)


def test_mlir_affine_reads_back_to_the_same_function_or_says_why_not(cases):
    family, items = cases
    refused = 0
    for v, k, table in items:
        value, shape = v if isinstance(v, tuple) else (v, None)
        try:
            text = codegen.emit(value, "mlir-affine", shape=shape)
        except NotRepresentableError as e:
            assert "XOR" in str(e) or "mask" in str(e), e
            assert family in ("cute", "linear", "tilelang"), (family, e)  # only these write XOR
            refused += 1
            continue
        m = affine.parse(text)
        got = np.stack([np.broadcast_to(np.asarray(r, dtype=np.int64), grid(k)[0].shape)
                        for r in m.evaluate(*grid(k))], axis=1)
        assert np.array_equal(got, table), (v, text)
    assert refused < len(items)


def test_no_loop_per_element_and_shifts_for_powers_of_two():
    blocked = codegen.emit(cute.parse("(4,8):(8,1)"), "c")
    assert "for" not in blocked and "<< 3" in blocked and "*" not in blocked.split("{", 1)[1]
    assert "/" not in codegen.emit(cute.parse("(4,(2,4)):(8,(1,2))"), "c").split("{", 1)[1]


def test_negative_values_use_floor_helpers_in_c_and_native_floor_in_python():
    m = affine.parse("(d0) -> ((d0 - 5) floordiv 4, (d0 - 5) mod 4, (d0 - 5) ceildiv 4)")
    c = codegen.emit(m, "c", shape=(10,))
    assert "ul_floordiv" in c and "ul_mod" in c and "ul_ceildiv" in c
    py = codegen.emit(m, "python", shape=(10,))
    assert "ul_" not in py and "//" in py


def test_errors():
    with pytest.raises(LayoutError, match="unknown language"):
        codegen.emit(cute.parse("4:1"), "fortran")
    with pytest.raises(LayoutError, match="not an identifier"):
        codegen.emit(cute.parse("4:1"), "c", name="1x")
    with pytest.raises(NotRepresentableError, match="XOR"):
        codegen.emit(cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), "mlir-affine")
    with pytest.raises(NotRepresentableError, match="cute-cpp"):
        codegen.emit(affine.parse("(d0) -> (d0)"), "cute-cpp", shape=(4,))
    with pytest.raises(NotRepresentableError, match="symbol"):
        codegen.emit(affine.parse("(d0)[s0] -> (d0 + s0)"), "c", shape=(4,))
    with pytest.raises(NotRepresentableError, match="not a bijection"):
        codegen.emit_inverse(cute.parse("(4,8):(2,8)"), "c")


def test_ir_folds_keep_the_value(cases):
    # every expression the lowering builds evaluates (numpy, floor semantics) to the table too
    family, items = cases
    for v, k, table in items[:200]:
        env = {n: c for (n, _), c in zip(k.inputs, grid(k))}
        got = np.stack([np.broadcast_to(_eval(e, env), grid(k)[0].shape) for e in k.exprs], axis=1)
        assert np.array_equal(got, table), (family, v)
        assert all(int(np.min(c)) >= e.lo and int(np.max(c)) <= e.hi for e, c in zip(k.exprs, got.T)), v


def _eval(n, env):
    if n.op == "const":
        return np.int64(n.a)
    if n.op == "var":
        return env[n.a]
    a = _eval(n.a, env)
    b = _eval(n.b, env)
    return {"+": np.add, "-": np.subtract, "*": np.multiply, "//": np.floor_divide, "%": np.mod,
            "ceil": lambda x, y: -np.floor_divide(-x, y), "^": np.bitwise_xor, "|": np.bitwise_or,
            "&": np.bitwise_and, ">>": np.right_shift, "<<": np.left_shift}[n.op](a, b)


def test_ir_reduce_strength_agrees():
    x = ir.var("x", 1000)
    e = ir.add(ir.mul(ir.floordiv(x, 16), 32), ir.mod(x, 8))
    r = ir.reduce_strength(e)
    xs = np.arange(1000)
    assert np.array_equal(_eval(e, {"x": xs}), _eval(r, {"x": xs})) and "//" not in str(r) and "%" not in str(r)


def _load(src, name):
    env = {}
    exec(compile(src, "<codegen>", "exec"), env)
    return env[name]


@pytest.mark.parametrize("lang", ["numpy", "c"])
def test_inverses_undo_the_layout(lang):
    import random

    from codegen_layouts import random_metal

    from unilayout import linear, tt

    rng = random.Random(5)
    metal = [random_metal(rng) for _ in range(200)]
    metal += [tt.MetalLayout.from_v2((3, 43, 7), (2, 1), dim_alignments=(1, 32, 32),
                                     collapsed_intervals=((0, 2), (2, 3)))]
    if lang == "numpy":
        for ml in metal:
            fwd = _load(codegen.emit(ml, "numpy", name="f"), "f")
            back = _load(codegen.emit_inverse(ml, "numpy", name="g"), "g")
            x = np.indices(ml.logical_shape).reshape(len(ml.logical_shape), -1)
            placed = fwd(*x)
            placed = placed if isinstance(placed, tuple) else (placed,)
            got = back(*placed)
            got = got if isinstance(got, tuple) else (got,)
            assert np.array_equal(np.stack([np.broadcast_to(g, x[0].shape) for g in got]), x), ml
            # and the forward code is the layout's own locate()
            j = x.shape[1] // 2
            G, q = ml.locate(*x[:, j])
            assert tuple(int(v[j]) for v in placed) == G + q
        blocked = unilayout_parse("tensor<32x32xf16, #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                                  "warpsPerCTA = [2, 2], order = [1, 0]}>>")
        inv = _load(codegen.emit_inverse(blocked, "numpy", name="g"), "g")
        regs = blocked.in_dim_size("register")
        r, lane, w = np.indices((regs, 32, 4)).reshape(3, -1)
        out = linear.evaluate(blocked, {"register": r, "lane": lane, "warp": w, "block": 0 * r})
        back = inv(out["dim0"], out["dim1"])  # register, lane, warp, block
        assert np.array_equal(np.stack([np.broadcast_to(b, r.shape) for b in back]), np.stack([r, lane, w, 0 * r]))
    else:
        cc = shutil.which("gcc")
        if cc is None:
            pytest.skip("no C compiler")
        for L in (cute.parse("(4,(2,8)):(16,(1,2))"), cute.parse("((2,4),8):((32,1),4)")):
            prog = codegen.emit_inverse(L, "c", name="inv") + "\n#include <stdio.h>\nint main(void){for(int i=0;i<" \
                + f"{cute.size(L)};++i)printf(\"%lld\\n\",(long long)inv(i));return 0;}}\n"
            with tempfile.TemporaryDirectory() as d:
                open(os.path.join(d, "t.c"), "w").write(prog)
                subprocess.run([cc, "-O0", os.path.join(d, "t.c"), "-o", os.path.join(d, "t")], check=True)
                out = subprocess.run([os.path.join(d, "t")], capture_output=True, text=True, check=True).stdout
            coords = np.array(out.split(), dtype=np.int64)
            assert np.array_equal(L.index_map()[coords], np.arange(cute.size(L)))  # L(inv(i)) == i


def unilayout_parse(text):
    import unilayout

    return unilayout.parse(text)


def test_mosaic_and_axe_values_get_the_code_of_their_linear_form():
    # the families that landed with codegen (issue 29): Mosaic register layouts and TIRx layouts through their exact
    # linear forms, run over the whole domain
    import unilayout
    from unilayout import linear, mosaic
    from unilayout.convert import convert_to

    values = [mosaic.WGMMA, mosaic.WGMMA_TRANSPOSED, mosaic.TCGEN05, mosaic.TMA_INDICES, mosaic.WGMMA_COL,
              unilayout.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]"),
              unilayout.parse("S[(2,4,8):(1@warpid,1@m,1@laneid)]")]
    for v in values:
        L = convert_to(v, "linear")
        k = codegen.kernel(v, "f")
        fn = _load(codegen.emit(v, "numpy", name="f"), "f")
        env = {n: g for (n, _), g in zip(k.inputs, grid(k))}
        got = fn(*[env[n] for n, _ in k.inputs])
        got = got if isinstance(got, tuple) else (got,)
        full = {n: np.zeros(1, dtype=np.int64) for n, _ in L.in_dims}
        full.update({n: env[n] for n in env if n in dict(L.in_dims)})
        want = linear.evaluate(L, full)
        for o, g in zip(k.outputs, got):
            assert np.array_equal(np.broadcast_to(g, env[k.inputs[0][0]].shape),
                                  np.broadcast_to(want[o], env[k.inputs[0][0]].shape)), (v, o)
