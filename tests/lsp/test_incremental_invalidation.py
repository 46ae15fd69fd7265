"""The language server's incremental check keeps each declaration's results (its parse, its
policy entry, its checks' problems, its row), each tuned problem and each problem's place on its
line from one edit to the next: after every kind of edit that could leave one of them stale,
what it reports, and where, is what a workspace opened afresh reports for the same buffers, and
``flowctx check``'s list from scratch."""

from __future__ import annotations

import os
from pathlib import Path

from flowctx_core.base import fsview
from flowctx_core.check import workspace_report
from flowctx_core.session import open_session
from flowctx_tui.lsp import analysis
from flowctx_tui.lsp.incremental import Analysis

CONTRACT = """definitions:
  count:
    type: integer
    source: {type: state, default: 1}
  retries:
    type: intger
    persisted: true
    source: {type: state, default: "many"}
  api_token:
    type: string
    source: {type: config, env_var: FLOWCTX_TEST_NEVER_SET, default: tok}
  lookup:
    type: object
    source:
      type: data_reference
      collection: users
      query_template: {token: "{{api_token}}"}
  mode_selected:
    type: string
    source:
      type: state
      default: draft
      triggers:
        - type: agent_text
          agent: Writer
          match: {contains: DONE}
          value: done
  # a note above hidden
  hidden:
    type: object
    source: {type: state, default: {a: 1}}
  last_one:
    type: strng
    source: {type: state, default: 3}
agents:
  Writer:
    variables: [count, mode_selected]
"""

Seen = tuple[Path, int, int, int, str, str, str, str]


def _seen(found: dict[Path, list[analysis.Located]]) -> list[Seen]:
    return sorted(
        (path, x.line, x.start, x.end, x.row, x.problem.message, x.problem.severity, x.problem.code)
        for path, items in found.items()
        for x in items
    )


