"""``flowctx lsp``: the Language Server Protocol over stdio (pygls), for the author's editor.

Diagnostics are ``flowctx check``'s problems, republished (debounced) as the author types, for
every file of the workspace a change affects; hover shows a variable's resolved value (masked),
its provenance, who sees it, or whether a routing rule wins under the default inputs and why;
completion offers variable names (``${``, ``{{``, ``condition_key``, an agent's ``variables``),
agent and step names, source types and paths into a flow condition's scope (a variable with
its type and source, ``completion_info.py``); definitions, references and rename of variables,
agents and steps (``occurrences.py``, ``rename.py``); the outline and workspace symbols
(``symbols.py``); quick fixes from the corrections check knows (``quickfix.py``) and a link
from each code to its documentation (``docs_links.py``); a code lens on each routing rule
(wins under default, covered by N tests) and a "Try in flowctx" action that gives the
equivalent ``flowctx routes``.

Unsaved buffers are read instead of the disk (``fsview.buffers``). Each request runs in a
worker thread with a time budget; a request that fails answers nothing rather than taking the
server down, and a malformed document is a diagnostic, never a crash.

Checking as the author types (``schedule_check``, ``publish``): a change is checked
incrementally (``incremental.py``: only the workflows it can affect are read and checked
again), in a worker thread, one check at a time. A newer change cancels the running check (the
request budget's cancel flag, ``flowctx_core.expressions.budget.bounded``: it stops between
stages and inside evaluations) and its result is never published; publications carry the
document's version and none goes out for a check older than one already published, so an
editor never sees a document's diagnostics go back to an older text. Files whose diagnostics
did not change are not sent again. Hover, completion and definition never wait for a check:
they answer from the last good analysis, which the checker swaps in whole when it finishes
(``Workspace.good``), with no lock shared with it.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import threading
import time
from collections.abc import Callable
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.uris import from_fs_path, to_fs_path

from flowctx_core.base.textlines import text_lines
from flowctx_core.model.filenames import ROUTING_FILES
from flowctx_tui.lsp import analysis
from flowctx_tui.lsp.analysis import MjWorkspace, Workspace
from flowctx_tui.lsp.positions import to_client, to_server
from flowctx_tui.lsp.quickfix import fix_data

#: how long after the last keystroke diagnostics are computed (s): short, since a newer
#: change cancels the running check anyway
DEBOUNCE = 0.01
#: the longest a hover, completion or lens request may take before it answers nothing (s)
REQUEST_BUDGET = 5.0
#: files whose change can change another file's problems
YAML_SUFFIXES = (".yaml", ".yml", ".json")

T = TypeVar("T")
#: pygls's own converter (the one ``LanguageServer`` uses when given none)
_CONVERTER = default_converter()


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, answering a request whose params do not parse (a negative line, a
    missing position) with JSON-RPC's error instead of never answering it."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "id" in data and "method" in data:
                error: JsonRpcException = (
                    JsonRpcInvalidParams(message=f"Invalid params for {str(data['method'])[:80]}")
                    if isinstance(exc, JsonRpcInvalidParams)
                    else JsonRpcInternalError()
                )
                self._send_response(data["id"], None, error.to_response_error())
            raise

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        """A ``_Raw`` result (an outline, a completion list: JSON text made from pieces kept
        between requests) as it is, any other as pygls sends it."""
        if error is not None or not isinstance(result, _Raw):
            super()._send_response(msg_id, result, error)
            return
        self._result_types.pop(msg_id, None)
        head = json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": None})
        at = head.rindex("null")
        self._send_data(_Prepared(head[:at] + result.text + head[at + 4 :]))

    def _send_data(self, data: Any) -> None:
        """A ``_Prepared`` message as it is (the diagnostics of a 3,000-variable contract,
        serialised one by one as each first appears: 25 ms saved on each publication), any
        other as pygls sends it."""
        if not isinstance(data, _Prepared):
            super()._send_data(data)
            return
        if self.writer is None:
            return
        body = data.body
        header = (
            f"Content-Length: {len(body)}\r\n"
            f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            if self._include_headers
            else ""
        )
        res = self.writer.write((header + body).encode(self.CHARSET))
        if inspect.isawaitable(res):
            task = asyncio.ensure_future(res)
            _WRITES.add(task)
            task.add_done_callback(_WRITES.discard)


#: writes still running (an asynchronous transport's), kept until done
_WRITES: set[asyncio.Future[Any]] = set()


class _Prepared:
    """A message already serialised: its JSON text (ASCII, as ``json.dumps`` writes it)."""

    __slots__ = ("body",)

    def __init__(self, body: str) -> None:
        self.body = body


class _Raw:
    """A request's result already serialised (JSON text, ASCII), sent as it is."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Busy(Exception):
    """A request was given up (late or cancelled) before its work started."""


