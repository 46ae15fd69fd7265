"""State triggers: what one message does to a workflow's state variables (mozaiks 0.2.0,
``mozaiksai/core/workflow/context/derived.py``).

``agent_text`` fires when the message comes from ``agent`` and its stripped text matches;
``user_text`` likewise on user messages; ``ui_response`` when ``tool`` completes. Matching is
``equals`` (case-insensitive), ``contains`` (case-insensitive) or ``regex`` (``search`` with
IGNORECASE); a text trigger sets ``True``, or the regex's first capture group when it has one.
``ui_response`` sets the value at the dotted ``response_key`` of the tool's response.

Decisions where the spec is silent (also in docs/commands/trigger.md): a ``match`` with several
rules tries equals, then contains, then regex, and the first that matches decides; when several
triggers of one variable fire, the first in declaration order wins; a ``ui_response`` trigger
without ``response_key`` sets the whole response; a response without the key changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from flowctx_core.base.regexbound import BoundedPattern, RegexBudget, RegexTimeout, shared_budget
from flowctx_core.buildctx import dig, is_missing
from flowctx_core.model.contract import Match, Trigger
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.runtime.policy import (
    AGENT_TEXT,
    SENTINEL_TEXT_TRIGGER,
    UI_RESPONSE_TRIGGER,
    USER_TEXT_TRIGGER,
    AuthorityPolicy,
)

MessageKind = Literal["agent", "user", "ui_response"]
Outcome = Literal[
    "fired",
    "no match",
    "other sender",
    "other tool",
    "missing key",
    "shadowed",
    "regex timed out",
    "refused by authority",
]


@dataclass(frozen=True)
class Message:
    """One event of a run: an agent's or the user's text, or a UI tool's response."""

    kind: MessageKind
    text: str = ""
    agent: str | None = None
    tool: str | None = None
    response: Any = None

    def describe(self) -> str:
        if self.kind == "agent":
            return f"agent {self.agent} says {self.text!r}"
        if self.kind == "user":
            return f"user says {self.text!r}"
        return f"tool {self.tool} completes"


@dataclass(frozen=True)
class Checked:
    """One trigger considered for the message, and what happened."""

    variable: str
    trigger: str
    loc: str
    outcome: Outcome
    ui_hidden: bool = False


@dataclass(frozen=True)
class Change:
    variable: str
    old: Any
    new: Any
    trigger: str
    loc: str
    ui_hidden: bool = False


@dataclass(frozen=True)
class TriggerResult:
    message: Message
    changes: tuple[Change, ...]
    checked: tuple[Checked, ...]
    #: what the UI would not show: the message text (or tool response) a ui_hidden trigger ate
    hidden: tuple[str, ...]
    #: the state after the message
    state: Mapping[str, Any]


def describe_match(match: Match) -> str:
    parts = []
    if match.equals is not None:
        parts.append(f"equals {match.equals!r}")
    if match.contains is not None:
        parts.append(f"contains {match.contains!r}")
    if match.regex is not None:
        # shown as written: repr() would double every backslash of the pattern
        parts.append(f"regex /{match.regex}/")
    return " or ".join(parts)


def describe_trigger(trigger: Trigger) -> str:
    if trigger.type == "agent_text":
        text = f"agent_text from {trigger.agent}"
    elif trigger.type == "user_text":
        text = "user_text"
    else:
        key = f", response_key {trigger.response_key}" if trigger.response_key else ""
        return f"ui_response from {trigger.tool}{key}" + (
            ", ui_hidden" if trigger.ui_hidden else ""
        )
    assert trigger.match is not None
    text += f", {describe_match(trigger.match)}"
    return text + (", ui_hidden" if trigger.ui_hidden else "")


_NO_MATCH: Any = object()


def match_text(match: Match, text: str, *, capture: bool = True) -> Any:
    """The value a text trigger sets for ``text``, or ``_NO_MATCH`` (``capture``: a regex's
    first group is the value, else every match sets true)."""
    stripped = text.strip()
    low = stripped.lower()
    if match.equals is not None and low == match.equals.lower():
        return True
    if match.contains is not None and match.contains.lower() in low:
        return True
    if match.regex is not None:
        # the author's pattern, bounded in time: RegexTimeout reaches the caller, located there
        pattern = BoundedPattern(match.regex, re.IGNORECASE)
        found = pattern.search(stripped)
        if found:
            return found.group(1) if pattern.groups and capture else True
    return _NO_MATCH


