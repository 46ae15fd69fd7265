"""The databases behind data_reference: the embedded montydb seeded from seed/ files, and a real
MongoDB through pymongo (here an unreachable one, which must fail as a value, never a crash)."""

from __future__ import annotations

import json
from pathlib import Path

from flowctx_core.model.database import (
    DatabaseError,
    EmbeddedDatabase,
    MongoDatabase,
    open_database,
    seed_files,
)
from tests.conftest import write_tree

UNREACHABLE = "mongodb://reader:s3cr3t-pw@127.0.0.1:1/?authSource=admin"


def seeded(tmp_path: Path, files: dict[str, object]) -> Path:
    root = tmp_path / "ws"
    root.mkdir(parents=True)
    return write_tree(root, files)


def test_seed_files_are_found_per_database_and_collection(tmp_path: Path) -> None:
    root = seeded(
        tmp_path,
        {
            "seed/appdb/policies.json": [],
            "seed/appdb/users.json": [],
            "seed/other/things.json": [],
            "seed/appdb/notes.txt": "ignored",
            "seed/loose.json": [],
        },
    )
    assert [(s.database, s.collection) for s in seed_files(root)] == [
        ("appdb", "policies"),
        ("appdb", "users"),
        ("other", "things"),
    ]
    assert seed_files(tmp_path / "nowhere") == []


def test_open_database_defaults_to_the_seeded_embedded_engine(tmp_path: Path) -> None:
    root = seeded(
        tmp_path,
        {
            "seed/appdb/policies.json": [
                {"app_id": "a", "v": 1, "nested": {"k": [1, 2]}},
                {"app_id": "a", "v": 2, "nested": {"k": [3]}},
                {"app_id": "b", "v": 3},
            ],
            "seed/appdb/single.json": {"only": True},
        },
    )
    db, problems = open_database(root, None, {})
    assert problems == []
    assert isinstance(db, EmbeddedDatabase)
    assert db.label == "embedded montydb (seed/)"
    assert db.collection_names("appdb") == ["policies", "single"]
    newest = db.find_newest("appdb", "policies", {"app_id": "a"}, None)
    assert newest is not None and newest["v"] == 2 and newest["nested"] == {"k": [3]}
    assert db.find_newest("appdb", "policies", {"app_id": "a"}, ["v"]) == {"v": 2}
    assert db.find_newest("appdb", "policies", {"nested.k": 1}, ["v"]) == {"v": 1}
    assert db.find_newest("appdb", "policies", {"v": {"$gte": 2}}, ["v"]) == {"v": 3}
    assert db.find_newest("appdb", "policies", {"app_id": "zzz"}, None) is None
    assert db.find_newest("appdb", "absent", {}, None) is None
    first = db.first_document("appdb", "policies")
    assert first is not None and first["v"] == 1
    single = db.find_newest("appdb", "single", {}, ["only"])
    assert single == {"only": True}


def test_file_order_is_age_order_for_many_documents(tmp_path: Path) -> None:
    docs = [{"k": "x", "n": i} for i in range(500)]
    root = seeded(tmp_path, {"seed/db/c.json": docs})
    db = EmbeddedDatabase(root)
    assert db.load_seeds() == []
    assert db.find_newest("db", "c", {"k": "x"}, ["n"]) == {"n": 499}
    assert db.find_newest("db", "c", {"n": {"$lt": 250}}, ["n"]) == {"n": 249}


def test_two_workspaces_in_one_process_do_not_share_data(tmp_path: Path) -> None:
    a = seeded(tmp_path / "a", {"seed/db/c.json": [{"who": "a"}]})
    b = seeded(tmp_path / "b", {"seed/db/c.json": [{"who": "b"}]})
    db_a, _ = open_database(a)
    db_b, _ = open_database(b)
    assert db_a.find_newest("db", "c", {}, ["who"]) == {"who": "a"}
    assert db_b.find_newest("db", "c", {}, ["who"]) == {"who": "b"}


def test_reloading_reflects_edited_deleted_and_added_seed_files(tmp_path: Path) -> None:
    root = seeded(tmp_path, {"seed/db/c.json": [{"v": 1}], "seed/db/gone.json": [{"v": 9}]})
    db = EmbeddedDatabase(root)
    db.load_seeds()
    assert db.find_newest("db", "c", {}, ["v"]) == {"v": 1}
    assert db.find_newest("db", "gone", {}, ["v"]) == {"v": 9}
    (root / "seed" / "db" / "c.json").write_text(json.dumps([{"v": 1}, {"v": 2}]), "utf-8")
    (root / "seed" / "db" / "gone.json").unlink()
    (root / "seed" / "db" / "new.json").write_text('[{"v": 5}]', "utf-8")
    assert db.load_seeds() == []
    assert db.find_newest("db", "c", {}, ["v"]) == {"v": 2}
    assert db.find_newest("db", "gone", {}, ["v"]) is None
    assert db.find_newest("db", "new", {}, ["v"]) == {"v": 5}


