"""Build context: switching on, registry validation, projection into the matrix, and check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.buildctx import (
    APP_WORKSPACE_ENV,
    OPTION_ENV,
    PATH_ENV,
    PROVIDER,
    PROVIDER_ENV,
    build_context_setting,
    load_registry,
)
from flowctx_core.check import check_workspace
from flowctx_core.model.matrix import Matrix
from flowctx_core.session import open_session
from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  capability_packs:
    type: array
    source: {type: build_context, default: []}
  selected_stack:
    type: object
    source: {type: build_context}
  requested_by:
    type: string
    source: {type: build_context}
  plan_ready:
    type: boolean
    source: {type: state, default: false}
agents:
  PlannerAgent: {variables: [plan_ready]}
"""

PAY = """
context_id: mozaikspay
applies_to_workflows: [AppGenerator]
pack: {id: mozaikspay, version: "1.4.0", status: active}
assets: []
values:
  stacks:
    default: {id: react-fastapi, backend: FastAPI}
projections:
  context_variables:
    capability_packs: {from: capability_packs}
    selected_stack: stacks.default
"""

LEGACY = """
context_id: stripe_legacy
applies_to_workflows: [AppGenerator]
pack: {id: stripe_legacy, version: "0.9.2", status: inactive}
projections:
  context_variables:
    capability_packs: {from: capability_packs}
assets: []
"""

ON = {PROVIDER_ENV: PROVIDER, PATH_ENV: "build_context"}


def _matrix(
    root: Path,
    env: dict[str, str] | None = None,
    launch: dict[str, Any] | None = None,
    runtime: str | None = None,
) -> Matrix:
    session = open_session(root, env=ON if env is None else env, runtime=runtime)
    return session.matrix("AppGenerator", launch=launch)


def _ws(workspace: WriteWorkspace, registries: dict[str, str], contract: str = CONTRACT) -> Path:
    files: dict[str, Any] = {"workflows/AppGenerator/context_variables.yaml": contract}
    for name, text in registries.items():
        files[f"build_context/{name}/context.yaml"] = text
    return workspace(files)


# --- switching on and finding the registry root ----------------------------------------------


def test_provider_variable_turns_it_on_and_a_relative_root_resolves_against_the_workspace(
    tmp_path: Path,
) -> None:
    s = build_context_setting({PROVIDER_ENV: PROVIDER, PATH_ENV: "ctx"}, tmp_path)
    assert s.enabled
    assert s.root == tmp_path / "ctx"
    assert s.describe() == (
        "build context on: MOZAIKS_LAUNCH_CONTEXT_PROVIDER; "
        "registry root from MOZAIKS_BUILD_CONTEXT_PATH=ctx"
    )


def test_another_provider_or_none_leaves_it_off(tmp_path: Path) -> None:
    other = build_context_setting({PROVIDER_ENV: "my.module:other"}, tmp_path)
    assert not other.enabled
    assert "my.module:other is not the build-context provider" in other.reason
    unset = build_context_setting({}, tmp_path)
    assert not unset.enabled and unset.root is None
    assert "MOZAIKS_LAUNCH_CONTEXT_PROVIDER is not set" in unset.describe()


def test_root_falls_back_to_app_workspace_path_then_none(tmp_path: Path) -> None:
    app = build_context_setting({PROVIDER_ENV: PROVIDER, APP_WORKSPACE_ENV: "app"}, tmp_path)
    assert app.root == tmp_path / "app" / "build_context"
    assert "MOZAIKS_APP_WORKSPACE_PATH=app" in app.root_reason
    both = build_context_setting(
        {PROVIDER_ENV: PROVIDER, APP_WORKSPACE_ENV: "app", PATH_ENV: "/abs/ctx"}, tmp_path
    )
    assert both.root == Path("/abs/ctx")
    none = build_context_setting({PROVIDER_ENV: PROVIDER}, tmp_path)
    assert none.enabled and none.root is None


def test_the_option_turns_it_on_with_the_workspace_folder_or_its_path(tmp_path: Path) -> None:
    on = build_context_setting({OPTION_ENV: "on"}, tmp_path)
    assert on.enabled and on.root == tmp_path / "build_context"
    assert on.describe().startswith("build context on: --build-context option")
    path = build_context_setting({OPTION_ENV: "/elsewhere/bc", PATH_ENV: "ignored"}, tmp_path)
    assert path.root == Path("/elsewhere/bc")
    assert "--build-context /elsewhere/bc" in path.root_reason
    assert not build_context_setting({OPTION_ENV: "off"}, tmp_path).enabled


# --- projection into the matrix ----------------------------------------------------------------


def test_provider_off_leaves_rows_pending_and_says_why(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {"mozaikspay": PAY})
    m = _matrix(root, env={})
    row = m.row("capability_packs")
    assert row is not None
    assert (row.status, row.value) == ("pending", None)
    assert row.origin == "build_context: provider off"
    assert any(n.startswith("build context off:") for n in m.notes)


def test_provider_on_without_a_root_says_so(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {"mozaikspay": PAY})
    row = _matrix(root, env={PROVIDER_ENV: PROVIDER}).row("selected_stack")
    assert row is not None and row.value is None
    assert row.origin == "build_context: no registry root"


