"""Coverage of a test run: which rules won, which atoms of each condition were seen true and
false, which atoms were shown to decide their condition on their own (MC/DC), and which
sources answered each variable.

Everything is read from what the runs already produced (the route decisions and their explain
trees, the matrices), so coverage never evaluates anything of its own. An atom is a maximal
sub-expression that is not ``&&``, ``||``, ``!``, ``and``, ``or`` or ``not`` (nor parentheses
around one). MC/DC is the unique-cause form with masking: an atom is shown to decide when two
evaluations of the condition differ in it and in the outcome while every other atom either
agrees or was not evaluated (short-circuit) in one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flowctx_core.expressions import ExplainNode
from flowctx_core.model.matrix import Loc, Matrix
from flowctx_core.routing import RouteDecision, Routes, decide, sources
from flowctx_core.routing.decision import Candidate
from flowctx_core.testing.run import TestRun
from flowctx_core.testing.taint import matrix_secrets, source_secret, without_secrets

_CONNECTIVES = frozenset({"&&", "||", "!", "and", "or", "not"})


@dataclass(frozen=True)
class RuleCoverage:
    workflow: str
    kind: str  # "flow" | "transition_graph" | "handoffs"
    index: int  # position in the file's list (0-based)
    source: str
    number: int  # 1-based, in evaluation order from ``source`` (as ``flowctx routes``)
    target: str
    loc: Loc
    condition: str | None
    taken_by: tuple[str, ...]

    @property
    def covered(self) -> bool:
        return bool(self.taken_by)

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.workflow, self.kind, self.index)


@dataclass(frozen=True)
class AtomCoverage:
    text: str
    seen_true: bool
    seen_false: bool
    decides: bool  # MC/DC: shown to decide the outcome on its own

    @property
    def covered(self) -> bool:
        return self.seen_true and self.seen_false


@dataclass(frozen=True)
class ConditionCoverage:
    rule: RuleCoverage
    evaluations: int
    atoms: tuple[AtomCoverage, ...]


@dataclass(frozen=True)
class VariableCoverage:
    workflow: str
    name: str
    #: each source that answered it across the cases (``default``, ``env MAX_RETRIES``...)
    answered_by: tuple[str, ...]


@dataclass(frozen=True)
class Coverage:
    rules: tuple[RuleCoverage, ...]
    conditions: tuple[ConditionCoverage, ...]
    variables: tuple[VariableCoverage, ...]

    @property
    def atoms(self) -> list[AtomCoverage]:
        return [a for c in self.conditions for a in c.atoms]

    def summary(self) -> dict[str, tuple[int, int]]:
        atoms = self.atoms
        return {
            "rules": (sum(1 for r in self.rules if r.covered), len(self.rules)),
            "conditions": (sum(1 for a in atoms if a.covered), len(atoms)),
            "mcdc": (sum(1 for a in atoms if a.decides), len(atoms)),
        }

    def summary_line(self) -> str:
        s = self.summary()
        return (
            f"rules {s['rules'][0]}/{s['rules'][1]}, conditions {s['conditions'][0]}/"
            f"{s['conditions'][1]}, MC/DC {s['mcdc'][0]}/{s['mcdc'][1]}"
        )

    def uncovered(self) -> list[RuleCoverage]:
        return [r for r in self.rules if not r.covered]


def truth(node: ExplainNode) -> bool | None:
    """What an evaluated sub-expression counts as in a condition (None: unknown or skipped)."""
    if node.skipped or node.error is not None:
        return None
    value = node.value
    if isinstance(value, bool):
        return value
    if value is None or value in ("undefined", "NaN", "", 0):
        return False
    if value == "***":  # a masked value: its truth is not shown
        return None
    return True


def _residual(node: ExplainNode) -> list[str]:
    text = node.text
    for child in node.children:
        at = text.find(child.text)
        if at >= 0:
            text = text[:at] + " " + text[at + len(child.text) :]
    return text.replace("(", " ").replace(")", " ").split()


def atoms(node: ExplainNode) -> list[ExplainNode]:
    """The atoms of a condition's explain tree, left to right."""
    tokens = _residual(node)
    connective = node.children and (
        (tokens and all(t in _CONNECTIVES for t in tokens))
        or (not tokens and len(node.children) == 1)
    )
    if not connective:
        return [node]
    out: list[ExplainNode] = []
    for child in node.children:
        out.extend(atoms(child))
    return out


def _decides(vectors: list[tuple[tuple[bool | None, ...], bool]], i: int) -> bool:
    for a, (va, oa) in enumerate(vectors):
        for vb, ob in vectors[a + 1 :]:
            if oa == ob or va[i] is None or vb[i] is None or va[i] == vb[i]:
                continue
            if all(
                j == i or va[j] is None or vb[j] is None or va[j] == vb[j] for j in range(len(va))
            ):
                return True
    return False


class _Seen:
    def __init__(self) -> None:
        self.texts: list[str] = []
        self.vectors: list[tuple[tuple[bool | None, ...], bool]] = []
        self.true: list[bool] = []
        self.false: list[bool] = []
        self.count = 0


