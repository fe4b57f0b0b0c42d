"""linear/text/ (the readers, also as linear.ttgir): Triton's printed encoding attributes, read and printed back,
against Triton 3.9.0.

Triton prints the types (its MLIR printer, reached through Gluon's builder in a
subprocess); unilayout must print the same attribute byte for byte, read
Triton's text back to an equal value, and (tensor memory) compute the same
``row, col`` layout.
"""

import random

import linear_helpers as H
import pytest

from unilayout import LayoutError, NotRepresentableError, ParseError
from unilayout.linear import encodings as E
from unilayout.linear import ttgir as T
from unilayout.linear.family import LINEAR
from unilayout.linear.text import attr as TA
from unilayout.linear.text import fast as TF

_ELEM = {"tmem": "f32", "tmem_scales": "i8"}


def _cases(seed, per_kind):
    rng = random.Random(seed)
    out = []
    for kind in H.TEXT_KINDS:
        for _ in range(per_kind):
            text, enc, shape = H.random_case(rng, kind)
            elem = _ELEM.get(kind, "f16")
            if kind == "tmem" and enc.col_stride == 2:
                elem = "f16"
            out.append((kind, {"layout": text, "shape": shape, "type": H.TYPE_OF[kind], "elem": elem,
                               "linear": kind in ("tmem", "tmem_scales")}, enc))
    return out


def _type_text(kind, shape, elem, enc):
    dims = "x".join(map(str, shape))
    if H.TYPE_OF[kind] == "dist":
        return f"tensor<{dims}x{elem}, {enc}>"
    space = "#ttg.shared_memory" if H.TYPE_OF[kind] == "shared" else "#ttng.tensor_memory"
    return f"!ttg.memdesc<{dims}x{elem}, {enc}, {space}, mutable>"


def test_printed_attributes_match_triton_and_read_back():
    cases = _cases(13, H.per_kind(25))
    got = H.triton_text_oracle([c for _, c, _ in cases])
    checked = 0
    for (kind, case, enc), want in zip(cases, got):
        if "error" in want:  # Gluon refused these parameters (unilayout accepts a superset)
            continue
        assert _type_text(kind, case["shape"], case["elem"], enc) == want["text"], case
        shape, _, back = T.parse_type(want["text"])
        assert back == enc and list(shape) == case["shape"], case
        assert E.parse(str(enc)) == enc
        checked += 1
    assert checked > 0.9 * len(cases)


def test_tensor_memory_layouts_match_triton():
    cases = [(k, c, e) for k, c, e in _cases(7, H.per_kind(40)) if k in ("tmem", "tmem_scales")]
    got = H.triton_text_oracle([c for _, c, _ in cases])
    checked = 0
    for (_, case, enc), want in zip(cases, got):
        if "error" in want:
            continue
        L = enc.to_linear(case["shape"])
        assert {"row": L.bases[0][1], "col": L.bases[1][1]} == want["bases"], case
        checked += 1
    assert checked > 40


def test_round_trip_every_kind():
    rng = random.Random(5)
    for kind in H.TEXT_KINDS:
        for _ in range(30):
            _, enc, _ = H.random_case(rng, kind)
            assert T.parse(str(enc)) == enc
            assert hash(T.parse(str(enc))) == hash(enc)


def test_reference_texts():
    text = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
            "order = [1, 0]}>")
    enc = T.parse(text)
    assert enc == E.Blocked([1, 4], [8, 4], [4, 1], [1, 0]) and str(enc) == text
    pad = "#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>"
    assert str(T.parse(pad)) == pad and T.parse(pad).interval_paddings == ((32, 4), (64, 8))
    tm = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CGALayout = [[1, 0]], twoCTAs = true>"
    assert str(T.parse(tm)) == tm


def test_parse_module_reads_aliases_and_skips_the_rest():
    dump = """#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#loc = loc("kernel.py":12:0)
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k() {
    %0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  }
}
#dot = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
"""
    m = E.parse_module(dump)
    assert list(m) == ["blocked", "mma", "shared", "dot"]
    assert m["dot"] == E.DotOperand(1, m["mma"], 2)
    # a (made-up) encoding of a later Triton, which unilayout does not read: skipped ...
    new = "#new = #ttg.later_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>\n"
    assert E.parse_module(new + dump) == m
    with pytest.raises(ParseError, match="#new is #ttg.later_shared, an encoding unilayout does not read"):
        T.layout(new + "tensor<8x8xf16, #new>")  # ... until it is used
    with pytest.raises(ParseError, match="unknown alias #mma2") as e:
        E.parse_module("#dot = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>")
    assert e.value.position == e.value.text.index("#mma2")


