"""The evaluation context of a MemberJunction path condition (the enhanced path context).

``payload``, ``stepResult`` and ``flowContext`` as MemberJunction's flow agents pass them, plus
``data`` (params.data) and ``context`` (params.context), each ``{}`` when absent: built as
``params.data || {}``, so any JavaScript-falsy value (null, undefined, false, 0, '') becomes an
empty object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flowctx_core.expressions.js.values import truthy


def build_path_context(
    *,
    payload: Any = None,
    step_result: Any = None,
    flow_context: Mapping[str, Any] | None = None,
    data: Any = None,
    context: Any = None,
) -> dict[str, Any]:
    """``{payload, stepResult, flowContext, data, context}`` as ``getValidPaths`` builds it.

    ``flowContext`` fields default to ``currentStepId: None``, ``completedSteps: []``,
    ``executionPath: []`` and ``stepCount: len(completedSteps)``.
    """
    flow = dict(flow_context or {})
    completed = list(flow.get("completedSteps") or [])
    step_count = flow.get("stepCount")
    return {
        "payload": payload,
        "stepResult": step_result,
        "flowContext": {
            "currentStepId": flow.get("currentStepId"),
            "completedSteps": completed,
            "executionPath": list(flow.get("executionPath") or []),
            "stepCount": len(completed) if step_count is None else step_count,
        },
        "data": data if truthy(data) else {},
        "context": context if truthy(context) else {},
    }
