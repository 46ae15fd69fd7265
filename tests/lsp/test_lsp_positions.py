"""``flowctx lsp`` on lines that are not ASCII, in each position encoding a client can agree
on, under ``--runtime``, and with files changed outside the editor (language server, second
round: items 2, 4 and 5).

A real client (pytest-lsp) starts ``flowctx lsp`` over stdio on a copy of the demo. Positions
are computed by the test the way the client counts them (UTF-16 code units as VS Code does,
UTF-8 bytes as Neovim offers first), on a line holding ``'日本語😀'`` (each character three
UTF-8 bytes, the emoji two UTF-16 units) and ``'café'``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities

from tests.lsp.client import start_client

CONTRACT = "workflows/AppGenerator/context_variables.yaml"
GRAPH = "workflows/AppGenerator/transition_graph.yaml"
ORIGINAL = "${plan_approved} and ${max_build_iterations} > 0"
#: the same condition behind text that counts differently in every encoding
WIDE = "'日本語😀' != 'x' and ${plan_approved} and ${max_build_iterations} and ${nope_var} > 0"
WAIT = 30.0


def units(text: str, encoding: str) -> int:
    """How many units ``text`` is in the client's encoding."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8"))
    if encoding == types.PositionEncodingKind.Utf16:
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def chars(row: str, offset: int, encoding: str) -> int:
    """The code-point index of the client offset ``offset`` in ``row``."""
    for i in range(len(row) + 1):
        if units(row[:i], encoding) >= offset:
            return i
    return len(row)


async def start(
    root: Path,
    encoding: str | None,
    *args: str,
    registered: list[types.Registration] | None = None,
) -> LanguageClient:
    capabilities = client_capabilities("visual-studio-code")
    if encoding is not None:
        capabilities.general = types.GeneralClientCapabilities(position_encodings=[encoding])
    lsp, result = await start_client(root, *args, capabilities=capabilities, registered=registered)
    agreed = result.capabilities.position_encoding
    assert agreed == (encoding or types.PositionEncodingKind.Utf16), agreed
    return lsp


ENCODINGS = [types.PositionEncodingKind.Utf16, types.PositionEncodingKind.Utf8, None]


@pytest_asyncio.fixture(params=ENCODINGS, ids=["utf-16", "utf-8", "default"])
async def session(
    demo: Path, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[LanguageClient, Path, str]]:
    lsp = await start(demo, request.param)
    yield lsp, demo, request.param or types.PositionEncodingKind.Utf16
    await lsp.shutdown_session()


def open_doc(lsp: LanguageClient, path: Path, text: str) -> str:
    doc = from_fs_path(str(path.resolve())) or ""
    lsp.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=doc, language_id="yaml", version=1, text=text)
        )
    )
    return doc


