"""``flowctx lsp`` against a hostile workspace (security round four, findings 5-8, 17, 18).

A real client (pytest-lsp) starts ``flowctx lsp`` over stdio on a workspace in tmp_path built as
an attacker's pull request would be: conditions that backtrack for hours, committed links to
``/dev/zero``, a FIFO and a 400 MB file where seeds are read. The server must keep answering
(code lenses, hovers, ``shutdown``), read nothing outside the workspace and nothing that is not
a regular file, stop the work of a request it gave up on, and answer malformed requests with
JSON-RPC's error.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient

from tests.lsp.client import start_client

#: far longer than any request should take: reaching it means the server froze
FROZEN = 60.0

CONTRACT = """\
definitions:
  attempts:
    type: integer
    source: {type: state, default: 0}
agents:
  A: {variables: [attempts]}
"""
#: the issue's regex that ran in the server's own process for hours (n = 40)
BACKTRACK = "/" + "(?:a|a)" * 30 + "b/.test('a'.repeat(40))"
#: each refused by the evaluation budget after about 0.35-0.5 s of work: 24 of them take a
#: request past its 5 s budget
HEAVY = "'x'.repeat(1000000).replace(/x/g, 'yy').length > 0"


def _flow(conditions: list[str]) -> str:
    paths = "".join(f"  - {{from: A, to: B, priority: {len(conditions) - i}, condition: \"{c}\"}}\n"
                    for i, c in enumerate(conditions))  # fmt: skip
    return (
        "steps:\n  - {name: A, type: Action, starting: true}\n  - {name: B, type: Action}\n"
        f"paths:\n{paths}"
    )


def _workspace(root: Path, conditions: list[str]) -> Path:
    (root / "workflows" / "W").mkdir(parents=True)
    (root / "workflows" / "W" / "context_variables.yaml").write_text(CONTRACT)
    (root / "workflows" / "W" / "flow.yaml").write_text(_flow(conditions))
    return root


async def _start(root: Path) -> LanguageClient:
    lsp, _ = await asyncio.wait_for(start_client(root), FROZEN)
    return lsp


def _pid(lsp: LanguageClient) -> int:
    server = lsp._server  # the server process the client started (pytest-lsp keeps no other)
    assert server is not None
    return server.pid


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _open(lsp: LanguageClient, path: Path) -> str:
    doc = from_fs_path(str(path.resolve())) or ""
    lsp.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc, language_id="yaml", version=1, text=path.read_text()
            )
        )
    )
    return doc


async def _lenses(lsp: LanguageClient, doc: str) -> list[types.CodeLens]:
    return (
        await asyncio.wait_for(
            lsp.text_document_code_lens_async(
                types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=doc))
            ),
            FROZEN,
        )
        or []
    )


async def _shutdown(lsp: LanguageClient) -> None:
    await asyncio.wait_for(lsp.shutdown_session(), FROZEN)


pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")


@pytest_asyncio.fixture
async def backtracking(tmp_path: Path) -> AsyncIterator[tuple[LanguageClient, Path]]:
    root = _workspace(tmp_path / "ws", [BACKTRACK, "true"])
    lsp = await _start(root)
    yield lsp, root


async def test_a_backtracking_condition_never_freezes_the_server(
    backtracking: tuple[LanguageClient, Path],
) -> None:
    lsp, root = backtracking
    doc = _open(lsp, root / "workflows" / "W" / "flow.yaml")
    lenses = await _lenses(lsp, doc)
    # the hostile path is refused by flowctx's bound, the next one wins: each rule has a lens
    assert len(lenses) == 2, lenses
    hover = await asyncio.wait_for(
        lsp.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=doc),
                position=types.Position(line=3, character=10),
            )
        ),
        FROZEN,
    )
    assert hover is None or "bound" in str(hover.contents) or hover.contents
    await _shutdown(lsp)  # answered: the event loop was never held


async def test_a_request_given_up_stops_its_work(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", [HEAVY] * 24 + ["true"])
    lsp = await _start(root)
    pid = _pid(lsp)
    doc = _open(lsp, root / "workflows" / "W" / "flow.yaml")
    await _lenses(lsp, doc)  # answered within the budget, possibly empty
    await asyncio.sleep(0.5)  # let the diagnostics check (also bounded) settle
    before = _cpu_seconds(pid)
    await asyncio.sleep(3.0)
    spent = _cpu_seconds(pid) - before
    # on the previous release the abandoned work ran on for tens of seconds at full CPU
    assert spent < 1.0, f"the server spent {spent:.1f} s of CPU after answering"
    await _shutdown(lsp)


async def test_reads_never_leave_the_workspace_or_open_devices(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", ["payload.ok"])
    folder = root / "workflows" / "W"
    # a committed link to /dev/zero and another to a file outside, among the workflow's YAML
    (folder / "notes.yaml").symlink_to("/dev/zero")
    outside = tmp_path / "outside.yaml"
    outside.write_text("attempts: secret-outside-value\n")
    (folder / "elsewhere.yaml").symlink_to(outside)
    # a FIFO and a 400 MB (sparse) file where the embedded database reads seeds
    seed = root / "seed" / "default"
    seed.mkdir(parents=True)
    os.mkfifo(seed / "pending.json")
    with open(seed / "huge.json", "wb") as big:
        big.truncate(400 * 1024 * 1024)
    lsp = await _start(root)
    pid = _pid(lsp)
    contract = folder / "context_variables.yaml"
    doc = _open(lsp, contract)
    line = next(n for n, row in enumerate(CONTRACT.splitlines()) if "attempts:" in row)
    at = types.Position(line=line, character=4)
    ident = types.TextDocumentIdentifier(uri=doc)
    found: Any = await asyncio.wait_for(
        lsp.text_document_references_async(
            types.ReferenceParams(
                text_document=ident,
                position=at,
                context=types.ReferenceContext(include_declaration=True),
            )
        ),
        FROZEN,
    )
    files = {Path(str(loc.uri)).name for loc in found or []}
    assert "context_variables.yaml" in files
    assert "elsewhere.yaml" not in files and "notes.yaml" not in files
    await asyncio.wait_for(
        lsp.text_document_definition_async(
            types.DefinitionParams(text_document=ident, position=at)
        ),
        FROZEN,
    )
    # diagnostics keep coming: no check is stuck on the FIFO
    lsp.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(
                    text=CONTRACT.replace("type: state", "type: stat")
                )
            ],
        )
    )
    for _ in range(int(FROZEN / 0.1)):
        if any("stat" in d.message for d in lsp.diagnostics.get(doc, ())):
            break
        await asyncio.sleep(0.1)
    assert any("stat" in d.message for d in lsp.diagnostics.get(doc, ())), lsp.diagnostics
    # neither /dev/zero nor the 400 MB file was read into memory
    assert _rss_mb(pid) < 400, f"{_rss_mb(pid):.0f} MB peak"
    await _shutdown(lsp)


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


async def _reply(reader: asyncio.StreamReader, msg_id: int) -> dict[str, Any]:
    """The response to request ``msg_id`` (notifications and other replies skipped)."""
    while True:
        length = 0
        while True:
            header = await reader.readline()
            if not header:
                raise AssertionError("the server closed its output")
            if header.lower().startswith(b"content-length:"):
                length = int(header.split(b":")[1])
            if header in (b"\r\n", b"\n"):
                break
        message = json.loads(await reader.readexactly(length))
        if message.get("id") == msg_id and "method" not in message:
            return message


async def test_malformed_params_get_the_json_rpc_error(tmp_path: Path) -> None:
    """Raw JSON-RPC, as a client with a bug sends it: each request is answered, with -32602."""
    root = _workspace(tmp_path / "ws", ["true"])
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "flowctx_tui", "lsp",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    doc = from_fs_path(str((root / "workflows" / "W" / "flow.yaml").resolve()))
    try:
        proc.stdin.write(
            _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"capabilities": {}, "rootUri": from_fs_path(str(root))}})
        )  # fmt: skip
        await asyncio.wait_for(_reply(proc.stdout, 1), FROZEN)
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        bad = [
            {"textDocument": {"uri": doc}, "position": {"line": -1, "character": 0}},
            {"textDocument": {"uri": doc}},
            {"position": {"line": 0, "character": 0}},
        ]
        for n, params in enumerate(bad, start=2):
            proc.stdin.write(
                _frame(
                    {"jsonrpc": "2.0", "id": n, "method": "textDocument/hover", "params": params}
                )
            )
            reply = await asyncio.wait_for(_reply(proc.stdout, n), FROZEN)
            assert reply["error"]["code"] == -32602, reply
        # and the server still answers a good request afterwards
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}))
        assert "error" not in await asyncio.wait_for(_reply(proc.stdout, 9), FROZEN)
    finally:
        proc.kill()
        await proc.wait()


async def test_try_in_flowctx_returns_the_whole_command(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", ["true"])
    lsp = await _start(root)
    doc = _open(lsp, root / "workflows" / "W" / "flow.yaml")
    lenses = await _lenses(lsp, doc)
    command = lenses[0].command
    assert command is not None and command.arguments
    result = await asyncio.wait_for(
        lsp.workspace_execute_command_async(
            types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
        ),
        FROZEN,
    )
    # the previous release returned 'f', the first character (pygls unpacks the arguments)
    assert result == command.arguments[0] and str(result).startswith("flowctx routes"), result
    await _shutdown(lsp)
