"""Databases for ``data_reference`` variables: a real MongoDB, or the embedded engine.

By default flowctx answers queries from an embedded MongoDB-compatible engine (montydb, in
memory) seeded from the workspace's ``seed/<database>/<collection>.json`` files, one JSON array
of documents per collection, inserted in file order (so the last document is the newest).
With ``--mongo-uri`` or ``FLOWCTX_MONGO_URI`` it queries that MongoDB through pymongo instead.
"""

from __future__ import annotations

import json
import os
import re
import struct
import threading
import time
import warnings
from collections.abc import Mapping
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.base.pathsafety import confine, read_regular_file
from flowctx_core.base.regexbound import RegexBudget, bound_montydb_regex, shared_budget
from flowctx_core.base.secrets import mask_text
from flowctx_core.model.filenames import SEED_DIR

URI_ENV = "FLOWCTX_MONGO_URI"
#: Database used when a data_reference source names none.
DEFAULT_DATABASE = "default"
#: Seed files are test fixtures for authoring; bigger ones are refused with a clear message.
#: montydb inserts about 10,000 documents a second and scans the whole collection for each
#: query (40,000 documents took 4 s to load and 2 s per query), so the count is bounded too.
MAX_SEED_BYTES = 4 * 1024 * 1024
MAX_SEED_DOCUMENTS = 5_000
#: ... and so are the number of seed files and their documents in all: 20 files of 5,000
#: documents took 16 s to load. 20,000 documents load in about 2 s.
MAX_SEED_FILES = 100
MAX_SEED_TOTAL_DOCUMENTS = 20_000
_REAL_MONGO = "use --mongo-uri for a real MongoDB"


class DatabaseError(Exception):
    """A query could not be answered (unreachable server, bad filter)."""


class Database(Protocol):
    label: str

    def find_newest(
        self, database: str, collection: str, query: Mapping[str, Any], fields: list[str] | None
    ) -> dict[str, Any] | None:
        """The newest matching document (``_id`` descending), projected; ``None`` when none."""
        ...

    def collection_names(self, database: str) -> list[str]: ...

    def first_document(self, database: str, collection: str) -> dict[str, Any] | None: ...


def _projection(fields: list[str] | None) -> dict[str, int] | None:
    if not fields:
        return None
    proj = {f: 1 for f in fields}
    proj["_id"] = 0
    return proj