def test_layout_of_a_tensor_type_inline_or_through_an_alias():
    enc = E.Blocked([1, 4], [8, 4], [4, 1], [1, 0])
    inline = T.layout(f"tensor<128x64xf16, {enc}>")
    assert inline == enc.to_linear([128, 64])
    aliased = T.layout(f"#blocked = {enc}\ntensor<128x64xf16, #blocked>")
    assert aliased == inline
    shared = T.layout("!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                      "elementBitWidth = 16}>, #ttg.shared_memory, mutable>")
    assert shared == E.NvmmaShared(128, 16).to_linear([64, 64])
    one = E.SwizzledShared(2, 1, 4, [1, 0]).to_linear([8, 8])
    two = T.layout("!ttg.memdesc<4x8x8xf16, #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, "
                   "order = [1, 0]}>, #ttg.shared_memory, mutable>")  # pipelined: buffer index outermost
    assert two.out_dims == [("dim0", 4), ("dim1", 8), ("dim2", 8)]
    for o in (0, 5, 9, 63, 64, 64 + 9, 128 + 63, 255):
        inner = one.apply({"offset": o % 64, "block": 0})
        assert two.apply({"offset": o, "block": 0}) == {"dim0": o // 64, "dim1": inner["dim0"], "dim2": inner["dim1"]}
    with pytest.raises(NotRepresentableError, match="3-buffer"):
        T.layout("!ttg.memdesc<3x8x8xf16, #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>, "
                 "#ttg.shared_memory, mutable>")
    padded = T.layout("!ttg.memdesc<64x64xf16, #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>, "
                      "#ttg.shared_memory, mutable>")
    assert padded == E.PaddedShared([[32, 4]], [1, 0], shape=[64, 64]).address_map([64, 64])
    assert padded(1, 3) == (64 + 3 + 2 * 4,)  # row 1 starts after two 32-element runs, each padded by 4
    with pytest.raises(NotRepresentableError, match="not affine"):
        T.layout("!ttg.memdesc<4x4xf16, #ttg.padded_shared<[4:+1] {offset = [[0, 1], [1, 1], [0, 2], [2, 0]], "
                 "block = []}>, #ttg.shared_memory, mutable>")


@pytest.mark.parametrize("text, message, at", [
    ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1]}>",
     "needs the field 'order'", ">"),
    ("#ttg.blocked<{sizePerThread = 1, threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
     "'sizePerThread' of #ttg.blocked must be a list of integers", "1,"),
    ("#ttg.slice<{dim = true, parent = #ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>}>",
     "'dim' of #ttg.slice must be an integer", "true"),
    ("#ttg.bogus<{a = 1}>", "unknown encoding #ttg.bogus", "bogus"),
    ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}",
     "expected ',' or '>', found end of text", None),
    ("#ttg.blocked<{sizePerThread = [1, threadsPerWarp = [32]}>", "a value", "threadsPerWarp"),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 0, elementBitWidth = 16}>",
     "'transposed' of #ttg.nvmma_shared must be true or false", "0,"),
    ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16, 16], isTransposed = true, "
     "colour = 1}>", "unknown field 'colour'", "1}>"),
    ("#ttg.padded_shared<[32:4] {order = [0], shape = [8]}>", "':+'", ":4"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, blockM = 64>", "appears twice", "64>"),
    ("#ttg.swizzled_shared<[8:+1] {vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>", "takes no", "[8"),
])
def test_malformed_text_is_a_positioned_parse_error(text, message, at):
    with pytest.raises(ParseError, match=message) as e:
        T.parse(text)
    assert e.value.position == (len(text) if at is None else text.rindex(at))


def test_to_text_refuses_other_values():
    with pytest.raises(LayoutError, match="expected an encoding value"):
        T.to_text("blocked")


