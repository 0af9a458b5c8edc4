"""The ``sphere-explorer`` command line.

::

    sphere-explorer [SCENE]                                   open the window
    sphere-explorer render SCENE -o OUT.png [--size WxH] [--time T] [--event K] [--pair A,C] [--plot]
    sphere-explorer solve SCENE                               solution as JSON
    sphere-explorer report SCENE -o FOLDER                    bug-report folder
    sphere-explorer export-html SCENE -o PAGE.html            one offline web page (a folder: a site)

Every refusal (a bad scene file, argument, output path or environment) is one
line on stderr and exit code 2, found before any drawing starts; nothing
half-written or temporary is left behind.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import types
from pathlib import Path

from .system import interrupt, numbers  # the console script's first act: nothing slow is imported before it

#: Exit code for refused input (bad scene, bad arguments, unusable output or environment).
EXIT_REFUSED = 2
#: Exit code for an unexpected error (a bug: please report it).
EXIT_BUG = 1

SIZE_RANGE = (16, 8192)
#: Bound on --time, the time a picture is drawn at (not solver.limits.MAX_TIME, the bound of a time argument).
MAX_DRAWN_TIME = 1e6


def _fail(message: str) -> int:
    print(f"sphere-explorer: {message}", file=sys.stderr)
    return EXIT_REFUSED


def _load(path: str | os.PathLike[str]):
    """The scene at ``path``; raises SceneError."""
    from .model.formats.scene_io import load

    return load(path)


# -- argument types (argparse turns their ArgumentTypeError into a one-line refusal) -----------


def _size(text: str) -> tuple[int, int]:
    lo, hi = SIZE_RANGE
    try:
        w, h = (numbers.whole(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if not (lo <= w <= hi and lo <= h <= hi):
        raise argparse.ArgumentTypeError(f"size must be between {lo} and {hi} pixels a side, got {text!r}")
    return w, h


def _time(text: str) -> float:
    try:
        value = numbers.real(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and 0.0 <= value <= MAX_DRAWN_TIME):  # the motion starts at 0: no earlier time
        raise argparse.ArgumentTypeError(f"expected a finite time from 0 to {MAX_DRAWN_TIME:g}, got {text!r}")
    return value


def _int_in(lo: int, hi: int, what: str):
    def parse(text: str) -> int:
        try:
            value = numbers.whole(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number of {what}, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"expected {lo} to {hi} {what}, got {text!r}")
        return value

    return parse


def _one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make ``parser`` refuse bad arguments in one line (argparse's default is usage + error), exit 2."""

    def error(self: argparse.ArgumentParser, message: str) -> None:
        self.exit(EXIT_REFUSED, f"{self.prog}: {' '.join(message.split())} (see {self.prog} --help)\n")

    parser.error = types.MethodType(error, parser)  # type: ignore[method-assign]
    return parser


def _output(path: str, suffixes: tuple[str, ...]) -> Path | str:
    """Check ``-o`` before any work: the suffix, not a folder, writable; return the path or a refusal."""
    from .system.files import WriteError, check_writable, os_reason, show_path

    out = Path(path)
    if out.suffix.lower() not in suffixes:
        return f"-o: expected a {', '.join(suffixes[:-1])} or {suffixes[-1]} file, got {show_path(out.name)!r}"
    try:
        if out.is_dir():
            return f"-o: {show_path(out)} is a folder; give a file name"
        check_writable(out)
    except OSError as exc:
        return f"-o: {show_path(out)}: cannot write ({os_reason(exc)})"
    except WriteError as exc:
        return f"-o: {exc}"
    return out


def _folder_output(path: str, what: str) -> Path | str:
    """Check an output folder before any work (the one safe writer's rule); return the path or a refusal."""
    from .system.files import WriteError, check_folder

    try:
        return check_folder(path, what)
    except WriteError as exc:
        return f"-o: {exc}"


