"""The momenta diagram in a corner of the 3-D view, for presentation mode (where the panels are hidden).

The diagram is the Momenta panel's own widget (:class:`.momenta_panel.MomentaDiagram`), painted off screen
into an image that the view's overlay shows in its top right corner (a VTK logo representation), redrawn
only when the diagrams change.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonDataModel import vtkImageData
from vtkmodules.vtkInteractionWidgets import vtkLogoRepresentation
from vtkmodules.vtkRenderingCore import vtkRenderer

from .momenta_panel import MomentaDiagram

#: The diagram's size in pixels, and where it sits: (x, y) of its lower left corner and (width, height), as
#: fractions of the view.
CORNER_PIXELS = (600, 320)
CORNER_PLACE = ((0.62, 0.48), (0.37, 0.36))
#: The diagram's text size in the corner (points): read from the back of a classroom.
CORNER_FONT = 15


def image_data(image: QImage) -> vtkImageData:
    """A Qt image as VTK image data (RGBA, rows from the bottom as VTK counts them)."""
    image = image.convertToFormat(QImage.Format_RGBA8888)
    width, height = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(height, image.bytesPerLine())
    pixels = np.ascontiguousarray(rows[::-1, : 4 * width].reshape(height * width, 4))
    data = vtkImageData()
    data.SetDimensions(width, height, 1)
    array = numpy_to_vtk(pixels, deep=True)
    array.SetNumberOfComponents(4)
    data.GetPointData().SetScalars(array)
    return data


class MomentaCorner:
    """The diagram in the top right corner of ``overlay`` (a renderer of the 3-D view); hidden until shown."""

    def __init__(self, overlay: vtkRenderer) -> None:
        self.diagram = MomentaDiagram()
        self.diagram.resize(*CORNER_PIXELS)
        font = self.diagram.font()
        font.setPointSize(CORNER_FONT)
        self.diagram.setFont(font)
        self.logo = vtkLogoRepresentation()
        (x, y), (w, h) = CORNER_PLACE
        self.logo.SetPosition(x, y)
        self.logo.SetPosition2(w, h)
        self.logo.GetImageProperty().SetOpacity(0.92)
        self.logo.SetVisibility(False)
        self.logo.SetRenderer(overlay)  # a widget representation: it places itself in this renderer's viewport
        overlay.AddViewProp(self.logo)
        self._shown = None

    @property
    def visible(self) -> bool:
        return bool(self.logo.GetVisibility())

    def show(self, diagrams, colors: dict[str, str]) -> None:
        """Show ``diagrams`` (``(title, chain)`` each, as the panel's); painted again only when they changed."""
        key = (tuple(diagrams), tuple(sorted(colors.items())))
        if key != self._shown:
            self._shown = key
            self.diagram.show_diagrams(list(diagrams), colors)
            self.logo.SetImage(image_data(self.diagram.grab().toImage()))
        self.logo.SetVisibility(True)

    def hide(self) -> None:
        self.logo.SetVisibility(False)