def test_the_process_environment_is_never_read(
    workspace: WriteWorkspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _ws(workspace, {"mozaikspay": PAY})
    monkeypatch.setenv(PROVIDER_ENV, PROVIDER)
    monkeypatch.setenv(PATH_ENV, str(root / "build_context"))
    row = _matrix(root, env={}).row("capability_packs")
    assert row is not None and row.status == "pending"


def test_active_pack_is_projected_and_an_inactive_one_left_out(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {"mozaikspay": PAY, "stripe_legacy": LEGACY})
    m = _matrix(root)
    row = m.row("capability_packs")
    assert row is not None
    assert row.status == "resolved"
    # normalize_pack_descriptor's shape: the pack, its id twice, a default capability_source
    assert row.value == [
        {
            "id": "mozaikspay",
            "version": "1.4.0",
            "status": "active",
            "pack_id": "mozaikspay",
            "capability_source": "operator_pack",
            "pack_source_path": "build_context/mozaikspay",
        }
    ]
    assert row.origin.startswith(
        "build_context/mozaikspay/context.yaml projections.context_variables.capability_packs"
    )
    details = [s.detail for s in row.trace]
    assert any("stripe_legacy (inactive" in d and "left out" in d for d in details)
    assert m.diagnostics == ()
    assert m.notes[0] == (
        "build context on: MOZAIKS_LAUNCH_CONTEXT_PROVIDER; "
        "registry root from MOZAIKS_BUILD_CONTEXT_PATH=build_context"
    )


@pytest.mark.parametrize("status", ["inactive", "archived"])
def test_a_pack_that_is_not_active_projects_an_empty_list(
    workspace: WriteWorkspace, status: str
) -> None:
    root = _ws(workspace, {"legacy": LEGACY.replace("inactive", status)})
    row = _matrix(root).row("capability_packs")
    assert row is not None
    assert (row.status, row.value) == ("resolved", [])


def test_two_active_packs_merge_in_registry_order(workspace: WriteWorkspace) -> None:
    second = LEGACY.replace("inactive", "active").replace("stripe_legacy", "acme.stripe")
    root = _ws(workspace, {"mozaikspay": PAY, "z_stripe": second})
    row = _matrix(root).row("capability_packs")
    assert row is not None and row.status == "resolved"
    assert [p["id"] for p in row.value] == ["mozaikspay", "acme.stripe"]


def test_a_registry_for_another_workflow_is_not_applied(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {"other": PAY.replace("[AppGenerator]", "[Approvals]")})
    m = _matrix(root)
    row = m.row("selected_stack")
    assert row is not None
    assert (row.status, row.value) == ("pending", None)
    assert row.origin == "build_context: no applicable registry"
    assert any(
        "applies to AppGenerator" in n and "build_context/other/context.yaml" in n for n in m.notes
    )


def test_a_declared_variable_nobody_projects_says_so(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {"mozaikspay": PAY})
    row = _matrix(root, runtime="spec").row("requested_by")
    assert row is not None and row.value is None
    assert row.origin == "build_context: no projection for this variable"


def test_string_projection_walks_values_including_list_indexes(workspace: WriteWorkspace) -> None:
    reg = """
    context_id: c
    applies_to_workflows: [AppGenerator]
    values: {people: [{name: ada}, {name: bob}], stacks: {default: {id: s1}}}
    projections:
      context_variables:
        requested_by: people.1.name
        selected_stack: stacks.default
    assets: []
    """
    # the runtime's _read_dotted walks mappings only: a list index finds nothing, and a
    # protected variable with no value fails the launch
    runtime = _matrix(_ws(workspace, {"c": reg}))
    assert runtime.refused is not None
    assert "invalid trusted build-context value for 'requested_by'" in runtime.refused.reason
    assert runtime.refused.file == "build_context/c/context.yaml"
    m = _matrix(_ws(workspace, {"c": reg}), runtime="spec")
    assert m.values["requested_by"] == "bob"
    assert m.values["selected_stack"] == {"id": "s1"}
    row = m.row("requested_by")
    assert row is not None
    assert row.origin == (
        "build_context/c/context.yaml projections.context_variables.requested_by "
        "(values.people.1.name)"
    )
    assert any(
        s.step == "build context" and "context.yaml:6:5 values.people.1.name" in s.detail
        for s in row.trace
    )


def test_a_string_path_that_finds_nothing_projects_nothing_with_a_warning(
    workspace: WriteWorkspace,
) -> None:
    reg = """
    context_id: c
    applies_to_workflows: [AppGenerator]
    values: {a: 1}
    projections: {context_variables: {requested_by: b.c}}
    assets: []
    """
    # documented: nothing found projects nothing (the runtime fails the launch: see below)
    row = _matrix(_ws(workspace, {"c": reg}), runtime="spec").row("requested_by")
    assert row is not None
    assert (row.status, row.value) == ("pending", None)
    assert row.origin == "build_context: projection found no value"
    assert any("values.b.c: not found" in w for w in row.warnings)


MAPPING_FORMS = """
context_id: c
applies_to_workflows: [AppGenerator]
pack: {id: c, version: "2", status: active}
values: {stacks: {default: {id: s1}}, owner: values-owner}
projections:
  context_variables:
    requested_by: {REQUESTED}
    selected_stack: {from: pack}
assets: []
"""


@pytest.mark.parametrize(
    ("mapping", "launch", "expected", "used"),
    [
        ("{value: fixed, from: owner, default: d}", {}, "fixed", "(value)"),
        ("{from: owner, from_context: user_id, default: d}", {}, "values-owner", "(from: owner)"),
        ("{from: nope, from_context: user_id, default: d}", {"user_id": "u1"}, "u1", "user_id"),
        ("{from_context: missing, default: d}", {"user_id": "u1"}, "d", "(default)"),
        (
            "{from_trigger: event.actor, default: d}",
            {"$trigger": {"event": {"actor": "webhook"}}},
            "webhook",
            "(from_trigger: event.actor)",
        ),
        ("{from_trigger: event.actor, default: d}", {}, "d", "(default)"),
        ("{value: null, default: d}", {}, None, "(value)"),
    ],
)
def test_mapping_forms_in_order_of_preference(
    workspace: WriteWorkspace, mapping: str, launch: dict[str, Any], expected: Any, used: str
) -> None:
    root = _ws(workspace, {"c": MAPPING_FORMS.replace("{REQUESTED}", mapping)})
    # the documented order of preference (the runtime takes only static sources: see below)
    m = _matrix(root, launch=launch, runtime="spec")
    row = m.row("requested_by")
    assert row is not None
    assert (row.status, row.value) == ("resolved", expected)
    assert used in row.origin
    assert not [n for n in m.notes if "$trigger" in n]


def test_from_reads_the_registry_data_first(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {"c": MAPPING_FORMS.replace("{REQUESTED}", "{value: x}")})
    row = _matrix(root).row("selected_stack")
    assert row is not None
    # build_provider_values offers the raw pack mapping (context_id is structural)
    assert row.value == {"id": "c", "version": "2", "status": "active"}
    assert any(s.detail.endswith("from: pack") for s in row.trace)


def test_a_fallen_through_trigger_shows_in_the_trace(workspace: WriteWorkspace) -> None:
    mapping = "{from_trigger: event.actor, default: d}"
    root = _ws(workspace, {"c": MAPPING_FORMS.replace("{REQUESTED}", mapping)})
    row = _matrix(root, runtime="spec").row("requested_by")
    assert row is not None
    outcomes = [(s.outcome, s.detail.split(" ", 1)[1]) for s in row.trace if s.step != "load"]
    assert outcomes == [
        ("missing", "from_trigger: event.actor: no trigger payload"),
        ("used", "default"),
    ]


def test_explicit_launch_values_win_over_projections(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {"mozaikspay": PAY})
    launch = {"selected_stack": {"id": "mine"}}
    # the runtime: a caller's value for a protected key must equal the trusted projection
    refused = _matrix(root, launch=launch).row("selected_stack")
    assert refused is not None and (refused.status, refused.origin) == (
        "error",
        "untrusted override",
    )
    assert "the runtime fails the launch" in (refused.error or "")
    same = {"selected_stack": {"id": "react-fastapi", "backend": "FastAPI"}}
    agreed = _matrix(root, launch=same).row("selected_stack")
    assert agreed is not None and agreed.status == "resolved"
    # documented: explicit launch values win
    row = _matrix(root, launch=launch, runtime="spec").row("selected_stack")
    assert row is not None
    assert (row.status, row.value, row.origin) == ("resolved", {"id": "mine"}, "launch value")
    projected = [s for s in row.trace if s.step == "build context"]
    assert projected and projected[0].outcome == "shadowed"
    assert "launch value wins" in projected[0].detail
    assert row.trace[-1].step == "launch"


def test_conflicting_registries_fail_closed_and_equal_ones_agree(
    workspace: WriteWorkspace,
) -> None:
    a = "context_id: a\napplies_to_workflows: [AppGenerator]\nvalues: {x: ada}\nassets: []\n"
    a += "projections: {context_variables: {requested_by: x}}\n"
    same = a.replace("context_id: a", "context_id: b")
    m = _matrix(_ws(workspace, {"a": a, "b": same}))
    assert m.values["requested_by"] == "ada"
    other = same.replace("{x: ada}", "{x: bob}")
    row = _matrix(_ws(workspace, {"a": a, "b": other})).row("requested_by")
    assert row is not None
    assert row.status == "error" and row.value is None
    assert "build_context/a/context.yaml and build_context/b/context.yaml" in (row.error or "")


def test_a_trusted_value_of_the_wrong_type_fails_the_launch(workspace: WriteWorkspace) -> None:
    reg = "context_id: c\napplies_to_workflows: [AppGenerator]\nassets: []\n"
    reg += "projections:\n  context_variables:\n    selected_stack: {value: [1, 2]}\n"
    root = _ws(workspace, {"c": reg})
    # the runtime type-checks a protected value against the declared type and raises
    m = _matrix(root)
    assert m.refused is not None
    assert (m.refused.file, m.refused.line, m.refused.column) == (
        "build_context/c/context.yaml",
        6,
        5,
    )
    assert "invalid trusted build-context value for 'selected_stack'" in m.refused.reason
    assert "gives a list, the contract declares type 'object'" in m.refused.reason
    row = m.row("selected_stack")
    assert row is not None and row.status == "error"
    # the documentation says nothing of it: the value loads, with a warning
    row = _matrix(root, runtime="spec").row("selected_stack")
    assert row is not None and row.status == "resolved"
    assert row.warnings == ("projected a list, declared object",)


@pytest.mark.parametrize(
    ("declared", "value", "fails"),
    [
        ("string", "'7'", False),
        ("string", "7", True),
        ("Integer", "true", True),  # a boolean is never an integer; the type is lowercased
        ("number", "7", False),
        ("dict", "{a: 1}", False),
        ("list", "{a: 1}", True),
        ("any", "[1]", False),
        ("timestamp", "[1]", False),  # a type the runtime does not know admits anything
    ],
)
def test_the_runtime_type_check_covers_its_own_spellings(
    workspace: WriteWorkspace, declared: str, value: str, fails: bool
) -> None:
    contract = (
        f"definitions:\n  requested_by:\n    type: {declared}\n"
        "    source: {type: build_context}\n"
    )
    reg = "context_id: c\napplies_to_workflows: [AppGenerator]\nassets: []\n"
    reg += f"projections: {{context_variables: {{requested_by: {{value: {value}}}}}}}\n"
    m = _matrix(_ws(workspace, {"c": reg}, contract))
    assert (m.refused is not None) is fails


def test_capability_packs_drops_descriptors_that_are_not_active(
    workspace: WriteWorkspace,
) -> None:
    reg = """
    context_id: c
    applies_to_workflows: [AppGenerator]
    values:
      packs: [{id: a, status: active}, {id: b, status: archived}]
    projections: {context_variables: {capability_packs: packs}}
    assets: []
    """
    # documented; the runtime requires capability_packs to project registered packs
    row = _matrix(_ws(workspace, {"c": reg}), runtime="spec").row("capability_packs")
    assert row is not None
    assert row.value == [{"id": "a", "status": "active"}]
    assert any("pack b (archived) is not active" in s.detail for s in row.trace)


def test_a_missing_registry_root_is_a_note(workspace: WriteWorkspace) -> None:
    root = _ws(workspace, {})
    # resolve_build_context_root: a configured root that is not a folder fails the launch
    m = _matrix(root, env={PROVIDER_ENV: PROVIDER, PATH_ENV: "nowhere"})
    assert m.refused is not None and "is not an existing directory" in m.refused.reason
    # a workspace path without build_context/ is no registry at all
    m = _matrix(root, env={PROVIDER_ENV: PROVIDER, APP_WORKSPACE_ENV: "nowhere"})
    assert m.refused is None
    assert any("does not exist: nothing projected" in n for n in m.notes)


# --- refusing: undeclared projections, invalid registries -----------------------------------


def test_an_undeclared_projection_fails_the_launch(workspace: WriteWorkspace) -> None:
    reg = PAY.replace(
        "    selected_stack: stacks.default",
        "    selected_stack: stacks.default\n    capabilty_list: {value: [x]}",
    )
    m = _matrix(_ws(workspace, {"mozaikspay": reg}))
    # _trusted_projection raises for a key the workflow does not declare
    assert m.refused is not None
    assert (m.refused.file, m.refused.line, m.refused.column) == (
        "build_context/mozaikspay/context.yaml",
        12,
        5,
    )
    assert "undeclared build-context projection 'capabilty_list'" in m.refused.reason
    assert "(did you mean 'capability_packs'?)" in m.refused.reason
    assert [d.format().split(": ", 1)[0] for d in m.errors] == [
        "build_context/mozaikspay/context.yaml:12:5"
    ]
    for name in ("capability_packs", "selected_stack"):
        row = m.row(name)
        assert row is not None
        assert (row.status, row.value) == ("error", None)
    assert "capabilty_list" not in m.values
    # documented: the registry is refused, the workflow loads
    documented = _matrix(_ws(workspace, {"mozaikspay": reg}), runtime="spec")
    assert documented.refused is None
    assert "nothing is admitted from this registry" in documented.errors[0].message


def test_an_undeclared_projection_is_dropped_when_no_variable_is_protected(
    workspace: WriteWorkspace,
) -> None:
    contract = "definitions:\n"
    contract += "  plan_ready: {type: boolean, source: {type: state, default: false}}\n"
    contract += "agents:\n  PlannerAgent: {variables: [plan_ready]}\n"
    reg = (
        "context_id: c\napplies_to_workflows: [AppGenerator]\nassets: []\n"
        "projections: {context_variables: {nobody: {value: 1}}}\n"
    )
    m = _matrix(_ws(workspace, {"c": reg}, contract))
    # no build_context variable: the trusted load is skipped and the launcher drops the key
    assert m.refused is None and "nobody" not in m.values
    assert any("the launcher drops them: nobody" in n for n in m.notes)


def test_a_projection_into_a_state_variable_sets_it_as_a_launch_value(
    workspace: WriteWorkspace,
) -> None:
    reg = PAY + "    plan_ready: {value: true}\n"
    m = _matrix(_ws(workspace, {"mozaikspay": reg}))
    # merge_build_context merges it into the launch context (first registry wins)
    assert m.errors == () and m.refused is None
    assert m.values["plan_ready"] is True
    row = m.row("plan_ready")
    assert row is not None and row.status == "resolved"
    assert "projections.context_variables.plan_ready (value) as a launch value" in row.origin
    assert any(s.outcome == "shadowed" and "state default" in s.detail for s in row.trace) or any(
        "a build-context projection wins" in s.detail for s in row.trace
    )
    # a non-static rule is fine there (only protected variables need a static source)
    reg2 = PAY + "    plan_ready: {from_context: wanted, default: true}\n"
    assert _matrix(_ws(workspace, {"mozaikspay": reg2})).values["plan_ready"] is True
    # an explicit launch value still wins
    won = _matrix(_ws(workspace, {"mozaikspay": reg}), launch={"plan_ready": False})
    assert won.values["plan_ready"] is False
    # documented: only build_context variables are admitted
    documented = _matrix(_ws(workspace, {"mozaikspay": reg}), runtime="spec")
    assert [d.message for d in documented.errors] == [
        "projects 'plan_ready', which workflow AppGenerator declares with source type state, "
        "not build_context; nothing is admitted from this registry"
    ]
    assert documented.values["plan_ready"] is False


def test_an_invalid_registry_fails_every_launch(workspace: WriteWorkspace) -> None:
    reg = PAY + "valuse: {}\n"
    m = _matrix(_ws(workspace, {"mozaikspay": reg}))
    formatted = [d.format() for d in m.errors]
    assert (
        "build_context/mozaikspay/context.yaml:12:1: valuse: unknown field "
        "(did you mean 'values'?)" in formatted
    )
    assert m.refused is not None
    # located at the registry's first validation error, naming the launch that fails
    assert (m.refused.file, m.refused.line, m.refused.column, m.refused.outcome) == (
        "build_context/mozaikspay/context.yaml",
        12,
        1,
        "launch_fails",
    )
    assert m.refused.headline("runtime mozaiks-0.2.0").startswith(
        "REFUSED: runtime mozaiks-0.2.0 would fail the launch of AppGenerator (build context)"
    )
    assert "registry build_context/mozaikspay/context.yaml is invalid" in m.refused.reason
    assert "BuildContextError" in m.refused.reason
    row = m.row("capability_packs")
    assert row is not None and row.status == "error"
    assert "build_context/mozaikspay/context.yaml is invalid" in (row.error or "")


def test_an_invalid_registry_for_another_workflow_fails_this_launch_too(
    workspace: WriteWorkspace,
) -> None:
    # discover_build_context_files loads every context.yaml before filtering by workflow
    other = "context_id: o\napplies_to_workflows: [Elsewhere]\nassets: []\nbogus: 1\n"
    m = _matrix(_ws(workspace, {"mozaikspay": PAY, "other": other}))
    assert m.refused is not None
    assert m.refused.file == "build_context/other/context.yaml"
    assert "Elsewhere" not in m.refused.reason
    # a workflow without build_context variables fails the same way
    contract = "definitions: {}\nagents:\n  PlannerAgent: {variables: []}\n"
    plain = _matrix(_ws(workspace, {"other": other}, contract))
    assert plain.refused is not None and "is invalid" in plain.refused.reason
    # the provider off: nothing is loaded, nothing fails
    off = _matrix(_ws(workspace, {"other": other}, contract), env={})
    assert off.refused is None


def test_a_missing_catalog_of_an_applicable_registry_fails_the_launch(
    workspace: WriteWorkspace,
) -> None:
    reg = PAY.replace("assets: []", "assets: [{path: book.yaml, kind: catalog}]")
    m = _matrix(_ws(workspace, {"mozaikspay": reg}))
    assert m.refused is not None
    assert "declared catalog asset 'book.yaml' not found" in m.refused.reason
    assert (m.refused.line, m.refused.column) == (4, 11)
    # templates are never read: a missing one fails nothing
    tmpl = PAY.replace("assets: []", "assets: [{path: t/, kind: templates}]")
    assert _matrix(_ws(workspace, {"mozaikspay": tmpl})).refused is None


def test_check_and_json_name_the_refusal(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _ws(workspace, {"mozaikspay": PAY + "valuse: {}\n"})
    env = "--build-context"
    main(["matrix", str(root), "--format", "json", env])
    doc = json.loads(capsys.readouterr().out)
    assert doc["refused"]["file"] == "build_context/mozaikspay/context.yaml"
    assert "is invalid" in doc["refused"]["reason"]
    assert (doc["refused"]["line"], doc["refused"]["outcome"]) == (12, "launch_fails")
    assert main(["check", str(root), env]) == 1
    out = capsys.readouterr().out
    assert (
        "build_context/mozaikspay/context.yaml:12:1: REFUSED: runtime mozaiks-0.2.0 would fail the "
        "launch of AppGenerator (build context)"
    ) in out


def _problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "r" / "context.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    reg = load_registry(path, "r/context.yaml")
    assert not reg.valid
    return [d.format() for d in reg.diagnostics]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("description: x\n", "r/context.yaml:1:1: missing required field 'context_id'"),
        (
            "context_id: c\nassets: [{path: a.yaml, kind: catalogue}]\n",
            "r/context.yaml:2:31: assets[0].kind: Input should be 'catalog', 'contract' or "
            "'templates' (got 'catalogue')",
        ),
        (
            "context_id: c\npack: {id: My-Pack, version: '1'}\nassets: []\n",
            "r/context.yaml:2:12: pack.id: pack id 'My-Pack' must match "
            "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$",
        ),
        (
            "context_id: c\npack: {id: p}\nassets: []\n",
            "r/context.yaml:2:1: pack: missing required field",
        ),
        (
            "context_id: c\npack: {id: p, version: 1.0}\nassets: []\n",
            "pack.version: version must be a string; quote it ('1.0')",
        ),
        (
            "context_id: c\npack: {id: p, version: '1', status: retired}\nassets: []\n",
            "pack.status: Input should be 'active', 'inactive' or 'archived' (got 'retired')",
        ),
        # validate_pack_context: applies_to_workflows must be a list, each id non-empty
        ("context_id: c\nassets: []\n", "missing required field 'applies_to_workflows'"),
        (
            "context_id: c\napplies_to_workflows: [W, '']\nassets: []\n",
            "workflow id must be a non-empty string",
        ),
        (
            "context_id: c\napplies_to_workflows: []\nassets: [{path: a.yaml, kind: catalog, "
            "projection: {}}]\n",
            "assets[0].projection: unknown field",
        ),
        ("context_id: c\ncontext_id: d\nassets: []\nassets: []\n", "duplicate key 'context_id'"),
        ("- a\n- b\n", "a registry must be a mapping, found list"),
    ],
)
def test_registry_validation_rules(tmp_path: Path, text: str, expected: str) -> None:
    problems = _problems(tmp_path, text)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "assets:\n  - path: t/\n    kind: templates\n"
            "    projections: [{id: x, records: r, recipients: [A], render: summary}]\n",
            "only catalog assets' prompt projections are read; these are ignored",
        ),
        (
            "assets:\n  - path: p.yaml\n    kind: catalog\n"
            "    projections: [{id: x, records: r, recipients: [A], render: summary, mark: M}]\n",
            "assets[0].projections[0].mark: unknown field (did you mean 'marker'?): the "
            "runtime's reader ignores it",
        ),
        (
            "projections: {context_variables: {x: [a]}}\nassets: []\n",
            "r/context.yaml:3:38: warning: projections.context_variables.x: a projection is a "
            "dotted path into values or a mapping with value, from, from_context, from_trigger, "
            "default; the provider reads nothing from it",
        ),
        (
            "projections: {context_variables: {x: {form: a}}}\nassets: []\n",
            "projections.context_variables.x.form: unknown field (did you mean 'from'?)",
        ),
        (
            "projections: {context_variables: {x: 'a..b'}}\nassets: []\n",
            "'a..b' is not a dotted path into values",
        ),
    ],
)
def test_what_the_validator_does_not_read_is_only_a_warning(
    tmp_path: Path, text: str, expected: str
) -> None:
    # build_context_schema.py looks neither inside prompt projections nor inside
    # projections.context_variables: the registry stays valid, and check warns
    path = tmp_path / "r" / "context.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("context_id: c\napplies_to_workflows: []\n" + text, encoding="utf-8")
    reg = load_registry(path, "r/context.yaml")
    assert reg.valid
    problems = [d.format() for d in reg.diagnostics]
    assert any(expected in p and "warning" in p for p in problems), problems