class FlowctxServer(LanguageServer):
    def __init__(self) -> None:
        from flowctx_tui.cli import version

        super().__init__(
            "flowctx",
            version(),
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=_Protocol,
        )
        self.workspaces: dict[Path, Workspace | MjWorkspace] = {}
        self._timers: dict[Path, asyncio.TimerHandle] = {}
        #: the running check of each workspace, stopped when a newer change supersedes it
        self._checks: dict[Path, threading.Event] = {}
        #: each document's outline entries as last serialised, by what they depend on with
        #: lines counted from the entry's first (an edit above an entry shifts it, and only
        #: its line numbers are written again): its JSON before the ranges, and its columns
        #: in the client's units (``_symbols_json``)
        self._outline: dict[str, dict[tuple[Any, ...], tuple[str, tuple[int, ...]]]] = {}
        #: the completion items last offered: what they were made from, each offered
        #: variable's type and source (by the analysis, kept alive here), and each item's JSON
        #: around its edit range (``_completion_json``)
        self._offered: tuple[Any, ...] | None = None
        self._about: tuple[Any, dict[str, Any]] | None = None
        #: one check at a time (requests never take it: they read the last analysis)
        self._check_lock = threading.Lock()
        #: each workspace's newest change (a counter) and the newest change published
        self._changes: dict[Path, int] = {}
        self._published_change: dict[Path, int] = {}
        #: files changed since the last publication of their workspace: sent even if unchanged
        self._touched: dict[Path, set[Path]] = {}
        #: the version last published of each open document, and what was sent for each file
        self._sent_versions: dict[Path, int] = {}
        self._sent: dict[Path, list[types.Diagnostic]] = {}
        #: each problem's diagnostic as last converted and its JSON text, by the id of its
        #: ``Located`` (kept alive here): a check of a 3,000-variable contract repeats
        #: thousands of them unchanged, and converting each again took 30 ms
        self._converted: dict[int, tuple[analysis.Located, types.Diagnostic, str]] = {}
        self.env = dict(os.environ)
        #: ``flowctx lsp --runtime NAME``: the profile every workspace is answered under
        self.runtime: str | None = None

    # --- state ------------------------------------------------------------------------------

    def buffers(self) -> dict[Path, str]:
        """Every open document's text, by absolute path."""
        return self.documents()[0]

    def documents(self) -> tuple[dict[Path, str], dict[Path, int]]:
        """Every open document's text and version, by absolute path."""
        out: dict[Path, str] = {}
        versions: dict[Path, int] = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = to_fs_path(uri)
            if path:
                out[Path(path).resolve()] = doc.source
                if doc.version is not None:
                    versions[Path(path).resolve()] = doc.version
        return out, versions

    def workspace_for(self, path: Path) -> Workspace | MjWorkspace | None:
        # a JSON file of MemberJunction agent metadata is its entity folder's, even inside a
        # Mozaiks workspace
        folder = analysis.mj_folder(path)
        if folder is not None:
            return self.workspaces.setdefault(folder, MjWorkspace(folder))
        for root, known in self.workspaces.items():
            if isinstance(known, Workspace) and (root == path or root in path.parents):
                return known
        opened = analysis.open_workspace(path, self.env, self.runtime)
        if opened is not None:
            self.workspaces[opened.root] = opened
        return opened

    # --- positions ----------------------------------------------------------------------------

    def position(self, uri: str, position: types.Position) -> types.Position:
        """A position the client sent in ``uri``, in code points of its line."""
        doc = self.workspace.get_text_document(uri)
        return to_server(self.workspace.position_codec, text_lines(doc.source), position)

    def span(self, row: str, line: int, start: int, end: int) -> types.Range:
        """A code-point span of a line, in the client's units."""
        return to_client(self.workspace.position_codec, row, line, start, end)

    # --- diagnostics --------------------------------------------------------------------------

    def schedule_check(self, path: Path) -> None:
        ws = self.workspace_for(path)
        if ws is None:
            return
        loop = asyncio.get_running_loop()
        self._changes[ws.root] = self._changes.get(ws.root, 0) + 1
        self._touched.setdefault(ws.root, set()).add(path)
        timer = self._timers.pop(ws.root, None)
        if timer is not None:
            timer.cancel()
        running = self._checks.pop(ws.root, None)
        if running is not None:
            running.set()  # its answer would be stale: stop its evaluations now
        self._timers[ws.root] = loop.call_later(
            DEBOUNCE, lambda: asyncio.ensure_future(self.publish(ws))
        )

    async def publish(self, ws: Workspace | MjWorkspace) -> None:
        self._timers.pop(ws.root, None)
        change = self._changes.get(ws.root, 0)
        buffers, versions = self.documents()
        touched = self._touched.pop(ws.root, set())
        cancel = self._checks[ws.root] = threading.Event()
        try:
            found = await asyncio.to_thread(self._check, ws, buffers, cancel)
        except Exception as exc:  # a bug must show, not stop the server
            self._touched.setdefault(ws.root, set()).update(touched)
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Error, f"flowctx check failed: {exc!r}")
            )
            return
        finally:
            if self._checks.get(ws.root) is cancel:
                del self._checks[ws.root]
        if found is None or cancel.is_set() or change < self._published_change.get(ws.root, 0):
            # superseded by a newer change: its own check publishes (and what this one was
            # asked for, touched files included)
            self._touched.setdefault(ws.root, set()).update(touched)
            return
        self._published_change[ws.root] = change
        for path in sorted(set(found) | ws.published | touched):
            items, texts = found.get(path, _NONE)
            version = versions.get(path)
            if version is not None and version < self._sent_versions.get(path, -1):
                continue  # never back to an older text of the document
            if path not in touched and self._sent.get(path) == items:
                continue  # nothing new for it
            self._publish(path, texts, version)
            self._sent[path] = items
            if version is not None:
                self._sent_versions[path] = version
        ws.published = set(found)

    def _check(
        self, ws: Workspace | MjWorkspace, buffers: dict[Path, str], cancel: threading.Event
    ) -> dict[Path, Diagnostics] | None:
        """The workspace's diagnostics by file, ready to send; None when cancelled."""
        from flowctx_core.expressions.budget import Cancelled, bounded

        with self._check_lock:  # one check at a time: each starts from the last analysis
            if cancel.is_set():
                return None
            try:
                with bounded(None, cancel):
                    found = analysis.problems(ws, buffers, cancel)
            except Cancelled:
                if cancel.is_set():
                    return None
                raise
            return self._diagnostics(found)

    def _diagnostics(self, found: dict[Path, list[analysis.Located]]) -> dict[Path, Diagnostics]:
        """``found`` as the protocol's diagnostics, each converted (and serialised) once while
        it lasts: by the identity of its ``Located``, which the analysis keeps for a problem
        whose line did not change (a check of a 3,000-variable contract repeats thousands of
        them unchanged)."""
        before = self._converted
        now: dict[int, tuple[analysis.Located, types.Diagnostic, str]] = {}
        out: dict[Path, Diagnostics] = {}
        for path, items in found.items():
            made = list(map(before.get, map(id, items)))
            for k in analysis.positions(made, None, 0, len(made)):
                item = items[k]
                diagnostic = _diagnostic(self, item)
                made[k] = (item, diagnostic, json.dumps(_CONVERTER.unstructure(diagnostic)))
            out[path] = Diagnostics(list(map(_SECOND, made)), list(map(_THIRD, made)))  # type: ignore[arg-type]
            now.update(zip(map(id, items), made, strict=True))  # type: ignore[arg-type]
        self._converted = now
        return out

    def _publish(self, path: Path, listed: list[str], version: int | None) -> None:
        """``textDocument/publishDiagnostics`` of diagnostics already serialised (``listed``)."""
        params: dict[str, Any] = {"uri": from_fs_path(str(path)) or "", "diagnostics": []}
        if version is not None:
            params["version"] = version
        head = json.dumps(
            {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params}
        )
        # the empty list's "[]" is the one in the head: the diagnostics go inside it
        at = head.index('"diagnostics": []') + len('"diagnostics": [')
        self.protocol._send_data(_Prepared(head[:at] + ",".join(listed) + head[at:]))

    # --- requests -----------------------------------------------------------------------------

    async def answer(self, fn: Callable[[], T]) -> T | None:
        """``fn`` in a worker thread, within the request budget; None when it fails, is late or
        is cancelled by the client. The budget reaches the work itself: every evaluation it
        starts stops at the deadline or when the request is given up, so nothing runs on in
        the background after the answer."""
        from flowctx_core.expressions.budget import bounded

        deadline = time.monotonic() + REQUEST_BUDGET
        cancel = threading.Event()

        def guarded() -> T:
            # no lock shared with the checker: ``fn`` reads the last analysis, swapped in whole
            if cancel.is_set():
                raise _Busy("given up before it started")
            with bounded(deadline, cancel):
                return fn()

        try:
            return await asyncio.wait_for(asyncio.to_thread(guarded), REQUEST_BUDGET)
        except asyncio.CancelledError:
            cancel.set()  # the client cancelled (or superseded) the request
            raise
        except Exception as exc:
            cancel.set()
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Warning, f"flowctx: {exc!r}")
            )
            return None


