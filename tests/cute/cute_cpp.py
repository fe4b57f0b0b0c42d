"""CuTe C++ as an oracle: compile a small program against CUTLASS's headers and read what it prints.

Not a test module. ``outputs(cases)`` compiles one program printing every case
(``key=value`` lines) and returns ``{key: value}``, or None when no compiler or
headers are found (CUTLASS's headers ship in the ``nvidia-cutlass`` wheel under
``cutlass_library/source/include``; CCCL from a CUDA toolkit). Running this file
rewrites ``data/cute_cpp_mma.txt``, the stored C++ outputs the tests compare to
when the compiler is missing::

    .ci/venv/bin/python tests/cute/cute_cpp.py
"""

from __future__ import annotations

import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
DATA = HERE / "data" / "cute_cpp_mma.txt"

_UMMA_TYPES = {  # unilayout type tag -> (C++ template, a, b, c)
    "F16F16F16": ("F16BF16", "half_t", "half_t", "half_t"),
    "F32F16F16": ("F16BF16", "half_t", "half_t", "float"),
    "F32BF16BF16": ("F16BF16", "bfloat16_t", "bfloat16_t", "float"),
    "F32TF32TF32": ("TF32", "tfloat32_t", "tfloat32_t", "float"),
    "S32S8S8": ("S8", "int8_t", "int8_t", "int32_t"),
    "S32U8U8": ("S8", "uint8_t", "uint8_t", "int32_t"),
    "F32E4M3E4M3": ("F8F6F4", "float_e4m3_t", "float_e4m3_t", "float"),
    "F32E5M2E5M2": ("F8F6F4", "float_e5m2_t", "float_e5m2_t", "float"),
    "F16E4M3E4M3": ("F8F6F4", "float_e4m3_t", "float_e4m3_t", "half_t"),
}


#: Catalogue atoms CUTLASS's cute does not define (cuBLASDx's cute extension does): no C++ output to store.
NOT_IN_CUTLASS = frozenset({"SM75_16x8x8_F16F16F16F16_TN"})


def cpp_type(name: str) -> str:
    """The C++ type of the atom named ``name`` in unilayout's catalogue."""
    m = re.match(r"SM100_(\d+)x(\d+)x\d+_([A-Z0-9]+?)_(2x1SM_)?SS$", name)
    if m:
        mm, nn, types, pair = m.groups()
        op, a, b, c = _UMMA_TYPES[types]
        if op == "F8F6F4":  # its traits take the parameters as types
            k = "integral_constant<UMMA::Major,UMMA::Major::K>"
            one = "integral_constant<UMMA::ScaleIn,UMMA::ScaleIn::One>"
            return (f"MMA_Traits<SM100_MMA_F8F6F4_{pair or ''}SS,{a},{b},{c},C<{mm}>,C<{nn}>,{k},{k},{one},{one}>")
        return (f"SM100_MMA_{op}_{pair or ''}SS<{a},{b},{c},{mm},{nn},UMMA::Major::K,UMMA::Major::K>")
    if name.startswith("SM90_64x"):
        if re.search(r"_(SS|RS)$", name):
            return f"{name}<GMMA::Major::K,GMMA::Major::K>"
        return name if "_S32" in name else f"{name}<>"  # int8 GMMA atoms are plain structs
    return name


def _include_dirs():
    dirs = []
    spec = importlib.util.find_spec("cutlass_library")
    if spec and spec.submodule_search_locations:
        d = Path(next(iter(spec.submodule_search_locations))) / "source" / "include"
        if (d / "cute" / "layout.hpp").exists():
            dirs.append(d)
    for cuda in sorted(glob.glob("/usr/local/cuda*/include"), reverse=True):
        if os.path.exists(os.path.join(cuda, "cccl", "cuda", "std", "utility")):
            dirs += [Path(cuda) / "cccl", Path(cuda)]
            break
        if os.path.exists(os.path.join(cuda, "cuda", "std", "utility")):
            dirs.append(Path(cuda))
            break
    return dirs


def available() -> bool:
    dirs = _include_dirs()
    return bool(shutil.which("g++")) and any((d / "cute" / "layout.hpp").exists() for d in dirs) and len(dirs) >= 2


