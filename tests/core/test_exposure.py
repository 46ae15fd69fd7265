"""Agent exposure: the prompt lines, masking, withheld variables, prompt projections, check."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.buildctx import PATH_ENV, PROVIDER, PROVIDER_ENV
from flowctx_core.check import check_workspace
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.profiles import get_profile
from flowctx_core.resolve import resolve
from flowctx_core.review.git import load_snapshot_at
from flowctx_core.runtime.exposure import (
    AgentPrompt,
    agent_prompt,
    exposed_variables,
    format_prompt_value,
)
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  factory_name:
    type: string
    source: {type: config, default: Mozaiks}
  openai_api_key:
    type: string
    source: {type: config, env_var: OPENAI_API_KEY}
  service_auth:
    type: string
    source: {type: config, env_var: SERVICE_TOKEN}
  database_url:
    type: string
    source: {type: config, env_var: DATABASE_URL}
  interview_complete:
    type: boolean
    source: {type: state, default: false}
  max_iterations:
    type: integer
    source: {type: config, env_var: MAX_ITER, default: 3}
  plan:
    type: object
    source: {type: state, default: {steps: [a, b], done: false, api_key: k-123}}
  current_task:
    type: object
    source: {type: state, default: {pattern_id: star}}
  missing_secret:
    type: string
    source: {type: config, env_var: OTHER_TOKEN}
  capability_packs:
    type: array
    source: {type: build_context}
  internal_notes:
    type: string
    model_visible: false
    source: {type: state, default: hush}
agents:
  InterviewAgent:
    variables:
      - factory_name
      - interview_complete
      - max_iterations
      - openai_api_key
      - service_auth
      - database_url
      - plan
      - missing_secret
      - capability_packs
      - internal_notes
  PatternAgent: {variables: [current_task]}
  BuilderAgent: {variables: [current_task]}
  SilentAgent: {variables: []}
"""

ENV = {
    "OPENAI_API_KEY": "sk-live-abc",
    "SERVICE_TOKEN": "svc-xyz",
    "DATABASE_URL": "postgres://app:pg-pass@db.internal/app",
    "MAX_ITER": "7",
}

REGISTRY = """
context_id: patterns
applies_to_workflows: [W]
assets:
  - path: book.yaml
    kind: catalog
    projections:
      - id: summary_for_pattern_agent
        records: patterns
        recipients: [PatternAgent]
        render: summary
        marker: PATTERN_GUIDANCE
      - id: selected_for_builder
        records: patterns
        recipients: [BuilderAgent]
        render: selected_record
        selected_by: current_task.pattern_id
        record_id_field: id
        marker: PATTERN_GUIDANCE
      - id: every_pattern_id
        records: patterns
        recipients: [PatternAgent]
        render: summary
"""

BOOK = """
patterns:
  - id: pipeline
    name: Pipeline
    summary: Agents in a fixed order.
  - id: star
    name: Star
    summary: >
      A coordinator delegates
      to specialists.
    when_to_use: Several kinds of expertise.
"""


def _ws(workspace: WriteWorkspace) -> Path:
    return workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "build_context/patterns/context.yaml": REGISTRY,
            "build_context/patterns/book.yaml": BOOK,
        }
    )


def _prompt(
    root: Path,
    agent: str,
    *,
    env: dict[str, str] | None = None,
    reveal: bool = False,
    launch: dict[str, Any] | None = None,
    values: dict[str, Any] | None = None,
    runtime: str = "spec",
) -> AgentPrompt:
    # the documented projections by default; the runtime's injection has its own tests
    session = open_session(root, env={**ENV, **(env or {})}, runtime=runtime)
    snap = session.load("W")
    inputs = session.inputs(launch=launch)
    matrix = session.matrix(snap, launch=launch)
    return agent_prompt(snap, matrix, agent, env=inputs.env, reveal=reveal, values=values)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "None"),
        (True, "true"),
        (False, "false"),
        (3, "3"),
        (2.5, "2.5"),
        ("plain text", "plain text"),
        (["a", True], "['a', True]"),
        ({"a": None}, "{'a': None}"),
    ],
)
def test_values_render_as_the_runtime_writes_them(value: Any, text: str) -> None:
    assert format_prompt_value(value) == text


