"""Immutable runtime authority: what a before_chat hook may not touch (mozaiks 0.2.0,
``mozaiksai/core/workflow/context/authority.py``).

Compares the launch context before and after a hook and reports every protected key that was
added, removed or changed. Values compare as canonical JSON: mapping order is ignored, lists and
tuples are equal, mapping keys compare by their JSON string form (the integer 200 equals "200"),
sequence order and scalar values are significant (``1``, ``1.0`` and ``true`` all differ), and a
mapping whose keys collide after string conversion cannot be compared, so it fails closed
(kind ``ambiguous``).

Decision where the spec is silent: protected names match case-insensitively (``APP_ID`` is
``app_id``), since a hook writing a differently-cased identity key is no less suspicious.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from flowctx_core.base.secrets import MASK, is_secret_key, mask_value
from flowctx_core.model.workspace import WorkflowSnapshot

PROTECTED_NAMES = (
    "app_id",
    "user_id",
    "chat_id",
    "workflow_name",
    "tenant_id",
    "workspace_id",
    "workspace_path",
    "repo_path",
    "repository_path",
    "permissions",
    "permission_claims",
    "entitlement_state",
    "entitlements",
    "build_registry_id",
)
PROTECTED_SUFFIXES = ("_app_id", "_user_id", "_tenant_id", "_workspace_id")
PROTECTED_PARTS = ("credential", "secret", "token", "password", "api_key")

Kind = Literal["added", "removed", "changed", "ambiguous"]


def protection_reason(name: str, extra: Mapping[str, str] | None = None) -> str | None:
    """Why ``name`` is protected, or None. ``extra`` maps workflow-protected names to reasons."""
    if extra and name in extra:
        return extra[name]
    low = name.lower()
    if low in PROTECTED_NAMES:
        return "runtime identity, scope or permission"
    for suffix in PROTECTED_SUFFIXES:
        if low.endswith(suffix):
            return f"name ends with {suffix}"
    for part in PROTECTED_PARTS:
        if part in low:
            return f"name contains '{part}' (secret handle)"
    return None


def workflow_protected(workflow: WorkflowSnapshot) -> dict[str, str]:
    """The workflow's own protected variables: declared immutable, and build_context ones."""
    out: dict[str, str] = {}
    for spec in workflow.variables:
        d = spec.definition
        raw = spec.raw if isinstance(spec.raw, dict) else {}
        src: dict[str, Any] = raw["source"] if isinstance(raw.get("source"), dict) else {}
        immutable = d.immutable_runtime_authority if d else raw.get("immutable_runtime_authority")
        authority = d.authority_class if d else raw.get("authority_class")
        stype = d.source.type if d else src.get("type")
        if authority == "immutable_runtime_authority":
            # how the runtime's definition model declares it
            out[spec.name] = "declared authority_class: immutable_runtime_authority"
        elif immutable is True:
            out[spec.name] = "declared immutable_runtime_authority: true"
        elif stype == "build_context":
            out[spec.name] = "build_context variable (callers cannot write it)"
    return out


class Ambiguous(Exception):
    """Mapping keys that collide once converted to strings: the value cannot be compared."""

    def __init__(self, path: str, keys: list[Any]) -> None:
        self.path = path
        self.keys = keys
        shown = " and ".join(repr(k) for k in keys)
        where = f" at {path}" if path else ""
        super().__init__(f"keys {shown} collide after string conversion{where}")


