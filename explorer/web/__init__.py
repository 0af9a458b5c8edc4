"""A scene as an offline web page (export-html, File -> Export web page): Qt-free, over the drawing code."""

#: Every gallery scene's page stays within this many bytes, 3 MB (the tests check it; ``export-html --help`` states
#: it). Here, not in :mod:`explorer.web.export`, so the command line's help does not import the drawing code.
PAGE_BUDGET = 3_000_000
#: A single-file live page (``export-html --single``: the runtime inside it) stays within this many bytes, 10 MB.
SINGLE_BUDGET = 10_000_000
