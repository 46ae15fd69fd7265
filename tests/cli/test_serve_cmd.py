"""``flowctx serve`` without a browser: what it says about where it listens, and bad input.
(tests/e2e/test_serve_browser.py loads the page in chromium.)"""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from flowctx_tui.cli import main
from flowctx_tui.cli.serve_cmd import is_local, url_for
from flowctx_tui.cli.workspace_args import demo_path


def serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    return subprocess.run(
        [sys.executable, "-m", "flowctx_tui", "serve", str(demo_path()), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("flowctx.example.com", False),
    ],
)
def test_what_counts_as_this_machine_only(host, local):
    assert is_local(host) is local


def test_urls_bracket_ipv6():
    assert url_for("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert url_for("::1", 8001) == "http://[::1]:8001"


def test_a_non_local_host_is_warned_about_loudly():
    # 192.0.2.1 is reserved for documentation: never this machine's, so nothing listens
    done = serve("--host", "192.0.2.1", "--port", "8123")
    assert done.returncode == 2
    assert "WARNING: listening on 192.0.2.1, not on this machine only" in done.stderr
    assert "can reveal secrets" in done.stderr
    assert "flowctx: cannot listen on 192.0.2.1:8123" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_one_line_and_never_ready():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        done = serve("--port", str(port))
    assert done.returncode == 2
    # nothing claims to serve, let alone to be ready: one line says why not
    assert done.stdout == ""
    assert done.stderr == (
        f"flowctx: cannot listen on 127.0.0.1:{port}: address already in use; another server "
        "has it: give another --port\n"
    )


def test_bad_arguments_stop_before_serving(tmp_path, capsys):
    assert main(["serve", str(demo_path()), "--port", "0"]) == 2
    assert "--port must be between 1 and 65535" in capsys.readouterr().err
    assert main(["serve", str(tmp_path)]) == 2
    assert "workspace" in capsys.readouterr().err
    assert main(["serve", str(demo_path()), "--keymap", str(tmp_path / "nope.yaml")]) == 2
    assert "--keymap: no such file" in capsys.readouterr().err


def test_the_page_names_the_workspace_and_loads_nothing_from_another_host(tmp_path):
    """The page as a browser gets it (with the printed URL's token): a title naming the app and
    the workspace, and every resource it loads served by this server (works offline)."""
    import re
    import shutil
    import signal
    import time
    import urllib.request
    from urllib.parse import urlsplit

    root = tmp_path / "Team workspace"
    shutil.copytree(demo_path(), root)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "FLOWCTX"))}
    proc = subprocess.Popen(
        [sys.executable, "-m", "flowctx_tui", "serve", str(root), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        ready = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "ready at" not in ready:
            ready = proc.stdout.readline() if proc.stdout else ""
            assert ready or proc.poll() is None
        url = ready.split("ready at ", 1)[1].strip()
        for _ in range(100):  # "ready" is said as the server starts: give it a moment to bind
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    page = response.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "<title>flowctx — Team workspace</title>" in page
        assert "fonts.googleapis" not in page and "@font-face" in page
        loaded = re.findall(r'(?:src|href)="([^"]+)"|url\("([^"]+)"\)', page)
        urls = [a or b for a, b in loaded]
        assert len(urls) >= 4  # the stylesheet, the script and the two fonts
        origin = urlsplit(url)
        for link in urls:
            parts = urlsplit(link)
            assert (parts.scheme, parts.netloc) in (("", ""), (origin.scheme, origin.netloc)), link
        font = next(u for u in urls if u.endswith("RobotoMono-VariableFont_wght.ttf"))
        with urllib.request.urlopen(font, timeout=5) as response:
            assert response.status == 200 and len(response.read()) > 10_000
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=30)
