"""``flowctx serve`` behind its token and origin check (issue 21, finding 4).

A page on another site, open in the same browser, connected to the server's websocket, pressed
``r`` and read the secrets. The server runs here as a user starts it (a subprocess on a free
port of this machine); a real websocket client then connects the way that page did (a foreign
``Origin``), without the token, and with it.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from flowctx_tui.cli.workspace_args import demo_path
from tests.e2e.test_serve_browser import Served, free_port


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(base URL, token) of a running ``flowctx serve`` on the demo workspace."""
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    server = Served(root, free_port())
    try:
        server.wait_for("flowctx serve: ready at", timeout=60)
        url = server.ready_url()
        parts = urlsplit(url)
        [token] = parse_qs(parts.query)["token"]
        yield f"{parts.scheme}://{parts.netloc}", token
    finally:
        server.kill()


async def _ws_status(url: str, origin: str | None, cookie_from: str | None = None) -> int:
    """The HTTP status of a websocket handshake (101 when accepted); when accepted, the first
    frame must arrive (the app process started and wrote to the terminal)."""
    headers = {"Origin": origin} if origin else {}
    timeout = aiohttp.ClientTimeout(total=60)
    # a browser keeps cookies of an IP address host; aiohttp's default jar does not
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(timeout=timeout, cookie_jar=jar) as session:
        if cookie_from is not None:
            async with session.get(cookie_from, headers=headers) as page:
                assert page.status == 200
        try:
            ws = await session.ws_connect(url, headers=headers)
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status
        try:
            message = await ws.receive(timeout=60)
            assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
        finally:
            await ws.close()
        return 101


async def _get_status(url: str, origin: str | None = None) -> int:
    headers = {"Origin": origin} if origin else {}
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as r:
        return r.status


def test_a_foreign_origin_and_a_missing_token_are_refused(served: tuple[str, str]) -> None:
    base, token = served
    ws = base.replace("http", "ws", 1) + "/ws"
    evil = "https://evil.example"

    async def attempts() -> dict[str, int]:
        return {
            "foreign origin, no token": await _ws_status(f"{ws}?width=80&height=24", evil),
            "foreign origin, with token": await _ws_status(f"{ws}?token={token}", evil),
            "no origin, no token": await _ws_status(ws, None),
            "own origin, wrong token": await _ws_status(f"{ws}?token={token[:-2]}xx", base),
            "the page without the token": await _get_status(base + "/"),
            "the page from a foreign origin": await _get_status(f"{base}/?token={token}", evil),
        }

    refused = asyncio.run(attempts())
    assert refused == dict.fromkeys(refused, 403), refused


def test_the_printed_url_opens_the_app(served: tuple[str, str]) -> None:
    base, token = served
    ws = base.replace("http", "ws", 1) + "/ws"

    async def attempts() -> tuple[int, int]:
        # a client with the token in the URL, and a browser's way: the page sets a cookie that
        # the page's own websocket (whose URL holds no token) then carries
        direct = await _ws_status(f"{ws}?token={token}&width=80&height=24", base)
        browser = await _ws_status(
            f"{ws}?width=80&height=24", base, cookie_from=f"{base}/?token={token}"
        )
        return direct, browser

    assert asyncio.run(attempts()) == (101, 101)