def test_the_appended_block_masks_secrets(workspace: WriteWorkspace) -> None:
    p = _prompt(_ws(workspace), "InterviewAgent")
    assert p.context_text.splitlines() == [
        "FACTORY_NAME: Mozaiks",
        "INTERVIEW_COMPLETE: false",
        "MAX_ITERATIONS: 7",
        "OPENAI_API_KEY: ***",
        "SERVICE_AUTH: ***",  # not secret by name: its env_var SERVICE_TOKEN is
        "DATABASE_URL: postgres://app:***@db.internal/app",
        "PLAN: {'steps': ['a', 'b'], 'done': False, 'api_key': '***'}",
        "MISSING_SECRET: None",
    ]
    assert [line.masked for line in p.lines] == [
        False,
        False,
        False,
        True,
        True,
        True,
        True,
        False,
    ]
    for secret in ("sk-live-abc", "svc-xyz", "pg-pass", "k-123"):
        assert secret not in p.text


def test_reveal_shows_the_real_values(workspace: WriteWorkspace) -> None:
    p = _prompt(_ws(workspace), "InterviewAgent", reveal=True)
    assert "OPENAI_API_KEY: sk-live-abc" in p.context_text
    assert "PLAN: {'steps': ['a', 'b'], 'done': False, 'api_key': 'k-123'}" in p.context_text


def test_build_context_model_invisible_and_undeclared_names_are_withheld(
    workspace: WriteWorkspace,
) -> None:
    root = _ws(workspace)
    contract = root / "workflows" / "W" / "context_variables.yaml"
    contract.write_text(
        contract.read_text().replace(
            "      - internal_notes", "      - internal_notes\n      - ghost"
        ),
        encoding="utf-8",
    )
    p = _prompt(root, "InterviewAgent")
    assert p.withheld == (
        ("capability_packs", "build-context values are tool-only, never shown to the model"),
        ("internal_notes", "declared model_visible: false"),
        ("ghost", "not declared in definitions: the runtime never exposes undeclared variables"),
    )
    assert "CAPABILITY_PACKS" not in p.text and "GHOST" not in p.text
    snap = open_session(root, env={}, runtime="spec").load("W")
    assert exposed_variables(snap, "InterviewAgent")[-1] == "missing_secret"
    # mozaiks 0.2.0 renders every listed variable (agents/factory.py create_agents)
    shipped = open_session(root, env={}).load("W")
    assert exposed_variables(shipped, "InterviewAgent")[-2:] == [
        "capability_packs",
        "internal_notes",
    ]


def test_lines_render_from_live_values_without_accumulating(workspace: WriteWorkspace) -> None:
    root = _ws(workspace)
    first = _prompt(root, "InterviewAgent", values={"interview_complete": True})
    assert "INTERVIEW_COMPLETE: true" in first.context_text
    # values missing from the live state render as None, exactly once
    assert first.context_text.count("INTERVIEW_COMPLETE") == 1
    assert "FACTORY_NAME: None" in first.context_text


def test_launch_values_feed_the_prompt(workspace: WriteWorkspace) -> None:
    p = _prompt(_ws(workspace), "InterviewAgent", launch={"factory_name": "Acme"})
    assert p.context_text.startswith("FACTORY_NAME: Acme\n")


def test_an_agent_with_nothing_exposed_adds_nothing(workspace: WriteWorkspace) -> None:
    p = _prompt(_ws(workspace), "SilentAgent")
    assert p.lines == () and p.text == ""


# --- prompt projections from catalog assets ----------------------------------------------------

ON = {PROVIDER_ENV: PROVIDER, PATH_ENV: "build_context"}


def test_summary_projection_inserts_every_record_at_its_marker(
    workspace: WriteWorkspace,
) -> None:
    p = _prompt(_ws(workspace), "PatternAgent", env=ON)
    # the projection without a marker is skipped by the runtime (it is not named by its id)
    assert [b.marker for b in p.blocks] == ["PATTERN_GUIDANCE"]
    assert any("skips a projection without a marker" in n for n in p.notes)
    assert p.blocks[0].text == (
        "[PATTERN_GUIDANCE]\n"
        "- pipeline: Pipeline - Agents in a fixed order.\n"
        "- star: Star - A coordinator delegates to specialists.\n"
        "[/PATTERN_GUIDANCE]"
    )
    assert p.blocks[0].sources == (
        "build_context/patterns/context.yaml:7:9 summary_for_pattern_agent (summary)",
    )
    assert "every_pattern_id" not in p.text