def test_answers_are_copies(tmp_path: Path) -> None:
    root = seeded(tmp_path, {"seed/db/c.json": [{"v": {"deep": [1]}}]})
    db = EmbeddedDatabase(root)
    db.load_seeds()
    got = db.find_newest("db", "c", {}, None)
    assert got is not None
    got["v"]["deep"].append(2)
    again = db.find_newest("db", "c", {}, None)
    assert again is not None and again["v"] == {"deep": [1]}


def test_filters_differing_only_in_key_order_or_type_are_different_questions(
    tmp_path: Path,
) -> None:
    root = seeded(
        tmp_path,
        {"seed/db/c.json": [{"n": 1, "sub": {"a": 1, "b": 2}}, {"n": "1", "sub": {"b": 2}}]},
    )
    db = EmbeddedDatabase(root)
    db.load_seeds()
    assert db.find_newest("db", "c", {"n": 1}, ["n"]) == {"n": 1}
    assert db.find_newest("db", "c", {"n": "1"}, ["n"]) == {"n": "1"}
    # an embedded document matches only in its own key order, as in MongoDB
    assert db.find_newest("db", "c", {"sub": {"a": 1, "b": 2}}, ["n"]) == {"n": 1}
    assert db.find_newest("db", "c", {"sub": {"b": 2, "a": 1}}, ["n"]) is None


def test_bad_seed_files_are_located_problems(tmp_path: Path) -> None:
    root = seeded(
        tmp_path,
        {
            "seed/db/bad_json.json": '[{"a": 1}\n {"b": 2}]',
            "seed/db/not_objects.json": "[1, 2]",
            "seed/db/binary.json": b"\xff\xfe",
            "seed/db/good.json": [{"ok": True}],
        },
    )
    db, problems = open_database(root)
    by_file = {p.file: p for p in problems}
    assert set(by_file) == {
        "seed/db/bad_json.json",
        "seed/db/not_objects.json",
        "seed/db/binary.json",
    }
    bad = by_file["seed/db/bad_json.json"]
    assert (bad.line, bad.column) == (2, 2) and "invalid JSON" in bad.message
    assert "JSON array of objects" in by_file["seed/db/not_objects.json"].message
    assert "cannot read seed file" in by_file["seed/db/binary.json"].message
    assert db.find_newest("db", "good", {}, ["ok"]) == {"ok": True}
    assert db.find_newest("db", "bad_json", {}, None) is None


def test_a_bad_filter_is_a_database_error(tmp_path: Path) -> None:
    root = seeded(tmp_path, {"seed/db/c.json": [{"v": 1}]})
    db, _ = open_database(root)
    try:
        db.find_newest("db", "c", {"v": {"$nosuchop": 1}}, None)
    except DatabaseError as exc:
        assert "nosuchop" in str(exc)
    else:  # pragma: no cover - the assertion below explains the failure
        raise AssertionError("an unknown operator must be a DatabaseError")


def test_an_unreachable_mongodb_fails_as_a_value_with_the_password_masked() -> None:
    db = MongoDatabase(UNREACHABLE, timeout_ms=150)
    assert db.label == "MongoDB mongodb://reader:***@127.0.0.1:1/?authSource=admin"
    for call in (
        lambda: db.find_newest("db", "c", {}, None),
        lambda: db.collection_names("db"),
    ):
        try:
            call()
        except DatabaseError as exc:
            assert "s3cr3t-pw" not in str(exc)
        else:  # pragma: no cover
            raise AssertionError("nothing listens on port 1")


def test_the_uri_comes_from_the_argument_or_the_environment(tmp_path: Path) -> None:
    root = seeded(tmp_path, {})
    db, problems = open_database(root, None, {"FLOWCTX_MONGO_URI": UNREACHABLE})
    assert isinstance(db, MongoDatabase) and problems == []
    db, _ = open_database(root, UNREACHABLE, {})
    assert isinstance(db, MongoDatabase)


def test_a_malformed_uri_falls_back_to_the_seeds_with_a_masked_warning(tmp_path: Path) -> None:
    root = seeded(tmp_path, {"seed/db/c.json": [{"v": 1}]})
    db, problems = open_database(root, "mongodb://u:topsecret@", {})
    assert isinstance(db, EmbeddedDatabase)
    [warning] = problems
    assert warning.severity == "warning" and warning.file == "FLOWCTX_MONGO_URI"
    assert "using seeds" in warning.message
    assert "topsecret" not in warning.message
    assert db.find_newest("db", "c", {}, ["v"]) == {"v": 1}


def test_the_uris_own_server_selection_timeout_is_honoured() -> None:
    db = MongoDatabase("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=120", timeout_ms=5000)
    try:
        db.find_newest("db", "c", {}, None)
    except DatabaseError as exc:
        assert "Timeout: 0.12s" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("nothing listens on port 1")


def test_a_workspace_without_seeds_opens_without_the_database_and_gains_seeds_later(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    db = EmbeddedDatabase(root)
    assert db.load_seeds() == []
    # a query against the empty database answers as an empty one does
    assert db.find_newest("db", "c", {}, None) is None
    # the seed folder appears later (the app's watcher reloads the seeds)
    write_tree(root, {"seed/db/c.json": [{"v": 3}]})
    assert db.load_seeds() == []
    assert db.find_newest("db", "c", {}, ["v"]) == {"v": 3}
