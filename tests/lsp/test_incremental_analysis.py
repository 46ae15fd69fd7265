"""What the language server's incremental check reads and checks again after each kind of edit
(``flowctx_tui.lsp.incremental.analyse`` on a copy of the demo, with editor buffers), and that
its problems are always ``flowctx check``'s for the same buffers from scratch."""

from __future__ import annotations

import os
from pathlib import Path

from flowctx_core.base import fsview
from flowctx_core.check import workspace_report
from flowctx_core.session import open_session
from flowctx_tui.lsp import analysis
from flowctx_tui.lsp.incremental import Analysis

APP = "workflows/AppGenerator/context_variables.yaml"
APPROVALS = "workflows/Approvals/context_variables.yaml"
TRIAGE = "workflows/Triage/context_variables.yaml"
SHARED = "data/approval_policy.yaml"
REGISTRY = "build_context/approval_policies/context.yaml"
ALL = ("AppGenerator", "Approvals", "Triage")


def _from_scratch(root: Path, buffers: dict[Path, str]) -> list:
    with fsview.buffers(buffers):
        return list(workspace_report(open_session(root, env=dict(os.environ))).problems)


class Steps:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        path = self.root / APP
        found = analysis.open_workspace(path, dict(os.environ))
        assert isinstance(found, analysis.Workspace)
        self.ws = found
        self.buffers: dict[Path, str] = {}
        self.last = self.run()

    def run(self) -> Analysis:
        analysis.problems(self.ws, dict(self.buffers))
        found = self.ws.latest
        assert isinstance(found, Analysis)
        assert list(found.problems) == _from_scratch(self.root, dict(self.buffers))
        self.last = found
        return found

    def edit(self, rel: str, old: str, new: str) -> Analysis:
        path = self.root / rel
        text = self.buffers.get(path, path.read_text())
        assert old in text
        self.buffers[path] = text.replace(old, new, 1)
        return self.run()


def test_an_edit_checks_again_only_the_workflows_it_can_change(demo: Path) -> None:
    triage = (demo / TRIAGE).read_text()
    shared = (
        "  shared_policy:\n    type: object\n    source:\n      type: file\n"
        f"      path: {SHARED}\n      format: yaml\n"
    )
    (demo / TRIAGE).write_text(triage.replace("agents:\n", shared + "agents:\n", 1))
    steps = Steps(demo)
    assert steps.last.checked == ALL and steps.last.reparsed == ALL
    # nothing changed: nothing parsed or checked again
    again = steps.run()
    assert again.checked == () and again.reparsed == ()
    # one workflow's contract: that workflow only
    found = steps.edit(APP, "env_var: MAX_BUILD_ITERATIONS", "env_vr: MAX_BUILD_ITERATIONS")
    assert found.checked == ("AppGenerator",) and found.reparsed == ("AppGenerator",)
    assert any("env_vr" in p.yaml_path for p in found.problems)
    # a comment in another: parsed again (its text changed), its problems are the same
    found = steps.edit(APPROVALS, "definitions:", "# a note\ndefinitions:")
    assert found.reparsed == ("Approvals",) and found.checked == ("Approvals",)
    # a file two workflows read: both checked again, parsed neither
    found = steps.edit(SHARED, "auto_approve_below: 500", "auto_approve_below: [500")
    assert found.checked == ("Approvals", "Triage") and found.reparsed == ()
    # a registry: every workflow (each may project it)
    found = steps.edit(REGISTRY, "\n", "\n# edited\n")
    assert found.checked == ALL and found.reparsed == ()
    # flowctx.yaml unsaved: the session is read again, every workflow checked
    found = steps.edit(
        "flowctx.yaml", 'ENABLE_PREVIEW_DEPLOYS: "yes"', 'ENABLE_PREVIEW_DEPLOYS: "no"'
    )
    assert found.checked == ALL
    assert steps.ws.session.profile.env["ENABLE_PREVIEW_DEPLOYS"] == "no"
    # back: the same list as at the start
    steps.buffers.clear()
    found = steps.run()
    assert steps.ws.session.profile.env["ENABLE_PREVIEW_DEPLOYS"] == "yes"
    assert not any("env_vr" in p.yaml_path for p in found.problems)


def test_a_contract_that_stops_parsing_keeps_the_last_good_part_for_answers(demo: Path) -> None:
    steps = Steps(demo)
    good = steps.ws.good["AppGenerator"]
    found = steps.edit(APP, "definitions:", "definitions: [")
    assert found.parts["AppGenerator"].wf.doc is None
    assert steps.ws.good["AppGenerator"] is good  # hover and completion still answer from it
    assert analysis.matrix_of(steps.ws, "AppGenerator", steps.buffers) is good.matrix
    found = steps.edit(APP, "definitions: [", "definitions:")
    assert steps.ws.good["AppGenerator"] is found.parts["AppGenerator"]