def _atom_lines(names):
    out = []
    for n in names:
        t = cpp_type(n)
        out.append(f'  {{ using A = MMA_Atom<{t}>; std::cout << "atom:{n}=" << typename A::ThrID{{}} << "|" '
                   f'<< typename A::LayoutA_TV{{}} << "|" << typename A::LayoutB_TV{{}} << "|" '
                   f'<< typename A::LayoutC_TV{{}} << "|" << typename A::Shape_MNK{{}} << "\\n"; }}')
    return out


def _tile(p):
    if p is None:
        return "_"
    if isinstance(p, int):
        return f"Int<{p}>{{}}"
    return p  # C++ text of a layout


def _tiled_lines(cases):
    """cases: (key, atom name, atom layout C++ text, (pm, pn, pk), [(thread, shape_c, shape_a, shape_b)])."""
    out = []
    for key, name, lay, perm, slices in cases:
        ptxt = f"Tile<{','.join('Underscore' if p is None else f'decltype({_tile(p)})' for p in perm)}>{{}}"
        body = [f'  {{ auto mma = make_tiled_mma({cpp_type(name)}{{}}, {lay}, {ptxt});',
                f'    std::cout << "tiled:{key}=" << mma.get_thr_layout_vmnk() << "|" << mma.get_layoutC_TV() << "|"'
                f' << mma.get_layoutA_TV() << "|" << mma.get_layoutB_TV() << "|" << tile_shape(mma) << "\\n";']
        for thr, sc, sa, sb in slices:
            for which, shp in (("C", sc), ("A", sa), ("B", sb)):
                dims = ",".join(f"Int<{d}>{{}}" for d in shp)
                body.append(f'    {{ auto t = make_tensor(make_gmem_ptr(buf), make_layout(make_shape({dims})));'
                            f' auto p = mma.get_slice({thr}).partition_{which}(t);'
                            f' std::cout << "part:{key}:{thr}:{which}=" << p.layout() << "|" << (p.data().get() - buf)'
                            f' << "\\n"; }}')
        body.append("  }")
        out += body
    return out


_VT = {8: "uint8_t", 16: "half_t", 32: "float", 64: "double", 128: "uint128_t"}


def _copy_op(name):
    """The C++ op of a copy atom name (TMA views are left out: their traits need a TMA descriptor)."""
    return name


def _copy_atom_lines(cases):
    """cases: (name, element bits)."""
    out = []
    for name, bits in cases:
        t = f"Copy_Atom<{_copy_op(name)},{_VT[bits]}>"
        out.append(f'  {{ using A = {t}; std::cout << "catom:{name}:{bits}=" << typename A::ThrID{{}} << "|" '
                   f'<< typename A::ValLayoutSrc{{}} << "|" << typename A::ValLayoutDst{{}} << "|" '
                   f'<< typename A::ValLayoutRef{{}} << "\\n"; }}')
    return out


def _tiled_copy_lines(cases):
    """cases: (key, atom name, bits, how, slices); how = ("tv", thr C++, val C++) or (A|B|C, mma atom, layout C++)."""
    out = []
    for key, name, bits, how, slices in cases:
        atom = f"Copy_Atom<{_copy_op(name)},{_VT[bits]}>{{}}"
        if how[0] == "tv":
            make = f"make_tiled_copy({atom}, {how[1]}, {how[2]})"
        else:
            make = (f"make_tiled_copy_{how[0]}({atom}, make_tiled_mma({cpp_type(how[1])}{{}}, {how[2]}))")
        body = [f"  {{ auto tc = {make};",
                f'    std::cout << "tcopy:{key}=" << tc.get_layoutS_TV() << "|" << tc.get_layoutD_TV() << "|"'
                f' << typename decltype(tc)::Tiler_MN{{}} << "\\n";']
        for thr, shape, stride in slices:
            dims = ",".join(f"Int<{d}>{{}}" for d in shape)
            strides = ",".join(f"Int<{d}>{{}}" for d in stride)
            for which in "SD":
                body.append(f'    {{ auto t = make_tensor(make_gmem_ptr(buf), make_layout(make_shape({dims}),'
                            f' make_stride({strides}))); auto p = tc.get_slice({thr}).partition_{which}(t);'
                            f' std::cout << "cpart:{key}:{thr}:{which}=" << p.layout() << "|"'
                            f' << (p.data().get() - buf) << "\\n"; }}')
        body.append("  }")
        out += body
    return out


