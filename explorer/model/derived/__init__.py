"""The derived quantities: what a scene's motion is, computed from the state.

The solution, its events and bounce path (:mod:`~explorer.model.derived.analysis`),
what the motion conserves (:mod:`~explorer.model.derived.conserved`), the pair
and event in focus (:mod:`~explorer.model.derived.inspection`), what a
frame-stepped engine sees (:mod:`~explorer.model.derived.stepping`) and the
precision lab with its float32 (:mod:`~explorer.model.derived.precision`,
:mod:`~explorer.model.derived.float32`).  They import the state only.
"""
