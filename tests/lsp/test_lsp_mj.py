"""``flowctx lsp`` on MemberJunction agent metadata: diagnostics on the JSON files, at the value
each problem points at, following the editor's unsaved text."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.test_lsp_server import change, diagnostics_for, open_doc

AGENT = "metadata/agents/.approval-flow-agent.json"


async def test_diagnostics_on_the_json_follow_unsaved_edits(
    client: LanguageClient, demo: Path
) -> None:
    text = (demo / AGENT).read_text()
    doc = open_doc(client, demo, AGENT)
    found = await diagnostics_for(client, doc, lambda d: len(d) >= 1, "the first diagnostics")
    assert any("Escalate', which is Disabled" in d.message for d in found)
    # an Action step's result is never 'Success': the warning sits on the Condition string
    edited = text.replace(
        "stepResult.priorStepResult[0].success === true && payload.validation.valid === true",
        "stepResult.step === 'Success'",
    )
    change(client, doc, edited, 2)
    found = await diagnostics_for(
        client,
        doc,
        lambda d: any("stores its result with step 'Retry'" in x.message for x in d),
        "the warning on the edited condition",
    )
    hit = next(d for d in found if "stores its result" in d.message)
    line = edited.splitlines()[hit.range.start.line]
    assert (
        line[hit.range.start.character : hit.range.end.character]
        == "\"stepResult.step === 'Success'\""
    )
    assert hit.severity == types.DiagnosticSeverity.Warning


async def test_hover_on_a_condition_shows_its_value_and_the_decision(
    client: LanguageClient, demo: Path
) -> None:
    text = (demo / AGENT).read_text()
    doc = open_doc(client, demo, AGENT)
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if '"data.userApproval === true"' in line)
    col = lines[row].index('"data.userApproval') + 3
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(row, col)
        )
    )
    assert hover is not None
    value = hover.contents.value  # type: ignore[union-attr]
    assert "path from **AwaitApproval** to **Approved**" in value
    assert "**false**" in value and "data.userApproval === true" in value
    assert "The step's decision: → Rejected" in value
    # outside any condition: nothing
    nothing = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(0, 0)
        )
    )
    assert nothing is None


async def test_completion_inside_a_condition_offers_the_path_context(
    client: LanguageClient, demo: Path
) -> None:
    text = (demo / AGENT).read_text()
    old = '"data.userApproval === true"'
    typed = text.replace(old, '"data.userApproval === true && payload.validation."')
    doc = open_doc(client, demo, AGENT, typed)
    lines = typed.splitlines()
    row = next(i for i, line in enumerate(lines) if 'payload.validation."' in line)
    col = lines[row].index('payload.validation."') + len("payload.validation.")

    async def labels(character: int) -> list[str]:
        got = await client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=doc),
                position=types.Position(row, character),
            )
        )
        items = got.items if isinstance(got, types.CompletionList) else (got or [])
        return [i.label for i in items]

    # the payload's keys the agent's output mappings write (Validate: validation.valid/reason)
    assert await labels(col) == ["reason", "valid"]
    # at the start of the condition: the names a path condition can read
    start = lines[row].index('"data.userApproval') + 1
    assert set(await labels(start)) == {"payload", "stepResult", "flowContext", "data", "context"}