async def test_every_answer_on_a_wide_line_points_where_the_client_counts(
    session: tuple[LanguageClient, Path, str],
) -> None:
    lsp, demo, encoding = session
    text = (demo / GRAPH).read_text().replace(ORIGINAL, WIDE)
    doc = open_doc(lsp, demo / GRAPH, text)
    rows = text.splitlines()
    line = next(n for n, r in enumerate(rows) if "'日本語😀'" in r)
    row = rows[line]
    ident = types.TextDocumentIdentifier(uri=doc)
    at = types.Position(line=line, character=units(row[: row.index("max_build") + 3], encoding))

    # hover: the variable under the cursor, not the rule the line belongs to
    hover = await asyncio.wait_for(
        lsp.text_document_hover_async(types.HoverParams(text_document=ident, position=at)), WAIT
    )
    assert hover is not None and "**max_build_iterations**" in str(hover.contents)

    # definition: the variable's key in the contract
    where = await asyncio.wait_for(
        lsp.text_document_definition_async(
            types.DefinitionParams(text_document=ident, position=at)
        ),
        WAIT,
    )
    assert isinstance(where, types.Location) and where.uri.endswith("context_variables.yaml")
    contract = (demo / CONTRACT).read_text().splitlines()
    assert contract[where.range.start.line].strip().startswith("max_build_iterations:")

    # references: this use is found at its place on the wide line
    used = await asyncio.wait_for(
        lsp.text_document_references_async(
            types.ReferenceParams(
                text_document=ident,
                position=at,
                context=types.ReferenceContext(include_declaration=True),
            )
        ),
        WAIT,
    )
    here = [u for u in used or [] if u.uri == doc and u.range.start.line == line]
    assert here, used
    span = here[0].range
    assert row[
        chars(row, span.start.character, encoding) : chars(row, span.end.character, encoding)
    ] == ("max_build_iterations")

    # diagnostics: the undeclared variable's problem spans the whole quoted expression
    for _ in range(int(WAIT / 0.1)):
        found = [d for d in lsp.diagnostics.get(doc, ()) if "nope_var" in d.message]
        if found:
            break
        await asyncio.sleep(0.1)
    assert found, lsp.diagnostics.get(doc)
    d = found[0].range
    shown = row[chars(row, d.start.character, encoding) : chars(row, d.end.character, encoding)]
    assert shown.startswith("\"'日本語😀'") and shown.endswith('> 0"'), shown


async def test_completion_after_wide_text(session: tuple[LanguageClient, Path, str]) -> None:
    lsp, demo, encoding = session
    text = (demo / GRAPH).read_text().replace(ORIGINAL, "'café' != ${max_bu")
    doc = open_doc(lsp, demo / GRAPH, text)
    rows = text.splitlines()
    line = next(n for n, r in enumerate(rows) if "'café'" in r)
    row = rows[line]
    end = row.index("max_bu") + len("max_bu")
    offered = await asyncio.wait_for(
        lsp.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=doc),
                position=types.Position(line=line, character=units(row[:end], encoding)),
            )
        ),
        WAIT,
    )
    assert offered is not None
    items = offered.items if isinstance(offered, types.CompletionList) else offered
    names = [i.label for i in items]
    assert "max_build_iterations" in names, names
    edit = next(i for i in items if i.label == "max_build_iterations").text_edit
    assert isinstance(edit, types.TextEdit)
    start, stop = edit.range.start.character, edit.range.end.character
    assert row[chars(row, start, encoding) : chars(row, stop, encoding)] == "max_bu"


async def test_the_runtime_option_is_the_runtime_answered(demo: Path) -> None:
    lsp = await start(demo, None, "--runtime", "spec")
    try:
        text = (demo / CONTRACT).read_text()
        doc = open_doc(lsp, demo / CONTRACT, text)
        rows = text.splitlines()
        line = next(n for n, r in enumerate(rows) if r.strip().startswith("max_build_iterations:"))
        hover = await asyncio.wait_for(
            lsp.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=doc),
                    position=types.Position(line=line, character=4),
                )
            ),
            WAIT,
        )
        assert hover is not None
        shown = str(hover.contents)
        # the variable's hover names the profile it was resolved under
        assert "_runtime: spec" in shown and "mozaiks-0.2.0" not in shown, shown
    finally:
        await lsp.shutdown_session()


def test_an_unknown_runtime_is_refused_before_the_server_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from flowctx_tui.cli import main

    assert main(["lsp", "--runtime", "mozaiks-9"]) == 2
    err = capsys.readouterr().err
    assert "unknown runtime 'mozaiks-9'" in err and "Traceback" not in err