# -- the subcommands ---------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    """Print the solution of a scene as JSON."""
    from .model.derived.analysis import solve, to_dict
    from .model.derived.frames import frame_at
    from .model.state.scene import SceneError
    from .model.words.momenta import at_time

    if sys.stdout is None:
        return _fail("no standard output to write the solution to")
    if args.frame is not None and args.time is None:
        return _fail("--frame: the frame is the one at a time (it changes at a fixed body or a wall); give --time T")
    try:
        scene = _load(args.scene)
        solution = solve(scene)
        data = to_dict(solution)
        if (
            args.time is not None
        ):  # each body's mass, centre, velocity, momentum and energy then, and the centre of mass
            frame = None if args.frame is None else frame_at(scene, solution, args.time, args.frame)
            data |= at_time(scene, solution, args.time, frame)
        text = json.dumps(data, indent=2, allow_nan=False, ensure_ascii=False)
    except (SceneError, ValueError) as exc:
        return _fail(str(exc))
    interrupt.check()  # stopped while solving: nothing is printed
    try:
        try:
            sys.stdout.write(text + "\n")
        except UnicodeEncodeError:  # an ASCII-only stdout (PYTHONIOENCODING=ascii): JSON's \u escapes
            sys.stdout.write(json.dumps(data, indent=2, allow_nan=False) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        _silence_stdout()
    except OSError as exc:  # e.g. > /dev/full
        from .system.files import os_reason

        _silence_stdout()
        return _fail(f"cannot write the solution to the standard output ({os_reason(exc)})")
    return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def cmd_window(args: argparse.Namespace) -> int:
    """Open the explorer window on a scene (the default scene without one)."""
    from .model.formats.gallery import DEFAULT_SCENE
    from .model.state.scene import SceneError
    from .system.files import clean_stale_temps

    path = Path(args.scene) if args.scene else DEFAULT_SCENE
    try:
        scene = _load(path)
    except SceneError as exc:
        return _fail(str(exc))
    clean_stale_temps(path.absolute().parent)  # what interrupted saves there left behind
    from .qt.app import run

    return run(scene, path, present=args.present)


def cmd_render(args: argparse.Namespace) -> int:
    """Write a headless picture of a scene."""
    from .model.state.scene import SceneError
    from .view.render import RenderUnavailable, check_memory, check_offscreen

    out = _output(args.output, (".png", ".gif", ".mp4"))
    if isinstance(out, str):
        return _fail(out)
    suffix = out.suffix.lower()
    try:
        if suffix == ".png":
            check_memory(args.size, plot=args.plot)
        else:
            from .view.animation import check_animation

            for flag, value in (("--plot", args.plot), ("--event", args.event), ("--pair", args.pair),
                                ("--ask", args.ask)):  # fmt: skip
                if value:
                    return _fail(f"{flag}: only for a .png picture")
            check_animation(out, args.size, args.frames, args.fps)
        if args.event is not None and args.time is not None:
            return _fail("--time: --event draws the picture at the event's time; give one of them")
        if args.event is not None and args.pair is not None:
            return _fail("--pair: --event describes the event's own pair; give one of them")
        if args.ask:
            for flag, value in (("--time", args.time), ("--event", args.event), ("--pair", args.pair),
                                ("--plot", args.plot or None)):  # fmt: skip
                if value is not None:
                    return _fail(f"{flag}: --ask draws the question at t = 0, before any answer; leave {flag} out")
        scene = _load(args.scene)
        solution, event, pair = _inspected(scene, args)
        check_offscreen()
        frame = {"world": 0.0, "relative": 1.0, "com": "com"}[args.frame]
        if suffix == ".png":
            from .view.render import render_png

            t = 0.0 if args.time is None else args.time
            render_png(scene, out, args.size, t, frame=frame, with_plot=args.plot, solution=solution, event=event,
                       pair=pair, ask=args.ask)  # fmt: skip
        else:
            from .view.animation import render_animation

            render_animation(scene, out, args.size, args.frames, args.fps, frame=frame)
    except (SceneError, ValueError, RenderUnavailable) as exc:
        return _fail(str(exc))
    _print_path(out)
    return 0


def _inspected(scene, args: argparse.Namespace):
    """The scene's solution when ``--event`` asks for it (else None), ``--event K`` (1 the first) as an index
    into the motion's events, and ``--pair A,C`` as body indices.

    Raises
    ------
    SceneError
        No event K (naming how many there are), a name that is no body of the scene, or not two different bodies.
    """
    from .model.derived.analysis import solve
    from .model.state.scene import SceneError

    solution = event = pair = None
    if args.event is not None:
        solution = solve(scene)
        count = len(solution.events)
        if not 1 <= args.event <= count:
            raise SceneError(f"--event: no event {args.event}; the motion has {count} (1 to {count})" if count else
                             f"--event: no event {args.event}; the motion has none")  # fmt: skip
        event = args.event - 1
    if args.pair is not None:
        pair = _pair(args.pair, [b.name for b in scene.bodies])
    return solution, event, pair


def _pair(text: str, names: list[str]) -> tuple[int, int]:
    """``--pair A,C`` as the two bodies' indices.  A body's name may hold a comma: of the ways to cut ``text``
    at one of its commas, the one that gives two body names is taken.

    Raises
    ------
    SceneError
        No cut gives two body names (naming the unknown one), the two are the same body, or two cuts do
        (naming both readings).
    """
    from .model.state.scene import SceneError

    cuts = [(text[:k], text[k + 1 :]) for k, ch in enumerate(text) if ch == ","]
    readings = [(a, c) for a, c in cuts if a in names and c in names]
    bodies = f"(the bodies: {', '.join(names)}), got {text!r}"
    if len(readings) > 1:
        either = " or as ".join(f"{a!r} and {c!r}" for a, c in readings)
        raise SceneError(f"--pair: {text!r} reads as {either}; rename a body so that one reading is left")
    if not readings or readings[0][0] == readings[0][1]:
        unknown = [name for name in (cuts[0] if len(cuts) == 1 else ()) if name not in names]
        what = f"no body named {unknown[0]!r}" if unknown else "expected two different body names"
        raise SceneError(f"--pair: {what} {bodies}")
    a, c = readings[0]
    return names.index(a), names.index(c)


def cmd_report(args: argparse.Namespace) -> int:
    """Write a bug-report folder: scene, solution JSON, picture with the parabola."""
    from .model.state.scene import SceneError
    from .view.animation import write_report
    from .view.render import RenderUnavailable, check_memory, check_offscreen

    out = _folder_output(args.output, "the report")
    if isinstance(out, str):
        return _fail(out)
    try:
        check_memory(args.size, plot=True)
    except ValueError as exc:
        return _fail(f"-o: {exc}")
    try:
        scene = _load(args.scene)
        check_offscreen()
        write_report(scene, out, args.size)
    except (SceneError, ValueError, RenderUnavailable) as exc:
        return _fail(str(exc))
    _print_path(out)
    return 0


def cmd_export_html(args: argparse.Namespace) -> int:
    """Write a scene as one offline web page, or a folder of scenes as a site."""
    from .model.state.scene import SceneError
    from .system.files import show_path
    from .system.workers import WorkerLost
    from .view.render import RenderUnavailable, check_offscreen
    from .web.export import load_scenes, scene_files, write_page, write_single
    from .web.page import PageTooLarge
    from .web.runtime import WebUnavailable, check_vtk
    from .web.runtime import check as check_runtime

    source = Path(args.scene)
    site = source.is_dir()
    if site and args.single:
        return _fail("--single: one scene file makes one page; a folder of scenes makes a site")
    if site and Path(args.output).suffix.lower() in (".html", ".htm"):
        out = "-o: a folder of scenes makes a site: give a folder to write it in, not a .html file"
    elif site:
        out = _folder_output(args.output, "the site")
    else:
        out = _output(args.output, (".html", ".htm"))
    if isinstance(out, str):
        return _fail(out)
    try:
        paths, skipped = scene_files(source) if site else ([source], [])
        scenes = load_scenes(paths)
        if args.single:
            check_runtime()  # before anything is built
            write_single(scenes[0][1], out, source.stem)
            _print_path(out)
            return 0
        if site:
            check_runtime()  # the live pages' (vtk.js in it, which every page holds), before anything is drawn
            check_offscreen()  # the index's pictures
        else:
            check_vtk()  # what the recorded page holds
        if skipped:
            print(f"sphere-explorer: {show_path(source)}: skipped {', '.join(skipped)}", file=sys.stderr)
        notes = _write_site(scenes, out) if site else [(out, write_page(scenes[0][1], out, source.stem).note)]
    except PageTooLarge as exc:  # a site's names its scene file
        return _fail(str(exc) if site else f"{show_path(source.name)}: {exc}")
    except (SceneError, ValueError, RenderUnavailable, WebUnavailable) as exc:
        return _fail(str(exc))
    except WorkerLost as exc:  # killed from outside (out of memory, say), or crashed
        return _fail(f"{exc}; nothing was written")
    for page, note in notes:
        if note:
            print(f"sphere-explorer: {show_path(page)}: {note}", file=sys.stderr)
    _print_path(out)
    return 0


def _write_site(scenes: list, out: Path) -> list[tuple[Path, str | None]]:
    """:func:`~explorer.web.export.write_site` with a progress bar on a terminal (pages done of all, the last
    one's name); each page and its note."""
    from .system.files import show_path
    from .system.progress import Progress
    from .web.export import write_site

    bar = Progress(len(scenes), label="export-html", unit="pages", per_second=(1.0, "pages/s"), interval=0.0,
                   out_of=True)  # fmt: skip
    try:
        entries = write_site(scenes, out, progress=lambda done, total, name: bar.update(1, detail=show_path(name)))
        bar.finish()
    finally:
        bar.close()
    return [(out / entry.file, entry.note) for entry in entries]


def _print_path(path: Path) -> None:
    """Print the path written, byte for byte (a name that is not UTF-8 too, whatever stdout's encoding)."""
    try:
        print(path)
    except UnicodeEncodeError:
        sys.stdout.flush()
        sys.stdout.buffer.write(os.fsencode(path) + b"\n")
        sys.stdout.flush()


# -- the parsers ---------------------------------------------------------------------------------


def _budget_help() -> str:
    from .view.render import MEMORY_BUDGET, MEMORY_VARIABLE

    return (
        f"Pictures and animations are limited to a memory budget of {MEMORY_BUDGET >> 30} GiB "
        f"({MEMORY_VARIABLE} in MiB changes it): about 7500x7500 pixels for a PNG, 3900x3900 with --plot, "
        "and W x H x frames x 11 bytes more for a GIF (3 for an MP4); larger outputs are refused before drawing."
    )


MP4_HELP = "MP4 export needs the mp4 extra: .venv/bin/pip install -e '.[mp4]' (GIF needs nothing more)."


def _parser_report() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sphere-explorer report",
        description="Write a bug-report folder: scene.json, solution.json, picture.png.",
        epilog="The folder appears complete or not at all; a symbolic link is refused, never followed. "
        + _budget_help(),
    )
    p.add_argument("scene", help="scene file (.json)")
    p.add_argument("-o", "--output", required=True, help="folder to write (created if needed)")
    p.add_argument("--size", type=_size, default=(1280, 800), help="WIDTHxHEIGHT of the 3-D view (default 1280x800)")
    p.set_defaults(run=cmd_report)
    return p