_SECOND = itemgetter(1)
_THIRD = itemgetter(2)


class Diagnostics(NamedTuple):
    """One file's diagnostics, and the JSON text of each (sent as it is)."""

    items: list[types.Diagnostic]
    texts: list[str]


_NONE = Diagnostics([], [])


def _diagnostic(ls: FlowctxServer, item: analysis.Located) -> types.Diagnostic:
    from flowctx_core.base.secrets import mask_text

    p = item.problem
    message = mask_text((f"{p.yaml_path}: " if p.yaml_path else "") + p.message)
    return types.Diagnostic(
        range=ls.span(item.row, item.line, item.start, item.end),
        message=message,
        severity=types.DiagnosticSeverity.Error
        if p.severity == "error"
        else types.DiagnosticSeverity.Warning,
        code=p.code or None,
        code_description=_code_description(p.code),
        source="flowctx",
        # the correction check knows, handed back by the client for the quick fix
        data=fix_data(getattr(p, "fix", None)),
    )


def _code_description(code: str) -> types.CodeDescription | None:
    """The link from a diagnostic's code to its documentation (``docs_links``)."""
    from flowctx_tui.lsp.docs_links import code_href

    href = code_href(code)
    return types.CodeDescription(href=href) if href else None


server = FlowctxServer()


