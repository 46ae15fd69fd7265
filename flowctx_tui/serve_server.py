"""The web server behind ``flowctx serve``: textual-serve's, behind a token and an origin check.

textual-serve answers any request and any websocket: a page on another site, open in the same
browser, connected to ``ws://127.0.0.1:8000/ws``, pressed ``r`` (reveal) and read the secrets
the app showed. So every request but the static files must carry the token drawn for this run
(in the URL the server prints, as notebook servers do; the page then holds it in a cookie that
browsers send to this origin only), and a request whose ``Origin`` is not the server's own is
refused, token or not. Imported only by the serve command, once its arguments are good.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hmac
import logging
import os
import secrets
import signal
import socket
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

#: the query parameter of the printed URL, and the cookie the page keeps it in
TOKEN_PARAM = "token"
COOKIE = "flowctx_serve_token"
_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


#: the folder of flowctx's own page template (textual-serve's loads a font from a public host)
TEMPLATES = str(resources.files("flowctx_tui") / "serve_templates")


def bind_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (None: it can), found by binding each
    address the host resolves to as the server will, before anything says it is ready."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        return f"cannot resolve the address ({getattr(exc, 'strerror', None) or exc})"
    for family, kind, proto, _, address in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                # as the server binds: an address in TIME_WAIT is free, one listened on is not
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(address)
        except OSError as exc:
            return (exc.strerror or str(exc)).lower()
    return None


def new_token() -> str:
    return secrets.token_urlsafe(24)


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, as a browser writes it in an ``Origin`` header."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def token_url(public_url: str, token: str) -> str:
    return f"{public_url.rstrip('/')}/?{TOKEN_PARAM}={token}"


#: how long an app process is given to quit when asked, before it is ended
QUIT_SECONDS = 2.0


def _die_with_server() -> None:  # runs in the app process between fork and exec
    # the kernel ends the app when the server ends, however it ends (SIGKILL included); the
    # command is exec'd by the shell, so this reaches the app itself
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class _AppProcess(AppService):  # type: ignore[misc]
    """textual-serve's app service, whose app process always ends with its browser: started
    in a process group of its own (the app and whatever it starts), asked to quit when the
    browser goes, then ended if it has not, and killed by the kernel if the server dies."""

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_shell(
            f"exec {self.command}",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,
            preexec_fn=_die_with_server,
        )
        self._stdin = process.stdin
        return process

    def end(self, how: signal.Signals = signal.SIGKILL) -> None:
        """Signal the app's whole process group (nothing when it is gone)."""
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, how)

    async def stop(self) -> None:
        """Ask the app to quit (textual-serve's way); an app that does not within
        ``QUIT_SECONDS`` (one still starting reads no quit) is terminated, then killed."""
        process = self._process
        with contextlib.suppress(Exception):
            await asyncio.wait_for(super().stop(), QUIT_SECONDS)
        if process is None:
            return
        for how in (signal.SIGTERM, signal.SIGKILL):
            if process.returncode is not None:
                break
            self.end(how)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), QUIT_SECONDS)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None


class GuardedServer(Server):  # type: ignore[misc]
    """textual-serve's server, refusing what the token and the origin check do not allow."""

    def __init__(self, command: str, *, token: str, ready: str, **kwargs: Any) -> None:
        # flowctx's page: the workspace in its title, nothing loaded from another host
        kwargs.setdefault("templates_path", TEMPLATES)
        super().__init__(command, **kwargs)
        self.token = token
        self.ready = ready
        self.origin = origin_of(self.public_url)
        #: every app process running, one per browser connection
        self.apps: set[_AppProcess] = set()

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's websocket handler, with an app process that ends with its browser
        (a browser gone while the app still starts included) and with the server."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        app = _AppProcess(
            self.command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,  # type: ignore[arg-type]  # textual-serve passes it so too
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.apps.add(app)
        try:
            await websocket.prepare(request)
            await app.start(width, height)
            await self._process_messages(websocket, app)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            logging.getLogger("textual-serve").exception(error)
        finally:
            await asyncio.shield(app.stop())
            self.apps.discard(app)
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        # the server stops (Ctrl+C, SIGTERM): no app process outlives it
        for running in list(self.apps):
            running.end(signal.SIGTERM)
        await asyncio.sleep(0.2)
        for running in list(self.apps):
            running.end(signal.SIGKILL)

    async def _make_app(self) -> web.Application:
        app: web.Application = await super()._make_app()
        app.middlewares.append(self._guard)
        return app

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` is refused, or None."""
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != self.origin:
            # a browser always names the page that opened the socket: another site's is refused
            return f"flowctx serve: requests from another origin are refused (only {self.origin})"
        given = request.query.get(TOKEN_PARAM) or request.cookies.get(COOKIE) or ""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return "flowctx serve: open the URL the server printed (it carries this run's token)"
        return None

    @web.middleware
    async def _guard(self, request: web.Request, handler: _Handler) -> web.StreamResponse:
        if request.path.startswith("/static/"):
            return await handler(request)  # the page's scripts and fonts: nothing of the app's
        why = self.refusal(request)
        if why is not None:
            raise web.HTTPForbidden(text=why)
        response = await handler(request)
        if request.query.get(TOKEN_PARAM) and not response.prepared:
            # the page's websocket URL cannot carry a query of its own (the page appends one)
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict")
        return response

    async def on_startup(self, app: web.Application) -> None:
        # instead of textual-serve's banner, which prints the whole command
        print(f"flowctx serve: ready at {self.ready}", flush=True)
