"""Sphere Sweep Explorer: the scene model, the drawing code and the Qt window.

Layers, each depending only on those before it: the scene model
(:mod:`explorer.scene`, :mod:`explorer.scene_io`, :mod:`explorer.analysis`),
the drawing code (Qt-free), and the Qt window.
"""
