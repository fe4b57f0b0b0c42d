"""Record TIRx's own fragment images of the instructions it describes (run with the interpreter that has TIRx).

TIRx (``apache-tvm-tirx``) states an instruction's register fragment in its
CUDA tile patterns (``tvm_tirx.backend.cuda.tile.patterns``): ``mma`` says
which atom coordinate each lane passes as each PTX register (``a_coord``,
``b_coord``, ``d_coord``), ``ldmatrix`` which ``(matrix, row, word)`` each
lane's registers hold, ``tmem`` the ``register_coordinate`` of each
``tcgen05.ld/st`` shape. This script runs those patterns themselves — the
``lower`` of ``mma`` and ``ldmatrix`` against a recording stand-in for their
operand regions (the registers reach PTX in the order they are recorded), the
``register_coordinate`` of ``tmem`` as its ``lower`` calls it — and turns each
image into the ``TileLayout`` over the pattern's atom (``laneid`` = the lane,
``m`` = the PTX register) that a TIRx buffer holding that fragment carries.
TIRx's own ``apply`` is then checked to give back the image on every point of
the atom, and recorded:

- ``src/unilayout/rosetta/tirx_spellings.py``: each layout's text as TIRx
  prints it, its atom shape and unit (what the rosetta reads, TIRx not needed);
- ``tests/rosetta/data/tirx_facts.json``: TIRx's ``apply`` on every point of
  every layout and the pattern's image, which tests/rosetta compare element by
  element with unilayout's reading of the text.

    /tmp/axv/bin/python bench/rosetta_tirx.py
"""

from __future__ import annotations

import base64
import json
import pathlib
import sys
import zlib

import numpy as np
import tvm_tirx
import tvm_tirx.backend.cuda.axis as cuda_axis
from tvm_tirx.backend.cuda.ptx import instruction_forms
from tvm_tirx.backend.cuda.tile.patterns import ldmatrix, mma, tmem
from tvm_tirx.tirx.layout import Iter, TileLayout

ROOT = pathlib.Path(__file__).resolve().parents[1]
SPELLINGS = ROOT / "src" / "unilayout" / "rosetta" / "tirx_spellings.py"
FACTS = ROOT / "tests" / "rosetta" / "data" / "tirx_facts.json"
LANES = np.arange(32)


class _Stop(Exception):
    pass


class _Region:
    """Records what a pattern asks of one operand: owners (coordinate, lane) and values (coordinate), in order."""

    def __init__(self, name, shape):
        self.name, self.shape, self.owners, self.values = name, tuple(shape), [], []

    def require_bits(self, bits):
        pass

    def nonoverlapping(self):
        pass

    def contiguous(self, coords, align):
        list(coords)

    def owner(self, atom, *, lane=None):
        self.owners.append((tuple(np.broadcast_to(np.asarray(c), LANES.shape) for c in atom),
                            np.broadcast_to(np.asarray(lane), LANES.shape)))

    def value(self, atom):
        self.values.append(tuple(np.broadcast_to(np.asarray(c), LANES.shape) for c in atom))
        return 0

    def pointer(self, atom):
        return 0


class _Context:
    regions: dict = {}

    def __init__(self, sctx, scope):
        self.group_shape, self.repeat = [], [0]
        _Context.regions = {}

    def loops(self, shape):
        return [0] * len(shape)

    def add_range(self, var, rng):
        pass

    def region(self, name, arg, shape, scopes, **kw):
        r = _Region(name, shape)
        _Context.regions[name] = r
        return r

    def finish(self, stmts):
        raise _Stop


class _Arg:
    def __init__(self, *extents):
        self.region = [type("R", (), {"extent": e})() for e in extents]


class _Cuda:
    @staticmethod
    def lane_id():
        return LANES


class _T:
    cuda = _Cuda

    @staticmethod
    def if_then_else(c, a, b):
        return a


class _PTX:
    def __getitem__(self, opcode):
        return lambda *a: None


