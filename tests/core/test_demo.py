"""The bundled demo workspace, row by row: what a first-time user sees when they run ``flowctx``.

One session over the real demo (package data, embedded montydb seeded from its ``seed/``), with
``env={}`` so the developer's shell cannot change the results: only the demo's ``flowctx.yaml``
speaks. Every row of every workflow is checked against the table below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.base.secrets import MASK
from flowctx_core.base.yamlmarks import load_yaml_file
from flowctx_core.check import check_workspace
from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.model.source_types import SOURCE_TYPES
from flowctx_core.report.display import display_value, matrix_to_json, row_to_json
from flowctx_core.routing import RouteDecision, load_routes
from flowctx_core.session import Session, open_session
from flowctx_tui.cli.workspace_args import demo_path

# name -> (status, value or predicate, substring of the origin)
Expectation = tuple[str, Any, str]

FAKE_KEY = "sk-demo-not-a-real-key"
URI_PASSWORD = "demo-pass"


def _stack_catalog(v: Any) -> bool:
    return v["default"] == "react-fastapi" and [s["id"] for s in v["stacks"]] == [
        "react-fastapi",
        "vue-express",
    ]


def _style_guide(v: Any) -> bool:
    # parsed as YAML: a nested mapping with a real float and bool, not text
    return v["naming"]["routes"] == "kebab-case" and v["accessibility"] == {
        "min_contrast_ratio": 4.5,
        "require_alt_text": True,
    }


APP_GENERATOR: dict[str, Expectation] = {
    "factory_name": ("default", "Mozaiks App Factory", "default"),
    # the row where the runtime and its documentation disagree: LLM_MODEL is unset, so the
    # runtime reads None; the documentation promises the default (see the spec test below)
    "llm_model": (
        "missing",
        None,
        "default 'gpt-4o-mini' ignored: env_var LLM_MODEL is declared, and the runtime reads "
        "only the environment (documented: falls back to the default)",
    ),
    "openai_api_key": ("resolved", FAKE_KEY, "env OPENAI_API_KEY"),
    "max_build_iterations": ("resolved", 5, "env MAX_BUILD_ITERATIONS"),
    "enable_preview_deploys": ("resolved", True, "env ENABLE_PREVIEW_DEPLOYS"),
    # the newest of two app-fittrack documents (file order = insertion order)
    "app_profile": (
        "resolved",
        {
            "name": "FitTrack",
            "stage": "build",
            "concept_id": "concept-fittrack-v2",
            "owner": "dana@example.test",
        },
        "db factory.apps",
    ),
    # filter {{app_profile.concept_id}}: two v2 revisions match, the newer one wins, unwrapped
    "concept_overview": (
        "resolved",
        "FitTrack lets members log workouts, follow plans from their coach and pay for coaching "
        "sessions in the app.",
        "db factory.concepts",
    ),
    "prior_builds": (
        "resolved",
        {"build_number": 3, "status": "failed", "finished_at": "2024-05-13T14:45:00Z"},
        "db default.builds",
    ),
    "concept_api_endpoints": (
        "fallback",
        [
            {"method": "GET", "path": "/workouts"},
            {"method": "POST", "path": "/workouts"},
            {"method": "POST", "path": "/sessions/{id}/pay"},
        ],
        "fallbacks/fallbacks.json workflows.appgenerator.concept_api_endpoints",
    ),
    "brand_guidelines": (
        "fallback",
        {"tone": "friendly", "primary_color": "#2f6fed", "logo_text": "FitTrack"},
        "fallbacks/fallbacks.json global.brand_guidelines",
    ),
    "deployment_targets": ("default", ["preview", "staging"], "default"),
    "style_preset": ("default", "minimal", "default"),
    "app_repository": (
        "resolved",
        {"kind": "data_entity", "name": "app_repository"},
        "data_entity factory.app_repositories",
    ),
    "generated_files": ("pending", None, "computed"),
    "build_metrics": ("pending", None, "computed"),
    "github_repo_status": ("pending", None, "external"),
    "stack_catalog": ("resolved", _stack_catalog, "data/stack_catalog.json"),
    "style_guide": ("resolved", _style_guide, "data/style_guide.yaml"),
    "welcome_message": (
        "resolved",
        "Welcome to the Mozaiks App Factory. Tell me about the app you want to build.",
        "data/welcome.txt",
    ),
    "release_notes_template": ("default", "## What's new\n- First release", "default"),
    "interview_complete": ("default", False, "state default"),
    "plan_approved": ("default", False, "state default"),
    "selected_pattern_id": ("default", None, "state default"),
    "current_task": (
        "default",
        {"pattern_id": "feedback_loop", "title": "Generate the workout logging workflow"},
        "state default",
    ),
    "deploy_choice": ("default", "preview", "state default"),
    "database_schema_available": ("resolved", False, "runtime-injected"),
    "database_schema_db": ("resolved", None, "runtime-injected"),
}

APPROVALS: dict[str, Expectation] = {
    "approval_service_url": (
        "resolved",
        f"https://approver:{URI_PASSWORD}@approvals.example.test/api/v1",
        "env APPROVAL_SERVICE_URL",
    ),
    "environment": ("resolved", "production", "env DEPLOY_ENVIRONMENT"),
    "approval_timeout_minutes": ("default", 30, "default"),
    # {app_id, status: pending}: REQ-1002 and REQ-1003 match, REQ-1003 is newer
    "approval_request": (
        "resolved",
        {
            "request_id": "REQ-1003",
            "kind": "spend",
            "amount": 14500,
            "status": "pending",
            "requested_by": "user-dana",
            "retry_count": 1,
        },
        "db default.approval_requests",
    ),
    # {{approval_request.requested_by}} -> user-dana; her renamed (newer) record wins
    "requester_name": ("resolved", "Dana Reyes", "db default.users"),
    "escalation_contacts": (
        "fallback",
        ["finance-lead@example.test", "cto@example.test"],
        "fallbacks/fallbacks.json workflows.Approvals.escalation_contacts",
    ),
    "approval_ledger": (
        "resolved",
        {"kind": "data_entity", "name": "approval_ledger"},
        "data_entity default.approval_ledger",
    ),
    "risk_score": ("pending", None, "computed"),
    "credit_check": ("pending", None, "external"),
    "approval_policy": (
        "resolved",
        {"auto_approve_below": 500, "require_two_approvers_above": 10000, "max_retries": 3},
        "data/approval_policy.yaml",
    ),
    "user_approval": ("default", False, "state default"),
    "approval_status": ("default", "pending", "state default"),
    "retry_count": ("default", 0, "state default"),
    "database_schema_available": ("resolved", False, "runtime-injected"),
    "database_schema_db": ("resolved", None, "runtime-injected"),
}


def _pack_ids(ids: list[str]) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and [p["id"] for p in v] == ids


# What mozaiks 0.2.0's provider (mozaiksai/core/session/build_context.py) puts in these rows
# when it is on (flowctx.yaml turns it
# on): mozaikspay is active, stripe_legacy is inactive (projects []), approval_policies applies
# to Approvals only.
BUILD_CONTEXT: dict[str, dict[str, Expectation]] = {
    "AppGenerator": {
        "capability_packs": ("resolved", _pack_ids(["mozaikspay"]), "mozaikspay"),
        "selected_stack": (
            "resolved",
            {
                "id": "react-fastapi",
                "frontend": "React",
                "backend": "FastAPI",
                "payments": "mozaikspay",
            },
            "mozaikspay",
        ),
        "requested_by": ("resolved", "user-dana", "mozaikspay"),
        "review_mode": ("resolved", "strict", "mozaikspay"),
        "release_channel": ("resolved", "beta", "mozaikspay"),
    },
    "Approvals": {
        "approval_thresholds": (
            "resolved",
            {"auto_approve_below": 500, "escalate_above": 10000},
            "approval_policies",
        ),
        "approver_pool": (
            "resolved",
            ["finance-lead@example.test", "ops-manager@example.test"],
            "approval_policies",
        ),
    },
}

#: Triage: a workflow mozaiks 0.2.0 refuses at its graph compile (an authority refusal)
TRIAGE: dict[str, Expectation] = {
    "urgent": ("default", False, "state default"),
    "ticket_summary": ("default", "", "state default"),
    "database_schema_available": ("resolved", False, "runtime-injected"),
    "database_schema_db": ("resolved", None, "runtime-injected"),
}
BUILD_CONTEXT["Triage"] = {}
EXPECTED = {"AppGenerator": APP_GENERATOR, "Approvals": APPROVALS, "Triage": TRIAGE}


@pytest.fixture(scope="module")
def session() -> Session:
    return open_session(demo_path(), env={})


@pytest.fixture(scope="module")
def matrices(session: Session) -> dict[str, Matrix]:
    return {name: session.matrix(name) for name in session.workflows()}


def _problems(row: Row, expected: Expectation) -> list[str]:
    status, value, origin = expected
    out = []
    if row.status != status:
        out.append(f"status {row.status!r}, expected {status!r} ({row.error or row.origin})")
    if callable(value):
        if not value(row.value):
            out.append(f"value {row.value!r} fails {value.__name__}")
    elif row.value != value or type(row.value) is not type(value):
        # the type check catches "5" for 5 and 1 for True: coercion is part of what we show
        out.append(f"value {row.value!r}, expected {value!r}")
    if origin not in row.origin:
        out.append(f"origin {row.origin!r} lacks {origin!r}")
    return [f"{row.name}: {p}" for p in out]


def test_demo_is_the_bundled_package_data() -> None:
    root = demo_path()
    assert (root / "flowctx.yaml").is_file()
    assert sorted(p.name for p in (root / "workflows").iterdir()) == [
        "AppGenerator",
        "Approvals",
        "Triage",
    ]


def test_every_row_of_every_workflow(matrices: dict[str, Matrix]) -> None:
    assert sorted(matrices) == sorted(EXPECTED)
    for name, matrix in matrices.items():
        table = EXPECTED[name]
        shown = [r.name for r in matrix.rows]
        assert sorted(shown) == sorted([*table, *BUILD_CONTEXT[name]]), name
        assert matrix.diagnostics == (), [d.format() for d in matrix.diagnostics]
        # the profile's launch values are all admitted and its fallbacks file loads
        assert not [n for n in matrix.notes if "dropped" in n or "no fallbacks" in n], matrix.notes
        problems = [p for r in matrix.rows if r.name in table for p in _problems(r, table[r.name])]
        assert problems == [], f"{name}:\n" + "\n".join(problems)
        assert not [r.name for r in matrix.rows if r.error], name


def test_every_source_type_is_used(matrices: dict[str, Matrix]) -> None:
    used = {r.source for m in matrices.values() for r in m.rows}
    assert used >= set(SOURCE_TYPES)


def test_provenance_shows_why_each_value_won(matrices: dict[str, Matrix]) -> None:
    app = matrices["AppGenerator"]

    def outcomes(name: str, matrix: Matrix = app) -> list[tuple[str, str]]:
        row = matrix.row(name)
        assert row is not None, name
        return [(s.step, s.outcome) for s in row.trace]

    assert outcomes("llm_model") == [("env", "missing"), ("default", "skipped")]
    assert outcomes("max_build_iterations") == [("env", "used")]
    # the default answers first, so the existing global fallback is shown as shadowed
    assert outcomes("deployment_targets") == [
        ("database", "missing"),
        ("default", "used"),
        ("fallback: global", "shadowed"),
    ]
    assert outcomes("brand_guidelines") == [
        ("database", "missing"),
        ("default", "missing"),
        ("fallback: workflow", "missing"),
        ("fallback: global", "used"),
    ]
    release = app.row("release_notes_template")
    assert release is not None and release.warnings == ("data/release_notes.md: file not found",)
    assert outcomes("release_notes_template") == [("file", "error"), ("default", "used")]
    assert ("triggers", "skipped") in outcomes("selected_pattern_id")
    assert ("default", "skipped") in outcomes("build_metrics")  # computed ignores its default


def test_flat_fallbacks_file_answers_when_chosen(session: Session) -> None:
    flat = {"MOZAIKS_CONTEXT_FALLBACKS_FILE": "fallbacks/flat.json"}
    app = session.matrix("AppGenerator", env_overrides=flat)
    brand = app.row("brand_guidelines")
    assert brand is not None and brand.status == "fallback"
    assert brand.origin == "fallbacks/flat.json brand_guidelines"
    assert brand.value["tone"] == "playful"
    endpoints = app.row("concept_api_endpoints")
    assert endpoints is not None and endpoints.value == [{"method": "GET", "path": "/health"}]
    # flat.json has no deployment_targets: the default still answers, nothing is shadowed
    targets = app.row("deployment_targets")
    assert targets is not None and targets.status == "default"
    assert [s.outcome for s in targets.trace] == ["missing", "used"]
    approvals = session.matrix("Approvals", env_overrides=flat)
    contacts = approvals.row("escalation_contacts")
    assert contacts is not None and contacts.value == ["oncall@example.test"]


def test_the_documented_contract_gives_the_default(session: Session) -> None:
    documented = session.with_runtime("spec").matrix("AppGenerator")
    row = documented.row("llm_model")
    assert row is not None
    assert (row.value, row.status, row.origin) == ("gpt-4o-mini", "default", "default")
    assert documented.runtime.startswith("spec (documentation 001_6d6")


def test_check_warns_where_runtime_and_documentation_disagree(session: Session) -> None:
    warned = [
        d.format()
        for d in check_workspace(session)
        if "documented: falls back to the default" in d.message
    ]
    assert warned == [
        "workflows/AppGenerator/context_variables.yaml:20:7: warning: "
        "definitions.llm_model.source.default: default 'gpt-4o-mini' ignored: env_var LLM_MODEL "
        "is declared, and the runtime reads only the environment (documented: falls back to "
        "the default) [runtime mozaiks-0.2.0]"
    ]


def test_check_finds_one_error_the_authority_refusal(session: Session) -> None:
    problems = check_workspace(session)
    errors = [p.format() for p in problems if p.severity == "error"]
    # Triage routes on a variable only freeform agent text writes (mozaiks 0.2.0,
    # authority.py validate_transition_context_authority): the graph does not compile
    assert len(errors) == 1
    assert errors[0].startswith(
        "workflows/Triage/transition_graph.yaml:7:20: transition_rules[0].condition_key: "
        "routing context variable 'urgent' has no authorized deterministic writer: "
        "WorkflowGraphCompileError"
    )
    # the one file that is missing on purpose is reported, as a warning
    assert any(
        "release_notes_template" in p.yaml_path and "not found" in p.message for p in problems
    )


def test_secrets_are_masked(matrices: dict[str, Matrix]) -> None:
    app, approvals = matrices["AppGenerator"], matrices["Approvals"]
    key = app.row("openai_api_key")
    assert key is not None and key.secret
    shown = row_to_json(key)
    assert shown["value"] == MASK and shown["secret"] is True
    assert row_to_json(key, reveal=True)["value"] == FAKE_KEY
    url = approvals.row("approval_service_url")
    assert url is not None
    assert display_value(url) == "https://approver:***@approvals.example.test/api/v1"
    for matrix in (app, approvals):
        dumped = json.dumps(matrix_to_json(matrix))
        assert FAKE_KEY not in dumped and URI_PASSWORD not in dumped


def _yaml(rel: str) -> Any:
    doc, problems = load_yaml_file(demo_path() / rel, rel)
    assert doc is not None and problems == [], [p.format() for p in problems]
    return doc.data


def test_routing_files_cover_every_rule_kind() -> None:
    # the shape real Mozaiks workflows ship and the runtime reads, not flowctx's `transitions:`
    graph_file = _yaml("workflows/AppGenerator/transition_graph.yaml")
    assert list(graph_file) == ["transition_rules"]
    graph = graph_file["transition_rules"]
    kinds = {(t["transition_type"], t.get("condition_type")) for t in graph}
    assert kinds == {
        ("condition", "context_equals"),
        ("condition", "context_expression"),
        ("condition", "tool_called"),
        ("after_turn", None),
    }
    # an agent, the human and the end of the run are all routed to
    assert {"PlannerAgent", "user", "terminate"} <= {t["target_agent"] for t in graph}
    handoffs = _yaml("workflows/AppGenerator/handoffs.yaml")["handoff_rules"]
    assert {h.get("condition_scope") for h in handoffs} >= {"pre", "post"}
    assert "llm" in {h.get("condition_type") for h in handoffs}

    flow = _yaml("workflows/Approvals/flow.yaml")
    steps = {s["name"]: s for s in flow["steps"]}
    assert set(steps) == {"Validate", "AwaitApproval", "Approved", "Rejected", "Retry", "Escalate"}
    assert [n for n, s in steps.items() if s.get("starting")] == ["Validate"]
    assert steps["Escalate"]["status"] == "Disabled"
    assert all(p["from"] in steps and p["to"] in steps for p in flow["paths"])
    conditions = " ".join(p.get("condition") or "" for p in flow["paths"])
    for example in (
        "data.userApproval === true",
        "context.environment === 'production'",
        "data.retryCount < 3 && payload.status === 'pending'",
    ):
        assert example in conditions
    for name in ("payload.", "stepResult.", "flowContext.", "data.", "context."):
        assert name in conditions
    # a fallback is an unconditional path with the lowest priority
    fallback = [p for p in flow["paths"] if p["from"] == "AwaitApproval" and not p.get("condition")]
    assert [p["to"] for p in fallback] == ["Rejected"] and fallback[0]["priority"] == 0


def test_transition_graph_routes_in_the_runtime_shape(session: Session) -> None:
    routes = load_routes(session.load("AppGenerator"))
    assert routes.transitions is not None and routes.transitions.shape == "transition_rules"
    assert routes.diagnostics == (), [d.format() for d in routes.diagnostics]

    def graph(source: str, **scenario: Any) -> RouteDecision:
        decisions = session.decide("AppGenerator", source, routes=routes, **scenario)
        return next(d for d in decisions if d.kind == "transition_graph")

    def winner(source: str, **scenario: Any) -> str | None:
        decision = graph(source, **scenario)
        return decision.winner.target if decision.winner is not None else None

    # with the demo's defaults each agent hands back to the user, keeps the turn or moves on
    assert winner("InterviewAgent") == "user"
    assert winner("PlannerAgent") == "user"
    assert winner("PatternAgent") == "PatternAgent"
    assert winner("WorkflowBundleBuilderAgent") == "ReviewAgent"
    assert winner("ReviewAgent") == "user"
    # each kind of condition flips its rule
    assert winner("InterviewAgent", context_overrides={"interview_complete": True}) == (
        "PlannerAgent"
    )
    assert winner("PlannerAgent", tools_called=("request_revision",)) == "InterviewAgent"
    assert winner("PlannerAgent", context_overrides={"plan_approved": True}) == "PatternAgent"
    chosen = {"selected_pattern_id": "feedback_loop"}
    assert winner("PatternAgent", context_overrides=chosen) == "WorkflowBundleBuilderAgent"
    production = graph("ReviewAgent", context_overrides={"deploy_choice": "production"})
    assert production.winner is not None and production.winner.target == "terminate"
    assert production.ended and "workflow_complete" in production.reason


def test_build_context_registries_are_well_formed() -> None:
    root: Path = demo_path() / "build_context"
    registries = {
        p.parent.name: _yaml(p.relative_to(demo_path()).as_posix())
        for p in sorted(root.glob("*/context.yaml"))
    }
    assert registries["mozaikspay"]["pack"]["status"] == "active"
    assert registries["stripe_legacy"]["pack"]["status"] == "inactive"
    assert registries["approval_policies"]["applies_to_workflows"] == ["Approvals"]
    catalog = registries["ag2_patterns"]["assets"][0]
    renders = {p["render"]: p for p in catalog["projections"]}
    assert renders["selected_record"]["selected_by"] == "current_task.pattern_id"
    records = _yaml(f"build_context/ag2_patterns/{catalog['path']}")["patterns"]
    assert "feedback_loop" in [r["id"] for r in records]  # current_task's default selects it


def test_build_context_rows_are_projected(matrices: dict[str, Matrix]) -> None:
    problems = []
    for name, table in BUILD_CONTEXT.items():
        matrix = matrices[name]
        for var, expected in table.items():
            row = matrix.row(var)
            assert row is not None, var
            problems += _problems(row, expected)
    assert problems == [], "\n".join(problems)
