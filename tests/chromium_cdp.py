"""A small driver for headless Chromium over its DevTools protocol, through a pipe
(``--remote-debugging-pipe``): no WebSocket library and no browser download, only the
Debian package ``chromium``. Used by ``tests/test_site.py``. Its waits are hang guards in
seconds of an idle machine, stretched by the load (``tests/patience.py``): a busy machine
makes Chromium slow, not wrong."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from patience import POLL_SECONDS, Patience

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--remote-debugging-pipe",
                  "--hide-scrollbars", "--mute-audio"]


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class CDPError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with one page. ``errors`` collects the page's script
    exceptions, console errors and HTTP responses of 400 and above."""

    def __init__(self, binary: str, profile: Path, *, width: int = 1280,
                 height: int = 900) -> None:
        self._to_chrome_r, self._to_chrome_w = os.pipe()
        self._from_chrome_r, self._from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4; bash (unlike dash)
        # can redirect from the pipes' fd numbers above 9.
        script = f'exec "$0" "$@" 3<&{self._to_chrome_r} 4>&{self._from_chrome_w}'
        profile.mkdir(parents=True, exist_ok=True)
        self.log_path = profile / "chromium.log"
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                [shutil.which("bash") or "/bin/bash", "-c", script, binary, *CHROMIUM_FLAGS,
                 f"--user-data-dir={profile}", f"--window-size={width},{height}",
                 "about:blank"],
                pass_fds=(self._to_chrome_r, self._from_chrome_w),
                stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        os.close(self._to_chrome_r)
        os.close(self._from_chrome_w)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        self.errors: list[str] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable", session=True)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=True)

    # --- the protocol ---

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             session: bool = False, idle_seconds: float = 30.0) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method,
                                   "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_chrome_w, json.dumps(message).encode() + b"\0")
        guard = Patience(idle_seconds)
        while True:
            for reply in self._read(guard):
                if reply.get("id") == self._next_id:
                    if "error" in reply:
                        raise CDPError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
                self._note_event(reply)

    def _read(self, guard: Patience) -> list[dict[str, Any]]:
        while not select.select([self._from_chrome_r], [], [], POLL_SECONDS)[0]:
            if guard.spent():
                raise CDPError(f"Chromium did not answer within {guard}")
        chunk = os.read(self._from_chrome_r, 1 << 20)
        if not chunk:
            raise CDPError("Chromium closed the pipe: "
                           + self.log_path.read_text(errors="replace")[-2000:])
        self._buffer += chunk
        *messages, self._buffer = self._buffer.split(b"\0")
        return [json.loads(m) for m in messages if m]

    def _note_event(self, event: dict[str, Any]) -> None:
        self._events.append(event)
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.errors.append("exception: " + str(details.get("exception", {}).get(
                "description", details.get("text"))))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            self.errors.append(f"console: {entry.get('text')} {entry.get('url', '')}")
        elif method == "Network.responseReceived":
            response = params.get("response", {})
            if response.get("status", 0) >= 400:
                self.errors.append(f"HTTP {response['status']}: {response.get('url')}")

    def wait_event(self, method: str, idle_seconds: float = 30.0) -> dict[str, Any]:
        guard = Patience(idle_seconds)
        while True:
            for index, event in enumerate(self._events):
                if event.get("method") == method:
                    del self._events[: index + 1]
                    return event
            self._events.clear()
            for message in self._read(guard):
                self._note_event(message)

    # --- the page ---

    def navigate(self, url: str) -> None:
        self._events.clear()
        self.send("Page.navigate", {"url": url}, session=True)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True,
                                                "awaitPromise": True}, session=True)
        if "exceptionDetails" in result:
            raise CDPError(f"{expression}: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, idle_seconds: float = 15.0) -> Any:
        """Poll ``expression`` until it is truthy. A click may have started a navigation:
        while the old page goes away, evaluating fails, and we simply ask again."""
        guard = Patience(idle_seconds)
        while not guard.spent():
            try:
                value = self.evaluate(expression)
            except CDPError as exc:
                if "navigated" not in str(exc) and "context" not in str(exc):
                    raise
                value = None
            if value:
                return value
            time.sleep(0.1)
        raise CDPError(f"{expression} did not hold within {guard}")

    def click(self, selector: str) -> None:
        """A real mouse click on the first element matching ``selector`` (in the middle of
        its first line box: a link that wraps has a gap in the middle of its bounds)."""
        found = json.dumps(selector)
        if not self.evaluate(f"(() => {{ const e = document.querySelector({found});"
                             " if (!e) return false;"
                             " e.scrollIntoView({block: 'center', behavior: 'instant'});"
                             " return true; })()"):
            raise CDPError(f"no element matches {selector}")
        time.sleep(0.1)
        rect = self.evaluate(
            f"(() => {{ const r = document.querySelector({found}).getClientRects()[0];"
            " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": rect["x"], "y": rect["y"],
                                                   "button": "left", "clickCount": 1},
                      session=True)

    def type_text(self, text: str) -> None:
        self.send("Input.insertText", {"text": text}, session=True)

    def screenshot(self, path: Path, *, full_page: bool = False) -> Path:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.evaluate("({w: document.documentElement.scrollWidth,"
                                 " h: document.documentElement.scrollHeight})")
            params["clip"] = {"x": 0, "y": 0, "width": size["w"], "height": min(size["h"], 6000),
                              "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", params, session=True)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        with contextlib.suppress(CDPError, OSError):
            self.send("Browser.close", idle_seconds=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_chrome_w, self._from_chrome_r):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
