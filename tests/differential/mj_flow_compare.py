"""flowctx's 5.51.3 step machine beside the real ``FlowAgentType``: the cases and the comparison.

For every flow agent of a workspace: the starting step (under a few payloads), and from every
step a batch of one-hop cases (the step's own result as 5.51.3 stores it, a Failed result, bare
Retry/Success results, payloads that flip the conditions, flowContext execution paths that
revisit the step). Both sides answer the same question: the step the run enters next (and
whether it fails as soon as entered), or how the run ends (completed, failed, with the
runtime's message) after BaseAgent's hand-back of failed decisions.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flowctx_core.memberjunction.agents import MjWorkspace
from flowctx_core.memberjunction.flow import machine
from flowctx_core.memberjunction.flow.model import Agent
from tests.differential.mj_flow_oracle import FlowOracle, world

_LITERAL = re.compile(
    r"payload((?:\.[A-Za-z_$][\w$]*)+)\s*(===|==|!==|!=|>=|<=|>|<)\s*"
    r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?|true|false|null)"
)


def _set(payload: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    out = dict(payload)
    cur = out
    parts = dotted.strip(".").split(".")
    for part in parts[:-1]:
        nxt = cur.get(part)
        nxt = dict(nxt) if isinstance(nxt, dict) else {}
        cur[part] = nxt
        cur = nxt
    cur[parts[-1]] = value
    return out


def _literal(text: str) -> Any:
    if text in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[text]
    if text[0] in "'\"":
        return text[1:-1]
    return float(text) if "." in text else int(text)


def payload_variants(agent: Agent, step_id: str | None) -> list[dict[str, Any]]:
    """``{}`` and payloads that make the step's path conditions hold or fail."""
    out: list[dict[str, Any]] = [{}]
    paths = agent.paths_from(step_id) if step_id else agent.paths
    for p in paths:
        for m in _LITERAL.finditer(p.condition or ""):
            value = _literal(m.group(3))
            out.append(_set({}, m.group(1), value))
            other = (
                value + 1
                if isinstance(value, (int, float)) and not isinstance(value, bool)
                else (not value if isinstance(value, bool) else "other")
            )
            out.append(_set({}, m.group(1), other))
    seen: list[dict[str, Any]] = []
    for p in out:
        if p not in seen:
            seen.append(p)
    return seen[:6]


def step_results(agent: Agent, step: Any, payload: Any) -> list[Any]:
    return [
        machine.default_result(step, payload),
        {"step": "Failed", "terminate": False, "errorMessage": "the step failed"},
        {"step": "Retry"},
        {"step": "Success", "terminate": False},
        machine.action_result(step, payload, success=False),
    ]


def cases_for(agent: Agent, rng: random.Random, small: bool = False) -> list[dict]:
    """Every combination for a hand-written agent; for drawn ones (``small``), the step's own
    result and one other (Failed, bare, a failed action), under a payload and flowContext drawn."""
    cases: list[dict] = []
    for payload in payload_variants(agent, None)[: 1 if small else 6]:
        cases.append({"op": "start", "agentId": agent.id, "payload": payload})
    ids = [s.id for s in agent.steps]
    for step in agent.steps:
        payloads = payload_variants(agent, step.id)
        results = step_results(agent, step, {})
        contexts: list[dict | None] = [None]
        if len(ids) > 1:
            others = [i for i in ids if i != step.id]
            # the step already ran before another: a revisit, whose stepResult is the other's
            contexts.append(
                {"executionPath": [step.id, others[0]], "completedSteps": [step.id, others[0]]}
            )
        if small:
            combos = [
                (
                    rng.choice(payloads),
                    result,
                    rng.choice(contexts),
                    rng.choice([None, {"flag": True}]),
                )
                for result in (results[0], rng.choice(results[1:]))
            ]
        else:
            combos = [
                (p, r, fc, d)
                for p in payloads
                for r in results
                for fc in contexts
                for d in (None, {"flag": True})
            ]
        for payload, result, fc, data in combos:
            cases.append(
                {
                    "op": "hop",
                    "agentId": agent.id,
                    "fromId": step.id,
                    "stepResult": result,
                    "payload": payload,
                    "data": data,
                    "context": {"env": "prod"} if rng.random() < 0.3 else None,
                    "flowContext": fc,
                }
            )
    return cases


def flowctx_answer(agent: Agent, case: Mapping[str, Any]) -> dict[str, Any]:
    if case["op"] == "start":
        hop = machine.start(agent, case.get("payload"), case.get("data"), case.get("context"))
    else:
        src = agent.step(case["fromId"])
        assert src is not None
        hop = machine.next_hop(
            agent,
            src,
            case.get("stepResult"),
            case.get("payload"),
            case.get("data"),
            case.get("context"),
            case.get("flowContext"),
        )
    return normal(
        hop.winner.id if hop.winner is not None else None,
        hop.ended,
        hop.failed,
        hop.message,
        hop.entered_failure,
    )


def normal(winner: Any, ended: bool, failed: bool, message: Any, entered: Any) -> dict[str, Any]:
    if winner is not None and failed:
        # entering the step threw (a loop's Configuration is not JSON): the run fails there,
        # with the exception's message
        message = None
    return {
        "winner": winner,
        "ended": bool(ended),
        "failed": bool(failed),
        # how a run ends is compared by its message; a step entered, by whether it fails
        "message": None if winner is not None and not failed else message,
        "entered_failure": entered if winner is not None else None,
    }


def oracle_normal(answer: Mapping[str, Any]) -> dict[str, Any]:
    failed = bool(answer.get("failed"))
    winner = answer.get("winner")
    entered = answer.get("entered_failure")
    message = answer.get("message")
    if answer.get("fatal"):
        entered = message
    return normal(winner, answer.get("ended"), failed, message, entered)