def _vector_lines(cases):
    """cases: (key, layout a text, layout b text) in CuTe's printed form, static."""
    out = []
    for key, a, b in cases:
        out.append(f'  {{ auto a = {_static(a)}; auto b = {_static(b)}; std::cout << "vec:{key}=" '
                   f'<< max_common_vector(a, b) << "|" << max_common_layout(a, b) << "|" << nullspace(a) << "\\n"; }}')
    return out


def _static(text):
    """``(4,(2,2)):(1,(0,8))`` -> ``make_layout(make_shape(Int<4>{},...), make_stride(...))``."""
    shape, stride = text.split(":")

    def conv(t):
        t = t.strip()
        if t.startswith("("):
            parts, depth, cur = [], 0, ""
            for ch in t[1:-1]:
                if ch == "," and depth == 0:
                    parts.append(cur)
                    cur = ""
                    continue
                depth += ch == "("
                depth -= ch == ")"
                cur += ch
            parts.append(cur)
            return "make_tuple(" + ",".join(conv(p) for p in parts) + ")"
        return f"Int<{t}>{{}}"

    return f"make_layout({conv(shape)}, {conv(stride)})"


VECTOR = [
    ("same", "(2,8):(8,1)", "(2,8):(8,1)"), ("colmajor", "(8,4):(1,8)", "32:1"),
    ("transpose", "(4,8):(8,1)", "(4,8):(1,4)"), ("partial", "(4,4):(1,8)", "(4,4):(1,4)"),
    ("strided", "8:2", "8:1"), ("nested", "((2,4),(2,2)):((1,2),(16,8))", "((2,4),(2,2)):((1,2),(8,16))"),
    ("broadcast", "(2,4,3):(1,0,0)", "24:1"), ("bcast_nested", "((2,2),4):((0,1),0)", "16:1"),
    ("no_zero", "(2,3):(1,2)", "6:1"), ("unit_zero", "(1,4,2):(0,1,0)", "8:1"),
]


SMEM = [(k, b) for k in ("K_INTER", "K_SW32", "K_SW64", "K_SW128", "MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128")
        for b in (8, 16, 32)]


def _smem_lines(cases):
    """Each GMMA smem atom: C++'s printed atom and its position-independent (element-offset) form."""
    out = []
    for kind, bits in cases:
        t = _VT[bits]
        out.append(f'  {{ auto L = SM90::GMMA::Layout_{kind}_Atom<{t}>{{}}; '
                   f'auto T = make_tensor(make_smem_ptr(({t}*)nullptr), L); '
                   f'auto P = as_position_independent_swizzle_tensor(T).layout(); std::cout << "\\n"; '
                   f'std::cout << "smem:{kind}:{bits}=" << L << "|" << P << "\\n"; }}')
    return out


#: C++ ``print(x)`` verbatim (static ``_N`` markers, spaces, pointers, several lines): (key, C++ expression).
PRINTS = ([(f"smem:{k}:{b}", f"SM90::GMMA::Layout_{k}_Atom<{_VT[b]}>{{}}") for k, b in SMEM]
          + [(f"smem_tensor:{k}:{b}", f"make_tensor(make_smem_ptr(({_VT[b]}*)nullptr), "
              f"tile_to_shape(SM90::GMMA::Layout_{k}_Atom<{_VT[b]}>{{}}, Shape<_256,_256>{{}}))") for k, b in SMEM]
          + [("gmem_tensor", "make_tensor(make_gmem_ptr(buf), Layout<Shape<_4,_8>,Stride<_8,_1>>{})"),
             ("ptr_tensor", "make_tensor((float*)buf, Layout<Shape<_4,_8>,Stride<_8,_1>>{})"),
             ("rmem_tensor", "make_tensor<half_t>(Layout<Shape<_2,_4>>{})"),
             ("sw_layout", "composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})"),
             ("layout_o_layout", "composition(Layout<Shape<_4,_8>,Stride<_8,_1>>{}, _2{}, Layout<Shape<_4,_8>>{})"),
             ("identity_tensor", "make_identity_tensor(Shape<_4,_5>{})"),
             ("basis_layout", "make_layout(Shape<_8>{}, Stride<ScaledBasis<_2,0>>{})"),
             ("tiled_mma:tile", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}, "
              "Tile<_32,_32,_16>{})"),
             ("tiled_mma:rowmajor", "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, "
              "Layout<Shape<_2,_2,_1>,Stride<_2,_1,_0>>{})"),
             ("tiled_mma:sm70", "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2,_1>>{}, "
              "Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_4>{})"),
             ("tiled_mma:gmma", "make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})"),
             ("tiled_copy", "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, "
              "Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})")])