def _parser_render() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sphere-explorer render",
        description="Draw a scene to a PNG, or animate it to a GIF/MP4, without a window.",
        epilog=MP4_HELP + " " + _budget_help(),
    )
    p.add_argument("scene", help="scene file (.json)")
    p.add_argument("-o", "--output", required=True, help="picture (.png) or animation (.gif, .mp4) to write")
    p.add_argument(
        "--size", type=_size, default=(1280, 800), help="WIDTHxHEIGHT in pixels, 16 to 8192 a side (default 1280x800)"
    )
    p.add_argument("--time", type=_time, help="time at which the spheres are drawn (default 0)")
    p.add_argument("--frame", choices=("world", "relative", "com"), default="world",
                   help="world frame, B's rest frame (relative), or the frame of the free bodies' centre of mass (com)")  # fmt: skip
    p.add_argument("--plot", action="store_true", help="PNG: put the parabola f(t) beside the view")
    p.add_argument("--event", type=_int_in(1, 10**6, "events"), help="PNG: inspect the motion's event K (1 the first): "
                   "drawn at its time with its pair, contact and velocities; --plot: that pair's parabola")  # fmt: skip
    p.add_argument("--ask", action="store_true", help="PNG: the picture question mode shows: the bodies at t = 0, "
                   "their velocities and the scene's question, nothing of the answer")  # fmt: skip
    p.add_argument("--pair", metavar="A,C", help="PNG: describe these two bodies (their names; a name holding a "
                   "comma is found too, if only one cut gives two names) instead of A and its partner")  # fmt: skip
    p.add_argument(
        "--frames",
        type=_int_in(2, 1000, "frames"),
        default=40,
        help="animation: frames over [0, horizon], 2 to 1000 (default 40)",
    )
    p.add_argument(
        "--fps",
        type=_int_in(1, 100, "frames per second"),
        default=20,
        help="animation: frames per second, 1 to 100 (default 20)",
    )
    p.set_defaults(run=cmd_render)
    return p


