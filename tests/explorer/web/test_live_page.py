"""Every page says its own length in its head, in UTF-8 bytes as written (what a page cut short compares the bytes
that arrived with: explorer/web/guard.js), whatever its title's script."""

from __future__ import annotations

import re

import pytest

from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load
from explorer.web.live_page import recorded_page, single_page, site_page
from explorer.web.recorded import encode, record

TITLE = "Δύο σφαίρες — 两个球"


def _said(page: bytes) -> int:
    found = re.findall(rb'<meta name="page-bytes" content="(\d+)">', page)
    assert len(found) == 1 and len(found[0]) == 12  # padded: writing it in changes no length
    return int(found[0])


@pytest.mark.parametrize("kind", ["site", "single", "recorded"])
def test_a_page_holds_its_own_length_in_bytes(kind):
    scene = load(SCENES_DIR / "default.json")
    if kind == "site":
        text = site_page(scene, TITLE, "default.recorded.html")
    elif kind == "single":
        text = single_page(scene, TITLE)
    else:
        text = recorded_page(scene, TITLE, encode(record(scene)), "default.html")
    page = text.encode("utf-8")
    assert _said(page) == len(page) > len(text)  # its bytes, not its characters
    head = page.split(b"<script>", 1)[0]
    assert b"page-bytes" in head  # before the guard: a page the guard runs in has it