def _print_lines(cases):
    """``print(expr)`` between markers, read back verbatim by ``outputs`` (key ``raw:<key>``)."""
    return [f'  {{ std::cout.flush(); printf("\\n@@raw:{key}="); print({expr}); printf("\\n@@end\\n"); fflush(stdout); }}'
            for key, expr in cases]


def program(atom_names, tiled_cases, copy_atoms=(), tiled_copies=(), vectors=(), smem=(), prints=()) -> str:
    lines = ["#include <cute/tensor.hpp>", "#include <cute/atom/mma_atom.hpp>",
             "#include <cute/arch/mma_sm90_gmma_ext.hpp>", "#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>",
             "#include <cute/atom/copy_atom.hpp>", "#include <iostream>",
             "using namespace cute;", "static float buf[1 << 20];", "int main() {"]
    lines += _atom_lines(atom_names) + _tiled_lines(tiled_cases)
    lines += _copy_atom_lines(copy_atoms) + _tiled_copy_lines(tiled_copies) + _vector_lines(vectors)
    lines += _smem_lines(smem) + _print_lines(prints)
    lines += ["}"]
    return "\n".join(lines) + "\n"


def outputs(atom_names, tiled_cases, copy_atoms=(), tiled_copies=(), vectors=(), smem=(), prints=(), timeout=900):
    """Compile and run; ``{key: value}`` (spaces and C++'s static ``_`` markers removed; the ``prints`` kept
    verbatim as ``raw:<key>``, newlines written ``\\n``), or None."""
    if not available():
        return None
    src = program(atom_names, tiled_cases, copy_atoms, tiled_copies, vectors, smem, prints)
    with tempfile.TemporaryDirectory() as tmp:
        cpp, exe = Path(tmp) / "o.cpp", Path(tmp) / "o"
        cpp.write_text(src)
        cmd = ["g++", "-std=c++17", "-O0", "-w", str(cpp), "-o", str(exe)]
        for d in _include_dirs():
            cmd += ["-I", str(d)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0:
            raise RuntimeError("CuTe oracle did not compile:\n" + r.stderr[-4000:])
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout)
    out, stdout = {}, run.stdout
    for m in re.finditer(r"\n@@(raw:[^=\n]*)=(.*?)\n@@end\n", stdout, re.S):
        out[m.group(1)] = m.group(2).replace("\n", "\\n")  # C++'s prints hold no backslash
    stdout = re.sub(r"\n@@raw:.*?\n@@end\n", "\n", stdout, flags=re.S)
    for line in stdout.splitlines():
        k, _, v = line.partition("=")
        out[k] = v.replace(" ", "").replace("_", "")
    return out


def raw(key: str) -> str:
    """C++'s verbatim ``print`` of ``PRINTS``' case ``key`` (stored with newlines escaped)."""
    return load()[f"raw:{key}"].replace("\\n", "\n")


def load():
    """The stored outputs: ``{key: value}``."""
    out = {}
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            k, _, v = line.partition("=")
            out[k] = v
    return out


