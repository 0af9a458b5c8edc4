"""A PyVista plotter that draws straight into a native Qt widget.

pyvistaqt's ``QtInteractor`` is a ``QOpenGLWidget``: VTK draws into an
offscreen framebuffer and Qt then composes the *whole window* through OpenGL
every time anything in it repaints.  On a software renderer (Mesa's llvmpipe,
the machines this runs on) that composition costs more than the 3-D frame
itself, and it is paid again for every panel, label and plot update during a
drag (measured in ``benchmarks/bench_explorer.py``).  VTK's own
``QVTKRenderWindowInteractor`` with a plain ``QWidget`` base gives VTK the
widget's native window instead: VTK renders into it directly and the rest of
the window stays on Qt's ordinary raster painting.  This class puts pyvista's
``BasePlotter`` (cameras, renderers, lights, screenshots) on top of it, as
pyvistaqt does for its widget.
"""

from __future__ import annotations

import contextlib

import vtkmodules.qt

vtkmodules.qt.PyQtImpl = "PySide6"
vtkmodules.qt.QVTKRWIBase = "QWidget"

from pyvista.plotting.plotter import BasePlotter  # noqa: E402
from pyvista.plotting.render_window_interactor import RenderWindowInteractor  # noqa: E402
from vtkmodules.qt.QVTKRenderWindowInteractor import QVTKRenderWindowInteractor  # noqa: E402


@contextlib.contextmanager
def _without_plotter_init():
    """Qt's cooperative ``__init__`` chain would call ``BasePlotter.__init__`` with no arguments: skip that call."""
    init = BasePlotter.__init__
    BasePlotter.__init__ = lambda *args, **kwargs: None
    try:
        yield
    finally:
        BasePlotter.__init__ = init


class NativePlotter(QVTKRenderWindowInteractor, BasePlotter):
    """A pyvista plotter living in a native ``QWidget`` (see the module docstring).

    Parameters
    ----------
    parent : QWidget
    """

    def __init__(self, parent) -> None:
        with _without_plotter_init():
            QVTKRenderWindowInteractor.__init__(self, parent)
        BasePlotter.__init__(self)
        self.interactor = self  # pyvistaqt's name for the widget
        self.ren_win = self.GetRenderWindow()
        self.ren_win.SetMultiSamples(0)  # drafts while dragging; exports render their own anti-aliased picture
        for renderer in self.renderers:
            self.ren_win.AddRenderer(renderer)
        self._off_screen = False
        self.iren = RenderWindowInteractor(self, interactor=self.ren_win.GetInteractor())
        self.iren.interactor.RemoveObservers("MouseMoveEvent")  # pyvista's own hover tracking: not used here
        self.iren.initialize()
        self.enable_trackball_style()
        # VTK's one-letter keys ('w' wireframe, 's' surface, 'p' pick, '3' stereo...) would change the
        # picture behind the explorer's back; its shortcuts are Qt's, so the view swallows them
        interactor = self.iren.interactor
        self._char_tag = interactor.AddObserver(
            "CharEvent", lambda *_: interactor.GetCommand(self._char_tag).SetAbortFlag(1), 10.0
        )
        self._first_time = False  # tells BasePlotter this window renders for real
        self._rendered = True  # ... and has been shown (screenshots read the window as it is)

    def _getPixelRatio(self) -> float:  # noqa: N802 - VTK's name
        """The widget's own device pixel ratio, as VTK's C++ Qt widget takes it.

        VTK's Python widget finds the screen under the mouse pointer at every
        mouse event (about 50 µs: the pointer asked of the X server, every
        screen's geometry), twice a frame of a drag.
        """
        return self.devicePixelRatioF()

    def render(self) -> None:
        """Draw now (one frame)."""
        self.ren_win.Render()

    def close(self) -> None:  # type: ignore[override]
        """Release the plotter and its render window now, while the X server is there.

        A render window left for the interpreter's exit would close its X
        connection then, possibly after the server has gone: an abort.
        """
        if self._RenderWindow is None:
            return
        BasePlotter.close(self)
        QVTKRenderWindowInteractor.close(self)
        self._Iren.SetRenderWindow(None)
        self._RenderWindow = self.ren_win = None
