"""One reload for the app: what is broken (stale), what is a problem, what to watch."""

from __future__ import annotations

from pathlib import Path

from flowctx_core.session import open_session
from flowctx_tui.loader import load

GOOD = """
definitions:
  a: {type: string, source: {type: state, default: x}}
  data: {type: object, source: {type: file, path: data/catalog.json}}
  key: {type: string, source: {type: config, env_var: SERVICE_TOKEN, required: true}}
agents:
  A: {variables: [a]}
"""


def test_a_good_contract_is_not_broken_and_lists_row_errors_as_problems(workspace):
    root = workspace({"workflows/W/context_variables.yaml": GOOD, "data/catalog.json": {"x": 1}})
    result = load(open_session(root, env={}), "W", {}, {})
    assert result.broken == ()
    assert [r.name for r in result.matrix.rows][:3] == ["a", "data", "key"]
    problems = [d.format() for d in result.problems]
    assert any("Required config variable 'key' is not set" in p for p in problems), problems
    assert result.contract_file == "workflows/W/context_variables.yaml"
    assert result.contract_lines[0] == "definitions:"


def test_syntax_errors_and_unparseable_contracts_are_broken(workspace):
    root = workspace({"workflows/W/context_variables.yaml": "definitions:\n  a: [\n"})
    result = load(open_session(root, env={}), "W", {}, {})
    assert result.broken and "YAML syntax error" in result.broken[0].message
    assert result.problems == result.broken  # no noise from resolving nothing
    (root / "workflows/W/context_variables.yaml").write_text("definitions: 3\n")
    result = load(open_session(root, env={}), "W", {}, {})
    assert result.broken and "definitions must be a map" in result.broken[0].message


def test_one_bad_definition_is_not_broken(workspace):
    bad = GOOD.replace("type: state, default: x", "type: stat, default: x")
    root = workspace({"workflows/W/context_variables.yaml": bad})
    result = load(open_session(root, env={}), "W", {}, {})
    assert result.broken == ()
    assert result.matrix.row("a").status == "error"


def test_a_broken_profile_is_broken(workspace):
    root = workspace({"workflows/W/context_variables.yaml": GOOD, "flowctx.yaml": "env: [\n"})
    result = load(open_session(root, env={}), "W", {}, {})
    assert result.broken and result.broken[0].file == "flowctx.yaml"


def test_watched_files_follow_the_inputs(workspace, tmp_path: Path):
    root = workspace({"workflows/W/context_variables.yaml": GOOD})
    session = open_session(root, env={})
    result = load(session, "W", {"MOZAIKS_CONTEXT_FALLBACKS_FILE": "fb/f.json"}, {})
    assert root / "data" / "catalog.json" in result.watched
    assert root / "fb" / "f.json" in result.watched


def test_changed_seed_and_profile_files_reload_the_session(workspace):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
                definitions:
                  user:
                    type: string
                    source: {type: data_reference, database_name: default, collection: users,
                             fields: [name],
                             query_template: {id: u1}}
                  model: {type: string, source: {type: config, env_var: MODEL}}
                """,
            "seed/default/users.json": [{"id": "u1", "name": "Ada"}],
            "flowctx.yaml": "env: {MODEL: one}\n",
        }
    )
    session = open_session(root, env={})
    first = load(session, "W", {}, {})
    assert first.matrix.row("user").value == "Ada"
    assert first.matrix.row("model").value == "one"
    (root / "seed/default/users.json").write_text('[{"id": "u1", "name": "Grace"}]')
    (root / "flowctx.yaml").write_text("env: {MODEL: two}\n")
    changed = {root / "seed/default/users.json", root / "flowctx.yaml"}
    second = load(session, "W", {}, {}, changed)
    assert second.matrix.row("user").value == "Grace"
    assert second.matrix.row("model").value == "two"
