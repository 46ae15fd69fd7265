"""Field values as the push stores them: folder defaults, database defaults, references.

Resolution follows MetadataSync 5.51.3's ``processFieldValue``: ``@parent:Field`` (the parent
record's stored value), ``@lookup:Entity.F=V[&F2=V2][?create&allowDefer&F3=V3]`` (pairs split
on ``&``, values trimmed and resolved in turn, matched case-insensitively against the records
in the files), ``@file:`` (read relative to the entity folder), ``@env:VAR`` (from the inputs
given to flowctx, never the process), ``@root:`` (the push has no root record: an error);
any other string starting with ``@`` is literal. Inline objects and arrays are resolved inside
and stored as 2-space JSON text. A lookup into an entity the files do not hold (actions,
prompts, agent types) is taken to exist in the database; one into the files' steps or paths
that matches nothing is a problem, located at the value.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.memberjunction.metadata.jsontree import Node
from flowctx_core.memberjunction.metadata.records import (
    AGENTS,
    FILE,
    PATHS,
    STEPS,
    Record,
    entity_key,
    read_file_reference,
)
from flowctx_core.model.matrix import Loc

PARENT: Final = "@parent:"
ROOT: Final = "@root:"
LOOKUP: Final = "@lookup:"
ENV: Final = "@env:"
URL: Final = "@url:"
TEMPLATE: Final = "@template:"
_PAIR = re.compile(r"^(.+?)=(.+)$", re.S)
_MAX_DEPTH = 50

#: the fields each routing entity has (core-entities 5.51.3): a folder default applies to a
#: record only for a field its entity has
ENTITY_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    AGENTS: frozenset(
        [
            "ID",
            "Name",
            "Description",
            "LogoURL",
            "ParentID",
            "ExposeAsAction",
            "ExecutionOrder",
            "ExecutionMode",
            "EnableContextCompression",
            "ContextCompressionMessageThreshold",
            "ContextCompressionPromptID",
            "ContextCompressionMessageRetentionCount",
            "TypeID",
            "Status",
            "DriverClass",
            "IconClass",
            "ModelSelectionMode",
            "PayloadDownstreamPaths",
            "PayloadUpstreamPaths",
            "PayloadSelfReadPaths",
            "PayloadSelfWritePaths",
            "PayloadScope",
            "FinalPayloadValidation",
            "FinalPayloadValidationMode",
            "FinalPayloadValidationMaxRetries",
            "MaxCostPerRun",
            "MaxTokensPerRun",
            "MaxIterationsPerRun",
            "MaxTimePerRun",
            "MinExecutionsPerRun",
            "MaxExecutionsPerRun",
            "StartingPayloadValidation",
            "StartingPayloadValidationMode",
            "DefaultPromptEffortLevel",
            "ChatHandlingOption",
            "DefaultArtifactTypeID",
            "OwnerUserID",
            "InvocationMode",
            "ArtifactCreationMode",
            "FunctionalRequirements",
            "TechnicalDesign",
            "InjectNotes",
            "MaxNotesToInject",
            "NoteInjectionStrategy",
            "InjectExamples",
            "MaxExamplesToInject",
            "ExampleInjectionStrategy",
            "IsRestricted",
            "MessageMode",
            "MaxMessages",
            "AttachmentStorageProviderID",
        ]
    ),
    STEPS: frozenset(
        [
            "ID",
            "AgentID",
            "Name",
            "Description",
            "StepType",
            "StartingStep",
            "TimeoutSeconds",
            "RetryCount",
            "OnErrorBehavior",
            "ActionID",
            "SubAgentID",
            "PromptID",
            "ActionOutputMapping",
            "PositionX",
            "PositionY",
            "Width",
            "Height",
            "Status",
            "ActionInputMapping",
            "LoopBodyType",
            "Configuration",
        ]
    ),
    PATHS: frozenset(
        [
            "ID",
            "OriginStepID",
            "DestinationStepID",
            "Condition",
            "Priority",
            "Description",
            "PathPoints",
        ]
    ),
}
#: what the database stores for a field the record leaves out (core-entities 5.51.3)
DB_DEFAULTS: Final[Mapping[str, Mapping[str, Any]]] = {
    AGENTS: {"Status": "Pending"},
    STEPS: {"Status": "Active", "StartingStep": False},
    PATHS: {"Priority": 0, "Condition": None},
}


@dataclass(frozen=True)
class ExternalRef:
    """A lookup into the database (an action, a prompt, an agent type): not in the files."""

    entity: str
    criteria: tuple[tuple[str, Any], ...]
    text: str

    def field(self, name: str) -> Any:
        for k, v in self.criteria:
            if k.lower() == name.lower():
                return v
        return None

    def __str__(self) -> str:
        return self.text


class _Failed(Exception):
    """A reference that cannot be resolved (its message is the problem shown)."""


UNRESOLVED: Final = object()


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Resolver:
    """Every record of the workspace, and their fields resolved on demand (memoised)."""

    def __init__(
        self,
        records: list[Record],
        env: Mapping[str, str],
        display_of: Callable[[Path], str],
    ) -> None:
        self.records = records
        self.env = env
        self.display_of = display_of
        self.problems: list[Diagnostic] = []
        self._seen: set[tuple[str, int, int, str]] = set()
        self._by_entity: dict[str, list[Record]] = {}
        for r in records:
            if not r.deleted:
                self._by_entity.setdefault(r.key, []).append(r)
        self._values: dict[tuple[int, str], Any] = {}
        self._busy: set[tuple[int, str]] = set()
        self._ids: dict[int, str] = {}
        self._index: dict[tuple[str, str], dict[str, list[Record]]] = {}

    # -- problems ------------------------------------------------------------------------
    def problem(self, loc: Loc, message: str, severity: str = "error") -> None:
        key = (loc.file, loc.line, loc.column, message)
        if key not in self._seen:
            self._seen.add(key)
            self.problems.append(
                Diagnostic(loc.file, loc.line, loc.column, message, severity)  # type: ignore[arg-type]
            )

    def of_entity(self, key: str) -> list[Record]:
        return self._by_entity.get(key, [])

    # -- identity ------------------------------------------------------------------------
    def record_id(self, rec: Record) -> str:
        """``primaryKey.ID`` (resolved), else an id the push would generate: flowctx cannot
        know it, so one is made up from where the record is written."""
        known = self._ids.get(id(rec))
        if known is not None:
            return known
        pk = rec.primary_key
        node = pk.get("ID") if pk is not None else None
        value: Any = None
        if node is not None:
            value = self.resolve(node, rec, rec.folder.folder, "primaryKey.ID")
        if value is None or value is UNRESOLVED or value == "":
            digest = hashlib.sha256(
                f"{rec.display}:{rec.node.loc.line}:{rec.node.loc.column}".encode()
            ).hexdigest()
            value = (
                f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-a{digest[17:20]}-{digest[20:32]}"
            ).upper()
        self._ids[id(rec)] = str(value)
        return str(value)

    def id_is_invented(self, rec: Record) -> bool:
        pk = rec.primary_key
        return pk is None or pk.get("ID") is None

    # -- fields --------------------------------------------------------------------------
    def has_field(self, rec: Record, name: str) -> bool:
        return name in rec.fields

    def source(self, rec: Record, name: str) -> tuple[Node | None, str]:
        """Where a field's value comes from: (node, "record" | "default" | "database")."""
        if name in rec.fields:
            return rec.fields[name], "record"
        known = ENTITY_FIELDS.get(rec.key)
        default = rec.folder.defaults.get(name)
        if default is not None and (known is None or name in known):
            return default, "default"
        return None, "database"

    def field_loc(self, rec: Record, name: str) -> Loc:
        node, _ = self.source(rec, name)
        return node.loc if node is not None else rec.node.loc

    def value(self, rec: Record, name: str) -> Any:
        """The stored value of field ``name`` (UNRESOLVED when a reference fails)."""
        if name == "ID":
            return self.record_id(rec)
        key = (id(rec), name)
        if key in self._values:
            return self._values[key]
        if key in self._busy:
            self.problem(self.field_loc(rec, name), f"{name}: the reference refers to itself")
            return UNRESOLVED
        self._busy.add(key)
        try:
            node, origin = self.source(rec, name)
            if node is None:
                found = DB_DEFAULTS.get(rec.key, {}).get(name)
            elif origin == "default":
                # the push resolves defaults with no parent record
                found = self.resolve(node, None, rec.folder.folder, name)
            else:
                found = self.resolve(node, rec, rec.folder.folder, name)
        finally:
            self._busy.discard(key)
        self._values[key] = found
        return found

    # -- references ----------------------------------------------------------------------
    def resolve(self, node: Node, rec: Record | None, base: Path, name: str) -> Any:
        try:
            return self._resolve_node(node, rec, base, 0)
        except _Failed as exc:
            self.problem(node.loc, f"{name}: {exc}")
            return UNRESOLVED

    def _resolve_node(self, node: Node, rec: Record | None, base: Path, depth: int) -> Any:
        if node.kind in ("object", "array"):
            plain = self._resolve_inside(node, rec, base, depth)
            return json.dumps(plain, indent=2, ensure_ascii=False)
        if node.kind != "string":
            return node.value
        return self._resolve_text(node.value, node, rec, base, depth)

    def _resolve_inside(self, node: Node, rec: Record | None, base: Path, depth: int) -> Any:
        if node.kind == "object":
            return {k: self._resolve_inside(v, rec, base, depth) for k, v in node.value.items()}
        if node.kind == "array":
            return [self._resolve_inside(v, rec, base, depth) for v in node.value]
        if node.kind == "string":
            out = self._resolve_text(node.value, node, rec, base, depth)
            return out.text if isinstance(out, ExternalRef) else out
        return node.value

    def _resolve_text(
        self, text: str, node: Node, rec: Record | None, base: Path, depth: int
    ) -> Any:
        if depth > _MAX_DEPTH:
            raise _Failed(f"references nested more than {_MAX_DEPTH} deep")
        if not text.startswith("@"):
            return text
        if text.startswith(FILE):
            rel = text[len(FILE) :].strip()
            record_dir = rec.file.parent if rec is not None else base
            from flowctx_core.base.fsview import is_file

            if record_dir != base and is_file(record_dir / rel):
                # MetadataSync's README reads @file: beside the JSON file; 5.51.3's push reads
                # it from the entity folder
                where = "a different file" if is_file(base / rel) else "nothing"
                self.problem(
                    node.loc,
                    f"{text}: 5.51.3's push reads this relative to the entity "
                    f"folder ({where} there), not beside the record file as "
                    "MetadataSync's README says",
                    "warning",
                )
            content = read_file_reference(base / rel, node, self.display_of, self.problems)
            if content is None:
                raise _Failed(
                    f"{text}: the file cannot be read (relative to the entity folder "
                    f"{self.display_of(base)})"
                )
            return self._resolve_node(content, rec, base, depth + 1)
        if text.startswith(TEMPLATE):
            self.problem(
                node.loc,
                f"{text}: documented and validated, but 5.51.3's push has no "
                "expansion for @template:, so the text is stored as written",
                "warning",
            )
            return text
        if text.startswith(PARENT):
            if rec is None or rec.parent is None:
                raise _Failed(f"{text}: no parent record (the push fails)")
            field = text[len(PARENT) :]
            parent = rec.parent
            actual = next((f for f in parent.fields if f.lower() == field.lower()), field)
            value = self.value(parent, "ID" if field.lower() == "id" else actual)
            if value is UNRESOLVED:
                raise _Failed(f"{text}: the parent's {field} is not resolved")
            return value
        if text.startswith(ROOT):
            raise _Failed(f"{text}: 5.51.3's push has no root record, so @root: fails")
        if text.startswith(LOOKUP):
            return self._lookup(text, node, rec, base, depth)
        if text.startswith(ENV):
            var = text[len(ENV) :]
            if var not in self.env:
                raise _Failed(
                    f"{text}: environment variable {var} is not set in the inputs "
                    "(give it with --env)"
                )
            return self.env[var]
        if text.startswith(URL):
            raise _Failed(f"{text}: flowctx does not fetch URLs")
        return text

    def _lookup(self, text: str, node: Node, rec: Record | None, base: Path, depth: int) -> Any:
        body = text[len(LOOKUP) :]
        m = re.match(r"^([^.]+)\.", body)
        if m is None:
            raise _Failed(f"invalid lookup format: {text}")
        entity = m.group(1)
        remaining = body[len(entity) + 1 :]
        lookup_part, _, flags_part = remaining.partition("?")
        flags = {f.split("=")[0].lower() for f in flags_part.split("&")} if flags_part else set()
        pairs: list[tuple[str, Any]] = []
        for pair in lookup_part.split("&"):
            pm = _PAIR.match(pair)
            if pm is None:
                raise _Failed(f"invalid lookup field format: {pair} in {text}")
            raw = pm.group(2).strip()
            val = self._resolve_text(raw, node, rec, base, depth + 1)
            pairs.append((pm.group(1).strip(), val))
        key = entity_key(entity)
        # every pair's index, smallest first: the records all of them hold, in file order
        lists = sorted((self._indexed(key, f, v) for f, v in pairs), key=len)
        if lists and lists[0]:
            others = [{id(r) for r in lst} for lst in lists[1:]]
            for cand in lists[0]:
                if all(id(cand) in other for other in others):
                    return self.record_id(cand)
        if key in (STEPS, PATHS):
            if "create" in flags:
                fields = {}
                for pair in flags_part.split("&"):
                    k, _, v = pair.partition("=")
                    if k and v and k.lower() not in ("create", "allowdefer"):
                        fields[k] = urllib.parse.unquote(v)
                self.problem(
                    node.loc,
                    f"{text}: no such record in the files; the push would "
                    "create one with only the lookup's fields",
                    "warning",
                )
                return ExternalRef(entity, tuple(pairs), text)
            wanted = " and ".join(f"{f} = {_text(v)!r}" for f, v in pairs)
            raise _Failed(f"{text}: no record of '{entity}' in the files has {wanted}")
        return ExternalRef(entity, tuple(pairs), text)

    def _indexed(self, key: str, field: str, value: Any) -> list[Record]:
        """The records of entity ``key`` whose ``field`` equals ``value`` (case-insensitive),
        in file order: an index per field, built on the first lookup that needs it."""
        index = self._index.get((key, field.lower()))
        if index is None:
            index = {}
            for cand in self.of_entity(key):
                actual = next((f for f in cand.fields if f.lower() == field.lower()), field)
                got = self.value(cand, "ID" if field.lower() == "id" else actual)
                if got is UNRESOLVED:
                    continue
                have = got.text if isinstance(got, ExternalRef) else got
                index.setdefault(_text(have).lower().strip(), []).append(cand)
            self._index[(key, field.lower())] = index
        want = value.text if isinstance(value, ExternalRef) else value
        return index.get(_text(want).lower().strip(), [])

    def _matches(self, cand: Record, field: str, value: Any) -> bool:
        actual = next((f for f in cand.fields if f.lower() == field.lower()), field)
        got = self.value(cand, "ID" if field.lower() == "id" else actual)
        if got is UNRESOLVED:
            return False
        want = value.text if isinstance(value, ExternalRef) else value
        have = got.text if isinstance(got, ExternalRef) else got
        return _text(have).lower().strip() == _text(want).lower().strip()
