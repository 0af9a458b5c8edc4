"""The state: the scene model, the view's parts and the undo list.

The immutable scene (:mod:`~explorer.model.state.scene`), the view-only state
as small evented parts (:mod:`~explorer.model.state.view_parts`) and the list
of scenes undo walks (:mod:`~explorer.model.state.history`).  They import
nothing of the model's other rooms.
"""
