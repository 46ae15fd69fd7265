"""Draw generator-family cases, judge them against the real evaluator with exact values.

Every family module (``families_*.py`` in this folder) exports ``FAMILIES``: name -> a function
drawing one ``(expr, scope)`` from a ``random.Random``. ``draw(n, seed)`` spreads ``n`` cases
evenly over all families; ``judge`` runs them in one node batch (the real MemberJunction
5.51.3 evaluator, probed for exact values) and in flowctx, and sorts each case into:

- ``agree``: same success, same boolean, and when both succeed the same typeof, String(),
  JSON.stringify and -0 of the value;
- ``refused-as-code``: flowctx refused, saying the engine would execute it as code;
- ``refused-as-host``: flowctx refused, saying the answer is the engine's host's own (its
  process's state or memory, node's own source text, its event loop), nothing the condition
  and its data decide;
- ``refused-not-reproduced``: flowctx refused, saying it does not reproduce the construct
  (or that its own bound stopped the evaluation, where the engine would go on);
- ``disagree``: anything else.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from flowctx_core.base.clock import parse_now
from flowctx_core.expressions import EvalResult, ExpressionError, compile_expression, evaluate
from flowctx_core.expressions.js.values import REACHES_HOST
from flowctx_core.expressions.mj.evaluator import INTERNAL_ERROR
from tests.differential.exact import projection, same
from tests.differential.oracle import NEVER_EXECUTE, Answer, MjOracle

Case = tuple[str, dict[str, Any]]
Family = Callable[[random.Random], Case]
KINDS = ("agree", "disagree", "refused-as-code", "refused-as-host", "refused-not-reproduced")
# What a refusal of a construct flowctx does not reproduce says (never a code-execution case).
NOT_REPRODUCED = ("flowctx does not reproduce", "flowctx reproduces", "flowctx's")


def families() -> dict[str, Family]:
    """Every ``FAMILIES`` of the ``families_*`` modules beside this one."""
    out: dict[str, Family] = {}
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if info.name.startswith("families_"):
            module = importlib.import_module(f"tests.differential.{info.name}")
            for name, family in module.FAMILIES.items():
                if name in out:
                    raise ValueError(f"two modules define the family {name!r}")
                out[name] = family
    return out


def draw(
    count: int, seed: int, only: Sequence[str] = (), exact: bool = False
) -> list[tuple[str, Case]]:
    """``count`` cases, round-robin over the families (or ``only`` those, and the families
    named under them: ``sweep`` is every ``sweep.*``, unless ``exact``), reproducible."""
    table = families()
    names = [n for n in table if not only or n in only or (not exact and n.split(".")[0] in only)]
    rng = random.Random(seed)
    return [(names[i % len(names)], table[names[i % len(names)]](rng)) for i in range(count)]


ENGINE_PREFIX: Final = "Expression evaluation failed: "


def same_error(real: Answer, ours: EvalResult) -> bool:
    theirs = str(real.error or "").removeprefix(ENGINE_PREFIX)
    return ours.error is not None and ours.error.message == theirs


def one_value(expr: str) -> bool:
    """Whether the engine's Boolean(...) reads one value the probe can show: a text that
    pastes more arguments (``1, 0``, ``...xs``, ``'(' ), (')'``) has no single raw value, so only
    the condition's own is compared."""
    if "arguments" in expr:
        return False  # the probe adds a parameter of its own: arguments differ by one
    try:
        return bool(getattr(compile_expression(expr, "mj").tree, "fx_wrapped", False))
    except ExpressionError:
        return True


def kind(real: Answer, ours: EvalResult, expr: str = "") -> str:
    """How flowctx's answer compares with the engine's: values exactly, errors by their text
    (the engine's "Expression evaluation failed: " taken off); given the text, a raw value
    only where the probe reads one (``one_value``)."""
    if not ours.success and ours.error is not None:
        message = ours.error.message
        if INTERNAL_ERROR in message:
            return "disagree"  # a refusal for the user, a bug to the comparison
        if NEVER_EXECUTE in message:
            return "refused-as-code"
        if REACHES_HOST in message:
            return "refused-as-host"
        if any(m in message for m in NOT_REPRODUCED):
            return "refused-not-reproduced"
    if ours.success != real.success:
        return "disagree"
    if not real.success:
        return "agree" if same_error(real, ours) else "disagree"
    if ours.value != real.value:
        return "disagree"
    if real.exact is not None and not same(real.exact, projection(ours)):
        return "agree" if expr and not one_value(expr) else "disagree"
    return "agree"


@dataclass
class Tally:
    counts: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    examples: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, family: str, what: str, line: str) -> None:
        self.counts[family][what] += 1
        if what != "agree" and len(self.examples[family, what]) < 5:
            self.examples[family, what].append(line)

    def total(self, what: str) -> int:
        return sum(c[what] for c in self.counts.values())

    def table(self, examples: bool = False) -> str:
        width = max([len(f) for f in self.counts] + [6])
        head = f"{'family':<{width}}  " + "  ".join(f"{k:>22}" for k in KINDS)
        lines = [head]
        for family in sorted(self.counts):
            row = "  ".join(f"{self.counts[family][k]:>22}" for k in KINDS)
            lines.append(f"{family:<{width}}  {row}")
        lines.append(f"{'total':<{width}}  " + "  ".join(f"{self.total(k):>22}" for k in KINDS))
        if examples:
            for (family, what), found in sorted(self.examples.items()):
                lines.append(f"-- {family} {what}:")
                lines.extend(f"   {x}" for x in found)
        return "\n".join(lines)


def _describe(expr: str, scope: Mapping[str, Any], real: Answer, ours: EvalResult) -> str:
    theirs = f"ok {real.value} {real.exact}" if real.success else f"error {str(real.error)[:80]}"
    if ours.success:
        mine = f"ok {ours.value} {projection(ours)}"
    else:
        mine = f"error {ours.error.message[:120] if ours.error else ''}"
    shown = repr(scope)
    shown = shown if len(shown) < 120 else shown[:117] + "..."
    return f"{expr!r} {shown}: MJ {theirs} | flowctx {mine}"


#: every case runs at this instant, in node (its Date swapped, see mj_oracle.mjs) and in
#: flowctx (``now=``), so conditions that read the clock are compared exactly too
NOW: Final = parse_now("2026-12-01T09:00:00Z")


def judge(oracle: MjOracle, cases: Sequence[tuple[str, Case]]) -> Tally:
    answers = oracle.run([case for _, case in cases], probe=True, now=NOW.ms)
    tally = Tally()
    for (family, (expr, scope)), real in zip(cases, answers, strict=True):
        # revealed: flowctx leaves a value out of a message when the condition read a secret
        # (context), which the engine does not (the leaving-out has tests of its own)
        ours = evaluate(expr, scope, "mj", now=NOW, reveal_secrets=True)
        what = kind(real, ours, expr)
        tally.add(family, what, _describe(expr, scope, real, ours))
    return tally