# The tiled MMAs and slices the tests check (key, atom, C++ atom layout, permutation, slices).
TILED = [
    ("sm80_16816_221", "SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}", (None, None, None),
     [(0, (64, 32), (64, 32), (32, 32)), (37, (64, 32), (64, 32), (32, 32)), (127, (32, 16), (32, 16), (16, 16))]),
    ("sm80_16816_221_perm", "SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}", (32, 32, 16),
     [(5, (64, 64), (64, 32), (64, 32))]),
    ("sm80_1688_241_row", "SM80_16x8x8_F16F16F16F16_TN", "Layout<Shape<_2,_4,_1>,Stride<_4,_1,_0>>{}",
     (None, 64, None), [(77, (64, 128), (64, 16), (128, 16))]),
    ("sm80_1688_perm_layout", "SM80_16x8x8_F16F16F16F16_TN", "Layout<Shape<_2,_2,_1>>{}",
     ("Layout<Shape<_2,_16>,Stride<_16,_1>>{}", None, None), [(9, (32, 16), (32, 8), (16, 8))]),
    ("sm80_tf32_1684_122", "SM80_16x8x4_F32TF32TF32F32_TN", "Layout<Shape<_1,_2,_2>>{}", (None, None, None),
     [(40, (16, 16), (16, 8), (16, 8))]),
    ("sm80_f64_884_22", "SM80_8x8x4_F64F64F64F64_TN", "Layout<Shape<_2,_2>>{}", (None, None, None),
     [(100, (16, 16), (16, 4), (16, 4))]),
    ("sm70_884_221", "SM70_8x8x4_F32F16F16F32_NT", "Layout<Shape<_2,_2,_1>>{}", (None, None, None),
     [(0, (16, 16), (16, 4), (16, 4)), (21, (32, 32), (32, 8), (32, 8))]),
    ("sm75_1688_211", "SM75_16x8x8_F32F16F16F32_TN", "Layout<Shape<_2,_1,_1>>{}", (None, None, None),
     [(33, (32, 8), (32, 8), (8, 8))]),
    ("sm89_fp8", "SM89_16x8x32_F32E4M3E4M3F32_TN", "Layout<Shape<_2,_2,_1>>{}", (None, None, None),
     [(66, (32, 16), (32, 32), (16, 32))]),
    ("sm90_gmma_64x128x16", "SM90_64x128x16_F32F16F16_SS", "Layout<Shape<_1,_1,_1>>{}", (None, None, None),
     [(77, (64, 128), (64, 16), (128, 16))]),
    ("sm90_gmma_64x64x16_rs_21", "SM90_64x64x16_F16F16F16_RS", "Layout<Shape<_2,_1,_1>>{}", (None, None, None),
     [(200, (128, 64), (128, 16), (64, 16))]),
    ("sm90_gmma_64x96x32_fp8", "SM90_64x96x32_F32E4M3E5M2_SS_TN", "Layout<Shape<_1,_1,_1>>{}", (None, None, None),
     [(3, (64, 96), (64, 32), (96, 32))]),
    ("sm100_umma_128x256", "SM100_128x256x16_F32F16F16_SS", "Layout<Shape<_1,_1,_1>>{}", (None, None, None),
     [(0, (128, 256), (128, 16), (256, 16))]),
    ("sm100_umma_2sm_256x128", "SM100_256x128x16_F32BF16BF16_2x1SM_SS", "Layout<Shape<_1,_1,_1>>{}",
     (None, None, None), [(1, (256, 128), (256, 16), (128, 16))]),
    ("sm70_884_212_perm", "SM70_8x8x4_F16F16F16F16_TN", "Layout<Shape<_2,_1,_2>>{}", (16, 16, None),
     [(3, (16, 16), (16, 8), (16, 8)), (20, (32, 16), (32, 8), (16, 8))]),
    ("sm80_1688_212_perm", "SM80_16x8x8_F16F16F16F16_TN", "Layout<Shape<_2,_1,_2>>{}", (32, 16, None),
     [(100, (32, 16), (32, 16), (16, 16))]),
]

# A sweep of atoms x atom layouts x permutations, compared as TV layouts (no partitions).
_SWEEP_ATOMS = ["SM70_8x8x4_F32F16F16F32_NT", "SM75_8x8x16_S32S8S8S32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
                "SM80_16x8x32_S32S8S8S32_TN", "SM80_8x8x4_F64F64F64F64_TN", "SM89_16x8x32_F16E5M2E4M3F16_TN",
                "SM90_16x8x16_F64F64F64F64_TN", "SM90_64x48x16_F32BF16BF16_RS", "SM90_64x24x32_S32U8S8_SS_TN"]
_SWEEP_LAYOUTS = ["Layout<Shape<_1,_1,_1>>{}", "Layout<Shape<_2,_2,_1>>{}", "Layout<Shape<_4,_1,_1>>{}",
                  "Layout<Shape<_1,_2,_2>>{}", "Layout<Shape<_2,_4,_1>,Stride<_4,_1,_0>>{}"]
