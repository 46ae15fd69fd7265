"""The 5.51.3 step machine: what ``FlowAgentType`` and ``BaseAgent`` around it do next.

- **Starting step**: the agent must be Active (BaseAgent refuses any other before a step is
  chosen); its Active steps with ``StartingStep`` sorted by ``Name.localeCompare`` (ICU root
  collation) and the first one runs. None: a failed, non-terminating decision.
- **getValidPaths**: the step's paths sorted by priority, highest first, stable (ties keep the
  engine's order: the database's, taken here as the files' order); a path with no condition
  (null or "") is valid unevaluated; any other condition, whitespace included, is evaluated
  over ``{payload, stepResult, flowContext, data, context}`` and valid when it succeeds with a
  truthy value; an evaluation error skips the path.
- **PreProcessNextStep** after a step: results whose ``step`` is Retry, Success or Failed are
  routed. The result is stored for the step, the step appended to ``executionPath`` only if
  absent (so on a cycle ``stepResult`` is the result of the path's last step) and marked
  completed. No valid path: the run fails when the result was Failed, else it ends. Otherwise
  the first path's destination: missing is a failed decision; not Active passes to the next
  valid path whose destination exists and is Active, else a failed decision.
- **Entering a step** (``createStepForFlowNode``): an Action, Sub-Agent or Prompt step without
  its reference, a loop without Configuration or with a Prompt body, and any other type
  (``Human``) fail at once; the step is still the one entered.
- **BaseAgent's hand-back**: a failed decision that does not terminate goes back through
  PreProcessNextStep from the same step, with that failure as the step's result, until one
  terminates or ``MAX_CONSECUTIVE_FAILED_STEPS`` (10) in a row end the run.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from flowctx_core.expressions.js.jsonerrors import json_error
from flowctx_core.expressions.js.strings import locale_compare
from flowctx_core.expressions.js.values import truthy
from flowctx_core.memberjunction.flow.model import Agent, Step, StepPath
from flowctx_core.model.matrix import Loc
from flowctx_core.routing.decision import (
    Candidate,
    CandidateOutcome,
    chosen,
    evaluate_explained,
)

MAX_CONSECUTIVE_FAILED_STEPS: Final = 10
DIALECT: Final = "mj"
SECRET_ROOTS: Final[Mapping[str, str]] = {"context": "context may hold API keys"}
ROUTED: Final = ("Retry", "Success", "Failed")
NO_PATHS: Final = "Flow completed - no more paths to follow"
NO_STARTING_STEPS: Final = "No starting steps defined for flow agent"
NO_CURRENT_STEP: Final = "No current step in flow state after action execution"


def _same_id(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.strip().lower() == b.strip().lower()


@dataclass
class FlowState:
    """``FlowExecutionState``: ids as the runtime keeps them (exact strings)."""

    agent_id: str
    current: str | None = None
    completed: list[str] = field(default_factory=list)
    path: list[str] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)
    special: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def seeded(cls, agent_id: str, flow_context: Mapping[str, Any] | None) -> FlowState:
        """A state whose ``completedSteps`` and ``executionPath`` are those given (ids, as the
        runtime keeps them; names never match); ``stepCount`` always follows completedSteps."""
        fc = dict(flow_context or {})
        state = cls(agent_id)
        for sid in fc.get("completedSteps") or []:
            if sid not in state.completed:
                state.completed.append(sid)
        state.path = list(fc.get("executionPath") or [])
        return state

    def flow_context(self) -> dict[str, Any]:
        return {
            "currentStepId": self.current,
            "completedSteps": list(self.completed),
            "executionPath": list(self.path),
            "stepCount": len(self.completed),
        }

    def last_result(self) -> Any:
        if not self.path:
            return None
        found = self.results.get(self.path[-1])
        return found if truthy(found) else None

    def record(self, step_id: str, result: Any) -> None:
        self.results[step_id] = result
        if step_id not in self.path:
            self.path.append(step_id)
        if step_id not in self.completed:
            self.completed.append(step_id)


def starting_steps(agent: Agent) -> list[Step]:
    active = [s for s in agent.steps if s.status == "Active" and s.starting]

    def by_name(a: Step, b: Step) -> int:
        return locale_compare(a.name, b.name)

    return sorted(active, key=functools.cmp_to_key(by_name))


def condition_scope(payload: Any, state: FlowState, data: Any, context: Any) -> dict[str, Any]:
    return {
        "payload": payload,
        "stepResult": state.last_result(),
        "flowContext": state.flow_context(),
        "data": data if truthy(data) else {},
        "context": context if truthy(context) else {},
    }


def _candidate(agent: Agent, path: StepPath, index: int, scope: Mapping[str, Any]) -> Candidate:
    target = agent.name_of(path.destination) if path.destination else "?"
    cond = path.condition
    if not cond:
        return Candidate(
            index,
            path.description,
            None,
            DIALECT,
            "always",
            target,
            path.priority,
            None,
            None,
            path.loc,
            "no condition: always valid",
        )
    result, explainer = evaluate_explained(cond, scope, DIALECT, SECRET_ROOTS)
    where = path.at("Condition")
    if not result.success:
        return Candidate(
            index,
            path.description,
            cond,
            DIALECT,
            "error",
            target,
            path.priority,
            explainer,
            result.error,
            where,
            "skipped: the condition failed",
        )
    outcome: CandidateOutcome = "true" if result.value else "false"
    return Candidate(
        index,
        path.description,
        cond,
        DIALECT,
        outcome,
        target,
        path.priority,
        explainer,
        None,
        where,
    )


def sorted_paths(agent: Agent, step_id: str) -> list[StepPath]:
    return sorted(agent.paths_from(step_id), key=lambda p: -p.priority)


def valid_paths(
    agent: Agent, step_id: str, payload: Any, state: FlowState, data: Any, context: Any
) -> tuple[list[Candidate], list[int]]:
    """Every candidate in evaluation order, and the positions of the valid ones."""
    scope = condition_scope(payload, state, data, context)
    ordered = sorted_paths(agent, step_id)
    cands = [_candidate(agent, p, agent.path_index[id(p)], scope) for p in ordered]
    return cands, [i for i, c in enumerate(cands) if c.outcome in ("true", "always")]


@dataclass(frozen=True)
class Entered:
    """``createStepForFlowNode``: the step entered, and its failure if it fails at once."""

    step: Step
    failure: str | None = None
    #: the run itself fails (an exception in the runtime: a loop's Configuration not JSON)
    fatal: str | None = None
    #: that exception's own message, as the runtime words it (what a caught one reports)
    thrown: str | None = None


def _js_text(value: Any) -> str:
    return "null" if value is None else str(value)


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity are Python's, not JSON's


def _parse_json(text: str | None) -> tuple[Any, str | None]:
    """``JSON.parse(text || '{}')``, and where it throws, its message in V8's words."""
    try:
        return json.loads(text or "{}", parse_constant=_no_constant), None
    except (ValueError, RecursionError):
        return None, f"SyntaxError: {json_error(text or '{}')[0]}"