class Twin:
    """One workspace checked edit after edit (its caches kept), compared after each with the
    same buffers checked by a workspace opened afresh and by ``flowctx check``."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.contract = self.root / "workflows" / "W" / "context_variables.yaml"
        self.profile = self.root / "flowctx.yaml"
        ws = analysis.open_workspace(self.contract, dict(os.environ))
        assert isinstance(ws, analysis.Workspace)
        self.ws = ws
        self.buffers: dict[Path, str] = {self.contract: CONTRACT}
        self.check()

    def check(self) -> list[Seen]:
        got = _seen(analysis.problems(self.ws, dict(self.buffers)))
        fresh = analysis.open_workspace(self.contract, dict(os.environ))
        assert isinstance(fresh, analysis.Workspace)
        assert got == _seen(analysis.problems(fresh, dict(self.buffers)))
        found = self.ws.latest
        assert isinstance(found, Analysis)
        with fsview.buffers(dict(self.buffers)):
            scratch = workspace_report(open_session(self.root, env=dict(os.environ))).problems
        assert list(found.problems) == list(scratch)
        assert found.problems.ignored == scratch.ignored  # type: ignore[attr-defined]
        return got

    def edit(self, old: str, new: str) -> list[Seen]:
        text = self.buffers[self.contract]
        assert old in text, old
        self.buffers[self.contract] = text.replace(old, new, 1)
        return self.check()

    def tuning(self, text: str | None) -> list[Seen]:
        if text is None:
            self.buffers.pop(self.profile, None)
        else:
            self.buffers[self.profile] = text
        return self.check()


def _workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws" / "workflows" / "W"
    folder.mkdir(parents=True)
    (folder / "context_variables.yaml").write_text(CONTRACT)
    (folder / "orchestrator.yaml").write_text("workflow_name: W\n")
    return tmp_path / "ws"


def _at(seen: list[Seen], message: str) -> list[int]:
    return [s[1] for s in seen if message in s[5]]


def test_lines_added_and_removed_above_move_every_later_problem(tmp_path: Path) -> None:
    twin = Twin(_workspace(tmp_path))
    before = twin.check()
    line = _at(before, "'hidden' is not exposed")[0]
    # one definition edited in place (no line added): the others' results are kept
    twin.edit("default: 1}", 'default: "one"}')
    seen = twin.edit("type: strng", "type: strig")
    assert _at(seen, "'hidden' is not exposed") == [line]
    # a line added in the first definition: every later problem one line down, spans right
    seen = twin.edit("    type: integer\n", "    type: integer\n    description: more\n")
    assert _at(seen, "'hidden' is not exposed") == [line + 1]
    # an edit below, then two lines more above it, then the lines removed again
    twin.edit("type: strig", "type: strin")
    seen = twin.edit("    description: more\n", "    description: more\n\n\n")
    assert _at(seen, "'hidden' is not exposed") == [line + 3]
    seen = twin.edit("    description: more\n\n\n", "")
    assert _at(seen, "'hidden' is not exposed") == [line]


def test_ignore_comments_on_lines_of_unchanged_definitions(tmp_path: Path) -> None:
    twin = Twin(_workspace(tmp_path))
    assert _at(twin.check(), "'hidden' is not exposed")
    # the comment line above `hidden:` belongs to the definition before it: hidden itself is
    # the same declaration at the same lines, and its problem is now ignored
    seen = twin.edit("  # a note above hidden", "  # flowctx: ignore[exposure.not-exposed]")
    assert not _at(seen, "'hidden' is not exposed")
    assert twin.ws.latest.problems.ignored
    # another edit elsewhere keeps it ignored; a line added above moves both
    seen = twin.edit("default: 1}", "default: 2}")
    assert not _at(seen, "'hidden' is not exposed")
    seen = twin.edit("    type: integer\n", "    type: integer\n    description: x\n")
    assert not _at(seen, "'hidden' is not exposed")
    # on the problem's own line, then the comments removed: the problems come back
    seen = twin.edit("type: strng", "type: strng  # flowctx: ignore[runtime.unknown-type]")
    assert not _at(seen, "unknown type 'strng'")
    seen = twin.edit("  # flowctx: ignore[exposure.not-exposed]", "  # a note above hidden")
    assert _at(seen, "'hidden' is not exposed")
    seen = twin.edit("  # flowctx: ignore[runtime.unknown-type]", "")
    assert _at(seen, "unknown type 'strng'")
    assert not twin.ws.latest.problems.ignored


def test_duplicates_renames_and_deletions(tmp_path: Path) -> None:
    twin = Twin(_workspace(tmp_path))
    # a definition renamed to another's name: a duplicate key
    seen = twin.edit("  hidden:\n", "  count:\n")
    assert any("duplicate" in s[5] for s in seen)
    twin.edit("  count:\n    type: object", "  hidden:\n    type: object")
    # a variable another definition's filter reads renamed, then one an agent lists
    twin.edit("  api_token:\n", "  api_tokn:\n")
    twin.edit("  api_tokn:\n", "  api_token:\n")
    seen = twin.edit("  count:\n", "  counter:\n")
    assert any("undeclared variable(s) 'count'" in s[5] for s in seen)
    assert _at(seen, "'counter' is not exposed")
    twin.edit("  counter:\n", "  count:\n")
    # definitions deleted: one in the middle, then the first
    block = "  mode_selected:\n" + CONTRACT.split("  mode_selected:\n")[1].split("  # a note")[0]
    twin.edit(block, "")
    seen = twin.edit("  count:\n    type: integer\n    source: {type: state, default: 1}\n", "")
    assert not any("'count'" in s[5] and "not exposed" in s[5] for s in seen)
    # and a definition's source changed to one that reads another's value
    twin.edit("default: 3}", "default: '{{hidden}}'}")
    twin.edit("source: {type: state, default: '{{hidden}}'}", "source: {type: computed}")


def test_checks_settings_retune_every_kept_problem(tmp_path: Path) -> None:
    twin = Twin(_workspace(tmp_path))
    before = twin.check()
    assert any(s[6] == "warning" and "not exposed" in s[5] for s in before)
    seen = twin.tuning("checks:\n  exposure.not-exposed: error\n")
    assert all(s[6] == "error" for s in seen if "not exposed" in s[5])
    twin.edit("default: 1}", "default: 2}")
    seen = twin.tuning("checks:\n  runtime.unknown-type: ignore\n")
    assert not any("unknown type" in s[5] for s in seen)
    assert any(s[6] == "warning" and "not exposed" in s[5] for s in seen)
    seen = twin.tuning('checks:\n  files:\n    "workflows/**":\n      exposure.*: ignore\n')
    assert not any("not exposed" in s[5] for s in seen)
    assert twin.tuning(None) == twin.check()
    assert any("unknown type" in s[5] for s in twin.check())


def test_a_routing_rule_changed_judges_the_kept_declarations_again(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    graph = root / "workflows" / "W" / "transition_graph.yaml"
    rule = (
        "transition_rules:\n  - source_agent: Writer\n    target_agent: terminate\n"
        "    transition_type: condition\n    condition_type: context_equals\n"
        "    condition_key: count\n    condition_value: 3\n    transition_target: AgentTarget\n"
    )
    graph.write_text(rule)
    approved = (
        "  approved:\n    type: boolean\n    source:\n      type: state\n      default: false\n"
        "      triggers:\n        - type: user_text\n          match: {contains: approve}\n"
    )
    twin = Twin(root)
    twin.edit("  hidden:\n", approved + "  hidden:\n")
    twin.edit("default: 1}", "default: 2}")
    kept = twin.ws.latest.parts["W"].wf
    silent = "never writes 'approved'"
    assert not any(silent in s[5] for s in twin.check())
    # the same declarations (none read again) judged under another rule: `approved` is routing
    # state now, which a user_text trigger may not write
    twin.buffers[graph.resolve()] = rule.replace("condition_key: count", "condition_key: approved")
    seen = twin.check()
    assert twin.ws.latest.parts["W"].wf is kept
    assert any(silent in s[5] for s in seen)
    del twin.buffers[graph.resolve()]
    assert not any(silent in s[5] for s in twin.check())


async def test_the_editor_holds_every_problem_at_its_place_after_lines_move(
    tmp_path: Path,
) -> None:
    from tests.lsp.test_lsp_incremental import Editor

    root = _workspace(tmp_path)
    rel = "workflows/W/context_variables.yaml"
    ed = Editor(root)
    await ed.start()
    try:
        await ed.edit(rel, None)
        text = CONTRACT
        # each publication reuses the diagnostics (and their JSON) of unchanged problems: after
        # lines move, an ignore comment comes and goes, the editor holds what check says
        for old, new in (
            ("default: 1}", "default: 2}"),
            ("    type: integer\n", "    type: integer\n    description: x\n"),
            ("  # a note above hidden", "  # flowctx: ignore[exposure.not-exposed]"),
            ("type: strng", "type: strig"),
            ("    description: x\n", ""),
            ("  # flowctx: ignore[exposure.not-exposed]", "  # a note above hidden"),
        ):
            text = text.replace(old, new, 1)
            await ed.edit(rel, text)
    finally:
        await ed.client.shutdown_session()


def test_random_edits_of_declarations_always_match_a_fresh_workspace(tmp_path: Path) -> None:
    """Edits an author makes to valid declarations (a type or source changed, a name renamed,
    a definition added or removed, persisted toggled, an ignore comment
    added above one, the agents' list or checks settings changed), each checked incrementally
    and compared with a fresh workspace and check from scratch."""
    import random

    rng = random.Random(34)
    types = ["integer", "string", "intger", "strng", "boolean", "object"]
    sources = [
        "{type: state, default: 1}",
        '{type: state, default: "x"}',
        "{type: config, env_var: FLOWCTX_TEST_NEVER_SET, default: 2}",
        '{type: data_reference, collection: c, query_template: {k: "{{v1}}"}}',
        "{type: computed}",
        "{type: state, default: '{{v0}}'}",
        "{type: runtime}",
    ]
    defs = [[f"v{i}", rng.choice(types), rng.choice(sources), False, False] for i in range(10)]
    agents = ["v0", "v1", "v3"]

    def render() -> str:
        out = ["definitions:"]
        for name, kind, source, persisted, comment in defs:
            if comment:
                out.append("  # flowctx: ignore[exposure.not-exposed]")
            out += [f"  {name}:", f"    type: {kind}"]
            out += ["    persisted: true"] if persisted else []
            out.append(f"    source: {source}")
        return "\n".join(
            [*out, "agents:", "  Writer:", f"    variables: [{', '.join(agents)}]", ""]
        )

    twin = Twin(_workspace(tmp_path))
    partly = 0
    for step in range(60):
        r, d = rng.random(), rng.choice(defs)
        if r < 0.3:
            d[1] = rng.choice(types)
        elif r < 0.5:
            d[2] = rng.choice(sources)
        elif r < 0.6:
            d[3] = not d[3]
        elif r < 0.7:
            d[4] = not d[4]
        elif r < 0.78:
            taken = {x[0] for x in defs}
            d[0] = rng.choice([n for n in ("api_token", "_bad", f"n{step}") if n not in taken])
        elif r < 0.84 and len(defs) > 2:
            defs.remove(d)
        elif r < 0.9:
            at = rng.randrange(len(defs) + 1)
            defs.insert(at, [f"a{step}", rng.choice(types), rng.choice(sources), False, False])
        elif r < 0.95:
            agents[:] = rng.sample([x[0] for x in defs], k=min(3, len(defs)))
        else:
            twin.buffers[twin.profile] = rng.choice(
                ["checks:\n  exposure.not-exposed: error\n", "checks:\n  runtime.*: ignore\n", ""]
            )
        twin.buffers[twin.contract] = render()
        twin.check()
        partly += bool(twin.ws.latest.partly)
    assert partly > 10  # many of them read one definition again only
