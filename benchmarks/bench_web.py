#!/usr/bin/env python
"""Benchmark of ``sphere-explorer export-html``: page sizes, export times, and how fast a browser draws a page.

Run from the repository root::

    .venv/bin/python benchmarks/bench_web.py [--repeats 3] [--screenshot docs/web_page.png] [--json out.json]

One run, in one process, after one warm-up export (libraries loaded, the
solver's code compiled or loaded from numba's cache):

1. every gallery scene exported ``--repeats`` times as one page
   (:func:`explorer.web.export.write_page`): the median wall time and the
   page's size in bytes, against the budget ``PAGE_BUDGET``;
2. the whole gallery as a site (``export-html scenes/ -o SITE``), once;
3. each page opened as a file in Debian's headless Chromium (SwiftShader's
   WebGL, driven by Playwright through the tests' ``tests/support/browser.py``,
   every request but the page's own file refused): the time from navigation to
   the page saying it is drawn (its ``data-ready``), median of ``--repeats``,
   and the requests it made (none is expected);
4. ``--screenshot PNG``: the default scene's page at its time of impact, as
   that browser shows it at 1280x800 (the README's picture).

The header gives the machine and the load average, as ``bench_solver.py``
does.  Figures on a shared machine are noisy: quote medians, and compare only
figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import solver

solver.configure(jit=False)  # what the sphere-explorer command runs with
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))  # the tests' browser

from bench_solver import fmt_table, machine_info, median  # noqa: E402
from browser import Browser, find_chromium, foreign_requests, wait_ready  # noqa: E402

from explorer.model.derived.analysis import solve  # noqa: E402
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR, gallery  # noqa: E402
from explorer.model.formats.scene_io import load  # noqa: E402
from explorer.web import PAGE_BUDGET  # noqa: E402
from explorer.web.export import load_folder, write_page, write_site  # noqa: E402


def export_times(folder: Path, repeats: int) -> list[dict]:
    """Export each gallery scene ``repeats`` times: median seconds and size."""
    rows = []
    for path in gallery():
        scene = load(path)
        out = folder / f"{path.stem}.html"
        seconds = []
        for _ in range(repeats):
            start = time.perf_counter()
            write_page(scene, out, path.stem)
            seconds.append(time.perf_counter() - start)
        rows.append({"scene": path.stem, "export_s": median(seconds), "bytes": out.stat().st_size})
    return rows


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
        index = page.evaluate(f"sphereExplorer.data.times.findIndex(t => t >= {toi!r} * (1 - 1e-12))")
        page.evaluate(f"sphereExplorer.setIndex({index})")
        page.wait_for_timeout(500)
        page.screenshot(path=str(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed exports and page loads per scene (default 3)")
    parser.add_argument("--screenshot", type=Path, help="write the default scene's page, as the browser shows it, here")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    machine = machine_info()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_page(load(DEFAULT_SCENE), folder / "warm-up.html")  # imports, compiled code
        rows = export_times(folder, args.repeats)
        start = time.perf_counter()
        write_site(load_folder(SCENES_DIR), folder / "site")
        site_s = time.perf_counter() - start
        site_bytes = sum(p.stat().st_size for p in (folder / "site").iterdir())
        index_bytes = (folder / "site" / "index.html").stat().st_size
        chromium = find_chromium()
        if chromium:
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
    print(f"repeats {args.repeats}  browser {chromium or 'none found (no page loads timed)'}")
    table = [
        [r["scene"], r["export_s"], r["bytes"] / 1e6, r.get("drawn_s", float("nan")), len(r.get("requests", []))]
        for r in rows
    ]
    print(fmt_table(["scene", "export s (median)", "MB", "drawn in browser s", "requests"], table, "pages"))
    sizes = [r["bytes"] for r in rows]
    print(
        f"largest page {max(sizes) / 1e6:.3f} MB of the {PAGE_BUDGET / 1e6:g} MB budget; "
        f"median export {median([r['export_s'] for r in rows]):.2f} s; "
        f"median drawn {median([r.get('drawn_s', float('nan')) for r in rows]):.2f} s"
    )
    print(
        f"whole gallery as a site: {len(rows)} pages + index ({index_bytes / 1e6:.2f} MB) in {site_s:.1f} s, "
        f"{site_bytes / 1e6:.1f} MB in all"
    )
    if args.json:
        report = {"machine": machine, "loadavg_at_end": load_end, "pages": rows}
        report.update(site_s=site_s, site_bytes=site_bytes)
        args.json.write_text(json.dumps(report, indent=2, default=str))
    if any(r.get("requests") for r in rows) or max(sizes) > PAGE_BUDGET:
        print("FAILED: a page asked for something from the network, or is over the budget", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
