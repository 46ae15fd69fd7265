"""Every reference case (a copy of the shared conformance file) evaluates as the original did,
and no evaluation changes its scope."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from flowctx_core.expressions import evaluate

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "expressions_conformance.yaml").read_text(encoding="utf-8")
)


def _id(case: dict[str, Any]) -> str:
    outcome = case["expect"] if "expect" in case else f"error:{case['expect_error']}"
    return f"{case['dialect']}|{case['expr'] or '<empty>'}|{outcome}"


def test_corpus_is_complete() -> None:
    assert len(CASES) >= 55
    assert {c["dialect"] for c in CASES} == {"mj", "ag2", "mozaiks", "python"}
    # a refusal names its error: "" would accept any refusal, for any reason
    assert all(c["expect_error"].strip() for c in CASES if "expect_error" in c)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_conformance(case: dict[str, Any]) -> None:
    scope = case["scope"]
    before = copy.deepcopy(scope)
    result = evaluate(case["expr"], scope, case["dialect"])
    assert scope == before, "evaluation changed its scope"
    if "expect" in case:
        assert result.success, result.error
        assert result.value is case["expect"]
        assert result.error is None
    else:
        assert not result.success
        assert result.value is None
        assert result.error is not None
        assert case["expect_error"].lower() in result.error.message.lower()


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_conformance_with_explain_agrees(case: dict[str, Any]) -> None:
    plain = evaluate(case["expr"], case["scope"], case["dialect"])
    explained = evaluate(case["expr"], case["scope"], case["dialect"], explain=True)
    assert (explained.success, explained.value) == (plain.success, plain.value)
    assert explained.explain is not None
    assert explained.explain.lines()