def _plain(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Documents as JSON-able data: ObjectIds and other BSON types become strings."""

    def conv(v: Any) -> Any:
        if isinstance(v, Mapping):
            return {str(k): conv(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        if v is None or isinstance(v, (str, int, float, bool)):
            return v
        return str(v)

    return conv(doc)


class _CollectionDatabase:
    """Shared query logic over any pymongo-compatible client (pymongo or montydb)."""

    label = ""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = threading.Lock()

    def find_newest(
        self, database: str, collection: str, query: Mapping[str, Any], fields: list[str] | None
    ) -> dict[str, Any] | None:
        try:
            with self._lock:
                cursor = self._client[database][collection].find(dict(query), _projection(fields))
                docs = list(cursor.sort("_id", -1).limit(1))
        except Exception as exc:  # any driver failure is a value in the trace, never a crash
            raise DatabaseError(mask_text(f"{exc.__class__.__name__}: {exc}")) from None
        if not docs:
            return None
        doc = _plain(docs[0])
        if fields:
            doc.pop("_id", None)
        return doc

    def collection_names(self, database: str) -> list[str]:
        try:
            with self._lock:
                return sorted(self._client[database].list_collection_names())
        except Exception as exc:
            raise DatabaseError(mask_text(f"{exc.__class__.__name__}: {exc}")) from None

    def first_document(self, database: str, collection: str) -> dict[str, Any] | None:
        try:
            with self._lock:
                doc = self._client[database][collection].find_one({})
        except Exception as exc:
            raise DatabaseError(mask_text(f"{exc.__class__.__name__}: {exc}")) from None
        return _plain(doc) if doc else None


class MongoDatabase(_CollectionDatabase):
    def __init__(self, uri: str, timeout_ms: int = 1500) -> None:
        import pymongo

        # a keyword argument would override the URI's own option: honour what the user wrote,
        # when pymongo can use it (an invalid one it ignores, falling back to its 30 s default)
        options: dict[str, Any] = (
            {} if uri_timeout(uri) is not None else {"serverSelectionTimeoutMS": timeout_ms}
        )
        with warnings.catch_warnings():
            # pymongo warns (to stderr) about options it ignores; open_database says it instead
            warnings.simplefilter("ignore", UserWarning)
            client: pymongo.MongoClient[dict[str, Any]] = pymongo.MongoClient(
                uri, connect=False, **options
            )
        super().__init__(client)
        self.label = f"MongoDB {mask_text(uri)}"
        self._down_until = 0.0
        self._down_reason = ""

    #: After a server-selection failure, answer at once for this long instead of waiting out
    #: the timeout again for every variable (a workflow with eight data_references took 12 s).
    DOWN_SECONDS = 15.0

    def find_newest(
        self, database: str, collection: str, query: Mapping[str, Any], fields: list[str] | None
    ) -> dict[str, Any] | None:
        if time.monotonic() < self._down_until:
            raise DatabaseError(f"{self._down_reason} (not retried for {self.DOWN_SECONDS:.0f} s)")
        try:
            return super().find_newest(database, collection, query, fields)
        except DatabaseError as exc:
            if "ServerSelectionTimeoutError" in str(exc) or "AutoReconnect" in str(exc):
                self._down_until = time.monotonic() + self.DOWN_SECONDS
                self._down_reason = f"MongoDB unreachable: {str(exc)[:160]}"
            raise


_URI_TIMEOUT = re.compile(r"(?i)[?&;]serverSelectionTimeoutMS=([^&;#]*)")


def uri_timeout(uri: str) -> float | None:
    """The URI's own serverSelectionTimeoutMS when it is a usable number, else None."""
    found = _URI_TIMEOUT.search(uri)
    if found is None:
        return None
    try:
        value = float(found.group(1))
    except ValueError:
        return None
    return value if 0 <= value < float("inf") else None


def _uri_timeout_warning(uri: str) -> Diagnostic | None:
    if _URI_TIMEOUT.search(uri) is None or uri_timeout(uri) is not None:
        return None
    return Diagnostic(
        URI_ENV,
        0,
        0,
        "the URI's serverSelectionTimeoutMS is not a number of milliseconds; flowctx waits "
        "at most 1.5 s for the server instead",
        severity="warning",
    )


_monty_ready = False
_monty_lock = threading.Lock()


def _monty_client(repository: str) -> Any:
    # montydb keeps its memory storage and BSON choice per process; configure it once so that
    # several workspaces (tests, reloads) can each have their own in-memory repository.
    global _monty_ready
    from montydb import MontyClient, set_storage

    with _monty_lock:
        if not _monty_ready:
            bound_montydb_regex()
            set_storage(":memory:", storage="memory", use_bson=False)
            _monty_ready = True
        return MontyClient(repository)


@dataclass(frozen=True)
class SeedFile:
    database: str
    collection: str
    path: Path


def seed_files(root: Path) -> list[SeedFile]:
    base = root / SEED_DIR
    try:
        folders = sorted(p for p in fsview.iterdir(base) if fsview.is_dir(p))
    except OSError:  # no seed folder, or one that cannot be listed: no seeds
        return []
    out = []
    for db_dir in folders:
        if fsview.is_mounted(db_dir):  # a git revision, in memory
            found = sorted(p for p in fsview.iterdir(db_dir) if p.name.endswith(".json"))
        else:
            found = sorted(db_dir.glob("*.json"))
        for f in found:
            out.append(SeedFile(db_dir.name, f.stem, f))
    return out


def _answer_key(
    database: str, collection: str, query: Mapping[str, Any], fields: list[str] | None
) -> str | None:
    """A memo key for a query, or ``None`` when the filter holds values JSON cannot name exactly.

    Key order is kept (``sort_keys`` off): MongoDB compares embedded documents in order.
    """
    try:
        return json.dumps([database, collection, query, fields])
    except (TypeError, ValueError):
        return None


def _seed_ids(count: int) -> list[Any]:
    """ObjectIds that sort in file order.

    Ids made by the driver carry a counter that starts at a random value and wraps at 2**24,
    so a seed inserted across the wrap would make an earlier document the "newest". These share
    one timestamp and random part and count up from zero instead.
    """
    from montydb.types.objectid import ObjectId

    head = struct.pack(">I", int(time.time()) & 0xFFFFFFFF) + os.urandom(5)
    return [ObjectId(head + struct.pack(">I", i)[1:]) for i in range(count)]


#: a query value the equality index can look up: a plain JSON scalar (no null, no NaN)
_INDEXED_TYPES = (str, int, float, bool)


def _probe(value: Any) -> tuple[str, Any] | None:
    """The index key of a scalar, coarse on purpose: every number (booleans too) by its float
    value, so that any two values montydb might call equal share a key; ``None`` when the
    value has no key (null, NaN, a number too big for a float, anything else)."""
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, (int, float)):  # bool is an int
        try:
            number = float(value)
        except OverflowError:
            return None
        return None if number != number else ("n", number)
    return None


