"""Rename, references and definitions through a real ``flowctx lsp``: every file of the
workflow that names a variable or an agent as an identifier (contract, agents.yaml, routing,
prompt templates, test files, saved scenarios) and nothing else (prose, longer names)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path
from pytest_lsp import LanguageClient

from flowctx_tui.cli import main
from tests.lsp.test_lsp_server import open_doc, uri

WF = "workflows/AppGenerator"
CONTRACT = f"{WF}/context_variables.yaml"
GRAPH = f"{WF}/transition_graph.yaml"
HANDOFFS = f"{WF}/handoffs.yaml"
AGENTS = f"{WF}/agents.yaml"
TESTS = ".flowctx/tests/routing.yaml"
SCENARIO = ".flowctx/scenarios/AppGenerator/model.json"
PROSE = "Mentions llm_model in prose, which a rename leaves alone."


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")


@pytest.fixture
def planted(demo: Path) -> Path:
    """The demo with ``llm_model`` also in a prompt template, a handoff condition, a test
    case, a saved scenario, beside a longer name (``llm_model_2``) and in prose."""
    contract = demo / CONTRACT
    text = contract.read_text()
    text = text.replace(
        "  openai_api_key:\n",
        "  llm_model_2:\n"
        "    type: string\n"
        f"    description: {PROSE}\n"
        "    source: {type: config, default: gpt-4o}\n"
        "  openai_api_key:\n",
    )
    text = text.replace("      - llm_model\n      - welcome_message", "      - llm_model\n"
                        "      - llm_model_2\n      - welcome_message")  # fmt: skip
    contract.write_text(text)
    agents = demo / AGENTS
    agents.write_text(
        agents.read_text().replace(
            "Interview the founder about the app;",
            "Interview the founder about the app with {{llm_model}} (not {{llm_model_2}});",
        )
    )
    handoffs = demo / HANDOFFS
    handoffs.write_text(
        handoffs.read_text().replace(
            'condition: "${interview_complete} == True"',
            "condition: \"${interview_complete} == True and ${llm_model} != 'x'\"",
        )
    )
    tests = demo / TESTS
    tests.write_text(
        tests.read_text().replace(
            "    context: {interview_complete: true}\n",
            "    context: {interview_complete: true, llm_model: gpt-4o}\n"
            "    turns: [{agent: InterviewAgent, set: {llm_model: x}, delete: [llm_model]}]\n",
            1,
        )
    )
    scenario = demo / SCENARIO
    scenario.parent.mkdir(parents=True)
    scenario.write_text(
        json.dumps(
            {
                "format": "flowctx-scenario/1",
                "expression": "${llm_model} == 'gpt-4o' and ${llm_model_2}",
                "dialect": "mozaiks",
                "context": {"llm_model": "gpt-4o", "llm_model_2": "x"},
                "contextRemoved": ["llm_model"],
            },
            indent=2,
        )
    )
    return demo


def _at(demo: Path, rel: str, needle: str, offset: int = 1) -> types.Position:
    rows = (demo / rel).read_text().splitlines()
    line = next(n for n, r in enumerate(rows) if needle in r)
    return types.Position(line=line, character=rows[line].index(needle) + offset)


def _apply(edit: types.WorkspaceEdit) -> None:
    """Applies the edit to the files as an editor does (ASCII files: units are code points)."""
    for doc, edits in (edit.changes or {}).items():
        path = Path(to_fs_path(doc) or "")
        rows = path.read_text().split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character)):
            assert e.range.start.line == e.range.end.line
        for e in sorted(
            edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
        ):
            row = rows[e.range.start.line]
            rows[e.range.start.line] = (
                row[: e.range.start.character] + e.new_text + row[e.range.end.character :]
            )
        path.write_text("\n".join(rows))


def _problems(root: Path, capsys: pytest.CaptureFixture[str], old: str, new: str) -> set[str]:
    main(["check", str(root), "--format", "json"])
    found = json.loads(capsys.readouterr().out)["problems"]
    return {f"{p['file']}:{p['line']}:{p['code']}:{p['message'].replace(old, new)}" for p in found}


async def _rename(
    client: LanguageClient, doc: str, at: types.Position, new: str
) -> types.WorkspaceEdit | None:
    return await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=at, new_name=new
        )
    )


async def test_renaming_a_variable_edits_every_file_that_names_it_and_nothing_else(
    client: LanguageClient, planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _problems(planted, capsys, "llm_model", "chat_model")
    main(["test", str(planted)])
    tested_before = capsys.readouterr().out
    doc = open_doc(client, planted, HANDOFFS)
    at = _at(planted, HANDOFFS, "${llm_model}", 3)
    ready = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=doc), position=at)
    )
    assert isinstance(ready, types.PrepareRenamePlaceholder) and ready.placeholder == "llm_model"
    edit = await _rename(client, doc, at, "chat_model")
    assert edit is not None and edit.changes
    touched = {Path(to_fs_path(u) or "").relative_to(planted.resolve()).as_posix()
               for u in edit.changes}  # fmt: skip
    assert touched == {CONTRACT, AGENTS, HANDOFFS, TESTS, SCENARIO}
    _apply(edit)

    # no new problem, the same test results, and the old name is gone as an identifier
    assert _problems(planted, capsys, "llm_model", "chat_model") <= before
    main(["test", str(planted)])
    assert capsys.readouterr().out == tested_before.replace("llm_model", "chat_model")
    left = []
    for path in [*(planted / WF).glob("*.yaml"), planted / TESTS, planted / SCENARIO]:
        for row in path.read_text().splitlines():
            if _word("llm_model").search(row) and PROSE not in row and "LLM_MODEL" not in row:
                left.append((path.name, row))
    assert left == []
    text = (planted / CONTRACT).read_text()
    assert "  chat_model:\n" in text and "  llm_model_2:\n" in text and PROSE in text
    assert "{{chat_model}} (not {{llm_model_2}})" in (planted / AGENTS).read_text()
    scenario = json.loads((planted / SCENARIO).read_text())
    assert scenario["context"] == {"chat_model": "gpt-4o", "llm_model_2": "x"}
    assert scenario["expression"] == "${chat_model} == 'gpt-4o' and ${llm_model_2}"
    assert scenario["contextRemoved"] == ["chat_model"]


async def test_renaming_an_agent_follows_it_into_routing_tests_and_the_runtime_files(
    client: LanguageClient, demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _problems(demo, capsys, "InterviewAgent", "Interviewer")
    doc = open_doc(client, demo, AGENTS)
    edit = await _rename(client, doc, _at(demo, AGENTS, "name: InterviewAgent", 8), "Interviewer")
    assert edit is not None and edit.changes
    _apply(edit)
    assert _problems(demo, capsys, "InterviewAgent", "Interviewer") <= before
    for rel in (AGENTS, CONTRACT, GRAPH, HANDOFFS, f"{WF}/orchestrator.yaml", TESTS):
        text = (demo / rel).read_text()
        assert "Interviewer" in text, rel
        named = [r for r in text.splitlines() if not r.lstrip().startswith("#")]
        assert not [r for r in named if _word("InterviewAgent").search(r)], rel
    # prose in a prompt ("say INTERVIEW_COMPLETE") is not a name
    assert "INTERVIEW_COMPLETE" in (demo / AGENTS).read_text()


async def test_rename_refuses_what_is_not_a_name_and_names_it_cannot_take(
    client: LanguageClient, planted: Path
) -> None:
    doc = open_doc(client, planted, CONTRACT)
    ident = types.TextDocumentIdentifier(uri=doc)
    # prose, and a key that is no variable or agent: nothing to rename
    for needle in ("Mentions llm_model", "env_var: LLM_MODEL", "    type: string"):
        offset = len("Mentions ") + 2 if needle.startswith("Mentions") else 6
        at = _at(planted, CONTRACT, needle, offset)
        ready = await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=ident, position=at)
        )
        assert ready is None, needle
    at = _at(planted, CONTRACT, "  llm_model:", 4)
    for new, said in (
        ("2fast", "not a valid variable name"),
        ("my model", "not a valid variable name"),
        ("factory_name", "already has a variable named 'factory_name'"),
        ("llm_model_2", "already has a variable named 'llm_model_2'"),
    ):
        with pytest.raises(Exception, match=said):
            await _rename(client, doc, at, new)
    agents = open_doc(client, planted, AGENTS)
    at = _at(planted, AGENTS, "name: PlannerAgent", 8)
    for new in ("ReviewAgent", "terminate"):
        with pytest.raises(Exception, match="already has an agent named"):
            await _rename(client, agents, at, new)


async def test_references_are_identifiers_only_and_honour_include_declaration(
    client: LanguageClient, planted: Path
) -> None:
    doc = open_doc(client, planted, CONTRACT)
    ident = types.TextDocumentIdentifier(uri=doc)
    at = _at(planted, CONTRACT, "  llm_model:", 4)

    async def refs(declaration: bool) -> list[types.Location]:
        found = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=ident,
                position=at,
                context=types.ReferenceContext(include_declaration=declaration),
            )
        )
        return list(found or [])

    every, uses = await refs(True), await refs(False)
    declaration = (doc, at.line)
    assert declaration in {(r.uri, r.range.start.line) for r in every}
    assert declaration not in {(r.uri, r.range.start.line) for r in uses}
    assert len(every) == len(uses) + 1
    for r in every:
        row = Path(to_fs_path(r.uri) or "").read_text().splitlines()[r.range.start.line]
        assert row[r.range.start.character : r.range.end.character] == "llm_model"
        assert PROSE not in row and "LLM_MODEL" not in row
    assert uri(planted, SCENARIO) in {r.uri for r in every}


async def test_an_agents_definition_is_in_agents_yaml(client: LanguageClient, demo: Path):
    doc = open_doc(client, demo, GRAPH)
    where = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=_at(demo, GRAPH, "source_agent: PlannerAgent", 16),
        )
    )
    assert isinstance(where, types.Location)
    assert where.uri == from_fs_path(str((demo / AGENTS).resolve()))
    row = (demo / AGENTS).read_text().splitlines()[where.range.start.line]
    assert row.strip() == "- name: PlannerAgent"
    assert row[where.range.start.character : where.range.end.character] == "PlannerAgent"


async def test_renaming_a_flow_step_follows_it_into_paths_and_tests(
    client: LanguageClient, demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flow = "workflows/Approvals/flow.yaml"
    tests = ".flowctx/tests/approvals.yaml"
    before = _problems(demo, capsys, "AwaitApproval", "WaitForApprover")
    main(["test", str(demo), "-w", "Approvals"])
    tested = capsys.readouterr().out
    doc = open_doc(client, demo, flow)
    edit = await _rename(client, doc, _at(demo, flow, "name: AwaitApproval", 8), "WaitForApprover")
    assert edit is not None and edit.changes
    assert uri(demo, tests) in edit.changes
    _apply(edit)
    assert _problems(demo, capsys, "AwaitApproval", "WaitForApprover") <= before
    main(["test", str(demo), "-w", "Approvals"])
    assert capsys.readouterr().out == tested.replace("AwaitApproval", "WaitForApprover")
    for rel in (flow, tests):
        named = [r for r in (demo / rel).read_text().splitlines() if not r.lstrip().startswith("#")]
        assert not [r for r in named if _word("AwaitApproval").search(r)], rel


async def test_a_rename_starts_from_a_test_file_and_reaches_a_registry_of_the_workflow(
    client: LanguageClient, demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = "build_context/mozaikspay/context.yaml"
    before = _problems(demo, capsys, "release_channel", "rollout_channel")
    before = {p.replace("interview_complete", "interview_done") for p in before}
    # from the test file, where the case sets it
    doc = open_doc(client, demo, TESTS)
    at = _at(demo, TESTS, "{interview_complete: true}", 3)
    edit = await _rename(client, doc, at, "interview_done")
    assert edit is not None and edit.changes
    assert {uri(demo, CONTRACT), uri(demo, GRAPH), uri(demo, TESTS)} <= set(edit.changes)
    _apply(edit)
    # a build_context variable: its projection in the registry that serves AppGenerator alone
    doc = open_doc(client, demo, CONTRACT)
    edit = await _rename(
        client, doc, _at(demo, CONTRACT, "  release_channel:", 3), "rollout_channel"
    )
    assert edit is not None and edit.changes and uri(demo, registry) in edit.changes
    _apply(edit)
    assert "    rollout_channel: release.channel" in (demo / registry).read_text()
    after = _problems(demo, capsys, "release_channel", "rollout_channel")
    assert after <= before


async def test_the_server_announces_the_editor_features(demo: Path) -> None:
    from tests.lsp.client import start_client

    lsp, result = await start_client(demo)
    try:
        caps = result.capabilities
        assert isinstance(caps.rename_provider, types.RenameOptions)
        assert caps.rename_provider.prepare_provider is True
        assert caps.document_symbol_provider and caps.workspace_symbol_provider
        assert caps.references_provider and caps.definition_provider
        actions = caps.code_action_provider
        assert isinstance(actions, types.CodeActionOptions)
        assert types.CodeActionKind.QuickFix in (actions.code_action_kinds or [])
    finally:
        await lsp.shutdown_session()


async def test_rename_never_opens_a_fifo_or_a_device_among_test_files(
    client: LanguageClient, demo: Path
) -> None:
    import os

    tests = demo / ".flowctx" / "tests"
    os.mkfifo(tests / "pending.yaml")
    (tests / "zero.yaml").symlink_to("/dev/zero")
    (demo / ".flowctx" / "scenarios" / "AppGenerator").mkdir(parents=True)
    os.mkfifo(demo / ".flowctx" / "scenarios" / "AppGenerator" / "stuck.json")
    doc = open_doc(client, demo, CONTRACT)
    at = _at(demo, CONTRACT, "  llm_model:", 4)
    edit = await asyncio.wait_for(_rename(client, doc, at, "chat_model"), 30)
    assert edit is not None and edit.changes and uri(demo, CONTRACT) in edit.changes
