"""``sphere-explorer audit``'s options: the values each accepts, up to its bounds, and the one line each refusal prints.

The refusals go through the real entry point (:func:`explorer.cli.main`, in this process) and are
checked word for word, as the user reads them: ``PROG: argument OPTION: expected ... (see PROG --help)``.
The accepted values are read back from the audit's own parser, so no log is read.
"""

from __future__ import annotations

import pytest

from explorer.cli import SUBCOMMANDS, main

PROG = "sphere-explorer audit"


def _parsed(*options: str):
    """The audit's parsed arguments for ``LOG -o OUT OPTIONS`` (nothing is run)."""
    return SUBCOMMANDS["audit"]().parse_args(["log.npz", "-o", "out", *options])


def _refusal(capsys, *options: str) -> str:
    """Run ``sphere-explorer audit log.npz -o OUT OPTIONS``; assert exit 2, one line on stderr, none on stdout."""
    code = main(["audit", "log.npz", "-o", "out", *options])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    return err


@pytest.mark.parametrize(
    "option, text, words",
    [
        ("--toi-tol", "0", "expected a positive tolerance, got '0'"),
        ("--toi-tol", "-1e-9", "expected a tolerance in [0, 1e+06], got '-1e-9'"),
        ("--toi-tol", "1000001", "expected a tolerance in [0, 1e+06], got '1000001'"),
        ("--toi-tol", "nan", "expected a tolerance in [0, 1e+06], got 'nan'"),
        ("--toi-tol", "tight", "expected a tolerance, got 'tight'"),
        # the range of solver.limits, in its words
        ("--horizon", "0", "expected a horizon in (0, 1e+06], got '0'"),
        ("--horizon", "1/0", "expected a horizon in (0, 1e+06], got '1/0'"),
        ("--horizon", "1/-60", "expected a horizon in (0, 1e+06], got '1/-60'"),  # a denominator must be positive
        ("--horizon", "-1/-60", "expected a horizon in (0, 1e+06], got '-1/-60'"),
        ("--horizon", "-1/60", "expected a horizon in (0, 1e+06], got '-1/60' (-0.0166667)"),
        ("--horizon", "1000001", "expected a horizon in (0, 1e+06], got '1000001'"),
        # the fraction's value is checked too, and named as computed
        ("--horizon", "2/0.000001", "expected a horizon in (0, 1e+06], got '2/0.000001' (2e+06)"),
        ("--horizon", "1/sixty", "expected a horizon, got 'sixty'"),
        ("--horizon", "one/60", "expected a horizon, got 'one'"),
        ("--horizon", "1/2/3", "expected a horizon, got '2/3'"),  # one fraction bar: the rest is the denominator
        ("--horizon", "inf", "expected a horizon in (0, 1e+06], got 'inf'"),
        ("--horizon", "nan", "expected a horizon in (0, 1e+06], got 'nan'"),
        ("--horizon", "1/inf", "expected a horizon in (0, 1e+06], got '1/inf' (0)"),
        ("--horizon", "1/5e-324", "expected a horizon in (0, 1e+06], got '1/5e-324' (inf)"),
        ("--worst", "-1", "expected a count in [0, 1000], got '-1'"),
        ("--worst", "1001", "expected a count in [0, 1000], got '1001'"),
        ("--worst", "2.5", "expected a count, got '2.5'"),
        ("--chunk-rows", "999", "expected a row count in [1000, 1.67772e+07], got '999'"),
        ("--chunk-rows", "16777217", "expected a row count in [1000, 1.67772e+07], got '16777217'"),
        ("--workers", "0", "expected a worker count in [1, 256], got '0'"),
        ("--workers", "257", "expected a worker count in [1, 256], got '257'"),
        ("--dask", " ", "expected a scheduler address such as tcp://host:8786, got an empty one"),
        # what Python's int() and float() take but a typed option is not: underscores, spaces, other scripts' digits
        ("--worst", "1_0", "expected a count, got '1_0'"),
        ("--worst", "+5", "expected a count, got '+5'"),
        ("--worst", "\u0663", "expected a count, got '\u0663'"),
        ("--chunk-rows", "10_000", "expected a row count, got '10_000'"),
        ("--chunk-rows", " 5000", "expected a row count, got ' 5000'"),
        ("--workers", "\uff12", "expected a worker count, got '\uff12'"),
        ("--toi-tol", "1_0", "expected a tolerance, got '1_0'"),
        ("--toi-tol", "1e-6 ", "expected a tolerance, got '1e-6 '"),
        ("--horizon", "1_0", "expected a horizon, got '1_0'"),
        ("--horizon", "1/6_0", "expected a horizon, got '6_0'"),
        ("--horizon", "\u0661/60", "expected a horizon, got '\u0661'"),
    ],
)
def test_a_bad_value_is_refused_in_one_line_naming_the_option(capsys, option, text, words):
    err = _refusal(capsys, f"{option}={text}")  # "=": argparse would read "-1e-9" alone as an option
    assert err == f"{PROG}: argument {option}: {words} (see {PROG} --help)\n"


@pytest.mark.parametrize(
    "options, name, value",
    [
        ((), "toi_tol", 1e-6),  # the documented default
        (("--toi-tol", "1e6"), "toi_tol", 1e6),  # the bounds are accepted
        (("--toi-tol", "5e-324"), "toi_tol", 5e-324),
        ((), "horizon", None),  # no --horizon: the log's column, or 1
        (("--horizon", "1/60"), "horizon", 1 / 60),
        (("--horizon", "1e6"), "horizon", 1e6),
        (("--horizon", "3/4"), "horizon", 0.75),
        (("--horizon", "0.016"), "horizon", 0.016),
        ((), "worst", 20),
        (("--worst", "0"), "worst", 0),
        (("--worst", "1000"), "worst", 1000),
        ((), "chunk_rows", 1 << 20),
        (("--chunk-rows", "1000"), "chunk_rows", 1000),
        (("--chunk-rows", "16777216"), "chunk_rows", 1 << 24),
        ((), "workers", None),
        (("--workers", "1"), "workers", 1),
        (("--workers", "256"), "workers", 256),
        (("--dask", "tcp://host:8786"), "dask", "tcp://host:8786"),
    ],
)
def test_good_values_and_the_defaults_are_taken_as_given(options, name, value):
    parsed = getattr(_parsed(*options), name)
    assert parsed == value and type(parsed) is type(value)


def test_dask_and_workers_exclude_each_other(capsys):
    err = _refusal(capsys, "--dask", "tcp://host:8786", "--workers", "2")
    assert err == f"{PROG}: argument --workers: not allowed with argument --dask (see {PROG} --help)\n"