def test_show_prints_triton_tensor_and_hardware_views(capsys):
    """``unilayout show 'tensor<..., #ttg...>'`` holds Triton's own views (``triton-tensor-layout``'s
    ``getLayoutStr``, reached through Gluon) verbatim."""
    from unilayout.cli import main

    rng = random.Random(3)
    cases = []
    for kind in ("blocked", "mma2", "mfma", "slice", "shared", "nvmma_shared"):
        for _ in range(2):
            while True:
                text, enc, shape = H.random_case(rng, kind)
                size = 1
                for x in shape:
                    size *= x
                if size <= 256:
                    break
            cases.append(({"layout": text, "shape": shape, "type": H.TYPE_OF[kind], "views": True}, enc))
    got = H.triton_text_oracle([c for c, _ in cases])
    for (case, enc), want in zip(cases, got):
        assert main(["show", _type_text(case["type"] == "dist" and "blocked" or "shared", case["shape"], "f16", enc)]) == 0
        out = capsys.readouterr().out
        assert want["hw"].strip() in out and want["tv"].strip() in out, case


def test_mangled_texts_raise_only_unilayout_errors():
    """Random edits of valid texts (deleted, doubled, swapped or replaced characters) give a value
    or a ``LayoutError``/``ParseError``, never another exception."""
    import unilayout

    rng = random.Random(99)
    texts = []
    for kind in H.TEXT_KINDS:
        for _ in range(3):
            _, enc, shape = H.random_case(rng, kind)
            texts.append(_type_text(kind, shape, "f16", enc))
    alphabet = "[]{}<>,=:+-#x0123456789 abcdefgtrue"
    for text in texts:
        for _ in range(40):
            t = list(text)
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(t))
                op = rng.randrange(4)
                if op == 0:
                    del t[i]
                elif op == 1:
                    t.insert(i, t[i])
                elif op == 2:
                    j = rng.randrange(len(t))
                    t[i], t[j] = t[j], t[i]
                else:
                    t[i] = rng.choice(alphabet)
            mangled = "".join(t)
            try:  # linear.ttgir itself, not unilayout.parse (which would wrap a stray exception)
                T.layout(mangled)
            except LayoutError:
                pass
            try:
                unilayout.parse(mangled)
            except LayoutError:
                pass


def _positioned(text, aliases=None):
    """The positioned (slow) reader alone: the value, or the error it raises."""
    from unilayout._text import Scanner

    s = Scanner(text)
    try:
        enc = TA._attr(s, aliases)
        s.expect_end()
    except LayoutError as e:
        return e
    return enc


def test_fast_reader_agrees_with_the_positioned_reader():
    """``parse`` first tries a regex-token reader; whatever it accepts, the positioned reader reads
    to an equal value (valid texts of every kind, nested parents, aliases, and mangled texts), and
    on valid texts it does accept (so the fast path is taken)."""
    rng = random.Random(7)
    valid = []
    for kind in H.TEXT_KINDS:
        for _ in range(8):
            _, enc, _ = H.random_case(rng, kind)
            text = str(enc)
            valid.append(text)
            assert TF._fast_parse(text, None) == _positioned(text) == enc, text
    mma = E.NvidiaMma(2, [2, 2], [16, 8])
    aliased = "#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>"
    assert TF._fast_parse(aliased, {"mma": mma}) == _positioned(aliased, {"mma": mma}) == E.DotOperand(1, mma, 2)
    assert TF._fast_parse(aliased, None) is None  # unknown alias: the positioned reader reports it
    assert TF._fast_parse("  " + valid[0] + "\n", None) == _positioned(valid[0])
    for text in ("#ttg.blocked<{sizePerThread = [-1]}>", "#ttg.slice<{dim = 99999999999, parent = #p}>",
                 "#ttg.blocked<{sizePerThread = [1, 4294967296], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
                 "order = [1, 0]}>", "#ttg.blocked<{sizePerThread = [1,, 4]}>",
                 "#ttg.blocked<{order = [1, 0], order = [1, 0]}>", "#ttg.unknown<{}>", valid[0] + " x"):
        assert TF._fast_parse(text, None) is None
    alphabet = "[]{}<>,=:+-#x0123456789 abcdefgtrue"
    for text in valid:
        for _ in range(30):
            t = list(text)
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(t))
                t[i] = rng.choice(alphabet) if rng.random() < 0.5 else ""
            mangled = "".join(t)
            fast = TF._fast_parse(mangled, None)
            if fast is not None:
                assert fast == _positioned(mangled), mangled


