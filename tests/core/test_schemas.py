"""``flowctx schema``: JSON Schemas generated from the validating models, checked with the
``jsonschema`` package against the demo's files, broken files, and ``flowctx check``'s own
verdict on the same files under each runtime profile."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from pydantic import TypeAdapter, ValidationError

from flowctx_core.model.profiles import PROFILES
from flowctx_core.report.schemas import SCHEMA_FILES
from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path
from tests.conftest import write_tree

DEMO = demo_path()


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("FLOWCTX_", "MOZAIKS_", "CONTEXT_")):
            monkeypatch.delenv(name, raising=False)


def schema_via_cli(capsys: pytest.CaptureFixture[str], kind: str, runtime: str) -> Any:
    assert main(["schema", kind, "--runtime", runtime]) == 0
    return json.loads(capsys.readouterr().out)


def errors(schema: dict[str, Any], data: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [e.message for e in validator.iter_errors(data)]


@pytest.mark.parametrize("runtime", list(PROFILES))
@pytest.mark.parametrize("kind", list(SCHEMA_FILES))
def test_every_schema_is_valid_json_schema_and_names_its_runtime(
    kind: str, runtime: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schema_via_cli(capsys, kind, runtime)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == f"{SCHEMA_FILES[kind]} (runtime {runtime})"
    assert PROFILES[runtime].label in schema["description"]


@pytest.mark.parametrize("runtime", ["mozaiks", "spec"])
@pytest.mark.parametrize("kind", list(SCHEMA_FILES))
def test_the_demos_files_validate(
    kind: str, runtime: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schema_via_cli(capsys, kind, runtime)
    files = sorted(DEMO.rglob(SCHEMA_FILES[kind]))
    assert files, kind
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert errors(schema, data) == [], path


def test_the_older_runtime_rejects_the_demo_contract_where_check_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    schema = schema_via_cli(capsys, "contract", "mozaiks-2026-01")
    path = DEMO / "workflows/AppGenerator/context_variables.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    # the map branch of 'definitions' fails at each definition the runtime does not know
    refused = {
        path[1]
        for e in validator.iter_errors(data)
        for path in leaf_paths(e)
        if len(path) > 1 and path[0] == "definitions"
    }
    assert main(["check", str(DEMO), "-w", "AppGenerator", "--runtime", "mozaiks-2026-01",
                 "--format", "json"]) == 1  # fmt: skip
    said = json.loads(capsys.readouterr().out)["problems"]
    in_error = {
        p["message"].split(".")[1]
        for p in said
        if p["severity"] == "error" and p["message"].startswith("definitions.")
    }
    # a build_context source or a user_text trigger: unknown to that runtime
    assert refused == in_error and "capability_packs" in refused and "plan_approved" in refused


def leaf_paths(error: jsonschema.ValidationError) -> list[tuple[Any, ...]]:
    if not error.context:
        return [tuple(error.absolute_path)]
    return [path for sub in error.context for path in leaf_paths(sub)]


BROKEN: dict[str, tuple[str, str]] = {
    # kind: (file text, what check says about it)
    "contract": (
        "definitions:\n  x:\n    type: string\n    source: {type: config, env_vr: X}\n",
        "unknown field",
    ),
    "flow": ("steps:\n  - {name: A, type: Sub-Agent, starting: yes-please}\n", "starting"),
    "transitions": (
        "transition_rules:\n  - {source_agent: A, target_agent: B, transition_type: sometimes}\n",
        "transition_type",
    ),
    "handoffs": (
        "handoff_rules:\n  - {source_agent: A, target_agent: B, handoff_type: after_work, "
        "condition_scope: later}\n",
        "condition_scope",
    ),
    "registry": ("context_id: r\nassets: []\npack: {id: Bad-Id, version: '1'}\n", "pack id"),
}


@pytest.mark.parametrize("kind", list(SCHEMA_FILES))
def test_a_broken_file_is_rejected_by_its_schema_and_by_check(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, said = BROKEN[kind]
    file = SCHEMA_FILES[kind]
    where = "build_context/r" if kind == "registry" else "workflows/W"
    files = {
        f"{where}/{file}": text,
        "workflows/W/orchestrator.yaml": "name: W\n",
    }
    if kind != "contract":
        files["workflows/W/context_variables.yaml"] = "definitions: {}\n"
    root = write_tree(tmp_path / "ws", files)
    schema = schema_via_cli(capsys, kind, "mozaiks")
    assert errors(schema, yaml.safe_load(text)), kind
    main(["check", str(root), "--format", "json", "--quiet"])
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert any(p["file"] == f"{where}/{file}" and said in p["message"] for p in problems), problems


# --- the schema agrees with check, profile by profile -----------------------------------------

CONFIG = {"type": "config", "env_var": "X"}
VARIANTS: dict[str, Any] = {
    "plain": {"definitions": {"x": {"type": "string", "source": CONFIG}}},
    "unknown root key": {"definitions": {}, "defintions": {}},
    "unknown definition key": {"definitions": {"x": {"source": CONFIG, "colour": "red"}}},
    "unknown source key": {"definitions": {"x": {"source": {**CONFIG, "env": "X"}}}},
    "build_context source": {"definitions": {"x": {"source": {"type": "build_context"}}}},
    "user_text trigger": {
        "definitions": {
            "x": {
                "source": {
                    "type": "state",
                    "triggers": [{"type": "user_text", "match": {"equals": "go"}}],
                }
            }
        }
    },
    "list of definitions": {"definitions": [{"name": "x", "source": CONFIG}]},
    "list of agents": {
        "definitions": {"x": {"source": CONFIG}},
        "agents": [{"agent": "A", "variables": ["x"]}],
    },
    "wrapped root": {"context_variables": {"definitions": {"x": {"source": CONFIG}}}},
    "typed source field": {
        "definitions": {
            "x": {
                "source": {
                    "type": "data_reference",
                    "database_name": "d",
                    "collection": "c",
                    "refresh_strategy": "sometimes",
                }
            }
        }
    },
    "typed authority field": {"definitions": {"x": {"source": CONFIG, "authority_class": "x"}}},
    "reserved name": {"definitions": {"structured_output": {"source": CONFIG}}},
    "reserved prefix": {"definitions": {"ag:x": {"source": CONFIG}}},
    "documented key": {
        "definitions": {"x": {"source": CONFIG, "immutable_runtime_authority": True}}
    },
    "unknown file format": {
        "definitions": {"x": {"source": {"type": "file", "path": "a", "format": "xml"}}}
    },
    "string bool": {"definitions": {"x": {"source": {**CONFIG, "required": "yes"}}}},
    "bad string bool": {"definitions": {"x": {"source": {**CONFIG, "required": "maybe"}}}},
    "unknown source type": {"definitions": {"x": {"source": {"type": "secret"}}}},
    "agent view key": {
        "definitions": {"x": {"source": CONFIG}},
        "agents": {"A": {"variables": ["x"], "tools": []}},
    },
}


@pytest.mark.parametrize("runtime", list(PROFILES))
def test_the_contract_schema_accepts_what_check_accepts(
    runtime: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schema_via_cli(capsys, "contract", runtime)
    disagreements = []
    for name, contract in VARIANTS.items():
        root = write_tree(
            tmp_path / name.replace(" ", "_"),
            {
                "workflows/W/context_variables.yaml": yaml.safe_dump(contract),
                "workflows/W/orchestrator.yaml": "name: W\n",
            },
        )
        main(["check", str(root), "--runtime", runtime, "--format", "json"])
        problems = json.loads(capsys.readouterr().out)["problems"]
        contract_errors = [
            p for p in problems if p["severity"] == "error" and p["code"] in ("contract", "yaml")
        ]
        by_schema = errors(schema, contract)
        if bool(by_schema) != bool(contract_errors):
            disagreements.append((name, by_schema, contract_errors))
    assert disagreements == []


def test_the_profiles_differ_where_the_runtimes_do(capsys: pytest.CaptureFixture[str]) -> None:
    newest = schema_via_cli(capsys, "contract", "mozaiks")
    older = schema_via_cli(capsys, "contract", "mozaiks-2026-01")
    listed = VARIANTS["list of definitions"]
    assert errors(newest, listed) and not errors(older, listed)
    extra = VARIANTS["unknown definition key"]
    assert errors(newest, extra) and not errors(older, extra)
    assert newest["additionalProperties"] is False
    assert "additionalProperties" not in older


# --- what the validators accept besides the field's type ---------------------------------------


def test_case_and_padding_the_loaders_fold_are_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    transitions = schema_via_cli(capsys, "transitions", "mozaiks")
    rule = {
        "source_agent": "A",
        "target_agent": "B",
        "transition_type": "condition",
        "condition_type": " Context_Equals ",
        "condition_key": "k",
        "condition_value": True,
    }
    assert errors(transitions, {"transition_rules": [rule]}) == []
    assert errors(transitions, {"transition_rules": [{**rule, "condition_type": "equals"}]})
    # the flowctx shape takes a bare agent name as its target
    brief = {"source": "A", "transition_type": "after_turn", "target": "B"}
    assert errors(transitions, {"transitions": [brief]}) == []
    # one shape per file
    assert errors(transitions, {"transitions": [brief], "transition_rules": []})
    flow = schema_via_cli(capsys, "flow", "mozaiks")
    step = {"name": "A", "type": "Prompt", "starting": True}
    # the Python spelling of 'from' is read too; a quoted priority is refused (StrictInt)
    assert errors(flow, {"steps": [step], "paths": [{"from_": "A", "to": "A"}]}) == []
    assert errors(flow, {"steps": [step], "paths": [{"from": "A", "to": "A", "priority": "1"}]})
    assert errors(flow, {"steps": []})  # "the flow has no steps"


@pytest.mark.parametrize(
    "value",
    ["yes", "YES", " yes ", "on", "Off", "t", "F", "1", "0", "2", 2, 0, 1, 1.0, 0.5, "", "tru"],
)
def test_a_lax_bool_takes_what_pydantic_takes(
    value: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schema_via_cli(capsys, "contract", "mozaiks")
    contract = {"definitions": {"x": {"source": {**CONFIG, "required": value}}}}
    try:
        TypeAdapter(bool).validate_python(value)
        pydantic_ok = True
    except ValidationError:
        pydantic_ok = False
    assert (errors(schema, contract) == []) == pydantic_ok


def test_schema_follows_the_workspace_runtime_and_refuses_an_unknown_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_tree(
        tmp_path / "ws",
        {"workflows/W/context_variables.yaml": "{}\n", "flowctx.yaml": "runtime: spec\n"},
    )
    monkeypatch.chdir(root / "workflows" / "W")
    assert main(["schema", "contract"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "context_variables.yaml (runtime spec)"
    assert main(["schema", "contract", "--runtime", "mozaiks-2025"]) == 2
    assert "unknown runtime 'mozaiks-2025'" in capsys.readouterr().err


# kind -> variants of a routing file or a registry, each alone and breaking no cross-field
# rule, so the schema and check must give the same verdict on it
ROUTING_VARIANTS: dict[str, dict[str, Any]] = {
    "flow": {
        "plain": {"steps": [{"name": "A", "type": "Prompt", "starting": True}]},
        "python spelling": {
            "steps": [{"name": "A", "type": "Prompt", "starting": True}],
            "paths": [{"from_": "A", "to": "A", "condition": "true"}],
        },
        "unknown key": {"steps": [{"name": "A", "type": "Prompt", "starting": True}], "x": 1},
        "quoted priority": {
            "steps": [{"name": "A", "type": "Prompt", "starting": True}],
            "paths": [{"from": "A", "to": "A", "priority": "2"}],
        },
        "unknown step type": {"steps": [{"name": "A", "type": "Agent", "starting": True}]},
        "agent not text": {
            "agent": 3,
            "steps": [{"name": "A", "type": "Prompt", "starting": True}],
        },
    },
    "handoffs": {
        "plain": {
            "handoff_rules": [
                {"source_agent": "A", "target_agent": "B", "handoff_type": "after_work"}
            ]
        },
        "scope in capitals": {
            "handoff_rules": [
                {
                    "source_agent": "A",
                    "target_agent": "B",
                    "handoff_type": "condition",
                    "condition": "the user approved the plan",
                    "condition_type": "LLM",
                    "condition_scope": " PRE ",
                }
            ]
        },
        "unknown scope": {
            "handoff_rules": [
                {
                    "source_agent": "A",
                    "target_agent": "B",
                    "handoff_type": "after_work",
                    "condition_scope": "later",
                }
            ]
        },
        "unknown top key": {"handoff_rule": []},
    },
    "transitions": {
        "runtime shape": {
            "transition_rules": [
                {"source_agent": "A", "target_agent": "user", "transition_type": "after_turn"}
            ]
        },
        "brief shape with a bare target": {
            "transitions": [{"source": "A", "target": "B", "transition_type": "after_turn"}]
        },
        "brief key in the runtime shape": {
            "transition_rules": [
                {"source": "A", "target_agent": "B", "transition_type": "after_turn"}
            ]
        },
        "unknown target type": {
            "transitions": [
                {"source": "A", "target": {"type": "Nowhere"}, "transition_type": "after_turn"}
            ]
        },
        "both shapes": {"transitions": [], "transition_rules": []},
    },
    "registry": {
        "plain": {"context_id": "r", "assets": [], "projections": {"context_variables": {}}},
        "projections": {
            "context_id": "r",
            "assets": [],
            "values": {"a": {"b": 1}},
            "projections": {"context_variables": {"x": "a.b", "y": {"from": "a.b"}}},
        },
        "not a dotted path": {
            "context_id": "r",
            "assets": [],
            "projections": {"context_variables": {"x": "a..b"}},
        },
        "from not dotted": {
            "context_id": "r",
            "assets": [],
            "projections": {"context_variables": {"x": {"from": "a b"}}},
        },
        "numeric version": {"context_id": "r", "assets": [], "pack": {"id": "p", "version": 1}},
        "pack id": {"context_id": "r", "assets": [], "pack": {"id": "p.1x", "version": "1"}},
        "no assets": {"context_id": "r"},
        "unknown asset kind": {"context_id": "r", "assets": [{"path": "a", "kind": "blob"}]},
    },
}


@pytest.mark.parametrize("kind", list(ROUTING_VARIANTS))
def test_the_routing_and_registry_schemas_accept_what_check_accepts(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schema_via_cli(capsys, kind, "mozaiks")
    where = ("build_context/r/" if kind == "registry" else "workflows/W/") + SCHEMA_FILES[kind]
    disagreements = []
    for name, data in ROUTING_VARIANTS[kind].items():
        root = write_tree(
            tmp_path / name.replace(" ", "_"),
            {
                "workflows/W/context_variables.yaml": "definitions: {}\n",
                "workflows/W/orchestrator.yaml": "name: W\n",
                where: yaml.safe_dump(data),
            },
        )
        main(["check", str(root), "--format", "json", "--quiet"])
        problems = json.loads(capsys.readouterr().out)["problems"]
        in_file = [p for p in problems if p["file"] == where]
        if bool(errors(schema, data)) != bool(in_file):
            disagreements.append((name, errors(schema, data), in_file))
    assert disagreements == []


# --- what an editor shows: descriptions, and each source type's own keys ---------------------


def _properties(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every (path, property schema) of a schema, ``$defs`` included."""
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, prop in value.items():
                    out.append((f"{where}/{name}", prop))
                    out += _properties(prop, f"{where}/{name}")
            else:
                out += _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for n, value in enumerate(node):
            out += _properties(value, f"{where}/{n}")
    return out


