"""What the explorer needs from the operating system, standard library only: the set-up probes
(:mod:`.probes`: packages, libraries, the X display, EGL, the command's name), the one safe writer
(:mod:`.files`), Ctrl-C and SIGTERM in one line (:mod:`.interrupt`), worker processes (:mod:`.workers`), progress
bars (:mod:`.progress`), numbers as typed (:mod:`.numbers`) and the web pages' runtime (:mod:`.web_runtime`).

``make run`` and ``make test`` run this package with the system Python *before* ``.venv`` exists
(``python3 -m explorer.system test``, :mod:`explorer.system.__main__`).  Importing it imports none of its modules
(a page's Python needs only :mod:`.files` and :mod:`.interrupt`).
"""
