#!/usr/bin/env python
"""Benchmark of ``sphere-explorer audit``: end-to-end throughput, memory, and Dask scaling.

Run from the repository root with the test extra installed (pyarrow, Dask)::

    .venv/bin/python benchmarks/bench_audit.py [--dir SCRATCH] [--json out.json]

One run measures, on this machine:

1. **end to end** on a ``--e2e`` (1e7) pair Parquet log with engine columns:
   reading, checking, deciding every pair, comparing, writing OUTDIR; pairs/s
   (median of ``--repeats`` in-process runs of :func:`explorer.audit.run.audit`,
   warm page cache), the CPU time of all threads, and the share of the time
   spent reading (pyarrow, in the reader thread) vs deciding (main thread),
   plus the same on a log without engine columns (the textbook formula in
   float32 and float64 is then evaluated too), and ``sweep_many`` alone on the
   same pairs already in memory;
2. **peak memory** (max RSS of a fresh process running the command) on a
   ``--big`` (1e8) pair log of the 14 geometry columns;
3. **Dask**: the same 1e8 log on a local cluster of 1 and of 2 worker
   processes (``--workers``): wall time of the computation (cluster start-up
   reported apart), median of ``--dask-repeats``;
4. **the command line** (issue 53): ``sphere-explorer audit LOG -o OUT -q`` in
   a fresh process, as a user runs it, on the ``--e2e`` log and on a ``--small``
   (1e6) one cut from the same seed, each ``--cli-repeats`` times (median), and
   the *marginal* rate: the extra rows over the extra wall time, which leaves
   out what every run pays once (Python's start, the imports, numba's cache,
   the picture); beside it, pyarrow alone reading the same columns of both logs.
   With ``--previous`` the other checkout's command runs in turn with this one's,
   so both see the same load.

The logs are generated in chunks into ``--dir`` (seeded like
``bench_solver.py``: centres uniform in [-5, 5]^3, velocities N(0, 3^2), radii
U(0.1, 2), horizon 1; the "engine" answers are the textbook formula in
float32, a plausible game engine) and deleted at the end unless ``--keep``.
The 1e8 log takes about 11 GB: the script checks the free space first.
Other processes on the machine distort the figures; the load average at start
and end is printed, and every figure is a median.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import fmt_table, machine_info, median  # noqa: E402  (the solver benchmark's helpers)
from previous import ISSUE_17, QUOTED, run_previous  # noqa: E402

from explorer.audit.decision.textbook import textbook_many  # noqa: E402
from explorer.audit.log.columns import GEOMETRY  # noqa: E402
from explorer.audit.run import audit  # noqa: E402

#: Rows per generated chunk and per Parquet row group.
GROUP = 1 << 20
#: Bytes per row of the geometry-only log, and with the two engine columns.
ROW_BYTES = 14 * 8


def _chunk(rng, n: int, engine: bool) -> dict:
    centres = rng.uniform(-5.0, 5.0, (6, n))
    velocities = rng.normal(0.0, 3.0, (6, n))
    radii = rng.uniform(0.1, 2.0, (2, n))
    columns = {}
    for k, body in enumerate("ab"):
        for j, axis in enumerate("xyz"):
            columns[f"{body}_c{axis}"] = centres[3 * k + j]
            columns[f"{body}_v{axis}"] = velocities[3 * k + j]
        columns[f"{body}_r"] = radii[k]
    columns = {name: np.ascontiguousarray(columns[name]) for name in GEOMETRY}
    if engine:
        stack = lambda *names: np.ascontiguousarray(np.stack([columns[x] for x in names], axis=1))  # noqa: E731
        answers = textbook_many(
            stack("a_cx", "a_cy", "a_cz"), stack("a_vx", "a_vy", "a_vz"), columns["a_r"],
            stack("b_cx", "b_cy", "b_cz"), stack("b_vx", "b_vy", "b_vz"), columns["b_r"], np.ones(n),
        )  # fmt: skip
        hit, toi = answers["float32"]
        columns["engine_hit"] = hit
        columns["engine_toi"] = toi
    return columns


def generate(path: Path, pairs: int, engine: bool, seed: int) -> float:
    """Write a seeded Parquet log of ``pairs`` rows in row groups of GROUP; return seconds taken."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    writer = None
    try:
        for first in range(0, pairs, GROUP):
            table = pa.table(_chunk(rng, min(GROUP, pairs - first), engine))
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema)
            writer.write_table(table, row_group_size=GROUP)
    finally:
        if writer is not None:
            writer.close()
    return time.perf_counter() - start