def test_keys_the_validator_accepts_loosely(tmp_path: Path) -> None:
    path = tmp_path / "r" / "context.yaml"
    path.parent.mkdir(parents=True)
    text = (
        "context_id: 7\napplies_to_workflows: [W]\nassets: []\nvalues: null\n"
        "projections: {context_variables: {}, prompts: {}}\n"
        "pack: {id: p, version: '1', status: null}\n"
    )
    path.write_text(text, encoding="utf-8")
    reg = load_registry(path, "r/context.yaml")
    assert reg.valid, [d.format() for d in reg.diagnostics]
    assert reg.model is not None and reg.model.pack is not None
    assert reg.model.pack.status == "active"


def test_a_valid_registry_has_no_problems(tmp_path: Path) -> None:
    path = tmp_path / "r" / "context.yaml"
    path.parent.mkdir()
    path.write_text(PAY, encoding="utf-8")
    reg = load_registry(path, "r/context.yaml")
    assert reg.valid and reg.diagnostics == ()
    assert reg.model is not None and reg.model.pack is not None
    assert reg.model.pack.status == "active"


# --- flowctx check ----------------------------------------------------------------------------


def _check(root: Path, env: dict[str, str] | None = None) -> list[str]:
    return [d.format() for d in check_workspace(open_session(root, env=env or {}))]


