"""The context_variables.yaml contract: strict fields at every level, trigger rules, exposure,
odd real-world shapes, and tolerant loading (one bad definition never hides the others)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.workspace import WorkflowSnapshot, load_workflow
from flowctx_core.resolve import resolve
from flowctx_core.snapshot import load_snapshot
from tests.conftest import WriteWorkspace

FILE = "workflows/Approvals/context_variables.yaml"


def load(workspace: WriteWorkspace, text: str) -> WorkflowSnapshot:
    root = workspace({FILE: text})
    return load_workflow(root, "Approvals")


def lines(snap: WorkflowSnapshot) -> list[str]:
    return [d.format() for d in snap.diagnostics]


def test_the_minimal_valid_file(workspace: WriteWorkspace) -> None:
    snap = load(workspace, "definitions: {}\nagents: {GreeterAgent: {variables: []}}\n")
    assert snap.diagnostics == ()
    assert snap.variables == ()
    assert dict(snap.agents) == {"GreeterAgent": ()}
    assert snap.contract_file == FILE


def test_real_world_keys_are_accepted(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          plan:
            type: object
            description: The current plan
            authority_class: runtime
            model_visible: true
            tool_visible: false
            persisted: true
            routing: {hint: x}
            authorization: {write: [PlannerAgent]}
            writer_ids: [PlannerAgent]
            source:
              type: data_reference
              database_name: appdb
              collection: plans
              query_template: {app_id: "{{runtime.app_id}}"}
              fields: [plan]
              refresh_strategy: per_turn
              search_by: app_id
          store:
            type: object
            source: {type: data_entity, collection: artifacts, schema: {a: 1}, indexes: [a],
                     write_strategy: upsert}
          score:
            type: integer
            source: {type: computed, computation: f, inputs: [plan], output_type: int,
                     persist_to: x, persist: true}
          weather:
            type: object
            source: {type: external, service: w, operation: get, params: {}, auth: none,
                     cache: {ttl: 5}, retry: 2}
        agents:
          PlannerAgent: {variables: [plan, store, score, weather]}
        """,
    )
    # every key is known; the values are the ones the newest runtime's typed model refuses
    bad = sorted(d.yaml_path for d in snap.diagnostics)
    assert bad == [
        "definitions.plan.authority_class",
        "definitions.plan.authorization",
        "definitions.plan.routing",
        "definitions.plan.source.refresh_strategy",
        "definitions.plan.writer_ids[0]",
        "definitions.score.source.persist_to",
        "definitions.store.source.indexes[0]",
        "definitions.store.source.write_strategy",
        "definitions.weather.source.auth",
        "definitions.weather.source.retry",
    ]
    assert all(
        "the runtime's context model; runtime mozaiks" in d.message for d in snap.diagnostics
    )
    assert snap.refused is not None
    assert [v.name for v in snap.variables] == ["plan", "store", "score", "weather"]
    # the rows can still be resolved: the definitions are kept
    assert all(v.definition is not None for v in snap.variables)
    # the documented contract names the keys, not their value types
    from flowctx_core.model.profiles import get_profile

    documented = load_workflow(snap.root, "Approvals", get_profile("spec"))
    assert documented.diagnostics == () and documented.refused is None


@pytest.mark.parametrize(
    ("spelt", "canonical"),
    [
        ("bool", "boolean"),
        ("Boolean", "boolean"),
        ("int", "integer"),
        ("list", "array"),
        ("str", "string"),
        ("dict", "object"),
        ("number", "number"),
    ],
)
def test_type_aliases_have_one_canonical_name(
    workspace: WriteWorkspace, spelt: str, canonical: str
) -> None:
    snap = load(
        workspace,
        f"definitions:\n  x:\n    type: {spelt}\n    source: {{type: state}}\nagents: {{}}\n",
    )
    assert snap.diagnostics == ()
    assert snap.variables[0].definition is not None
    assert snap.variables[0].definition.canonical_type == canonical


UNKNOWN_FIELDS = {
    "root": (
        "definitons: {}\nagents: {}\n",
        f"{FILE}:1:1: definitons: unknown field (did you mean 'definitions'?)",
    ),
    "definition": (
        "definitions:\n  x:\n    type: string\n    descripton: d\n    source: {type: state}\n",
        f"{FILE}:4:5: definitions.x.descripton: unknown field (did you mean 'description'?)",
    ),
    "source": (
        "definitions:\n  x:\n    source:\n      type: data_reference\n      collection: c\n"
        "      feilds: [a]\n",
        f"{FILE}:6:7: definitions.x.source.feilds: unknown field (did you mean 'fields'?)",
    ),
    "trigger": (
        "definitions:\n  x:\n    source:\n      type: state\n      triggers:\n"
        "        - type: agent_text\n          agnet: A\n          match: {equals: hi}\n",
        f"{FILE}:7:11: definitions.x.source.triggers[0].agnet: unknown field "
        "(did you mean 'agent'?)",
    ),
    "match": (
        "definitions:\n  x:\n    source:\n      type: state\n      triggers:\n"
        "        - {type: user_text, match: {containz: ok}}\n",
        f"{FILE}:6:37: definitions.x.source.triggers[0].match.containz: unknown field "
        "(did you mean 'contains'?)",
    ),
    "agent view": (
        "definitions: {}\nagents:\n  A:\n    variabls: []\n",
        f"{FILE}:4:5: agents.A.variabls: unknown field (did you mean 'variables'?)",
    ),
}


