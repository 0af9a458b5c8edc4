"""Headless Chromium for the web pages' tests: Playwright driving the system's browser, no download.

Every request outside what a test serves is refused and recorded (:attr:`Browser.refused`), so a page that
reached for the network fails its test.  A static folder is served from 127.0.0.1 by :func:`serve`.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from pathlib import Path
from typing import Iterator

#: Chromium's switches: headless, and none of its own traffic (updates, sync, first-run pages).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-default-apps"]  # fmt: skip


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def handle(self) -> None:
        with contextlib.suppress(ConnectionError):  # a page closed while a file was being sent
            super().handle()


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port) while the block runs; yields its base URL (``http://…/``)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """One Chromium for a test module; :meth:`page` opens a tab that may load only ``allowed`` URL prefixes."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        executable = shutil.which("chromium") or "/usr/bin/chromium"
        self.browser = self._playwright.chromium.launch(executable_path=executable, args=ARGS)
        self.refused: list[str] = []

    def page(self, allowed: tuple[str, ...], width: int = 1366, height: int = 768, touch: bool = False):
        context = self.browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
        page = context.new_page()

        def route(request_route) -> None:
            url = request_route.request.url
            if url.startswith(allowed):
                request_route.continue_()
            else:
                self.refused.append(url)
                request_route.abort()

        page.route("**/*", route)
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    def close(self) -> None:
        self.browser.close()
        self._playwright.stop()
