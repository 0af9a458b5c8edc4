"""Mutation run: how many small, plausible bugs the tests catch, package by package.

Each package's source is mutated by mutmut (one change at a time: an operator
flipped, a constant changed, a call's argument dropped, ...) and the tests that
cover it run against every mutant.  A mutant is *caught* when a test fails or
hangs (killed or timed out); it *survives* when every test passes, or when no
selected test reaches its function ("no tests").  A survivor either gets a test
that kills it or is listed in ``mutation_equivalent.txt`` beside this script
with the reason it cannot change behaviour.

A mutant that makes a test hang is ended when that test has run for
:data:`TEST_LIMIT` seconds (``mutation_limit.py``, a pytest plugin), and counts
as a timeout; mutmut's own limit, for the whole selection, is minutes.

mutmut runs in a scratch copy of the tree (the working tree's tracked and
untracked-but-not-ignored files), with a ``[tool.mutmut]`` section written into
the copy's pyproject.toml, so the repository never gets a ``mutants/`` folder
or a mutmut configuration.  Decorated functions are never mutated by mutmut,
so the audit's numba kernels (``@njit`` in rows.py, judging.py, textbook.py)
are left alone; the solver's compiled modules are copied, not mutated.

Usage (from the repository root, with the project venv and ``mutmut==3.8.1``)::

    nice -n 5 .venv/bin/python benchmarks/mutation.py                 # every package, one test process
    nice -n 5 .venv/bin/python benchmarks/mutation.py solver/motion.py solver/path.py   # some packages
    .venv/bin/python benchmarks/mutation.py explorer/model --workdir /tmp/mut  # keep the copy; again: only what changed
    .venv/bin/python benchmarks/mutation.py explorer/model --workdir /tmp/mut --rerun-survivors
    .venv/bin/python benchmarks/mutation.py solver/motion.py --workdir /tmp/mut --rerun-survivors --only '*_jam*'
    .venv/bin/python benchmarks/mutation.py explorer/audit --workdir /tmp/mut --rerun-timeouts  # on a quiet machine
    .venv/bin/python benchmarks/mutation.py solver/motion.py --workdir /tmp/mut2 --only 'solver.motion.xǁ_Runǁrun__*'  # one function
    nice -n 5 .venv/bin/python benchmarks/mutation.py explorer/audit --workdir /tmp/mut --sample 300 --seed 1

It prints the machine, one row per package (mutants, caught, equivalent,
survivors, the caught share) and every survivor not listed as equivalent with
its diff.  Exit status 0 when every package reaches :data:`GOAL` with no
unexplained survivor.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import fmt_table, machine_info  # noqa: E402  (the solver benchmark's helpers)

#: The mutants listed as equivalent, one a line: ``name | mutated line | why``.
EQUIVALENT = Path(__file__).with_name("mutation_equivalent.txt")
#: The share of mutants (equivalent ones left out) the tests must catch, per package.
GOAL = 0.90
#: The mutmut release this script is written for (its CLI and its status names).
MUTMUT = "3.8.1"
#: Seconds one test (fixtures included) may take before its run ends as a timeout
#: (``mutation_limit.py`` beside this script); the slowest test takes a few.
TEST_LIMIT = 30.0
#: Arguments of every pytest run: no cache folder, no X server (nothing here draws on screen),
#: the same hypothesis examples every run, and the limit of one test.
PYTEST_ARGS = ["-p", "no:cacheprovider", "-q", "-p", "no:xvfb", "--hypothesis-seed=0",
               "-p", "benchmarks.mutation_limit", f"--mutation-test-limit={TEST_LIMIT:g}"]  # fmt: skip
#: mutmut's CPU-time limit per mutant is ``(measured time + TIMEOUT_CONSTANT) * 2 * this``, and its
#: wall-time limit half that.
TIMEOUT_MULTIPLIER = 3.0
#: Seconds added to a mutant's measured test time before the multiplier.  mutmut measures only the
#: tests' bodies, not their fixtures (the audit's logs written, a Dask cluster started): with its
#: default, 1 s, some of the audit's "timeouts" were tests that pass, given the time (two run by hand).
TIMEOUT_CONSTANT = 30.0
#: mutmut's statuses that count as caught.
CAUGHT = ("killed", "timeout")
#: The status of a mutant a stopped (or sampled) run has not tested: left out of the share.
NOT_CHECKED = "not checked"


@dataclass(frozen=True)
class Package:
    """What to mutate and the tests that cover it.

    ``tests``: files or node ids (pytest's test selection); ``deselect``: node ids left out
    (tests that run the code only in other processes, where mutmut cannot see them);
    ``env``: variables of the test runs (smaller random families).
    """

    mutate: tuple[str, ...]
    tests: tuple[str, ...]
    deselect: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)


#: The packages and their tests: the fast tests that reach the code in this process.
PACKAGES = {
    "explorer/model": Package(
        mutate=("explorer/model/*.py",),  # fnmatch's * crosses folders: the rooms too
        tests=(
            "tests/explorer/model/actions/test_session.py",
            "tests/explorer/model/formats/test_scene_io.py",
            "tests/explorer/model/formats/test_paste.py",
            "tests/explorer/model/derived/test_precision.py",
            "tests/scenarios/hostile_inputs/test_scene_files.py",
            "tests/scenarios/hostile_inputs/test_fuzzed_text.py",
            "tests/explorer/model/words/test_values_energy.py",
            "tests/scenarios/teaching/test_every_pair.py",
            "tests/scenarios/teaching/test_event_inspector.py",
            "tests/explorer/model/words/test_values_rows.py",
            "tests/explorer/model/words/test_text.py",
            "tests/explorer/model/derived/test_analysis_dict.py",
            "tests/explorer/model/state/test_scene_refusals.py",
            "tests/explorer/model/formats/test_paste_messages.py",
            "tests/explorer/model/words/test_parabola.py",
            "tests/explorer/model/formats/test_scene_io_refusals.py",
            "tests/explorer/model/state/test_scene_view_and_bodies.py",
            "tests/explorer/model/state/test_view_parts.py",
            "tests/explorer/model/actions/test_session_actions.py",
            "tests/explorer/model/formats/test_folder.py",
            "tests/explorer/model/derived/test_stepping.py",
            "tests/explorer/model/derived/test_inspection.py",
            "tests/explorer/model/formats/test_gallery.py",
            "tests/explorer/model/derived/test_analysis_paths.py",
            "tests/explorer/model/words/test_values_more.py",
        ),
        deselect=(
            "tests/explorer/model/actions/test_session.py::test_the_session_runs_without_qt_or_a_display",
            *(
                f"tests/scenarios/teaching/test_every_pair.py::{test}"
                for test in (
                    "test_events_are_marked_on_the_time_slider_and_listed_in_the_values",
                    "test_the_steps_layer_draws_the_engine_s_positions_and_its_verdict",
                    "test_a_body_can_be_made_the_container_from_the_scene_panel",
                    "test_the_values_panel_gives_no_response_for_a_contact_that_never_happens",
                    "test_a_motion_that_stops_early_says_why_in_the_view_and_the_values",
                )  # fmt: skip
            ),
            *(
                f"tests/scenarios/teaching/test_event_inspector.py::{test}"
                for test in (
                    "test_clicking_an_event_in_the_values_list_inspects_it",
                    "test_a_slider_mark_and_the_bracket_keys_inspect_events",
                    "test_ctrl_click_describes_the_selected_body_and_another",
                    "test_render_refuses_a_bad_event_or_pair_in_one_line",
                    "test_render_an_event_with_its_parabola",
                )  # fmt: skip
            ),
        ),
    ),
    "explorer/audit": Package(
        mutate=("explorer/audit/*.py",),  # mutmut matches with fnmatch, whose * crosses folders: the rooms too
        tests=(
            "tests/scenarios/hostile_inputs/test_bad_logs.py",
            "tests/explorer/audit/test_run.py",
            "tests/explorer/audit/test_run_planted.py",
            "tests/explorer/audit/decision/test_textbook.py",
            "tests/explorer/audit/decision/test_deciding_uneven_logs.py",
            "tests/scenarios/hostile_inputs/test_hostile_logs.py",
            "tests/scenarios/signals/test_audit_interrupted.py",
            "tests/explorer/audit/log/test_writer.py",
            "tests/explorer/audit/log/test_writer_refusals.py",
            "tests/explorer/audit/log/test_reading_damaged_logs.py",
            "tests/explorer/audit/test_command.py",
            "tests/explorer/audit/report/test_summary.py",
            "tests/explorer/audit/report/test_plot.py",
            "tests/scenarios/an_engine_audited/test_a_step_based_engine.py",
            "tests/explorer/audit/test_command_option_bounds.py",
            "tests/explorer/audit/log/test_columns.py",
            "tests/explorer/audit/runners/test_distributed_in_process.py",
            "tests/explorer/audit/test_needs.py",
            "tests/explorer/audit/log/test_units.py",
            "tests/explorer/audit/log/test_mapping.py",
            "tests/explorer/audit/decision/test_rows.py",
        ),
        deselect=(
            "tests/explorer/audit/test_run.py::test_the_console_script_end_to_end",
            "tests/explorer/audit/test_run.py::test_a_bad_log_through_the_console_script_is_one_line",
            "tests/scenarios/hostile_inputs/test_hostile_logs.py::test_the_audits_compiled_code_under_bounds_checking",
            "tests/scenarios/hostile_inputs/test_hostile_logs.py::test_a_refusal_under_workers_is_one_line",
            "tests/scenarios/signals/test_audit_interrupted.py::test_a_signal_at_any_moment",
            "tests/scenarios/signals/test_audit_interrupted.py::test_a_killed_run_is_cleaned_up_by_the_next",
            # A Dask cluster does not work in mutmut's forked test processes (forked from one that ran
            # clusters already): an equivalent mutant's tests waited there on tasks that never ended.
            # The same pieces run in this process in runners/test_distributed_in_process.py (and
            # runners/test_distributed.py, all of it on a cluster, is not in the selection).
            "tests/scenarios/hostile_inputs/test_hostile_logs.py::test_bad_rows_in_any_pattern_are_skipped_and_the_rest_exact",
            "tests/scenarios/hostile_inputs/test_hostile_logs.py::test_an_integer_beyond_2_53_is_refused_alike",
            "tests/scenarios/an_engine_audited/test_a_step_based_engine.py::test_labels_and_time_unit_survive_the_dask_runner",
        ),
    ),
    "solver/motion.py": Package(
        mutate=("solver/motion.py",),
        tests=("tests/solver/test_motion.py", "tests/solver/test_path.py"),
        env={"MOTION_CASES": "100"},
    ),
    "solver/path.py": Package(
        mutate=("solver/path.py",),
        tests=("tests/solver/test_motion.py", "tests/solver/test_response.py", "tests/solver/test_path.py"),
        env={"MOTION_CASES": "100"},
    ),
}


@dataclass
class Outcome:
    """One package's run: status by mutant name, the diff of each survivor, seconds."""

    status: dict[str, str]
    diffs: dict[str, str]
    seconds: float


# -- the scratch copy -------------------------------------------------------------------------------


def tree_files(root: Path) -> list[str]:
    """The working tree's files that git knows or would add (tracked, and untracked but not ignored)."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                         check=True, capture_output=True).stdout  # fmt: skip
    return sorted({name for name in out.decode().split("\0") if name and (root / name).is_file()})


def copy_tree(root: Path, scratch: Path) -> None:
    """Copy the tree's files into ``scratch`` (a file whose content is the same is left, mtime and all)."""
    for name in tree_files(root):
        target = scratch / name
        if target.is_file() and target.read_bytes() == (root / name).read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target)


