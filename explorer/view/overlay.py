"""The text drawn over the scene: the verdict line, a note under it, and the colour key.

They sit on the overlay layer of :class:`~explorer.view.scene_view.SceneView`,
drawn last, over every marker.  Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass

from vtkmodules.vtkRenderingCore import vtkRenderer, vtkTextActor

from ..model.derived.analysis import Solution
from ..model.derived.inspection import Focus
from ..model.state.scene import Scene
from .items import SUBSCRIPTS, rgb, text_style
from .overlay_text import LEGEND_MOMENTUM, LEGEND_ROWS, legend_rows, note_text, verdict_line
from .placement import Placement

#: Font sizes (points) of the verdict line, the labels at 3-D points and the colour key (at most).
VERDICT_SIZE, LABEL_SIZE, LEGEND_SIZE = 16, 15, 13


@dataclass(frozen=True)
class ViewStyle:
    """How large text and thin things are drawn.

    Attributes
    ----------
    text_scale : float
        Times the normal font sizes of the labels and the verdict line.
    legend_scale : float
        Times the normal font size of the colour key (it sits over the scene: less than the labels).
    line_scale : float
        Times the normal thickness of tubes, arrow shafts and markers.
    """

    text_scale: float = 1.0
    legend_scale: float = 1.0
    line_scale: float = 1.0


#: The window and ordinary pictures.
NORMAL = ViewStyle()
#: Presentation mode: readable from the back of a classroom on a 1280×720 projector.
PRESENTATION = ViewStyle(text_scale=2.0, legend_scale=1.6, line_scale=1.8)


class TextOverlay:
    """The verdict line, the note under it and the colour key, on ``overlay`` (a renderer of the plotter)."""

    def __init__(self, overlay: vtkRenderer) -> None:
        self.verdict = self._text(overlay, VERDICT_SIZE, (0.012, 0.955))
        self.note = self._text(overlay, LABEL_SIZE, (0.012, 0.915))  # why the motion stops, or the stepped engine
        self.note.SetVisibility(False)
        self.legend: list[vtkTextActor] = []
        for _ in (*LEGEND_ROWS, *LEGEND_MOMENTUM):
            actor = vtkTextActor()
            actor.SetInput("")  # a row the key does not use yet reads as empty, not as None
            text_style(actor.GetTextProperty(), LEGEND_SIZE)
            actor.GetTextProperty().SetBackgroundColor(1.0, 1.0, 1.0)  # readable where it crosses the scene
            actor.GetTextProperty().SetBackgroundOpacity(0.8)
            actor.GetTextProperty().SetJustificationToRight()
            actor.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
            actor.SetVisibility(False)
            overlay.AddViewProp(actor)
            self.legend.append(actor)

    @staticmethod
    def _text(overlay: vtkRenderer, size: int, position: tuple[float, float]) -> vtkTextActor:
        actor = vtkTextActor()
        text_style(actor.GetTextProperty(), size)
        actor.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
        actor.SetPosition(*position)
        actor.GetTextProperty().SetVerticalJustificationToTop()
        overlay.AddViewProp(actor)
        return actor

    def actors(self) -> list[vtkTextActor]:
        """Every text of the overlay: the verdict, the note and the rows of the colour key."""
        return [self.verdict, self.note, *self.legend]

    def set_style(self, style: ViewStyle) -> None:
        """The verdict and the note at ``style``'s text scale (the key follows at its next drawing)."""
        self.verdict.GetTextProperty().SetFontSize(round(VERDICT_SIZE * style.text_scale))
        self.note.GetTextProperty().SetFontSize(round(LABEL_SIZE * style.text_scale))

    def draw_legend(
        self,
        scene: Scene,
        height: int,
        style: ViewStyle,
        visible: bool,
        focus: Focus | None = None,
        layers: dict[str, bool] | None = None,
    ) -> None:
        """The colour key in the lower right corner of a view ``height`` pixels high (with the labels layer)."""
        height = max(height, 1)
        size = int(min(LEGEND_SIZE, max(7, height / 62)) * style.legend_scale)  # the key keeps to ~1/4 of the height
        row = max(0.032, 1.5 * size / height)
        rows = legend_rows(scene, focus, layers)
        for k, actor in enumerate(self.legend):
            actor.SetVisibility(visible and k < len(rows))
            if k < len(rows):
                color, text = rows[k]
                actor.SetInput(text + " ■")
                actor.GetTextProperty().SetColor(*rgb(color))
                actor.GetTextProperty().SetFontSize(size)
                actor.SetPosition(0.985, 0.03 + row * (len(rows) - 1 - k))

    def draw_verdict(self, scene: Scene, solution: Solution, at: Placement, note: str | None, focus: Focus | None = None,
                     conserved: bool = False, question: str | None = None) -> None:  # fmt: skip
        """The verdict at the top left (with the time and frame when not the defaults), and a note under it.

        The verdict is the inspected pair's when ``focus`` describes another than the primary pair.  The
        note: why the motion stops early (when the time shown is past it), or the frame-stepped engine's
        verdict; with ``conserved`` (the layer of that name), the free bodies' momentum and energy after it.
        With ``question`` (question mode), the question instead of the verdict, and no note.
        """
        line = question if question is not None else verdict_line(scene, solution, at, focus, SUBSCRIPTS)
        if self.verdict.GetInput() != line:
            self.verdict.SetInput(line)
        note = None if question is not None else note_text(scene, solution, at, note, conserved)
        self.note.SetVisibility(note is not None)
        if note is not None and self.note.GetInput() != note:
            self.note.SetInput(note)