def test_check_validates_workspace_registries_even_with_the_provider_off(
    workspace: WriteWorkspace,
) -> None:
    root = _ws(workspace, {"mozaikspay": PAY.replace("status: active", "status: live")})
    problems = _check(root)
    assert any(
        p.startswith("build_context/mozaikspay/context.yaml:3:50: ")
        and "pack.status: Input should be 'active', 'inactive' or 'archived'" in p
        for p in problems
    ), problems


def test_check_validates_the_configured_root_too(workspace: WriteWorkspace, tmp_path: Path) -> None:
    root = _ws(workspace, {})
    elsewhere = tmp_path / "shared_registries" / "x"
    elsewhere.mkdir(parents=True)
    (elsewhere / "context.yaml").write_text(
        "context_id: x\nbogus: 1\nassets: []\n", encoding="utf-8"
    )
    problems = _check(root, {PATH_ENV: str(tmp_path / "shared_registries")})
    assert any("x/context.yaml:2:1: bogus: unknown field" in p for p in problems), problems


def test_check_reports_projection_assets_and_targets(workspace: WriteWorkspace) -> None:
    reg = """
    context_id: c
    applies_to_workflows: [AppGenerator, AppGenrator]
    assets:
      - path: missing.yaml
        kind: contract
      - path: book.yaml
        kind: catalog
        projections:
          - {id: s, records: patterns, recipients: [PlannerAgent, Planner], render: summary}
          - {id: t, records: nope, recipients: [PlannerAgent], render: summary}
    projections: {context_variables: {undeclared_thing: {value: 1}}}
    """
    root = _ws(workspace, {"c": reg})
    (root / "build_context" / "c" / "book.yaml").write_text("patterns: []\n", encoding="utf-8")
    problems = _check(root)
    expected = [
        "build_context/c/context.yaml:2:38: warning: applies_to_workflows[1]: no workflow named "
        "'AppGenrator' in this workspace (did you mean 'AppGenerator'?)",
        # a contract asset is loaded by the provider: missing, the launch fails
        "build_context/c/context.yaml:4:11: assets[0].path: asset 'missing.yaml' "
        "not found (the runtime's provider fails the launch: BuildContextError)",
        "build_context/c/context.yaml:9:63: warning: assets[1].projections[0].recipients[1]: "
        "recipient 'Planner' is not an agent of AppGenerator (did you mean 'PlannerAgent'?)",
        # the reader finds no records: it inserts the heading alone
        "build_context/c/context.yaml:10:26: warning: assets[1].projections[1].records: "
        "book.yaml: no 'nope' key: the runtime inserts the block's heading with no records",
        # AppGenerator declares build_context variables: the trusted load raises
        "build_context/c/context.yaml:11:35: projections.context_variables.undeclared_thing: "
        "projects 'undeclared_thing', which workflow AppGenerator does not declare: the "
        "runtime's provider raises BuildContextError (undeclared build-context projection) "
        "and every launch fails",
    ]
    for line in expected:
        assert line in problems, problems
    # documented: the registry is refused instead
    documented = [
        d.format()
        for d in check_workspace(open_session(root, env=ON, runtime="spec"))
        if "undeclared_thing" in d.message
    ]
    assert any("nothing is admitted from this registry" in p for p in documented), documented


