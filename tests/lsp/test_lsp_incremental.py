"""``flowctx lsp`` checks incrementally (only what an edit can affect is read and checked again)
and never publishes stale work: after every edit of a sequence across two workflows, a file
both read and flowctx.yaml, the diagnostics the editor holds are exactly ``flowctx check``'s for
the same buffers, checked from scratch; a burst of changes never makes a document's diagnostics
go back to an older text; hover answers from the last good analysis."""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from flowctx_core.base import fsview
from flowctx_core.base.secrets import mask_text
from flowctx_core.check import workspace_report
from flowctx_core.session import open_session
from tests.lsp.client import start_client

APP = "workflows/AppGenerator/context_variables.yaml"
APPROVALS = "workflows/Approvals/context_variables.yaml"
TRIAGE = "workflows/Triage/context_variables.yaml"
SHARED = "data/approval_policy.yaml"
PROFILE = "flowctx.yaml"
WAIT = 60.0

Seen = tuple[Path, int, int, str, str, str]


class Editor:
    """A client on ``flowctx lsp`` with its documents' texts and versions, and every
    publication it received, in order."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.published: list[types.PublishDiagnosticsParams] = []
        self.texts: dict[Path, str] = {}
        self.versions: dict[str, int] = {}

    async def start(self) -> None:
        self.client, _ = await start_client(self.root, published=self.published)

    def uri(self, rel: str) -> str:
        return from_fs_path(str(self.root / rel)) or ""

    def open(self, rel: str) -> str:
        uri = self.uri(rel)
        text = (self.root / rel).read_text()
        self.texts[self.root / rel] = text
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="yaml", version=1, text=text
                )
            )
        )
        return uri

    def change(self, rel: str, text: str) -> str:
        uri = self.uri(rel)
        self.versions[uri] += 1
        self.texts[self.root / rel] = text
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return uri

    def close(self, rel: str) -> None:
        self.texts.pop(self.root / rel)
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri(rel))
            )
        )

    async def settled(self, uri: str, after: int, version: int | None) -> None:
        """Until the server published ``uri`` (at ``version``) after the ``after``-th
        publication; then one request's round trip, so every publication of that check
        (sent before its answer) has been received."""
        deadline = time.monotonic() + WAIT
        while not any(
            p.uri == uri and (version is None or p.version == version)
            for p in self.published[after:]
        ):
            assert time.monotonic() < deadline, f"no publication of {uri} v{version}"
            await asyncio.sleep(0.02)
        await self.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=0, character=0),
            )
        )

    def held(self) -> list[Seen]:
        """Every diagnostic the editor holds now."""
        out: list[Seen] = []
        for uri, items in self.client.diagnostics.items():
            path = Path(to_fs_path(uri) or "").resolve()
            for d in items:
                severity = "error" if d.severity == types.DiagnosticSeverity.Error else "warning"
                start = d.range.start
                out.append((path, start.line, start.character, d.message, severity, str(d.code)))
        return sorted(out)

    def from_scratch(self) -> list[Seen]:
        """``flowctx check``'s problems for the editor's buffers, from a new session."""
        with fsview.buffers(dict(self.texts)):
            session = open_session(self.root, env=dict(os.environ))
            problems = workspace_report(session).problems
        out: list[Seen] = []
        for p in problems:
            path = (self.root / p.file).resolve() if p.file else None
            if path is None or (self.root not in path.parents and path != self.root):
                continue  # the editor is shown problems of the workspace's files
            message = mask_text((f"{p.yaml_path}: " if p.yaml_path else "") + p.message)
            line, col = max(p.line - 1, 0), max(p.column - 1, 0)
            out.append((path, line, col, message, p.severity, str(p.code or None)))
        return sorted(out)

    async def edit(self, rel: str, text: str | None) -> list[Seen]:
        """Change (or open, when ``text`` is None) ``rel``, wait for its check, and return what
        the editor holds, after asserting it is exactly the from-scratch check's."""
        after = len(self.published)
        uri = self.open(rel) if text is None else self.change(rel, text)
        await self.settled(uri, after, self.versions[uri])
        held = self.held()
        assert held == self.from_scratch(), rel
        return held


def _in(held: list[Seen], root: Path, rel: str, needle: str) -> bool:
    return any(s[0] == (root / rel).resolve() and needle in s[3] for s in held)