def _simple_equality(query: Mapping[str, Any]) -> bool:
    """Whether every condition of ``query`` is ``top_level_field: scalar``: montydb answers
    those without raising, so they can be looked up in the index and stop at the first
    (newest) match, with the same answer as its full scan."""
    for key, value in query.items():
        if not isinstance(key, str) or not key or key.startswith("$") or "." in key:
            return False
        if value is not None and not isinstance(value, _INDEXED_TYPES):
            return False
    return True


#: operators whose test can raise for one document and not another (montydb 2.5,
#: montydb/engine/queries.py): a regex under flowctx's time budget, $mod by zero, code
_PER_DOCUMENT_ERRORS = ("$regex", "$options", "$mod", "$where", "$expr", "$function")


def _may_raise_per_document(query: Mapping[str, Any]) -> bool:
    try:
        text = json.dumps(query)
    except (TypeError, ValueError):
        return True
    return any(op in text for op in _PER_DOCUMENT_ERRORS)


class _Decoded:
    """One collection's documents, decoded once per seed load, newest first (montydb's own
    ``sort("_id", -1)``), with an equality index per field built on first use.

    montydb decodes every stored document and walks it for each query (about 25 us per
    document): 100 data_reference variables over a 5,000-document seed took 20 s and, with the
    garbage collector paused around resolution, over 1.5 GB. Decoding once and looking the
    candidates up halves the cost of a query montydb must scan, and makes the common one (a
    few fields equal to values) cost its candidates only.
    """

    def __init__(self, docs: list[dict[str, Any]]) -> None:
        self.docs = docs
        self._fields: dict[str, tuple[dict[tuple[str, Any], list[int]], list[int]]] = {}

    def _field(self, name: str) -> tuple[dict[tuple[str, Any], list[int]], list[int]]:
        """Positions by the keys of ``name``'s value (an array's by each element), and the
        positions of every document the keys cannot describe (montydb decides for those)."""
        found = self._fields.get(name)
        if found is not None:
            return found
        by_key: dict[tuple[str, Any], list[int]] = {}
        always: list[int] = []
        for pos, doc in enumerate(self.docs):
            value = doc.get(name)
            values = value if isinstance(value, list) else [value]
            keys = [_probe(v) for v in values]
            if name not in doc or not values or None in keys:
                always.append(pos)
                continue
            for key in dict.fromkeys(keys):
                assert key is not None
                by_key.setdefault(key, []).append(pos)
        self._fields[name] = (by_key, always)
        return by_key, always

    def candidates(self, query: Mapping[str, Any]) -> list[int]:
        """Positions (newest first) of every document that may match ``query``: a superset
        of montydb's matches, from the most selective field with an index key."""
        best: list[int] | None = None
        for name, value in query.items():
            key = _probe(value)
            if key is None:
                continue
            by_key, always = self._field(name)
            mine = by_key.get(key, [])
            if best is None or len(mine) + len(always) < len(best):
                best = sorted([*mine, *always]) if always else mine
        return list(range(len(self.docs))) if best is None else best