def test_check_an_undeclared_projection_without_protected_variables_is_a_warning(
    workspace: WriteWorkspace,
) -> None:
    contract = "definitions:\n  plan_ready: {type: boolean, source: {type: state}}\n"
    contract += "agents:\n  PlannerAgent: {variables: [plan_ready]}\n"
    reg = "context_id: c\napplies_to_workflows: [AppGenerator]\nassets: []\n"
    reg += "projections: {context_variables: {capability_packs: {from: capability_packs}}}\n"
    problems = _check(_ws(workspace, {"c": reg}, contract))
    # no build_context variable: load_trusted_build_context never runs, the key is dropped
    # (and the bare workflow folder is one the runtime would not discover)
    assert problems[0] == (
        "build_context/c/context.yaml:4:35: warning: projections.context_variables."
        "capability_packs: projects 'capability_packs', which workflow AppGenerator does not "
        "declare: the launcher drops it"
    ), problems
    assert len(problems) == 2
    assert "the runtime will not discover 'AppGenerator'" in problems[1]


def test_check_refuses_an_asset_outside_the_registry_root(workspace: WriteWorkspace) -> None:
    reg = "context_id: c\napplies_to_workflows: []\n"
    reg += "assets: [{path: ../../secrets.yaml, kind: contract}]\n"
    problems = _check(_ws(workspace, {"c": reg}))
    assert any("resolves outside the workspace root" in p for p in problems), problems