async def test_every_edit_publishes_exactly_what_check_gives_from_scratch(demo: Path) -> None:
    # a second workflow reads the Approvals workflow's policy file: a file two workflows share
    triage = (demo / TRIAGE).read_text()
    shared = (
        "  shared_policy:\n    type: object\n    source:\n      type: file\n"
        f"      path: {SHARED}\n      format: yaml\n"
    )
    triage = triage.replace("agents:\n", shared + "agents:\n", 1)
    triage = triage.replace(
        "variables: [ticket_summary]", "variables: [ticket_summary, shared_policy]"
    )
    (demo / TRIAGE).write_text(triage)
    ed = Editor(demo)
    await ed.start()
    try:
        held = await ed.edit(APP, None)
        app = (demo / APP).read_text()
        broken = app.replace("env_var: MAX_BUILD_ITERATIONS", "env_vr: MAX_BUILD_ITERATIONS", 1)
        held = await ed.edit(APP, broken)
        assert _in(held, demo, APP, "env_vr")
        # the second workflow
        held = await ed.edit(APPROVALS, None)
        approvals = (demo / APPROVALS).read_text()
        held = await ed.edit(APPROVALS, approvals.replace("type: boolean", "type: intger", 1))
        assert _in(held, demo, APPROVALS, "intger") and _in(held, demo, APP, "env_vr")
        # the file both read: each workflow's variable now fails
        before = held
        await ed.edit(SHARED, None)
        held = await ed.edit(SHARED, "auto_approve_below: [500\n")
        assert held != before
        changed = {s[0] for s in set(held) ^ set(before)}
        assert (demo / TRIAGE).resolve() in changed and (demo / APPROVALS).resolve() in changed
        # flowctx.yaml, unsaved: the environment every workflow reads
        before = held
        await ed.edit(PROFILE, None)
        profile = (demo / PROFILE).read_text()
        edited = profile.replace('ENABLE_PREVIEW_DEPLOYS: "yes"', 'ENABLE_PREVIEW_DEPLOYS: "no"')
        held = await ed.edit(PROFILE, edited + "checks:\n  authority.silent-trigger: error\n")
        changed = {s[0] for s in set(held) ^ set(before)}
        assert {(demo / w).resolve() for w in (APP, APPROVALS, TRIAGE)} <= changed
        # back to the saved texts, one by one
        held = await ed.edit(APP, app)
        assert not _in(held, demo, APP, "env_vr")
        held = await ed.edit(SHARED, (demo / SHARED).read_text())
        after = len(ed.published)
        ed.close(PROFILE)  # the disk's flowctx.yaml counts again
        await ed.settled(ed.uri(PROFILE), after, None)
        assert ed.held() == ed.from_scratch()
    finally:
        await ed.client.shutdown_session()


def _typed(text: str, n: int) -> str:
    """``text`` with the first ``n`` letters of an unknown key typed under a variable."""
    return text.replace(
        "      env_var: MAX_BUILD_ITERATIONS\n",
        f"      env_var: MAX_BUILD_ITERATIONS\n      k_{'abcdefghijkl'[:n]}: 1\n",
        1,
    )


async def test_a_burst_of_changes_never_publishes_an_older_text_after_a_newer_one(
    demo: Path,
) -> None:
    ed = Editor(demo)
    await ed.start()
    try:
        uri = ed.open(APP)
        text = ed.texts[(demo / APP).resolve()]
        await ed.settled(uri, 0, 1)
        start = len(ed.published)
        for n in range(1, 13):  # sent without waiting for anything
            ed.change(APP, _typed(text, n))
        await ed.settled(uri, start, ed.versions[uri])
        mine = [p for p in ed.published[start:] if p.uri == uri]
        versions = [p.version for p in mine]
        assert None not in versions and versions == sorted(versions), versions
        typed = [
            max(
                (len(m.group(1)) for d in p.diagnostics for m in [_KEY.search(d.message)] if m),
                default=0,
            )
            for p in mine
        ]
        assert typed == sorted(typed) and typed[-1] == 12, typed
        assert ed.held() == ed.from_scratch()
    finally:
        await ed.client.shutdown_session()


_KEY = re.compile(r"\.k_([a-l]+):")


def _contract(n: int) -> str:
    lines = ["definitions:"]
    for i in range(n):
        lines += [f"  v{i}:", "    type: integer", f"    source: {{type: state, default: {i}}}"]
    lines += ["agents:", "  A:", "    variables: [v0, v5]"]
    return "\n".join(lines) + "\n"


async def test_hover_answers_from_the_last_good_analysis_during_a_burst(tmp_path: Path) -> None:
    """A long contract, a burst of changes with a hover after each: every hover answers, with
    the variable; when the contract stops parsing, hover still shows the last good value, and
    a valid change is shown once it is checked."""
    root = tmp_path / "ws"
    rel = "workflows/Big/context_variables.yaml"
    (root / "workflows" / "Big").mkdir(parents=True)
    text = _contract(1500)
    (root / rel).write_text(text)
    ed = Editor(root)
    await ed.start()
    try:
        uri = ed.open(rel)
        await ed.settled(uri, 0, 1)
        row = text.splitlines().index("  v5:")
        ask = types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=row, character=3),
        )
        hovers = []
        for n in range(1, 9):
            edited = text.replace("default: 0}", f"default: {n}{{", 1)  # 'default: 1{' ...
            ed.change(rel, edited if n % 2 else text.replace("default: 0}", f"default: {n}}}", 1))
            hovers.append(asyncio.ensure_future(ed.client.text_document_hover_async(ask)))
            await asyncio.sleep(0.05)  # an author's pace: the burst lasts while checks run
        for got in await asyncio.gather(*hovers):
            assert got is not None and "**v5**" in got.contents.value  # type: ignore[union-attr]
        # the contract no longer parses: hover still answers from the last good analysis
        after = len(ed.published)
        ed.change(rel, text.replace("  v5:\n", "  v5: [\n", 1))
        await ed.settled(uri, after, ed.versions[uri])
        got = await ed.client.text_document_hover_async(ask)
        assert got is not None and "**v5**" in got.contents.value  # type: ignore[union-attr]
        # a valid change is what hover shows once its check is published
        after = len(ed.published)
        ed.change(rel, text.replace("default: 5}", "default: 55}", 1))
        await ed.settled(uri, after, ed.versions[uri])
        got = await ed.client.text_document_hover_async(ask)
        assert got is not None and "value: `55`" in got.contents.value  # type: ignore[union-attr]
    finally:
        await ed.client.shutdown_session()
