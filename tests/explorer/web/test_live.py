"""The live page's Python (explorer.web.live), run natively: it shows what the window shows and edits as it edits.

The browser tests (tests/scenarios/pages_in_a_browser/test_live_pages.py) run the same module in Pyodide; here each promise is checked against the
window's own parts: the picture (:func:`explorer.view.picture.describe`), the session's drag and the command line's
JSON.  A subprocess where numpy cannot be imported shows the page's Python needs none, and imports nothing of the
project but the sources a page ships (:data:`explorer.web.runtime.SOURCES`).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from explorer.model.actions.session import Session
from explorer.model.derived.analysis import solve, to_dict
from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.model.formats.scene_io import load, parse
from explorer.model.state.scene import SceneError
from explorer.view.bounds import view_bounds
from explorer.view.local_frame import LocalFrame
from explorer.view.picture import describe
from explorer.web.live import LivePage, looks
from explorer.web.runtime import source_files

#: A ray looking straight down at a point (x, y), from high above.
DOWN = [0.0, 0.0, -1.0]


def _ray(page: LivePage, x: float, y: float, height: float = 1e3) -> str:
    """A ray straight down at world point (x, y) from ``height``, as the page sends it: in the frame it draws in."""
    return json.dumps([page.drawing_frame().point((x, y, height)), DOWN])


def _page(stem: str) -> LivePage:
    return LivePage((SCENES_DIR / f"{stem}.json").read_text(encoding="utf-8"))


def test_a_frame_is_the_windows_picture_and_words():
    page = _page("snooker_break")
    frame = json.loads(page.frame())
    scene = load(SCENES_DIR / "snooker_break.json")
    solution = solve(scene)
    picture = describe(scene, solution, layers=Session(scene).view.layers, handles=True)
    assert [(s["name"], s["kind"]) for s in frame["shapes"]] == [(s.name, s.kind) for s in picture.shapes]
    assert [x["text"] for x in frame["labels"]] == [x.text for x in picture.labels]
    assert frame["verdict"].startswith("A–B: HIT at t₀ = 0.375052") and "26 events" in frame["verdict"]
    assert len(frame["events"]) == len(solution.events) == 26
    local = page.drawing_frame()  # the page draws in a frame of its own (explorer.view.local_frame)
    assert [local.world(c) for c in frame["bounds"]] == [
        pytest.approx(c, rel=1e-8) for c in view_bounds(scene, solution)
    ]
    assert set(json.loads(looks())["items"]) >= {s["name"] for s in frame["shapes"]}


def _holds(box, point, pad: float = 0.0) -> bool:
    lo, hi = box
    return all(lo[k] <= point[k] - pad and point[k] + pad <= hi[k] for k in range(3))


def test_frame_all_holds_every_body_over_the_whole_motion_where_the_camera_frames_only_the_contact():
    """The long shot: A starts 300,000 units from the contact; the default camera's box is a close-up of it, the
    *Frame all* box holds both bodies from t = 0 to the horizon (in B's rest frame: A's whole ray and the expanded
    sphere); while asking, the bodies' flights as if nothing turned them."""
    page = _page("seed003_long_shot")
    scene = load(SCENES_DIR / "seed003_long_shot.json")
    frame, whole = json.loads(page.frame()), json.loads(page.whole_box())
    ends = [(b, b.position(t)) for b in scene.bodies for t in (0.0, scene.horizon)]
    assert all(_holds(whole, p, b.radius * (1 - 1e-12)) for b, p in ends)
    local = page.drawing_frame()
    assert not _holds(
        [local.world(c) for c in frame["bounds"]], scene.bodies[0].center
    )  # the close-up: A far out of it
    page.set_rest_frame(True)
    page.turn(10.0)
    a, b = scene.bodies
    relative = [tuple(a.center[k] + (a.velocity[k] - b.velocity[k]) * t for k in range(3)) for t in (0.0, 1.0)]
    whole = json.loads(page.whole_box())
    assert all(_holds(whole, p) for p in relative) and _holds(whole, b.center, a.radius + b.radius)
    page = _page("default")
    page.ask(True)
    whole = json.loads(page.whole_box())
    scene = load(SCENES_DIR / "default.json")
    flights = [(b, b.position(t)) for b in scene.bodies for t in (0.0, scene.horizon)]
    assert all(_holds(whole, p, b.radius * (1 - 1e-12)) for b, p in flights)