def _run(module, opcode, args):
    """Run ``module.lower`` on ``opcode`` with recording regions; return {region name: _Region}."""
    entry, modifiers = instruction_forms(opcode)[0]
    modifiers = dict(modifiers)
    saved = {k: getattr(module, k) for k in ("Context", "T", "PTXNamespace", "Var", "Range") if hasattr(module, k)}
    module.Context, module.T, module.PTXNamespace = _Context, _T, _PTX
    if "Var" in saved:
        module.Var, module.Range = (lambda *a: LANES), (lambda *a: None)
    try:
        module.lower(opcode, entry, modifiers, args, {}, None)
    except _Stop:
        pass
    finally:
        for k, v in saved.items():
            setattr(module, k, v)
    return _Context.regions


def _image(region):
    """(lanes, registers, rank) coordinates: register r is the r-th value the pattern passes to PTX."""
    img = np.stack([np.stack(c, axis=-1) for c in region.values], axis=1)
    owner = {}
    for coords, lane in region.owners:  # the lane each coordinate must live on, as the pattern checks it
        for c, ln in zip(zip(*(x.tolist() for x in coords)), lane.tolist()):
            owner[c] = ln
    if owner:  # ... is the lane that passes it to PTX
        lanes = [[owner[tuple(c)] for c in row.tolist()] for row in img]
        assert np.array_equal(np.array(lanes), np.broadcast_to(LANES[:, None], img.shape[:2])), region.name
    return img


def _layout(img, shape):
    """The TileLayout over the atom ``shape`` (row-major, as TIRx splits an index) -> {laneid, m} of ``img``."""
    size = int(np.prod(shape))
    lanes, regs = img.shape[:2]
    flat = np.ravel_multi_index(tuple(np.moveaxis(img, -1, 0)), shape)
    assert np.array_equal(np.sort(flat.ravel()), np.arange(size)), "the image covers the atom once"
    lane_of, reg_of = np.empty(size, np.int64), np.empty(size, np.int64)
    lane_of[flat], reg_of[flat] = np.arange(lanes)[:, None], np.arange(regs)[None, :]
    bits = size.bit_length() - 1
    assert 1 << bits == size
    iters = []
    for b in reversed(range(bits)):  # outermost (highest) bit first
        ln, rg = int(lane_of[1 << b]), int(reg_of[1 << b])
        axis, stride = ("laneid", ln) if ln else ("m", rg)
        assert (ln == 0) != (rg == 0) and stride & (stride - 1) == 0, "one bit of one axis"
        if iters and iters[-1][2] == axis and iters[-1][1] == 2 * stride:
            iters[-1] = [iters[-1][0] * 2, stride, axis]
        else:
            iters.append([2, stride, axis])
    layout = TileLayout.from_iters([Iter(e, s, a) for e, s, a in iters], [], {})
    got = [layout.apply(i) for i in range(size)]
    theirs = np.array([[int(g.get("laneid", 0)), int(g.get("m", 0))] for g in got])
    assert np.array_equal(theirs, np.stack([lane_of, reg_of], axis=-1)), "TIRx's apply gives back the image"
    return layout, theirs


def _pack(a):
    a = np.ascontiguousarray(a, dtype="<i2")
    return {"shape": list(a.shape), "zlib_b64": base64.b64encode(zlib.compress(a.tobytes(), 9)).decode()}


MMA = {  # rosetta name -> TIRx opcode
    "mma.sync.m16n8k16.f32.f16": "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
    "mma.sync.m16n8k8.f32.f16": "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32",
    "mma.sync.m16n8k16.f32.bf16": "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
    "mma.sync.m16n8k8.f32.bf16": "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32",
}


