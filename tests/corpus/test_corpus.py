"""The producers' corpus: every harvested text reads (or is rejected) as its producer says, every fact agrees.

``corpus.jsonl`` holds layout texts taken from the producers' own test suites (Triton, Shardy, XLA,
CUTLASS/pycute, tt-mlir), each with its source file and the facts the producer computed for it
(``bench/corpus.py --regenerate`` recomputes them where the producer installs). ``pending.jsonl`` lists
the texts unilayout does not yet agree on, each with its reason; a pending text must *still* disagree
(strict xfail: fixing one forces moving it out of the list), every other text must agree.
"""

import copy
import importlib.util
import pathlib
import re

import pytest

_spec = importlib.util.spec_from_file_location("corpus_agree", pathlib.Path(__file__).with_name("agree.py"))
agree = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(agree)

CORPUS = agree.load_corpus()
PENDING = agree.load_pending()
PRODUCERS = sorted({e["producer"] for e in CORPUS})
RESULTS = {}
ROOT = pathlib.Path(__file__).resolve().parents[2]


def _results():
    if not RESULTS:
        RESULTS.update({e["id"]: agree.check(e) for e in CORPUS})
    return RESULTS


def test_corpus_holds_at_least_2000_sourced_texts():
    assert len(CORPUS) >= 2000
    assert len({e["id"] for e in CORPUS}) == len(CORPUS)
    for e in CORPUS:
        assert e["source"]["repo"] and e["source"]["path"] and len(e["source"]["commit"]) == 40, e["id"]
        assert e["expect"] in ("reads", "rejected"), e["id"]
    assert {"triton", "cute", "hlo", "shardy"} <= set(PRODUCERS)