def json_key(key: Any) -> str:
    """A mapping key as JSON writes it (``True`` -> ``"true"``, ``200`` -> ``"200"``)."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)
    return str(key)


def canonical(value: Any, path: str = "") -> Any:
    """``value`` with mapping keys as strings and tuples as lists; raises ``Ambiguous``."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        originals: dict[str, Any] = {}
        for k, v in value.items():
            sk = json_key(k)
            if sk in out:
                raise Ambiguous(path, [originals[sk], k])
            originals[sk] = k
            out[sk] = canonical(v, f"{path}.{sk}" if path else sk)
        return out
    if isinstance(value, (list, tuple)):
        return [canonical(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


def canonical_json(value: Any, path: str = "") -> str:
    """The canonical JSON text two equal values share; raises ``Ambiguous``."""
    return json.dumps(
        canonical(value, path),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=True,
        default=lambda o: f"<{type(o).__name__}>{o!r}",
    )


@dataclass(frozen=True)
class Violation:
    key: str
    kind: Kind
    #: why the key is protected
    reason: str
    before: Any = None
    after: Any = None
    detail: str = ""

    def _safe(self, value: Any, reveal: bool) -> Any:
        if reveal:
            return value
        if is_secret_key(self.key) and value is not None:
            return MASK
        return mask_value(value)

    def shown(self, value: Any, *, reveal: bool = False) -> str:
        """A value as printed: compact JSON, masked unless ``reveal``."""
        return json.dumps(self._safe(value, reveal), ensure_ascii=False, default=str)

    def format(self, *, reveal: bool = False) -> str:
        if self.kind == "added":
            change = f"added: {self.shown(self.after, reveal=reveal)}"
        elif self.kind == "removed":
            change = f"removed (was {self.shown(self.before, reveal=reveal)})"
        elif self.kind == "changed":
            before = self.shown(self.before, reveal=reveal)
            after = self.shown(self.after, reveal=reveal)
            change = f"changed: {before} -> {after}"
        else:
            change = f"ambiguous: {self.detail} (fails closed)"
        return f"{self.key}: {change}  [{self.reason}]"

    def to_json(self, *, reveal: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "kind": self.kind, "reason": self.reason}
        if self.kind in ("removed", "changed"):
            out["before"] = self._safe(self.before, reveal)
        if self.kind in ("added", "changed"):
            out["after"] = self._safe(self.after, reveal)
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class AuthorityReport:
    violations: tuple[Violation, ...]
    #: every protected key present before or after, in order
    protected: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.violations


def _string_keys(doc: Mapping[Any, Any]) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Top-level keys as strings, and the string keys several originals collapse onto."""
    out: dict[str, Any] = {}
    originals: dict[str, list[Any]] = {}
    for k, v in doc.items():
        sk = json_key(k)
        originals.setdefault(sk, []).append(k)
        out[sk] = v
    return out, {k: ks for k, ks in originals.items() if len(ks) > 1}


def compare_launch(
    before: Mapping[Any, Any],
    after: Mapping[Any, Any],
    *,
    workflow: WorkflowSnapshot | None = None,
    protected: Iterable[str] = (),
) -> AuthorityReport:
    """Every protected key a before_chat hook added, removed or changed.

    ``workflow`` adds its immutable and build_context variables; ``protected`` adds names.
    """
    extra = workflow_protected(workflow) if workflow is not None else {}
    for name in protected:
        extra.setdefault(name, "protected by the caller")
    b, b_collide = _string_keys(before)
    a, a_collide = _string_keys(after)
    keys = list(dict.fromkeys([*b, *a]))
    checked: list[str] = []
    violations: list[Violation] = []
    for key in keys:
        reason = protection_reason(key, extra)
        if reason is None:
            continue
        checked.append(key)
        collide = b_collide.get(key) or a_collide.get(key)
        if collide:
            detail = str(Ambiguous("", collide))
            violations.append(Violation(key, "ambiguous", reason, detail=detail))
            continue
        if key not in b:
            violations.append(Violation(key, "added", reason, after=a[key]))
            continue
        if key not in a:
            violations.append(Violation(key, "removed", reason, before=b[key]))
            continue
        try:
            same = canonical_json(b[key], key) == canonical_json(a[key], key)
        except Ambiguous as exc:
            violations.append(Violation(key, "ambiguous", reason, b[key], a[key], str(exc)))
            continue
        if not same:
            violations.append(Violation(key, "changed", reason, b[key], a[key]))
    return AuthorityReport(tuple(violations), tuple(checked))