def _path(uri: str) -> Path | None:
    fs = to_fs_path(uri)
    return Path(fs).resolve() if fs else None


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: FlowctxServer, params: types.DidOpenTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is not None:
        ls.schedule_check(path)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: FlowctxServer, params: types.DidChangeTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is not None:
        ls.schedule_check(path)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: FlowctxServer, params: types.DidSaveTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is None:
        return
    ws = ls.workspace_for(path)
    if isinstance(ws, Workspace) and (path.name == "flowctx.yaml" or "seed" in path.parts):
        analysis.reload_session(ws)
    ls.schedule_check(path)


#: files outside the editor whose change (a git pull, a checkout) can change the answers
WATCHED = ("**/flowctx.yaml", "**/*.yaml", "**/*.yml", "**/*.json")


@server.feature(types.INITIALIZED)
async def initialized(ls: FlowctxServer, params: types.InitializedParams) -> None:
    watching = ls.client_capabilities.workspace
    dynamic = watching and watching.did_change_watched_files
    if not (dynamic and dynamic.dynamic_registration):
        return  # the client cannot be asked to watch: saves in the editor still count
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]
    )
    await ls.client_register_capability_async(
        types.RegistrationParams(
            registrations=[
                types.Registration(
                    id="flowctx-watched-files",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=options,
                )
            ]
        )
    )


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: FlowctxServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A file changed outside the editor: flowctx.yaml and seeds are read again, and the
    workspace's problems are published anew (only for workspaces the editor has open)."""
    reloaded: set[Path] = set()
    for change in params.changes:
        path = _path(change.uri)
        if path is None:
            continue
        ws = next(
            (w for root, w in ls.workspaces.items() if root == path or root in path.parents), None
        )
        if ws is None:
            continue
        reads = path.name == "flowctx.yaml" or "seed" in path.parts
        if isinstance(ws, Workspace) and ws.root not in reloaded and reads:
            analysis.reload_session(ws)
            reloaded.add(ws.root)
        ls.schedule_check(path)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: FlowctxServer, params: types.DidCloseTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is not None:
        ls.schedule_check(path)  # the disk's text counts again


def _context(ls: FlowctxServer, uri: str) -> tuple[Path, Workspace, str | None, str] | None:
    path = _path(uri)
    if path is None:
        return None
    ws = ls.workspace_for(path)
    if ws is None or isinstance(ws, MjWorkspace):
        return None  # MJ metadata: diagnostics only
    doc = ls.workspace.get_text_document(uri)
    return path, ws, analysis.workflow_of(ws, path), doc.source


def _routing_file(ls: FlowctxServer, uri: str) -> tuple[Path, Workspace, str] | None:
    """(path, workspace, workflow) when ``uri`` is one of a workflow's routing files."""
    found = _context(ls, uri)
    if found is None:
        return None
    path, ws, workflow, _text = found
    if workflow is None or path.name not in ROUTING_FILES.values():
        return None
    return path, ws, workflow


def _named_context(ls: FlowctxServer, uri: str) -> tuple[Path, Workspace, str] | None:
    """(path, workspace, workflow) for rename, references and definitions: a workflow's own
    file, or a test file, saved scenario or build-context registry naming one workflow."""
    from flowctx_tui.lsp.occurrences import workflow_named

    found = _context(ls, uri)
    if found is None:
        return None
    path, ws, workflow, _text = found
    workflow = workflow or workflow_named(ws, path, ls.buffers())
    return None if workflow is None else (path, ws, workflow)


