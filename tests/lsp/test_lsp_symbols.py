"""The outline (``textDocument/documentSymbol``) and ``workspace/symbol`` through a real
``flowctx lsp``: variables, agents, routing rules, flow steps and paths, test cases, and a
MemberJunction flow agent's steps and paths in its MetadataSync JSON."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient

from tests.lsp.test_lsp_server import open_doc, uri

CONTRACT = "workflows/AppGenerator/context_variables.yaml"
GRAPH = "workflows/AppGenerator/transition_graph.yaml"
FLOW = "workflows/Approvals/flow.yaml"
AGENTS = "workflows/AppGenerator/agents.yaml"
MJ = "metadata/agents/.approval-flow-agent.json"


async def _outline(client: LanguageClient, doc: str) -> list[types.DocumentSymbol]:
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    assert found is not None
    assert all(isinstance(s, types.DocumentSymbol) for s in found)
    return list(found)  # type: ignore[arg-type]


def _selected(text: str, r: types.Range) -> str:
    row = text.splitlines()[r.start.line]
    return row[r.start.character : r.end.character]


async def test_the_contracts_outline_lists_variables_and_agents(
    client: LanguageClient, demo: Path
) -> None:
    text = (demo / CONTRACT).read_text()
    found = await _outline(client, open_doc(client, demo, CONTRACT))
    by_name = {s.name: s for s in found}
    llm = by_name["llm_model"]
    assert llm.kind == types.SymbolKind.Variable and llm.detail == "string · config"
    assert _selected(text, llm.selection_range) == "llm_model"
    # the entry spans its whole definition, not the next one's comment
    rows = text.splitlines()
    assert rows[llm.range.end.line].strip() == "default: gpt-4o-mini"
    assert by_name["ReviewAgent"].kind == types.SymbolKind.Class
    variables = [s.name for s in found if s.kind == types.SymbolKind.Variable]
    assert len(variables) == 30 and variables[0] == "factory_name"


async def test_routing_rules_flow_steps_and_paths_are_outlined(
    client: LanguageClient, demo: Path
) -> None:
    rules = await _outline(client, open_doc(client, demo, GRAPH))
    assert rules[0].name == "rule 1: InterviewAgent → PlannerAgent"
    assert rules[0].detail == "context_equals interview_complete == True"
    assert rules[1].detail == "after_turn" and len(rules) == 10
    flow = await _outline(client, open_doc(client, demo, FLOW))
    steps = [s.name for s in flow if s.kind == types.SymbolKind.Function]
    assert steps[:2] == ["Validate", "AwaitApproval"]
    paths = [s for s in flow if s.kind == types.SymbolKind.Event]
    assert paths[0].name == "Validate → AwaitApproval"
    assert "priority 10" in (paths[0].detail or "")


async def test_a_metadata_sync_agent_is_outlined(client: LanguageClient, demo: Path) -> None:
    text = (demo / MJ).read_text()
    doc = from_fs_path(str((demo / MJ).resolve())) or ""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=doc, language_id="json", version=1, text=text)
        )
    )
    found = await _outline(client, doc)
    names = {s.name for s in found}
    assert {"ApprovalFlow", "Validate", "Escalate", "Validate → AwaitApproval"} <= names
    step = next(s for s in found if s.name == "Validate")
    assert "Validate" in _selected(text, step.selection_range)


async def test_workspace_symbols_filter_by_the_query(client: LanguageClient, demo: Path) -> None:
    open_doc(client, demo, CONTRACT)

    async def query(q: str) -> list[types.SymbolInformation]:
        found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=q))
        return list(found or [])  # type: ignore[arg-type]

    agent = [s for s in await query("intervag") if s.name == "InterviewAgent"]
    assert len(agent) == 1, agent
    assert agent[0].location.uri == uri(demo, AGENTS)
    assert agent[0].container_name == "AppGenerator"
    llm = {(s.name, s.container_name) for s in await query("llm_mod")}
    assert llm == {("llm_model", "AppGenerator")}
    assert await query("zzqx") == []
    everything = await query("")
    assert {"Validate", "approval_status", "urgent"} <= {s.name for s in everything}
    # the MetadataSync agent, though its JSON file was never opened
    flow = [s for s in await query("approvalflow") if s.location.uri.endswith(".json")]
    assert [(s.name, s.kind) for s in flow] == [("ApprovalFlow", types.SymbolKind.Class)]
    assert flow[0].location.uri == uri(demo, MJ)


async def test_an_outline_masks_a_password_in_a_condition(
    client: LanguageClient, demo: Path
) -> None:
    text = (
        (demo / GRAPH)
        .read_text()
        .replace(
            'context_expression: "${plan_approved} and ${max_build_iterations} > 0"',
            'context_expression: "${plan_approved} and ${deploy_choice} != '
            "'mongodb://admin:hunter2@db/x'\"",
        )
    )
    assert "hunter2" in text
    found = await _outline(client, open_doc(client, demo, GRAPH, text))
    details = " ".join(s.detail or "" for s in found)
    assert "mongodb://admin:***@db/x" in details and "hunter2" not in details


async def test_the_outline_and_completion_follow_an_edit_that_shifts_lines_and_renames(
    client: LanguageClient, demo: Path
) -> None:
    """The server keeps the outline's entries and the completion items between requests:
    after lines are inserted above every entry and a variable is renamed, each entry is
    where the new text has it and the old name is offered nowhere."""
    from tests.lsp.test_lsp_server import change, line_of

    text = (demo / CONTRACT).read_text()
    doc = open_doc(client, demo, CONTRACT)
    before = await _outline(client, doc)
    assert "llm_model" in {s.name for s in before}
    edited = "# 日本 😀\n# two more lines\n" + text.replace("  llm_model:", "  llm_name:  # 😀", 1)
    change(client, doc, edited, 2)
    after = await _outline(client, doc)
    names = [s.name for s in after]
    assert "llm_name" in names and "llm_model" not in names and len(after) == len(before)
    rows = edited.splitlines()
    for s in after:
        if s.kind == types.SymbolKind.Variable:
            assert _selected(edited, s.selection_range) == s.name
            assert rows[s.range.start.line].startswith(f"  {s.name}:")
    moved = {s.name: s.range.start.line for s in after}
    assert all(moved[s.name] == s.range.start.line + 2 for s in before if s.name in moved)
    # the variables offered after ${ in the routing rules follow the check of the new text
    graph = (demo / GRAPH).read_text()
    gdoc = open_doc(client, demo, GRAPH)
    row = line_of(graph, "${plan_approved} and")
    typed = graph.splitlines()
    typed[row] = '    context_expression: "${llm'
    change(client, gdoc, "\n".join(typed) + "\n", 2)
    labels: list[str] = []
    for _ in range(200):
        result = await client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=gdoc),
                position=types.Position(line=row, character=len(typed[row])),
            )
        )
        items = result.items if isinstance(result, types.CompletionList) else []
        labels = [i.label for i in items]
        if "llm_name" in labels:
            break
        await asyncio.sleep(0.05)
    assert "llm_name" in labels and "llm_model" not in labels
    item = next(i for i in items if i.label == "llm_name")
    edit = item.text_edit
    assert isinstance(edit, types.TextEdit) and edit.new_text == "llm_name"
    assert edit.range.start == types.Position(line=row, character=len(typed[row]) - 3)
    assert "string" in (item.detail or "")
