"""Sphere Sweep Explorer: the scene model, the drawing code and the Qt window.

Layers, each importing only those below it (import-linter contracts in pyproject.toml):
:mod:`explorer.system` (standard library only: set-up, files, signals), :mod:`explorer.model`
(the Qt-free scene, session and analysis), :mod:`explorer.audit` (engine logs), :mod:`explorer.view`
(the drawing, Qt-free), :mod:`explorer.web` (web pages), :mod:`explorer.qt` (the window) and
:mod:`explorer.cli` (the command line).
"""