def _fresh(base: Path, name: str) -> Path:
    out = base / name
    shutil.rmtree(out, ignore_errors=True)
    return out


def end_to_end(log: Path, scratch: Path, repeats: int) -> dict:
    """Median wall time, pairs/s and read/decide split of ``repeats`` in-process audits (after one warm-up)."""
    return aggregate(audit_runs(log, scratch, repeats))


def audit_runs(log: Path, scratch: Path, repeats: int, warm: bool = True) -> list[dict]:
    """``repeats`` in-process audits of ``log`` (after one warm-up unless ``warm`` is False): each run's wall
    time, CPU time of all threads and of the main thread (which decides the rows; a reader thread reads them),
    the summary's ``run`` and what :func:`aggregate` reports of the answers."""
    runs = []
    for i in range(repeats + int(warm)):
        t, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
        summary = audit(log, _fresh(scratch, "out-e2e"), quiet=True)
        wall, cpu, main = time.perf_counter() - t, time.process_time() - cpu, time.thread_time() - main
        if i or not warm:  # the first run warms the page cache and numba's cache
            runs.append({"wall": wall, "cpu": cpu, "main_cpu": main, "run": summary["run"], "rows": summary["rows"],
                         "disagreements": {k: summary[k] for k in ("engine_false_hits", "engine_false_misses",
                                                                   "engine_toi_errors")},
                         "textbook": summary["textbook"] and {
                             k: {x: v[x] for x in ("false_hits", "false_misses", "toi_errors")}
                             for k, v in summary["textbook"].items()}})  # fmt: skip
    return runs


def aggregate(runs: list[dict]) -> dict:
    """Medians of :func:`audit_runs`' runs."""
    walls = [r["wall"] for r in runs]
    cpus = [r["cpu"] for r in runs]
    read = [r["run"]["read_seconds"] for r in runs]
    decide = [r["run"]["decide_seconds"] for r in runs]
    pairs = runs[-1]["rows"]
    return {
        "pairs": pairs,
        "wall_median_s": median(walls),
        "wall_min_s": min(walls),
        "pairs_per_s_median": pairs / median(walls),
        "read_s_median": median(read),
        "decide_s_median": median(decide),
        "read_share": median(read) / (median(read) + median(decide)),
        "cpu_s_median": median(cpus),
        "main_cpu_s_median": median([r["main_cpu"] for r in runs]),
        "pairs_per_cpu_s": pairs / median(cpus),
        "walls": walls,
        "disagreements": runs[-1]["disagreements"],
        "textbook": runs[-1]["textbook"],
    }


def paired_end_to_end(log: Path, scratch: Path, repeats: int, previous: Path) -> tuple[dict, dict]:
    """[1] for this tree and ``--previous`` in turn, round by round (one run of each a round, after a warm-up of
    each), so that both see the same load; returns both :func:`aggregate` results."""
    this, before = audit_runs(log, scratch, 0), []
    run_previous(previous, "bench_audit", "previous_runs", log=str(log), scratch=str(scratch), repeats=0)
    for _ in range(repeats):
        this += audit_runs(log, scratch, 1, warm=False)
        before += run_previous(previous, "bench_audit", "previous_runs", log=str(log), scratch=str(scratch),
                               repeats=1)["runs"]  # fmt: skip
    return aggregate(this), aggregate(before)