def test_the_solution_and_scene_are_what_the_command_line_and_a_scene_file_hold():
    for path in gallery():
        page = LivePage(path.read_text(encoding="utf-8"))
        scene = load(path)
        if page.session.asking.asking:  # a scene that asks its question: answered first
            page.ask(False)
        assert json.loads(page.solution_text()) == json.loads(json.dumps(to_dict(solve(scene))))
        assert parse(page.scene_text()) == scene


def test_opening_a_scene_file_makes_it_the_pages_scene_with_a_fresh_history_and_a_refused_one_changes_nothing():
    page = _page("default")
    page.set_time(0.5)
    text = (SCENES_DIR / "caged_ball.json").read_text(encoding="utf-8")
    assert page.open_text(text) == ""
    frame = json.loads(page.frame())
    assert parse(page.scene_text()) == load(SCENES_DIR / "caged_ball.json") and frame["title"] == parse(text).title
    assert page.session.view.time == 0.0 and not page.session.history.can_undo
    before = page.scene_text()
    bad = json.dumps(json.loads((SCENES_DIR / "default.json").read_text(encoding="utf-8")) | {"horizon": "soon"})
    with pytest.raises(SceneError) as refusal:
        parse(bad)
    assert page.open_text(bad) == str(refusal.value) and "horizon" in page.open_text(bad)
    assert page.scene_text() == before


def test_a_drag_moves_a_as_the_windows_drag_does_and_is_one_undoable_edit():
    page = _page("default")
    scene = load(SCENES_DIR / "default.json")
    a = scene.bodies[0]
    assert page.press(_ray(page, a.center[0], a.center[1]), json.dumps(DOWN))
    assert page.move(_ray(page, a.center[0] + 1.5, a.center[1] - 0.5))
    assert page.move(_ray(page, a.center[0] + 2.0, a.center[1] + 0.25))
    page.release()
    moved = parse(page.scene_text())
    assert moved.bodies[0].center == (a.center[0] + 2.0, a.center[1] + 0.25, a.center[2])  # the plane z = const
    assert moved.bodies[1:] == scene.bodies[1:]
    session = Session(scene)  # the window's session, the same gesture
    session.begin_drag(0, "center", a.center)
    session.drag_to((a.center[0] + 2.0, a.center[1] + 0.25, a.center[2]))
    session.end_drag()
    assert moved == session.scene
    frame = json.loads(page.frame())
    assert frame["canUndo"] and not frame["canRedo"]
    page.undo()
    assert parse(page.scene_text()) == scene
    page.redo()
    page.reset()
    assert parse(page.scene_text()) == scene and json.loads(page.frame())["canUndo"]  # the reset is undoable too


def test_shift_on_a_sphere_and_a_tip_drag_the_velocity_and_empty_space_grabs_nothing():
    page = _page("default")
    scene = load(SCENES_DIR / "default.json")
    a = scene.bodies[0]
    assert not page.press(_ray(page, 100.0, 100.0), json.dumps(DOWN))  # nothing there: the camera turns
    tip = [a.center[k] + a.velocity[k] * scene.horizon for k in range(3)]
    assert page.press(_ray(page, tip[0], tip[1]), json.dumps(DOWN))
    page.move(_ray(page, tip[0] + 1.0, tip[1]))
    page.release()
    after = parse(page.scene_text()).bodies[0]
    assert after.center == a.center and after.velocity == (a.velocity[0] + 1.0 / scene.horizon, *a.velocity[1:])
    assert page.press(
        _ray(page, a.center[0], a.center[1]), json.dumps(DOWN), shift=True
    )  # Shift: from the centre, the tip
    page.move(_ray(page, a.center[0], a.center[1] + 2.0))
    page.release()
    shifted = parse(page.scene_text()).bodies[0]
    assert shifted.center == a.center and shifted.velocity[1] == after.velocity[1] + 2.0 / scene.horizon


