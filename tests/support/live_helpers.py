"""What the live pages' browser tests share: export with the console script, drag A with the mouse as a user does,
and compare a page's answers with ``sphere-explorer solve``."""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from browser import wait_until
from cli_helpers import EXE, solved

#: How far the mouse drags A's centre, in CSS pixels, and in how many moves.
DRAG = (40.0, 25.0)
MOVES = 4


def export(*args: str) -> None:
    done = subprocess.run([str(EXE), "export-html", *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


def _solve(scenes: list[dict], folder: Path) -> list[dict]:
    """``sphere-explorer solve`` of each scene (written to a file), two at a time."""
    files = []
    for k, scene in enumerate(scenes):
        files.append(folder / f"page-scene-{k}.json")
        files[-1].write_text(json.dumps(scene), encoding="utf-8")

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(solved, files))


def open_scene_file(page, path: Path, answered: bool = True) -> None:
    """Open the scene file ``path`` in a live page with its *Open…* (the file chooser), and wait until it shows it;
    a scene that asks its question is answered (Reveal, to the end), unless not ``answered``: until then the page
    gives nothing of the answer, ``solution()`` included."""
    title = json.loads(path.read_text(encoding="utf-8")).get("title") or path.name
    with page.expect_file_chooser() as chooser:
        page.click("#open")
    chooser.value.set_files(str(path))
    wait_until(page, f"document.getElementById('title').textContent === {json.dumps(title)}")
    if answered:
        answer_if_asked(page)


def answer_if_asked(page) -> None:
    """A page whose scene asks its question: Reveal, to the end (until then it gives nothing of the answer,
    ``solution()`` included)."""
    if page.evaluate("window.sphereExplorer.frame().stage") == "asking":
        page.click("#reveal")
        wait_until(page, "window.sphereExplorer.frame().stage === 'shown'")


def drag_a(page, touch: bool = False) -> tuple[dict, dict, dict]:
    """Wait for the page's Python, drag A's centre with the mouse (or a finger, with ``touch``: touch events through
    the browser's input, as a phone sends them); returns the scene before, and the page's scene and solution
    after."""
    page.evaluate("window.sphereExplorer.ready")
    answer_if_asked(page)
    before = page.evaluate("window.sphereExplorer.scene()")
    name = before["bodies"][0]["name"]
    page.locator("#view").scroll_into_view_if_needed()  # as a reader scrolls back to the view after a button
    box = page.locator("#view").bounding_box()
    where = f"window.sphereExplorer.screenPosition({json.dumps(name)})"
    at = page.evaluate(where)
    seen = lambda: 20 < at["x"] < box["width"] - 20 and 20 < at["y"] < box["height"] - 20  # noqa: E731
    if not seen():  # a long shot's camera frames the contact: Frame all brings A into view
        page.click("#frame-all")
        page.locator("#view").scroll_into_view_if_needed()
        box = page.locator("#view").bounding_box()
        at = page.evaluate(where)
        assert seen(), f"{name} out of view after Frame all: {at}"
    x, y = box["x"] + at["x"], box["y"] + at["y"]
    points = [(x + DRAG[0] * k / MOVES, y + DRAG[1] * k / MOVES) for k in range(MOVES + 1)]
    if touch:
        cdp = page.context.new_cdp_session(page)
        for kind, (px, py) in zip(["touchStart"] + ["touchMove"] * MOVES, points):
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": px, "y": py}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        page.mouse.move(*points[0])
        page.mouse.down()
        for point in points[1:]:
            page.mouse.move(*point)
        page.mouse.up()
    return before, page.evaluate("window.sphereExplorer.scene()"), page.evaluate("window.sphereExplorer.solution()")


def check_against_the_command_line(results: list[tuple[str, dict, dict, dict]], folder: Path) -> None:
    solved = _solve([scene for _, _, scene, _ in results], folder)
    for (name, before, after, solution), expected in zip(results, solved):
        moved = after["bodies"][0]
        assert (moved["center"], moved["velocity"]) != (
            before["bodies"][0]["center"],
            before["bodies"][0]["velocity"],
        ), name
        assert after["bodies"][1:] == before["bodies"][1:], f"{name}: only A moves"
        assert not list(differences(solution, expected)), (name, list(differences(solution, expected)))


def differences(got, expected, where=""):
    """Where two JSON values differ.  Numbers are compared as doubles: a page's numbers come back through the
    browser's bridge as JavaScript writes them (2.0 as 2, -4.731392561261408e+20 as -473139256126140800000), the
    same double in other digits."""
    number = (int, float)
    if isinstance(got, number) and isinstance(expected, number) and not isinstance(got, bool):
        if float(got) != float(expected) or isinstance(expected, bool):
            yield where, got, expected
    elif isinstance(got, dict) and isinstance(expected, dict):
        for key in sorted(set(got) | set(expected)):
            yield from differences(got.get(key), expected.get(key), f"{where}.{key}")
    elif isinstance(got, list) and isinstance(expected, list) and len(got) == len(expected):
        for k, (a, b) in enumerate(zip(got, expected)):
            yield from differences(a, b, f"{where}[{k}]")
    elif got != expected:
        yield where, got, expected
