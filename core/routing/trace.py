"""A whole run, not one hop: who speaks after whom, turn by turn, and the rule that chose each.

``trace`` starts at the workflow's first speaker (its ``initial_agent``; ``user`` there is
resolved through the graph first, as mozaiks 0.2.0's ``_resolve_executable_initial_agent``
does) or at the one given, and plays a script of turns. Each turn says what the speaker did:
the context keys it set or deleted, and the tools it called, in call order (a MemberJunction
step's assumed result, ``result``, rides on the same shape). After each turn the route is the
``Router``'s decision, over the starting context with every update so far applied (the
runtime's ``WorkflowAdapter`` applies a packet's context updates before it selects the next
speaker). The run stops where the runtime's channel closes, or where the script runs out:

* ``ended``: a rule's target is ``terminate`` (its termination reason), or no rule matched
  (``no_transition_matched``: the runtime's network runner reports that as a failed run);
* ``max_turns``: the turn just played was the workflow's ``max_turns``-th and the graph picked
  another speaker (``on_accepted`` closes the channel; a graph's own end wins over it);
* ``failed``: the routing call raised (a condition that fails to evaluate), or the workflow
  would not start;
* ``uncovered``: the next speaker has a turn the script does not say anything about.

Every step has the same generic shape whatever the runtime family, so a flow step's answer fits
beside an agent's: ``{"turn", "source", "winner", "rule", "location", "reason", "ended",
"failed"}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field

from flowctx_core.model.matrix import Matrix
from flowctx_core.model.validation import Strict
from flowctx_core.routing import Router
from flowctx_core.routing.decision import RouteDecision
from flowctx_core.routing.model import Routes, is_user
from flowctx_core.routing.transitions import NO_MATCH

Outcome = Literal["ended", "max_turns", "failed", "uncovered", "refused"]
#: the keys a turn's JSON object may hold; an object with none of them is all context updates
TURN_KEYS = ("set", "delete", "tools", "result")
#: mozaiks 0.2.0's network runner reports a run closed for one of these as failed
#: (mozaiksai/core/adapters/ag2_network_runner.py ``_FAILED_CLOSE_REASONS``)
FAILED_CLOSES = frozenset({"workflow_failed", NO_MATCH, "max_turns"})


@dataclass(frozen=True)
class Turn:
    """What one turn does: who speaks (``None``: whoever the route picked), the context it sets
    and deletes, the tools it calls in call order, and a flow step's assumed result."""

    agent: str | None = None
    set: Mapping[str, Any] = field(default_factory=dict)
    delete: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    result: Any = None

    @classmethod
    def from_json(cls, agent: str | None, value: Any) -> Turn:
        """A turn from its JSON object (``{"set": {...}, "tools": [...], ...}``, or a bare
        object of context updates). Raises ``ValueError`` saying what is wrong."""
        if value is None:
            return cls(agent)
        if not isinstance(value, dict):
            raise ValueError("a turn is a JSON object (context updates, or set/delete/tools)")
        if not any(k in value for k in TURN_KEYS):
            return cls(agent, dict(value))
        extra = sorted(k for k in value if k not in TURN_KEYS)
        if extra:
            raise ValueError(
                f"unknown key(s) {', '.join(extra)} in a turn: give set, delete, tools or "
                "result (or a bare object of context updates)"
            )
        updates = value.get("set") or {}
        if not isinstance(updates, dict):
            raise ValueError("'set' must be an object of context updates")
        tools = value.get("tools") or []
        if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
            raise ValueError("'tools' must be a list of tool names, in the order they were called")
        gone = value.get("delete") or []
        if not isinstance(gone, list) or not all(isinstance(k, str) for k in gone):
            raise ValueError("'delete' must be a list of context names")
        return cls(agent, dict(updates), tuple(gone), tuple(tools), value.get("result"))


@dataclass(frozen=True)
class Step:
    """One turn of the run and the route after it."""

    turn: int
    source: str
    winner: str | None
    #: the chosen rule's number in evaluation order (as test files and ``routes`` number it)
    rule: int | None
    reason: str
    ended: bool = False
    failed: bool = False
    decision: RouteDecision | None = field(default=None, compare=False)
    #: why the run closes after this turn, in the runtime's words (``workflow_complete``,
    #: ``workflow_failed``, ``no_transition_matched``); None when it goes on
    closed: str | None = None

    @property
    def location(self) -> str | None:
        d = self.decision
        return str(d.winner.loc) if d is not None and d.winner is not None else None

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "source": self.source,
            "winner": self.winner,
            "rule": self.rule,
            "location": self.location,
            "file": self.decision.file if self.decision is not None else None,
            "kind": self.decision.kind if self.decision is not None else None,
            "reason": self.reason,
            "ended": self.ended,
            "failed": self.failed,
            "closed": self.closed,
        }