def test_a_ball_inside_a_container_is_grabbed_not_the_container_and_a_tiny_ball_within_a_few_pixels():
    page = _page("seed001_container")
    scene = load(SCENES_DIR / "seed001_container.json")
    a = scene.bodies[0]
    assert page.press(_ray(page, a.center[0], a.center[1]), json.dumps(DOWN))
    page.move(_ray(page, a.center[0] + 0.5, a.center[1]))
    page.release()
    assert parse(page.scene_text()).bodies[1] == scene.bodies[1]
    assert parse(page.scene_text()).bodies[0].center[0] == a.center[0] + 0.5
    page = _page("seed003_long_shot")
    a = load(SCENES_DIR / "seed003_long_shot.json").bodies[0]
    near = a.center[0] + 30 * a.radius  # a ray passing 30 radii wide of the bullet, from 1e6 away
    assert not page.press(_ray(page, near, a.center[1], 1e6), json.dumps(DOWN))
    assert page.press(_ray(page, near, a.center[1], 1e6), json.dumps(DOWN), slack=1e-4)  # 1e-4 rad: 100 units there


def test_a_drag_beyond_the_limits_is_refused_in_words_and_the_scene_stays():
    page = _page("default")
    a = load(SCENES_DIR / "default.json").bodies[0]
    page.press(_ray(page, a.center[0], a.center[1]), json.dumps(DOWN))
    assert not page.move(_ray(page, 5e12, a.center[1]))
    frame = json.loads(page.frame())
    assert frame["refusal"].endswith("— the drag stops here") and "1e+12" in frame["refusal"]
    assert json.loads(page.frame())["refusal"] is None  # said once
    page.release()
    assert parse(page.scene_text()).bodies[0].center == a.center


def test_time_the_rest_frame_and_the_events_as_in_the_window():
    page = _page("snooker_break")
    page.set_time(0.5)
    frame = json.loads(page.frame())
    assert frame["time"]["t"] == 0.5 and frame["time"]["label"] == "0.5"
    page.set_rest_frame(True)
    while page.turn(0.1):
        pass
    frame = json.loads(page.frame())
    assert frame["restFrame"] and "B's rest frame" in frame["verdict"]
    page.set_rest_frame(False)
    while page.turn(0.1):
        pass
    page.step_event(1)
    frame = json.loads(page.frame())
    events = solve(load(SCENES_DIR / "snooker_break.json")).events
    k = next(k for k, e in enumerate(events) if e.time >= 0.5)  # the first event from the time shown
    assert frame["inspected"] == k and frame["time"]["t"] == events[k].time  # the inspector jumps to it
    page.inspect(25)
    page.step_event(1)
    assert json.loads(page.frame())["refusal"] == "event: no later event"


def test_while_asking_the_time_slider_says_nothing_of_a_later_contact():
    """A contact after the horizon (seed003_later) stretches the time slider once shown, not while asking (its
    range would tell that there is one)."""
    later = _page("seed003_later")
    horizon = load(SCENES_DIR / "seed003_later.json").horizon
    shown = json.loads(later.frame())["time"]["hi"]
    later.ask(True)
    asking = json.loads(later.frame())["time"]["hi"]
    assert asking < 1.1 * horizon < shown


@pytest.mark.parametrize("stem", ["default", "snooker_break", "seed001_container"])
def test_the_pages_python_needs_no_numpy_and_only_the_shipped_sources(stem):
    shipped = sorted(name for name, _ in source_files())
    script = f"""
import json, sys
sys.modules["numpy"] = None
from explorer.web.live import LivePage, looks
page = LivePage(open({str(SCENES_DIR / f"{stem}.json")!r}, encoding="utf-8").read())
looks(); page.frame(); page.solution_text(); page.scene_text(); page.step_event(1); page.frame()
page.press(json.dumps([[0, 0, 1e3], [0, 0, -1]]), json.dumps([0, 0, -1])); page.move(json.dumps([[1, 0, 1e3], [0, 0, -1]]))
page.release(); page.set_rest_frame(True); page.turn(1.0); page.frame()
root = {str(source_files()[0][1].parents[1])!r}
print(json.dumps(sorted(m.__file__[len(root) + 1:] for name, m in sys.modules.items()
                        if m is not None and name.split(".")[0] in ("explorer", "solver"))))
print(json.dumps(sorted(n for n, m in sys.modules.items() if m is not None and n.split(".")[0] in
                        ("numpy", "numba", "vtk", "vtkmodules", "pyvista", "matplotlib", "PySide6"))))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    imported, heavy = (json.loads(line) for line in done.stdout.splitlines()[-2:])
    assert heavy == []
    assert set(imported) <= set(shipped), sorted(set(imported) - set(shipped))
    assert "explorer/web/live.py" in imported and "solver/motion.py" in imported


def test_a_download_takes_the_scene_s_title_in_its_own_letters():
    text = (SCENES_DIR / "default.json").read_text(encoding="utf-8")
    data = json.loads(text)
    data["title"] = "Δύο σφαίρες συγκρούονται"
    page = LivePage(json.dumps(data, ensure_ascii=False))
    assert json.loads(page.frame())["fileName"] == "Δύο_σφαίρες_συγκρούονται"


def test_the_page_is_told_each_body_s_velocity_arrow_and_name_not_left_to_parse_shape_names():
    """heavy_light_glancing: A's arrow from its centre along (8, 0, 0) over h = 1, B's drawn longer than its
    velocity (0, 0.5, -0.3) so that it leaves B's sphere (r 0.8), in its direction."""
    frame = json.loads(_page("heavy_light_glancing").frame())
    assert frame["names"] == ["A", "B"]
    local = LocalFrame(tuple(frame["local"]["origin"]), frame["local"]["unit"])
    (a_start, a_end), (b_start, b_end) = ([list(local.world(p)) for p in arrow] for arrow in frame["arrows"])
    assert a_start == pytest.approx([-6, 0.8, 0.5], abs=1e-8) and a_end == pytest.approx([2, 0.8, 0.5], abs=1e-8)
    b = [e - s for s, e in zip(b_start, b_end)]
    length = sum(x * x for x in b) ** 0.5
    assert length > 0.8 and b[0] == 0.0 and b[1] / length == pytest.approx(0.5 / 0.34**0.5)


