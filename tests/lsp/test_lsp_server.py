"""``flowctx lsp`` end to end: a real LSP client (pytest-lsp) starts ``flowctx lsp`` over stdio
on a private copy of the demo, opens its files, edits them unsaved, and reads back diagnostics,
hovers, completions, definitions, references, code lenses and actions."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient

CONTRACT = "workflows/AppGenerator/context_variables.yaml"
GRAPH = "workflows/AppGenerator/transition_graph.yaml"
SECRET = "sk-demo-not-a-real-key"


def uri(demo: Path, rel: str) -> str:
    return from_fs_path(str((demo / rel).resolve())) or ""


def open_doc(client: LanguageClient, demo: Path, rel: str, text: str | None = None) -> str:
    doc = uri(demo, rel)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc,
                language_id="json" if rel.endswith(".json") else "yaml",
                version=1,
                text=(demo / rel).read_text() if text is None else text,
            )
        )
    )
    return doc


def change(client: LanguageClient, doc: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def diagnostics_for(
    client: LanguageClient, doc: str, pred, what: str, timeout: float = 30.0
) -> list[types.Diagnostic]:
    deadline = time.monotonic() + timeout
    while True:
        found = list(client.diagnostics.get(doc, ()))
        if pred(found):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: {found}")
        await asyncio.sleep(0.05)


def line_of(text: str, needle: str) -> int:
    return next(n for n, row in enumerate(text.splitlines()) if needle in row)


async def test_an_unsaved_contract_error_is_shown_at_its_range_and_cleared_when_fixed(
    client: LanguageClient, demo: Path
) -> None:
    text = (demo / CONTRACT).read_text()
    doc = open_doc(client, demo, CONTRACT)
    broken = text.replace("env_var: MAX_BUILD_ITERATIONS", "env_vr: MAX_BUILD_ITERATIONS", 1)
    change(client, doc, broken, 2)
    found = await diagnostics_for(
        client, doc, lambda d: any("env_vr" in x.message for x in d), "the contract error"
    )
    bad = next(x for x in found if "env_vr" in x.message)
    assert "unknown field" in bad.message and "did you mean 'env_var'?" in bad.message
    row = line_of(broken, "env_vr:")
    assert bad.range.start.line == row
    assert broken.splitlines()[row][bad.range.start.character :].startswith("env_vr")
    assert bad.severity == types.DiagnosticSeverity.Error and bad.source == "flowctx"
    # the file on disk was never written
    assert "env_vr" not in (demo / CONTRACT).read_text()
    change(client, doc, text, 3)
    await diagnostics_for(
        client, doc, lambda d: not any("env_vr" in x.message for x in d), "the error cleared"
    )


async def test_a_contract_edit_breaks_another_files_routing(client: LanguageClient, demo: Path):
    text = (demo / CONTRACT).read_text()
    contract = open_doc(client, demo, CONTRACT)
    graph = uri(demo, GRAPH)
    renamed = text.replace("  deploy_choice:", "  deploy_target:", 1)
    change(client, contract, renamed, 2)
    found = await diagnostics_for(
        client,
        graph,
        lambda d: any("deploy_choice" in x.message for x in d),
        "a problem in transition_graph.yaml",
    )
    assert any(x.severity == types.DiagnosticSeverity.Error for x in found)


async def test_hover_shows_the_value_and_provenance_and_masks_secrets(
    client: LanguageClient, demo: Path
) -> None:
    text = (demo / GRAPH).read_text()
    doc = open_doc(client, demo, GRAPH)
    row = line_of(text, "${plan_approved} and ${max_build_iterations}")
    col = text.splitlines()[row].index("max_build_iterations") + 3
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=col),
        )
    )
    assert hover is not None
    value = hover.contents.value  # type: ignore[union-attr]
    assert "**max_build_iterations**" in value
    assert "value: `5`" in value
    assert "env MAX_BUILD_ITERATIONS (flowctx.yaml)" in value
    assert "seen by: PlannerAgent" in value
    contract = open_doc(client, demo, CONTRACT)
    ctext = (demo / CONTRACT).read_text()
    krow = line_of(ctext, "openai_api_key:")
    secret = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=contract),
            position=types.Position(line=krow, character=4),
        )
    )
    assert secret is not None
    shown = secret.contents.value  # type: ignore[union-attr]
    assert "value: `***`" in shown and SECRET not in shown


async def test_hover_on_a_rule_says_whether_it_wins(client: LanguageClient, demo: Path):
    text = (demo / GRAPH).read_text()
    doc = open_doc(client, demo, GRAPH)
    row = line_of(text, "target_agent: user") - 1
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=4),
        )
    )
    assert hover is not None
    assert "**wins** under the default inputs" in hover.contents.value  # type: ignore[union-attr]


async def test_completion_inside_dollar_brace_lists_the_variables(
    client: LanguageClient, demo: Path
) -> None:
    text = (demo / GRAPH).read_text()
    doc = open_doc(client, demo, GRAPH)
    row = line_of(text, "${plan_approved} and")
    typed = text.splitlines()
    typed[row] = '    context_expression: "${plan'
    change(client, doc, "\n".join(typed) + "\n", 2)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=len(typed[row])),
        )
    )
    labels = [i.label for i in (result.items if result else [])]  # type: ignore[union-attr]
    assert "plan_approved" in labels
    assert all(label.startswith("plan") for label in labels)
    # every variable is offered after a bare ${, and no value ever is
    typed[row] = '    context_expression: "${'
    change(client, doc, "\n".join(typed) + "\n", 3)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=len(typed[row])),
        )
    )
    items = result.items if result else []  # type: ignore[union-attr]
    assert {"openai_api_key", "deploy_choice", "max_build_iterations"} <= {i.label for i in items}
    assert not any(SECRET in (i.label + (i.detail or "")) for i in items)


async def test_completion_of_agents_and_flow_paths(client: LanguageClient, demo: Path):
    text = (demo / GRAPH).read_text()
    doc = open_doc(client, demo, GRAPH)
    row = line_of(text, "target_agent: PlannerAgent")
    typed = text.splitlines()
    typed[row] = "    target_agent: Pla"
    change(client, doc, "\n".join(typed) + "\n", 2)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=len(typed[row])),
        )
    )
    assert [i.label for i in result.items] == ["PlannerAgent"]  # type: ignore[union-attr]
    flow = "workflows/Approvals/flow.yaml"
    ftext = (demo / flow).read_text()
    fdoc = open_doc(client, demo, flow)
    frow = line_of(ftext, 'condition: "data.userApproval === true"')
    ftyped = ftext.splitlines()
    ftyped[frow] = '    condition: "context.appro'
    change(client, fdoc, "\n".join(ftyped) + "\n", 2)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=fdoc),
            position=types.Position(line=frow, character=len(ftyped[frow])),
        )
    )
    labels = {i.label for i in result.items}  # type: ignore[union-attr]
    assert {"context.approval_status", "context.approval_policy"} <= labels


async def test_definition_and_references_of_a_variable(client: LanguageClient, demo: Path):
    text = (demo / GRAPH).read_text()
    doc = open_doc(client, demo, GRAPH)
    row = line_of(text, "condition_key: deploy_choice")
    col = text.splitlines()[row].index("deploy_choice") + 2
    where = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=col),
        )
    )
    assert isinstance(where, types.Location)
    assert where.uri == uri(demo, CONTRACT)
    ctext = (demo / CONTRACT).read_text()
    assert ctext.splitlines()[where.range.start.line].strip().startswith("deploy_choice:")
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=col),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    files = {r.uri for r in refs or []}
    assert {uri(demo, CONTRACT), uri(demo, GRAPH)} <= files


async def test_code_lenses_and_the_try_in_flowctx_action(client: LanguageClient, demo: Path):
    text = (demo / GRAPH).read_text()
    doc = open_doc(client, demo, GRAPH)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    titles = [lens.command.title for lens in lenses or [] if lens.command]
    # numbered as routes and test files number them: in the runtime's evaluation order
    assert "rule 2 · wins under default · covered by 1 test" in titles
    assert any(t.endswith("· no test") for t in titles)
    row = line_of(text, "source_agent: ReviewAgent")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=types.Range(
                start=types.Position(line=row, character=0),
                end=types.Position(line=row, character=0),
            ),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    titles = [a.title for a in actions or []]
    assert titles and titles[0].startswith("Try in flowctx: flowctx routes ")
    assert titles[0].endswith("-w AppGenerator --from ReviewAgent")


async def test_a_malformed_document_is_a_diagnostic_and_the_server_keeps_answering(
    client: LanguageClient, demo: Path
) -> None:
    doc = open_doc(client, demo, CONTRACT)
    for n, junk in enumerate(["definitions: [\n", "\x00\x01{{{", "a: &x [*x]\n", ":" * 5000]):
        change(client, doc, junk, n + 2)
        await diagnostics_for(client, doc, lambda d: len(d) > 0, f"a diagnostic for {junk[:8]!r}")
        started = time.monotonic()
        hover = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=doc),
                position=types.Position(line=0, character=1),
            )
        )
        assert time.monotonic() - started < 30  # answered (None is an answer), not hung
        assert hover is None or SECRET not in hover.contents.value  # type: ignore[union-attr]


async def test_lenses_mark_a_file_the_runtime_never_reads(client: LanguageClient, demo: Path):
    doc = open_doc(client, demo, "workflows/AppGenerator/handoffs.yaml")
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    titles = {lens.command.title for lens in lenses or [] if lens.command}
    assert titles == {"NOT READ by the runtime: routes nothing"}


async def test_completion_never_lists_the_keys_of_a_secret(client: LanguageClient, demo: Path):
    """``api_tokens`` keeps its tokens in its keys, and so does ``vendor_credentials`` one
    level down: the matrix masks both, and completion lists none of their keys."""
    contract = "workflows/Approvals/context_variables.yaml"
    ctext = (
        (demo / contract)
        .read_text()
        .replace(
            "definitions:\n",
            "definitions:\n"
            "  api_tokens:\n"
            "    type: object\n"
            "    source: {type: state, default: {tok_live_4f9a2c: ops, tok_live_8e1b7d: 1}}\n"
            "  vendor_credentials:\n"
            "    type: object\n"
            "    source: {type: state, default: {acme: {tok_live_77aa: 2}}}\n"
            "  public_limits:\n"
            "    type: object\n"
            "    source: {type: state, default: {daily: 5}}\n",
            1,
        )
    )
    open_doc(client, demo, contract, ctext)
    flow = "workflows/Approvals/flow.yaml"
    ftext = (demo / flow).read_text()
    fdoc = open_doc(client, demo, flow)
    frow = line_of(ftext, 'condition: "data.userApproval === true"')

    async def labels(typed_condition: str, version: int) -> set[str]:
        typed = ftext.splitlines()
        typed[frow] = f'    condition: "{typed_condition}'
        change(client, fdoc, "\n".join(typed) + "\n", version)
        result = await client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=fdoc),
                position=types.Position(line=frow, character=len(typed[frow])),
            )
        )
        return {i.label + (i.detail or "") for i in (result.items if result else [])}  # type: ignore[union-attr]

    # the keys of a plain object are offered (the completion works here)...
    assert "context.public_limits.dailyflowctx: path" in await labels("context.public_limits.", 2)
    # ...and never those of a secret, however the path is written
    for n, typed in enumerate(
        (
            "context.api_tokens.",
            "context.api_tokens.tok",
            "context['api_tokens'].",
            "context.vendor_credentials.",
            "context.vendor_credentials.acme.",
        ),
        3,
    ):
        found = await labels(typed, n)
        assert not any("tok_live" in label for label in found), (typed, found)


async def test_a_lens_and_a_hover_withhold_a_decision_that_reads_a_secret(
    client: LanguageClient, demo: Path
):
    """A rule whose condition reads a bit of a secret (the URI password in
    approval_service_url): the lenses of its decision say withheld, never which rule wins."""
    flow = "workflows/Approvals/flow.yaml"
    text = (
        (demo / flow)
        .read_text()
        .replace(
            "\"context.environment === 'production' && payload.amount > 10000\"",
            '"(context.approval_service_url.charCodeAt(20) & 1) !== 0"',
            1,
        )
    )
    (demo / flow).write_text(text)
    doc = open_doc(client, demo, flow, text)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    row = line_of(text, "charCodeAt(20)")
    titles = {lens.range.start.line: lens.command.title for lens in lenses or [] if lens.command}
    mine = [t for line, t in titles.items() if line <= row]
    # "rule N · default: ..." (the rule numbered as routes and test files number it)
    assert mine and mine[-1].split(" · ", 1)[-1].startswith(
        "default: withheld: reads secret `context.approval_service_url`"
    ), titles
    assert not any("wins under default" in t for t in mine[-1:])
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=row, character=4),
        )
    )
    said = hover.contents.value if hover is not None else ""  # type: ignore[union-attr]
    assert "withheld: reads secret" in said and "**wins**" not in said