@dataclass(frozen=True)
class Trace:
    workflow: str
    start: str
    steps: tuple[Step, ...]
    outcome: Outcome
    reason: str
    #: notes on the start (``initial_agent: user`` resolved through the graph...)
    notes: tuple[str, ...] = ()

    @property
    def path(self) -> list[str]:
        """The speakers in order, from the first; the last route's target is appended when it
        is a speaker the run goes on to (the turn the script did not cover, or max_turns)."""
        out = [s.source for s in self.steps]
        last = self.steps[-1] if self.steps else None
        if last is not None and last.winner is not None and not last.ended and not last.failed:
            out.append(last.winner)
        if not self.steps:
            out.append(self.start)
        return out

    @property
    def closed(self) -> str | None:
        """The runtime's close reason (``max_turns`` too); None when the run did not close."""
        if self.outcome == "max_turns":
            return "max_turns"
        return self.steps[-1].closed if self.steps and self.outcome == "ended" else None

    @property
    def run_failed(self) -> bool:
        """Whether the runtime reports the run as failed (not just ended)."""
        if self.outcome in ("failed", "refused"):
            return True
        return self.closed in FAILED_CLOSES

    def to_json(self) -> dict[str, Any]:
        return {
            "workflow": self.workflow,
            "start": self.start,
            "path": self.path,
            "outcome": self.outcome,
            "closed": self.closed,
            "reason": self.reason,
            "run_failed": self.run_failed,
            "notes": list(self.notes),
            "steps": [s.to_json() for s in self.steps],
        }


def _rule_number(decision: RouteDecision) -> int | None:
    for n, cand in enumerate(decision.candidates, 1):
        if cand is decision.winner:
            return n
    return None


def _deciding(decisions: Sequence[RouteDecision]) -> RouteDecision | None:
    """The decision of the file the runtime reads (a file it never opens decides nothing)."""
    read = [d for d in decisions if not d.unread]
    return read[0] if read else None


def _step(routes: Routes, turn: int, source: str, decisions: Sequence[RouteDecision]) -> Step:
    decision = _deciding(decisions)
    if decision is None:
        # no rule of a read file leaves this speaker: the graph's default target
        return Step(
            turn,
            source,
            "terminate",
            None,
            f"no rule leaves {source}: the run ends ({NO_MATCH})",
            ended=True,
            closed=NO_MATCH,
        )
    if decision.failed:
        return Step(turn, source, None, None, decision.reason, failed=True, decision=decision)
    if decision.winner is None:
        ended_reason = decision.reason
        closed = "workflow_terminated"
        if decision.kind == "transition_graph" and decision.reason == NO_MATCH:
            ended_reason = f"no rule holds: the run ends ({NO_MATCH})"
            closed = NO_MATCH
        return Step(
            turn, source, None, None, ended_reason, ended=True, decision=decision, closed=closed
        )
    return Step(
        turn,
        source,
        decision.winner.target,
        _rule_number(decision),
        decision.reason,
        ended=decision.ended,
        decision=decision,
        closed=_close_reason(routes, decision) if decision.ended else None,
    )


def _close_reason(routes: Routes, decision: RouteDecision) -> str:
    """A terminate target's reason: the rule's ``termination_reason``, else the compiler's
    default (``workflow_complete``)."""
    graph = routes.transitions
    if decision.kind == "transition_graph" and graph is not None and decision.winner is not None:
        rule = graph.rules[decision.winner.index].model
        if rule is not None and rule.termination_reason:
            return rule.termination_reason
        return "workflow_complete"
    return "workflow_terminated"


def _same(a: str, b: str) -> bool:
    return a == b or (is_user(a) and is_user(b)) or a.casefold() == b.casefold()


