"""``data_reference`` against the real embedded database (montydb seeded from seed/ files):
filters and placeholders, projection, newest document, default, fallbacks, database failures."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.model.database import MongoDatabase
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.model.workspace import load_workflow
from flowctx_core.resolve import resolve
from flowctx_core.session import Session, open_session
from flowctx_core.snapshot import load_snapshot
from tests.conftest import WriteWorkspace

POLICIES = [
    {"app_id": "app-1", "limit": 10, "owner": "ops", "name": "first"},
    {"app_id": "app-2", "limit": 50, "owner": "sales", "name": "other app"},
    {"app_id": "app-1", "limit": 20, "owner": "ops", "name": "second"},
    {"app_id": "app-1", "limit": 30, "owner": "risk", "name": "newest"},
    {"app_id": "literal", "name": "prefix-{{runtime.app_id}}", "limit": 99},
]


def definition(name: str, source: str, type_: str = "object") -> str:
    return f"  {name}:\n    type: {type_}\n    source: {source}\n"


def contract(*defs: str) -> str:
    names = [d.split(":", 1)[0].strip() for d in defs]
    return "definitions:\n" + "".join(defs) + f"agents:\n  A: {{variables: [{', '.join(names)}]}}\n"


def make(
    workspace: WriteWorkspace,
    *defs: str,
    files: dict[str, Any] | None = None,
    workflow: str = "Approvals",
) -> Path:
    tree: dict[str, Any] = {
        f"workflows/{workflow}/context_variables.yaml": contract(*defs),
        "seed/appdb/policies.json": POLICIES,
    }
    tree.update(files or {})
    return workspace(tree)


def run(
    root: Path,
    *,
    launch: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    workflow: str = "Approvals",
) -> Matrix:
    session = open_session(root, env=env or {})
    assert session.database_problems == []
    return session.matrix(workflow, launch=launch or {"app_id": "app-1"})


def row(m: Matrix, name: str) -> Row:
    r = m.row(name)
    assert r is not None, name
    return r


def steps(r: Row) -> list[tuple[str, str]]:
    return [(s.step, s.outcome) for s in r.trace]


def test_missing_query_template_means_this_app_and_the_newest_document_wins(
    workspace: WriteWorkspace,
) -> None:
    root = make(
        workspace,
        definition("policy", "{type: data_reference, database_name: appdb, collection: policies}"),
    )
    r = row(run(root), "policy")
    assert r.status == "resolved"
    assert r.origin == "db appdb.policies"
    assert r.value["name"] == "newest" and r.value["limit"] == 30
    # the whole document, without its _id: the loader drops it from every document
    assert "_id" not in r.value
    assert steps(r) == [("database", "used")]
    detail = r.trace[0].detail
    assert 'appdb.policies find {"app_id": "app-1"}' in detail
    assert "sort _id desc limit 1" in detail
    assert "embedded montydb" in detail
    other = row(run(root, launch={"app_id": "app-2"}), "policy")
    assert other.value["name"] == "other app"


def test_an_empty_query_template_also_means_this_app(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition(
            "policy",
            "{type: data_reference, database_name: appdb, collection: policies,"
            " query_template: {}, fields: [name]}",
        ),
    )
    assert row(run(root, launch={"app_id": "app-2"}), "policy").value == "other app"


def test_one_field_is_unwrapped_several_make_a_document_without_id(
    workspace: WriteWorkspace,
) -> None:
    root = make(
        workspace,
        definition(
            "limit",
            "{type: data_reference, database_name: appdb, collection: policies, fields: [limit]}",
            "integer",
        ),
        definition(
            "summary",
            "{type: data_reference, database_name: appdb, collection: policies,"
            " fields: [limit, owner]}",
        ),
    )
    m = run(root)
    assert row(m, "limit").value == 30
    assert row(m, "summary").value == {"limit": 30, "owner": "risk"}
    assert "fields ['limit', 'owner']" in row(m, "summary").trace[0].detail


def test_placeholders_for_runtime_values_and_earlier_variables(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition("settings", "{type: state, default: {team: {owner: risk}}}"),
        definition(
            "by_user",
            "{type: data_reference, database_name: appdb, collection: users,"
            " query_template: {user_id: '{{runtime.user_id}}', "
            "chat: '{{ runtime.chat_id }}'}, fields: [name]}",
        ),
        definition(
            "by_owner",
            "{type: data_reference, database_name: appdb, collection: "
            "policies, query_template: {owner: '{{settings.team.owner}}',"
            " app_id: '{{runtime.app_id}}'}, fields: [limit]}",
        ),
        files={
            "seed/appdb/users.json": [
                {"user_id": "u1", "chat": "c1", "name": "Ada"},
                {"user_id": "u1", "chat": "c2", "name": "Ada in chat 2"},
                {"user_id": "u2", "chat": "c1", "name": "Bob"},
            ]
        },
    )
    m = run(root, launch={"app_id": "app-1", "user_id": "u1", "chat_id": "c2"})
    assert row(m, "by_user").value == "Ada in chat 2"
    assert row(m, "by_owner").value == 30
    assert '{"app_id": "app-1", "owner": "risk"}' in row(m, "by_owner").trace[0].detail


def test_a_placeholder_inside_other_text_is_not_replaced(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition(
            "literal",
            "{type: data_reference, database_name: appdb, collection: "
            "policies, query_template: {name: 'prefix-{{runtime.app_id}}'}, "
            "fields: [limit]}",
            "integer",
        ),
    )
    # the filter is the literal text, which matches the one document holding that text
    assert row(run(root), "literal").value == 99


def test_a_placeholder_with_no_value_warns(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition(
            "p",
            "{type: data_reference, database_name: appdb, collection: policies,"
            " query_template: {app_id: '{{runtime.app_id}}', owner: '{{team.lead}}'},"
            " default: none-found}",
            "string",
        ),
    )
    r = row(run(root), "p")
    assert r.warnings[0] == "placeholder(s) with no value: {{team.lead}}"
    assert (r.value, r.status) == ("none-found", "default")


def test_sort_is_by_id_descending_when_seeds_carry_ids(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition(
            "p",
            "{type: data_reference, database_name: appdb, collection: numbered,"
            " query_template: {kind: x}, fields: [v]}",
            "string",
        ),
        files={
            "seed/appdb/numbered.json": [
                {"_id": 1, "kind": "x", "v": "one"},
                {"_id": 3, "kind": "x", "v": "three"},
                {"_id": 2, "kind": "x", "v": "two"},
            ]
        },
    )
    assert row(run(root), "p").value == "three"


def test_the_last_document_of_a_long_seed_is_the_newest(workspace: WriteWorkspace) -> None:
    docs = [{"app_id": "app-1", "n": i} for i in range(300)]
    root = make(
        workspace,
        definition(
            "n",
            "{type: data_reference, database_name: appdb, collection: many, fields: [n]}",
            "integer",
        ),
        files={"seed/appdb/many.json": docs},
    )
    assert row(run(root), "n").value == 299


def test_without_database_name_the_adapter_returns_none(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition(
            "p", "{type: data_reference, collection: things, fields: [v], default: d}", "string"
        ),
        files={"seed/default/things.json": [{"app_id": "app-1", "v": "from default"}]},
    )
    r = row(run(root), "p")
    # the shipped Mongo adapter skips the fetch: no database called 'default' is queried,
    # so the source's default applies as for "no document"
    assert (r.value, r.status) == ("d", "default")
    assert steps(r)[0] == ("database", "skipped")
    assert "no database_name" in r.trace[0].detail
    assert r.warnings and "no database_name" in r.warnings[0]


FALLBACKS = {
    "global": {"policy": "global value", "shared": "global shared"},
    "workflows": {"APPROVALS": {"policy": "workflow value"}},
}


def fallback_ws(workspace: WriteWorkspace, fallbacks: Any, source_extra: str = "") -> Path:
    src = "{type: data_reference, database_name: appdb, collection: policies, "
    src += "query_template: {app_id: nobody}" + source_extra + "}"
    return make(
        workspace,
        definition("policy", src, "string"),
        definition("shared", src, "string"),
        definition("unknown", src, "string"),
        files={"fallbacks.json": fallbacks},
    )


ENV = {"MOZAIKS_CONTEXT_FALLBACKS_FILE": "fallbacks.json"}


def test_no_document_and_no_default_goes_to_fallbacks_in_order(
    workspace: WriteWorkspace,
) -> None:
    m = run(fallback_ws(workspace, FALLBACKS), env=ENV)
    policy, shared, unknown = row(m, "policy"), row(m, "shared"), row(m, "unknown")
    # the workflow entry wins, its name matched case-insensitively
    assert (policy.value, policy.status) == ("workflow value", "fallback")
    assert policy.origin == "fallbacks.json workflows.APPROVALS.policy"
    assert steps(policy) == [
        ("database", "missing"),
        ("default", "missing"),
        ("fallback: workflow", "used"),
    ]
    assert (shared.value, shared.status) == ("global shared", "fallback")
    assert shared.origin == "fallbacks.json global.shared"
    assert steps(shared)[2:] == [("fallback: workflow", "missing"), ("fallback: global", "used")]
    # with global/workflows keys present, the flat form is not consulted
    assert (unknown.value, unknown.status) == (None, "missing")
    assert steps(unknown)[2:] == [
        ("fallback: workflow", "missing"),
        ("fallback: global", "missing"),
        ("fallback: flat", "skipped"),
    ]


def test_flat_fallbacks_only_without_global_or_workflows(workspace: WriteWorkspace) -> None:
    m = run(fallback_ws(workspace, {"policy": "flat value"}), env=ENV)
    r = row(m, "policy")
    assert (r.value, r.status, r.origin) == ("flat value", "fallback", "fallbacks.json policy")
    assert steps(r)[2:] == [
        ("fallback: workflow", "missing"),
        ("fallback: global", "missing"),
        ("fallback: flat", "used"),
    ]
    wrapped = run(fallback_ws(workspace, {"global": {}, "policy": "flat value"}), env=ENV)
    assert row(wrapped, "policy").value is None


def test_a_default_shadows_the_fallback_and_says_so(workspace: WriteWorkspace) -> None:
    m = run(fallback_ws(workspace, FALLBACKS, ", default: declared default"), env=ENV)
    r = row(m, "policy")
    assert (r.value, r.status, r.origin) == ("declared default", "default", "default")
    assert steps(r) == [
        ("database", "missing"),
        ("default", "used"),
        ("fallback: workflow", "shadowed"),
    ]
    assert "shadowed" not in r.trace[1].detail
    assert "not consulted" in r.trace[2].detail


def test_a_found_document_shadows_default_and_fallback(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition(
            "policy",
            "{type: data_reference, database_name: appdb, collection: policies,"
            " fields: [name], default: unused}",
            "string",
        ),
        files={"fallbacks.json": {"global": {"policy": "unused too"}}},
    )
    r = row(run(root, env=ENV), "policy")
    assert (r.value, r.status) == ("newest", "resolved")
    assert steps(r) == [
        ("database", "used"),
        ("default", "shadowed"),
        ("fallback: global", "shadowed"),
    ]


def test_a_matched_document_with_a_null_field_goes_to_fallbacks(
    workspace: WriteWorkspace,
) -> None:
    root = make(
        workspace,
        definition(
            "missing_field",
            "{type: data_reference, database_name: appdb, collection: "
            "policies, fields: [absent], default: d}",
            "string",
        ),
        files={"fallbacks.json": {"global": {"missing_field": "from fallback"}}},
    )
    r = row(run(root, env=ENV), "missing_field")
    assert (r.value, r.status) == ("from fallback", "fallback")
    assert steps(r)[:2] == [("database", "used"), ("default", "skipped")]


def test_no_database_gives_none_with_the_reason_then_fallbacks(workspace: WriteWorkspace) -> None:
    root = fallback_ws(workspace, FALLBACKS)
    snap = load_workflow(root, "Approvals")
    inputs = ResolveInputs(env=ENV, launch={"app_id": "app-1"}, database=None)
    m = resolve(load_snapshot(root, ENV, preloaded=[snap]), inputs, snap.name)
    r = row(m, "policy")
    assert steps(r)[0] == ("database", "skipped")
    assert "no database configured" in r.trace[0].detail
    assert (r.value, r.status) == ("workflow value", "fallback")
    assert row(m, "unknown").value is None


def test_a_database_error_gives_none_with_the_reason_then_fallbacks(
    workspace: WriteWorkspace,
) -> None:
    root = fallback_ws(workspace, FALLBACKS)
    snap = load_workflow(root, "Approvals")
    # a real failure: nothing listens on port 1, and the driver gives up after 150 ms
    db = MongoDatabase("mongodb://admin:hunter2@127.0.0.1:1/?authSource=admin", timeout_ms=150)
    inputs = ResolveInputs(env=ENV, launch={"app_id": "app-1"}, database=db)
    m = resolve(load_snapshot(root, ENV, preloaded=[snap]), inputs, snap.name)
    first, shared = row(m, "policy"), row(m, "shared")
    assert steps(first)[0] == ("database", "error")
    assert "ServerSelectionTimeoutError" in first.trace[0].detail
    assert first.warnings[0].startswith("database error: ServerSelectionTimeoutError")
    assert (first.value, first.status) == ("workflow value", "fallback")
    # every variable says why, then falls back (later ones without waiting again)
    assert steps(shared)[0] == ("database", "error")
    assert shared.warnings[0].startswith("database error: ")
    assert (shared.value, shared.status) == ("global shared", "fallback")
    everything = json.dumps([[s.detail for s in x.trace] + list(x.warnings) for x in m.rows])
    assert "hunter2" not in everything


def test_seeds_are_reloaded_on_request(workspace: WriteWorkspace) -> None:
    root = make(
        workspace,
        definition(
            "p",
            "{type: data_reference, database_name: appdb, collection: policies, fields: [name]}",
            "string",
        ),
    )
    session: Session = open_session(root, env={})
    assert session.matrix("Approvals", launch={"app_id": "app-1"}).values["p"] == "newest"
    seed = root / "seed" / "appdb" / "policies.json"
    seed.write_text(json.dumps([*POLICIES, {"app_id": "app-1", "name": "added"}]), "utf-8")
    # the answer holds until the seeds are reloaded, then reflects the new file
    assert session.matrix("Approvals", launch={"app_id": "app-1"}).values["p"] == "newest"
    session = session.refreshed(seeds=True)
    assert session.database_problems == []
    assert session.matrix("Approvals", launch={"app_id": "app-1"}).values["p"] == "added"


def test_changing_a_resolved_value_does_not_change_the_next_resolution(
    workspace: WriteWorkspace,
) -> None:
    root = make(
        workspace,
        definition(
            "doc",
            "{type: data_reference, database_name: appdb, collection: policies,"
            " fields: [limit, owner]}",
        ),
    )
    session = open_session(root, env={})
    first = session.matrix("Approvals", launch={"app_id": "app-1"}).values["doc"]
    first["limit"] = -1
    again = session.matrix("Approvals", launch={"app_id": "app-1"}).values["doc"]
    assert again == {"limit": 30, "owner": "risk"}


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        ("[1, 2]", "a seed file must hold a JSON array of objects"),
        ('[{"a": 1},\n {"b": }]', "invalid JSON"),
    ],
)
def test_a_bad_seed_file_is_reported_and_the_others_still_load(
    workspace: WriteWorkspace, seed: str, message: str
) -> None:
    root = make(
        workspace,
        definition(
            "p",
            "{type: data_reference, database_name: appdb, collection: policies, fields: [name]}",
            "string",
        ),
        files={"seed/appdb/broken.json": textwrap.dedent(seed)},
    )
    session = open_session(root, env={})
    [problem] = session.database_problems
    assert problem.file == "seed/appdb/broken.json"
    assert message in problem.message
    assert session.matrix("Approvals", launch={"app_id": "app-1"}).values["p"] == "newest"


def test_what_is_found_is_coerced_to_the_declared_type(workspace: WriteWorkspace) -> None:
    # mozaiks 0.2.0 _load_data_reference_value: the field, the whole document and the default
    # pass through _coerce_value; a document is truthy as a boolean and kept as an integer
    src = "{type: data_reference, database_name: appdb, collection: policies"
    root = make(
        workspace,
        definition("limit_text", src + ", fields: [name]}", "integer"),
        definition("limit", src + ", fields: [limit]}", "boolean"),
        definition("whole", src + "}", "boolean"),
        definition("doc", src + "}", "integer"),
        definition(
            "none_found", src + ", query_template: {app_id: nobody}, default: '7'}", "integer"
        ),
    )
    m = run(root)
    assert row(m, "limit").value is True
    assert row(m, "whole").value is True
    assert row(m, "none_found").value == 7
    assert row(m, "limit_text").value == "newest"
    assert any("cannot coerce" in w for w in row(m, "limit_text").warnings)
    assert isinstance(row(m, "doc").value, dict)