async def test_flowctx_yaml_changed_outside_the_editor_is_picked_up(demo: Path) -> None:
    registered: list[types.Registration] = []
    lsp = await start(demo, None, registered=registered)
    try:
        for _ in range(int(WAIT / 0.1)):
            if registered:
                break
            await asyncio.sleep(0.1)
        # the server asked the editor to watch the workspace's files, flowctx.yaml among them
        (watch,) = [r for r in registered if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
        options = watch.register_options
        assert isinstance(options, dict)  # the client gets the options as plain JSON
        globs = [w["globPattern"] for w in options["watchers"]]
        assert "**/flowctx.yaml" in globs
        contract_text = (demo / CONTRACT).read_text()
        contract = open_doc(lsp, demo / CONTRACT, contract_text)
        rows = contract_text.splitlines()
        line = next(n for n, r in enumerate(rows) if r.strip().startswith("max_build_iterations:"))
        ask = types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=contract),
            position=types.Position(line=line, character=4),
        )
        before = await asyncio.wait_for(lsp.text_document_hover_async(ask), WAIT)
        assert before is not None and "value: `5`" in str(before.contents)
        # a git pull changes flowctx.yaml on disk: the editor never opened it
        profile = demo / "flowctx.yaml"
        text = profile.read_text()
        assert 'MAX_BUILD_ITERATIONS: "5"' in text
        profile.write_text(text.replace('MAX_BUILD_ITERATIONS: "5"', 'MAX_BUILD_ITERATIONS: "9"'))
        lsp.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[
                    types.FileEvent(
                        uri=from_fs_path(str(profile)) or "", type=types.FileChangeType.Changed
                    )
                ]
            )
        )
        after = None
        for _ in range(int(WAIT / 0.1)):
            after = await asyncio.wait_for(lsp.text_document_hover_async(ask), WAIT)
            if after is not None and "value: `9`" in str(after.contents):
                break
            await asyncio.sleep(0.1)
        assert after is not None and "value: `9`" in str(after.contents), after
    finally:
        await lsp.shutdown_session()


async def test_prepare_rename_and_rename_count_in_the_clients_units(
    session: tuple[LanguageClient, Path, str],
) -> None:
    lsp, demo, encoding = session
    text = (demo / GRAPH).read_text().replace(ORIGINAL, WIDE)
    (demo / GRAPH).write_text(text)
    doc = open_doc(lsp, demo / GRAPH, text)
    rows = text.splitlines()
    line = next(n for n, r in enumerate(rows) if "'日本語😀'" in r)
    row = rows[line]
    ident = types.TextDocumentIdentifier(uri=doc)
    at = types.Position(line=line, character=units(row[: row.index("max_build") + 3], encoding))
    ready = await asyncio.wait_for(
        lsp.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=ident, position=at)
        ),
        WAIT,
    )
    assert isinstance(ready, types.PrepareRenamePlaceholder)
    span = ready.range
    got = row[chars(row, span.start.character, encoding) : chars(row, span.end.character, encoding)]
    assert got == "max_build_iterations" == ready.placeholder
    edit = await asyncio.wait_for(
        lsp.text_document_rename_async(
            types.RenameParams(text_document=ident, position=at, new_name="budget")
        ),
        WAIT,
    )
    assert edit is not None and edit.changes is not None
    here = [e for e in edit.changes[doc] if e.range.start.line == line]
    assert len(here) == 1
    r = here[0].range
    assert row[chars(row, r.start.character, encoding) : chars(row, r.end.character, encoding)] == (
        "max_build_iterations"
    )