def trace(
    routes: Routes,
    matrix: Matrix,
    turns: Sequence[Turn],
    *,
    start: str | None = None,
    initial_agent: str | None = None,
    max_turns: int | None = None,
    context: Mapping[str, Any] | None = None,
    context_removed: Sequence[str] = (),
) -> Trace:
    """The run of ``routes`` over ``matrix`` (the resolved context) with ``context`` over it,
    from ``start`` (else ``initial_agent``, else the first source with rules), playing
    ``turns`` in order until the run ends or the script runs out."""
    from flowctx_core.routing import sources

    current: dict[str, Any] = dict(context or {})
    removed = set(context_removed)
    notes: list[str] = []
    first = start or initial_agent
    if first is None:
        known = sources(routes)
        if not known:
            return Trace(routes.workflow, "", (), "uncovered", "no routing rule to start from")
        first = known[0]
        notes.append(f"no initial_agent: the run is traced from {first}, the first source")
    if start is None and initial_agent is not None and is_user(initial_agent):
        # mozaiks 0.2.0 resolves a symbolic user entry through the graph before the first turn
        entry = _deciding(
            Router(routes, matrix, context_overrides=current, context_removed=removed).decide(
                "user"
            )
        )
        target = entry.winner.target if entry is not None and entry.winner is not None else None
        if target is None or is_user(target) or target == "terminate":
            reason = (
                f"initial_agent {initial_agent} resolves to {target or 'no agent'} through the "
                "graph: the runner refuses to start (initial agent 'user' is not registered)"
            )
            return Trace(routes.workflow, initial_agent, (), "refused", reason, tuple(notes))
        notes.append(
            f"initial_agent {initial_agent} resolves through the graph to {target} "
            "(the run starts there)"
        )
        first = target
    steps: list[Step] = []
    speaker = first
    for number, turn in enumerate(turns, 1):
        if turn.agent is not None and not _same(turn.agent, speaker):
            return Trace(
                routes.workflow,
                first,
                tuple(steps),
                "uncovered",
                f"turn {number} of the script is {turn.agent}'s, but {speaker} speaks",
                tuple(notes),
            )
        for key in turn.delete:
            current.pop(key, None)
            removed.add(key)
        current.update(turn.set)
        removed.difference_update(turn.set)
        router = Router(
            routes,
            matrix,
            context_overrides=current,
            context_removed=tuple(removed),
            tools_called=turn.tools,
            step_result=turn.result,
        )
        step = _step(routes, number, speaker, router.decide(speaker))
        steps.append(step)
        if step.failed:
            return Trace(routes.workflow, first, tuple(steps), "failed", step.reason, tuple(notes))
        if step.ended or step.winner is None:
            return Trace(routes.workflow, first, tuple(steps), "ended", step.reason, tuple(notes))
        if max_turns is not None and number >= max_turns:
            reason = (
                f"turn {number} reached max_turns ({max_turns}) with {step.winner} next: the "
                "runtime closes the run (max_turns)"
            )
            return Trace(routes.workflow, first, tuple(steps), "max_turns", reason, tuple(notes))
        speaker = step.winner
    played = len(steps)
    return Trace(
        routes.workflow,
        first,
        tuple(steps),
        "uncovered",
        f"the script does not say what {speaker}'s turn ({played + 1}) does",
        tuple(notes),
    )


# -- the script as a file (``flowctx trace --script``) and in test cases -----------------------


class TurnSpec(Strict):
    """One scripted turn as a file writes it (a trace script, a test case's ``turns:``)."""

    #: who speaks this turn (checked against the route); omitted: whoever the route picked
    agent: str | None = Field(default=None, min_length=1)
    set: dict[str, Any] = Field(default_factory=dict)
    delete: list[str] = Field(default_factory=list)
    #: the tools called this turn, in the order they were called
    tools: list[str] = Field(default_factory=list)
    #: a flow step's assumed result (stepResult)
    result: Any = None

    def turn(self) -> Turn:
        return Turn(self.agent, dict(self.set), tuple(self.delete), tuple(self.tools), self.result)


class ScriptSpec(Strict):
    """A trace script file: ``{workflow, from, context, turns}``."""

    workflow: str | None = None
    from_: str | None = Field(default=None, alias="from", min_length=1)
    context: dict[str, Any] = Field(default_factory=dict)
    turns: list[TurnSpec] = Field(default_factory=list)


@dataclass(frozen=True)
class Script:
    """A trace's inputs read from a file: the workflow, the start, the starting context and
    the turns."""

    workflow: str | None
    start: str | None
    context: Mapping[str, Any]
    turns: tuple[Turn, ...]


def read_script(path: Any, display: str) -> tuple[Script | None, list[Any]]:
    """A script file (YAML or JSON): ``{workflow, from, context, turns: [{agent, set, delete,
    tools, result}]}``; ``None`` and located problems when it does not read."""
    from pydantic import ValidationError

    from flowctx_core.base.yamlmarks import load_yaml_file
    from flowctx_core.model.validation import located_errors

    doc, problems = load_yaml_file(path, display)
    if doc is None:
        return None, problems
    data = doc.data if doc.data is not None else {}
    model = ScriptSpec
    if not isinstance(data, dict):
        return None, [*problems, doc.diag((), "a trace script is a mapping: from, context, turns")]
    try:
        spec = model.model_validate(data)
    except ValidationError as exc:
        return None, [*problems, *located_errors(exc, doc, (), model, data)]
    turns = tuple(t.turn() for t in spec.turns)
    return Script(spec.workflow, spec.from_, dict(spec.context), turns), problems
