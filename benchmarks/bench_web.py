#!/usr/bin/env python
"""Benchmark of ``sphere-explorer export-html``: page sizes, export times, and how fast a browser draws a page.

Run from the repository root::

    .venv/bin/python benchmarks/bench_web.py [--repeats 3] [--screenshot docs/web_page.png] [--json out.json]
        [--site-runs 3] [--previous CHECKOUT] [--site-only]

One run, in one process, after one warm-up export (libraries loaded, the
solver's code compiled or loaded from numba's cache):

1. every gallery scene exported ``--repeats`` times as one recorded page
   (:func:`explorer.web.export.write_page`): the median wall time and the
   page's size in bytes, against the budget ``PAGE_BUDGET``; the frames it
   plays (each a live page's frame, recorded at export) and what they cost in
   the page (gzip, base64), in kB;
2. the whole gallery as a site, as a user makes it: ``sphere-explorer
   export-html scenes/ -o SITE`` run ``--site-runs`` times as a command (a
   fresh process, so with its imports and its worker processes' start): the
   wall time, and the CPU time of the command and its workers (``wait4``) as a
   share of one core, with the load average before each run; ``--previous
   CHECKOUT`` runs the same command on that checkout's code
   (``PYTHONPATH=CHECKOUT``, the same scenes) in turn with this one, for the
   figures before and after in one run;
3. each page opened as a file in Debian's headless Chromium (SwiftShader's
   WebGL, driven by Playwright through the tests' ``tests/support/browser.py``,
   every request but the page's own file refused): the time from navigation to
   the page saying it is drawn (its ``data-ready``), median of ``--repeats``,
   and the requests it made (none is expected);
4. ``--screenshot PNG``: the default scene's page at its time of impact, as
   that browser shows it at 1280x800 (the README's picture).

The header gives the machine and the load average, as ``bench_solver.py``
does.  Figures on a shared machine are noisy: quote medians, and compare only
figures of one run.  ``--site-only`` measures the site alone (step 2), ``--pages-only`` the pages' export alone
(step 1: no site, no browser), which with ``--previous CHECKOUT`` is timed for that checkout too, in a process of
its own (``PYTHONPATH=CHECKOUT``), scene by scene in turn with this one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import solver

solver.configure(jit=False)  # what the sphere-explorer command runs with
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "support"))  # the tests' browser

from bench_solver import fmt_table, machine_info, median  # noqa: E402
from browser import Browser, find_chromium, foreign_requests, wait_ready  # noqa: E402
from web_helpers import recording  # noqa: E402

from explorer.model.derived.analysis import solve  # noqa: E402
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR, gallery  # noqa: E402
from explorer.model.formats.scene_io import load  # noqa: E402
from explorer.web import PAGE_BUDGET  # noqa: E402
from explorer.web.export import write_page  # noqa: E402

#: The console script a user runs (installed beside this Python).
EXE = Path(sys.executable).with_name("sphere-explorer")


def export_times(folder: Path, repeats: int, paths: list[Path] | None = None) -> list[dict]:
    """Export each gallery scene (or of ``paths``) ``repeats`` times: median seconds and size."""
    rows = []
    for path in gallery() if paths is None else paths:
        scene = load(path)
        out = folder / f"{path.stem}.html"
        seconds = []
        for _ in range(repeats):
            start = time.perf_counter()
            write_page(scene, out, path.stem)
            seconds.append(time.perf_counter() - start)
        text = out.read_text(encoding="utf-8")
        frames = recording(text)["frames"]
        held = len(text.split('id="recording">', 1)[1].split("</script>", 1)[0])  # base64 of gzip of the frames
        rows.append({"scene": path.stem, "export_s": median(seconds), "bytes": out.stat().st_size,
                     "frames": len(frames), "frames_kb": held / 1e3})  # fmt: skip
    return rows


def previous_export_times(previous: Path, folder: Path, repeats: int) -> list[dict]:
    """:func:`export_times` on ``previous``'s code, scene by scene in turn with this checkout's: each scene is
    exported ``repeats`` times by a process on the previous code (``--pages-only --json``, one scene at a time,
    after its own warm-up), then by this one; rows with ``export_s`` and ``previous_s``."""
    rows = []
    env = {**os.environ, "PYTHONPATH": str(previous)}
    for path in gallery():
        out = folder / "previous.json"
        subprocess.run([sys.executable, __file__, "--pages-only", "--repeats", str(repeats), "--scene", path.stem,
                        "--json", str(out)], env=env, check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        before = json.loads(out.read_text())["pages"][0]
        now = export_times(folder, repeats, [path])[0]
        rows.append({**now, "previous_s": before["export_s"], "previous_bytes": before["bytes"]})
    return rows


def site_run(tree: Path | None, folder: Path) -> dict:
    """``sphere-explorer export-html scenes/ -o SITE`` as a command, on ``tree``'s code (None: this checkout's):
    wall seconds, CPU seconds of the command and the processes it waited for (its workers), CPU in % of one core,
    the load average before it, and the site's size."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree or ROOT)
    site = folder / "site-run"
    shutil.rmtree(site, ignore_errors=True)
    load = os.getloadavg()[0]
    with open(folder / "site-run.err", "w+b") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([str(EXE), "export-html", str(SCENES_DIR), "-o", str(site)], env=env,
                                stdout=subprocess.DEVNULL, stderr=err)  # fmt: skip
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        message = err.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"export-html on {tree or ROOT} failed: {message.strip()[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return {"wall_s": wall, "cpu_s": cpu, "cpu_percent": 100 * cpu / wall, "load_before": load, "bytes": size}