class EmbeddedDatabase(_CollectionDatabase):
    """montydb in memory, loaded from the workspace's seed files.

    Its content changes only through ``load_seeds``, so answers are memoised until the next
    load: montydb scans and decodes every document for each query (about 0.1 ms per document),
    and re-resolving a workflow on every edit asks the same questions again. Between loads each
    collection is also decoded once (``_Decoded``) and queried with montydb's own filter,
    ordering and projection.
    """

    def __init__(self, root: Path, repository: str | None = None) -> None:
        self.root = root
        self._repository = repository or f":memory:{root}"
        self._monty: Any = None
        self._monty_lock = threading.Lock()
        super().__init__(None)
        self.label = f"embedded montydb ({SEED_DIR}/)"
        self._answers: dict[str, dict[str, Any] | None] = {}
        # refusals are answers too: a $regex that ran out of time would cost its bound again
        # on every re-resolution of the app
        self._refusals: dict[str, str] = {}
        # one budget for every $regex between two seed loads (each reload of the workspace)
        self._regex_budget = RegexBudget()
        self._generation = 0
        self._decoded: dict[tuple[str, str], _Decoded] = {}

    # montydb (and bson) are imported on the first query or seed file, not when a session
    # opens: a workspace without seeds or data_reference sources never pays for them
    @property  # type: ignore[override]
    def _client(self) -> Any:
        if self._monty is None:
            with self._monty_lock:
                if self._monty is None:
                    self._monty = _monty_client(self._repository)
        return self._monty

    @_client.setter
    def _client(self, client: Any) -> None:
        self._monty = client

    def find_newest(
        self, database: str, collection: str, query: Mapping[str, Any], fields: list[str] | None
    ) -> dict[str, Any] | None:
        key = _answer_key(database, collection, query, fields)
        if key is not None and key in self._answers:
            cached = self._answers[key]
            return None if cached is None else _plain(cached)  # a copy: callers may mutate
        if key is not None and key in self._refusals:
            raise DatabaseError(self._refusals[key])
        generation = self._generation
        try:
            with shared_budget(self._regex_budget):
                doc = self._find(database, collection, query, fields)
        except DatabaseError as exc:
            if key is not None and generation == self._generation and "RegexTimeout" in str(exc):
                self._refusals[key] = str(exc)
            raise
        if key is not None and generation == self._generation:
            self._answers[key] = None if doc is None else _plain(doc)
        return doc

    def _find(
        self, database: str, collection: str, query: Mapping[str, Any], fields: list[str] | None
    ) -> dict[str, Any] | None:
        """``find(query, projection).sort("_id", -1).limit(1)`` as montydb answers it, over
        the collection decoded once: montydb's QueryFilter on each candidate, newest first,
        and its Projector on a copy of the first match."""
        if _may_raise_per_document(query):
            # montydb's own scan, in its storage order, so that the document that makes the
            # filter raise (a $regex past its budget, a $mod by zero) is the same one
            return super().find_newest(database, collection, query, fields)
        try:
            with self._lock:
                decoded = self._decoded.get((database, collection))
                if decoded is None:
                    docs = self._client[database][collection].find({}).sort("_id", -1)
                    decoded = self._decoded[(database, collection)] = _Decoded(list(docs))
            doc = _match_newest(decoded, query, fields)
        except Exception as exc:  # any engine failure is a value in the trace, never a crash
            raise DatabaseError(mask_text(f"{exc.__class__.__name__}: {exc}")) from None
        if doc is None:
            return None
        doc = _plain(doc)
        if fields:
            doc.pop("_id", None)
        return doc

    def load_seeds(self) -> list[Diagnostic]:
        """(Re)load every seed file; a bad file is a Diagnostic and leaves its collection empty."""
        problems: list[Diagnostic] = []
        seeds = seed_files(self.root)
        with self._lock:
            self._generation += 1
            self._answers = {}
            self._refusals = {}
            self._regex_budget = RegexBudget()
            self._decoded = {}
            if self._monty is None and not seeds:
                return problems  # nothing loaded before, nothing to load now: still empty
            for name in self._client.list_database_names():
                self._client.drop_database(name)
            if len(seeds) > MAX_SEED_FILES:
                first = _seed_display(self.root, seeds[MAX_SEED_FILES])
                problems.append(
                    Diagnostic(
                        first,
                        0,
                        0,
                        f"{len(seeds):,} seed files, over the embedded database's "
                        f"{MAX_SEED_FILES:,}-file limit: this file and the "
                        f"{len(seeds) - MAX_SEED_FILES - 1:,} after it are not loaded "
                        f"({_REAL_MONGO})",
                    )
                )
                seeds = seeds[:MAX_SEED_FILES]
            total = 0
            for position, seed in enumerate(seeds):
                display = _seed_display(self.root, seed)
                bad_name = _seed_name_problem(seed)
                if bad_name:
                    problems.append(Diagnostic(display, 0, 0, bad_name))
                    continue
                # the same confinement as file sources and the fallbacks file: a seed that is
                # a symlink out of the workspace would load another project's data
                real, refusal = confine(self.root, str(seed.path), allow_outside=False)
                if real is None:
                    why = (refusal or "").removeprefix("refused: ")
                    if "outside the workspace root" in why:
                        why = "it resolves outside the workspace root through a symlink"
                    problems.append(Diagnostic(display, 0, 0, f"seed file not loaded: {why}"))
                    continue
                docs, problem = _read_seed(real, display)
                if problem is not None:
                    problems.append(problem)
                    continue
                if total + len(docs) > MAX_SEED_TOTAL_DOCUMENTS:
                    # one message, where the limit is crossed, for every file not loaded
                    rest = len(seeds) - position - 1
                    problems.append(
                        Diagnostic(
                            display,
                            1,
                            1,
                            f"{len(docs):,} document{'s' if len(docs) != 1 else ''} here would "
                            f"bring the seed files to {total + len(docs):,}, over the embedded "
                            f"database's {MAX_SEED_TOTAL_DOCUMENTS:,}-document limit for all "
                            f"seed files: this file and the {rest:,} after it are not loaded "
                            f"({_REAL_MONGO})",
                        )
                    )
                    break
                total += len(docs)
                if docs:
                    missing = [d for d in docs if "_id" not in d]
                    for doc, oid in zip(missing, _seed_ids(len(missing)), strict=True):
                        doc["_id"] = oid
                    try:
                        self._client[seed.database][seed.collection].insert_many(docs)
                    except Exception as exc:  # keys with '.' or '$', a repeated _id, ...
                        self._client[seed.database].drop_collection(seed.collection)
                        problems.append(Diagnostic(display, 1, 1, _refusal(exc)))
        return problems


