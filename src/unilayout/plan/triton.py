"""What a Triton layout conversion costs: levels crossed, shuffle rounds, shared-memory staging.

``convert_layout`` between two distributed encodings of one tensor moves
each element from the (register, lane, warp, block) that holds it in
``src`` to the one that holds it in ``dst``. ``cvt = dst.invert_and_compose(src)``
says where each destination slot's element comes from; the existing
analyses of ``unilayout.linear.analysis`` price it:

- ``levels`` / ``level``: the hardware levels the conversion still moves
  data across (``conversion_levels`` / ``conversion_level``): ``none``,
  ``register`` (a register permutation), ``lane`` (within a warp), ``warp``
  or ``block`` (through shared memory or the cluster);
- ``shuffle_rounds`` (``lane`` level only, else None): warp shuffles per
  thread of the simple schedule — one destination register at a time; in
  that round each lane offers one register, so a round is needed per
  distinct register other lanes ask one lane for (unilayout's count, a
  bound on what Triton emits, not Triton's own number);
- a shared-memory *staging* layout (``optimal_shared_layout``, any level
  above ``register``): its bytes, the bank conflicts of storing ``src`` and
  loading ``dst`` (``bank_conflicts``) and the vector widths of both
  accesses (``largest_vectorisation``).

>>> from unilayout.linear import encodings as E
>>> src = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])   # a lane per column
>>> dst = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])   # a lane per row
>>> c = triton_conversion(src, dst, bitwidth=16)   # a transpose: 31 rounds per register by shuffles
>>> c.level, c.shuffle_rounds, c.shared_bytes, c.store_conflicts, c.load_conflicts
('lane', 992, 2048, 0, 0)
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from .. import linear
from .._ints import as_pow2
from ..errors import LayoutError

__all__ = ["TritonCost", "TritonLowering", "triton_conversion", "triton_lowering", "shuffle_rounds", "element_bits",
           "shared_access_ptx", "access_vector"]

_TENSOR_ELEM = re.compile(r"(?:tensor|!ttg\.memdesc)\s*<\s*(?:\d+\s*x\s*)+(!tt\.ptr|[A-Za-z][\w]*)")
_WIDTH = re.compile(r"(?:[fiu]|bf|si|ui)(\d+)")


def element_bits(text: str):
    """Bits of one element of the Triton tensor type in ``text`` (the last ``tensor<..>`` or memdesc), or None.

    What Triton's conversion lowering counts in shared memory: the element
    type's width, at least 8 (``i1`` is stored as a byte), 64 for ``!tt.ptr``;
    ``f8E4M3FN`` and kin are 8. None when the text carries no tensor type
    (a bare encoding, a CuTe layout) or an element type without a width.

    >>> element_bits("tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
    ...              "warpsPerCTA = [4, 1], order = [1, 0]}>>")
    16
    >>> element_bits("tensor<32xi1, #blocked>"), element_bits("tensor<8x8x!tt.ptr<f32>, #b>"), element_bits("(8,8):(8,1)")
    (8, 64, None)
    """
    found = _TENSOR_ELEM.findall(text)
    if not found:
        return None
    elem = found[-1]
    if elem == "!tt.ptr":
        return 64
    m = _WIDTH.match(elem)
    return max(8, int(m.group(1))) if m else None


class TritonCost(NamedTuple):
    """The price of a Triton ``convert_layout`` (fields in the module docstring).

    ``staging`` is the shared ``LinearLayout`` (None when nothing leaves the registers).

    ``shared_bytes`` is the whole tile staged by unilayout's layout; ``scratch_bytes`` and ``path``
    are Triton 3.9's own figures (:func:`triton_lowering`): the scratch its allocator reserves (one
    round of its swizzled buffer) and how it lowers the conversion.

    >>> TritonCost("none", (), 0, 0, 0, 0, 0, 0, None).level
    'none'
    """

    level: str
    levels: tuple
    shuffle_rounds: object
    shared_bytes: int
    store_conflicts: int
    load_conflicts: int
    store_vector: int
    load_vector: int
    staging: object
    scratch_bytes: int = 0
    path: str = "none"


def shuffle_rounds(src, dst) -> int:
    """Warp-shuffle rounds per thread of the one-register-at-a-time schedule (module docstring).

    For every destination register ``r`` that some lane must fetch from
    another lane, the rounds are the largest number of distinct source
    registers one source lane is asked for by other lanes; the total is
    summed over ``r``.
    Warp 0 of block 0 is counted (by linearity every warp is the same).

    **Pre-condition**: the conversion crosses no warp or block
    (``conversion_level`` is ``none``, ``register`` or ``lane``).

    >>> from unilayout.linear import LinearLayout
    >>> src = LinearLayout({"register": [[1]], "lane": [[2], [4]]}, ["dim0"])
    >>> dst = LinearLayout({"register": [[4]], "lane": [[1], [2]]}, ["dim0"])
    >>> shuffle_rounds(src, dst)     # per register, one source lane is asked for both of its registers
    4
    """
    cvt = dst.invert_and_compose(src)
    for d in ("warp", "block"):
        if cvt.has_in_dim(d) and cvt.has_out_dim(d):
            vals = linear.evaluate(cvt, {**{n: 0 for n in cvt.in_dim_names}, d: np.arange(cvt.in_dim_size(d))})[d]
            if (vals != np.arange(cvt.in_dim_size(d))).any():
                raise LayoutError(f"shuffle_rounds: the conversion moves data across {d}s: warp shuffles cannot do it")
    regs = cvt.in_dim_size("register") if cvt.has_in_dim("register") else 1
    lanes = cvt.in_dim_size("lane") if cvt.has_in_dim("lane") else 1
    r = np.arange(regs)[:, None]
    l = np.arange(lanes)[None, :]
    ins = {n: 0 for n in cvt.in_dim_names}
    if cvt.has_in_dim("register"):
        ins["register"] = r
    if cvt.has_in_dim("lane"):
        ins["lane"] = l
    out = linear.evaluate(cvt, ins)
    src_lane = np.broadcast_to(out["lane"] if "lane" in out else np.zeros(1, dtype=np.int64), (regs, lanes))
    src_reg = np.broadcast_to(out["register"] if "register" in out else np.zeros(1, dtype=np.int64), (regs, lanes))
    width = int(src_reg.max()) + 1
    own = np.arange(lanes)
    total = 0
    for k in range(regs):
        away = src_lane[k] != own
        if not away.any():
            continue
        pairs = np.unique(src_lane[k][away] * width + src_reg[k][away])
        total += int(np.bincount(pairs // width, minlength=lanes).max())
    return total


def triton_conversion(src, dst, bitwidth=32) -> TritonCost:
    """Price ``convert_layout(src -> dst)`` for elements of ``bitwidth`` bits (see the module docstring).

    **Pre-conditions**: ``src`` and ``dst`` are distributed linear layouts
    (in-dims register, lane, warp, block) over the same out-dims ``dim0..``.

    >>> from unilayout.linear import encodings as E
    >>> a = E.blocked([64, 64], [1, 4], [8, 4], [4, 1], [1, 0])
    >>> b = E.blocked([64, 64], [4, 1], [4, 8], [1, 4], [0, 1])
    >>> c = triton_conversion(a, b, bitwidth=16)
    >>> c.level, c.shuffle_rounds, c.shared_bytes, c.store_vector, c.load_vector, c.store_conflicts + c.load_conflicts
    ('warp', None, 8192, 4, 4, 0)
    >>> c.path, c.scratch_bytes    # Triton stages the same tile in one round
    ('shared', 8192)
    """
    A = linear.analysis
    for name, L in (("src", src), ("dst", dst)):
        if not isinstance(L, linear.LinearLayout):
            raise LayoutError(f"triton_conversion: {name} must be a LinearLayout, got {type(L).__name__}")
    bitwidth = as_pow2(bitwidth, "bitwidth")
    if src.out_dims != dst.out_dims:
        raise LayoutError(
            f"triton_conversion: src and dst must cover the same tensor, got {src.out_dims} and {dst.out_dims}"
        )
    levels = A.conversion_levels(src, dst)
    level = A.conversion_level(src, dst)
    tri = triton_lowering(src, dst, bitwidth)
    if level in ("none", "register"):
        return TritonCost(level, levels, 0, 0, 0, 0, 0, 0, None, tri.scratch_bytes, tri.path)
    rounds = shuffle_rounds(src, dst) if level == "lane" else None
    shared = A.optimal_shared_layout(src, dst, bitwidth)
    store = A.bank_conflicts(src, shared, bitwidth)
    load = A.bank_conflicts(dst, shared, bitwidth)
    vs = A.largest_vectorisation(src.invert_and_compose(shared), bitwidth).width
    vd = A.largest_vectorisation(dst.invert_and_compose(shared), bitwidth).width
    nbytes = shared.in_dim_size("offset") * bitwidth // 8
    return TritonCost(level, levels, rounds, nbytes, store, load, vs, vd, shared, tri.scratch_bytes, tri.path)


# ---------------------------------------------------------------------------------------------------------------
# Triton 3.9's own lowering of convert_layout: which path (lib/Analysis/Utility.cpp cvtReordersRegisters,
# cvtNeedsWarpShuffle), and for the shared-memory path the swizzled staging buffer of lib/Tools/GenericSwizzling.cpp
# optimalSwizzlingLdSt, whose size lib/Analysis/Allocation.cpp getNumScratchElemsSwizzledCvt allocates.
# Bases are ints over the flattened tensor (dim0 the fastest bits), as Triton's ``flattenOuts`` makes them.


class TritonLowering(NamedTuple):
    """How Triton 3.9 lowers ``convert_layout(src -> dst)`` (see :func:`triton_lowering`).

    ``path``: ``"none"``, ``"register"`` (a register permutation), ``"shuffle"`` (``shfl.sync`` in a warp) or
    ``"shared"`` (a round trip through the scratch buffer); ``scratch_bytes``: what the allocator reserves;
    ``reps``: rounds through it; ``vector`` / ``store_vector`` / ``load_vector``: elements per shared access (the
    swizzle's vector, what one access moves); ``store_conflicts`` / ``load_conflicts``: Triton's extra wavefronts
    (``2**k - 1``); ``instructions``: the PTX instruction classes the path emits.

    >>> TritonLowering("none", 0, 1, 1, 1, 1, 0, 0, ()).path
    'none'
    """

    path: str
    scratch_bytes: int
    reps: int
    vector: int
    store_vector: int
    load_vector: int
    store_conflicts: int
    load_conflicts: int
    instructions: tuple


def _flat(L, dim) -> list:
    """The bases of in-dim ``dim`` of a layout with one (flattened) out-dim, as ints ([] without that in-dim)."""
    return [int(v[0]) for n, vecs in L.bases if n == dim for v in vecs]


def _rref(vectors, dim) -> list:
    """Reduced row echelon form over GF(2), each row's pivot its lowest set bit (f2reduce's convention)."""
    rows = [v for v in vectors if v]
    out: list = []
    for v in rows:
        for r in out:
            if v & (r & -r):
                v ^= r
        if v:
            p = v & -v
            out = [r ^ v if r & p else r for r in out]
            out.append(v)
    return out


def _nullspace(vectors, dim) -> list:
    """Triton ``nullspaceBasis``: for each free column c, ``1 << c`` plus the pivots of the rows holding c."""
    rows = _rref(vectors, dim)
    piv = {(r & -r).bit_length() - 1 for r in rows}
    out = []
    for c in range(dim):
        if c in piv:
            continue
        v = 1 << c
        for r in rows:
            if r >> c & 1:
                v ^= r & -r
        out.append(v)
    return out


def _intersection(b1, b2, dim) -> list:
    """Triton ``intersectionBasis`` (keeps b1's order when every basis is a power of two)."""
    if all(b > 0 and b & (b - 1) == 0 for b in list(b1) + list(b2)):
        s2 = set(b2)
        return [b for b in b1 if b and b in s2]
    return _nullspace(_nullspace(b1, dim) + _nullspace(b2, dim), dim)


def _complement(basis, dim) -> list:
    piv = {(r & -r).bit_length() - 1 for r in _rref(basis, dim)}
    return [1 << i for i in range(dim) if i not in piv]


def _vec_basis(rs, rd, ws, wd, bs, bitwidth, dim):
    """Triton ``getVecBasisLdSt``: the swizzle's vector bases and whether src filled the first bank."""
    vb = _intersection(rs, rd, dim)[: max(0, (128 // bitwidth).bit_length() - 1)]
    fills = None
    if (1 << len(vb)) * bitwidth < 32:
        per_bank = (32 // bitwidth).bit_length() - 1
        ws, wd = [w for w in ws if w], [w for w in wd if w]
        src_w = _intersection([r for r in rs if r not in vb], wd, dim)
        dst_w = _intersection([r for r in rd if r not in vb], ws, dim)
        if len(src_w) == len(dst_w) and src_w:
            fills = min(src_w) < min(dst_w)
        else:
            fills = len(src_w) > len(dst_w)
        vb = vb + (src_w if fills else dst_w)
        if len(vb) < per_bank:
            vb = vb + _intersection(ws, wd, dim)
        i = 0
        while len(vb) < per_bank and (i < len(ws) or i < len(wd)):
            if i < len(ws) and ws[i] not in vb:
                vb.append(ws[i])
            if len(vb) < per_bank and i < len(wd) and wd[i] not in vb and wd[i] not in bs:
                vb.append(wd[i])
            i += 1
        vb = vb[:per_bank]
    return vb, fills


def _segment(bank_src, bank_dst, blocks, dim, length) -> list:
    """Triton ``computeSegment``: the bases that pick a row of banks, conflict-free where it can."""
    ss = (set(bank_src) | set(blocks)) - {0}
    sd = (set(bank_dst) | set(blocks)) - {0}
    seg = [1 << b for b in range(dim) if (1 << b) not in ss and (1 << b) not in sd]
    if len(seg) >= length:
        return seg[:length]
    a = sorted(v for v in ss if v not in sd)
    b = sorted(v for v in sd if v not in ss)
    if len(a) > len(b):
        a, b = b, a
    k = min(max(0, length - len(a) - len(seg)), len(a))
    seg += [a[i] ^ b[i] for i in range(k, len(a))] + a[:k] + b[:k]
    return seg[:length]


def _lane_tile(lane, vec, bitwidth, banks=32) -> list:
    """Triton ``getLaneTile`` for ld/st.shared (no explicit lane order): the lanes of one wavefront."""
    log2vec = max(1, vec * bitwidth // 32).bit_length() - 1
    phase = max(0, log2vec + len(lane) - (banks.bit_length() - 1))
    return list(lane[: len(lane) - phase])


def _conflicts(seg, tile, dim) -> int:
    return (1 << len(_intersection(seg, tile, dim))) - 1


def _no_broadcast(L):
    """Triton ``actionRemoveBroadcastedRegs``: drop the register bases that are zero."""
    keep = [(n, [v for v in vecs if any(v)] if n == "register" else vecs) for n, vecs in L.bases]
    return linear.LinearLayout(keep, L.out_dims, require_surjective=False)


def _swizzle_ldst(sf, df, bitwidth):
    """Triton ``optimalSwizzlingLdSt`` (32 banks, ld/st.shared lanes): (vector, bank, segment, reps, tiles)."""
    dim = sf.total_out_dim_size_log2
    rs, rd = _flat(sf, "register"), _flat(df, "register")
    blocks = _flat(sf, "block")
    vb, fills = _vec_basis(rs, rd, _flat(sf, "warp"), _flat(df, "warp"), blocks, bitwidth, dim)
    vec = 1 << len(vb)
    tile_s, tile_d = _lane_tile(_flat(sf, "lane"), vec, bitwidth), _lane_tile(_flat(df, "lane"), vec, bitwidth)
    vb, bank, seg, reps = _build(rs, rd, vb, tile_s, tile_d, blocks, bitwidth, dim, 0)
    if vec * bitwidth < 128:  # log2Vec < 2: the bank bases one side holds in registers go first (more vectorising)
        ins = [i for i, b in enumerate(bank) if b in rs], [i for i, b in enumerate(bank) if b in rd]
        order = ins[0] if fills is True or (fills is None and len(ins[0]) > len(ins[1])) else ins[1]
        bank = [bank[i] for i in order] + [b for i, b in enumerate(bank) if i not in order]
    return vb, bank, seg, reps, tile_s, tile_d, ("st.shared", "ld.shared")


def _build(rs, rd, vb, tile_s, tile_d, blocks, bitwidth, dim, leave):
    """Triton ``optimalSwizzling`` for a given vector and lane tiles, then ``buildReps``."""
    nzb = [b for b in blocks if b]
    len_b = min((32 * 32 // ((1 << len(vb)) * bitwidth)).bit_length() - 1, dim - len(vb) - len(nzb))
    len_s = dim - len_b - len(vb) - len(nzb)
    seg = _segment(vb + tile_s, vb + tile_d, nzb, dim, len_s)
    bank = _complement(vb + seg + nzb, dim)
    srs, srd = set(rs), set(rd)
    keep, reps = [], []
    for s in seg:
        if s in srs and s in srd:
            if leave > 0:
                leave -= 1
                keep.append(s)
            else:
                reps.append(s)
        else:
            keep.append(s)
    return vb, bank, keep, reps


# Triton's LocalMemOpTile per instruction: (lanes whose bases must be contiguous, lanes that address one access)
_ST_LD = ((), (0, 1, 2))
_MATRIX = ((0, 1), (2, 3, 4))
_MATRIX_T = ((2, 3, 4), (0, 1))


def _tiles(bitwidth, capability, store):
    """Triton ``getSrcDstTiles``: the store (``stmatrix`` from sm_90) or load (``ldmatrix`` from sm_75) it weighs."""
    out = [("shared", _ST_LD)]
    if capability >= (90 if store else 75):
        out += [("matrix", _MATRIX)] * (bitwidth <= 32) + [("matrix.trans", _MATRIX_T)] * (bitwidth == 16)
    return out


def _tile_vbasis(a, b, nra, nrb, ida, idb, dim):
    """Triton ``optimalSwizzlingTile``: the vector of a pair of instructions, or None when they cannot pair."""
    if nra < nrb:
        return _tile_vbasis(b, a, nrb, nra, idb, ida, dim)
    ra, rb = _flat(a, "register"), _flat(b, "register")
    la, lb = _flat(a, "lane"), _flat(b, "lane")
    vb = _intersection(ra, rb, dim)
    if len(vb) < nrb:
        return None
    vb = vb[:nrb]
    ta, tb = [la[i] for i in ida], [lb[i] for i in idb]
    if 0 in ta or 0 in tb:
        return None
    if nra - nrb or ida:
        cvt = b.invert_and_compose(a)
        lane_bases = dict(cvt.bases).get("lane", [])
        names = cvt.out_dim_names

        def part(i, name):
            return lane_bases[i][names.index(name)] if name in names else 0
        if any(part(idb[i], "register") == 0 for i in range(nra - nrb)):
            return None
        for x, y in zip(ida, idb[len(idb) - len(ida):]):
            if part(y, "lane") != 1 << x:
                return None
    return vb + tb


def _swizzle(src, dst, bitwidth, capability=90):
    """Triton ``optimalSwizzling`` over the sm_90 instruction pairs (NVIDIA's scratch and lowering)."""
    sf, df = src.flatten_outs(), dst.flatten_outs()
    dim = sf.total_out_dim_size_log2
    total = (128 // bitwidth).bit_length() - 1
    rs, rd = _flat(sf, "register"), _flat(df, "register")
    ls, ld_ = _flat(sf, "lane"), _flat(df, "lane")
    blocks = _flat(sf, "block")
    best = None
    for ns, (cs, as_) in _tiles(bitwidth, capability, True):
        for nd, (cd, ad) in _tiles(bitwidth, capability, False):
            if len(ls) < 5 or len(ld_) < 5:
                continue
            vb = _tile_vbasis(sf, df, total - len(cs), total - len(cd), cs, cd, dim)
            if vb is None:
                continue
            ts = [r for r in rs if r not in vb][: 3 - len(as_)]
            td = [r for r in rd if r not in vb][: 3 - len(ad)]
            if len(ts) < 3 - len(as_) or len(td) < 3 - len(ad):
                continue
            ts, td = ts + [ls[i] for i in as_], td + [ld_[i] for i in ad]
            leave = min(len(cs) + len(as_) - 3, len(cd) + len(ad) - 3)
            got = _build(rs, rd, vb, ts, td, blocks, bitwidth, dim, leave)
            cost = _conflicts(got[2], ts, dim) + _conflicts(got[2], td, dim)
            if best is None or cost < best[0] or (cost == best[0] and len(got[3]) > len(best[1][3])):
                best = (cost, got, ts, td, ("st." + ns if ns == "shared" else "st" + ns,
                                             "ld." + nd if nd == "shared" else "ld" + nd))
    if best is None:
        return _swizzle_ldst(sf, df, bitwidth)
    _, (vb, bank, seg, reps), ts, td, names = best
    return vb, bank, seg, reps, ts, td, names


def access_vector(regs, others, bitwidth) -> int:
    """Elements one shared access moves, from the offsets (ints) of the register bases and of the other in-dims' bases:
    the largest ``2**k`` (at most 128 bits) such that k registers land exactly on the k lowest offset bits and no
    lane, warp or block touches them (other registers may XOR those bits: that reorders a vector's elements, which
    Triton undoes in registers).

    >>> access_vector([1, 65, 256], [2, 4, 128], 16), access_vector([64, 1, 2], [4, 8], 32), access_vector([2], [1], 16)
    (2, 4, 1)
    """
    k = max(0, (128 // bitwidth).bit_length() - 1)
    while k > 0:
        low = (1 << k) - 1
        if not any(b & low for b in others) and len(_rref([r for r in regs if r and r & ~low == 0], k)) == k:
            return 1 << k
        k -= 1
    return 1


def shared_access_ptx(kind, elems, bitwidth) -> str:
    """The PTX of one ``kind`` (``st``/``ld``) shared access of ``elems`` elements, as LLVM's NVPTX backend prints
    it: 128 bits as ``v4.b32``, four bytes as one ``b32`` (``v4i8`` is a 32-bit register), else ``v{n}.b{bits}``.

    >>> shared_access_ptx("st", 8, 16), shared_access_ptx("ld", 4, 16), shared_access_ptx("ld", 4, 8)
    ('st.shared.v4.b32', 'ld.shared.v4.b16', 'ld.shared.b32')
    """
    bits = elems * bitwidth
    if elems == 1:
        return f"{kind}.shared.b{bitwidth}"
    if (bits == 128 and bitwidth < 64) or elems > 4 or (bitwidth == 8 and elems == 4):
        return f"{kind}.shared." + (f"v{bits // 32}." if bits > 32 else "") + "b32"
    return f"{kind}.shared.v{elems}.b{bitwidth}"


def triton_lowering(src, dst, bitwidth=32, capability=90) -> TritonLowering:
    """How Triton 3.9 lowers ``convert_layout(src -> dst)`` of ``bitwidth``-bit elements (one CTA, NVIDIA
    ``sm_<capability>``: stmatrix from 90, ldmatrix from 75).

    The path is Triton's: nothing or a register permutation when ``minimalCvtLayout`` keeps
    at most ``register``; warp shuffles when it keeps exactly ``register, lane``; otherwise a
    round trip through a swizzled scratch buffer (``optimalSwizzlingLdSt``) of
    ``total bytes / reps`` — the rounds ``reps`` are the swizzle's segment bases that are
    registers on both sides, so the buffer holds one round.

    >>> from unilayout.linear import encodings as E
    >>> a = E.blocked([64, 128], [1, 4], [8, 4], [4, 1], [1, 0])
    >>> b = E.blocked([64, 128], [4, 1], [4, 8], [1, 4], [0, 1])
    >>> c = triton_lowering(a, b, bitwidth=16)
    >>> c.path, c.scratch_bytes, c.reps, c.instructions   # what Triton 3.9's PTX of this convert holds
    ('shared', 16384, 1, ('st.shared.v4.b32', 'ld.shared.v4.b32', 'bar.sync'))
    """
    bitwidth = max(8, as_pow2(bitwidth, "bitwidth"))
    for name, L in (("src", src), ("dst", dst)):
        if not isinstance(L, linear.LinearLayout):
            raise LayoutError(f"triton_lowering: {name} must be a LinearLayout, got {type(L).__name__}")
    if src.out_dims != dst.out_dims:
        raise LayoutError(f"triton_lowering: src and dst must cover the same tensor, got {src.out_dims} and {dst.out_dims}")
    minimal = linear.analysis.minimal_conversion(src, dst)
    outs = minimal.out_dim_names
    if not outs:
        return TritonLowering("none", 0, 1, 1, 1, 1, 0, 0, ())
    if outs == ["register"]:
        return TritonLowering("register", 0, 1, 1, 1, 1, 0, 0, ())
    local = outs == ["register", "lane"] or ("block" not in outs and _warp_replicated(src, dst))
    if local and _mixed_transpositions(src, dst) < 2:
        return TritonLowering("shuffle", 0, 1, 1, 1, 1, 0, 0, ("shfl.sync",))
    s, d = _no_broadcast(src), _no_broadcast(dst)
    vb, bank, seg, reps, tile_s, tile_d, names = _swizzle(s, d, bitwidth, capability)
    dim = src.flatten_outs().total_out_dim_size_log2
    nreps = 1 << len(reps)
    blocks = max(1, src.in_dim_size("block") if src.has_in_dim("block") else 1)
    nbytes = (1 << dim) // (nreps * _cta_split(src, blocks)) * bitwidth // 8
    basis = vb + bank + seg + reps  # a round's offsets, then the rounds: each basis's offset is its bits below reps

    def vector(L):
        img = [sum(1 << k for k in _solve(basis, v) if k < len(basis) - len(reps)) for v in _flat(L, "register")]
        other = [sum(1 << k for k in _solve(basis, v) if k < len(basis) - len(reps))
                 for n in ("lane", "warp", "block") for v in _flat(L, n) if v]
        return access_vector(img, other, bitwidth)
    vs = vector(s.flatten_outs()) if names[0] == "st.shared" else 128 // bitwidth  # a matrix row: 16 B a lane
    vd = vector(d.flatten_outs()) if names[1] == "ld.shared" else 128 // bitwidth
    store, load = _conflicts(seg, tile_s, dim), _conflicts(seg, tile_d, dim)
    masks = src.free_variable_masks().get("warp", 0) | dst.free_variable_masks().get("warp", 0)
    warp_sync = not masks and dst.invert_and_compose(src).is_trivial_over(["warp", "block"])  # isCvtDimSync
    ins = (shared_access_ptx("st", vs, bitwidth) if names[0] == "st.shared" else names[0],
           shared_access_ptx("ld", vd, bitwidth) if names[1] == "ld.shared" else names[1],
           "bar.warp.sync" if warp_sync else "bar.sync")
    return TritonLowering("shared", nbytes, nreps, 1 << len(vb), vs, vd, store, load, ins)


def _warp_replicated(src, dst) -> bool:
    """Every source warp holds the whole tensor and each destination warp basis is a source lane's (or zero): each
    warp builds its part from its own lanes, and Triton 3.9 shuffles (seen on 600+ converts it compiled)."""
    lanes = set(_flat(src.flatten_outs(), "lane"))
    return not any(_flat(src.flatten_outs(), "warp")) and all(w in lanes or not w for w in _flat(dst.flatten_outs(), "warp"))


def _solve(vectors, target) -> list:
    """Indices of ``vectors`` whose XOR is ``target`` (GF(2)), or [] when there are none."""
    rows: list = []  # (value, mask of the vectors it combines)
    for k, v in enumerate(vectors):
        m = 1 << k
        for r, rm in sorted(rows, key=lambda x: x[0] & -x[0]):
            if v & (r & -r):
                v, m = v ^ r, m ^ rm
        if v:
            rows.append((v, m))
    m = 0
    for r, rm in sorted(rows, key=lambda x: x[0] & -x[0]):  # ascending pivots: a row only touches bits above its own
        if target & (r & -r):
            target, m = target ^ r, m ^ rm
    return [k for k in range(len(vectors)) if m >> k & 1] if target == 0 else []


def _mixed_transpositions(src, dst) -> int:
    """How many register-lane transpositions Triton's ``getWarpLayoutConvertDecomposition`` factors out.

    The conversion is the permutation P of (register, lane) bits that ``S.invertAndCompose(T)`` gives
    (zero bases of src and dst paired in order, common zeros fixed); each maximal run of lane bits inside
    a cycle that also holds register bits costs one transposition (a round of shuffles). Triton shuffles
    only when there is at most one."""
    def part(L):
        L = L.remove_zero_bases_along_dim("register") if L.has_in_dim("register") else L
        return [(n, [list(v) for v in vecs]) for n, vecs in L.bases if n in ("register", "lane")]
    S, T = part(src), part(dst)
    n = {d: max(len(dict(S).get(d, [])), len(dict(T).get(d, []))) for d in ("register", "lane")}
    outs = src.out_dims
    zero = [0] * len(outs)

    def pad(P):
        d = dict(P)
        return [(k, d.get(k, []) + [zero] * (n[k] - len(d.get(k, [])))) for k in ("register", "lane") if n[k]]
    S, T = pad(S), pad(T)
    fs = linear.LinearLayout(S, outs, require_surjective=False).flatten_outs()
    ft = linear.LinearLayout(T, outs, require_surjective=False).flatten_outs()
    labels = [(d, i) for d in ("register", "lane") for i in range(n[d])]
    tvals = [_flat(ft, d)[i] for d, i in labels]
    nxt, sz, dz = {}, [], []
    for d, i in labels:
        sv, tv = _flat(fs, d)[i], _flat(ft, d)[i]
        if sv == 0 and tv == 0:
            nxt[(d, i)] = (d, i)
            continue
        if sv == 0:
            sz.append((d, i))
            continue
        if tv == 0:
            dz.append((d, i))
        hit = _solve(tvals, sv)
        if hit:  # Triton reads the last nonzero in-dim of the image, at its highest bit
            reg = [labels[k][1] for k in hit if labels[k][0] == "register"]
            lane = [labels[k][1] for k in hit if labels[k][0] == "lane"]
            nxt[(d, i)] = ("lane", max(lane)) if lane else ("register", max(reg))
    for a, b in zip(sz, dz):
        nxt[a] = b
    return sum(1 for (d, _), (e, _) in nxt.items() if d == "register" and e == "lane")


def _cta_split(L, blocks) -> int:
    """CTAs that hold distinct parts of the tensor (Triton ``getCTASplitNum`` product): blocks not broadcast."""
    if blocks == 1:
        return 1
    return 1 << sum(1 for v in _flat(L.flatten_outs(), "block") if v)