async def test_lines_after_unicode_line_separators_are_the_editors_lines(demo: Path) -> None:
    """A description holding NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR (line breaks to YAML
    and to ``str.splitlines``, not to an editor or the protocol) moves nothing: a definition
    lands on the key, a rename edits exactly the name in every file, symbols name their line."""
    contract = demo / CONTRACT
    text = contract.read_text().replace(
        "description: Shown in greetings;", 'description: "Shown\u2028in\x85greetings\u2029;'
    )
    text = text.replace("default is always used.\n", 'default is always used."\n', 1)
    contract.write_text(text)
    rows = text.split("\n")
    lsp = await start(demo, None)
    try:
        doc = open_doc(lsp, contract, text)
        graph = (demo / GRAPH).read_text()
        grows = graph.split("\n")
        line = next(n for n, r in enumerate(grows) if ORIGINAL in r)
        at = types.Position(line=line, character=grows[line].index("max_build") + 3)
        gdoc = from_fs_path(str((demo / GRAPH).resolve())) or ""
        where = await asyncio.wait_for(
            lsp.text_document_definition_async(
                types.DefinitionParams(
                    text_document=types.TextDocumentIdentifier(uri=gdoc), position=at
                )
            ),
            WAIT,
        )
        assert isinstance(where, types.Location), where
        assert rows[where.range.start.line].strip() == "max_build_iterations:"

        row = next(n for n, r in enumerate(rows) if r.strip() == "PlannerAgent:")
        edit = await asyncio.wait_for(
            lsp.text_document_rename_async(
                types.RenameParams(
                    text_document=types.TextDocumentIdentifier(uri=doc),
                    position=types.Position(line=row, character=4),
                    new_name="Planner",
                )
            ),
            WAIT,
        )
        assert edit is not None and edit.changes is not None
        mine = edit.changes.get(doc, [])
        assert [e.range.start.line for e in mine] == [row]
        for e in mine:
            r = rows[e.range.start.line]
            assert r[e.range.start.character : e.range.end.character] == "PlannerAgent"

        symbols = await asyncio.wait_for(
            lsp.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc))
            ),
            WAIT,
        )
        named = {
            s.name: s.selection_range.start.line
            for top in symbols or []
            for s in [top, *(getattr(top, "children", None) or [])]
            if isinstance(s, types.DocumentSymbol)
        }
        assert rows[named["max_build_iterations"]].strip() == "max_build_iterations:", named
    finally:
        await lsp.shutdown_session()


async def test_a_rename_counts_every_files_wide_lines_in_the_clients_units(demo: Path) -> None:
    """A rename started in the contract edits files the editor has not opened (a prompt, a
    test case) on lines holding CJK text, an emoji and a combining mark, each edit exactly the
    name, counted in UTF-8 bytes for a client that agreed on them."""
    encoding = types.PositionEncodingKind.Utf8
    agents = demo / "workflows/AppGenerator/agents.yaml"
    agents.write_text(
        agents.read_text().replace(
            "Interview the founder about the app;",
            "日本語😀 e\u0301 Interview {{llm_model}} about the app (llm_model in prose);",
        )
    )
    tests = demo / ".flowctx/tests/routing.yaml"
    tests.write_text(
        tests.read_text().replace(
            "    context: {interview_complete: true}\n",
            '    context: {interview_complete: true, note_😀: "שלום", llm_model: x}\n',
            1,
        )
    )
    contract = demo / CONTRACT
    text = contract.read_text()
    rows = text.split("\n")
    row = next(n for n, r in enumerate(rows) if r == "  llm_model:")
    lsp = await start(demo, encoding)
    try:
        doc = open_doc(lsp, contract, text)
        edit = await asyncio.wait_for(
            lsp.text_document_rename_async(
                types.RenameParams(
                    text_document=types.TextDocumentIdentifier(uri=doc),
                    position=types.Position(line=row, character=4),
                    new_name="model_name",
                )
            ),
            WAIT,
        )
    finally:
        await lsp.shutdown_session()
    assert edit is not None and edit.changes is not None
    for path in (agents, tests):
        edits = edit.changes[from_fs_path(str(path.resolve())) or ""]
        lines = path.read_text().split("\n")
        wide = [e for e in edits if not lines[e.range.start.line].isascii()]
        assert len(wide) == 1, (path.name, edits)
        line = lines[wide[0].range.start.line]
        r = wide[0].range
        first = chars(line, r.start.character, encoding)
        got = line[first : chars(line, r.end.character, encoding)]
        assert got == "llm_model", (path.name, got)
