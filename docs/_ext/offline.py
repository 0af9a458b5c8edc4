"""The built site requests nothing outside itself: a page that would is a warning (an error with ``-W``).

After an HTML build, every page and style sheet of the output is read for what a browser fetches on its own
-- ``src`` of scripts, images, frames and media, ``href`` of ``<link>`` (style sheets, icons, fonts, preloads),
``url(...)`` and ``@import`` in CSS -- and each address that leaves the site (a scheme such as ``https:`` or a
``//host`` address) is named with its file.  Links a reader clicks (``<a href>``) may lead anywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: What a page fetches by itself: the address of a resource-loading tag's ``src`` or ``<link>``'s ``href``.
HTML_FETCHES = re.compile(
    r"<(?:script|img|iframe|frame|embed|source|track|audio|video|input)\b[^>]*?\ssrc\s*=\s*[\"']?([^\"'\s>]+)"
    r"|<link\b[^>]*?\shref\s*=\s*[\"']?([^\"'\s>]+)"
    r"|<object\b[^>]*?\sdata\s*=\s*[\"']?([^\"'\s>]+)",
    re.IGNORECASE,
)
#: What a style sheet fetches: ``url(...)`` and ``@import "..."``.
CSS_FETCHES = re.compile(r"url\(\s*[\"']?([^\"')\s]+)|@import\s+[\"']([^\"']+)", re.IGNORECASE)
#: An address outside the site: with a scheme (``https:``, ``ftp:``; not ``data:``) or starting ``//``.
OUTSIDE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
#: Schemes that fetch nothing (the bytes are in the address).
INSIDE_SCHEMES = ("data:", "blob:", "about:")


def outside_requests(site: Path) -> list[tuple[Path, str]]:
    """Each ``(file, address)`` of the HTML pages and CSS files under ``site`` that would be fetched from outside it."""
    found = []
    for path in sorted(site.rglob("*")):
        pattern = {".html": HTML_FETCHES, ".css": CSS_FETCHES}.get(path.suffix)
        if pattern is None or not path.is_file():
            continue
        for match in pattern.finditer(path.read_text(encoding="utf-8", errors="replace")):
            address = next(group for group in match.groups() if group)
            if OUTSIDE.match(address) and not address.lower().startswith(INSIDE_SCHEMES):
                found.append((path.relative_to(site), address))
    return found


def check_site(app: Sphinx, exception: Exception | None) -> None:
    """After a successful HTML build: warn once per address the site would fetch from outside."""
    if exception is not None or app.builder.format != "html":
        return
    for path, address in outside_requests(Path(app.outdir)):
        logger.warning("offline: %s requests %s, outside the site", path.as_posix(), address)


def setup(app: Sphinx) -> dict:
    """Register the check."""
    app.connect("build-finished", check_site)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