def mma_images():
    out = {}
    for name, opcode in MMA.items():
        k = 16 if "k16" in name else 8
        regions = _run(mma, opcode, [_Arg(1, 1, 16, 8), _Arg(1, 1, 16, k // 2), _Arg(1, 1, 8, k // 2), 0.0])
        out[name] = {"A": (regions["A"], "b32 words, two 16-bit K elements each (low half first)"),
                     "B": (regions["B"], "b32 words, two 16-bit K elements each (low half first); the atom is (n, k)"),
                     "C": (regions["D"], "f32 elements")}
    return out


def matrix_images():
    out = {}
    for kind in ("ldmatrix", "stmatrix"):
        for count in (1, 2, 4):
            opcode = f"{kind}.sync.aligned.m8n8.x{count}.shared.b16"
            args = [_Arg(count, 8, 4), _Arg(count, 8, 4)]
            regions = _run(ldmatrix, opcode, args)
            op, reg = ("D", regions["dst"]) if kind == "ldmatrix" else ("S", regions["src"])
            out[f"{kind}.x{count}"] = {op: (reg, "b32 registers over (matrix, row, word) of the shared b16 matrices")}
    return out


def tmem_images():
    out = {}
    nums = {"32x32b": 128, "16x64b": 128, "16x128b": 64, "16x256b": 32, "16x32bx2": 128}
    for shape, top in nums.items():
        rows, cols, regs = tmem.SHAPES[shape]
        count = 1
        while count <= top:
            region = _Region("regs", ((2,) if shape == "16x32bx2" else ()) + (rows, cols * count))
            for r in range(regs * count):  # as tmem.lower passes them: register_coordinate(shape, lane_id, r)
                region.value(tmem.register_coordinate(shape, LANES, r))
            unit = "b32 registers over the TMEM (row, column)" + (" of each half" if shape == "16x32bx2" else "")
            for kind, op, pack in (("ld", "D", "pack"), ("st", "S", "unpack")):
                for suffix in ("", ".pack16b"):  # .pack::16b / .unpack::16b: a halfword axis on the TMEM side only
                    opcode = f"tcgen05.{kind}.sync.aligned.{shape}.x{count}" + (f".{pack}::16b" if suffix else "")
                    assert instruction_forms(opcode + ".b32"), opcode  # TIRx knows the instruction
                    out[f"tcgen05.{kind}.{shape}.x{count}{suffix}"] = {op: (region, unit + (
                        "; each packs two 16-bit TMEM elements" if suffix else ""))}
            count *= 2
    return out


def main():
    cuda_axis.register()
    spell, facts, tables = {}, {}, {}
    images = {**mma_images(), **matrix_images(), **tmem_images()}
    for name, ops in images.items():
        for op, (region, unit) in ops.items():
            img = _image(region)
            layout, applied = _layout(img, region.shape)
            spell.setdefault(name, {})[op] = (region.shape, unit, str(layout))
            facts.setdefault(name, {})[op] = {"text": str(layout), "atom": list(region.shape)}
            # keyed by atom and text: ld and st share theirs (one text can serve atoms of other shapes)
            tables[f"{list(region.shape)} {layout}"] = {"image": _pack(img), "apply": _pack(applied)}
    lines = ['"""TIRx\'s fragments of the instructions it describes, as TIRx prints their TileLayouts (generated by',
             f"bench/rosetta_tirx.py from apache-tvm-tirx {tvm_tirx.__version__}'s CUDA tile patterns).",
             "",
             "``SPELLINGS[instruction][operand] = (atom shape, unit, text)``: the layout over the pattern's atom",
             "(row-major) -> ``laneid`` and ``m`` (the PTX register).", '"""', "", "SPELLINGS = {"]
    for name, ops in spell.items():
        lines.append(f"    {name!r}: {{")
        for op, (shape, unit, text) in ops.items():
            lines.append(f"        {op!r}: ({shape!r}, {unit!r},")
            lines.append(f"              {text!r}),")
        lines.append("    },")
    lines.append("}")
    SPELLINGS.write_text("\n".join(lines) + "\n")
    FACTS.parent.mkdir(parents=True, exist_ok=True)
    FACTS.write_text(json.dumps({"tirx_version": tvm_tirx.__version__, "fragments": facts, "tables": tables}, separators=(",", ":"))
                     + "\n")
    print(f"{sum(len(v) for v in spell.values())} TIRx fragments of {len(spell)} instructions -> {SPELLINGS.name}, "
          f"{FACTS.name} ({FACTS.stat().st_size:,} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
