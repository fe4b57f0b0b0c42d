"""unilayout._measures: the measures of an integer table that every family's facts use."""

from unilayout._measures import MAX_TABULATE, table_facts


def test_table_facts_writes_the_four_measures():
    d = {}
    table_facts(d, [0, 1, 2, 3, 8, 9, 10, 11])
    assert d == {"injective": True, "surjective": False, "bijective": False, "contiguity": 4, "longest_run": 4}
    d = {}
    table_facts(d, [1, 0, 1], run=False)
    assert d == {"injective": False, "surjective": True, "bijective": False, "contiguity": 1}
    assert MAX_TABULATE == 1 << 24