def enter(step: Step) -> Entered:
    t = step.type
    if t == "Action":
        if step.action is None:
            return Entered(step, f"Action step '{step.name}' has no ActionID")
        return Entered(step)
    if t == "Sub-Agent":
        if step.sub_agent is None:
            return Entered(step, f"Sub-Agent step '{step.name}' has no SubAgentID")
        return Entered(step)
    if t == "Prompt":
        if step.prompt is None:
            return Entered(step, f"Prompt step '{step.name}' has no PromptID")
        return Entered(step)
    if t in ("ForEach", "While"):
        if not step.configuration:
            return Entered(step, f"{t} step '{step.name}' has no Configuration")
        config, bad = _parse_json(step.configuration)
        if bad is not None:
            why = f"the {t} step's Configuration is not JSON ({bad})"
            return Entered(step, fatal=why, thrown=bad.removeprefix("SyntaxError: "))
        if config is None:
            first = "collectionPath" if t == "ForEach" else "condition"  # the first key read
            thrown = f"Cannot read properties of null (reading '{first}')"
            return Entered(step, fatal=f"the {t} step's Configuration is JSON null", thrown=thrown)
        if step.loop_body == "Action":
            if step.action is None:
                return Entered(step, "Action not found for loop body: null")
            _, bad = _parse_json(step.input_mapping)
            if bad is not None:
                why = f"the loop's ActionInputMapping is not JSON ({bad})"
                return Entered(step, fatal=why, thrown=bad.removeprefix("SyntaxError: "))
        elif step.loop_body == "Sub-Agent" and step.sub_agent is None:
            return Entered(step, "Sub-Agent not found for loop body: null")
        if step.loop_body == "Prompt":
            return Entered(step, "Prompt loop bodies not yet fully supported")
        return Entered(step)
    return Entered(step, f"Unknown step type: {_js_text(t)}")


