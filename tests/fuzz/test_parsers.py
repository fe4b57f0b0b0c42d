"""Every parser and ``unilayout.parse`` on the docs' texts and their mutations: a value that prints back, or a LayoutError.

A bounded sample runs here (``FUZZ_TEXTS`` texts, a few seconds); ``bench/fuzz.py`` runs
the long sweep and prints the counts. Hypothesis adds free-form texts over each
grammar's alphabet.
"""

import os
import time

import fuzzlib as F
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PARSERS = F.all_parsers()
FUZZ_TEXTS = int(os.environ.get("UNILAYOUT_FUZZ_TEXTS", "10000"))


@pytest.fixture(scope="module")
def texts():
    found = F.corpus()
    assert len(found) >= 40  # the docs hold layout texts of every family
    return found


def test_the_corpus_covers_every_family(texts):
    import unilayout

    families = {unilayout.family_of(unilayout.read(t, **given)) for t, given in texts}
    assert {"cute", "linear", "affine", "tsl", "metal", "device", "sharding", "xla", "tiled"} <= families


def test_mutated_texts_never_escape_hang_or_lose_their_round_trip(texts):
    import unilayout

    counts, findings = F.fuzz_texts(FUZZ_TEXTS, seed=18, texts=texts, limit=2.0)
    assert not findings, "\n".join(map(str, findings[:10]))
    assert set(counts) == set(F.all_parsers()) and {f"{n}.parse" for n in unilayout.families()} <= set(counts)
    in_corpus = {unilayout.family_of(unilayout.read(t, **given)) for t, given in texts}
    for name, c in counts.items():
        assert c["inputs"] == FUZZ_TEXTS and c["bare"] == c["hang"] == c["wrong"] == 0, (name, c)
        assert c["clean"] > 0, (name, c)
        family = name.rsplit(".", 1)[0]
        if family in in_corpus or family not in unilayout.families():  # the docs hold texts it reads
            assert c["value"] > 0, (name, c)  # the sample reaches both sides


def test_a_family_registered_later_is_fuzzed_with_no_edit_of_the_harness():
    import unilayout
    from unilayout import _families

    assert "toy.parse" not in F.all_parsers()
    _families.register(_families.Wing("toy", "toyfamily.family", r"toy<"), before="cute")
    try:
        parsers = F.all_parsers()
        assert "toy.parse" in parsers and "toy" in unilayout.families()
        counts, findings = F.fuzz_texts(300, seed=3, texts=[("toy<4, 3>", {}), ("toy<8, 1>", {}), ("8:1", {})])
    finally:
        _families.unregister("toy")
    assert not findings, findings[:5]
    toy = counts["toy.parse"]
    assert toy["inputs"] == 300 and toy["value"] > 0 and toy["clean"] > 0 and toy["bare"] == 0, toy
    assert counts["unilayout.parse"]["value"] > counts["cute.parse"]["value"]  # the front door reads toy texts too


@pytest.mark.parametrize("name", sorted(F.all_parsers()))
@pytest.mark.parametrize("text", [
    "1" * 5000 + ":1", "Sw<1,68719476736,1>", "Sw<1,8589934592,1>", "Sw<1,0,-63> o 1 o 1:1",
    "(d0) -> (d0 * 99696969696969696 * 96)", "(" * 5000 + "1" + ")" * 5000, "d" + "9" * 5000,
    "(d" + "9" * 5000 + ") -> ()", "#tsl.tsl<[" + "9" * 5000 + "] -> (1)>",
    "#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [10000000000000000000]>",
    "(65536, 458752, 524288, 16384, 120)", "\x00", "\ud800", "",
])
def test_the_issue_texts_are_clean_errors_or_values(name, text):
    outcome, detail = F.check_text(F.all_parsers()[name], text, limit=2.0)
    assert outcome in ("value", "clean"), (outcome, F.describe(detail))


_ALPHABET = st.sampled_from(list("0123456789()[]{}<>,:;=-+*x?#_ \n") +
                            ["d0", "d1", "s0", "floordiv", "mod", "ceildiv", "Sw<", " o ", "->", "tensor<", "f32",
                             "#tsl.tsl<", "#tt.metal_layout<", "#ttg.linear<{", "register", "lane", "[[1, 0]]",
                             "undef", "memref<", "#tt.memory_space<l1>", "#tt.grid<", "9223372036854775808"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_free_form_texts_over_the_grammars_alphabet(text):
    for name, parser in PARSERS.items():
        outcome, detail = F.check_text(parser, text, limit=2.0)
        assert outcome in ("value", "clean"), (name, text, outcome, F.describe(detail))


def test_an_alarm_lost_in_an_ignored_callback_still_ends_the_input():
    # as when the alarm lands in hypothesis's gc callback, whose exceptions Python ignores: the first Hang is
    # swallowed, the input runs on, and the re-armed alarm must still end it
    def swallows_the_first_alarm():
        try:
            while True:
                sum(range(1000))
        except F.Hang:
            pass
        start = time.perf_counter()
        while time.perf_counter() - start < 5:  # without a second alarm: "value" after 5 s
            sum(range(1000))

    outcome, _, seconds = F.run_limited(swallows_the_first_alarm, 0.2)
    assert outcome == "hang" and seconds < 2.0
