#!/usr/bin/env python
"""Cold start: how long each way into the project takes the first time, as a new user meets it.

Run from the repository root with the test extra installed::

    .venv/bin/python benchmarks/bench_cold_start.py [--previous CHECKOUT] [--repeats 3] [--json out.json]

Each entry point runs in a fresh process from the shell's point of view (the
wall time from starting the process to its exit; for the window, to its first
3-D frame), first **cold** then **warm**:

* cold: a fresh copy of ``solver/``, ``explorer/`` and ``scenes/`` (no
  ``__pycache__``: Python compiles the sources, as on a fresh checkout) and an
  empty numba cache (``NUMBA_CACHE_DIR`` set to a new folder): everything numba
  needs is compiled in that process;
* warm: the same copy and cache again, ``--repeats`` times (median): numba
  loads the machine code it cached.

The entry points: the first ``sweep()``; the first ``sweep_many()`` on 1,000
random pairs and on 1,000 exact tangent grazes (pairs the float filter cannot
decide: the exact stage); the first ``simulate()`` (the 16-ball break of
``bench_motion.py``, whose touching rack needs the exact stage too);
``sphere-explorer audit`` on a 2,000-row Parquet log with engine columns, half
of it exact tangent grazes; the window (``sphere-explorer``, to its first
frame; needs a display, or Xvfb, which the script starts); and the
compiled exact stage itself (``sweep_many()`` on 6,000 grazes, more than the plain
Python copy's share: what a process pays once it has met enough such pairs,
see ``solver/_compile.py``).

``--previous CHECKOUT`` measures another checkout the same way, beside (for
example ``git worktree add /tmp/prev 001ca0b``; its exact stage took minutes
to compile).  Without it the previous column quotes issue 17's figures for
main at 001ca0b on the same kind of machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_audit import _chunk  # noqa: E402  (the audit benchmark's seeded pairs)
from bench_solver import fmt_table, machine_info, make_touching, median  # noqa: E402
from previous import ISSUE_17, QUOTED  # noqa: E402

#: The packages and data a checkout needs at run time.
TREE = ("solver", "explorer", "scenes")

#: Issue 17's cold figures for main at 001ca0b (seconds), when no --previous checkout is measured.
QUOTED_COLD = {
    "sweep": ISSUE_17["cold_sweep_s"],
    "sweep_many": ISSUE_17["cold_sweep_many_s"],
    "sweep_many_grazes": ISSUE_17["cold_sweep_many_grazes_s"],
    "audit": ISSUE_17["cold_audit_2000_rows_s"],
}

_GRAZES = """
def grazes(n):
    # A moving along x at speeds 1..n, B at rest 2 off its path: exact tangents (radii 1 + 1)
    a_velocity = np.zeros((n, 3))
    a_velocity[:, 0] = np.arange(1, n + 1)
    b_center = np.tile([5.0, 2.0, 0.0], (n, 1))
    return np.zeros((n, 3)), a_velocity, 1.0, b_center, np.zeros((n, 3)), 1.0