def test_selected_record_follows_the_state_key(workspace: WriteWorkspace) -> None:
    root = _ws(workspace)
    p = _prompt(root, "BuilderAgent", env=ON)
    assert [b.text for b in p.blocks] == [
        "[PATTERN_GUIDANCE]\n"
        "id: star\n"
        "name: Star\n"
        "summary: |\n"
        "  A coordinator delegates to specialists.\n"
        "when_to_use: Several kinds of expertise.\n"
        "[/PATTERN_GUIDANCE]"
    ]
    assert "id='star' from current_task.pattern_id" in p.blocks[0].sources[0]
    other = _prompt(root, "BuilderAgent", env=ON, launch={"current_task": {"pattern_id": "x"}})
    assert other.blocks == ()
    assert any("no record in patterns has id = 'x'" in n for n in other.notes)
    unset = _prompt(root, "BuilderAgent", env=ON, launch={"current_task": {}})
    assert any("current_task.pattern_id has no value yet" in n for n in unset.notes)


def test_no_projections_while_build_context_is_off_or_the_registry_is_invalid(
    workspace: WriteWorkspace,
) -> None:
    root = _ws(workspace)
    off = _prompt(root, "PatternAgent")
    assert off.blocks == ()
    assert off.notes[0].startswith("no prompt projections: build context off")
    reg = root / "build_context" / "patterns" / "context.yaml"
    reg.write_text(reg.read_text() + "extra_key: 1\n", encoding="utf-8")
    assert _prompt(root, "PatternAgent", env=ON).blocks == ()


def test_a_missing_catalog_is_a_note_not_a_crash(workspace: WriteWorkspace) -> None:
    root = _ws(workspace)
    (root / "build_context" / "patterns" / "book.yaml").unlink()
    p = _prompt(root, "PatternAgent", env=ON)
    assert p.blocks == ()
    assert any("nothing inserted" in n and "file not found" in n for n in p.notes)


# --- flowctx check ------------------------------------------------------------------------------


def test_check_warns_about_exposure(workspace: WriteWorkspace) -> None:
    contract = """
    definitions:
      shown: {type: string, source: {type: state}}
      unseen: {type: string, source: {type: state}}
      packs: {type: array, source: {type: build_context}}
      quiet: {type: string, model_visible: false, source: {type: state}}
    agents:
      A: {variables: [shown, packs]}
      B: {variables: []}
    """
    root = workspace({"workflows/W/context_variables.yaml": contract})
    # the documented contract withholds build-context and model-invisible variables
    session = open_session(root, env={}, runtime="spec")
    problems = [d.format() for d in check_workspace(session)]
    assert problems == [
        "workflows/W/context_variables.yaml:3:3: warning: definitions.unseen: "
        "variable 'unseen' is not exposed to any agent",
        "workflows/W/context_variables.yaml:7:26: warning: agents.A.variables[1]: agent 'A' "
        "lists 'packs', which the runtime never puts in its prompt (build-context values are "
        "tool-only, never shown to the model)",
        "workflows/W/context_variables.yaml:8:3: warning: agents.B: agent 'B' exposes no variables",
    ]


# --- the runtime's injection (inject_build_context_projections) ------------------------------

MIDDLEWARE = """prompt_middleware:
  - agent: BuilderAgent
    function: mozaiksai.core.workflow.context.projection.inject_build_context_projections
"""

OTHER = """context_id: other
applies_to_workflows: [SomeOtherWorkflow]
assets:
  - path: book.yaml
    kind: catalog
    projections:
      - {id: all_of_it, recipients: [all], render: summary, marker: OTHER, heading: Other Book,
         records: patterns}
      - {id: unmarked, recipients: [BuilderAgent], render: summary}
"""