def _answered_by(matrix: Matrix) -> dict[str, str]:
    """Which source answered each variable; for a secret, its source type only (where a
    lookup by a secret found its record, or fell back, would tell something of it)."""
    secret = matrix_secrets(matrix)
    return {
        row.name: row.source if row.name in secret else f"{row.source}: {row.origin}"
        for row in matrix.rows
    }


def measure(run: TestRun, routes: Mapping[str, Routes], matrices: Mapping[str, Matrix]) -> Coverage:
    """Coverage of ``run`` over every rule of ``routes`` (workflow -> its routing files);
    ``matrices`` give each workflow's default resolution, used to list its rules."""
    taken: dict[tuple[str, str, int], list[str]] = {}
    seen: dict[tuple[str, str, int], _Seen] = {}
    answered: dict[tuple[str, str], dict[str, None]] = {}
    for result in run.results:
        if result.matrix is not None:
            for name, origin in _answered_by(result.matrix).items():
                answered.setdefault((result.workflow, name), {})[origin] = None
        for decision in result.decisions:
            if decision.winner is not None:
                key = (result.workflow, decision.kind, decision.winner.index)
                if result.name not in taken.setdefault(key, []):
                    taken[key].append(result.name)
            for cand in decision.candidates:
                _observe(seen, result.workflow, decision, cand)
    rules: list[RuleCoverage] = []
    conditions: list[ConditionCoverage] = []
    for workflow, wf_routes in routes.items():
        matrix = matrices[workflow]
        for source in sources(wf_routes):
            # the default inputs' outcomes only shape the atoms listed; where they would read
            # a secret, the rules are listed from a decision over no secret and the atoms from
            # the text alone (which rules were reached, and when, would tell it)
            told = source_secret(wf_routes, matrix, source) is None
            for decision in decide(wf_routes, matrix if told else without_secrets(matrix), source):
                if decision.unread:
                    # a file the runtime never opens routes nothing: none of its rules can be
                    # taken, so none is counted, covered or not
                    continue
                for number, cand in enumerate(decision.candidates, 1):
                    key = (workflow, decision.kind, cand.index)
                    rule = RuleCoverage(
                        workflow,
                        decision.kind,
                        cand.index,
                        decision.source,
                        number,
                        cand.target,
                        cand.loc,
                        cand.condition,
                        tuple(taken.get(key, ())),
                    )
                    rules.append(rule)
                    if cand.condition is None:
                        continue
                    s = seen.get(key)
                    if s is None or not s.texts:
                        # never evaluated by a case: its atoms count, none of them covered
                        s = _unseen(cand, decision.kind, evaluated=told)
                    if s is not None:
                        conditions.append(_condition(rule, s))
    variables = [
        VariableCoverage(wf, name, tuple(by)) for (wf, name), by in sorted(answered.items())
    ]
    return Coverage(tuple(rules), tuple(conditions), tuple(variables))


def _observe(
    seen: dict[tuple[str, str, int], _Seen], workflow: str, decision: RouteDecision, cand: Candidate
) -> None:
    if cand.condition is None or cand.outcome not in ("true", "false"):
        return
    tree = cand.explain_tree()
    if tree is None:
        return
    found = atoms(tree)
    s = seen.setdefault((workflow, decision.kind, cand.index), _Seen())
    if not s.texts:
        s.texts = [" ".join(a.text.split()) for a in found]
        s.true = [False] * len(found)
        s.false = [False] * len(found)
    if len(found) != len(s.texts):  # a tree of another shape (an error): not comparable
        return
    values = tuple(truth(a) for a in found)
    for i, v in enumerate(values):
        if v is True:
            s.true[i] = True
        elif v is False:
            s.false[i] = True
    s.vectors.append((values, cand.outcome == "true"))
    s.count += 1


_KIND_DIALECT = {"flow": "mj", "transition_graph": "mozaiks", "handoffs": "ag2"}


def _unseen(cand: Candidate, kind: str, *, evaluated: bool = True) -> _Seen | None:
    """The atoms of a condition no case evaluated, from its shape alone (from its default
    evaluation's tree when ``evaluated``, which it may only be where it reads no secret: there,
    whether a rule was reached at all is not let to change what is listed)."""
    from flowctx_core.expressions import evaluate

    tree = cand.explain_tree() if evaluated and cand.outcome in ("true", "false") else None
    dialect = cand.dialect if evaluated else (cand.dialect or _KIND_DIALECT.get(kind))
    if tree is None and dialect is not None and cand.condition is not None:
        tree = evaluate(cand.condition, {}, dialect, explain=True).explain
    if tree is None:
        return None
    s = _Seen()
    s.texts = [" ".join(a.text.split()) for a in atoms(tree)]
    s.true = [False] * len(s.texts)
    s.false = [False] * len(s.texts)
    return s


def _condition(rule: RuleCoverage, s: _Seen) -> ConditionCoverage:
    atoms_ = tuple(
        AtomCoverage(text, s.true[i], s.false[i], _decides(s.vectors, i))
        for i, text in enumerate(s.texts)
    )
    return ConditionCoverage(rule, s.count, atoms_)


def default_matrices(session: Any, workflows: Iterable[str]) -> dict[str, Matrix]:
    """Each workflow resolved with the session's own inputs (what ``flowctx matrix`` shows)."""
    return {name: session.matrix(name) for name in workflows}
