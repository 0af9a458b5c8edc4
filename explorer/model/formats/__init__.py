"""The formats: scenes and tables as files and text, read in and written out.

Scene files (:mod:`~explorer.model.formats.scene_io`), a configuration pasted
from another engine (:mod:`~explorer.model.formats.paste`), a folder of scene
files (:mod:`~explorer.model.formats.folder`), the gallery
(:mod:`~explorer.model.formats.gallery`) and the lab sheet's table as rows and
CSV (:mod:`~explorer.model.formats.lab_table`).
"""
