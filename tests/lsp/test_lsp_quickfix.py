"""Quick fixes through a real ``flowctx lsp``: each "did you mean" problem comes with a
``quickfix`` code action that carries the diagnostic and the edit; applying it clears the
problem. The rule's "Try in flowctx" command stays beside them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from flowctx_tui.cli import main
from tests.lsp.test_lsp_server import diagnostics_for, open_doc

CONTRACT = "workflows/AppGenerator/context_variables.yaml"
GRAPH = "workflows/AppGenerator/transition_graph.yaml"


async def _actions(
    client: LanguageClient, doc: str, diagnostics: list[types.Diagnostic], line: int
) -> list[types.CodeAction | types.Command]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=types.Range(
                start=types.Position(line=line, character=0),
                end=types.Position(line=line, character=0),
            ),
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    return list(found or [])


def _apply(text: str, action: types.CodeAction, doc: str) -> str:
    assert action.edit is not None and action.edit.changes is not None
    rows = text.split("\n")
    for e in action.edit.changes[doc]:
        assert e.range.start.line == e.range.end.line
        row = rows[e.range.start.line]
        rows[e.range.start.line] = (
            row[: e.range.start.character] + e.new_text + row[e.range.end.character :]
        )
    return "\n".join(rows)


async def test_a_misspelt_key_and_type_are_fixed_by_their_quick_fixes(
    client: LanguageClient, demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (demo / CONTRACT).read_text()
    text = text.replace("      env_var: LLM_MODEL\n", "      env_vr: LLM_MODEL\n")
    text = text.replace(
        "  max_build_iterations:\n    type: integer", "  max_build_iterations:\n    type: intger"
    )
    (demo / CONTRACT).write_text(text)
    doc = open_doc(client, demo, CONTRACT)
    found = await diagnostics_for(
        client,
        doc,
        lambda d: sum("did you mean" in x.message for x in d) >= 2,
        "the two did-you-means",
    )
    wanted = [d for d in found if "did you mean" in d.message]
    for d in wanted:
        assert d.data == {"fix": {"old": d.data["fix"]["old"], "new": d.data["fix"]["new"]}}
        actions = await _actions(client, doc, [d], d.range.start.line)
        fixes = [a for a in actions if isinstance(a, types.CodeAction)]
        assert len(fixes) == 1, actions
        fix = fixes[0]
        assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
        assert list(fix.diagnostics or []) == [d]
        text = _apply(text, fix, doc)
    assert "env_var: LLM_MODEL" in text and "type: integer" in text
    # the fixed file has neither problem
    (demo / CONTRACT).write_text(text)
    main(["check", str(demo), "-w", "AppGenerator", "--format", "json"])
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert not [p for p in problems if "env_vr" in p["message"] or "intger" in p["message"]]


async def test_a_misspelt_routing_variable_is_fixed_and_try_in_flowctx_stays(
    client: LanguageClient, demo: Path
) -> None:
    text = (
        (demo / GRAPH)
        .read_text()
        .replace("condition_key: interview_complete", "condition_key: interview_complet")
    )
    doc = open_doc(client, demo, GRAPH, text)
    found = await diagnostics_for(
        client, doc, lambda d: any("interview_complet'" in x.message for x in d), "the typo"
    )
    typo = next(d for d in found if "interview_complet'" in d.message)
    actions = await _actions(client, doc, [typo], typo.range.start.line)
    fixes = [a for a in actions if isinstance(a, types.CodeAction)]
    commands = [a for a in actions if isinstance(a, types.Command)]
    assert [f.title for f in fixes] == ["Change 'interview_complet' to 'interview_complete'"]
    assert commands and commands[0].title.startswith("Try in flowctx: flowctx routes ")
    fixed = _apply(text, fixes[0], doc)
    assert fixed == (demo / GRAPH).read_text()
    # a client asking only for other kinds gets no quick fix
    only = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=typo.range,
            context=types.CodeActionContext(
                diagnostics=[typo], only=[types.CodeActionKind.Refactor]
            ),
        )
    )
    assert not [a for a in only or [] if isinstance(a, types.CodeAction)]


async def test_a_fix_on_another_line_edits_that_line(client: LanguageClient, demo: Path) -> None:
    text = (demo / GRAPH).read_text()
    rule = (
        "  - source_agent: WorkflowBundleBuilderAgent\n"
        "    target_agent: ReviewAgent\n"
        "    transition_type: after_turn\n"
        "    transition_target: AgentTarget\n"
    )
    assert rule in text
    text = text.replace(rule, rule.replace("AgentTarget", "TerminateTarget"))
    doc = open_doc(client, demo, GRAPH, text)
    found = await diagnostics_for(
        client, doc, lambda d: any("needs target_agent: terminate" in x.message for x in d), "it"
    )
    problem = next(d for d in found if "needs target_agent: terminate" in d.message)
    actions = await _actions(client, doc, [problem], problem.range.start.line)
    fixes = [a for a in actions if isinstance(a, types.CodeAction)]
    assert [f.title for f in fixes] == ["Change 'ReviewAgent' to 'terminate'"]
    fixed = _apply(text, fixes[0], doc)
    assert (
        rule.replace("AgentTarget", "TerminateTarget").replace(
            "target_agent: ReviewAgent", "target_agent: terminate"
        )
        in fixed
    )
    assert fixed.count("ReviewAgent") == text.count("ReviewAgent") - 1