_DUMPS = sorted((__import__("pathlib").Path(__file__).parent / "data").glob("*.ttgir"))


def _types(text):
    """Every ``tensor<...>`` / ``!ttg.memdesc<...>`` with an encoding in ``text`` (balanced brackets)."""
    out = set()
    for start in [i for i in range(len(text)) if text.startswith(("tensor<", "!ttg.memdesc<"), i)]:
        depth, i = 0, text.index("<", start)
        while i < len(text):
            depth += {"<": 1, ">": -1}.get(text[i], 0)
            i += 1
            if depth == 0:
                break
        t = text[start:i]
        if "#" in t:
            out.add(t)
    return sorted(out)


@pytest.mark.parametrize("path", _DUMPS, ids=lambda p: p.stem)
def test_real_ttgir_dumps_read_and_print_back(path):
    """Triton 3.9.0's own TTGIR (tests/linear/data): every encoding alias prints back byte for byte,
    and every tensor type of the module gives its layout."""
    from unilayout.affine import AffineMap
    from unilayout.linear import LinearLayout

    text = path.read_text()
    head = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    aliases = E.parse_module(text)
    lines = {line.split(" = ", 1)[0][1:]: line.split(" = ", 1)[1] for line in head.splitlines()}
    for name, enc in aliases.items():
        assert str(enc) == lines[name]
    assert aliases, path.name
    types = _types(text)
    assert types
    for t in types:
        shape, _, enc = T.parse_type(t, aliases)
        if isinstance(enc, E.PaddedShared) and len(shape) == len(enc.shape) + 1:
            with pytest.raises(NotRepresentableError, match="buffer"):
                T.layout(head + "\n" + t)
            continue
        value = T.layout(head + "\n" + t)
        if isinstance(value, AffineMap):
            assert "padded_shared" in str(T.parse_type(t, aliases)[2])
        else:
            assert isinstance(value, LinearLayout) and [s for _, s in value.out_dims] == list(shape), t


def test_two_alias_definitions_on_one_line_read_as_triton_reads_them():
    alias = ("#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
             "order = [1, 0]}> #b2 = #ttg.slice<{dim = 0, parent = #blocked}>")
    (want,) = H.triton_mlir_layouts([{"aliases": [alias], "type": "tensor<64xi32, #b2>", "shape": [64],
                                      "warps": 4, "lanes": 32}])
    assert dict(T.layout(alias + "\ntensor<64xi32, #b2>").bases) == want
    assert list(E.parse_module(alias)) == ["blocked", "b2"]


@pytest.mark.parametrize("head, position", [("#blocked = \n", 10), ("#blocked =\n", 10), ("#blocked = // note\n", 11)])
def test_an_alias_line_with_nothing_after_the_equals_sign_is_a_parse_error(head, position):
    enc = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    (triton,) = H.triton_mlir_layouts([{"aliases": [head.rstrip("\n")], "type": f"tensor<64xi32, {enc}>",
                                        "shape": [64], "warps": 4, "lanes": 32}])
    assert "error" in triton  # Triton's MLIR parser rejects the module
    with pytest.raises(ParseError, match="an attribute after '#blocked ='") as e:
        T.layout(head + f"tensor<64xi32, {enc}>")
    assert e.value.position == position


def test_text_after_an_alias_definition_is_a_parse_error():
    text = "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}> junk"
    with pytest.raises(ParseError, match="the end of the line or another alias") as e:
        E.parse_module(text)
    assert e.value.position == text.index("junk")


@pytest.mark.parametrize("enc, buffers, shape, bits", [
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>", 2, [128, 128], "f32"),
    ("#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 2>", 4, [128, 64], "f16"),
])
def test_buffered_tensor_memory_memdesc_stacks_buffers_along_the_columns(enc, buffers, shape, bits):
    text = f"!ttg.memdesc<{buffers}x{'x'.join(map(str, shape))}x{bits}, {enc}, #ttng.tensor_memory, mutable>"
    (want,) = H.triton_mlir_layouts([{"type": text, "shape": shape, "warps": 4, "lanes": 32}])
    assert "error" not in want, want  # Triton reads the buffered type; one buffer's layout is Triton's
    L = T.layout(text)
    cols = dict(L.bases)["col"]
    k = buffers.bit_length() - 1
    assert [v[1:] for v in dict(L.bases)["row"]] == want["row"]
    assert [v[1:] for v in cols[:len(cols) - k]] == want["col"]
    # buffer b starts at column b * (one buffer's columns), as Triton's getTmemAllocSizes allocates them
    assert cols[len(cols) - k:] == [[1 << i, 0, 0] for i in range(k)]
    assert L.out_dims == [("dim0", buffers), ("dim1", shape[0]), ("dim2", shape[1])]