def pyarrow_alone(log: Path, repeats: int) -> dict:
    """Median seconds pyarrow takes to read the log's columns, in this run, for the audit's ratio to it.

    Three ways: whole row groups in one thread (the baseline since issue 17 was filed); the same with
    pyarrow's thread pool; and as the audit's reader does since, whole row groups in one thread from a
    map of the file (:mod:`explorer.audit.log.mapping`, each group's pages given back once it is decoded),
    converted to numpy.
    """
    import pyarrow.parquet as pq

    from explorer.audit.log.mapping import column_bytes, mapped

    def read(threads: bool) -> float:
        start = time.perf_counter()
        with pq.ParquetFile(log, pre_buffer=False) as handle:
            names = handle.schema_arrow.names
            for i in range(handle.metadata.num_row_groups):
                handle.read_row_group(i, columns=names, use_threads=threads)
        return time.perf_counter() - start

    def read_mapped() -> float:
        start = time.perf_counter()
        with mapped(log) as source, pq.ParquetFile(source.source, pre_buffer=False) as handle:
            names = handle.schema_arrow.names
            for i in range(handle.metadata.num_row_groups):
                table = handle.read_row_group(i, columns=names, use_threads=False)
                for k in range(len(names)):
                    table.column(k).to_numpy()
                for k in range(len(names)):  # after the whole group, as the audit's reader gives them back
                    source.release(*column_bytes(handle.metadata.row_group(i).column(k)))
        return time.perf_counter() - start

    read(False)  # page cache
    one = [read(False) for _ in range(repeats)]
    pool = [read(True) for _ in range(repeats)]
    by_group = [read_mapped() for _ in range(repeats)]
    return {"one_thread_s_median": median(one), "thread_pool_s_median": median(pool),
            "mapped_groups_s_median": median(by_group), "one_thread_runs": one}  # fmt: skip


def previous_end_to_end(log: str, scratch: str, repeats: int) -> dict:
    """:func:`end_to_end` for ``--previous`` (run on that checkout by :func:`previous.run_previous`)."""
    return end_to_end(Path(log), Path(scratch), repeats)


def previous_runs(log: str, scratch: str, repeats: int) -> dict:
    """:func:`audit_runs` for ``--previous``, a warm-up and ``repeats`` runs (run on that checkout in a fresh process
    by :func:`previous.run_previous`: the warm-up loads numba's cache and the plot's modules, as a user's run would)."""
    return {"runs": audit_runs(Path(log), Path(scratch), repeats)}


def solve_only(pairs: int, seed: int, repeats: int) -> dict:
    """``sweep_many`` alone on the same kind of pairs, in memory (chunks of GROUP)."""
    from solver import sweep_many

    rng = np.random.default_rng(seed)
    c = _chunk(rng, GROUP, False)
    stack = lambda *names: np.ascontiguousarray(np.stack([c[x] for x in names], axis=1))  # noqa: E731
    args = (stack("a_cx", "a_cy", "a_cz"), stack("a_vx", "a_vy", "a_vz"), c["a_r"],
            stack("b_cx", "b_cy", "b_cz"), stack("b_vx", "b_vy", "b_vz"), c["b_r"], 1.0)  # fmt: skip
    sweep_many(*args)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        sweep_many(*args)
        times.append(time.perf_counter() - t)
    return {"pairs_per_s_median": GROUP / median(times)}


def command_line(logs: dict[int, Path], scratch: Path, repeats: int, previous: Path | None) -> dict:
    """Median wall time of ``sphere-explorer audit`` in a fresh process per log size (and per tree, in turn).

    Returns ``{"this": {...}, "previous": {...}}``, each with ``walls`` (size -> seconds of each run),
    ``median_s`` (size -> median) and ``marginal_pairs_per_s`` (the rows between the smallest and the
    largest log over the wall time between them); plus ``pyarrow`` (size -> median seconds of pyarrow alone
    reading the log's columns in one thread) and its marginal rate.
    """
    trees = {"this": ROOT} | ({"previous": Path(previous).resolve()} if previous is not None else {})
    code = "import sys; from explorer.cli import main; sys.exit(main(sys.argv[1:]))"
    env = {k: v for k, v in os.environ.items() if k != "SPHERE_SOLVER_JIT"}

    def run(tree: Path, log: Path) -> float:
        out = _fresh(scratch, "out-cli")
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code, "audit", str(log), "-o", str(out), "-q"],
                              env=env | {"PYTHONPATH": str(tree)}, cwd=tree, capture_output=True, text=True)  # fmt: skip
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"the audit failed in {tree}: {proc.stderr.strip()[-2000:]}")
        return wall

    walls = {name: {n: [] for n in logs} for name in trees}
    for tree in trees.values():  # warm-up: numba's cache, the page cache
        run(tree, logs[min(logs)])
    for _ in range(repeats):
        for name, tree in trees.items():
            for n, log in logs.items():
                walls[name][n].append(run(tree, log))
    small, big = min(logs), max(logs)
    out = {}
    for name, runs in walls.items():
        medians = {n: median(w) for n, w in runs.items()}
        out[name] = {"walls": runs, "median_s": medians,
                     "marginal_pairs_per_s": (big - small) / (medians[big] - medians[small])}  # fmt: skip
    read = {n: pyarrow_alone(log, repeats)["one_thread_s_median"] for n, log in logs.items()}
    out["pyarrow"] = {"median_s": read, "marginal_rows_per_s": (big - small) / (read[big] - read[small])}
    return out


