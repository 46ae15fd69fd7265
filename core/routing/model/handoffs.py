"""``handoffs.yaml`` (legacy Mozaiks routing), with what the legacy HandoffManager accepts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import (
    Field,
    field_validator,
)

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import YamlDoc
from flowctx_core.routing.model.common import (
    EXPRESSION_CONDITION_TYPES,
    HANDOFF_TERMINATE_ALIASES,
    HANDOFF_USER_ALIASES,
    PRE_SCOPES,
    ConditionScope,
    Entry,
    HandoffConditionType,
    HandoffType,
    RoutingModel,
    document_keys,
    entries,
    grouped,
    lower_text,
    top_mapping,
)


class HandoffRule(RoutingModel):
    source_agent: str
    target_agent: str
    handoff_type: HandoffType
    condition: str | None = None
    # the legacy runtime lowercases both and takes the aliases listed in the constants above
    condition_type: HandoffConditionType | None = None
    condition_scope: ConditionScope | None = None
    # present in real Mozaiks handoff files; the target is already named by target_agent
    transition_target: (
        Literal["AgentTarget", "RevertToUserTarget", "TerminateTarget", "StayTarget"] | None
    ) = None
    description: str | None = None

    @field_validator("condition_type", "condition_scope", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return lower_text(value)

    @property
    def is_expression(self) -> bool:
        """An expression by type, or by a ``${`` in the text even without the type."""
        if self.condition_type in EXPRESSION_CONDITION_TYPES:
            return True
        if self.condition_type in ("llm", "string_llm"):
            return False
        return bool(self.condition and "${" in self.condition)

    @property
    def is_pre(self) -> bool:
        return self.condition_scope in PRE_SCOPES

    @property
    def target_label(self) -> str:
        """``user``/``terminate`` for the spellings the runtime reads as those, else the agent."""
        if self.target_agent in HANDOFF_USER_ALIASES:
            return "user"
        if self.target_agent in HANDOFF_TERMINATE_ALIASES:
            return "terminate"
        return self.target_agent


class HandoffsDocument(RoutingModel):
    """The file as a whole. ``parse_handoffs`` takes its keys from here and validates each
    rule on its own; ``flowctx schema handoffs`` is this model."""

    handoff_rules: list[HandoffRule] = Field(default_factory=list)


@dataclass(frozen=True)
class HandoffsFile:
    file: str
    doc: YamlDoc | None
    rules: tuple[Entry[HandoffRule], ...]
    diagnostics: tuple[Diagnostic, ...] = ()

    # The file is immutable, so its index is worked out once: routing asks for an agent's
    # rules once per agent, and a scan of every rule each time made big files quadratic.
    # (cached_property writes the instance dict directly, which a frozen dataclass allows.)
    @cached_property
    def rules_by_source(self) -> dict[Any, tuple[Entry[HandoffRule], ...]]:
        """Every rule entry (valid or not) by its ``source_agent``, in file order."""

        def source(entry: Entry[HandoffRule]) -> Any:
            if entry.model is not None:
                return entry.model.source_agent
            return entry.raw.get("source_agent") if isinstance(entry.raw, dict) else None

        return grouped(self.rules, source)


def handoff_problems(rule: HandoffRule) -> list[tuple[str, str]]:
    if rule.handoff_type == "condition" and not rule.condition:
        return [("handoff_type", "a condition handoff needs 'condition'")]
    return []


def parse_handoffs(doc: YamlDoc, problems: list[Diagnostic] | None = None) -> HandoffsFile:
    diags = list(problems or [])
    keys, _ = document_keys(HandoffsDocument)
    data = top_mapping(doc, keys, keys, diags)
    rules = list(entries(doc, "handoff_rules", data, HandoffRule, diags))
    for n, entry in enumerate(rules):
        if entry.model is None:
            continue
        extra = [doc.diag((*entry.path, f), m) for f, m in handoff_problems(entry.model)]
        if extra:
            diags.extend(extra)
            rules[n] = Entry(
                entry.index, entry.model, entry.raw, entry.loc, entry.path, tuple(extra)
            )
    return HandoffsFile(doc.file, doc, tuple(rules), tuple(diags))