class _NameAt(NamedTuple):
    """Where a definition, references or rename request points, in the order the answering
    functions take it (``occurrences.definition(*at)``): the workspace, the workflow, the file,
    the position in the server's encoding, and the editor's buffers."""

    ws: Workspace
    workflow: str
    path: Path
    line: int
    character: int
    buffers: dict[Path, str]


def _name_at(ls: FlowctxServer, uri: str, position: types.Position) -> _NameAt | None:
    found = _named_context(ls, uri)
    if found is None:
        return None
    path, ws, workflow = found
    pos = ls.position(uri, position)
    return _NameAt(ws, workflow, path, pos.line, pos.character, ls.buffers())


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: FlowctxServer, params: types.HoverParams) -> types.Hover | None:
    mj_path = _path(params.text_document.uri)
    mj = ls.workspace_for(mj_path) if mj_path is not None else None
    if isinstance(mj, MjWorkspace) and mj_path is not None:
        pos, buffers = params.position, ls.buffers()
        said = await ls.answer(
            lambda: analysis.mj_hover(mj, mj_path, pos.line, pos.character, buffers)
        )
        if not said:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=said))
    found = _context(ls, params.text_document.uri)
    if found is None:
        return None
    path, ws, workflow, text = found
    if workflow is None:
        return None
    pos = ls.position(params.text_document.uri, params.position)
    buffers = ls.buffers()

    def work() -> str | None:
        matrix = analysis.matrix_of(ws, workflow, buffers)
        word = analysis.word_at(text, pos.line, pos.character)
        if matrix is not None and word is not None and matrix.row(word[0]) is not None:
            return analysis.variable_hover(matrix, word[0])
        if path.name in ROUTING_FILES.values():
            rules = analysis.rules_at(analysis.rules_in(ws, workflow, path, buffers))
            under = analysis.rule_under(rules, pos.line)
            if under is not None:
                return analysis.rule_hover(under[1], under[2])
        return None

    value = await ls.answer(work)
    if not value:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value))


@server.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=["{", ".", " ", "-", "["]),
)
async def completion(ls: FlowctxServer, params: types.CompletionParams) -> types.CompletionList:
    empty = types.CompletionList(is_incomplete=False, items=[])
    pos = ls.position(params.text_document.uri, params.position)
    buffers = ls.buffers()
    mj_path = _path(params.text_document.uri)
    mj = ls.workspace_for(mj_path) if mj_path is not None else None
    text = ls.workspace.get_text_document(params.text_document.uri).source
    #: each offered variable's type and source (completion_info), filled by the work
    about: list[dict[str, Any]] = [{}]
    if isinstance(mj, MjWorkspace) and mj_path is not None:
        source = text
        offered = await ls.answer(
            lambda: analysis.mj_completions(mj, mj_path, source, pos.line, pos.character, buffers)
        )
    else:
        found = _context(ls, params.text_document.uri)
        if found is None:
            return empty
        path, ws, workflow, text = found
        if workflow is None:
            return empty

        def work() -> analysis.Completions | None:
            from flowctx_tui.lsp.completion_info import variable_info

            matrix = analysis.matrix_of(ws, workflow, buffers)
            names = analysis.names_of(ws, workflow, buffers)
            found = analysis.completions(path, text, pos.line, pos.character, matrix, names)
            if found is not None and found.kind == "variable":
                # made once per analysis (the same matrix until a check swaps in another)
                known = ls._about
                if known is None or known[0] is not matrix:
                    known = ls._about = (matrix, variable_info(matrix))
                about[0] = known[1]
            return found

        offered = await ls.answer(work)
    if offered is None:
        return empty
    row = text_lines(text)[pos.line] if pos.line < len(text_lines(text)) else ""
    edit = ls.span(row, pos.line, max(pos.character - len(offered.prefix), 0), pos.character)
    return _Raw(_completion_json(ls, offered, about[0], edit))  # type: ignore[return-value]