Outcome = Literal["enter", "ended", "failed", "retry-failed", "not-routed", "chat"]


@dataclass(frozen=True)
class Attempt:
    """One pass of PreProcessNextStep (or the starting-step choice)."""

    step_result: Any
    candidates: tuple[Candidate, ...]
    outcome: Outcome
    message: str
    entered: Entered | None = None
    #: the failed decision handed back (non-terminating), as BaseAgent passes it on
    decision: Mapping[str, Any] | None = None


def _failed(message: str, payload: Any | None = None, *, with_payload: bool = True) -> dict:
    d: dict[str, Any] = {"step": "Failed", "terminate": False, "errorMessage": message}
    if with_payload:
        d["newPayload"] = payload
        d["previousPayload"] = payload
    return d


def preprocess(
    agent: Agent,
    result: Any,
    payload: Any,
    state: FlowState,
    params_payload: Any,
    data: Any,
    context: Any,
) -> tuple[Attempt, Any]:
    """PreProcessNextStep; returns the attempt and the payload it routed with."""
    step_kind = result.get("step") if isinstance(result, Mapping) else None
    if step_kind not in ROUTED:
        return Attempt(
            result,
            (),
            "not-routed",
            f"stepResult.step is {json.dumps(step_kind)}: FlowAgentType routes only "
            "Retry, Success and Failed results",
        ), payload
    if isinstance(result, Mapping) and truthy(result.get("flowPromptStepId")):
        return Attempt(result, (), "not-routed", "a prompt step marker: the prompt runs"), payload
    new_payload = result.get("newPayload") if isinstance(result, Mapping) else None
    current_payload = next((p for p in (payload, new_payload, params_payload) if truthy(p)), None)
    if current_payload is None:
        current_payload = {}
    if state.current is None:
        d = _failed(NO_CURRENT_STEP, current_payload)
        return Attempt(result, (), "retry-failed", NO_CURRENT_STEP, decision=d), current_payload
    state.record(state.current, result)
    return _choose(agent, result, current_payload, state, data, context, step_kind), current_payload


def _choose(
    agent: Agent,
    result: Any,
    current_payload: Any,
    state: FlowState,
    data: Any,
    context: Any,
    step_kind: Any,
) -> Attempt:
    """getValidPaths from the current step, then the destination as both entry points pick it."""
    assert state.current is not None
    cands, valid = valid_paths(agent, state.current, current_payload, state, data, context)
    if not valid:
        if step_kind == "Failed":
            msg = result.get("errorMessage") if isinstance(result, Mapping) else None
            msg = msg if truthy(msg) else "Flow step failed with no recovery path"
            return Attempt(result, tuple(cands), "failed", str(msg))
        msg = (state.special.get("message") if step_kind != "prompt" else None) or NO_PATHS
        return Attempt(result, tuple(cands), "ended", msg)
    first = cands[valid[0]]
    ordered = sorted_paths(agent, state.current)
    first_path = ordered[valid[0]]
    dest = agent.step(first_path.destination)
    if dest is None:
        msg = f"Destination step not found: {first_path.destination}"
        cands[valid[0]] = replace(first, note="destination step does not exist")
        d = _failed(msg, with_payload=False)
        return Attempt(result, tuple(cands), "retry-failed", msg, decision=d)
    if dest.status != "Active":
        cands[valid[0]] = replace(first, note=f"passed over: destination is {dest.status}")
        for i in valid[1:]:
            alt = agent.step(ordered[i].destination)
            if alt is not None and alt.status == "Active":
                cands[i] = chosen(cands[i])
                state.current = alt.id
                why = (
                    f"next valid path to an Active step, priority {ordered[i].priority}"
                    f"; passed over '{dest.name}' ({dest.status})"
                )
                return Attempt(result, tuple(cands), "enter", why, enter(alt))
            cands[i] = replace(
                cands[i],
                note="passed over: destination does not exist"
                if alt is None
                else f"passed over: destination is {alt.status}",
            )
        msg = f"No active steps found. Step '{dest.name}' has status: {dest.status}"
        d = _failed(msg, current_payload)
        return Attempt(result, tuple(cands), "retry-failed", msg, decision=d)
    cands[valid[0]] = chosen(first)
    state.current = dest.id
    why = "no condition" if first.outcome == "always" else "condition is true"
    msg = f"first valid path, priority {first_path.priority}, {why}"
    return Attempt(result, tuple(cands), "enter", msg, enter(dest))