"""

#: name -> (label, Python code run with ``python -c``).
SCRIPTS = {
    "sweep": (
        "first sweep()",
        "from solver import Body, sweep\nsweep(Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0)), 1.0)",
    ),
    "sweep_many": (
        "first sweep_many(), 1,000 random pairs",
        "import numpy as np\nfrom solver import sweep_many\nrng = np.random.default_rng(1)\nn = 1000\n"
        "sweep_many(rng.uniform(-5, 5, (n, 3)), rng.normal(0, 3, (n, 3)), rng.uniform(0.1, 2, n),\n"
        "           rng.uniform(-5, 5, (n, 3)), rng.normal(0, 3, (n, 3)), rng.uniform(0.1, 2, n), 1.0)",
    ),
    "sweep_many_grazes": (
        "first sweep_many(), 1,000 exact tangent grazes",
        f"import numpy as np\nfrom solver import sweep_many\n{_GRAZES}\n"
        "r = sweep_many(*grazes(1000))\nassert r.exact.all()",
    ),
    "simulate": (
        "first simulate(), 16-ball break (touching rack)",
        f"import sys\nsys.path.insert(0, {str(HERE)!r})\nfrom bench_motion import rack\nfrom solver import simulate\n"
        "simulate(rack(), 1.0)",
    ),
    "exact_stage": (
        "sweep_many(), 6,000 grazes (compiles the exact stage)",
        f"import numpy as np\nfrom solver import sweep_many\n{_GRAZES}\n"
        "r = sweep_many(*grazes(6000))  # more than the plain Python copy's share: the compiled stage\n"
        "import sys\nassert 'solver._refine' in sys.modules and r.exact.all()",
    ),
}
#: The console script's entry points, measured by command line.
COMMANDS = {"audit": "sphere-explorer audit, 2,000-row log (half grazes)", "window": "the window, to its first frame"}


def write_log(path: Path, seed: int) -> None:
    """A 2,000-row Parquet log with engine columns: 1,000 random pairs, then 1,000 exact tangent grazes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from explorer.audit.decision.textbook import textbook_many
    from explorer.audit.log.columns import GEOMETRY

    columns = _chunk(np.random.default_rng(seed), 1000, True)
    hard = make_touching("tangent", 1000, seed)
    names = [name for name in GEOMETRY]
    values = {name: [columns[name]] for name in names}
    for body in "ab":
        for j, axis in enumerate("xyz"):
            values[f"{body}_c{axis}"].append(hard[f"c{body}"][:, j])
            values[f"{body}_v{axis}"].append(hard[f"v{body}"][:, j])
        values[f"{body}_r"].append(hard[f"r{body}"])
    table = {name: np.concatenate(parts) for name, parts in values.items()}
    answers = textbook_many(hard["ca"], hard["va"], hard["ra"], hard["cb"], hard["vb"], hard["rb"], hard["h"])[
        "float32"
    ]  # the engine: the textbook formula in float32
    table["horizon"] = np.concatenate([np.ones(1000), hard["h"]])
    table["engine_hit"] = np.concatenate([columns["engine_hit"], answers[0]])
    table["engine_toi"] = np.concatenate([columns["engine_toi"], answers[1]])
    pq.write_table(pa.table(table), path)


def fresh_tree(source: Path, base: Path, name: str) -> Path:
    """A copy of ``source``'s packages and scenes under ``base/name`` without any ``__pycache__``."""
    out = base / name
    shutil.rmtree(out, ignore_errors=True)
    for part in TREE:
        shutil.copytree(source / part, out / part, ignore=shutil.ignore_patterns("__pycache__"))
    return out