@pytest.mark.parametrize("level", list(UNKNOWN_FIELDS))
def test_unknown_fields_at_every_level(workspace: WriteWorkspace, level: str) -> None:
    text, expected = UNKNOWN_FIELDS[level]
    snap = load(workspace, text)
    assert expected in lines(snap)


def test_unknown_field_without_a_close_match_has_no_hint(workspace: WriteWorkspace) -> None:
    snap = load(workspace, "definitions: {}\nagents: {}\nzzz: 1\n")
    assert lines(snap) == [f"{FILE}:3:1: zzz: unknown field"]


TRIGGER_RULES = [
    (
        "{type: agent_text, match: {equals: done}}",
        "an agent_text trigger needs 'agent' and 'match'",
    ),
    ("{type: agent_text, agent: A}", "an agent_text trigger needs 'agent' and 'match'"),
    ("{type: user_text}", "a user_text trigger needs 'match'"),
    ("{type: ui_response, response_key: a.b}", "a ui_response trigger needs 'tool'"),
    ("{type: user_text, match: {}}", "match needs at least one of equals, contains, regex"),
    ("{type: user_text, match: {regex: '('}}", "invalid regex '('"),
    ("{type: agent_txt, agent: A, match: {equals: x}}", "Input should be 'agent_text'"),
]


@pytest.mark.parametrize(("trigger", "message"), TRIGGER_RULES)
def test_trigger_rules(workspace: WriteWorkspace, trigger: str, message: str) -> None:
    text = (
        "definitions:\n  done:\n    type: boolean\n    source:\n      type: state\n"
        f"      triggers:\n        - {trigger}\nagents: {{}}\n"
    )
    snap = load(workspace, text)
    [d] = snap.diagnostics
    assert d.file == FILE and d.line == 7
    assert d.yaml_path.startswith("definitions.done.source.triggers[0]")
    assert message in d.message
    assert snap.variables[0].definition is None
    assert snap.variables[0].errors == (d,)


@pytest.mark.parametrize(
    "trigger",
    [
        "{type: agent_text, agent: A, match: {equals: done}}",
        "{type: agent_text, agent: A, match: {regex: 'plan (\\w+)'}, ui_hidden: true}",
        "{type: user_text, match: {contains: approve}}",
        "{type: ui_response, tool: submit, response_key: answers.ok}",
        "{type: ui_response, tool: submit}",
    ],
)
def test_valid_triggers(workspace: WriteWorkspace, trigger: str) -> None:
    text = (
        "definitions:\n  done:\n    type: boolean\n    source:\n      type: state\n"
        f"      triggers:\n        - {trigger}\nagents: {{A: {{variables: [done]}}}}\n"
    )
    snap = load(workspace, text)
    assert snap.diagnostics == ()
    assert snap.variables[0].definition is not None


def test_undeclared_agent_variables_are_named(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          approved: {type: boolean, source: {type: state}}
        agents:
          Reviewer:
            variables: [approved, aproved, budget]
          Writer:
            variables: [aprovd]
        """,
    )
    assert lines(snap) == [
        f"{FILE}:5:5: agents.Reviewer.variables: agent 'Reviewer' exposes undeclared "
        "variable(s) 'aproved', 'budget'",
        f"{FILE}:7:5: agents.Writer.variables: agent 'Writer' exposes undeclared "
        "variable(s) 'aprovd' (did you mean 'approved'?)",
    ]
    assert snap.agents_of("approved") == ("Reviewer",)


def test_missing_required_fields(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          policy:
            type: object
            source: {type: data_reference, database_name: appdb}
          settings:
            type: object
            source: {type: file}
          nosource:
            type: string
          notype:
            source: {env_var: X}
        agents: {}
        """,
    )
    # a collection is optional in the runtime's source model (the adapter fetches nothing)
    assert lines(snap) == [
        f"{FILE}:7:5: definitions.settings.source: missing required field 'path'",
        f"{FILE}:8:3: definitions.nosource: missing required field 'source'",
        f"{FILE}:11:5: definitions.notype.source: missing required field 'type'",
    ]


