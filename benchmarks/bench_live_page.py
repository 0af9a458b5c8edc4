#!/usr/bin/env python
"""Benchmark of the live web pages: page open to the first live answer, a continuous drag, and the sizes.

Run from the repository root (after ``make test`` or ``make run``, which fetch the web runtime)::

    .venv/bin/python benchmarks/bench_live_page.py [--runs 3] [--seconds 4] [--json out.json]

In one run, in Debian's headless Chromium (SwiftShader's WebGL: no GPU), every request outside the pages refused:

1. **Open to the first answer**: a site of the gallery (``export-html scenes/ -o SITE``) served from 127.0.0.1,
   and a single file (``export-html SCENE --single``) opened as ``file://``; from ``goto`` to the page's
   ``sphereExplorer.ready`` (Python started, the scene solved, the first frame drawn), median of ``--runs``
   fresh tabs, for the default scene and the 16-ball break.
2. **A continuous drag at 1366x768**: A's centre pressed, then mouse moves sent back to back for ``--seconds``
   (a move is always waiting, as with a real mouse: the page applies the newest at each frame); frames per
   second drawn, and the median milliseconds of a frame's parts (Python: the move and the frame's description;
   vtk.js; the text), from the page's own ``sphereExplorer.timings()``.
3. **Sizes**: a site's live page, its recorded twin, the shared runtime folder, and the single file.

The header gives the machine and the load average, as ``bench_solver.py`` does.  Quote medians of one run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "support"))  # the tests' browser (Playwright, no download)

from bench_solver import fmt_table, machine_info, median  # noqa: E402
from browser import Browser, serve  # noqa: E402

from explorer.model.formats.gallery import SCENES_DIR  # noqa: E402

EXE = Path(sys.executable).with_name("sphere-explorer")
SCENES = ("default", "snooker_break")
VIEWPORT = (1366, 768)


def _export(*args: str) -> None:
    subprocess.run([str(EXE), "export-html", *args], check=True, capture_output=True)


def _open(browser: Browser, url: str, allowed: tuple[str, ...]):
    page = browser.page(allowed, *VIEWPORT)
    start = time.perf_counter()
    page.goto(url)
    page.evaluate("window.sphereExplorer.ready")
    return page, time.perf_counter() - start


def open_times(browser: Browser, urls: dict[str, tuple[str, tuple]], runs: int) -> list[dict]:
    rows = []
    for name, (url, allowed) in urls.items():
        seconds = []
        for _ in range(runs):
            page, taken = _open(browser, url, allowed)
            seconds.append(taken)
            page.context.close()
        rows.append({"page": name, "median_s": median(seconds), "min_s": min(seconds), "max_s": max(seconds)})
    return rows


def drag(browser: Browser, url: str, allowed: tuple, seconds: float) -> dict:
    """Press on A and move the mouse back to back for ``seconds``: frames/s and the parts of a frame."""
    page, _ = _open(browser, url, allowed)
    box = page.locator("#view").bounding_box()
    at = page.evaluate("window.sphereExplorer.screenPosition('A')")
    x, y = box["x"] + at["x"], box["y"] + at["y"]
    page.mouse.move(x, y)
    page.mouse.down()
    first = page.evaluate("window.sphereExplorer.frameCount()")
    start, k, moves = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        k += 1
        page.mouse.move(x + 60 * ((k // 60) % 2 and 1 - (k % 60) / 60 or (k % 60) / 60), y + 0.2 * (k % 30))
        moves += 1
    frames = page.evaluate("window.sphereExplorer.frameCount()") - first
    elapsed = time.perf_counter() - start
    page.mouse.up()
    timings = page.evaluate("window.sphereExplorer.timings()")[-frames:]
    page.context.close()
    part = lambda key: median([t[key] for t in timings]) if timings else float("nan")  # noqa: E731
    return {"frames_per_s": frames / elapsed, "moves_per_s": moves / elapsed, "frames": frames,
            "python_ms": part("python"), "vtkjs_ms": part("draw"), "text_ms": part("text")}  # fmt: skip


def _table(rows: list[dict], keys: list[str], title: str) -> str:
    return "\n" + fmt_table(keys, [[row[k] for k in keys] for row in rows], title)


def screenshot(browser: Browser, url: str, allowed: tuple, out: Path) -> None:
    """The page after A is dragged 90 pixels right and 50 down with the mouse, as a PNG."""
    page, _ = _open(browser, url, allowed)
    box = page.locator("#view").bounding_box()
    at = page.evaluate("window.sphereExplorer.screenPosition('A')")
    x, y = box["x"] + at["x"], box["y"] + at["y"]
    page.mouse.move(x, y)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(x + 9 * k, y + 5 * k)
    page.mouse.up()
    page.wait_for_timeout(300)
    page.screenshot(path=str(out))
    page.context.close()
    print("screenshot:", out)


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh tabs per page for the open time (default 3)")
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each drag (default 4)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--screenshot", type=Path, help="also save the default scene's live page after a drag (PNG)")
    args = parser.parse_args()
    print("machine:", json.dumps(machine_info()))
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        site = work / "site"
        start = time.perf_counter()
        _export(str(SCENES_DIR), "-o", str(site))
        print(f"site of the gallery exported in {time.perf_counter() - start:.1f} s")
        singles = {}
        for stem in SCENES:
            singles[stem] = work / f"{stem}.html"
            _export(str(SCENES_DIR / f"{stem}.json"), "-o", str(singles[stem]), "--single")
        browser = Browser()
        try:
            with serve(site) as base:
                urls = {f"site {s}": (f"{base}{s}.html", (base,)) for s in SCENES}
                urls |= {f"single {s}": (singles[s].as_uri(), ("file://", "blob:", "data:")) for s in SCENES}
                opens = open_times(browser, urls, args.runs)
                drags = [{"page": name, **drag(browser, url, allowed, args.seconds)}
                         for name, (url, allowed) in urls.items()]  # fmt: skip
                if args.screenshot:
                    screenshot(browser, *urls[f"site {SCENES[0]}"], args.screenshot)
        finally:
            browser.close()
        sizes = {
            "site live page (default)": (site / "default.html").stat().st_size,
            "site recorded page (default)": (site / "default.recorded.html").stat().st_size,
            "site runtime folder": folder_bytes(site / "runtime"),
            "single file (default)": singles["default"].stat().st_size,
            "single file (snooker_break)": singles["snooker_break"].stat().st_size,
        }
    print(_table(opens, ["page", "median_s", "min_s", "max_s"], "page open -> first live answer (s)"))
    print(
        _table(
            drags,
            ["page", "frames_per_s", "moves_per_s", "frames", "python_ms", "vtkjs_ms", "text_ms"],
            f"continuous drag at {VIEWPORT[0]}x{VIEWPORT[1]}, moves always waiting (frame parts: median ms)",
        )
    )
    print("\nsizes (bytes)")
    for name, size in sizes.items():
        print(f"  {name:<32} {size:>12,}")
    print("load average at end:", open("/proc/loadavg").read().split()[:3])
    if args.json:
        args.json.write_text(json.dumps({"opens": opens, "drags": drags, "sizes": sizes}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