class Runner:
    """Runs entry points of one checkout in fresh processes, cold and warm."""

    def __init__(self, source: Path, scratch: Path, label: str, log: Path, display: str | None) -> None:
        self.source, self.scratch, self.label, self.log, self.display = source, scratch, label, log, display
        self.exe = Path(sys.executable).with_name("sphere-explorer")

    def env(self, tree: Path, cache: Path) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != "SPHERE_SOLVER_JIT"}
        env.update(PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))
        return env

    def once(self, name: str, tree: Path, cache: Path) -> tuple[float, float]:
        """Wall and CPU seconds of one fresh process running entry point ``name``."""
        env = self.env(tree, cache)
        out = self.scratch / f"out-{self.label}"
        shutil.rmtree(out, ignore_errors=True)
        if name == "window":
            return self._window(env)
        if name == "audit":
            command = [str(self.exe), "audit", str(self.log), "-o", str(out), "-q"]
        else:
            command = [sys.executable, "-c", SCRIPTS[name][1]]
        start, cpu = time.perf_counter(), _children_cpu()
        proc = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, timeout=3600)
        seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
        if proc.returncode != 0:
            raise SystemExit(f"{self.label} {name} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
        return seconds, cpu

    def _window(self, env: dict) -> float:
        report = self.scratch / f"start-{self.label}.json"
        report.unlink(missing_ok=True)
        env = {**env, "SPHERE_EXPLORER_STARTUP_REPORT": str(report), "XDG_CONFIG_HOME": str(self.scratch),
               "DISPLAY": self.display}  # fmt: skip
        start, cpu = time.time(), _children_cpu()
        proc = subprocess.Popen(
            [str(self.exe)], env=env, cwd=env["PYTHONPATH"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        while not report.exists() and proc.poll() is None and time.time() - start < 600:
            time.sleep(0.01)
        proc.terminate()
        _, err = proc.communicate(timeout=60)
        if not report.exists():
            raise SystemExit(f"{self.label} window: no first frame ({err.decode().strip()[-2000:]})")
        return json.loads(report.read_text())["first_frame"] - start, _children_cpu() - cpu

    def measure(self, name: str, repeats: int) -> dict:
        """Cold (fresh copy, empty numba cache) then ``repeats`` warm runs of entry point ``name``."""
        tree = fresh_tree(self.source, self.scratch, f"tree-{self.label}-{name}")
        cache = self.scratch / f"numba-{self.label}-{name}"
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir()
        cold, cold_cpu = self.once(name, tree, cache)
        warm = [self.once(name, tree, cache) for _ in range(repeats)]
        shutil.rmtree(tree, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
        return {"cold_s": cold, "cold_cpu_s": cold_cpu, "warm_s": median([w for w, _ in warm]),
                "warm_cpu_s": median([c for _, c in warm]), "warm_runs": warm}  # fmt: skip


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _display() -> tuple[str | None, subprocess.Popen | None]:
    """An X display for the window: $DISPLAY, or an Xvfb started here (None, None without either)."""
    if os.environ.get("DISPLAY"):
        return os.environ["DISPLAY"], None
    if shutil.which("Xvfb") is None:
        return None, None
    for number in range(140, 160):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
            time.sleep(1.0)
            return f":{number}", proc
    return None, None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--previous", type=Path, default=None, help="another checkout to measure beside (e.g. main)")
    ap.add_argument("--repeats", type=int, default=3, help="warm runs per entry point (default 3)")
    ap.add_argument("--only", nargs="+", default=None, choices=[*SCRIPTS, *COMMANDS], help="entry points to run")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--json", type=Path, default=None, help="also write the results as JSON")
    args = ap.parse_args()

    names = args.only or [*SCRIPTS, *COMMANDS]
    info = machine_info()
    display, xvfb = _display() if "window" in names else (None, None)
    if "window" in names and display is None:
        names.remove("window")
        print("(the window is skipped: no DISPLAY and no Xvfb)")
    arguments = {k: str(v) for k, v in vars(args).items()}
    results: dict = {"machine": info, "arguments": arguments, "now": {}, "previous": {}}
    scratch = Path(tempfile.mkdtemp(prefix="bench-cold-"))
    try:
        log = scratch / "log2000.parquet"
        write_log(log, args.seed)
        runners = {"now": Runner(ROOT, scratch, "now", log, display)}
        if args.previous is not None:
            runners["previous"] = Runner(args.previous.resolve(), scratch, "previous", log, display)
        for name in names:
            for key, runner in runners.items():
                results[key][name] = runner.measure(name, args.repeats)
                r = results[key][name]
                print(f"  {key:8s} {name:18s} cold {r['cold_s']:7.2f} s (CPU {r['cold_cpu_s']:.2f})  "
                      f"warm {r['warm_s']:6.2f} s", file=sys.stderr, flush=True)  # fmt: skip
    finally:
        if xvfb is not None:
            xvfb.terminate()
        shutil.rmtree(scratch, ignore_errors=True)
    results["loadavg_at_end"] = os.getloadavg()
    report(results, names, args.previous is not None)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str) + "\n")
    return 0


def report(res: dict, names: list[str], measured_previous: bool) -> None:
    m = res["machine"]
    head = [
        ["date", m["date"]],
        ["cpu", m["cpu_model"]],
        ["cpus (logical / usable)", f"{m['logical_cpus']} / {m['usable_cpus']}"],
        [
            "load average at start / end",
            f"{' '.join(f'{x:.2f}' for x in m['loadavg_at_start'] or [])} / "
            f"{' '.join(f'{x:.2f}' for x in res['loadavg_at_end'])}",
        ],  # fmt: skip
        ["python / numpy / numba", f"{m['python']} / {m['numpy']} / {m['numba']}"],
        ["solver sources sha256[:16]", m["solver_sha256_16"]],
        ["arguments", " ".join(f"{k}={v}" for k, v in res["arguments"].items())],
    ]
    print(fmt_table(["", ""], head, "cold start benchmark  (benchmarks/bench_cold_start.py)"))
    rows = []
    for name in names:
        now = res["now"][name]
        label = SCRIPTS[name][0] if name in SCRIPTS else COMMANDS[name]
        if measured_previous:
            prev = res["previous"][name]
            before = [prev["cold_s"], prev["warm_s"]]
        else:
            before = [QUOTED_COLD.get(name, "-"), "-"]
        rows.append([label, now["cold_s"], now["cold_cpu_s"], now["warm_s"], *before])
    source = "the --previous checkout, measured in this run" if measured_previous else QUOTED
    print(fmt_table(["entry point (fresh process)", "cold s", "cold CPU s", "warm s (median)", "previous cold s",
                     "previous warm s"],
                    rows, f"first use, wall time of a fresh process (target: cold <= 10 s); "
                          f"previous: {source}"))  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
