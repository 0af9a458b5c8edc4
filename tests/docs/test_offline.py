"""docs/_ext/offline.py: a site that would fetch anything from outside itself does not build (``make docs``, -W)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from offline import outside_requests  # noqa: E402

PAGE = """<html><head>
<link rel="stylesheet" href="_static/own.css"><link rel="stylesheet" href="https://cdn.example.org/theme.css">
<link rel="preload" href='//fonts.example.org/font.woff2'>
<script src="_static/own.js"></script><script async src=https://cdn.example.org/mathjax.js></script>
</head><body>
<a href="https://example.org/read-more">a link a reader clicks</a>
<img src="data:image/png;base64,iVBORw0KGgo=" alt=""><img src="_images/own.png" alt="">
<IMG SRC="HTTP://example.org/pixel.gif">
</body></html>
"""
CSS = """@import "own.css"; @import 'https://cdn.example.org/more.css';
body { background: url(_static/own.png); } h1 { background: url( "https://example.org/banner.png" ); }
"""


def test_every_address_a_page_or_style_sheet_would_fetch_from_outside_is_named(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "index.html").write_text(PAGE)
    (tmp_path / "_static" / "theme.css").write_text(CSS)
    (tmp_path / "_static" / "notes.txt").write_text('<script src="https://example.org/not-a-page.js">')
    assert outside_requests(tmp_path) == [
        (Path("_static/theme.css"), "https://cdn.example.org/more.css"),
        (Path("_static/theme.css"), "https://example.org/banner.png"),
        (Path("index.html"), "https://cdn.example.org/theme.css"),
        (Path("index.html"), "//fonts.example.org/font.woff2"),
        (Path("index.html"), "https://cdn.example.org/mathjax.js"),
        (Path("index.html"), "HTTP://example.org/pixel.gif"),
    ]


def test_a_sphinx_build_whose_page_loads_a_script_from_the_web_fails_naming_it(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'docs' / '_ext')!r})\n"
        "extensions = ['offline']\nhtml_js_files = ['https://cdn.example.org/widget.js']\n"
    )
    (source / "index.rst").write_text("Title\n=====\n\nText.\n")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(source)]
    proc = subprocess.run([*command, str(tmp_path / "html")], capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "offline: index.html requests https://cdn.example.org/widget.js, outside the site" in proc.stderr
    (source / "conf.py").write_text((source / "conf.py").read_text().replace("https://cdn.example.org/", ""))
    proc = subprocess.run([*command, str(tmp_path / "html2")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr  # the same page with its own script builds