def site_runs(previous: Path | None, folder: Path, runs: int) -> dict[str, list[dict]]:
    """``runs`` of :func:`site_run` for this checkout (``"now"``) and, in turn with it, ``previous``."""
    trees = {**({"previous": previous} if previous is not None else {}), "now": None}
    result: dict[str, list[dict]] = {key: [] for key in trees}
    for _ in range(runs):
        for key, tree in trees.items():  # the previous first, then this one, at each turn
            result[key].append(site_run(tree, folder))
    return result


def site_report(runs: dict[str, list[dict]], previous: Path | None) -> None:
    """The site's runs, each and median, and (with a previous checkout) the speed-up."""
    print("whole gallery as a site, as a command (sphere-explorer export-html scenes/ -o SITE):")
    for key, rows in runs.items():
        name = f"previous ({previous})" if key == "previous" else "this checkout"
        each = ", ".join(f"{r['wall_s']:.2f} s at {r['cpu_percent']:.0f}% (load {r['load_before']:.2f})" for r in rows)
        print(f"  {name}: {each}")
        print(f"    median {median([r['wall_s'] for r in rows]):.2f} s, CPU {median([r['cpu_percent'] for r in rows]):.0f}%"
              f" of one core, {rows[0]['bytes'] / 1e6:.1f} MB")  # fmt: skip
    if "previous" in runs:
        before, after = (median([r["wall_s"] for r in runs[key]]) for key in ("previous", "now"))
        print(f"  speed-up (median wall): {before / after:.2f}x")


def browser_times(folder: Path, rows: list[dict], repeats: int) -> None:
    """Open each page ``repeats`` times in headless Chromium; add the median time to drawn and the requests."""
    with Browser() as browser:
        for row in rows:
            seconds, foreign = [], set()
            for _ in range(repeats):
                start = time.perf_counter()
                page = browser.open_file(folder / f"{row['scene']}.html")
                wait_ready(page)
                seconds.append(time.perf_counter() - start)
                foreign |= set(foreign_requests(page))
                page.context.close()
            row["drawn_s"] = median(seconds)
            row["requests"] = sorted(foreign)