def test_corpus_was_regenerated_from_the_current_sources():
    """Every corpus text names a harvested source file and every harvested Shardy/HLO/TT text is in
    corpus.jsonl (``python bench/corpus.py --regenerate`` after editing tests/corpus/sources/)."""
    spec = importlib.util.spec_from_file_location("bench_corpus", ROOT / "bench" / "corpus.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    raws = bench.read_sources()
    harvested = {(r["producer"], r["source"]["path"]) for r in raws}
    in_corpus = {("hlo" if e["producer"] == "xla" else e["producer"], e["source"]["path"]) for e in CORPUS}
    assert in_corpus <= harvested  # a file whose texts all repeat an earlier file's adds no entry
    texts = {e["text"] for e in CORPUS}
    for r in raws:
        if r["producer"] in ("shardy", "hlo"):
            want = r["raw"][1]
        elif r["producer"] in ("ttnn", "ttcore"):
            want = r["raw"][0]
        else:
            continue
        assert want in texts, want


def test_every_pending_text_is_in_the_corpus():
    ids = {e["id"] for e in CORPUS}
    assert [p for p in PENDING if p not in ids] == []
    texts = {e["id"]: e["text"] for e in CORPUS}
    assert [p for p, v in PENDING.items() if texts.get(p) != v["text"]] == []


@pytest.mark.parametrize("producer", PRODUCERS)
def test_texts_agree_with_their_producer(producer):
    results = _results()
    wrong, fixed = [], []
    for e in CORPUS:
        if e["producer"] != producer:
            continue
        r = results[e["id"]]
        if e["id"] in PENDING:
            if r is None:
                fixed.append(e["id"])
        elif r is not None:
            wrong.append(f"{e['id']} [{r[0]}] {e['text'][:120]} -- {r[1]}")
    assert not wrong, f"{len(wrong)} texts disagree with {producer}:\n" + "\n".join(wrong[:40])
    assert not fixed, f"now agree, move them out of pending.jsonl (python bench/corpus.py --pending): {fixed}"


def test_no_text_crashes_unilayout():
    crashes = [f"{i}: {r[1]}" for i, r in _results().items() if r is not None and r[0] == "crash"]
    assert not crashes, "\n".join(crashes[:40])


def _first_agreeing(producer, key):
    results = _results()
    return next(e for e in CORPUS if e["producer"] == producer and key in e["facts"] and results[e["id"]] is None
                and e["context"].get("shape", [1]) and all(e["context"].get("shape", [1])))


@pytest.mark.parametrize("producer, key", [("triton", "bases"), ("cute", "values"), ("hlo", "boxes"),
                                           ("shardy", "boxes"), ("ttnn", "memref_shape"), ("xla", "minor_to_major")])
def test_the_check_catches_a_wrong_fact(producer, key):
    """The harness can fail: one corrupted fact of an agreeing text is reported as a mismatch."""
    e = copy.deepcopy(_first_agreeing(producer, key))
    f = e["facts"]
    if key == "bases":
        dim = next(d for d, bs in f["bases"].items() if bs)
        f["bases"][dim][0] = [x + 1 for x in f["bases"][dim][0]]
    elif key == "values":
        f["values"][-1] += 1
    elif key == "boxes":
        dev = next(iter(f["boxes"]))
        f["boxes"][dev][0][1] += 1
    elif key == "memref_shape":
        f["memref_shape"][0] += 1
    else:
        f["minor_to_major"] = f["minor_to_major"][::-1] if len(f["minor_to_major"]) > 1 else [5]
    assert agree.check(e) is not None and agree.check(e)[0] == "fact mismatch"


def test_the_check_catches_a_text_read_that_the_producer_rejects():
    e = copy.deepcopy(_first_agreeing("triton", "bases"))
    e["expect"] = "rejected"
    assert agree.check(e)[0] == "accepts rejected"
    e = copy.deepcopy(next(x for x in CORPUS if x["expect"] == "rejected" and _results()[x["id"]] is None))
    e["expect"] = "reads"
    assert agree.check(e)[0] == "parse bug"


def corpus_summary() -> str:
    """The agreement rate per producer (printed at the end of the test run by conftest.py)."""
    return agree.summary(CORPUS, _results()) if RESULTS else ""


def test_a_text_the_producer_reads_without_a_layout_agrees_only_with_not_representable():
    """Triton reads some memdesc types and then aborts computing their linear layout (``producer_note``): unilayout's
    NotRepresentableError agrees with that; a ParseError (unilayout refusing the text itself) does not."""
    e = copy.deepcopy(next(x for x in CORPUS if "producer_note" in x["facts"] and "6x8x16" in x["text"]))
    assert agree.check(e) is None
    e["text"] = e["text"].replace("swizzlingByteWidth = 32", "swizzlingByteWidth = 31")
    assert agree.check(e)[0] == "parse bug"


def test_placeholders_carry_their_reason_and_are_counted_apart():
    """A hand-written text its producer never builds (a tt-mlir memref or map contradicting the tensor) names why
    and is left out of the agreement rate, shown beside it instead."""
    aside = [e for e in CORPUS if "placeholder" in e["facts"]]
    assert aside and all(len(e["facts"]["placeholder"]) > 40 for e in aside)
    assert all(set(e["facts"]) == {"placeholder"} for e in aside)  # no producer fact rides on a placeholder
    text = agree.summary(CORPUS, _results())
    assert f"({len(aside)} placeholders not scored)" in text
    scored = len(CORPUS) - len(aside)
    assert [ln for ln in text.splitlines() if ln.strip().startswith("all ")][0].split()[1].endswith(f"/{scored}")


def test_cute_left_inverse_facts_are_cpp_where_pycute_differs_and_both_are_left_inverses():
    """CuTe C++'s left_inverse (the CUTLASS headers) and pycute's differ off the layout's image; the fact is C++'s,
    pycute's is kept beside it, and each maps every L(i) back to i."""
    both = [e for e in CORPUS if "left_inverse_pycute" in e["facts"]]
    assert {e["text"] for e in both} >= {"4:2"}
    for e in both:
        f = e["facts"]
        assert f["left_inverse"]["by"] == "CuTe C++"
        for fact in (f["left_inverse"], f["left_inverse_pycute"]):
            inv = agree.cute.index_map(agree._layout(fact)).tolist()
            assert [inv[v] for v in f["values"]] == list(range(f["size"]))
        assert agree.cute.index_map(agree._layout(f["left_inverse"])).tolist() != \
            agree.cute.index_map(agree._layout(f["left_inverse_pycute"])).tolist()


def test_placeholder_rules_mark_what_tt_mlir_never_builds_and_nothing_else():
    spec = importlib.util.spec_from_file_location("corpus_placeholders", pathlib.Path(__file__).with_name("placeholders.py"))
    ph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ph)
    lay = ("tensor<{s}xbf16, #ttnn.ttnn_layout<{m}, <6x2>, memref<{r}x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
           "<height_sharded>>>")
    ok = lay.format(s="2x384x32", m="(d0, d1, d2) -> (d0 * 384 + d1, d2)", r="2x1")
    assert ph.placeholder("ttnn", "t.mlir", ok, [2, 1], "12x1x2x1") is None
    assert "memref 1x1" in ph.placeholder("ttnn", "t.mlir", ok.replace("memref<2x1", "memref<1x1"), [1, 1], "12x1x2x1")
    bad_map = lay.format(s="2x384x32", m="(d0, d1, d2) -> (d0 * 32 + d1, d2)", r="2x1")
    assert "builds (d0 * 384 + d1, d2)" in ph.placeholder("ttnn", "t.mlir", bad_map, [2, 1], "-")
    metal = ("tensor<{s}x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, "
             "collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>>")
    assert ph.placeholder("ttcore", "t.mlir", metal.format(s="1x1x2x2"), None, "1x1x2x2") is None
    assert "device-shaped" in ph.placeholder("ttcore", "t.mlir", metal.format(s="2x2"), None, "2x2")
    # the stored corpus carries exactly these marks
    for e in CORPUS:
        if e["producer"] in ("ttnn", "ttcore") and e["expect"] == "reads":
            m = re.search(r"memref<((?:\d+x)+)", e["text"])
            memref = [int(x) for x in m.group(1).rstrip("x").split("x")] if m else None
            why = ph.placeholder(e["producer"], e["source"]["path"], e["text"], memref, "-")
            if why:  # (the D2M-cast rule needs the printed device shape, which a placeholder no longer carries)
                assert e["facts"].get("placeholder") == why, e["id"]