@pytest.mark.parametrize("runtime", list(PROFILES))
@pytest.mark.parametrize("kind", list(SCHEMA_FILES))
def test_every_property_has_a_description(
    kind: str, runtime: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schema_via_cli(capsys, kind, runtime)
    found = _properties(schema)
    assert found
    bare = [where for where, prop in found if not prop.get("description")]
    assert bare == []
    # yaml-language-server's hover showed pydantic's titles ("Env Var"): now it says what it is
    config = schema["$defs"]["ConfigSource"]["properties"] if kind == "contract" else {}
    if config:
        assert "environment variable" in config["env_var"]["description"]


def _contract(source: dict[str, Any]) -> dict[str, Any]:
    return {"definitions": {"v": {"type": "string", "source": source}}}


@pytest.mark.parametrize("runtime", list(PROFILES))
def test_a_source_offers_only_its_own_types_keys(
    runtime: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schema_via_cli(capsys, "contract", runtime)
    defs = schema["$defs"]
    assert "query_template" in defs["DataReferenceSource"]["properties"]
    for name, member in defs.items():
        if name.endswith("Source") and name != "DataReferenceSource":
            assert "query_template" not in member.get("properties", {}), name
    # the runtime's own flat source model is not offered beside every source type any more
    assert "RuntimeSourceTypes" not in defs


def test_a_config_source_with_query_template_is_refused_by_a_real_validator(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    newest = schema_via_cli(capsys, "contract", "mozaiks")
    wrong = _contract({"type": "config", "env_var": "X", "query_template": {"a": 1}})
    assert errors(newest, wrong)
    right = _contract(
        {"type": "data_reference", "database_name": "d", "collection": "c", "query_template": {}}
    )
    assert errors(newest, right) == []
    # the runtime's types still hold under the type that takes the key
    typed = _contract({"type": "data_reference", "collection": "c", "query_template": 5})
    assert errors(newest, typed)
    # and check says the same of the config one
    root = write_tree(
        tmp_path / "w",
        {
            "workflows/W/context_variables.yaml": yaml.safe_dump(wrong),
            "workflows/W/orchestrator.yaml": "name: W\n",
        },
    )
    main(["check", str(root), "--format", "json"])
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert any("query_template" in p["message"] and p["code"] == "contract" for p in problems)


def test_the_older_runtime_ignores_another_types_key_but_still_types_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    older = schema_via_cli(capsys, "contract", "mozaiks-2026-01")
    ignored = _contract({"type": "config", "env_var": "X", "query_template": {"a": 1}})
    assert errors(older, ignored) == []
    mistyped = _contract({"type": "config", "env_var": "X", "query_template": 5})
    assert errors(older, mistyped)
