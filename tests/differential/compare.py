"""Comparing flowctx with the real engine: success and boolean value, case by case."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flowctx_core.expressions import EvalResult, evaluate
from tests.differential.oracle import NEVER_EXECUTE, Answer, MjOracle


@dataclass
class Tally:
    label: str
    agree: int = 0
    refused: int = 0  # never-execute cases: flowctx refused and said so
    disagreements: list[tuple[str, Mapping[str, Any], Answer, EvalResult]] = field(
        default_factory=list
    )

    @property
    def total(self) -> int:
        return self.agree + self.refused + len(self.disagreements)

    def summary(self) -> str:
        return (
            f"{self.label}: {self.total} cases, {self.agree} agree, "
            f"{len(self.disagreements)} disagree, {self.refused} refused as code execution"
        )

    def details(self, limit: int = 40) -> str:
        lines = [self.summary()]
        for expr, _scope, real, ours in self.disagreements[:limit]:
            mine = (
                f"ok {ours.value}"
                if ours.success
                else f"error {ours.error.message if ours.error else ''}"
            )
            theirs = f"ok {real.value}" if real.success else f"error {real.error}"
            lines.append(f"  {expr!r}: MemberJunction {theirs} | flowctx {mine}")
        return "\n".join(lines)


def refused_as_code(result: EvalResult) -> bool:
    return not result.success and result.error is not None and NEVER_EXECUTE in result.error.message


def compare(oracle: MjOracle, cases: Sequence[tuple[str, Mapping[str, Any]]], label: str) -> Tally:
    answers = oracle.run(cases)
    tally = Tally(label)
    for (expr, scope), real in zip(cases, answers, strict=True):
        ours = evaluate(expr, scope, "mj")
        if refused_as_code(ours):
            tally.refused += 1
        elif ours.success == real.success and (not real.success or ours.value == real.value):
            tally.agree += 1
        else:
            tally.disagreements.append((expr, scope, real, ours))
    return tally