def test_tensor_memory_memdesc_with_three_buffers_is_not_linear():
    text = ("!ttg.memdesc<3x128x64xf16, #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 2>, "
            "#ttng.tensor_memory, mutable>")
    with pytest.raises(NotRepresentableError, match="3-buffer tensor-memory memdesc"):
        T.layout(text)


def test_tensor_memory_canonical_text_is_one_line_that_reads_back():
    L = T.layout("!ttg.memdesc<128x128xf32, #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>, "
                 "#ttng.tensor_memory, mutable>")
    text = LINEAR.canonical(L)
    assert "\n" not in text and text.startswith("- row=1 -> (1, 0)")
    assert LINEAR.parse(text) == L


_LIN = "#ttg.linear<{register = %s, lane = [], warp = [], block = []}>"
_SL = "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [4, 0]], block = [[2, 0]]}, alignment = 16>"
_PAD = "#ttg.padded_shared<[4:+4] {offset=[[1, 0], [2, 0], [0, 1], [0, 2]], block=[]}>"
_CGA = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1], "
        "CGALayout = %s}>")


@pytest.mark.parametrize("bad, good, shape, ctas", [
    # lit-test texts Triton's verifier rejects, each beside the nearest text it accepts
    (f"tensor<4xi32, {_LIN % '[[1], [3]]'}>", f"tensor<4xi32, {_LIN % '[[1], [2]]'}>", [4], 1),
    (f"tensor<2x2xi32, {_LIN % '[[1, 1], [1, 0]]'}>", f"tensor<2x2xi32, {_LIN % '[[0, 1], [1, 0]]'}>", [2, 2], 1),
    (f"tensor<4xi32, {_LIN % '[[1], [2], [1]]'}>", f"tensor<4xi32, {_LIN % '[[1], [2], [0]]'}>", [4], 1),
    (f"!ttg.memdesc<16x16xf16, {_SL}, #ttg.shared_memory, mutable>",
     f"!ttg.memdesc<8x4xf16, {_SL}, #ttg.shared_memory, mutable>", [8, 4], 2),
    (f"!ttg.memdesc<16x16xf16, {_PAD}, #ttg.shared_memory, mutable>",
     f"!ttg.memdesc<4x4xf16, {_PAD}, #ttg.shared_memory, mutable>", [4, 4], 1),
    (f"tensor<1x1xi32, {_CGA % '[[1, 0], [1, 0]]'}>", f"tensor<1x1xi32, {_CGA % '[[1, 0], [0, 1]]'}>", [1, 1], 4),
    ("tensor<16x16xi32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
     "[8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>, kWidth = 8}>>",
     "tensor<16x16xi32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
     "[8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>}>>", [16, 16], 1),
])
def test_what_tritons_verifier_rejects_is_a_parse_error(bad, good, shape, ctas):
    bad_shape = [int(x) for x in bad.split("<", 1)[1].split("x")[:len(shape)]]
    got = H.triton_mlir_layouts([{"type": bad, "shape": bad_shape, "warps": 1, "lanes": 32, "ctas": ctas},
                                 {"type": good, "shape": shape, "warps": 1, "lanes": 32, "ctas": ctas}])
    # a padded layout parses but has no linear layout in Triton (its to_linear_layout aborts saying so)
    assert "error" in got[0] and ("error" not in got[1] or "has no linear layout" in got[1]["error"]), got
    with pytest.raises(ParseError) as e:
        T.layout(bad)
    assert e.value.position == bad.index("#")
    if "padded_shared" not in good:  # padding is affine: its layout is an affine map, not Triton's bases
        assert dict(T.layout(good).bases) == got[1]


