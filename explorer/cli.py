"""The ``sphere-explorer`` command line.

::

    sphere-explorer [SCENE]                                   open the window
    sphere-explorer render SCENE -o OUT.png [--size WxH] [--time T]
    sphere-explorer solve SCENE                               solution as JSON
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .analysis import solve, to_dict
from .gallery import DEFAULT_SCENE
from .scene import SceneError
from .scene_io import load

#: Exit code for refused input (bad scene, bad arguments).
EXIT_REFUSED = 2


def _fail(message: str) -> int:
    print(f"sphere-explorer: {message}", file=sys.stderr)
    return EXIT_REFUSED


def cmd_solve(args: argparse.Namespace) -> int:
    """Print the solution of a scene as JSON."""
    try:
        scene = load(args.scene)
    except SceneError as exc:
        return _fail(str(exc))
    json.dump(to_dict(solve(scene)), sys.stdout, indent=2, allow_nan=False, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def cmd_window(args: argparse.Namespace) -> int:
    """Open the window (not built yet: show the default scene's solution instead)."""
    path = Path(args.scene) if args.scene else DEFAULT_SCENE
    print("sphere-explorer: the window is not built yet; here is the solution of", path.name, file=sys.stderr)
    args.scene = path
    return cmd_solve(args)


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


SUBCOMMANDS = {"solve": _parser_solve}


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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