def _match_newest(
    decoded: _Decoded, query: Mapping[str, Any], fields: list[str] | None
) -> dict[str, Any] | None:
    """The newest document of ``decoded`` that montydb's filter matches, projected as montydb
    projects it (on a copy: the decoded documents are kept for the next query)."""
    from montydb.engine.project import Projector
    from montydb.engine.queries import QueryFilter

    spec = dict(query)
    # built first, as montydb's cursor does: a bad filter or projection fails even when no
    # document would match
    queryfilter = QueryFilter(spec)
    projection = _projection(fields)
    if projection:
        Projector(projection, queryfilter)
    # the filter cannot raise (``_may_raise_per_document``): the first match in newest-first
    # order is the answer, and an equality query looks at the documents its index names only
    order = decoded.candidates(spec) if _simple_equality(spec) else range(len(decoded.docs))
    winner = next((d for d in map(decoded.docs.__getitem__, order) if queryfilter(d)), None)
    if winner is None:
        return None
    copy = deepcopy(winner)
    if not projection:
        return copy
    final = QueryFilter(spec)
    final(copy)  # the walk the projector reads (a positional ``field.$`` needs the match)
    Projector(projection, final)(final.fieldwalker)
    return dict(final.fieldwalker.doc)


def _seed_display(root: Path, seed: SeedFile) -> str:
    """The seed file's path as reports show it: a newline in a folder name would start a
    forged line in every report."""
    return "".join(
        c if c.isprintable() else f"\\u{ord(c):04x}" for c in seed.path.relative_to(root).as_posix()
    )


