"""The enhanced path context (data and context beside payload, stepResult and flowContext)."""

from __future__ import annotations

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.pathcontext import build_path_context


def test_shape_and_defaults() -> None:
    ctx = build_path_context()
    assert ctx == {
        "payload": None,
        "stepResult": None,
        "flowContext": {
            "currentStepId": None,
            "completedSteps": [],
            "executionPath": [],
            "stepCount": 0,
        },
        "data": {},
        "context": {},
    }


def test_flow_context_step_count_follows_completed_steps() -> None:
    ctx = build_path_context(flow_context={"currentStepId": "s3", "completedSteps": ["s1", "s2"]})
    assert ctx["flowContext"] == {
        "currentStepId": "s3",
        "completedSteps": ["s1", "s2"],
        "executionPath": [],
        "stepCount": 2,
    }
    explicit = build_path_context(flow_context={"completedSteps": ["a"], "stepCount": 7})
    assert explicit["flowContext"]["stepCount"] == 7


def test_data_and_context_pass_through() -> None:
    data, context = {"flag": True}, {"env": "prod"}
    ctx = build_path_context(
        payload={"a": 1}, step_result={"step": "Success"}, data=data, context=context
    )
    assert ctx["data"] is data and ctx["context"] is context
    assert ctx["payload"] == {"a": 1} and ctx["stepResult"] == {"step": "Success"}


def test_falsy_data_becomes_empty_object_like_params_data_or_empty() -> None:
    for falsy in (None, False, 0, ""):
        assert build_path_context(data=falsy, context=falsy)["data"] == {}
    assert build_path_context(data=[])["data"] == []  # [] is truthy in JavaScript


# The four cases the enhanced path context was specified with.


def test_prd_data_access() -> None:
    scope = build_path_context(data={"flag": True})
    assert evaluate("data.flag === true", scope).value is True
    assert evaluate("data.flag === true", build_path_context(data={"flag": False})).value is False


def test_prd_context_access() -> None:
    scope = build_path_context(context={"env": "prod"})
    assert evaluate("context.env === 'prod'", scope).value is True
    assert (
        evaluate("context.env === 'prod'", build_path_context(context={"env": "dev"})).value
        is False
    )


def test_prd_regression_payload_only() -> None:
    scope = build_path_context(payload={"status": "pending", "count": 2})
    result = evaluate("payload.status === 'pending' && payload.count > 1", scope)
    assert result.success and result.value is True
    assert evaluate("stepResult === null && flowContext.stepCount === 0", scope).value is True


def test_prd_null_safety_undefined_data_and_context_default_to_empty() -> None:
    scope = build_path_context(payload={}, data=None, context=None)
    for expr in ("data.userApproval === true", "context.environment === 'production'"):
        result = evaluate(expr, scope)
        assert result.success, result.error
        assert result.value is False
    assert evaluate("Object.keys(data).length === 0", scope).value is True
