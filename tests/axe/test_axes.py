"""axe.axes: the axes TIRx registers, with their kinds and scopes, as TIRx answered them."""

from unilayout import axe

from ._facts import FACTS


def test_every_axis_tirx_registers_is_known_with_its_kind_backend_and_scopes():
    got = {a: i._asdict() for a, i in axe.AXES.items()}
    assert got == {d["name"]: d for d in FACTS["axes"]}


def test_kind_of_an_unregistered_name_is_unknown():
    assert [axe.kind(a) for a in ("laneid", "TLane", "lane")] == ["thread", "memory", "unknown"]
