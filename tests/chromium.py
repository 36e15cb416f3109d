"""Headless Chromium driven through the DevTools protocol, with networking disabled: a page
is loaded from a file, scripts evaluated in it, the mouse moved, screenshots taken.

    python -m tests.chromium PAGE.html OUT.png   # a screenshot of the page after its charts
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BROWSER = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser") if shutil.which(name)), None
)


class Page:
    """One tab, spoken to over its DevTools websocket."""

    def __init__(self, url: str) -> None:
        import websocket  # websocket-client: the dev extra

        self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.ids = itertools.count(1)
        self.exceptions: list[str] = []
        self.requests: list[str] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self._event(message)

    def _event(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            self.exceptions.append(json.dumps(params.get("exceptionDetails", {}))[:500])
        elif method == "Network.requestWillBeSent":
            self.requests.append(params.get("request", {}).get("url", ""))

    def evaluate(self, expression: str) -> Any:
        found = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in found:
            raise RuntimeError(f"{expression}: {found['exceptionDetails']}")
        return found["result"].get("value")

    def wait_for(self, expression: str, seconds: float = 60) -> Any:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        raise TimeoutError(f"waited {seconds:g} s for {expression}")

    def move_mouse(self, x: float, y: float) -> None:
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def screenshot(self, path: Path) -> Path:
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path


@contextlib.contextmanager
def offline_page(page: Path, width: int = 1280, height: int = 1800) -> Iterator[Page]:
    """`page` open in headless Chromium with the network off: host names resolve nowhere and
    the tab is emulated offline, so anything fetched from elsewhere fails."""
    if BROWSER is None:
        raise RuntimeError("no chromium here (Debian package 'chromium')")
    # Chromium's helper processes may still write to the profile after the browser exits:
    # a leftover file there is no failure of the page under test
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        process = subprocess.Popen(
            [
                BROWSER,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            end = time.monotonic() + 60
            while not port_file.exists() or not port_file.read_text().strip():
                if time.monotonic() > end or process.poll() is not None:
                    raise RuntimeError("chromium did not open its DevTools port")
                time.sleep(0.1)
            port = port_file.read_text().split()[0]
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as answer:
                targets = json.load(answer)
            target = next(t for t in targets if t.get("type") == "page")
            tab = Page(target["webSocketDebuggerUrl"])
            try:
                tab.call("Runtime.enable")
                tab.call("Network.enable")
                tab.call(
                    "Network.emulateNetworkConditions",
                    offline=True,
                    latency=0,
                    downloadThroughput=-1,
                    uploadThroughput=-1,
                )
                tab.call("Page.enable")
                tab.call("Page.navigate", url=page.resolve().as_uri())
                tab.wait_for("document.readyState === 'complete'")
                yield tab
            finally:
                tab.socket.close()
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def main(argv: list[str]) -> int:
    page, out = Path(argv[0]), Path(argv[1])
    with offline_page(page) as tab:
        tab.wait_for("document.body.dataset.charts === 'ready'")
        tab.evaluate("document.querySelector('.controls').scrollIntoView()")
        box = tab.evaluate(
            "(function(){var r=document.querySelector('#scatter .u-over').getBoundingClientRect();"
            "return [r.left + r.width * 0.6, r.top + r.height * 0.5];})()"
        )
        tab.move_mouse(*box)
        tab.wait_for("document.getElementById('hovered').dataset.puzzle")
        tab.screenshot(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
