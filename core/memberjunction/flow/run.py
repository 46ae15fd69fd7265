"""A whole 5.51.3 run of a flow agent, step by step, from what each step is assumed to return.

Each step's outcome is given by its name: an Action's ``{"success", "outputs", "message"}``
(its output parameters, mapped into the payload by ``ActionOutputMapping`` as
``PostProcessActionStep`` and BaseAgent's payload update do), a Prompt's ``{"reply"}`` (parsed
JSON: deep-merged into the payload, or a Chat that ends the run), a Sub-Agent's
``{"success", "payload", "chat"}``, a loop's ``{"payload"}``, or any step's raw
``{"stepResult"}``. The run goes on until the flow ends, fails, chats, reaches a step no
outcome covers (unless ``defaults``: then each step does what it is for), or ``max_steps``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from flowctx_core.expressions.js.values import truthy
from flowctx_core.memberjunction.flow import machine
from flowctx_core.memberjunction.flow.actions import output_changes
from flowctx_core.memberjunction.flow.machine import FlowState, Hop
from flowctx_core.memberjunction.flow.model import Agent, Step

End = Literal["ended", "failed", "chat", "uncovered", "limit"]
DELETE = "__DELETE__"


def apply_update(payload: Any, update: Mapping[str, Any]) -> Any:
    """BaseAgent's payload update with ``updateElements`` (PayloadManager): objects merge key
    by key, ``"__DELETE__"`` removes a key, anything else replaces."""
    result = copy.deepcopy(payload) if isinstance(payload, dict) else {}
    for key, value in update.items():
        if value == DELETE and key in result:
            del result[key]
        elif isinstance(value, Mapping) and isinstance(result.get(key), dict):
            result[key] = apply_update(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


@dataclass(frozen=True)
class RunStep:
    """One step of the run: the step entered, what it returned, and where the run went."""

    step: Step
    entered_failure: str | None
    outcome: Mapping[str, Any] | None
    result: Any
    payload: Any
    hop: Hop | None


@dataclass
class RunTrace:
    agent: Agent
    start: Hop
    steps: list[RunStep] = field(default_factory=list)
    end: End = "ended"
    message: str | None = None
    payload: Any = None
    #: the run ends with an error thrown while entering a step (a loop's JSON Configuration)
    fatal: bool = False


#: a step's outcome by its name, or a function of the step and how many outcomes were used
Outcomes = Mapping[str, Any] | Callable[[Step, int], Any]


def _outcome(outcomes: Outcomes, step: Step, used: int) -> Mapping[str, Any] | None:
    # by the exact name: two steps may differ only in case ("b start", "B start")
    got = outcomes(step, used) if callable(outcomes) else outcomes.get(step.name)
    return copy.deepcopy(got) if isinstance(got, Mapping) else None


def _params(outputs: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"Name": k, "Value": v, "Type": "Output"} for k, v in outputs.items()]


def step_result(
    step: Step, outcome: Mapping[str, Any] | None, payload: Any, state: FlowState
) -> tuple[Any, Any, str | None]:
    """(the result BaseAgent stores, the payload after the step, "chat" when it ends the run
    as a Chat)."""
    if outcome is not None and "stepResult" in outcome:
        raw = outcome["stepResult"]
        new = raw.get("newPayload") if isinstance(raw, Mapping) else None
        return raw, new if truthy(new) else payload, None
    o = dict(outcome or {})
    if step.type == "Action":
        given = o.get("outputs")
        outputs: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        success = bool(o.get("success", True))
        update, special = output_changes(outputs, step.output_mapping)
        state.special.update(special)
        after = apply_update(payload, update) if update else payload
        result = machine.action_result(
            step, after, success=success, params=_params(outputs), message=o.get("message", "")
        )
        result["previousPayload"] = payload if truthy(payload) else None
        return result, after, None
    if step.type == "Prompt":
        reply = o.get("reply", {})
        if isinstance(reply, Mapping) and (
            (isinstance(reply.get("nextStep"), Mapping) and reply["nextStep"].get("type") == "Chat")
            or (truthy(reply.get("taskComplete")) and truthy(reply.get("message")))
        ):
            return None, payload, "chat"
        after = machine.deep_merge(payload, reply) if isinstance(reply, Mapping) else payload
        result = machine.prompt_result(reply)
        return result, after, None
    if step.type == "Sub-Agent":
        if truthy(o.get("chat")):
            return None, payload, "chat"
        after = o.get("payload", payload)
        return machine.sub_agent_result(after, success=bool(o.get("success", True))), after, None
    after = o.get("payload", payload)
    return machine.loop_result(after), after, None


def run_flow(
    agent: Agent,
    outcomes: Outcomes | None = None,
    payload: Any = None,
    data: Any = None,
    context: Any = None,
    *,
    defaults: bool = False,
    max_steps: int = 100,
    start_at: Step | None = None,
) -> RunTrace:
    outcomes = outcomes if outcomes is not None else {}
    initial = payload if payload is not None else {}
    if start_at is not None:
        hop = machine.start_at(agent, start_at, initial, data, context)
    else:
        hop = machine.start(agent, initial, data, context)
    used = 0
    trace = RunTrace(agent, hop, payload=initial)
    current = initial
    while True:
        if hop.winner is None:
            trace.end = "failed" if hop.failed else "ended"
            trace.message = hop.message
            return trace
        if len(trace.steps) >= max_steps:
            trace.end = "limit"
            trace.message = f"stopped after {max_steps} steps"
            return trace
        step = hop.winner
        entered = hop.entered_failure
        state = hop.state if hop.state is not None else FlowState(agent.id)
        if hop.failed:  # entering the step threw: the run fails there
            trace.steps.append(RunStep(step, hop.entered_failure, None, None, current, None))
            trace.end, trace.message, trace.fatal = "failed", hop.message, True
            return trace
        failures: int | None = None
        if hop.entered_failure is not None:
            failures = hop.failures
            if failures >= machine.MAX_CONSECUTIVE_FAILED_STEPS:
                trace.steps.append(RunStep(step, entered, None, None, current, None))
                trace.end = "failed"
                trace.message = (
                    f"Agent terminated after {failures} consecutive failed steps. "
                    f"Last error: {hop.entered_failure}"
                )
                return trace
            result: Any = {"step": "Failed", "terminate": False, "errorMessage": entered}
            if not hop.entered_failure.startswith("Flow execution error: "):
                # an error DetermineNextStep caught carries no payload; the others do
                result["newPayload"] = result["previousPayload"] = current
            outcome = None
            chat = None
        else:
            outcome = _outcome(outcomes, step, used)
            if outcome is not None:
                used += 1
            if outcome is None and not defaults:
                trace.steps.append(RunStep(step, None, None, None, current, None))
                trace.end = "uncovered"
                trace.message = f"no outcome given for step '{step.name}'"
                return trace
            before = current
            result, current, chat = step_result(step, outcome, current, state)
            if step.type == "Prompt" and before is initial:
                # 5.51.3 merges a prompt's reply into the payload object in place: while no
                # step has replaced that object it is also params.payload, which a failed
                # decision's hand-back falls back to
                initial = current
            if chat is not None:
                trace.steps.append(RunStep(step, None, outcome, None, current, None))
                trace.end, trace.message = "chat", f"'{step.name}' ends the run as a Chat"
                trace.payload = current
                return trace
        hop = machine.next_hop(
            agent,
            step,
            result,
            current,
            data,
            context,
            state=state,
            params_payload=initial,
            failures=failures,
        )
        current = hop.payload if hop.payload is not None else current
        trace.steps.append(RunStep(step, entered, outcome, result, current, hop))
        trace.payload = current