def _toml_list(values) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


def write_config(scratch: Path, package: Package) -> None:
    """The copy's pyproject.toml with a ``[tool.mutmut]`` section, and without the X server options."""
    path = scratch / "pyproject.toml"
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    text = re.sub(r"\s*--xvfb-[\w-]+=\S+?(?=[\s\"])", "", text)
    top = sorted({Path(name).parts[0] for name in tree_files(ROOT) if len(Path(name).parts) > 1})
    also = [name for name in top if name not in ("explorer", "solver", "tests")]
    args = PYTEST_ARGS + [f"--deselect={node}" for node in package.deselect]
    text += (
        "\n[tool.mutmut]\n"
        'source_paths = ["explorer", "solver"]\n'
        f"only_mutate = {_toml_list(package.mutate)}\n"
        f"pytest_add_cli_args_test_selection = {_toml_list(package.tests)}\n"
        f"pytest_add_cli_args = {_toml_list(args)}\n"
        f"also_copy = {_toml_list(also)}\n"
        # a mutant's tests get 3 x (their measured time + 30 s) of wall time (mutmut's default multiplier,
        # 15, cost minutes for each mutant that hangs); the tests are deterministic, so a slower run is a hang
        f"timeout_multiplier = {TIMEOUT_MULTIPLIER}\n"
        f"timeout_constant = {TIMEOUT_CONSTANT}\n"
    )
    path.write_text(text, encoding="utf-8")


