"""Colours shared by the 3-D drawing and the plots (no imports: usable everywhere)."""

#: Body colours in order (A first).
BODY_COLORS = (
    "#2f6fd0", "#e3872d", "#3aa655", "#8e5cc4", "#c44e4e", "#1fa3a3", "#b58b00", "#6d6d6d",
    "#d6609e", "#5b8c2a", "#a0522d", "#4a5fb0", "#e0b000", "#2e8b8b", "#9c3f9c", "#7a7a3a",
)  # fmt: skip


def body_color(i: int) -> str:
    """The colour of the body at scene index ``i`` (the colours repeat after 16 bodies)."""
    return BODY_COLORS[i % len(BODY_COLORS)]


def colors_by_name(scene) -> dict[str, str]:
    """Each body of ``scene`` (an :class:`explorer.model.state.scene.Scene`) by name: its colour."""
    return {b.name: body_color(k) for k, b in enumerate(scene.bodies)}


CONTACT_COLOR = "#ff00ff"
#: The inspector's halo around the two bodies it describes.
HALO_COLOR = "#ffc400"
ENTER_COLOR = "#11a052"
EXIT_COLOR = "#c0185a"
FADED_COLOR = "#9a9a9a"
MINKOWSKI_COLOR = "#7b8794"
REFLECT_COLOR = "#d62728"
CLOSEST_COLOR = "#222222"
OVERLAP_COLOR = "#ff2020"
PATH_COLOR = "#303030"
#: The momentum layer: each free body's m v, and the free bodies' centre of mass with its path.
MOMENTUM_COLOR = "#6a3d9a"
COM_COLOR = "#0b7285"
BACKGROUND = "white"
TEXT_COLOR = (0.1, 0.1, 0.12)
#: The parabola plot: the curve and the time ranges of contact.
CURVE_COLOR = "#1f3b73"
CONTACT_FILL = "#f4c9d7"
#: The words of the parabola's vertex (t_min).
VERTEX_TEXT = "#555555"
#: The verdict line's colour by the primary pair's status name (others: VERDICT_PLAIN).
VERDICT_COLORS = {"HIT": "#11803f", "OVERLAPPING": "#c01818"}
VERDICT_PLAIN = "#333333"

#: Words drawn in a colour on the page's white reach this contrast at least (WCAG 1.4.3 asks 4.5:1).
READABLE_CONTRAST = 4.6


def _luminance(rgb: tuple[int, ...]) -> float:
    """The relative luminance of an sRGB colour (0..255 each), as WCAG defines it."""
    linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def readable(color: str) -> str:
    """``color`` ("#rrggbb") for words on white: as it is where it reads at :data:`READABLE_CONTRAST`, else darkened
    in fiftieths, its hue kept, until it does (what is drawn in it keeps its own colour)."""
    rgb = tuple(int(color[k : k + 2], 16) for k in (1, 3, 5))
    for step in range(50, -1, -1):
        darker = tuple(round(c * step / 50) for c in rgb)
        if step == 0 or 1.05 / (_luminance(darker) + 0.05) >= READABLE_CONTRAST:
            return color if step == 50 else "#" + "".join(f"{c:02x}" for c in darker)
    raise AssertionError("unreachable: black reads on white")


def text_colors() -> dict[str, str]:
    """Every colour of this palette that words are drawn in (a label, the colour key, f(t)'s marks, a momentum's
    name): its :func:`readable` form, for the page."""
    named = [value for value in globals().values() if isinstance(value, str) and value.startswith("#")]
    return {color: readable(color) for color in [*BODY_COLORS, *named, *VERDICT_COLORS.values()]}
