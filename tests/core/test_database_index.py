"""The embedded database answers from documents decoded once and an equality index: every
answer must be montydb's own (its cursor's full scan), for equality queries the index serves
and for operator queries it does not."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.model.database import DatabaseError, EmbeddedDatabase, _CollectionDatabase

VALUES: list[Any] = [0, 1, 1.0, 2, True, False, None, "a", "b", "1", "", -3, 2.5, 10**20]


def _value(rnd: random.Random, depth: int = 0) -> Any:
    roll = rnd.random()
    if depth < 2 and roll < 0.15:
        return [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 3))]
    if depth < 2 and roll < 0.22:
        return {"x": _value(rnd, depth + 1)}
    return rnd.choice(VALUES)


def _documents(rnd: random.Random, count: int) -> list[dict[str, Any]]:
    docs = []
    for i in range(count):
        doc: dict[str, Any] = {"n": i}
        for field in ("a", "b", "c"):
            if rnd.random() < 0.85:
                doc[field] = _value(rnd)
        if rnd.random() < 0.1:
            doc["_id"] = rnd.choice([f"id{i}", i * 7, {"k": i}])
        docs.append(doc)
    return docs


def _query(rnd: random.Random) -> dict[str, Any]:
    query: dict[str, Any] = {}
    for field in rnd.sample(["a", "b", "c", "n", "missing", "a.x", "_id"], rnd.randint(0, 3)):
        roll = rnd.random()
        if roll < 0.6:
            query[field] = rnd.choice(VALUES)
        elif roll < 0.7:
            query[field] = [rnd.choice(VALUES)]
        elif roll < 0.8:
            query[field] = {"$gt": rnd.choice([0, 1, "a"])}
        elif roll < 0.85:
            query[field] = {"$in": [rnd.choice(VALUES), rnd.choice(VALUES)]}
        elif roll < 0.9:
            query[field] = rnd.choice(
                [{"$regex": "^a"}, {"$mod": [2, 0]}, {"$mod": [0, 0]}, {"$exists": False}]
            )
        else:
            query[field] = {"x": rnd.choice(VALUES)}
    if rnd.random() < 0.1:
        query["$or"] = [{"a": rnd.choice(VALUES)}, {"b": rnd.choice(VALUES)}]
    return query


def _answer(call: Any) -> Any:
    try:
        return ("ok", call())
    except DatabaseError as exc:
        return ("error", str(exc))


@pytest.mark.parametrize("seed", range(3))
def test_every_answer_is_montydbs_full_scan(tmp_path: Path, seed: int) -> None:
    rnd = random.Random(seed)
    docs = _documents(rnd, 300)
    folder = tmp_path / "seed" / "db"
    folder.mkdir(parents=True)
    (folder / "items.json").write_text(json.dumps(docs), encoding="utf-8")
    db = EmbeddedDatabase(tmp_path)
    assert db.load_seeds() == []
    before = db._client["db"]["items"].find({}).sort("_id", -1)
    kept = json.dumps(list(before), default=str)
    served = 0
    for _ in range(150):
        query = _query(rnd)
        fields = rnd.choice([None, ["a"], ["b", "c"], ["a.x"], ["n"]])
        ours = _answer(lambda q=query, f=fields: db.find_newest("db", "items", q, f))
        # montydb's cursor: what the embedded database answered before it had an index
        theirs = _answer(
            lambda q=query, f=fields: _CollectionDatabase.find_newest(db, "db", "items", q, f)
        )
        assert ours == theirs, (query, fields)
        served += ours[0] == "ok" and ours[1] is not None
    assert served > 30  # the queries find documents, not only nothing
    # the decoded documents are left as they were (projection works on a copy)
    assert db._decoded[("db", "items")].docs is not None
    after = json.dumps(db._decoded[("db", "items")].docs, default=str)
    assert after == kept


def test_an_equality_query_looks_at_its_candidates_only(tmp_path: Path) -> None:
    folder = tmp_path / "seed" / "appdb"
    folder.mkdir(parents=True)
    docs = [{"slot": i % 50, "limit": i} for i in range(4_000)]
    (folder / "policies.json").write_text(json.dumps(docs), encoding="utf-8")
    db = EmbeddedDatabase(tmp_path)
    db.load_seeds()
    assert db.find_newest("appdb", "policies", {"slot": 7}, ["limit"]) == {"limit": 3957}
    decoded = db._decoded[("appdb", "policies")]
    assert len(decoded.candidates({"slot": 7})) == 80
    # a reload forgets the decoded documents with the answers
    docs.append({"slot": 7, "limit": -1})
    (folder / "policies.json").write_text(json.dumps(docs), encoding="utf-8")
    db.load_seeds()
    assert db.find_newest("appdb", "policies", {"slot": 7}, ["limit"]) == {"limit": -1}