def _parsed_reply(reply: Any) -> Any:
    """``parseJSONResponse``: a string is parsed as JSON; a falsy or unparsable reply is null."""
    if not truthy(reply):
        return None
    if isinstance(reply, str):
        try:
            return json.loads(reply)
        except ValueError:
            return None
    return reply


def determine_next(
    agent: Agent, reply: Any, payload: Any, state: FlowState, data: Any, context: Any
) -> tuple[Attempt, Any]:
    """DetermineNextStep after a Prompt step: the reply (``promptResult.result``) ends the run
    as a Chat, or is deep-merged into the payload and stored as the step's result; then the
    paths from the step (no valid path: the flow completes)."""
    parsed = _parsed_reply(reply)
    current = payload if payload is not None else {}
    if isinstance(parsed, Mapping):
        next_step = parsed.get("nextStep")
        if (isinstance(next_step, Mapping) and next_step.get("type") == "Chat") or (
            truthy(parsed.get("taskComplete")) and truthy(parsed.get("message"))
        ):
            msg = parsed.get("message") if truthy(parsed.get("message")) else None
            text = str(msg) if msg is not None else "Response from flow prompt step"
            return Attempt(None, (), "chat", text), current
    if truthy(parsed):
        current = deep_merge(current, parsed)
    stored = {
        "Success": True,
        "step": "Success",
        "result": parsed,
        "rawResult": {"success": True, "result": reply},
    }
    assert state.current is not None
    state.record(state.current, stored)
    return _choose(agent, stored, current, state, data, context, "prompt"), current


@dataclass(frozen=True)
class Hop:
    """What the run does next: the step entered, or how the run ends."""

    agent: Agent
    source: Step | None
    attempts: tuple[Attempt, ...]
    winner: Step | None
    ended: bool
    failed: bool
    reason: str
    #: the winner fails as soon as it is entered (a Human step, a Prompt loop body)
    entered_failure: str | None = None
    payload: Any = None
    state: FlowState | None = None
    #: the runtime's own words for how the run ends (its errorMessage or completion message)
    message: str | None = None
    #: BaseAgent's count of consecutive failed decisions when the hop ends (entering a step
    #: that fails at once counts one)
    failures: int = 0
    #: the run ends as a Chat with this message (a prompt's reply asked for one)
    chat: str | None = None

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        for a in reversed(self.attempts):
            if a.candidates:
                return a.candidates
        return ()


