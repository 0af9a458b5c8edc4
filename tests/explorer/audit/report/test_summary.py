"""The one line ``sphere-explorer audit`` prints, for each kind of log, from summaries written out by hand."""

from __future__ import annotations

from explorer.audit.report.summary import one_line


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


def _lag(at_end: int, misses: int):
    from explorer.audit.report.summary import step_lag_warning

    return step_lag_warning({"false_misses_in_contact_at_end": at_end, "false_misses": misses})


def test_step_lag_is_suspected_only_when_most_false_misses_are_in_contact_at_the_end():
    from pathlib import Path

    assert _lag(0, 5) is None and _lag(3, 6) is None and _lag(0, 0) is None  # half is not most
    assert _lag(4, 6).startswith("4 of the engine's 6 false misses are still in contact ")
    assert _lag(1, 1).startswith("1 of the engine's 1 false miss is still in contact ")
    assert _lag(2, 2).startswith("2 of the engine's 2 false misses are still in contact ")
    words = _lag(4, 6)
    assert "(step lag; see the README, 'Logging from a step-based engine')" in words
    # the project's README: the nearest one above this file but tests/README.md, the tests' own (a mutation run
    # tests a copy one folder deeper)
    readme = next(
        d / "README.md" for d in Path(__file__).resolve().parents if (d / "README.md").is_file() and d.name != "tests"
    )
    readme = readme.read_text(encoding="utf-8")
    assert "\n### Logging from a step-based engine\n" in readme  # the section the warning sends the reader to


def test_infinite_and_missing_numbers_are_written_as_json_can_hold_them():
    from explorer.audit.report.summary import _finite

    value = {"a": [float("inf"), float("-inf"), float("nan"), 1.5, 0.0, -2.0], "b": {"c": float("-inf")}, "d": 3}
    assert _finite(value) == {"a": ["inf", "-inf", None, 1.5, 0.0, -2.0], "b": {"c": "-inf"}, "d": 3}


def test_the_plot_names_the_first_three_worst_cases_and_counts_the_rest():
    from explorer.audit.report.plot import worst_line

    cases = [{"kind": "false hit", "row": 1000 + k, "step": None, "a_id": None, "b_id": None} for k in range(5)]
    assert worst_line([]) == ""
    assert worst_line(cases[:3]) == "Worst: false hit at row 1,000; false hit at row 1,001; false hit at row 1,002"
    assert worst_line(cases[:4]).endswith("false hit at row 1,002 (and 1 more in cases/)")
    assert worst_line(cases).endswith("false hit at row 1,002 (and 2 more in cases/)")


def test_tick_labels_are_powers_of_ten_only_where_the_value_is_one():
    from explorer.audit.report.plot import power_label

    assert power_label(1.0000000005e-6) == "10⁻⁶"  # within the axis' rounding
    assert power_label(1.00001e-6) == "1.00001e-06" and power_label(0.5) == "0.5" and power_label(3e-7) == "3e-07"