_SWEEP_PERMS = [(None, None, None), (None, 32, None), (64, None, 32)]
TILED += [(f"sweep_{i}_{j}_{k}", a, lay, perm, [])
          for i, a in enumerate(_SWEEP_ATOMS) for j, lay in enumerate(_SWEEP_LAYOUTS)
          for k, perm in enumerate(_SWEEP_PERMS)
          if not (a.startswith("SM90_64x") and (j == 4 or k != 0))]


TILED_COPY = [
    ("u128_4x8_8x1", "UniversalCopy<uint128_t>", 16, ("tv", "Layout<Shape<_4,_8>,Stride<_8,_1>>{}",
                                                      "Layout<Shape<_8,_1>>{}"),
     [(9, (32, 16), (16, 1)), (31, (64, 8), (1, 64))]),
    ("u64_8x4_1x4", "UniversalCopy<uint64_t>", 16, ("tv", "Layout<Shape<_8,_4>,Stride<_4,_1>>{}",
                                                    "Layout<Shape<_1,_4>>{}"),
     [(5, (8, 32), (32, 1))]),
    ("cpasync_16x8", "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16,
     ("tv", "Layout<Shape<_16,_8>,Stride<_8,_1>>{}", "Layout<Shape<_1,_8>>{}"), [(77, (64, 64), (64, 1))]),
    ("ldsm_x4_tv", "SM75_U32x4_LDSM_N", 16, ("tv", "Layout<Shape<_32,_1>>{}", "Layout<Shape<_1,_8>>{}"),
     [(7, (32, 8), (8, 1))]),
    ("ldsm_x4_A", "SM75_U32x4_LDSM_N", 16, ("A", "SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}"),
     [(37, (32, 16), (16, 1)), (100, (64, 32), (32, 1))]),
    ("ldsm_x2_B", "SM75_U32x2_LDSM_N", 16, ("B", "SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}"),
     [(37, (16, 16), (16, 1))]),
    ("ldsm_t_x2_B", "SM75_U16x4_LDSM_T", 16, ("B", "SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}"),
     [(70, (16, 16), (1, 16))]),
    ("stsm_x2_C", "SM90_U32x2_STSM_N", 16, ("C", "SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}"),
     [(3, (32, 16), (16, 1))]),
    ("univ_C", "UniversalCopy<uint32_t>", 32, ("C", "SM80_16x8x8_F32TF32TF32F32_TN", "Layout<Shape<_2,_2,_1>>{}"),
     [(50, (32, 32), (1, 32))]),
]


def _accepts(name, bits):
    """The (atom, width) pairs unilayout accepts; the others it refuses, as C++'s static_asserts do."""
    from unilayout.cute import copy_atom
    from unilayout.errors import LayoutError

    try:
        copy_atom(name, bits)
    except LayoutError:
        return False
    return True


def main():
    sys.path.insert(0, str(HERE.parents[1] / "src"))
    from unilayout.cute import copy_atoms, mma_atoms

    names = [n for n in mma_atoms() if n not in NOT_IN_CUTLASS]
    catoms = [(n, b) for n in copy_atoms() if not n.startswith("SM90_TMA") for b in (8, 16, 32, 64)
              if b <= 32 or n.startswith(("UniversalCopy<uint64", "UniversalCopy<uint128", "SM80_CP_ASYNC_CACHE"))]
    catoms = [(n, b) for n, b in catoms if _accepts(n, b)]
    out = outputs(names, TILED, catoms, TILED_COPY, VECTOR, SMEM, PRINTS)
    if out is None:
        raise SystemExit("no C++ compiler or CuTe/CCCL headers found")
    with open(DATA, "w") as f:
        f.write("# CuTe C++ (CUTLASS 4.2 headers, nvidia-cutlass==4.2.0.0) printed outputs; "
                "regenerate with: .ci/venv/bin/python tests/cute/cute_cpp.py\n")
        for k in sorted(out):
            f.write(f"{k}={out[k]}\n")
    print(f"wrote {len(out)} lines to {DATA}")


if __name__ == "__main__":
    main()