def _parser_export_html() -> argparse.ArgumentParser:
    from .web import PAGE_BUDGET, SINGLE_BUDGET

    p = argparse.ArgumentParser(
        prog="sphere-explorer export-html",
        description="Write a scene as one offline web page (a folder of scenes: a site with an index).",
        epilog="Every page requests nothing outside its own files. "
        "A scene's page (the default) is recorded: the live page's view and panels playing the frames its Python "
        "described at export, with no Python in the browser (drag to turn, wheel or pinch to zoom; the time slider "
        "and Play, B's rest frame, the centre-of-mass frame, the momenta, Frame all; a scene that asks opens asking "
        "and shows its answer after Reveal; nothing to drag), in any browser with WebGL; it holds vtk.js. "
        "--single writes the live page instead, where the spheres and arrow tips can be dragged and everything "
        "follows: the project's Python runs in the page (Pyodide) and the page works offline from a file, an e-mail "
        f"attachment say (about 7.6 MB; at most {SINGLE_BUDGET / 1e6:g} MB). "
        "From a folder: a site for any static web server (python3 -m http.server in it): SITE/index.html with a "
        "thumbnail of each scene, and for each scene file (*.json) its live page NAME.html, which runs the shared "
        "SITE/runtime/ (Python and vtk.js, about 15 MB once), and its recorded page NAME.recorded.html, which a live "
        "page opened as a file (where a browser starts no Python) goes to. "
        "The pages need the web runtime, which make run and make test fetch (Pyodide and vtk.js at pinned "
        "versions, checked by SHA-256); without it they are refused in one line naming the command. "
        f"Size budget: at most {PAGE_BUDGET / 1e6:g} MB a page (a recorded one; every gallery scene's is 1.0 to 1.4 "
        "MB); a long motion's page is kept within it by keeping fewer frames: a time slider that stops at fewer "
        "instants, then no centre-of-mass frame, then no rest frame (said on the page and on stderr), and a page "
        "that still cannot fit is refused, naming its size. A site publishes the folder's *.json files; a symbolic link is followed only to a file inside the "
        "folder. Skipped, and listed on stderr: subfolders, hidden entries (.name), links leading outside the "
        "folder or to no regular file, devices and FIFOs, and (counted) files of other names. A page is named after "
        "its scene file (bytes that are not UTF-8 replaced), and an untitled scene is titled by its file name in "
        "printable form. A site's pages are made by two worker processes (one per usable core), and a progress bar "
        "(pages done, the last one's name) is drawn on a terminal. Pages and sites appear complete or not at all; a "
        "folder with one bad scene file is refused whole.",
    )
    p.add_argument("scene", help="scene file (.json), or a folder of scene files")
    p.add_argument(
        "-o", "--output", required=True, help="the page to write (.html); for a folder of scenes, the site's folder"
    )
    p.add_argument("--single", action="store_true", help="one scene's live page as one self-contained file")
    p.set_defaults(run=cmd_export_html)
    return p