# -- running mutmut ---------------------------------------------------------------------------------


def mutmut(scratch: Path, args: list[str], env: dict[str, str], log=None) -> str:
    """Run the venv's mutmut in ``scratch``; its output (or into ``log``)."""
    exe = Path(sys.executable).with_name("mutmut")
    full_env = {**os.environ, **env, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([str(exe), *args], cwd=scratch, env=full_env, text=True,
                          stdout=log or subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"mutmut {' '.join(args[:2])} failed in {scratch} (exit {proc.returncode}); see its log")
    return proc.stdout or ""


#: Prints ``{mutant name: diff}`` as JSON for the names read (as JSON) from stdin: what ``mutmut show``
#: prints for each, in one process instead of one per mutant (0.7 s each, mostly imports).
_DIFFS = """
import json, sys
from mutmut.mutation.diff_apply import SourceFileMutationData, get_diff_for_mutant, walk_mutatable_files
names, out = set(json.load(sys.stdin)), {}
for path in walk_mutatable_files():
    data = SourceFileMutationData(path=path)
    data.load()
    out.update({name: get_diff_for_mutant(name, path=data.path) for name in names & set(data.exit_code_by_key)})
json.dump(out, sys.stdout)
"""


def survivor_diffs(scratch: Path, names: list[str], env: dict[str, str]) -> dict[str, str]:
    """``{mutant name: its diff}`` for ``names``, read in one process."""
    full_env = {**os.environ, **env, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, "-c", _DIFFS], cwd=scratch, env=full_env, text=True,
                          input=json.dumps(names), capture_output=True)  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"reading the survivors' diffs failed in {scratch}:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def results(scratch: Path, env: dict[str, str]) -> dict[str, str]:
    """``{mutant name: status}`` of every mutant (``mutmut results --all``)."""
    out = mutmut(scratch, ["results", "--all", "true"], env)
    found = re.findall(r"^\s+(\S+): (.+)$", out, flags=re.M)
    return {name: status.strip() for name, status in found}


