"""Headless Chromium for the web pages' tests: Playwright driving the system's browser, no download.

Every request outside what a test allows is refused and recorded (:attr:`Browser.refused`), and each tab lists
every URL it asked for (``page.requests``), so a page that reached for the network fails its test.  A recorded
page is opened as a file by :meth:`Browser.open_file` (nothing but the file itself may load); a static folder is
served from 127.0.0.1 by :func:`serve`.

The exported pages forbid evaluating strings as script ('unsafe-eval'), which Playwright's ``wait_for_function``
does inside the page: wait with :func:`wait_until` (``page.evaluate`` goes through the DevTools protocol) or a
selector.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
import time
from pathlib import Path
from typing import Iterator

#: Chromium's switches: headless, and none of its own traffic (updates, sync, first-run pages).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-default-apps"]  # fmt: skip
#: Where Debian and others put the browser, first found on ``PATH`` wins.
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: A recorded page's window, in CSS pixels (the size its colour checks and the README's picture were made at).
RECORDED_SIZE = (1280, 800)


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


def find_chromium() -> str | None:
    """The system's Chromium (the first of :data:`NAMES` on ``PATH``), or None."""
    return next(filter(None, map(shutil.which, NAMES)), None)


def foreign_requests(page) -> list[str]:
    """The URLs a page asked for other than its own (``data:`` URLs, whose content never leaves it, left out)."""
    return [url for url in page.requests if url != page.url and not url.startswith("data:")]


def wait_ready(page, timeout: float = 60.0) -> None:
    """Wait until an exported page says it is drawn (its body's ``data-ready``, a recorded page's or a live
    page's)."""
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=timeout * 1000)


def wait_until(page, expression: str, timeout: float = 60.0) -> None:
    """Ask the page every 25 ms until its JavaScript ``expression`` is true; TimeoutError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"!!({expression})"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:g} s for {expression}")
        page.wait_for_timeout(25)


class Browser:
    """One Chromium for a test module (a context manager too); :meth:`page` opens a tab that may load only
    ``allowed`` URL prefixes."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        executable = find_chromium() or "/usr/bin/chromium"
        self.browser = self._playwright.chromium.launch(executable_path=executable, args=ARGS)
        self.refused: list[str] = []

    def page(self, allowed: tuple[str, ...], width: int = 1366, height: int = 768, touch: bool = False,
             mobile: bool = False):  # fmt: skip
        """A new tab (in a context of its own: close it with ``page.context.close()``); ``mobile``: a phone's
        browser (a finger its only pointer: CSS ``pointer: coarse``).

        Its ``requests`` lists every URL it asked for, in order, those refused too; its ``errors`` the
        exceptions its scripts did not catch.
        """
        context = self.browser.new_context(viewport={"width": width, "height": height}, has_touch=touch or mobile,
                                           is_mobile=mobile)  # fmt: skip
        page = context.new_page()

        def route(request_route) -> None:
            url = request_route.request.url
            if url.startswith(allowed):
                request_route.continue_()
            else:
                self.refused.append(url)
                request_route.abort()

        page.route("**/*", route)
        page.requests = []
        page.on("request", lambda request: page.requests.append(request.url))
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    def open_file(self, path: str | Path, size: tuple[int, int] = RECORDED_SIZE):
        """A tab showing the file ``path``, loaded (its load event fired); every other request is refused."""
        url = Path(path).absolute().as_uri()
        page = self.page((url,), *size)
        page.goto(url)
        return page

    def close(self) -> None:
        self.browser.close()
        self._playwright.stop()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