def test_unknown_source_type_is_reported_precisely(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          session_id:
            type: string
            source: {type: runtime}
          flag:
            type: boolean
            source: {type: confg, env_var: FLAG}
        agents: {}
        """,
    )
    # mozaiks 0.2.0 reads 'runtime' sources (mozaiksai/core/workflow/context/schema.py)
    assert lines(snap) == [
        f"{FILE}:7:20: definitions.flag.source.type: source type 'confg' is refused by runtime "
        "mozaiks-0.2.0 (did you mean 'config'?): its contract model (mozaiks 0.2.0) "
        "accepts only config, data_reference, data_entity, computed, state, external, file, "
        "build_context, runtime, so the runtime's validation fails here",
    ]


def test_wrong_value_types_are_located_at_the_value(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          flag:
            type: boolean
            source: {type: config, required: maybe}
          names:
            type: [a]
            source: {type: state}
        agents: {}
        """,
    )
    msgs = lines(snap)
    assert len(msgs) == 2
    assert msgs[0].startswith(f"{FILE}:4:38: definitions.flag.source.required: Input should be")
    assert msgs[1].startswith(f"{FILE}:6:11: definitions.names.type: Input should be")


def test_duplicate_definitions_are_reported(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          flag: {type: boolean, source: {type: state, default: true}}
          flag: {type: boolean, source: {type: state, default: false}}
        agents: {}
        """,
    )
    assert lines(snap) == [
        f"{FILE}:3:3: definitions.flag: duplicate key 'flag' (first defined at line 2); "
        "the last one would silently win"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", f"{FILE}:1:1: file is empty; expected 'definitions' and 'agents'"),
        (
            "- a\n- b\n",
            f"{FILE}:1:1: the file must be a mapping with definitions, agents, found list",
        ),
        (
            "definitions: 5\nagents: {}\n",
            f"{FILE}:1:1: definitions: definitions must be a map (name -> definition)",
        ),
        (
            "definitions: {}\nagents: [A, B]\n",
            f"{FILE}:2:1: agents: agents must be a map (agent -> {{variables: [...]}})",
        ),
        (
            "definitions:\n  x: hello\nagents: {}\n",
            f"{FILE}:2:6: definitions.x: a definition must be a mapping with 'type' and 'source'",
        ),
        (
            "definitions:\n  x: {type: string, source: config}\nagents: {}\n",
            f"{FILE}:2:29: definitions.x.source: Input should be a valid dictionary or object "
            "to extract fields from",
        ),
        (
            "definitions: {}\nagents:\n  A: [x]\n",
            f"{FILE}:3:6: agents.A: Input should be a valid dictionary or instance of AgentView",
        ),
    ],
)
def test_odd_shapes_are_reported_without_a_traceback(
    workspace: WriteWorkspace, text: str, expected: str
) -> None:
    snap = load(workspace, text)
    assert expected in lines(snap)


def test_definitions_as_a_list_are_reported_and_still_shown(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          - name: approved
            type: boolean
            source: {type: state, default: false}
          - name: region
            type: string
            source: {type: config, env_var: REGION, default: eu}
          - type: string
            source: {type: state}
        agents:
          A: {variables: [approved, region]}
        """,
    )
    assert lines(snap) == [
        f"{FILE}:1:1: definitions: definitions must be a map (name -> definition), found a list",
        f"{FILE}:8:5: definitions[2]: list entry without a 'name'",
    ]
    matrix = resolve(load_snapshot(snap.root, {}, workflows=[], preloaded=[snap]), ResolveInputs())
    assert matrix.row("approved").value is False  # type: ignore[union-attr]
    # declared env var unset: the runtime reads None, whatever the default
    assert matrix.row("region").value is None  # type: ignore[union-attr]
    assert matrix.refused is not None and matrix.refused.line == 1


def test_the_older_runtime_reads_lists_and_ignores_unknown_keys(
    workspace: WriteWorkspace,
) -> None:
    from flowctx_core.model.profiles import get_profile

    older = get_profile("mozaiks-2026-01")
    root = workspace(
        {
            FILE: (
                """\
                definitions:
                  - name: approved
                    type: boolean
                    source: {type: state, default: false, transitions: [x]}
                  - key: builds
                    type: object
                    source: {type: data_reference, db_type: mongodb, collection: builds}
                  - type: string
                    source: {type: state}
                agents:
                  - agent: Reviewer
                    variables: [approved, builds]
                """
            )
        }
    )
    snap = load_workflow(root, "Approvals", older)
    assert sorted(d.format() for d in snap.diagnostics) == [
        f"{FILE}:4:43: warning: definitions[0].source.transitions: unknown field; "
        "ignored by runtime mozaiks-2026-01",
        f"{FILE}:7:36: warning: definitions[1].source.db_type: unknown field; "
        "ignored by runtime mozaiks-2026-01",
        f"{FILE}:8:5: warning: definitions[2]: list entry without a 'name': "
        "runtime mozaiks-2026-01 drops it",
    ]
    assert snap.refused is None
    assert [v.name for v in snap.variables] == ["approved", "builds"]
    assert snap.agents_of("builds") == ("Reviewer",)


