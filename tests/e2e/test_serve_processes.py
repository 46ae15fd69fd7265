"""``flowctx serve`` never leaves an app process behind (security round four, finding 10).

A real server on a free port, a real chromium loading its page: the browser goes away while
the page still says "starting the app", or the server is stopped (Ctrl+C, SIGTERM) or killed
while an app runs. In each case every ``flowctx app`` the server started must end with it; on
the previous release the app kept spinning at most of a core, re-parented to PID 1.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from flowctx_tui.cli.workspace_args import demo_path
from tests.e2e.test_serve_browser import CHROMIUM, Served, free_port

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        CHROMIUM is None or not Path("/proc").is_dir(),
        reason="needs Debian's chromium (.ci/run installs it) and /proc (Linux)",
    ),
]


def app_processes(root: Path) -> list[int]:
    """The pids of ``flowctx app`` processes running on ``root`` (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(") ", 1)[1][0]
        except (OSError, IndexError):
            continue
        words = [a.decode(errors="replace") for a in argv]
        if "flowctx_tui" in words and "app" in words and str(root) in words and state != "Z":
            found.append(int(entry.name))
    return found


def wait_until(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Served, Path]]:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    served = Served(root, free_port())
    try:
        served.wait_for("flowctx serve: ready at", timeout=60)
        yield served, root
    finally:
        served.kill()
        for pid in app_processes(root):  # whatever a failing test left
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _open_page(url: str):  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_page()
    page.goto(url)
    return playwright, browser, page


@pytest.mark.parametrize("when", ["socket", "process"])
def test_a_browser_gone_while_the_app_starts_leaves_no_app(
    server: tuple[Served, Path], when: str
) -> None:
    """The browser goes the moment its websocket opens, or once the app process exists."""
    from playwright.sync_api import sync_playwright

    served, root = server
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    try:
        page = browser.new_page()
        with page.expect_websocket(timeout=30_000):
            page.goto(served.ready_url())
        if when == "process":
            assert wait_until(lambda: app_processes(root), 30), "the page never started an app"
    finally:
        browser.close()
        playwright.stop()
    time.sleep(1.0)  # an app the server started after the socket closed has appeared by now
    assert wait_until(lambda: not app_processes(root), 20), (
        f"app processes left running after the browser went: {app_processes(root)}"
    )
    assert served.process.poll() is None  # the server itself goes on serving


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_no_app_outlives_the_server(server: tuple[Served, Path], how: signal.Signals) -> None:
    served, root = server
    playwright, browser, page = _open_page(served.ready_url())
    try:
        assert wait_until(lambda: app_processes(root), 30), "the page never started an app"
        page.wait_for_timeout(1500)  # the app is up and drawing
        served.process.send_signal(how)  # Ctrl+C is SIGINT to the server
        served.process.wait(30)
        assert wait_until(lambda: not app_processes(root), 20), (
            f"app processes outlived the server ({how.name}): {app_processes(root)}"
        )
    finally:
        browser.close()
        playwright.stop()