def _completion_json(
    ls: FlowctxServer, offered: analysis.Completions, about: dict[str, Any], edit: types.Range
) -> str:
    """The completion list as JSON text. Its items depend on the cursor only through the
    typed prefix and the edit range: each item's JSON around its range is made once for the
    names, kind and variable descriptions offered, and reused while they stay the same."""
    names = tuple(offered.items)
    made = ls._offered
    if made is None or made[0] != offered.kind or made[1] is not about or made[2] != names:
        kind = {
            "variable": types.CompletionItemKind.Variable,
            "agent": types.CompletionItemKind.Class,
            "step": types.CompletionItemKind.Class,
            "source type": types.CompletionItemKind.EnumMember,
            "path": types.CompletionItemKind.Field,
        }[offered.kind]
        pieces = []
        for name in names:
            item: dict[str, Any] = {
                "label": name,
                "kind": int(kind),
                # a variable's type and source (never its value), else what kind of name it is
                "detail": about[name].detail if name in about else f"flowctx: {offered.kind}",
            }
            if name in about:
                item["documentation"] = {
                    "kind": types.MarkupKind.Markdown.value,
                    "value": about[name].documentation,
                }
            head = json.dumps(item)[:-1] + ', "textEdit": {"range": '
            pieces.append((name, head, f', "newText": {json.dumps(name)}}}}}'))
        made = ls._offered = (offered.kind, about, names, pieces)
    at = json.dumps(_CONVERTER.unstructure(edit))
    items = [head + at + tail for name, head, tail in made[3] if name.startswith(offered.prefix)]
    return '{"isIncomplete": false, "items": [' + ", ".join(items) + "]}"


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: FlowctxServer, params: types.DefinitionParams) -> types.Location | None:
    from flowctx_tui.lsp import occurrences

    at = _name_at(ls, params.text_document.uri, params.position)
    if at is None:
        return None
    where = await ls.answer(lambda: occurrences.definition(*at))
    return None if where is None else _location(ls, at.ws, where, at.buffers)


def _location(ls: FlowctxServer, ws: Workspace, o: Any, buffers: dict[Path, str]) -> types.Location:
    """An occurrence (``occurrences.Occurrence``) as a location in the client's units."""
    row = analysis.line_of(ws, o.path, buffers, o.line)
    return types.Location(
        uri=from_fs_path(str(o.path)) or "", range=ls.span(row, o.line, o.start, o.end)
    )


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
async def references(ls: FlowctxServer, params: types.ReferenceParams) -> list[types.Location]:
    """Identifier occurrences only (never a word in a description), the definition only
    when the client asks for it (``includeDeclaration``)."""
    from flowctx_tui.lsp import occurrences

    at = _name_at(ls, params.text_document.uri, params.position)
    if at is None:
        return []
    declaration = params.context.include_declaration
    used = await ls.answer(lambda: occurrences.references(*at, include_declaration=declaration))
    return [_location(ls, at.ws, o, at.buffers) for o in used or []]


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
async def code_lens(ls: FlowctxServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    found = _routing_file(ls, params.text_document.uri)
    if found is None:
        return []
    path, ws, workflow = found
    buffers = ls.buffers()

    def work() -> list[tuple[int, str, str]]:
        rules = analysis.rules_at(analysis.rules_in(ws, workflow, path, buffers))
        covered = analysis.coverage_counts(ws, buffers)
        out = []
        for rule, decision, cand in rules:
            if decision.unread:
                # a file the runtime never opens: its rules neither win nor owe a test
                out.append((rule.line, "NOT READ by the runtime: routes nothing", rule.source))
                continue
            won = analysis.rule_state(decision, cand)
            n = covered.get((workflow, rule.kind, rule.index), 0)
            tests = f"covered by {n} test{'s' if n != 1 else ''}" if n else "no test"
            out.append((rule.line, f"rule {rule.number} · {won} · {tests}", rule.source))
        return out

    lenses = await ls.answer(work) or []
    return [
        types.CodeLens(
            range=types.Range(
                start=types.Position(line=line, character=0),
                end=types.Position(line=line, character=0),
            ),
            command=types.Command(
                title=title,
                command="flowctx.tryInFlowctx",
                arguments=[analysis.try_command(ws, workflow, source)],
            ),
        )
        for line, title, source in lenses
    ]


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
async def code_action(
    ls: FlowctxServer, params: types.CodeActionParams
) -> list[types.CodeAction | types.Command]:
    """The quick fixes of the problems in the range (``quickfix.py``), then the rule's "Try
    in flowctx" command."""
    only = params.context.only
    fixes: list[types.CodeAction | types.Command] = []
    if not only or any(str(getattr(k, "value", k)).startswith("quickfix") for k in only):
        fixes += _quick_fixes(ls, params)
    return [*fixes, *await _try_in_flowctx(ls, params)]


def _quick_fixes(ls: FlowctxServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    from flowctx_tui.lsp import quickfix

    uri = params.text_document.uri
    rows = text_lines(ls.workspace.get_text_document(uri).source)
    out = []
    for diagnostic in params.context.diagnostics:
        fix = quickfix.fix_of(diagnostic.data)
        if fix is None or diagnostic.source != "flowctx":
            continue
        old, new, written = fix
        at = ls.position(uri, diagnostic.range.start)
        line, column = (written, 0) if written is not None else (at.line, at.character)
        found = quickfix.locate(rows, line, column, old)
        if found is None:
            continue  # the text changed since: nothing to fix any more
        line, start, end = found
        edit = types.TextEdit(range=ls.span(rows[line], line, start, end), new_text=new)
        out.append(
            types.CodeAction(
                title=f"Change '{old}' to '{new}'",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=True,
                edit=types.WorkspaceEdit(changes={uri: [edit]}),
            )
        )
    return out


async def _try_in_flowctx(ls: FlowctxServer, params: types.CodeActionParams) -> list[types.Command]:
    found = _routing_file(ls, params.text_document.uri)
    if found is None:
        return []
    path, ws, workflow = found
    buffers = ls.buffers()
    line = params.range.start.line

    def work() -> str | None:
        rules = analysis.rules_at(analysis.rules_in(ws, workflow, path, buffers))
        under = analysis.rule_under(rules, line)
        return analysis.try_command(ws, workflow, under[0].source) if under else None

    command = await ls.answer(work)
    if command is None:
        return []
    # a bare Command is a valid action (the protocol's Command | CodeAction): it edits nothing
    return [
        types.Command(
            title=f"Try in flowctx: {command}",
            command="flowctx.tryInFlowctx",
            arguments=[command],
        )
    ]


@server.command("flowctx.tryInFlowctx")
def try_in_flowctx(ls: FlowctxServer, *arguments: Any) -> str:
    """Shows the equivalent command (the editor can run it in a terminal) and returns it.
    pygls passes the command's arguments one by one, not as a list."""
    text = str(arguments[0]) if arguments else ""
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, text))
    return text