#: What MongoDB (and montydb) refuse in a database name on Unix, plus control characters: a
#: newline or an escape sequence in a folder name would garble every line that names it.
_BAD_DATABASE_CHARS = frozenset('/\\. "$\x00')


def _seed_name_problem(seed: SeedFile) -> str | None:
    """Why a seed file's folder or name cannot be a database or collection, or None."""

    def control(name: str) -> bool:
        return any(ord(c) < 32 or ord(c) == 127 for c in name)

    db, coll = seed.database, seed.collection
    if not db or control(db) or _BAD_DATABASE_CHARS.intersection(db) or len(db.encode()) >= 64:
        return (
            f"seed folder {db!r} is not a valid database name (MongoDB refuses empty names, "
            'names of 64 bytes or more and / \\ . space " $ or control characters); '
            "its files are not loaded"
        )
    if not coll or control(coll) or "$" in coll or coll.startswith("system."):
        return (
            f"seed file name {coll!r} is not a valid collection name (MongoDB refuses empty "
            "names, '$', control characters and a 'system.' prefix); it is not loaded"
        )
    return None


def _refusal(exc: Exception) -> str:
    """Why the embedded database refused a seed file's documents, for the user."""
    why = str(exc) or exc.__class__.__name__
    errors = (getattr(exc, "details", None) or {}).get("writeErrors") or []
    if errors and isinstance(errors[0], dict):
        first = errors[0]
        if first.get("code") == 11000:
            why = f"document {first.get('index', 0) + 1} repeats an earlier document's _id"
        else:
            why = str(first.get("errmsg") or why)
    return mask_text(f"the embedded database refused this seed file ({why}); it stays empty")


def _read_seed(path: Path, display: str) -> tuple[list[dict[str, Any]], Diagnostic | None]:
    raw, why = read_regular_file(path, MAX_SEED_BYTES)
    if raw is None:
        why = (why or "").removeprefix("cannot read: ")
        return [], Diagnostic(display, 0, 0, f"cannot read seed file: {why}")
    try:
        data = parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        why = f"not valid UTF-8 (byte {exc.start})"
        return [], Diagnostic(display, 0, 0, f"cannot read seed file: {why}")
    except JsonTextError as exc:
        return [], Diagnostic(display, exc.line, exc.column, str(exc))
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        return [], Diagnostic(display, 1, 1, "a seed file must hold a JSON array of objects")
    if len(data) > MAX_SEED_DOCUMENTS:
        return [], Diagnostic(
            display,
            1,
            1,
            f"seed file holds {len(data):,} documents, over the embedded database's "
            f"{MAX_SEED_DOCUMENTS:,}-document limit ({_REAL_MONGO})",
        )
    return data, None


def open_database(
    root: Path, uri: str | None = None, env: Mapping[str, str] | None = None
) -> tuple[Database, list[Diagnostic]]:
    """The database flowctx queries: ``uri`` or ``FLOWCTX_MONGO_URI``, else the embedded one."""
    uri = uri or (env or {}).get(URI_ENV) or None
    if uri:
        try:
            warning = _uri_timeout_warning(uri)
            return MongoDatabase(uri), [warning] if warning else []
        except Exception as exc:  # a malformed URI: say so, fall back to the seeds
            db = EmbeddedDatabase(root)
            problems = db.load_seeds()
            msg = f"cannot use MongoDB URI {mask_text(uri)}: {mask_text(str(exc))}; using seeds"
            return db, [Diagnostic(URI_ENV, 0, 0, msg, severity="warning"), *problems]
    db = EmbeddedDatabase(root)
    return db, db.load_seeds()