def _hand_back(
    agent: Agent,
    source: Step | None,
    first: Attempt,
    payload: Any,
    state: FlowState,
    params_payload: Any,
    data: Any,
    context: Any,
    failures: int,
    caught: bool = False,
) -> Hop:
    """BaseAgent's loop over non-terminating failed decisions, from ``first`` on; ``caught``:
    ``first`` came through DetermineNextStep, which turns an error into a failed decision."""
    attempts = [first]
    attempt = first

    def hop(winner: Step | None, ended: bool, failed: bool, reason: str, **kw: Any) -> Hop:
        kw.setdefault("failures", failures)
        return Hop(
            agent,
            source,
            tuple(attempts),
            winner,
            ended,
            failed,
            reason,
            payload=payload,
            state=state,
            **kw,
        )

    while True:
        if attempt.outcome == "enter":
            assert attempt.entered is not None
            e = attempt.entered
            if e.fatal is not None and caught and len(attempts) == 1:
                # DetermineNextStep catches the error as a failed decision: the step is entered
                # (it is the current step) and fails at once
                e = replace(e, failure=f"Flow execution error: {e.thrown or e.fatal}", fatal=None)
            if e.fatal is not None:
                why = f"the run fails entering '{e.step.name}': {e.fatal}"
                thrown = e.thrown or e.fatal
                return hop(e.step, True, True, why, entered_failure=thrown, message=thrown)
            reason = attempt.message
            if len(attempts) > 1:
                reason += f" (after {len(attempts) - 1} failed decision(s) handed back)"
            if e.failure is not None:
                reason += f"; the step fails as soon as it is entered: {e.failure}"
            count = failures + 1 if e.failure is not None else 0
            return hop(e.step, False, False, reason, entered_failure=e.failure, failures=count)
        if attempt.outcome == "ended":
            why = f"no valid path: the flow ends ({attempt.message})"
            return hop(None, True, False, why, message=attempt.message)
        if attempt.outcome == "failed":
            why = f"no valid path after a Failed result: the run fails ({attempt.message})"
            return hop(None, True, True, why, message=attempt.message)
        if attempt.outcome == "chat":
            why = (
                "the prompt's reply asks for a Chat: the run ends with its message to the user "
                f"({attempt.message})"
            )
            return hop(None, True, False, why, message="Chat", chat=attempt.message)
        if attempt.outcome == "not-routed":
            return hop(None, True, False, attempt.message, message="not routed")
        failures += 1
        if failures >= MAX_CONSECUTIVE_FAILED_STEPS:
            msg = (
                f"Agent terminated after {failures} consecutive failed steps. "
                f"Last error: {attempt.message}"
            )
            return hop(None, True, True, msg, message=msg)
        d = attempt.decision or {}
        handed = d.get("newPayload") or d.get("previousPayload")
        attempt, payload = preprocess(agent, d, handed, state, params_payload, data, context)
        attempts.append(attempt)


def start(agent: Agent, payload: Any = None, data: Any = None, context: Any = None) -> Hop:
    """The run's first step (``DetermineInitialStep`` behind BaseAgent's status check)."""
    state = FlowState(agent.id)
    if agent.status != "Active":
        msg = f"Agent '{agent.name}' is not active. Current status: {agent.status}"
        why = "" if agent.status_given else " (Status is omitted: the database stores Pending)"
        return Hop(
            agent, None, (), None, True, True, msg + why, payload=payload, state=state, message=msg
        )
    steps = starting_steps(agent)
    if not steps:
        first = Attempt(
            None,
            (),
            "retry-failed",
            NO_STARTING_STEPS,
            decision=_failed(NO_STARTING_STEPS, with_payload=False),
        )
        return _hand_back(agent, None, first, payload, state, payload, data, context, 0)
    chosen_step = steps[0]
    state.current = chosen_step.id
    note = ""
    if len(steps) > 1:
        others = ", ".join(f"'{s.name}'" for s in steps[1:])
        note = f"; {others} never run (only the first starting step in localeCompare order runs)"
    first = Attempt(None, (), "enter", f"the starting step{note}", enter(chosen_step))
    return _hand_back(agent, None, first, payload, state, payload, data, context, 0)


def start_at(
    agent: Agent, step: Step, payload: Any = None, data: Any = None, context: Any = None
) -> Hop:
    """The run started at ``step`` (``agentTypeParams.startAtStep``: any step of the agent,
    whatever its status), as ``flowctx trace --from`` asks."""
    state = FlowState(agent.id)
    if agent.status != "Active":
        msg = f"Agent '{agent.name}' is not active. Current status: {agent.status}"
        return Hop(
            agent, None, (), None, True, True, msg, payload=payload, state=state, message=msg
        )
    state.current = step.id
    first = Attempt(None, (), "enter", "the run starts at the step given", enter(step))
    return _hand_back(agent, None, first, payload, state, payload, data, context, 0)


