"""The 5.51.3 step machine's answers in the shapes every view shares: a ``RouteDecision`` for
one hop (``flowctx routes``, the app) and the generic ``routing.trace.Trace`` for a whole run
(``flowctx trace``), so an MJ flow's answer sits beside a Mozaiks workflow's."""

from __future__ import annotations

from dataclasses import replace

from flowctx_core.memberjunction.flow.machine import Hop
from flowctx_core.memberjunction.flow.run import RunTrace
from flowctx_core.routing.decision import Candidate, RouteDecision
from flowctx_core.routing.trace import Outcome, Step, Trace


def hop_decision(hop: Hop) -> RouteDecision:
    """The hop as a route decision: its candidates, the chosen one (a starting step has none:
    the winner stands alone) and why."""
    cands = hop.candidates
    winner = None
    if hop.winner is not None:
        winner = next((c for c in cands if c.note.endswith("chosen")), None)
        if winner is None or hop.source is None:
            winner = Candidate(
                -1,
                hop.winner.description,
                None,
                None,
                "always",
                hop.winner.name,
                None,
                None,
                None,
                hop.winner.at("StartingStep"),
                "starting step",
            )
            cands = ()
        if hop.entered_failure:
            note = f"{winner.note}; fails once entered: {hop.entered_failure}"
            winner = replace(winner, note=note)
            cands = tuple(winner if c.index == winner.index else c for c in cands)
    source = hop.source.name if hop.source is not None else "(start)"
    return RouteDecision("flow", source, tuple(cands), winner, hop.reason, hop.ended, hop.failed)


def _rule(decision: RouteDecision) -> int | None:
    for n, cand in enumerate(decision.candidates, 1):
        if cand is decision.winner:
            return n
    return None


_OUTCOMES: dict[str, Outcome] = {
    "ended": "ended",
    "chat": "ended",
    "failed": "failed",
    "uncovered": "uncovered",
    "limit": "max_turns",
}


def as_trace(run: RunTrace) -> Trace:
    """A whole run in the generic trace shape: one step per step the run entered, its winner
    the step the run went on to; the run's end in the runtime's words."""
    start = run.start.winner.name if run.start.winner is not None else ""
    notes: list[str] = []
    if run.start.winner is not None and run.start.entered_failure:
        notes.append(f"'{start}' fails as soon as it is entered: {run.start.entered_failure}")
    steps: list[Step] = []
    for n, rs in enumerate(run.steps, 1):
        hop = rs.hop
        if hop is None:
            # the run stopped at this step: a Chat, an outcome not given, an error entering it
            if run.end == "chat":
                steps.append(
                    Step(n, rs.step.name, None, None, run.message or "", ended=True, closed="chat")
                )
            elif run.end == "failed":
                steps.append(
                    Step(
                        n, rs.step.name, None, None, run.message or "", failed=True, closed="failed"
                    )
                )
            continue
        decision = hop_decision(hop)
        winner = hop.winner.name if hop.winner is not None else None
        closed = None
        if hop.winner is None:
            closed = "failed" if hop.failed else ("chat" if hop.chat else "completed")
        reason = hop.reason if hop.message is None or hop.winner is not None else (f"{hop.reason}")
        steps.append(
            Step(
                n,
                rs.step.name,
                winner,
                _rule(decision),
                reason,
                ended=hop.winner is None,
                failed=hop.failed and hop.winner is None,
                decision=decision,
                closed=closed,
            )
        )
    if not run.steps and run.start.winner is None:
        reason = run.start.reason
    else:
        reason = run.message or (steps[-1].reason if steps else "")
    return Trace(run.agent.name, start, tuple(steps), _OUTCOMES[run.end], reason, tuple(notes))
