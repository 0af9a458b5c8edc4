"""The words: the derived quantities as the views say and list them.

Number formats and verdict lines (:mod:`~explorer.model.words.text`), the
values panel's rows (:mod:`~explorer.model.words.values`), each body's momenta
with their labels (:mod:`~explorer.model.words.momenta`) and the parabola with
its equation (:mod:`~explorer.model.words.parabola`).  They import the
derived quantities and the state.
"""
