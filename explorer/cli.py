"""The ``sphere-explorer`` command line.

::

    sphere-explorer [SCENE]                                   open the window
    sphere-explorer render SCENE -o OUT.png [--size WxH] [--time T]
    sphere-explorer solve SCENE                               solution as JSON
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .model.gallery import DEFAULT_SCENE

#: Exit code for refused input (bad scene, bad arguments).
EXIT_REFUSED = 2


def _fail(message: str) -> int:
    print(f"sphere-explorer: {message}", file=sys.stderr)
    return EXIT_REFUSED


def cmd_solve(args: argparse.Namespace) -> int:
    """Print the solution of a scene as JSON."""
    from .model.analysis import solve, to_dict
    from .model.scene import SceneError
    from .model.scene_io import load

    try:
        scene = load(args.scene)
    except SceneError as exc:
        return _fail(str(exc))
    text = json.dumps(to_dict(solve(scene)), indent=2, allow_nan=False, ensure_ascii=False)
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def cmd_window(args: argparse.Namespace) -> int:
    """Open the explorer window on a scene (the default scene without one)."""
    from .model.scene import SceneError
    from .model.scene_io import load

    path = Path(args.scene) if args.scene else DEFAULT_SCENE
    try:
        scene = load(path)
    except SceneError as exc:
        return _fail(str(exc))
    from .qt.app import run

    return run(scene, path)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size must be between 16 and 8192 pixels a side, got {text!r}")
    return w, h


def cmd_render(args: argparse.Namespace) -> int:
    """Write a headless picture of a scene."""
    from .model.scene import SceneError
    from .model.scene_io import load

    try:
        scene = load(args.scene)
    except SceneError as exc:
        return _fail(str(exc))
    if not (args.time == args.time and abs(args.time) <= 1e6):
        return _fail(f"--time: expected a finite time, got {args.time}")
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".gif", ".mp4"):
        return _fail(f"-o: expected a .png, .gif or .mp4 file, got {out.name!r}")
    if not out.parent.is_dir():
        return _fail(f"-o: folder {str(out.parent)!r} does not exist")
    frame = 1.0 if args.frame == "relative" else 0.0
    if suffix == ".png":
        from .view.render import render_png

        render_png(scene, out, args.size, args.time, frame=frame, with_plot=args.plot)
    else:
        from .view.animation import render_animation

        try:
            render_animation(scene, out, args.size, args.frames, args.fps, frame=frame)
        except ValueError as exc:
            return _fail(str(exc))
    print(out)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Write a bug-report folder: scene, solution JSON, picture with the parabola."""
    from .view.animation import write_report
    from .model.scene import SceneError
    from .model.scene_io import load

    try:
        scene = load(args.scene)
    except SceneError as exc:
        return _fail(str(exc))
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        return _fail(f"-o: {str(out)!r} exists and is not a folder")
    write_report(scene, out, args.size)
    print(out)
    return 0


def _parser_report() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sphere-explorer report", description="Write a bug-report folder: scene.json, solution.json, picture.png."
    )
    p.add_argument("scene", help="scene file (.json)")
    p.add_argument("-o", "--output", required=True, help="folder to write (created if needed)")
    p.add_argument("--size", type=_size, default=(1280, 800), help="WIDTHxHEIGHT of the 3-D view (default 1280x800)")
    p.set_defaults(run=cmd_report)
    return p


def _parser_render() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sphere-explorer render", description="Draw a scene to a PNG, or animate it to a GIF/MP4, without a window."
    )
    p.add_argument("scene", help="scene file (.json)")
    p.add_argument("-o", "--output", required=True, help="picture (.png) or animation (.gif, .mp4) to write")
    p.add_argument("--size", type=_size, default=(1280, 800), help="WIDTHxHEIGHT in pixels (default 1280x800)")
    p.add_argument("--time", type=float, default=0.0, help="time at which the spheres are drawn (default 0)")
    p.add_argument("--frame", choices=("world", "relative"), default="world", help="world frame, or B's rest frame")
    p.add_argument("--plot", action="store_true", help="PNG: put the parabola f(t) beside the view")
    p.add_argument("--frames", type=int, default=40, help="animation: frames over [0, horizon] (default 40)")
    p.add_argument("--fps", type=int, default=20, help="animation: frames per second (default 20)")
    p.set_defaults(run=cmd_render)
    return p


def _parser_solve() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sphere-explorer solve", description="Print a scene's solution as JSON.")
    p.add_argument("scene", help="scene file (.json)")
    p.set_defaults(run=cmd_solve)
    return p


def _parser_window() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sphere-explorer",
        description="Explore moving-sphere collisions. Subcommands: render, solve (see sphere-explorer SUBCOMMAND -h).",
    )
    p.add_argument("scene", nargs="?", help="scene file to open (default: the default scene)")
    p.set_defaults(run=cmd_window)
    return p


SUBCOMMANDS = {"render": _parser_render, "report": _parser_report, "solve": _parser_solve}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sphere-explorer`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        parser = SUBCOMMANDS[argv[0]]()
        argv = argv[1:]
    else:
        parser = _parser_window()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: usage errors exit 2, --help exits 0
        return int(exc.code or 0)
    return args.run(args)


def console() -> int:
    """The ``sphere-explorer`` console script: :func:`main` with the solver's filter as plain Python.

    One command needs a few queries, not millions, so importing numba and
    loading its compiled code (about a second) would only delay the start;
    the answers are identical (``SPHERE_SOLVER_JIT=1`` restores compilation).
    """
    os.environ.setdefault("SPHERE_SOLVER_JIT", "0")
    return main()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(console())
