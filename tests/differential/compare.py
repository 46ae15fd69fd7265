"""Comparing flowctx with the real engine case by case: exact values (type, text, JSON, negative
zero) and error texts, as ``draw.kind`` judges them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flowctx_core.expressions import EvalResult, evaluate
from tests.differential.draw import NOW, kind
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
    answers = oracle.run(cases, probe=True, now=NOW.ms)
    tally = Tally(label)
    for (expr, scope), real in zip(cases, answers, strict=True):
        # the engine's words: flowctx leaves a value out of a message when the condition read
        # a secret (context), which the engine does not; revealed, the words are comparable
        ours = evaluate(expr, scope, "mj", now=NOW, reveal_secrets=True)
        what = kind(real, ours, expr)
        if what == "refused-as-code":
            tally.refused += 1
        elif what == "agree":
            tally.agree += 1
        else:
            tally.disagreements.append((expr, scope, real, ours))
    return tally