def next_hop(
    agent: Agent,
    source: Step,
    step_result: Any,
    payload: Any = None,
    data: Any = None,
    context: Any = None,
    flow_context: Mapping[str, Any] | None = None,
    state: FlowState | None = None,
    params_payload: Any = None,
    failures: int | None = None,
) -> Hop:
    """Where the run goes after ``source`` returned ``step_result``; ``failures``: BaseAgent's
    count of consecutive failed decisions so far (default: 1 for a Failed result, else 0)."""
    if state is None:
        state = FlowState.seeded(agent.id, flow_context)
    state.current = source.id
    if params_payload is None:
        params_payload = payload
    if isinstance(step_result, Mapping) and truthy(step_result.get("terminate")):
        failed = step_result.get("step") == "Failed"
        msg = step_result.get("errorMessage")
        if msg is None:
            msg = step_result.get("message")
        why = (
            "the step's result terminates the run (terminate: true, step "
            f"{json.dumps(step_result.get('step'))})"
        )
        return Hop(
            agent,
            source,
            (),
            None,
            True,
            failed,
            why,
            payload=payload,
            state=state,
            message=None if msg is None else str(msg),
        )
    if failures is None:
        failed_result = isinstance(step_result, Mapping) and step_result.get("step") == "Failed"
        failures = 1 if failed_result else 0
    if (
        source.type == "Prompt"
        and isinstance(step_result, Mapping)
        and step_result.get("step") == "Success"
    ):
        # a prompt step's reply is routed by DetermineNextStep, not PreProcessNextStep
        first, payload = determine_next(
            agent, step_result.get("result"), payload, state, data, context
        )
        return _hand_back(
            agent, source, first, payload, state, params_payload, data, context, failures, True
        )
    first, payload = preprocess(agent, step_result, payload, state, params_payload, data, context)
    return _hand_back(agent, source, first, payload, state, params_payload, data, context, failures)


# -- the results steps give ------------------------------------------------------------------
def action_result(
    step: Step, payload: Any, *, success: bool = True, params: Any = None, message: str = ""
) -> dict[str, Any]:
    """What BaseAgent stores after an Action step: ``step: 'Retry'``, never 'Success'."""
    summary = {
        "actionName": step.action_name,
        "success": success,
        "params": params if params is not None else [],
        "resultCode": "SUCCESS" if success else "ERROR",
        "message": message or ("Action completed" if success else "Unknown error"),
    }
    return {
        "terminate": False,
        "step": "Retry",
        "previousPayload": payload,
        "newPayload": payload,
        "priorStepResult": [summary],
        "retryReason": (
            "Analyzing results from 1 completed action(s) to formulate response"
            if success
            else f"Processing results with 1 failed action(s): {step.action_name}"
        ),
    }


def prompt_result(reply: Any) -> dict[str, Any]:
    """FlowAgentType's stored result after a Prompt step."""
    raw = reply if isinstance(reply, str) else json.dumps(reply)
    return {
        "Success": True,
        "step": "Success",
        "result": reply if not isinstance(reply, str) else None,
        "rawResult": raw,
    }


def sub_agent_result(payload: Any, *, success: bool = True) -> dict[str, Any]:
    return {
        "success": success,
        "payload": payload,
        "step": "Success" if success else "Failed",
        "terminate": False,
        "previousPayload": payload,
        "newPayload": payload,
    }


def loop_result(payload: Any) -> dict[str, Any]:
    return {"step": "Retry", "terminate": False, "newPayload": payload}


def default_result(step: Step, payload: Any) -> dict[str, Any]:
    """The result a step gives when it does what it is for (an action that succeeds with no
    output, a prompt with an empty reply, a sub-agent that succeeds, a loop that finishes)."""
    entered = enter(step)
    if entered.failure is not None:
        return _failed(entered.failure, payload)
    if step.type == "Action":
        return action_result(step, payload)
    if step.type == "Prompt":
        return prompt_result({})
    if step.type == "Sub-Agent":
        return sub_agent_result(payload)
    return loop_result(payload)


def deep_merge(destination: Any, source: Any) -> Any:
    """``PayloadManager.deepMerge``: objects merge key by key, anything else replaces."""
    if not truthy(source):
        return destination
    if not truthy(destination):
        return copy.deepcopy(source)
    result = copy.deepcopy(destination)
    if isinstance(source, Mapping) and isinstance(result, dict):
        for k, v in source.items():
            if isinstance(v, Mapping) and isinstance(result.get(k), Mapping):
                result[k] = deep_merge(result[k], v)
            else:
                result[k] = copy.deepcopy(v)
    return result


def start_loc(agent: Agent, step: Step) -> Loc:
    return step.at("StartingStep")