def test_an_alias_attribute_may_continue_on_the_next_lines():
    # from Triton's test/TritonNvidiaGPU/tmem_layouts.mlir: the #linear alias breaks inside its warp bases
    alias = ("#linear = #ttg.linear<{register = [[0, 0, 1], [0, 64, 0], [4, 0, 0], [8, 0, 0], [16, 0, 0], [32, 0, 0], "
             "[64, 0, 0]], lane = [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0]], warp = [\n"
             "[0, 32, 0], [1, 0, 0], [2, 0, 0]], block = []}>")
    typ = "tensor<128x128x2xi32, #linear>"
    (want,) = H.triton_mlir_layouts([{"aliases": [alias], "type": typ, "shape": [128, 128, 2], "warps": 8,
                                      "lanes": 32}])
    assert "error" not in want, want
    assert dict(T.layout(alias + "\n" + typ).bases) == want
    assert list(E.parse_module(alias + "\n#b = #ttg.slice<{dim = 2, parent = #linear}>")) == ["linear", "b"]


_SW = "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
_TM = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>"


@pytest.mark.parametrize("text, alloc, space", [  # subslices as Triton's lit tests write them (mutable, ALLOC>)
    (f"!ttg.memdesc<32x64xf16, {_SW}, #ttg.shared_memory, mutable, 64x64>", [64, 64], "#ttg.shared_memory"),
    (f"!ttg.memdesc<32x64xf16, {_SW}, #ttg.shared_memory, mutable, 2x32x64>", [32, 64], "#ttg.shared_memory"),
    (f"!ttg.memdesc<128x64xf32, {_TM}, #ttng.tensor_memory, mutable, 128x128>", [128, 128], "#ttng.tensor_memory"),
])
def test_a_memdesc_with_an_alloc_shape_is_laid_out_over_it(text, alloc, space):
    enc = _SW if "swizzled" in text else _TM
    plain = f"!ttg.memdesc<{'x'.join(map(str, alloc))}xf16, {enc}, {space}, mutable>"
    accepted, want = H.triton_mlir_layouts([{"type": text, "shape": alloc, "warps": 4, "lanes": 32, "arg": True},
                                            {"type": plain, "shape": alloc, "warps": 4, "lanes": 32}])
    assert accepted == {"accepted": True} and "error" not in want, (accepted, want)
    L = T.layout(text)  # Triton's toLinearLayout(memdesc): the alloc shape's last rank dims
    assert L.out_dims == [(f"dim{i}", n) for i, n in enumerate(alloc)]
    assert {k: dict(L.bases)[k] for k in want} == want


@pytest.mark.parametrize("alloc", ["32x64", "3x64"])
def test_a_memdesc_alloc_shape_triton_rejects_is_a_parse_error(alloc):
    text = f"!ttg.memdesc<64x64xf16, {_SW}, #ttg.shared_memory, mutable, {alloc}>"
    (triton,) = H.triton_mlir_layouts([{"type": text, "shape": [64, 64], "warps": 4, "lanes": 32, "arg": True}])
    assert "error" in triton
    with pytest.raises(ParseError, match="alloc"):
        T.layout(text)


@pytest.mark.parametrize("enc, elem, ctas, accepted", [  # tensor-memory encodings from Triton's Blackwell lit tests
    ("blockM = 64, blockN = 128, colStride = 1, twoCTAs = true", "f16", 2, False),
    ("blockM = 64, blockN = 128, colStride = 1, CGALayout = [[1, 0]], twoCTAs = true", "f16", 2, True),
    ("blockM = 128, blockN = 64, colStride = 4", "f16", 1, False),
    ("blockM = 128, blockN = 64, colStride = 4", "i8", 1, True),
    ("blockM = 64, blockN = 128, colStride = 1, twoCTAs = true, ctaMode = twocta_rhs", "f16", 2, False),
])
def test_tensor_memory_encodings_triton_verifies(enc, elem, ctas, accepted):
    shape = [256, 128] if "CGALayout" in enc else [128, 128]  # two CTAs: each holds 128 rows
    text = f"!ttg.memdesc<{shape[0]}x{shape[1]}x{elem}, #ttng.tensor_memory_encoding<{enc}>, #ttng.tensor_memory, mutable>"
    (want,) = H.triton_mlir_layouts([{"type": text, "shape": shape, "warps": 4, "lanes": 32, "ctas": ctas}])
    assert ("error" not in want) == accepted, want
    if accepted:
        assert {k: v for k, v in dict(T.layout(text).bases).items() if k in want} == want
    else:
        with pytest.raises(ParseError):
            T.layout(text)
