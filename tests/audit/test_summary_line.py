"""The one line ``sphere-explorer audit`` prints, for each kind of log, from summaries written out by hand."""

from __future__ import annotations

from explorer.audit.summary import one_line


def answers(false_hits, false_misses, toi_errors):
    return {"false_hits": false_hits, "false_misses": false_misses, "toi_errors": toi_errors}


def test_a_log_with_the_engines_verdicts_and_times():
    summary = {"pairs": 6000, "hits": 1542, "engine_false_hits": 25, "answers": {"engine": answers(25, 1, 3)},
               "textbook": None, "skipped_rows": 0}  # fmt: skip
    assert one_line(summary) == "6,000 pairs decided, 1,542 hits; engine: 25 false hits, 1 false miss, 3 TOI errors"


def test_a_log_with_verdicts_and_no_times_says_nothing_of_times():
    summary = {"pairs": 1, "hits": 1, "engine_false_hits": 0, "answers": {"engine": answers(0, 2, None)},
               "textbook": None, "skipped_rows": 3}  # fmt: skip
    assert one_line(summary) == "1 pair decided, 1 hit; engine: 0 false hits, 2 false misses; 3 rows skipped"


def test_a_log_of_geometry_alone_gives_both_textbook_formulas():
    summary = {"pairs": 10, "hits": 0, "engine_false_hits": None, "answers": {},
               "textbook": {"float64": answers(0, 0, 0), "float32": answers(1, 0, 2)}, "skipped_rows": 1}  # fmt: skip
    assert one_line(summary) == (
        "10 pairs decided, 0 hits; textbook float64: 0 false hits, 0 false misses, 0 TOI errors; "
        "textbook float32: 1 false hit, 0 false misses, 2 TOI errors; 1 row skipped"
    )
