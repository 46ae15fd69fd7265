"""``flowctx serve`` in a real headless browser: Debian's chromium, driven by Playwright.

The server runs as a user would start it, in a subprocess on a free port. The page is loaded
in chromium, which connects to the server and gets its own ``flowctx app``; the test reads
what xterm.js (the page's terminal) holds, to see the matrix, then clicks into the terminal
and types ``4`` to see the routing graph. The server and every app it started are killed at
the end, whatever happened.

xterm.js draws on a canvas, so its text is read from its buffer: an init script catches the
Terminal object as the page's script stores it (``this.terminal = new Terminal(...)``).
Playwright never downloads a browser here: it launches /usr/bin/chromium.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from flowctx_tui.cli.workspace_args import demo_path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="Debian's chromium is not installed (.ci/run installs it with apt-get when it "
        "can; the browser test needs it and never downloads one)",
    ),
]

CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  get() { return undefined; },
  set(value) {
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
    if (value && typeof value.write === "function" && "buffer" in value) {
      window.__flowctxTerminal = value;
    }
  },
});
"""
SCREEN_TEXT = """() => {
  const terminal = window.__flowctxTerminal;
  if (!terminal) return "";
  const buffer = terminal.buffer.active;
  const lines = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    if (line) lines.push(line.translateToString(true));
  }
  return lines.join("\\n");
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Served:
    """A ``flowctx serve`` subprocess whose output is collected as it comes."""

    def __init__(self, root: Path, port: int) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "FLOWCTX"))}
        env["FLOWCTX_SCREENSHOT_DIR"] = str(root.parent / "shots")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flowctx_tui", "serve", str(root), "--port", str(port),
             "--no-watch"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,  # its own process group: the apps it starts die with it
        )  # fmt: skip
        self.output: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.output):
            if self.process.poll() is not None:
                time.sleep(0.2)  # let the reader take the last lines
                raise AssertionError(f"flowctx serve exited: {self.output}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} after {timeout}s: {self.output}")
            time.sleep(0.05)

    def ready_url(self) -> str:
        """The URL the server printed when ready: the only one that opens the app (a token)."""
        prefix = "flowctx serve: ready at "
        return next(line for line in self.output if line.startswith(prefix))[len(prefix) :]

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        # what the server started (the apps) goes too, even if the server went first
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, str]]:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    port = free_port()
    server = Served(root, port)
    try:
        server.wait_for("flowctx serve: ready at", timeout=60)
        yield server, server.ready_url()
    finally:
        server.kill()


def test_the_browser_shows_the_matrix_and_the_graph(served):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test extra")
    server, url = served
    assert server.output[1].startswith("flowctx serve: listening on 127.0.0.1 only")
    with sync_api.sync_playwright() as playwright:
        # no browser download: Debian's chromium; as root it needs --no-sandbox
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.add_init_script(CATCH_TERMINAL)
            asked: list[str] = []
            page.on("request", lambda request: asked.append(request.url))
            page.goto(url)
            # the page names the app and the workspace, not the command it runs
            assert page.title() == "flowctx — demo"
            intro = page.locator(".starting div").first.text_content()
            assert intro == "flowctx — demo: starting the app…"
            # the matrix of the demo's first workflow, with a variable's name and status
            page.wait_for_function(
                f"() => ({SCREEN_TEXT})().includes('concept_api_endpoints')", timeout=60_000
            )
            screen = page.evaluate(SCREEN_TEXT)
            assert "1 Matrix" in screen and "4 Graph" in screen
            assert "openai_api_key" in screen and "***" in screen
            # a user clicks into the terminal and types: the keys reach the app
            page.click("#terminal")
            page.keyboard.press("4")
            page.wait_for_function(
                f"() => ({SCREEN_TEXT})().includes('┌─ InterviewAgent')", timeout=30_000
            )
            screen = page.evaluate(SCREEN_TEXT)
            assert "★ 2. → user  after_turn" in screen
            # everything the page asked for came from this server: it works offline
            origin = url.split("/?", 1)[0]
            assert asked and all(
                a.startswith((origin + "/", origin.replace("http", "ws", 1) + "/")) for a in asked
            ), asked
            assert any(a.endswith("/static/fonts/RobotoMono-VariableFont_wght.ttf") for a in asked)
        finally:
            browser.close()