#: how long a thread holds the interpreter before another may run (s): a request's thread
#: waits at most about this long for a check running in another (Python's default is 5 ms;
#: a hover takes several hand-overs between the reader, its worker and the writer)
SWITCH_INTERVAL = 0.001


def main(runtime: str | None = None) -> int:
    import sys

    server.runtime = runtime
    sys.setswitchinterval(SWITCH_INTERVAL)
    server.start_io()
    return 0


# --- rename -----------------------------------------------------------------------------------


class _RenameRefused(JsonRpcException):
    """LSP's RequestFailed: the editor shows the message (a rename that cannot be made)."""

    CODE = -32803


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
async def prepare_rename(
    ls: FlowctxServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    from flowctx_tui.lsp import rename

    at = _name_at(ls, params.text_document.uri, params.position)
    if at is None:
        return None
    said = await ls.answer(lambda: rename.prepare(*at))
    if said is None or isinstance(said, rename.Refused):
        return None  # nothing renameable here: the editor says so
    row = analysis.line_of(at.ws, said.path, at.buffers, said.line)
    return types.PrepareRenamePlaceholder(
        range=ls.span(row, said.line, said.start, said.end), placeholder=row[said.start : said.end]
    )


@server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
async def rename_symbol(
    ls: FlowctxServer, params: types.RenameParams
) -> types.WorkspaceEdit | None:
    """Every identifier occurrence of the variable or agent in the workflow's files (contract,
    agents.yaml, routing, prompts, test files, saved scenarios) as one WorkspaceEdit."""
    from flowctx_tui.lsp import rename

    at = _name_at(ls, params.text_document.uri, params.position)
    if at is None:
        raise _RenameRefused("flowctx renames the variables, agents and steps of a workflow")
    new = params.new_name
    said = await ls.answer(
        lambda: rename.rename(at.ws, at.workflow, at.path, at.line, at.character, new, at.buffers)
    )
    if said is None:
        raise _RenameRefused("flowctx could not answer the rename in time")
    if isinstance(said, rename.Refused):
        raise _RenameRefused(said.reason)
    changes: dict[str, list[types.TextEdit]] = {}
    for o in said.edits:
        row = analysis.line_of(at.ws, o.path, at.buffers, o.line)
        changes.setdefault(from_fs_path(str(o.path)) or "", []).append(
            types.TextEdit(range=ls.span(row, o.line, o.start, o.end), new_text=said.new)
        )
    return types.WorkspaceEdit(changes=changes)


# --- outline and workspace symbols ------------------------------------------------------------

_SYMBOL_KINDS = {
    "variable": types.SymbolKind.Variable,
    "agent": types.SymbolKind.Class,
    "rule": types.SymbolKind.Event,
    "step": types.SymbolKind.Function,
    "path": types.SymbolKind.Event,
    "case": types.SymbolKind.Method,
}


def _symbol_range(
    ls: FlowctxServer, rows: list[str], start: tuple[int, int], end: tuple[int, int]
) -> types.Range:
    """A code-point range over several lines in the client's units."""

    def row(n: int) -> str:
        return rows[n] if 0 <= n < len(rows) else ""

    first = ls.span(row(start[0]), start[0], start[1], start[1]).start
    last = ls.span(row(end[0]), end[0], end[1], end[1]).end
    return types.Range(start=first, end=last)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(
    ls: FlowctxServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    """The file's variables, agents, routing rules, flow steps and paths, test cases; in a
    MetadataSync JSON file, the flow agent's steps and paths."""
    from flowctx_tui.lsp import symbols

    path = _path(params.text_document.uri)
    ws = ls.workspace_for(path) if path is not None else None
    if path is None or ws is None:
        return []
    buffers = ls.buffers()
    found = await ls.answer(lambda: symbols.document_symbols(ws, path, buffers)) or []
    rows = text_lines(ls.workspace.get_text_document(params.text_document.uri).source)
    return _Raw(_symbols_json(ls, params.text_document.uri, rows, found))  # type: ignore[return-value]


def _symbols_json(ls: FlowctxServer, uri: str, rows: list[str], found: list[Any]) -> str:
    """The outline as JSON text: each entry's name, kind, detail and columns converted once
    and kept while its lines' text stays the same, wherever the entry moves."""

    def row(n: int) -> str:
        return rows[n] if 0 <= n < len(rows) else ""

    before = ls._outline.get(uri, {})
    now: dict[tuple[Any, ...], tuple[str, tuple[int, ...]]] = {}
    out = []
    for s in found:
        (l0, c0), (l1, c1), (sl, sc0, sc1) = s.start, s.end, s.selection
        key: tuple[Any, ...] = (s.name, s.kind, s.detail, c0, l1 - l0, c1, sl - l0, sc0, sc1)
        key += (row(l0), row(l1), row(sl))
        made = before.get(key) or now.get(key)
        if made is None:
            whole = _symbol_range(ls, rows, s.start, s.end)
            selection = ls.span(row(sl), sl, sc0, sc1)
            head = {"name": s.name, "kind": int(_SYMBOL_KINDS[s.kind])}
            if s.detail:
                head["detail"] = s.detail
            made = (
                json.dumps(head)[:-1],
                (
                    whole.start.character,
                    whole.end.character,
                    selection.start.character,
                    selection.end.character,
                ),
            )
        now[key] = made
        text, (a, b, c, d) = made
        out.append(
            f'{text}, "range": {{"start": {{"line": {l0}, "character": {a}}}, '
            f'"end": {{"line": {l1}, "character": {b}}}}}, '
            f'"selectionRange": {{"start": {{"line": {sl}, "character": {c}}}, '
            f'"end": {{"line": {sl}, "character": {d}}}}}}}'
        )
    ls._outline[uri] = now
    return "[" + ", ".join(out) + "]"


@server.feature(types.WORKSPACE_SYMBOL)
async def workspace_symbol(
    ls: FlowctxServer, params: types.WorkspaceSymbolParams
) -> list[types.SymbolInformation]:
    """The variables, agents and steps of every workspace the editor has open (the one it was
    started on included) whose names match the query (its characters in order)."""
    from flowctx_tui.lsp import symbols

    root = ls.workspace.root_path
    if root and not ls.workspaces:
        ls.workspace_for(Path(root).resolve())
    known = list(ls.workspaces.values())
    buffers = ls.buffers()
    query = params.query

    def work() -> list[symbols.Symbol]:
        # the MemberJunction agent metadata under a workspace, opened in the editor or not
        from flowctx_core.memberjunction.metadata import agent_folders

        roots = {w.root for w in known}
        for ws in [w for w in known if isinstance(w, Workspace)]:
            for folder in agent_folders(ws.root):
                if folder.resolve() not in roots:
                    roots.add(folder.resolve())
                    known.append(MjWorkspace(folder.resolve()))
        return symbols.workspace_symbols(known, query, buffers)

    found = await ls.answer(work) or []
    out = []
    rows: dict[Path, list[str]] = {}  # each file's lines, read once for all its symbols
    for s in found:
        # the innermost: an MJ entity folder inside a Mozaiks workspace is its own
        ws = max(
            (w for w in known if w.root == s.path or w.root in s.path.parents),
            key=lambda w: len(w.root.parts),
            default=None,
        )
        if ws is None:
            continue
        line, start, end = s.selection
        if s.path not in rows:
            rows[s.path] = text_lines(analysis._text_of(s.path, buffers, ws.root))
        row = rows[s.path][line] if line < len(rows[s.path]) else ""
        out.append(
            types.SymbolInformation(
                name=s.name,
                kind=_SYMBOL_KINDS[s.kind],
                location=types.Location(
                    uri=from_fs_path(str(s.path)) or "", range=ls.span(row, line, start, end)
                ),
                container_name=s.container or None,
            )
        )
    return out