def test_an_edit_inside_one_definition_parses_and_reads_only_that_definition(
    demo: Path,
) -> None:
    steps = Steps(demo)
    first = list(steps.last.problems)
    app = steps.ws.latest.parts["AppGenerator"].wf
    # inside one definition: only its lines parsed, only it read again (the others' specs
    # are the same objects)
    found = steps.edit(APP, "env_var: MAX_BUILD_ITERATIONS", "env_vr: MAX_BUILD_ITERATIONS")
    assert found.partly == ("AppGenerator",) and found.checked == ("AppGenerator",)
    wf = found.parts["AppGenerator"].wf
    again = [a is b for a, b in zip(app.variables, wf.variables, strict=True)]
    changed = [v.name for v, same in zip(wf.variables, again, strict=True) if not same]
    assert changed == ["max_build_iterations"]
    # a line added: the definitions after it move, with their problems (and quick fixes)
    found = steps.edit(APP, "    type: boolean\n", "    type: boolen\n")
    assert any(p.fix is not None and "boolen" in p.message for p in found.problems)
    last = found.parts["AppGenerator"].wf.variables[-1]
    found = steps.edit(APP, "    model_visible: false\n", "    model_visible: false\n\n")
    assert found.partly == ("AppGenerator",)
    moved = found.parts["AppGenerator"].wf.variables[-1]
    # the last definition moved a line down: a new spec, with what it remembered moved along
    assert moved is not last and moved.loc.line == last.loc.line + 1
    assert moved.memo["authority"][1] is last.memo["authority"][1]
    steps.edit(APP, "    type: boolen\n", "    type: boolean\n")
    # the definition's own key renamed, then a key of it moved below another
    found = steps.edit(APP, "  llm_model:\n", "  llm_modl:\n")
    assert found.partly == ("AppGenerator",)
    found = steps.edit(
        APP,
        "    type: boolean\n    description: '\"yes\" in the environment coerces to true.'\n",
        "    description: '\"yes\" in the environment coerces to true.'\n    type: boolean\n",
    )
    assert found.partly == ("AppGenerator",)
    # a definition added or removed, or a duplicate name: the whole contract parsed
    found = steps.edit(APP, "  llm_modl:\n", "  extra:\n    type: string\n  llm_modl:\n")
    assert found.partly == () and found.reparsed == ("AppGenerator",)
    found = steps.edit(APP, "  extra:\n    type: string\n", "")
    assert found.partly == ()
    found = steps.edit(APP, "  llm_modl:\n", "  factory_name:\n")
    assert found.partly == () and any("duplicate key" in p.message for p in found.problems)
    steps.edit(
        APP,
        "  factory_name:\n    type: string\n    description: >-",
        "  llm_model:\n    type: string\n    description: >-",
    )
    # a line that stops the contract parsing, then fixed: parsed from the last good parse
    found = steps.edit(APP, "env_vr: MAX_BUILD_ITERATIONS", "env_vr: [MAX_BUILD_ITERATIONS")
    assert found.parts["AppGenerator"].wf.doc is None
    found = steps.edit(APP, "env_vr: [MAX_BUILD_ITERATIONS", "env_var: MAX_BUILD_ITERATIONS")
    assert found.partly == ("AppGenerator",)
    # back to the disk's text (several definitions changed: parsed whole), as at the start
    steps.buffers.clear()
    assert list(steps.run().problems) == first


def test_a_stopped_check_leaves_its_parse_to_the_next(demo: Path) -> None:
    from flowctx_core.expressions.budget import Cancelled
    from flowctx_tui.lsp.incremental import analyse

    steps = Steps(demo)
    path = steps.root / APP
    text = path.read_text().replace("env_var: MAX_BUILD_ITERATIONS", "env_vr: MAX_BUILD", 1)
    latest: dict = {}

    class Newer:
        """A newer change arrives as soon as the edited contract is parsed."""

        def is_set(self) -> bool:
            return bool(latest)

    try:
        analyse(steps.ws.session, {path: text}, steps.ws.latest, Newer(), latest)
    except Cancelled:
        pass
    else:
        raise AssertionError("the check was not stopped")
    parsed = latest["AppGenerator"]
    assert parsed.doc is not None and parsed.doc.from_part and parsed.text == text
    # the next check (the same text) starts from that parse: nothing parsed again
    found = analyse(steps.ws.session, {path: text}, steps.ws.latest, None, latest)
    assert found.parts["AppGenerator"].wf is parsed and found.reparsed == ()
    assert list(found.problems) == _from_scratch(steps.root, {path: text})


CONTRACT = """definitions:
  count:
    type: integer
    source: {type: state, default: 1}
  mode_selected:
    type: string
    source:
      type: state
      default: draft
      triggers:
        - type: agent_text
          agent: Writer
          match: {equals: DONE}
          value: done
  api_token:
    type: string
    source: {type: config, env_var: API_TOKEN}
  retries:
    type: intger
    persisted: true
    source: {type: state, default: "many"}
  notes:
    type: string
    description: |
      two lines
      of text
    source: {type: state, default: ""}
  hidden:
    type: object
    source: {type: state, default: {a: 1}}
agents:
  Writer:
    variables: [count, mode_selected, notes]
"""


def test_random_edits_of_a_contract_always_give_check_from_scratch(tmp_path: Path) -> None:
    import random

    root = tmp_path / "ws"
    folder = root / "workflows" / "W"
    folder.mkdir(parents=True)
    (folder / "context_variables.yaml").write_text(CONTRACT)
    (folder / "orchestrator.yaml").write_text("workflow_name: W\n")
    path = (folder / "context_variables.yaml").resolve()
    ws = analysis.open_workspace(path, dict(os.environ))
    assert isinstance(ws, analysis.Workspace)
    rng = random.Random(34)
    pieces = ["x", "\n", "\n    ", "  ", ":", " 1", "#", "'", "[", "\n    extra: 1", "\n  new:"]
    text, partly = CONTRACT, 0
    for _ in range(60):
        i = rng.randrange(len(text))
        text = (
            text[:i] + rng.choice(pieces) + text[i:]
            if rng.random() < 0.7
            else text[:i] + text[i + 1 :]
        )
        if rng.random() < 0.15:
            text = CONTRACT  # back to a contract that parses
        analysis.problems(ws, {path: text})
        found = ws.latest
        assert isinstance(found, Analysis)
        partly += bool(found.partly)
        assert list(found.problems) == _from_scratch(root.resolve(), {path: text}), text
    assert partly > 5  # many of them parsed one definition only
