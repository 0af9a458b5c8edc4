"""The actions: the session every user action goes through, over all the other rooms.

The session (:mod:`~explorer.model.actions.session`), what each edit makes of
the scene (:mod:`~explorer.model.actions.edits`) and question mode, ask and
reveal (:mod:`~explorer.model.actions.asking`).
"""
