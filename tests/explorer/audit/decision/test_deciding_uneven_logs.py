"""Logs where a swapped counter, an ignored horizon or a fold out of order would show.

The first planted log had exactly 25 false hits and 25 false misses, every row
at horizon 1: swapping the two counters, ignoring the ``horizon`` column or
changing the default horizon passed every test.  Here the plants are uneven
(17 false hits, 9 false misses, 13 TOI errors), the horizons vary row by row
(0.5, 1 and 2; the truth is decided in rationals with each row's own), and one
log has no ``horizon`` column at all (the truth decided at 1).  The chunks of
a log are also folded in a scrambled order in one process, as Dask may deliver
them, and must give what the file order gives.
"""

from __future__ import annotations

import numpy as np
import planted as planted_logs
import pytest
from audit_logs import CHUNK

from explorer.audit.decision.deciding import Settings, audit_chunk
from explorer.audit.decision.tally import OrderedFold
from explorer.audit.run import audit
from explorer.model.formats import scene_io

PLANTS = {"false hit": 17, "false miss": 9, "toi error": 13}


@pytest.fixture(scope="module")
def uneven():
    return planted_logs.make_log(seed=23, false_hits=17, false_misses=9, toi_errors=13, horizons=(0.5, 1.0, 2.0))


@pytest.fixture(scope="module")
def no_horizon():
    log = planted_logs.make_log(seed=29, false_hits=12, false_misses=7, toi_errors=10)
    del log["columns"]["horizon"]
    return log


def _check_against_the_plants(summary: dict, log: dict) -> None:
    assert summary["pairs"] == len(log["hit"])
    assert summary["hits"] == int(log["hit"].sum())
    assert summary["engine_false_hits"] == len(log["planted"]["false hit"])
    assert summary["engine_false_misses"] == len(log["planted"]["false miss"])
    assert summary["engine_toi_errors"] == len(log["planted"]["toi error"])
    found = {kind: sorted(c["row"] for c in summary["worst"] if c["kind"] == kind) for kind in log["planted"]}
    assert found == log["planted"]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".npz"])
def test_uneven_plants_at_varied_horizons(uneven, suffix, tmp_path):
    assert {kind: len(rows) for kind, rows in uneven["planted"].items()} == PLANTS
    horizons = uneven["columns"]["horizon"]
    assert set(np.unique(horizons)) == {0.5, 1.0, 2.0}
    log = tmp_path / f"log{suffix}"
    planted_logs.write_log(log, uneven["columns"], row_group_size=CHUNK)
    summary = audit(log, tmp_path / "out", worst=1000, chunk_rows=CHUNK)
    _check_against_the_plants(summary, uneven)


def test_the_horizon_changes_the_verdicts_in_this_log(uneven):
    """Deciding every row at horizon 1 would disagree with the truth on many rows (else the test above
    could not tell an ignored column)."""
    rows = [list(r) for r in zip(*(uneven["columns"][k] for k in planted_logs.GEOMETRY))]
    at_one = np.array([planted_logs.exact([*row, 1.0])[0] for row in rows])
    assert (at_one != uneven["hit"]).sum() > 100


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".npz"])
def test_a_log_without_a_horizon_column_means_one_time_unit(no_horizon, suffix, tmp_path):
    assert "horizon" not in no_horizon["columns"]
    log = tmp_path / f"log{suffix}"
    planted_logs.write_log(log, no_horizon["columns"], row_group_size=CHUNK)
    summary = audit(log, tmp_path / "out", worst=1000, chunk_rows=CHUNK)
    _check_against_the_plants(summary, no_horizon)
    for case in summary["worst"][:20]:  # the cases open at the horizon the truth was decided with
        assert scene_io.load(tmp_path / "out" / case["file"]).horizon == 1.0


def _chunk_tallies(log: dict) -> list:
    columns = log["columns"]
    n = len(log["hit"])
    return [audit_chunk({name: values[start : start + CHUNK].copy() for name, values in columns.items()},
                        Settings(worst=1000)) for start in range(0, n, CHUNK)]  # fmt: skip


def test_chunks_folded_out_of_order_give_the_file_order_s_totals(uneven):
    """As Dask delivers them: the fold must wait for each earlier chunk, whatever the arrival order."""
    in_order = OrderedFold(1000)
    for i, tally in enumerate(_chunk_tallies(uneven)):
        in_order.add(i, tally)
    rng = np.random.default_rng(3)
    for _ in range(3):
        tallies = _chunk_tallies(uneven)
        scrambled = OrderedFold(1000)
        order = rng.permutation(len(tallies))
        assert list(order) != sorted(order)
        for i in order:
            scrambled.add(int(i), tallies[i])
        assert scrambled.folded == len(tallies) and scrambled.rows_before == len(uneven["hit"])
        total, expected = scrambled.total, in_order.total
        assert [(c.row, c.kind) for c in total.cases] == [(c.row, c.kind) for c in expected.cases]
        assert total.verdicts["engine"].false_hits == len(uneven["planted"]["false hit"])
        assert total.verdicts["engine"].false_misses == len(uneven["planted"]["false miss"])
    found = sorted(c.row for c in in_order.total.cases if c.kind == "false miss")
    assert found == uneven["planted"]["false miss"]
