"""``flowctx serve``: the app in a web browser, through textual-serve, for demos and screen
shares.

Each browser tab that opens the page gets its own ``flowctx app`` process (textual-serve runs
the command once per connection), on the same workspace and options. It binds to 127.0.0.1
by default and says so: whoever can open the page can use the app, including ``r`` to reveal
secrets, so another host is warned about loudly. Only the URL printed once the server is
ready opens the app: it carries a token drawn for this run, and requests from another origin
are refused (``flowctx_tui.serve_server``). A MongoDB URI travels to the app processes
in the environment, never on their command line (which ``ps`` shows).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow

LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
MONGO_ENV = "FLOWCTX_MONGO_URI"


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="HOST",
        help="address to listen on (default 127.0.0.1: this machine only; any other address "
        "lets other machines use the app, secrets revealable with r included)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, metavar="PORT", help="port (default 8000)"
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use to reach the server, when it is not http://HOST:PORT "
        "(behind a proxy, or listening on 0.0.0.0)",
    )
    parser.add_argument("--keymap", metavar="FILE", help="as for 'flowctx': a key map file")
    parser.add_argument("--no-watch", action="store_true", help="do not watch the workspace")


def _warn_not_local(args: argparse.Namespace, root: Path) -> None:
    bar = "!" * 78
    print(
        f"{bar}\nWARNING: listening on {args.host}, not on this machine only. Anyone who can "
        f"reach port {args.port}\nopens the app on {root}, sees its resolved "
        "values and can reveal secrets\n(r). Use the default --host 127.0.0.1 unless this "
        f"network is yours alone.\n{bar}",
        file=sys.stderr,
        flush=True,
    )


def _busy_hint(why: str) -> str:
    return "; another server has it: give another --port" if "in use" in why else ""


def is_local(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only (a loopback address or name)."""
    if host.lower() in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}"


def app_command(args: argparse.Namespace, root: Path, workflow: str) -> str:
    """The shell command textual-serve runs per browser connection: this Python running
    ``flowctx app`` on the same workspace, with every path made absolute."""
    argv = [sys.executable, "-m", "flowctx_tui", "app", str(root), "--workflow", workflow]
    if args.runtime:
        argv += ["--runtime", args.runtime]
    if args.keymap:
        argv += ["--keymap", str(Path(args.keymap).expanduser().resolve())]
    if args.no_watch:
        argv.append("--no-watch")
    return shlex.join(argv)


def _server(command: str, args: argparse.Namespace, url: str, workspace: Path) -> Any:
    from flowctx_tui.serve_server import GuardedServer, new_token, token_url

    token = new_token()
    # the page's title is the command unless told otherwise: name the app and the workspace
    return GuardedServer(
        command,
        token=token,
        ready=token_url(url, token),
        host=args.host,
        port=args.port,
        title=page_title(workspace),
        public_url=url,
    )


def page_title(workspace: Path) -> str:
    """The browser tab's title: the app and the workspace's folder name."""
    return f"flowctx — {workspace.name or workspace}"


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        return fail(f"--port must be between 1 and 65535, got {args.port}")
    try:
        session = open_from_args(args, demo_outside=True)
        workflow = pick_workflow(session, args.workflow)
        if args.keymap and not Path(args.keymap).expanduser().is_file():
            raise UsageError(f"--keymap: no such file: {args.keymap}")
    except UsageError as exc:
        return fail(str(exc))
    if args.mongo_uri:
        os.environ[MONGO_ENV] = args.mongo_uri
    url = args.public_url or url_for(args.host, args.port)
    command = app_command(args, session.root, workflow)
    if not is_local(args.host):
        _warn_not_local(args, session.root)
    from flowctx_tui.serve_server import bind_problem

    # before any line says where it serves: a busy port is one line, never a false "ready"
    why = bind_problem(args.host, args.port)
    if why is not None:
        return fail(f"cannot listen on {args.host}:{args.port}: {why}{_busy_hint(why)}")
    print(f"flowctx serve: {session.root} (workflow {workflow}) at {url}", flush=True)
    if is_local(args.host):
        print(
            f"flowctx serve: listening on {args.host} only: this machine's browsers can open "
            "it, other machines cannot. Ctrl+C stops it.",
            flush=True,
        )
    server = _server(command, args, url, session.root)
    try:
        server.serve()
    except OSError as exc:
        return fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    return 0
