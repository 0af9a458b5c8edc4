"""Headless Chromium over the DevTools pipe: open a page, read it, look at it, see every request it makes.

Standard library only (no browser driver package): Chromium is started with
``--remote-debugging-pipe``, which speaks the DevTools protocol as NUL-separated
JSON on file descriptors 3 (commands in) and 4 (replies and events out); a
three-line Python shim puts the pipes there and becomes Chromium.  Used by
the tests (the exported pages drawn by a real browser) and by
``benchmarks/bench_web.py`` (the README's screenshot).

Every request the page makes is paused, recorded and, unless it is the page's own
file, failed: a page that tried to reach the network shows it in
:attr:`Page.requests` and gets nothing.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Flags for a quiet headless browser on a closed network (without the background-networking
#: flags its own update and sync connections fail noisily).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--enable-unsafe-swiftshader",  # WebGL without a GPU, through SwiftShader
    "--remote-debugging-pipe",
)
#: Where Debian and others put the browser.
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


#: Started before Chromium (in its place): puts the two pipe ends on fds 3 and 4, whatever their numbers
#: here, then becomes Chromium.  Copies above 9 first, so neither end is closed by the other's move.
_ONTO_3_AND_4 = (
    "import fcntl, os, sys\n"
    "a, b = (fcntl.fcntl(int(fd), fcntl.F_DUPFD, 10) for fd in sys.argv[1:3])\n"
    "os.dup2(a, 3); os.dup2(b, 4); os.close(a); os.close(b)\n"
    "os.execv(sys.argv[3], sys.argv[3:])\n"
)


class BrowserError(RuntimeError):
    """Chromium could not be started, answered with an error, or did not answer in time."""


def find_chromium() -> str | None:
    """The Chromium executable on ``PATH`` (``$SPHERE_EXPLORER_CHROMIUM`` first), or None."""
    chosen = os.environ.get("SPHERE_EXPLORER_CHROMIUM")
    if chosen:
        return shutil.which(chosen)
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Chromium:
    """One headless Chromium process, driven over its DevTools pipe (a context manager).

    Parameters
    ----------
    size : (int, int)
        Window width and height in CSS pixels.
    executable : str, optional
        Default: :func:`find_chromium`.
    """

    def __init__(self, size: tuple[int, int] = (1280, 800), executable: str | None = None) -> None:
        executable = executable or find_chromium()
        if executable is None:
            raise BrowserError("no Chromium found; install it with: apt-get install -y chromium")
        self._profile = tempfile.mkdtemp(prefix="sphere-explorer-chromium-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()
        self._log = tempfile.TemporaryFile()
        window = f"--window-size={size[0]},{size[1]}"
        args = [executable, *FLAGS, f"--user-data-dir={self._profile}", window, "about:blank"]
        shim = [sys.executable, "-c", _ONTO_3_AND_4, str(commands_read), str(replies_write)]
        try:
            self.process = subprocess.Popen(
                shim + args,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=self._log,
                pass_fds=(commands_read, replies_write),
            )
        except OSError as exc:
            for fd in (self._commands, self._replies):
                os.close(fd)
            self._log.close()
            shutil.rmtree(self._profile, ignore_errors=True)
            raise BrowserError(f"cannot start {executable}: {exc}") from None
        finally:
            os.close(commands_read)
            os.close(replies_write)
        self._buffer = b""
        self._next_id = 0
        self._pages: list[Page] = []
        self.size = size

    # -- the protocol ----------------------------------------------------------------------------
    def send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30.0) -> dict:
        """Send one command and return its result; events that arrive meanwhile go to their tab."""
        number = self.post(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline, method)
            if reply.get("id") == number:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self._event(reply)

    def post(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        """Send one command without waiting for its reply; return its id."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        return self._next_id

    def wait(self, condition, timeout: float = 30.0, what: str = "a condition") -> None:
        """Read events until ``condition()`` is true."""
        deadline = time.monotonic() + timeout
        while not condition():
            self._event(self._receive(deadline, what))

    def _receive(self, deadline: float, what: str) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"Chromium did not answer in time ({what})")
            ready, _, _ = select.select([self._replies], [], [], left)
            if ready:
                chunk = os.read(self._replies, 1 << 20)
                if not chunk:
                    raise BrowserError(f"Chromium closed its pipe ({what}): {self.log()[-400:]}")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def _event(self, message: dict) -> None:
        for page in self._pages:
            page.handle(message)

    def log(self) -> str:
        """What Chromium printed on stdout and stderr so far."""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    # -- pages -----------------------------------------------------------------------------------
    def open(self, path: str | os.PathLike[str], timeout: float = 60.0) -> Page:
        """A new tab showing the file ``path``, with every request recorded (and all but the file failed)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, Path(path).absolute().as_uri(), target)
        self._pages.append(page)
        page.start(timeout)
        return page

    def close(self) -> None:
        """End Chromium and remove its profile."""
        try:
            if self.process.poll() is None:
                try:
                    self.send("Browser.close", timeout=5.0)
                except (BrowserError, OSError):
                    pass
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        finally:
            for fd in (self._commands, self._replies):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._log.close()
            shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Page:
    """One tab: evaluate script, send input, take screenshots; :attr:`requests` lists every URL it asked for."""

    def __init__(self, browser: Chromium, session: str, url: str, target: str) -> None:
        self.browser = browser
        self.session = session
        self.url = url
        self.target = target
        self.requests: list[str] = []
        self.console: list[str] = []
        self.loaded = False

    def send(self, method: str, params: dict | None = None, timeout: float = 30.0) -> dict:
        return self.browser.send(method, params, self.session, timeout)

    def close(self) -> None:
        """Close the tab."""
        self.browser.send("Target.closeTarget", {"targetId": self.target})
        self.browser._pages = [p for p in self.browser._pages if p is not self]

    def start(self, timeout: float) -> None:
        self.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
        self.send("Network.enable")
        self.send("Runtime.enable")
        self.send("Page.enable")
        width, height = self.browser.size
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.send("Emulation.setDeviceMetricsOverride", metrics)
        self.send("Page.navigate", {"url": self.url})
        self.browser.wait(lambda: self.loaded, timeout, "the page's load event")

    def handle(self, message: dict) -> None:
        """Record and answer what this tab's events ask for."""
        if message.get("sessionId") != self.session:
            return
        method, params = message.get("method"), message.get("params", {})
        if method == "Fetch.requestPaused":
            url = self._shown(params["request"]["url"])
            self.requests.append(url)
            if url == self.url:
                reply = ("Fetch.continueRequest", {"requestId": params["requestId"]})
            else:
                reply = ("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "BlockedByClient"})
            self.browser.post(*reply, session=self.session)
        elif method == "Network.requestWillBeSent":
            url = self._shown(params["request"]["url"])
            if url not in self.requests:
                self.requests.append(url)
        elif method == "Page.loadEventFired":
            self.loaded = True
        elif method == "Runtime.consoleAPICalled":
            self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            self.console.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:500])

    @staticmethod
    def _shown(url: str) -> str:
        """A URL as recorded: a ``data:`` URL cut after its type (its content never leaves the page)."""
        return url.split(",", 1)[0] + ",…" if url.startswith("data:") else url

    def evaluate(self, expression: str, timeout: float = 30.0):
        """The value of a JavaScript expression (promises awaited), as JSON-able Python."""
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, timeout=timeout
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            what = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"script failed: {what}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 60.0) -> None:
        """Poll until the JavaScript ``expression`` is true."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(f"!!({expression})"):
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out waiting for {expression}")
            time.sleep(0.1)

    def settle(self, seconds: float) -> None:
        """Let the page run for ``seconds`` (its late requests, e.g. for a favicon, are recorded meanwhile)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.evaluate("0")
            time.sleep(0.05)

    def screenshot(self, path: str | os.PathLike[str] | None = None) -> bytes:
        """The visible page as PNG bytes (written to ``path`` too when given)."""
        data = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])
        if path is not None:
            Path(path).write_bytes(data)
        return data

    def mouse(self, kind: str, x: float, y: float, buttons: int = 1) -> None:
        """A real mouse event at CSS pixel (x, y): ``kind`` is mousePressed, mouseMoved or mouseReleased."""
        params = {"type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" or buttons else "none",
                  "buttons": buttons, "clickCount": 1}  # fmt: skip
        self.send("Input.dispatchMouseEvent", params)

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
        """Press at ``start``, move in ``steps`` to ``end``, release."""
        self.mouse("mousePressed", *start)
        for k in range(1, steps + 1):
            f = k / steps
            self.mouse("mouseMoved", start[0] + f * (end[0] - start[0]), start[1] + f * (end[1] - start[1]))
        self.mouse("mouseReleased", *end, buttons=0)