def peak_memory(log: Path, scratch: Path) -> dict:
    """Max RSS of a fresh process running ``sphere-explorer audit`` on ``log``."""
    code = (
        "import sys; from explorer.cli import main; "
        f"sys.exit(main(['audit', {str(log)!r}, '-o', {str(_fresh(scratch, 'out-mem'))!r}, '-q']))"
    )
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"the audit failed: {err}")
    summary = json.loads((scratch / "out-mem" / "summary.json").read_text())
    return {"max_rss_mb": usage.ru_maxrss / 1024, "wall_s": wall, "pairs": summary["rows"],
            "pairs_per_s": summary["rows"] / wall, "summary_line": out.splitlines()[0]}  # fmt: skip


def dask_scaling(log: Path, scratch: Path, workers: list[int], repeats: int) -> dict:
    """Median compute time on local clusters of each size (cluster start-up reported apart)."""
    out = {}
    for n in workers:
        computes, starts = [], []
        for _ in range(repeats):
            summary = audit(log, _fresh(scratch, f"out-dask{n}"), workers=n, quiet=True)
            computes.append(summary["run"]["compute_seconds"])
            starts.append(summary["run"]["cluster_seconds"])
        pairs = summary["rows"]
        out[n] = {"compute_s_median": median(computes), "computes": computes, "cluster_start_s_median": median(starts),
                  "pairs_per_s": pairs / median(computes), "chunks": summary["run"]["chunks"]}  # fmt: skip
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=None, help="scratch folder for the logs (default: a temp dir in /tmp)")
    ap.add_argument("--e2e", type=float, default=1e7, help="pairs of the end-to-end log (default 1e7)")
    ap.add_argument("--big", type=float, default=1e8, help="pairs of the memory and Dask log (default 1e8)")
    ap.add_argument("--repeats", type=int, default=5, help="end-to-end runs after the warm-up (default 5)")
    ap.add_argument("--dask-repeats", type=int, default=3, help="runs per cluster size (default 3)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="cluster sizes (default 1 2)")
    ap.add_argument("--skip-big", action="store_true", help="skip the 1e8 log (memory and Dask)")
    ap.add_argument("--small", type=float, default=1e6, help="pairs of the smaller log of [4] (default 1e6)")
    ap.add_argument("--cli-repeats", type=int, default=5, help="runs of each command of [4] (default 5)")
    ap.add_argument("--skip-cli", action="store_true", help="skip [4], the command line's marginal rate")
    ap.add_argument("--keep", action="store_true", help="keep the generated logs")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--json", type=Path, default=None, help="also write the results as JSON")
    ap.add_argument(
        "--previous",
        type=Path,
        default=None,
        help="also measure [1] on another checkout (e.g. main), in a subprocess of this run",
    )
    args = ap.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="bench-audit-", dir=args.dir))
    e2e, big = int(args.e2e), int(args.big)
    need = (e2e * (ROW_BYTES + 9) + e2e * ROW_BYTES + (0 if args.skip_big else big * ROW_BYTES)) * 1.05
    free = shutil.disk_usage(scratch).free
    if need > free:
        raise SystemExit(
            f"need about {need / 1e9:.1f} GB in {scratch}, {free / 1e9:.1f} GB free (use --dir or --skip-big)"
        )
    info = machine_info()
    import dask
    import distributed
    import pyarrow

    info.update(pyarrow=pyarrow.__version__, dask=dask.__version__, distributed=distributed.__version__,
                ram_gb=os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e9)  # fmt: skip
    results: dict = {"machine": info, "arguments": {k: str(v) for k, v in vars(args).items()}}
    try:
        engine_log, plain_log, big_log = scratch / "engine.parquet", scratch / "plain.parquet", scratch / "big.parquet"
        results["generate_s"] = {"engine": generate(engine_log, e2e, True, args.seed),
                                 "plain": generate(plain_log, e2e, False, args.seed)}  # fmt: skip
        for key, log in (("e2e_engine", engine_log), ("e2e_plain", plain_log)):
            if args.previous is None:
                results[key] = end_to_end(log, scratch, args.repeats)
            else:
                results[key], results.setdefault("previous", {})[key] = paired_end_to_end(
                    log, scratch, args.repeats, args.previous
                )
            results["pyarrow_" + key.split("_")[1]] = pyarrow_alone(log, args.repeats)
        results["solve_only"] = solve_only(e2e, args.seed, 7)
        if not args.skip_cli:
            small_log = scratch / "engine-small.parquet"
            results["generate_s"]["small"] = generate(small_log, int(args.small), True, args.seed)
            results["cli"] = command_line({int(args.small): small_log, e2e: engine_log}, scratch, args.cli_repeats,
                                          args.previous)  # fmt: skip
            if not args.keep:
                small_log.unlink()
        for log in (engine_log, plain_log):
            if not args.keep:
                log.unlink()
        if not args.skip_big:
            results["generate_s"]["big"] = generate(big_log, big, False, args.seed + 1)
            results["big_log_gb"] = big_log.stat().st_size / 1e9
            results["memory"] = peak_memory(big_log, scratch)
            results["dask"] = dask_scaling(big_log, scratch, args.workers, args.dask_repeats)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    try:
        results["loadavg_at_end"] = os.getloadavg()
    except OSError:
        results["loadavg_at_end"] = None
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str) + "\n")
    return 0


