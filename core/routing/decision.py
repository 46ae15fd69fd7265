"""Route decisions as frozen data: every candidate in evaluation order, the winner and why.

Conditions are evaluated without an explain tree (about 25 times cheaper); each candidate
builds its tree on first use, so a view of many paths pays only for the trees it shows. Trees
come from the evaluator masked: values read through secret-bearing names (``context`` in
MemberJunction conditions; in Mozaiks conditions, what the user typed and the variables the
matrix treats as secret) and through secret-looking keys show as ``***``, except booleans and
absence. The unmasked tree is built only when the caller reveals it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from flowctx_core.base.secrets import KEY_REASON, MASK, is_secret_key, mask_text
from flowctx_core.expressions import EvalResult, ExplainNode, ExprError, evaluate
from flowctx_core.expressions.explain import MARKED_REASON, SecretPaths, jsonable
from flowctx_core.expressions.explain import masked as masked_value
from flowctx_core.model.filenames import ROUTING_FILES
from flowctx_core.model.matrix import Loc

Kind = Literal["flow", "transition_graph", "handoffs"]
CandidateOutcome = Literal["true", "false", "error", "always", "not evaluable", "skipped"]

KIND_FILES: dict[str, str] = dict(ROUTING_FILES)

#: builds a candidate's explain tree: ``explainer(reveal)``
Explainer = Callable[[bool], ExplainNode | None]
_SHOWN = 120


def evaluate_explained(
    text: str, scope: Mapping[str, Any], dialect: str, secret_roots: SecretPaths
) -> tuple[EvalResult, Explainer]:
    """The verdict now, and how to explain it later over the same scope (which callers must
    not mutate in between)."""
    roots = dict(secret_roots) if isinstance(secret_roots, Mapping) else frozenset(secret_roots)
    result = evaluate(text, scope, dialect)
    return result, ConditionExplainer(text, scope, dialect, roots)


class ConditionExplainer:
    """Builds a condition's explain tree on demand, and keeps what it was evaluated over so
    that whoever shows the verdict can ask whether it read a secret
    (``flowctx_core.expressions.taint``)."""

    __slots__ = ("dialect", "roots", "scope", "text")

    def __init__(
        self, text: str, scope: Mapping[str, Any], dialect: str, roots: SecretPaths
    ) -> None:
        self.text = text
        self.scope = scope
        self.dialect = dialect
        self.roots = roots

    def __call__(self, reveal: bool) -> ExplainNode | None:
        return evaluate(
            self.text,
            self.scope,
            self.dialect,
            explain=True,
            secret_roots=self.roots,
            reveal_secrets=reveal,
        ).explain


def _show(value: Any) -> str:
    text = MASK if value == MASK and isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def value_node(
    text: str, value: Any, *, secret: bool, reveal: bool, why: str = MARKED_REASON
) -> ExplainNode:
    """An explain leaf for a value the router read itself (``context_equals``); a masked
    value says why, as the evaluator's explain does."""
    shown = jsonable(value) if reveal else masked_value(value, tainted=secret)
    display = _show(shown)
    if secret and not reveal and shown == MASK:
        display = f"{display} (secret: {why})"
    return ExplainNode(text, shown, (), None, 0, 0, display)


def verdict_node(text: str, holds: bool, children: tuple[ExplainNode, ...] = ()) -> ExplainNode:
    return ExplainNode(text, holds, children, None, 0, 0, "true" if holds else "false")


def is_secret_name(name: str, roots: Collection[str]) -> bool:
    return name in roots or is_secret_key(name)


def secret_why(name: str) -> str:
    """The reason shown for a secret name's masked value."""
    return KEY_REASON if is_secret_key(name) else MARKED_REASON


@dataclass(frozen=True)
class Candidate:
    """One path or rule considered for the route, in evaluation order."""

    index: int  # position in its file's list (0-based)
    description: str | None
    condition: str | None
    dialect: str | None  # "mj" | "ag2" | "mozaiks" | None when there is no expression
    outcome: CandidateOutcome
    target: str
    priority: int | None  # flows only: Mozaiks rules are ordered by position
    #: the explain tree (display-ready, masked) or the function that builds it on demand
    explained: ExplainNode | Explainer | None = field(compare=False)
    error: ExprError | str | None
    loc: Loc
    note: str = ""
    _memo: dict[bool, ExplainNode | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def explain(self) -> ExplainNode | None:
        """The masked explain tree."""
        return self.explain_tree()

    def explain_tree(self, *, reveal: bool = False) -> ExplainNode | None:
        source = self.explained
        if source is None or isinstance(source, ExplainNode):
            return source
        if reveal not in self._memo:
            self._memo[reveal] = source(reveal)
        return self._memo[reveal]

    def explain_lines(self, *, reveal: bool = False) -> list[str]:
        node = self.explain_tree(reveal=reveal)
        return node.lines() if node is not None else []

    @property
    def error_message(self) -> str | None:
        if self.error is None:
            return None
        return mask_text(self.error if isinstance(self.error, str) else self.error.message)

    def to_json(self, *, reveal: bool = False) -> dict[str, Any]:
        node = self.explain_tree(reveal=reveal)
        error: dict[str, Any] | None = None
        if self.error is not None:
            span = self.error if isinstance(self.error, ExprError) else None
            error = {
                "message": self.error_message,
                "start": span.start if span else None,
                "end": span.end if span else None,
            }
        return {
            "index": self.index,
            "description": self.description,
            "condition": self.condition,
            "dialect": self.dialect,
            "outcome": self.outcome,
            "target": self.target,
            "priority": self.priority,
            "explain": node.to_json() if node is not None else None,
            "error": error,
            "location": str(self.loc),
            "note": mask_text(self.note),
        }


def chosen(candidate: Candidate) -> Candidate:
    note = f"{candidate.note}; chosen" if candidate.note else "chosen"
    return replace(candidate, note=note)


@dataclass(frozen=True)
class RouteDecision:
    """Where the runtime goes next from ``source``, with every candidate it considered."""

    kind: Kind
    source: str
    candidates: tuple[Candidate, ...]
    winner: Candidate | None
    reason: str
    ended: bool
    #: the run fails here (a MemberJunction path to a step that does not exist)
    failed: bool = False
    #: why the runtime never reads this file ("" when it does): its rules route nothing
    unread: str = ""

    @property
    def file(self) -> str:
        return self.candidates[0].loc.file if self.candidates else KIND_FILES[self.kind]

    def to_json(self, *, reveal: bool = False) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "file": self.file,
            "source": self.source,
            "winner": self.winner.target if self.winner is not None else None,
            "winner_index": self.winner.index if self.winner is not None else None,
            "reason": mask_text(self.reason),
            "ended": self.ended,
            "failed": self.failed,
            "unread": self.unread or None,
            "candidates": [c.to_json(reveal=reveal) for c in self.candidates],
        }