def test_the_older_runtime_loads_an_empty_plan_when_one_definition_is_invalid(
    workspace: WriteWorkspace,
) -> None:
    from flowctx_core.model.profiles import get_profile

    root = workspace(
        {
            FILE: (
                """\
                definitions:
                  ok: {type: string, source: {type: state, default: hi}}
                  slot: {type: object, source: {type: build_context}}
                agents: {}
                """
            )
        }
    )
    snap = load_workflow(root, "Approvals", get_profile("mozaiks-2026-01"))
    assert snap.refused is not None
    assert snap.refused.outcome == "empty_plan"
    assert (snap.refused.line, snap.refused.column) == (3, 39)
    assert "source type 'build_context' is refused by runtime mozaiks-2026-01" in (
        snap.refused.reason
    )
    # every row that can still be resolved is shown
    older = get_profile("mozaiks-2026-01")
    whole = load_snapshot(snap.root, {}, workflows=[], preloaded=[snap], runtime=older)
    matrix = resolve(whole, ResolveInputs())
    assert matrix.row("ok").value == "hi"  # type: ignore[union-attr]


def test_one_bad_definition_does_not_hide_the_others(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        """
        definitions:
          before:
            type: string
            source: {type: state, default: first}
          broken:
            type: string
            source: {type: remote}
          misspelt:
            type: object
            source: {type: data_reference, colection: x}
          after:
            type: integer
            source: {type: config, env_var: LIMIT, default: "7"}
        agents:
          A: {variables: [before, broken, misspelt, after]}
        """,
    )
    matrix = resolve(load_snapshot(snap.root, {}, workflows=[], preloaded=[snap]), ResolveInputs())
    names = [r.name for r in matrix.rows if r.source != "runtime"]
    assert names == ["before", "broken", "misspelt", "after"]
    statuses = {r.name: r.status for r in matrix.rows}
    # "after": nothing answered (the env var is unset, its default unused)
    assert statuses["before"] == "default" and statuses["after"] == "missing"
    # the env var is declared and unset: the runtime ignores the default
    assert matrix.row("after").value is None  # type: ignore[union-attr]
    # the runtime validates the whole plan at once: the first error refuses the workflow
    assert matrix.refused is not None
    assert (matrix.refused.line, matrix.refused.outcome) == (7, "refused")
    assert "source type 'remote' is refused by runtime mozaiks-0.2.0" in matrix.refused.reason
    broken = matrix.row("broken")
    misspelt = matrix.row("misspelt")
    assert broken is not None and misspelt is not None
    assert broken.status == "error" and broken.value is None
    assert broken.source == "remote"
    assert "source type 'remote' is refused" in (broken.error or "")
    assert misspelt.status == "error"
    assert "colection: unknown field (did you mean 'collection'?)" in (misspelt.error or "")
    assert broken.agents == ("A",)
    assert [s.outcome for s in broken.trace] == ["error"]
    assert broken.loc is not None and (broken.loc.line, broken.loc.column) == (5, 3)
    # the workflow-level list holds every problem, each once
    assert len(matrix.errors) == 2


def test_a_file_with_syntax_errors_has_no_rows_and_one_located_error(
    workspace: WriteWorkspace,
) -> None:
    snap = load(workspace, "definitions:\n  x: {type: string\nagents: {}\n")
    assert snap.variables == ()
    [d] = snap.diagnostics
    assert (d.line, d.column) == (2, 6)  # the '{' left open
    assert d.message.startswith("YAML syntax error: this '{' is not closed")


def test_missing_contract_file_is_a_diagnostic(tmp_path: Path) -> None:
    (tmp_path / "workflows" / "Empty").mkdir(parents=True)
    snap = load_workflow(tmp_path, "Empty")
    assert sorted(d.format() for d in snap.diagnostics) == [
        "workflows/Empty/context_variables.yaml: workflow 'Empty' has no context_variables.yaml"
    ]


def test_a_misspelt_source_type_key_is_named(workspace: WriteWorkspace) -> None:
    snap = load(
        workspace,
        "definitions:\n  a:\n    type: string\n    source: {tpye: config, env_var: X}\n"
        "agents: {}\n",
    )
    assert lines(snap) == [
        f"{FILE}:4:5: definitions.a.source: missing required field 'type'",
        f"{FILE}:4:14: definitions.a.source.tpye: unknown field (did you mean 'type'?)",
    ]