def run_package(name: str, package: Package, scratch: Path, jobs: int, rerun: tuple[str, ...] = (), only=("*",),
                sample: int | None = None, seed: int = 0, test: bool = True) -> Outcome:  # fmt: skip
    """Mutate ``package`` in ``scratch`` and test every mutant (only new or changed ones in a reused copy).

    With ``rerun``, the previous mutants of those statuses (``"survived"``: every survivor; ``"timeout"``)
    whose names match one of the globs ``only`` are tested again.
    With ``sample``, only that many mutants drawn at random (``seed``) are tested and reported (the
    scratch copy must hold the package's mutants already: run once, even for a moment).  Without
    ``test``, nothing is tested: the report is of what the scratch copy holds.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    copy_tree(ROOT, scratch)
    write_config(scratch, package)
    start = time.perf_counter()
    names: list[str] = []
    drawn: set[str] | None = None
    if sample is not None:
        if not (scratch / "mutants").is_dir():
            raise SystemExit(f"--sample: no mutants in {scratch} yet (run {name} there once, even for a moment)")
        every = results(scratch, package.env)
        drawn = set(random.Random(seed).sample(sorted(every), min(sample, len(every))))
        # the drawn mutants not judged yet; a timeout again too (it may have come from a lower limit)
        names = sorted(m for m in drawn if every[m] in (NOT_CHECKED, "timeout"))
    elif rerun and (scratch / "mutants").is_dir():
        names = [
            m
            for m, status in results(scratch, package.env).items()
            if (status in rerun or ("survived" in rerun and status not in CAUGHT))
            and any(fnmatchcase(m, glob) for glob in only)
        ]
        # mutmut runs, for each mutant, the tests its stats run saw reach the function: a test added
        # since would never run.  Without the file it collects them again.
        if test:
            (scratch / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    elif tuple(only) != ("*",):
        names = list(only)  # mutmut matches the globs itself (a function changed since a whole run)
        if test:  # tests may have been added since the copy's last run: collect again which reach what
            (scratch / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    with open(scratch / "mutmut.log", "a", encoding="utf-8") as log:
        print(f"  {name}: mutmut run in {scratch} (log: {scratch / 'mutmut.log'})", flush=True)
        if test and (drawn is None or names):  # a sample all judged already needs no run (no names: all)
            mutmut(scratch, ["run", "--max-children", str(jobs), *names], package.env, log)
    seconds = time.perf_counter() - start
    status = results(scratch, package.env)
    if drawn is not None:
        status = {m: v for m, v in status.items() if m in drawn}
    survivors = [m for m, s in status.items() if s not in CAUGHT and s != NOT_CHECKED]
    diffs = {m: f"# {m}: {status[m]}\n{diff}" for m, diff in survivor_diffs(scratch, survivors, package.env).items()}
    return Outcome(status, diffs, seconds)


# -- the equivalent mutants -------------------------------------------------------------------------


def read_equivalent(path: Path = EQUIVALENT) -> dict[str, tuple[str, str]]:
    """``{mutant name: (mutated line, why)}`` from the list beside this script (``#`` starts a comment)."""
    listed = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, rest = line.partition(" | ")
        mutated, _, why = rest.rpartition(" | ")  # the mutated line may hold " | " itself; the reason may not
        parts = [name.strip(), mutated.strip(), why.strip()]
        if not all(parts):
            raise SystemExit(f"{path.name}:{number}: expected 'mutant name | mutated line | why'")
        listed[parts[0]] = (parts[1], parts[2])
    return listed


def added_lines(diff: str) -> list[str]:
    """The lines a mutant's diff adds, stripped; for a mutant that only removes lines (an argument on a line
    of its own), those lines as ``(removed) LINE``."""
    added = [line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    if added:
        return added
    return [
        f"(removed) {line[1:].strip()}"
        for line in diff.splitlines()
        if line.startswith("-") and not line.startswith("---")
    ]


def classify(outcome: Outcome, listed: dict[str, tuple[str, str]]) -> tuple[list[str], list[str], list[str]]:
    """Split the survivors: (equivalent, unexplained, stale).

    A listed mutant counts as equivalent only while it survives and its diff still adds the
    listed line (mutmut numbers mutants per function: an edit can renumber them); stale: a
    listed mutant of this run that is caught, or whose diff no longer matches.
    """
    equivalent, unexplained, stale = [], [], []
    for name, status in sorted(outcome.status.items()):
        entry = listed.get(name)
        matches = entry is not None and name in outcome.diffs and entry[0] in added_lines(outcome.diffs[name])
        if status in CAUGHT:
            if entry is not None:
                stale.append(name)
        elif matches:
            equivalent.append(name)
        else:
            unexplained.append(name)
            if entry is not None:
                stale.append(name)
    return equivalent, unexplained, stale


# -- the report -------------------------------------------------------------------------------------


def row(name: str, outcome: Outcome, equivalent: list[str], unexplained: list[str]) -> list[object]:
    counts = {s: sum(1 for v in outcome.status.values() if v == s) for s in set(outcome.status.values())}
    total = len(outcome.status)
    caught = sum(counts.get(s, 0) for s in CAUGHT)
    unchecked = counts.get(NOT_CHECKED, 0)
    judged = total - len(equivalent) - unchecked
    share = 100.0 * caught / judged if judged else float("nan")
    low, high = wilson(caught, judged)
    return [name, total, counts.get("killed", 0), counts.get("timeout", 0), len(equivalent),
            counts.get("survived", 0), counts.get("no tests", 0), len(unexplained) - unchecked, unchecked, share,
            f"{low:.1f}-{high:.1f}", outcome.seconds / 60.0]  # fmt: skip


def wilson(caught: int, judged: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of the caught share, in percent (for a sample, or a run stopped part-way)."""
    if not judged:
        return float("nan"), float("nan")
    p = caught / judged
    centre = (p + z * z / (2 * judged)) / (1 + z * z / judged)
    half = z * math.sqrt(p * (1 - p) / judged + z * z / (4 * judged * judged)) / (1 + z * z / judged)
    return 100.0 * (centre - half), 100.0 * (centre + half)


HEADERS = ["package", "mutants", "killed", "timeout", "equivalent", "survived", "no tests", "unexplained",
           "not checked", "caught %", "95 % interval", "minutes"]  # fmt: skip


def header() -> None:
    info = machine_info()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    print("mutation run (benchmarks/mutation.py)")
    print(f"  date {info['date']}; cpu {info['cpu_model']}; {info['usable_cpus']} usable of "
          f"{info['logical_cpus']} logical cpus; load average at start {info['loadavg_at_start']}")  # fmt: skip
    print(f"  python {info['python']}; numpy {info['numpy']}; numba {info['numba']}; mutmut {_mutmut_version()}")
    print(f"  tree {commit.stdout.strip()}{' with uncommitted changes' if dirty.strip() else ''}")


def _mutmut_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mutmut")
    except PackageNotFoundError:
        raise SystemExit(f"mutmut is not installed in this venv: pip install mutmut=={MUTMUT}") from None
    if found != MUTMUT:
        print(f"  warning: mutmut {found}, this script is written for {MUTMUT}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="*", metavar="PACKAGE",
                        help=f"packages to mutate (default: all of {', '.join(PACKAGES)})")  # fmt: skip
    parser.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--workdir", type=Path, help="keep the scratch copies here (one folder per package); "
                        "a second run there tests only new or changed mutants")  # fmt: skip
    parser.add_argument(
        "--rerun-survivors",
        action="store_true",
        help="with --workdir: test the previous run's survivors again (after adding tests)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        default=["*"],
        metavar="GLOB",
        help="only the mutants whose names match one of these, e.g. '*_may_approach*' (with --rerun-survivors "
        "or --rerun-timeouts: only those of them)",
    )
    parser.add_argument(
        "--rerun-timeouts",
        action="store_true",
        help="with --workdir: test the previous run's timeouts again (a test slowed by other work on the machine "
        "can pass the one-test limit)",
    )
    parser.add_argument("--sample", type=int, metavar="N",
                        help="with --workdir: test only N mutants of each package drawn at random, and report "
                        "their share with its 95 %% interval (a whole run of explorer/audit takes many hours)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="with --sample: the draw's seed (default 0)")
    parser.add_argument("--report", action="store_true",
                        help="with --workdir: test nothing, report what the copies hold (after a run stopped)")  # fmt: skip
    args = parser.parse_args()
    unknown = [name for name in args.packages if name not in PACKAGES]
    if unknown:
        parser.error(f"unknown package {unknown[0]!r}: choose from {', '.join(PACKAGES)}")
    header()
    listed = read_equivalent()
    base = args.workdir or Path(tempfile.mkdtemp(prefix="mutation-"))
    rows, reports, ok = [], [], True
    try:
        for name in args.packages or list(PACKAGES):
            outcome = run_package(name, PACKAGES[name], base / name.replace("/", "_"), args.max_children,
                                  ("survived",) * args.rerun_survivors + ("timeout",) * args.rerun_timeouts,
                                  args.only, args.sample, args.seed,
                                  not args.report)  # fmt: skip
            equivalent, unexplained, stale = classify(outcome, listed)
            rows.append(row(name, outcome, equivalent, unexplained))
            reports.append((name, outcome, unexplained, stale))
            ok = ok and rows[-1][-3] >= 100 * GOAL and not unexplained and args.sample is None
    finally:
        if args.workdir is None:
            shutil.rmtree(base, ignore_errors=True)
    print()
    title = (f"caught = killed + timeout, of the mutants tested less the equivalent ones; goal "
             f"{100 * GOAL:.0f} % per package")  # fmt: skip
    if args.sample is not None:
        title += f"; a sample of {args.sample} mutants per package (seed {args.seed})"
    print(fmt_table(HEADERS, rows, title))
    for _name, outcome, unexplained, stale in reports:
        for mutant in stale:
            print(f"\nstale entry in {EQUIVALENT.name}: {mutant} ({outcome.status[mutant]}; check its line)")
        for mutant in unexplained:
            if outcome.status[mutant] != NOT_CHECKED:
                print(f"\n{outcome.status[mutant]}: {mutant}\n{outcome.diffs[mutant].rstrip()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