def _fire(trigger: Trigger, message: Message, *, capture: bool = True) -> tuple[Outcome, Any]:
    if trigger.type == "ui_response":
        if message.kind != "ui_response" or message.tool != trigger.tool:
            return "other tool", None
        if not trigger.response_key:
            return "fired", message.response
        value = dig(message.response, trigger.response_key)
        return ("missing key", None) if is_missing(value) else ("fired", value)
    if trigger.type == "agent_text" and (message.kind != "agent" or message.agent != trigger.agent):
        return "other sender", None
    if trigger.type == "user_text" and message.kind != "user":
        return "other sender", None
    assert trigger.match is not None
    try:
        value = match_text(trigger.match, message.text, capture=capture)
    except RegexTimeout as exc:
        # the runtime would hang on this message; say so at the trigger instead
        return "regex timed out", str(exc)
    return ("no match", None) if value is _NO_MATCH else ("fired", value)


def _loc(workflow: WorkflowSnapshot, name: str, index: int) -> str:
    if workflow.doc is None:
        return workflow.contract_file
    line, col = workflow.doc.where(("definitions", name, "source", "triggers", index))
    return f"{workflow.doc.file}:{line}:{col}"


def simulate(
    workflow: WorkflowSnapshot,
    state: Mapping[str, Any],
    message: Message,
    policy: AuthorityPolicy | None = None,
) -> TriggerResult:
    """Apply ``message`` to ``state`` through every state trigger of ``workflow``; with the
    runtime's authority ``policy``, a write the variable does not authorize is refused (the
    runtime drops it: mozaiks 0.2.0, mozaiksai/core/workflow/context/derived.py)."""
    # every regex trigger of the message shares one time budget, however many there are
    with shared_budget(RegexBudget()):
        return _simulate(workflow, state, message, policy)


def _writer(trigger: Trigger, triggers: list[Trigger]) -> str:
    """The writer a fired trigger writes as (derived.py): sentinel_text_trigger when every
    agent_text trigger of its variable is an exact ``equals``."""
    if trigger.type == "ui_response":
        return UI_RESPONSE_TRIGGER
    if trigger.type == "user_text":
        return USER_TEXT_TRIGGER
    agent_text = [t for t in triggers if t.type == "agent_text"]
    sentinel = all(t.match is not None and bool((t.match.equals or "").strip()) for t in agent_text)
    return SENTINEL_TEXT_TRIGGER if sentinel else AGENT_TEXT


def _simulate(
    workflow: WorkflowSnapshot,
    state: Mapping[str, Any],
    message: Message,
    policy: AuthorityPolicy | None,
) -> TriggerResult:
    after = dict(state)
    capture = workflow.runtime.text_trigger_value == "capture"
    changes: list[Change] = []
    checked: list[Checked] = []
    hidden: list[str] = []
    for spec in workflow.variables:
        d = spec.definition
        if d is None or d.source.type != "state":
            continue
        fired = False
        held = policy.get(spec.name) if policy is not None else None
        for i, trigger in enumerate(d.source.triggers):
            desc = describe_trigger(trigger)
            loc = _loc(workflow, spec.name, i)
            outcome, value = _fire(trigger, message, capture=capture)
            if outcome == "fired" and fired:
                outcome = "shadowed"
            if (
                outcome == "fired"
                and held is not None
                and not held.can_write(_writer(trigger, list(d.source.triggers)))
            ):
                outcome = "refused by authority"
            checked.append(Checked(spec.name, desc, loc, outcome, trigger.ui_hidden))
            if outcome != "fired":
                continue
            fired = True
            changes.append(
                Change(spec.name, after.get(spec.name), value, desc, loc, trigger.ui_hidden)
            )
            after[spec.name] = value
            if trigger.ui_hidden:
                shown = (
                    message.text if message.kind != "ui_response" else f"{message.tool} response"
                )
                if shown not in hidden:
                    hidden.append(shown)
    return TriggerResult(message, tuple(changes), tuple(checked), tuple(hidden), after)