@dataclass
class Tally:
    cases: int = 0
    agreed: int = 0
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)

    def kind_of(self, ans: Mapping[str, Any]) -> str:
        if ans["winner"] is not None:
            return "enters, fails at once" if ans["entered_failure"] else "enters a step"
        if ans["failed"]:
            return (
                "run fails (10 failures)"
                if "consecutive" in (ans["message"] or "")
                else "run fails"
            )
        return "flow ends"


def _asked(
    oracle: FlowOracle, workspaces: Iterable[MjWorkspace], draw: Callable[[Agent], list[dict]]
) -> list[tuple[Agent, dict, Any]]:
    """Each flow agent's drawn cases, asked of the engine in one batch: (agent, case, answer)."""
    batches = []
    index: list[tuple[Agent, dict]] = []
    for ws in workspaces:
        for a in ws.flows.values():
            # one world per agent: the engine's row searches are linear
            cases = draw(a)
            index += [(a, c) for c in cases]
            batches.append((world([a]), cases))
    answers = oracle.run(batches)
    return [(a, c, ans) for (a, c), ans in zip(index, answers, strict=True)]


def compare(
    oracle: FlowOracle, workspaces: Iterable[MjWorkspace], *, small: bool = False, seed: int = 0
) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for agent, case, ans in _asked(oracle, workspaces, lambda a: cases_for(a, rng, small)):
        mine = flowctx_answer(agent, case)
        theirs = oracle_normal(ans)
        tally.cases += 1
        if mine == theirs:
            tally.agreed += 1
            tally.kinds[tally.kind_of(mine)] += 1
        else:
            tally.disagreements.append(
                {"agent": agent.name, "case": case, "flowctx": mine, "runtime": theirs}
            )
    return tally


# -- whole runs --------------------------------------------------------------------------------
REPLIES: list[Any] = [
    {},
    {"x": 5},
    {"flag": True},
    {"x": 1, "name": "ok"},
    {"validation": {"valid": True}},
    {"taskComplete": True, "message": "all done"},
    {"nextStep": {"type": "Chat"}},
    {"status": "pending"},
    {"brandOK": True},
    {"permissions": {"users": {"canCreate": True}}},
]


def _output_keys(step: Any) -> list[str]:
    import json as _json

    try:
        mapping = _json.loads(step.output_mapping or "{}")
    except ValueError:
        return []
    return (
        [k for k in mapping if isinstance(k, str) and k != "*"] if isinstance(mapping, dict) else []
    )


def draw_outcomes(agent: Agent, rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for step in agent.steps:
        if rng.random() < 0.1:
            continue  # a step the run may reach with no outcome given
        if step.type == "Action":
            keys = [*_output_keys(step), "x", "flag"]
            outputs = {
                k: rng.choice([True, False, 3, 7, "ok", {"valid": True}])
                for k in rng.sample(keys, rng.randint(0, len(keys)))
            }
            out[step.name] = {"success": rng.random() < 0.8, "outputs": outputs}
        elif step.type == "Prompt":
            out[step.name] = {"reply": rng.choice(REPLIES)}
        elif step.type == "Sub-Agent":
            o: dict[str, Any] = {"success": rng.random() < 0.8}
            if rng.random() < 0.5:
                o["payload"] = {"x": rng.randint(0, 9)}
            if rng.random() < 0.05:
                o["chat"] = True
            out[step.name] = o
        else:
            out[step.name] = {"payload": {"x": rng.randint(0, 9)}} if rng.random() < 0.5 else {}
    return out


def run_cases_for(agent: Agent, rng: random.Random, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        payload = rng.choice(payload_variants(agent, None))
        cases.append(
            {
                "op": "run",
                "agentId": agent.id,
                "payload": payload,
                "data": rng.choice([None, {"flag": True, "userApproval": True}]),
                "context": rng.choice([None, {"environment": "production"}]),
                "outcomes": draw_outcomes(agent, rng),
                "defaults": rng.random() < 0.3,
                "maxSteps": 12,
            }
        )
    return cases


def flowctx_run(agent: Agent, case: Mapping[str, Any]) -> dict[str, Any]:
    from flowctx_core.memberjunction.flow.run import run_flow

    trace = run_flow(
        agent,
        case["outcomes"],
        case.get("payload"),
        case.get("data"),
        case.get("context"),
        defaults=case["defaults"],
        max_steps=case["maxSteps"],
    )
    message = trace.message if trace.end in ("ended", "failed") else None
    if trace.fatal:  # the exception the run throws, in the runtime's words
        message = f"threw: {message}"
    return {
        "steps": [s.step.name for s in trace.steps],
        "end": trace.end,
        "message": message,
        # a failed run's payload is whatever its last failed decision carried: not compared
        "payload": None if trace.end == "failed" else trace.payload,
    }


def oracle_run(answer: Mapping[str, Any]) -> dict[str, Any]:
    end = answer["end"]
    message = answer.get("message") if end in ("ended", "failed") else None
    payload = None if end == "failed" else answer["payload"]
    return {"steps": answer["steps"], "end": end, "message": message, "payload": payload}


def compare_runs(
    oracle: FlowOracle, workspaces: Iterable[MjWorkspace], *, per_agent: int, seed: int = 0
) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for agent, case, ans in _asked(oracle, workspaces, lambda a: run_cases_for(a, rng, per_agent)):
        mine, theirs = flowctx_run(agent, case), oracle_run(ans)
        tally.cases += 1
        if mine == theirs:
            tally.agreed += 1
            tally.kinds[f"run {mine['end']}"] += 1
        else:
            tally.disagreements.append(
                {"agent": agent.name, "case": case, "flowctx": mine, "runtime": theirs}
            )
    return tally