def report(res: dict) -> None:
    m = res["machine"]
    rows = [
        ["date", m["date"]],
        ["cpu", m["cpu_model"]],
        ["cpus (logical / usable)", f"{m['logical_cpus']} / {m['usable_cpus']}"],
        ["RAM", f"{m['ram_gb']:.1f} GB"],
        [
            "load average at start / end",
            f"{' '.join(f'{x:.2f}' for x in m['loadavg_at_start'] or [])} / "
            f"{' '.join(f'{x:.2f}' for x in res['loadavg_at_end'] or [])}",
        ],  # fmt: skip
        ["python / numpy / numba", f"{m['python']} / {m['numpy']} / {m['numba']}"],
        ["pyarrow / dask / distributed", f"{m['pyarrow']} / {m['dask']} / {m['distributed']}"],
        ["solver sources sha256[:16]", m["solver_sha256_16"]],
        ["arguments", " ".join(f"{k}={v}" for k, v in res["arguments"].items())],
    ]
    print(fmt_table(["", ""], rows, "sphere-explorer audit benchmark"))
    e2e_rows = []
    previous = res.get("previous") or {}
    for key, label in (("e2e_engine", "engine columns (16)"), ("e2e_plain", "geometry only (14, + textbook f32/f64)")):
        r = res[key]
        alone = res["pyarrow_" + key.split("_")[1]]["one_thread_s_median"]
        as_audit = res["pyarrow_" + key.split("_")[1]].get("mapped_groups_s_median", math.nan)
        if previous:
            before = previous[key]["pairs_per_s_median"] / 1e6
        else:
            before = ISSUE_17["audit_mpairs_per_s"] if key == "e2e_engine" else "-"
        e2e_rows.append([label, r["pairs"], r["wall_median_s"], r["pairs_per_s_median"] / 1e6, before,
                         r["read_s_median"], r["decide_s_median"], f"{100 * r['read_share']:.0f}%", alone,
                         r["wall_median_s"] / alone, as_audit, r["wall_median_s"] / as_audit])  # fmt: skip
    print(fmt_table(["1e7-pair Parquet log", "pairs", "wall s (median)", "M pairs/s", "previous M pairs/s", "read s",
                     "decide s", "read share", "pyarrow alone s", "wall / pyarrow", "pyarrow mapped s",
                     "wall / mapped"], e2e_rows,
                    "[1] end to end, one process (issue 17's target: >= 15 M pairs/s, "
                    "or wall <= 1.3x pyarrow alone)"))  # fmt: skip
    source = "the --previous checkout, measured in this run" if previous else QUOTED
    print(
        f"    previous: {source}; pyarrow alone: the same columns read row group by row group in one thread; "
        f"pyarrow mapped: row group by row group from a map of the file, to numpy, as the audit's reader does; "
        f"whole row groups with pyarrow's thread pool: "
        f"{res['pyarrow_engine']['thread_pool_s_median']:.3f} s and "
        f"{res['pyarrow_plain']['thread_pool_s_median']:.3f} s"
    )
    for key, label in (("e2e_engine", "engine"), ("e2e_plain", "geometry only")):
        r = res[key]
        before = previous.get(key, {})
        print(
            f"    {label}: {r['cpu_s_median']:.2f} CPU s (all threads) = {r['pairs_per_cpu_s'] / 1e6:.1f} M pairs per CPU second,"
            f" of which the main thread (deciding) {r.get('main_cpu_s_median', math.nan):.2f}"
            + (f" (previous: {before['cpu_s_median']:.2f}, main {before.get('main_cpu_s_median', math.nan):.2f})"
               if before else "")
            + f"; runs: {' '.join(f'{w:.2f}' for w in r['walls'])} s"
            + (f", previous: {' '.join(f'{w:.2f}' for w in before['walls'])} s" if before else "")
        )  # fmt: skip
    print(f"    sweep_many alone, pairs in memory: {res['solve_only']['pairs_per_s_median'] / 1e6:.1f} M pairs/s")
    print(f"    engine log disagreements (float32 engine): {res['e2e_engine']['disagreements']}\n")
    if "cli" in res:
        print(cli_table(res["cli"]))
    if "memory" in res:
        r = res["memory"]
        print(fmt_table(["log", "pairs", "GB on disk", "max RSS MB", "wall s", "M pairs/s"],
                        [["geometry only (14 columns)", r["pairs"], res["big_log_gb"], r["max_rss_mb"], r["wall_s"],
                          r["pairs_per_s"] / 1e6]], "[2] peak memory, fresh process (target < 1024 MB)"))  # fmt: skip
    if "dask" in res:
        d = res["dask"]
        base = d[min(d)]["compute_s_median"]
        rows = [[f"{n} worker(s)", v["chunks"], v["cluster_start_s_median"], v["compute_s_median"], v["pairs_per_s"] / 1e6,
                 base / v["compute_s_median"]] for n, v in sorted(d.items())]  # fmt: skip
        print(fmt_table(["local cluster", "partitions", "start s", "compute s (median)", "M pairs/s", "speed-up"],
                        rows, "[3] Dask, 1e8 pairs (target: 2 workers >= 1.5x one)"))  # fmt: skip


def cli_table(cli: dict) -> str:
    """Section [4]: the command line's wall times, its marginal rate, and pyarrow's, for each tree measured."""
    sizes = sorted(cli["pyarrow"]["median_s"], key=int)
    read = cli["pyarrow"]
    rows = []
    for name in ("previous", "this"):
        if name not in cli:
            continue
        r = cli[name]
        marginal_s = 1.0 / r["marginal_pairs_per_s"]
        rows.append([name, *(r["median_s"][n] for n in sizes), r["marginal_pairs_per_s"] / 1e6,
                     marginal_s * read["marginal_rows_per_s"],
                     " / ".join(" ".join(f"{w:.2f}" for w in r["walls"][n]) for n in sizes)])  # fmt: skip
    rows.append(["pyarrow alone (one thread)", *(read["median_s"][n] for n in sizes), read["marginal_rows_per_s"] / 1e6,
                 1.0, ""])  # fmt: skip
    return fmt_table(["tree", *(f"wall s, {int(n):.0e} rows" for n in sizes), "marginal M pairs/s",
                      "marginal / reading", "runs (s)"], rows,
                     "[4] the command line, a fresh process per run (issue 53's target: >= 30 M pairs/s marginal, "
                     "or <= 1.3x the time to read the columns)")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