def screenshot(folder: Path, out: Path) -> None:
    """The default scene's page at its time of impact, 1280x800, as headless Chromium shows it."""
    with Browser() as browser:
        page = browser.open_file(folder / f"{DEFAULT_SCENE.stem}.html")
        wait_ready(page)
        toi = solve(load(DEFAULT_SCENE)).sweep.toi  # an instant of the slider (events and the contact are)
        span = page.evaluate("sphereExplorer.frame().time")
        page.locator("#time").fill(str(round(1000 * (toi - span["lo"]) / (span["hi"] - span["lo"]))))
        page.wait_for_timeout(500)
        page.screenshot(path=str(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed exports and page loads per scene (default 3)")
    parser.add_argument("--site-runs", type=int, default=3, help="runs of the site as a command (default 3)")
    parser.add_argument(
        "--previous",
        type=Path,
        help="another checkout timed in turn with this one (before): its site command, or with --pages-only its pages",
    )
    parser.add_argument("--site-only", action="store_true", help="measure the site alone (no pages, no browser)")
    parser.add_argument(
        "--pages-only",
        action="store_true",
        help="measure the pages' export alone (no site, no browser); with --previous, both in turn",
    )
    parser.add_argument("--scene", help="with --pages-only: this gallery scene only (its file's stem)")
    parser.add_argument("--screenshot", type=Path, help="write the default scene's page, as the browser shows it, here")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    previous = None if args.previous is None else args.previous.resolve()
    machine = machine_info()
    rows, chromium = [], None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.site_only:
            write_page(load(DEFAULT_SCENE), folder / "warm-up.html")  # imports, compiled code
            if args.pages_only and previous is not None:
                rows = previous_export_times(previous, folder, args.repeats)
            else:
                paths = None if args.scene is None else [SCENES_DIR / f"{args.scene}.json"]
                rows = export_times(folder, args.repeats, paths)
        runs = {} if args.pages_only else site_runs(previous, folder, args.site_runs)
        if not args.site_only and not args.pages_only and (chromium := find_chromium()):
            browser_times(folder, rows, args.repeats)
            if args.screenshot:
                screenshot(folder, args.screenshot)
    try:
        load_end = os.getloadavg()
    except OSError:
        load_end = None
    print("export-html benchmark  (benchmarks/bench_web.py)")
    cpus = f"{machine['logical_cpus']}/{machine['usable_cpus']}"
    print(f"date {machine['date']}  cpu {machine['cpu_model']}  cpus {cpus}")
    print(f"load average at start {machine['loadavg_at_start']}  at end {load_end}  python {machine['python']}")
    if rows:
        unused = "not opened (--pages-only)" if args.pages_only else "none found (no page loads timed)"
        print(f"repeats {args.repeats}  browser {chromium or unused}")
        table = [
            [r["scene"], r["export_s"], r["bytes"] / 1e6, r["frames"], r["frames_kb"], r.get("drawn_s", float("nan")),
             len(r.get("requests", []))]
            for r in rows
        ]  # fmt: skip
        headings = ["scene", "export s (median)", "MB", "frames", "frames kB", "drawn in browser s", "requests"]
        print(fmt_table(headings, table, "pages"))
        print(
            f"largest page {max(r['bytes'] for r in rows) / 1e6:.3f} MB of the {PAGE_BUDGET / 1e6:g} MB budget; "
            f"median export {median([r['export_s'] for r in rows]):.2f} s; "
            f"median drawn {median([r.get('drawn_s', float('nan')) for r in rows]):.2f} s"
        )
    if rows and "previous_s" in rows[0]:
        print(f"pages' export, previous ({previous}) and this checkout in turn, scene by scene:")
        for r in rows:
            same = "same size" if r["bytes"] == r["previous_bytes"] else f"{r['previous_bytes']} -> {r['bytes']} bytes"
            print(f"  {r['scene']:26s} {r['previous_s']:6.2f} s -> {r['export_s']:6.2f} s  ({same})")
        before, after = (median([r[key] for r in rows]) for key in ("previous_s", "export_s"))
        total_before, total_after = (sum(r[key] for r in rows) for key in ("previous_s", "export_s"))
        print(
            f"  median page {before:.2f} s -> {after:.2f} s ({before / after:.2f}x); "
            f"all pages {total_before:.1f} s -> {total_after:.1f} s ({total_before / total_after:.2f}x)"
        )
    if runs:
        site_report(runs, previous)
    if args.json:
        report = {"machine": machine, "loadavg_at_end": load_end, "pages": rows, "site": runs, "previous": previous}
        args.json.write_text(json.dumps(report, indent=2, default=str))
    if any(r.get("requests") for r in rows) or any(r["bytes"] > PAGE_BUDGET for r in rows):
        print("FAILED: a page asked for something from the network, or is over the budget", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