def test_the_runtime_injects_only_through_middleware(workspace: WriteWorkspace) -> None:
    root = _ws(workspace)
    # no middleware.yaml: the runtime never runs the injection, whatever the provider says
    off = _prompt(root, "BuilderAgent", env=ON, runtime="mozaiks")
    assert off.blocks == ()
    assert (
        off.notes[0]
        == "no prompt projections for BuilderAgent: the workflow has no middleware.yaml"
    )
    (root / "workflows" / "W" / "middleware.yaml").write_text(MIDDLEWARE, encoding="utf-8")
    # the launch provider need not be on: the reader looks in ./build_context itself
    on = _prompt(root, "BuilderAgent", runtime="mozaiks")
    assert [b.marker for b in on.blocks] == ["PATTERN_GUIDANCE"]
    assert on.blocks[0].text.startswith("[BUILD CONTEXT DETAIL]\n- star. Star\n  details:")
    # another agent without an entry gets nothing
    assert _prompt(root, "PatternAgent", runtime="mozaiks").blocks == ()


def test_the_runtime_reads_every_registry_and_skips_unmarked_projections(
    workspace: WriteWorkspace,
) -> None:
    root = _ws(workspace)
    (root / "workflows" / "W" / "middleware.yaml").write_text(MIDDLEWARE, encoding="utf-8")
    other = root / "build_context" / "other"
    other.mkdir()
    (other / "context.yaml").write_text(OTHER, encoding="utf-8")
    (other / "book.yaml").write_text("patterns: [{id: x, name: X}]\n", encoding="utf-8")
    p = _prompt(root, "BuilderAgent", runtime="mozaiks")
    # no workflow filter: a registry for another workflow still reaches this agent
    texts = {b.marker: b.text for b in p.blocks}
    assert texts["OTHER"] == "[OTHER BOOK]\n- x. X"
    assert any(
        "unmarked (summary): skipped: the runtime skips a projection without a marker" in n
        for n in p.notes
    )
    # one invalid registry under the reader's folders: the injection fails as a whole
    (other / "context.yaml").write_text(OTHER + "bogus: 1\n", encoding="utf-8")
    broken = _prompt(root, "BuilderAgent", runtime="mozaiks")
    assert broken.blocks == ()
    assert "the runtime's injection fails as a whole" in broken.notes[0]


def test_the_injection_reads_the_snapshot_not_the_disk(workspace: WriteWorkspace) -> None:
    root = _ws(workspace)
    (root / "workflows" / "W" / "middleware.yaml").write_text(MIDDLEWARE, encoding="utf-8")
    session = open_session(root, env=ENV, runtime="mozaiks")
    snap = session.load("W")
    matrix = session.matrix(snap)
    # the files change after the snapshot was taken: the prompt is the snapshot's
    (root / "workflows" / "W" / "middleware.yaml").unlink()
    shutil.rmtree(root / "build_context")
    p = agent_prompt(snap, matrix, "BuilderAgent", env=ENV)
    assert [b.marker for b in p.blocks] == ["PATTERN_GUIDANCE"]


def test_the_injection_of_a_git_revision_is_the_revision_s(workspace: WriteWorkspace) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = _ws(workspace)
    (root / "workflows" / "W" / "middleware.yaml").write_text(MIDDLEWARE, encoding="utf-8")

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.invalid")
    git("config", "user.name", "t")
    git("add", "-A")
    git("commit", "-q", "-m", "with middleware")
    # the working tree drops the middleware entry: the revision still runs the injection
    (root / "workflows" / "W" / "middleware.yaml").write_text("prompt_middleware: []\n")
    snap = load_snapshot_at(root, "HEAD", ENV, runtime=get_profile("mozaiks"))
    matrix = resolve(snap, ResolveInputs(env=ENV), "W")
    p = agent_prompt(snap.workflow("W"), matrix, "BuilderAgent", env=ENV)
    assert [b.marker for b in p.blocks] == ["PATTERN_GUIDANCE"]
    assert p.blocks[0].text.startswith("[BUILD CONTEXT DETAIL]")
    # and the folder as it is now runs nothing
    now = _prompt(root, "BuilderAgent", runtime="mozaiks")
    assert now.blocks == ()