def _parser_solve() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sphere-explorer solve", description="Print a scene's solution as JSON.")
    p.add_argument("scene", help="scene file (.json)")
    p.add_argument("--time", type=_time, help="also give every body at time T (bodies_at: name, mass (null when fixed), "
                   "center, velocity, momentum, kinetic_energy) and the free bodies' center_of_mass (position, "
                   "velocity; null without a free body), along the certified motion")  # fmt: skip
    p.add_argument("--frame", choices=("world", "com", "relative"),
                   help="with --time: give bodies_at and center_of_mass in the frame at T (com: the one moving with "
                   "the free bodies' centre of mass as it moves at T, where its velocity is zero; relative: B's rest "
                   "frame, moving with B at T), pinned where it was at t = 0; adds \"frame\": name, velocity and "
                   "moved (its velocity at T and how far it went since t = 0, in the world)")  # fmt: skip
    p.set_defaults(run=cmd_solve)
    return p


def _parser_window() -> argparse.ArgumentParser:
    from .system.probes import command_name

    lines = [f"subcommands (see {command_name()} SUBCOMMAND --help):"]
    for name, make in SUBCOMMANDS.items():
        lines.append(f"  {name:<8} {make().description or ''}")
    lines += [
        "",
        MP4_HELP,
        _budget_help(),
        "Exit codes: 0 done; 2 refused (a bad scene file, argument, output path or environment), "
        "in one line on stderr; 1 an unexpected error (please report it).",
    ]
    p = argparse.ArgumentParser(
        prog="sphere-explorer",
        description="Explore moving-sphere collisions: open the window on SCENE, or run a subcommand.",
        epilog="\n".join(lines),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("scene", nargs="?", help="scene file to open (default: the default scene)")
    p.add_argument(
        "--present", action="store_true", help="start in presentation mode (full screen, large text; Esc leaves)"
    )
    p.set_defaults(run=cmd_window)
    return p


def _parser_audit() -> argparse.ArgumentParser:
    from .audit.command import add_arguments, run

    p = argparse.ArgumentParser(
        prog="sphere-explorer audit",
        description="Check every query of an engine's collision log exactly; write a summary, a plot and the worst cases as scenes.",
    )
    add_arguments(p)
    p.set_defaults(run=run)
    return p


SUBCOMMANDS = {
    "audit": _parser_audit,
    "export-html": _parser_export_html,
    "render": _parser_render,
    "report": _parser_report,
    "solve": _parser_solve,
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sphere-explorer`` console script.

    SIGINT and SIGTERM are recorded and acted on at each command's safe points
    (:mod:`explorer.system.interrupt`): one line, exit 130 or 143, nothing left;
    or, once the output is in place, exit 0.  The window keeps their usual effect.
    """
    with interrupt.catching(raising=False):
        argv = list(sys.argv[1:] if argv is None else argv)
        if argv and argv[0] in SUBCOMMANDS:
            parser = SUBCOMMANDS[argv[0]]()
            argv = argv[1:]
        else:
            parser = _parser_window()
        _one_line_errors(parser)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # usage errors exit 2 (one line), --help exits 0
            return int(exc.code or 0)
        return _run(args, parser.prog)


def _run(args: argparse.Namespace, prog: str) -> int:
    """Run a parsed command: every failure one line (see the module docstring), a bug exit 1."""
    try:
        interrupt.check()  # a signal while the arguments were read
        if args.run is cmd_window:  # Qt's event loop: Ctrl-C and kill keep their usual effect on a window
            with interrupt.released():
                return args.run(args)
        return args.run(args)
    except KeyboardInterrupt:  # every writer removes what it had begun
        print(f"{prog}: {interrupt.MESSAGE}", file=sys.stderr)
        return interrupt.exit_code()
    except MemoryError:
        return _fail("out of memory")
    except OSError as exc:  # a file the user named: too long a name, a full disk, a read-only place, ...
        from .system.files import os_error_line

        return _fail(os_error_line(exc))
    except Exception as exc:  # noqa: BLE001 - a bug: one line (the traceback with SPHERE_EXPLORER_DEBUG=1)
        if os.environ.get("SPHERE_EXPLORER_DEBUG"):
            raise
        where = exc.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        place = f" at {Path(where.tb_frame.f_code.co_filename).name}:{where.tb_lineno}" if where else ""
        message = " ".join(f"{type(exc).__name__}: {exc}".split())
        print(
            f"sphere-explorer: unexpected error{place}: {message[:300]} "
            f"(please report it; SPHERE_EXPLORER_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return EXIT_BUG


def console(early: list[int] | tuple[int, ...] = ()) -> int:
    """The ``sphere-explorer`` console script (through :mod:`explorer.start`, which recorded ``early``, the
    signals that came while this module was imported): :func:`main` with the solver as plain Python.

    One command needs a few queries, not millions, so importing numba and
    loading its compiled code (about a second) would only delay the start;
    the answers are identical.  The audit, which decides millions of pairs,
    asks for the compiled solver instead (:func:`explorer.audit.command.run`); a
    user's ``SPHERE_SOLVER_JIT`` (``0`` or ``1``) wins over both.
    """
    interrupt.install(early)  # first, before anything slow is imported: a signal from now on is only recorded
    import solver  # its package alone: the queries, numba and numpy are imported on first use

    solver.configure(jit=False)
    code = main()
    if code in interrupt.EXIT_CODES:
        # Stopped by a signal, it has removed what it wrote and said so: it leaves at once, so the
        # interpreter's shutdown does not tear down a daemon thread in the middle of a C++ call (the
        # audit's reader, the plot's background import), which can abort ("terminate called...").
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    interrupt.ignore()  # complete (or refused): a signal during the interpreter's shutdown changes nothing
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(console())