def test_the_bundled_demo_projects_through_its_profile() -> None:
    session = open_session(demo_path(), env={})
    m = session.matrix("AppGenerator")
    row = m.row("capability_packs")
    assert row is not None and [p["id"] for p in row.value] == ["mozaikspay"]
    approvals = session.matrix("Approvals")
    assert approvals.values["approver_pool"] == [
        "finance-lead@example.test",
        "ops-manager@example.test",
    ]


# --- the --build-context option on matrix and check ---------------------------------------------


def test_matrix_option_turns_it_on_and_says_so(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _ws(workspace, {"mozaikspay": PAY, "stripe_legacy": LEGACY})
    assert main(["matrix", str(root), "--format", "json"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert {v["name"]: v["status"] for v in off["variables"]}["capability_packs"] == "pending"
    assert main(["matrix", str(root), "--format", "json", "--build-context"]) == 0
    on = json.loads(capsys.readouterr().out)
    packs = next(v for v in on["variables"] if v["name"] == "capability_packs")
    assert [p["id"] for p in packs["value"]] == ["mozaikspay"]
    assert on["notes"][0] == (
        "build context on: --build-context option (FLOWCTX_BUILD_CONTEXT=on); registry root: "
        "the workspace's build_context/ (--build-context default)"
    )
    assert on["notes"][1].endswith(
        "apply to AppGenerator: build_context/mozaikspay/context.yaml, "
        "build_context/stripe_legacy/context.yaml"
    )


def test_check_option_validates_the_given_root(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _ws(workspace, {})
    shared = tmp_path / "shared" / "bad"
    shared.mkdir(parents=True)
    (shared / "context.yaml").write_text(
        "context_id: bad\npack: {id: Bad}\nassets: []\n", encoding="utf-8"
    )
    assert main(["check", str(root)]) == 0
    capsys.readouterr()
    assert main(["check", str(root), f"--build-context={tmp_path / 'shared'}"]) == 1
    out = capsys.readouterr().out
    assert "bad/context.yaml:2:1: pack: missing required field 'version'" in out
    assert "pack.id: pack id 'Bad' must match" in out


# --- the runtime's registry validator (build_context_schema.py) and projection reader -------


def test_pack_keys_the_runtime_allows_are_accepted(workspace: WriteWorkspace) -> None:
    reg = PAY.replace(
        'pack: {id: mozaikspay, version: "1.4.0", status: active}',
        'pack: {id: mozaikspay, version: "1.4.0", status: active, author: Blocs, license: MIT,'
        " source: oss, capability_source: managed_capability, required_integrations: [stripe],"
        " deployment_env: {region: eu}, description: Payments, display_name: MozaiksPay}",
    )
    m = _matrix(_ws(workspace, {"mozaikspay": reg}))
    assert m.errors == ()
    row = m.row("capability_packs")
    assert row is not None and row.status == "resolved"


def test_an_unknown_capability_source_is_named_as_such(workspace: WriteWorkspace) -> None:
    reg = PAY.replace("status: active}", "status: active, capability_source: hosted_pack}")
    problems = _check(_ws(workspace, {"mozaikspay": reg}))
    assert any(
        "pack.capability_source: Input should be" in p
        # VALID_CAPABILITY_SOURCES: operator_pack is only the provider's descriptor default
        and "'operator_pack'" not in p
        and "hosted_pack" in p
        for p in problems
    ), problems


def test_a_registry_without_assets_fails_the_runtime_validator(workspace: WriteWorkspace) -> None:
    reg = PAY.replace("assets: []\n", "")
    problems = _check(_ws(workspace, {"mozaikspay": reg}))
    assert "build_context/mozaikspay/context.yaml:1:1: missing required field 'assets'" in problems


def test_lenient_prompt_projections_are_read_as_the_runtime_reads_them(
    workspace: WriteWorkspace,
) -> None:
    reg = """
    context_id: book
    applies_to_workflows: [AppGenerator]
    assets:
      - path: book.yaml
        kind: catalog
        projections:
          - {heading: Patterns, render: full, records: null, recipients: [PlannerAgent],
             marker: PATTERNS}
          - {id: unmarked, recipients: [PlannerAgent], render: summary}
    """
    root = _ws(workspace, {"book": reg})
    (root / "build_context" / "book" / "book.yaml").write_text(
        "patterns: [{id: star, name: Star}]\n", encoding="utf-8"
    )
    assert [p for p in _check(root) if "book/context.yaml" in p and "warning" not in p] == []


def test_rejected_registries_are_named_in_the_notes(workspace: WriteWorkspace) -> None:
    reg = PAY.replace("status: active}", "status: live}")
    m = _matrix(_ws(workspace, {"mozaikspay": reg}))
    # the runtime: the invalid registry fails the launch, and the note says why
    note = next(n for n in m.notes if n.startswith("the launch fails"))
    assert "build_context/mozaikspay/context.yaml is invalid (3:50 Input should be 'active'" in note
    assert not any("no registry under" in n for n in m.notes)
    # documented: the registry is rejected, the others still apply
    documented = _matrix(_ws(workspace, {"mozaikspay": reg}), runtime="spec")
    note = next(n for n in documented.notes if "rejected" in n)
    assert "1 registry under" in note and "applies to AppGenerator, 0 admitted, 1 rejected" in note


# --- the runtime's trusted projection (load_trusted_build_context) ---------------------------


def _registry(name: str, rule: str, values: str = "{}") -> str:
    return (
        f"context_id: {name}\napplies_to_workflows: [AppGenerator]\nvalues: {values}\n"
        f"projections: {{context_variables: {{requested_by: {rule}}}}}\nassets: []\n"
    )


@pytest.mark.parametrize(
    "rule",
    ["{default: d}", "{from_context: user_id}", "{from: a, default: d}", "{from_trigger: x}"],
)
def test_only_a_static_source_is_admitted(workspace: WriteWorkspace, rule: str) -> None:
    m = _matrix(_ws(workspace, {"c": _registry("c", rule, "{a: v}")}), launch={"user_id": "u"})
    row = m.row("requested_by")
    assert row is not None and row.status == "error"
    assert "the runtime requires a static registry source" in (row.error or "")
    documented = _matrix(
        _ws(workspace, {"c": _registry("c", rule, "{a: v}")}),
        launch={"user_id": "u"},
        runtime="spec",
    ).row("requested_by")
    assert documented is not None and documented.status != "error"


def test_a_static_source_that_finds_nothing_fails_the_launch(workspace: WriteWorkspace) -> None:
    row = _matrix(_ws(workspace, {"c": _registry("c", "b.c", "{a: 1}")})).row("requested_by")
    assert row is not None and row.status == "error"
    assert "invalid trusted build-context value" in (row.error or "")


def test_lists_projected_by_several_registries_are_merged(workspace: WriteWorkspace) -> None:
    contract = CONTRACT.replace(
        "agents:", "  tags:\n    type: array\n    source: {type: build_context}\nagents:"
    )
    regs = {
        name: (
            f"context_id: {name}\napplies_to_workflows: [AppGenerator]\n"
            f"values: {{tags: {tags}}}\nprojections: {{context_variables: {{tags: tags}}}}\n"
            "assets: []\n"
        )
        for name, tags in (("a", "[x, y]"), ("b", "[y, z]"))
    }
    m = _matrix(_ws(workspace, regs, contract))
    row = m.row("tags")
    assert row is not None and (row.status, row.value) == ("resolved", ["x", "y", "z"])
    assert any("(union)" in s.detail for s in row.trace)
    # the documentation does not promise a merge: differing lists conflict there
    documented = _matrix(_ws(workspace, regs, contract), runtime="spec").row("tags")
    assert documented is not None and documented.status == "error"


@pytest.mark.parametrize(
    ("asset", "content", "why"),
    [
        ("book.yaml", "- a\n- b\n", "catalog asset 'book.yaml': must be a mapping, found list"),
        ("book.yaml", "a: [\n", "catalog asset 'book.yaml':"),
        # resolve_context_asset_path: inside the registry's own folder, not only the root
        ("../other/book.yaml", "a: 1\n", "resolves outside"),
    ],
)
def test_an_unreadable_catalog_of_an_applicable_registry_fails_the_launch(
    workspace: WriteWorkspace, asset: str, content: str, why: str
) -> None:
    reg = PAY.replace("assets: []", f"assets: [{{path: '{asset}', kind: catalog}}]")
    root = _ws(workspace, {"mozaikspay": reg})
    target = (root / "build_context" / "mozaikspay" / asset).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    m = _matrix(root)
    assert m.refused is not None and m.refused.outcome == "launch_fails"
    assert why in m.refused.reason, m.refused.reason
    assert m.refused.file == "build_context/mozaikspay/context.yaml"


def test_a_registry_that_does_not_apply_loads_no_asset(workspace: WriteWorkspace) -> None:
    # build_provider_values runs only for the registries that apply to the workflow
    other = "context_id: o\napplies_to_workflows: [Elsewhere]\n"
    other += "assets: [{path: missing.yaml, kind: catalog}]\n"
    m = _matrix(_ws(workspace, {"mozaikspay": PAY, "other": other}))
    assert m.refused is None
    row = m.row("capability_packs")
    assert row is not None and row.status == "resolved"


def test_a_malformed_projection_is_refused_as_documented_and_ignored_by_the_runtime(
    workspace: WriteWorkspace,
) -> None:
    reg = PAY + "    plan_ready: {form: x}\n"
    root = _ws(workspace, {"mozaikspay": reg})
    # the runtime: a rule it cannot read for an unprotected variable projects nothing
    m = _matrix(root)
    assert m.refused is None and m.values["plan_ready"] is False
    assert m.row("selected_stack").status == "resolved"  # type: ignore[union-attr]
    # documented: the malformed projection fails the registry, nothing is admitted from it
    documented = _matrix(root, runtime="spec")
    assert any(
        d.severity == "error" and d.message.endswith("unknown field (did you mean 'from'?)")
        for d in documented.diagnostics
    ), [d.format() for d in documented.diagnostics]
    assert documented.row("selected_stack").status == "error"  # type: ignore[union-attr]


# --- secret-named assets: the runtime loads them; flowctx says so and shows nothing -------------

SECRET_CONTRACT = """
definitions:
  operator_catalogs:
    type: array
    source: {type: build_context}
agents: {}
"""


def test_a_secret_named_catalog_loads_as_the_runtime_does_and_stays_hidden(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    reg = (
        "context_id: c\napplies_to_workflows: [AppGenerator]\n"
        "assets:\n  - {path: .env, kind: catalog}\n"
        "projections: {context_variables: {operator_catalogs: operator_catalogs}}\n"
    )
    root = _ws(workspace, {"c": reg}, SECRET_CONTRACT)
    (root / "build_context" / "c" / ".env").write_text(
        "STRIPE_LIVE: sk_live_51HxQ\nplan_name: gold-tier-plan\n", encoding="utf-8"
    )
    # resolve_context_asset_path has no denylist: the catalog is loaded and projected
    m = _matrix(root)
    assert m.refused is None
    row = m.row("operator_catalogs")
    assert row is not None and row.status == "resolved"
    assert main(["check", str(root), "--build-context"]) == 0
    out = capsys.readouterr().out
    assert (
        "build_context/c/context.yaml:4:12: warning: assets[0].path: asset '.env': the runtime "
        "loads this catalog file; flowctx does not show its contents because it looks like a "
        "secrets file"
    ) in out
    assert main(["matrix", str(root), "--build-context", "--format", "json"]) == 0
    shown = capsys.readouterr().out
    assert "STRIPE_LIVE" in shown  # the key is structure: projections walk it
    assert "sk_live_51HxQ" not in shown and "gold-tier-plan" not in shown


def test_a_secret_named_contract_that_is_no_mapping_fails_the_launch_without_quoting_it(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    reg = (
        "context_id: c\napplies_to_workflows: [AppGenerator]\n"
        "assets:\n  - {path: signing.pem, kind: contract}\n"
    )
    root = _ws(workspace, {"c": reg}, SECRET_CONTRACT)
    (root / "build_context" / "c" / "signing.pem").write_text(
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B: x: y\n-----END PRIVATE KEY-----\n",
        encoding="utf-8",
    )
    m = _matrix(root)
    assert m.refused is not None and m.refused.outcome == "launch_fails"
    assert "contract asset 'signing.pem'" in m.refused.reason
    assert main(["check", str(root), "--build-context"]) == 1
    out = capsys.readouterr().out
    assert "the runtime loads this contract file" in out
    assert "the runtime's provider fails the launch" in out
    assert "MIIEvQIBADANBgkqhkiG9w0B" not in out and "MIIEvQIBADANBgkqhkiG9w0B" not in str(m)
