"""flowctx's mj dialect against MemberJunction's published SafeExpressionEvaluator 5.51.3.

Each case runs in the real evaluator (node, one process per batch) and in flowctx; they must
agree on success and on the boolean value. Cases where the real evaluator executes injected
code are never run by flowctx: there it must refuse and say that the runtime would execute it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.expressions import evaluate
from tests.differential import mj_corpus
from tests.differential.compare import compare, refused_as_code
from tests.differential.mj_strategies import expressions, scopes
from tests.differential.oracle import MjOracle

CORPUS: list[tuple[str, dict[str, Any]]] = [
    (expr, scope) for expr in mj_corpus.EXPRESSIONS for scope in mj_corpus.SCOPES
] + mj_corpus.SPECIAL


def test_hand_written_corpus_agrees_with_the_real_evaluator(mj_oracle: MjOracle) -> None:
    assert len(CORPUS) >= 2000
    tally = compare(mj_oracle, CORPUS, "mj corpus")
    print(tally.summary())
    assert not tally.disagreements, tally.details()
    assert tally.refused == 0, "no corpus case is a code-execution case"


def test_never_execute_cases_run_in_the_real_evaluator_and_flowctx_refuses(
    mj_oracle: MjOracle,
) -> None:
    answers = mj_oracle.run(mj_corpus.NEVER_EXECUTE)
    # The published evaluator really does run them (harmless payloads): all but a few answer.
    assert sum(a.success for a in answers) >= len(answers) - 2
    for expr, scope in mj_corpus.NEVER_EXECUTE:
        result = evaluate(expr, scope, "mj")
        assert refused_as_code(result), (expr, result)
        assert result.error is not None and "MemberJunction 5.51.3" in result.error.message
        assert result.engine == "MemberJunction SafeExpressionEvaluator 5.51.3"


GENERATED = 2400  # examples drawn per run (about 2,000 distinct cases), judged in one node batch


def _generate(count: int) -> list[tuple[str, dict[str, Any]]]:
    """hypothesis draws the cases (one example each); they are judged in one batch below, so
    a run costs one node process instead of one per case."""
    cases: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=st.tuples(expressions(), scopes))
    def draw(case: tuple[str, dict[str, Any]]) -> None:
        key = repr(case)
        if key not in seen:  # hypothesis revisits examples; judge each case once
            seen.add(key)
            cases.append(case)

    draw()
    return cases


def test_generated_cases_agree_with_the_real_evaluator(mj_oracle: MjOracle) -> None:
    batch = _generate(GENERATED)
    assert len(batch) >= GENERATED // 2
    tally = compare(mj_oracle, batch, "mj generated")
    print(tally.summary())
    assert not tally.disagreements, tally.details()
    assert tally.agree > len(batch) // 2
    texts = " ".join(expr for expr, _ in batch)
    for construct in ("?.", "??", "=>", "typeof", " in ", "===", "Math.", "'", "[", " = "):
        assert construct in texts, f"the generator never wrote {construct!r}"


def test_conformance_cases_agree_with_the_real_evaluator(mj_oracle: MjOracle) -> None:
    path = Path(__file__).parents[1] / "core" / "expressions_conformance.yaml"
    cases = [c for c in yaml.safe_load(path.read_text(encoding="utf-8")) if c["dialect"] == "mj"]
    answers = mj_oracle.run([(c["expr"], c["scope"]) for c in cases])
    for case, real in zip(cases, answers, strict=True):
        if "MemberJunction 5.51.3 would execute" in case.get("expect_error", ""):
            assert real.success, case  # the real evaluator did run it
        elif "expect" in case:
            assert (real.success, real.value) == (True, case["expect"]), case
        else:
            assert not real.success, case