def _asked(bodies: list[dict]) -> LivePage:
    data = json.loads((SCENES_DIR / "default.json").read_text(encoding="utf-8"))
    data.update(bodies=bodies, question="Which will A hit first, if any?", view={"ask": True})
    return LivePage(json.dumps(data))


def _fixed(name: str, center, radius: float) -> dict:
    return {"name": name, "center": list(center), "velocity": [0, 0, 0], "radius": radius, "fixed": True}


#: Pairs of asking scenes with the same givens but one (a radius, a position) and different answers: A passes 1.95
#: from B's centre (R = 2 touches, R = 1.9 misses); A along x meets B at 6 first, or, with B moved off its line, C.
ASKED_PAIRS = {
    "touch or miss": [
        [{"name": "A", "center": [-5, 1.95, 0], "velocity": [10, 0, 0], "radius": 1.0}, _fixed("B", (0, 0, 0), r)]
        for r in (1.0, 0.9)
    ],
    "B or C first": [
        [
            {"name": "A", "center": [0, 0, 0], "velocity": [12, 0, 0], "radius": 0.5},
            _fixed("B", (6, y, 0), 0.5),
            _fixed("C", (9, 0, 0), 0.5),
        ]
        for y in (0.0, 3.0)
    ],  # fmt: skip
}
#: What a frame says that could depend on the answer (besides the givens: positions, radii, the form's values).
ANSWER_FIELDS = ("time", "other", "verdict", "verdictColor", "note", "values", "trace", "pairs", "events", "plot",
                 "score", "spoken", "restFrame", "inspected", "refusal")  # fmt: skip


@pytest.mark.parametrize("which", list(ASKED_PAIRS))
def test_while_asking_nothing_the_page_shows_or_answers_differs_with_the_answer(which):
    """Two asking scenes whose answers differ: every field of the page's frame that is not a given, its solution(),
    its rest-frame switch, [ and ]: the same in both (at 4decb2d the switch named the body A meets first, [ and ]
    said whether there is an event, solution() gave the answer)."""
    pages = [_asked(bodies) for bodies in ASKED_PAIRS[which]]
    truths = [page.session.solution for page in pages]
    assert (truths[0].sweep.hit, truths[0].other) != (truths[1].sweep.hit, truths[1].other)  # the answers differ
    for page in pages:
        page.set_rest_frame(True)  # refused while asking
        page.step_event(1)
        page.step_event(-1)
    shown = [{k: frame[k] for k in ANSWER_FIELDS} for frame in (json.loads(page.frame()) for page in pages)]
    assert shown[0] == shown[1]
    assert shown[0]["restFrame"] is False and shown[0]["refusal"] is None
    answers = [json.loads(page.solution_text()) for page in pages]
    assert answers[0] == answers[1] == {"asking": True, "question": "Which will A hit first, if any?"}
