"""The web server behind ``flowctx serve``: textual-serve's, behind a token and an origin check.

textual-serve answers any request and any websocket: a page on another site, open in the same
browser, connected to ``ws://127.0.0.1:8000/ws``, pressed ``r`` (reveal) and read the secrets
the app showed. So every request but the static files must carry the token drawn for this run
(in the URL the server prints, as notebook servers do; the page then holds it in a cookie that
browsers send to this origin only), and a request whose ``Origin`` is not the server's own is
refused, token or not. Imported only by the serve command, once its arguments are good.
"""

from __future__ import annotations

import hmac
import secrets
import socket
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

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


class GuardedServer(Server):  # type: ignore[misc]
    """textual-serve's server, refusing what the token and the origin check do not allow."""

    def __init__(self, command: str, *, token: str, ready: str, **kwargs: Any) -> None:
        # flowctx's page: the workspace in its title, nothing loaded from another host
        kwargs.setdefault("templates_path", TEMPLATES)
        super().__init__(command, **kwargs)
        self.token = token
        self.ready = ready
        self.origin = origin_of(self.public_url)

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
