"""Every command output shown in the README and the docs is what the command prints today.

Each marked block (``<!-- example: flowctx ... -->``, see scripts/doc_examples.py) is run again
in a fresh copy of the demo, or of the review-mode example, with the fixed clock and
environment it was written with; a block that differs fails, naming the page and line and
showing the difference. ``python scripts/doc_examples.py`` writes the new outputs.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "doc_examples", REPO / "scripts" / "doc_examples.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("doc_examples", module)
    spec.loader.exec_module(module)
    return module


doc_examples = _load_script()
EXAMPLES = doc_examples.collect()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_shown_output_is_what_the_command_prints(example) -> None:
    diff = doc_examples.differences(example, doc_examples.render(example))
    if diff:
        pytest.fail(
            f"{example.where}: `{example.commands[0]}` prints something else now; "
            f"regenerate with `python scripts/doc_examples.py` and read the difference:\n{diff}",
            pytrace=False,
        )


def test_the_pages_show_the_outputs_the_issue_named() -> None:
    """The examples a reader meets first, and the ones that went stale before, are marked."""
    shown = {" ".join(c.split()) for e in EXAMPLES for c in e.commands}
    for command in (
        "flowctx check",
        "flowctx check -w Approvals",
        "flowctx diff . --base HEAD --width 80",
        "flowctx diff . --base HEAD -w Approvals --format json",
        "flowctx diff . --base HEAD --format markdown",
        "flowctx test -w AppGenerator --coverage --suggest",
        'flowctx eval "data.x ==="',
    ):
        assert command in shown, command
    pages = {e.page for e in EXAMPLES}
    assert "README.md" in pages
    assert {"docs/commands/graph.md", "docs/commands/trigger.md"} <= pages


def _fenced_blocks(text: str):
    """``(line, language, body)`` of every fenced block, with the comment line before it."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            start = i
            language = lines[i][3:].strip()
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            before = lines[start - 1] if start else ""
            yield start + 1, language, "\n".join(lines[start + 1 : i]), before
        i += 1


@pytest.mark.parametrize(
    "page", doc_examples.pages(REPO), ids=lambda p: p.relative_to(REPO).as_posix()
)
def test_no_command_output_is_shown_without_its_command_being_run(page: Path) -> None:
    """A block that shows a prompt (``$ flowctx ...``) is an example the script regenerates:
    an output pasted by hand would go stale unnoticed."""
    text = page.read_text(encoding="utf-8")
    marked = {text.count("\n", 0, m.start("body")) for m in doc_examples.MARKER.finditer(text)}
    for line, _language, body, _before in _fenced_blocks(text):
        if body.startswith("$ ") and "\n" in body.strip():
            assert line in marked, f"{page.name}:{line}: output shown without an example marker"


def test_every_key_map_shown_is_one_the_app_accepts(tmp_path: Path) -> None:
    from flowctx_tui.app import binding_classes
    from flowctx_tui.keymap import binding_ids, bound_keys, load_keymap

    shown = doc_examples.keymaps(REPO)
    assert shown, "the app page shows a --keymap example"
    classes = binding_classes()
    for where, body in shown:
        path = tmp_path / "keys.yaml"
        path.write_text(body, encoding="utf-8")
        # raises KeymapError naming the clash or the unknown id
        assert load_keymap(path, binding_ids(classes), bound=bound_keys(classes)), where


#: the parts of the app whose keys the app page's table lists (dialogs list theirs themselves)
VIEWS = ("app", "matrix", "scratchpad", "routes", "tests", "json")


def test_every_binding_id_the_app_page_names_exists() -> None:
    from flowctx_tui.app import binding_classes
    from flowctx_tui.keymap import binding_ids

    page = (REPO / "docs" / "app.md").read_text(encoding="utf-8")
    table = page[page.index("| keys | action | binding id |") :].split("\n\n", 1)[0]
    named = set(re.findall(r"`([a-z_]+\.[a-z_.]+)`", table))
    known = set(binding_ids(binding_classes()))
    assert named and named <= known, sorted(named - known)
    # the views' own keys, whose ids a key map names, are all in the table
    views = {i for i in known if i.split(".")[0] in VIEWS}
    assert views <= named, sorted(views - named)


def test_check_s_code_table_lists_every_problem_code() -> None:
    from flowctx_core.check import PROBLEM_KINDS

    page = (REPO / "docs" / "commands" / "check.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z.<> _-]+)` \|", page, re.MULTILINE))
    codes = {"resolve.<source type>" if c.startswith("resolve.") else c for c in PROBLEM_KINDS}
    assert codes == listed


def test_the_readme_is_a_front_page() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = readme.split("\n")
    assert len(lines) <= 260
    picture = next(i for i, line in enumerate(lines) if line.startswith("!["))
    assert picture < 40
    target = re.search(r"\]\(([^)]+)\)", lines[picture])
    assert target and (REPO / target.group(1)).is_file()
    # the set-up commands, the second one exactly as .ci/run runs it
    test_command = "pip install -e '.[test]' && python -m pytest -n 2 -q"
    assert test_command in lines
    assert test_command in (REPO / ".ci" / "run").read_text().splitlines()
    assert "pip install -e . && flowctx" in lines
    for tool in ("pipx install .", "uv tool install .", "tmux", "chromium", "npm"):
        assert tool in readme, tool
    # every link into the repository leads somewhere
    for link in re.findall(r"\]\((?!https?:)([^)#]+)", readme):
        assert (REPO / link).exists(), link


def test_nothing_in_the_pages_names_a_machine_or_a_file_outside_the_repository() -> None:
    for page in doc_examples.pages(REPO):
        text = page.read_text(encoding="utf-8")
        for pattern in (
            r"/work/",
            r"/home/\w",
            r"/tmp/",
            r"\bthe PRD\b",
            r"load average",
            r"\b\d{3}_[0-9a-f]{16}\.txt",  # the spec's seed file, named by its title instead
        ):
            assert not re.search(pattern, text), f"{page.name}: {pattern}"


def _parser(name: str):
    """The parser ``flowctx NAME`` parses its arguments with (built as ``main`` builds it)."""
    import importlib

    from flowctx_tui.cli import COMMANDS
    from flowctx_tui.cli.common import MaskingParser
    from flowctx_tui.cli.workspace_args import add_runtime_arg

    module = importlib.import_module(COMMANDS[name][0])
    parser = MaskingParser(prog=f"flowctx {name}")
    module.configure(parser)
    add_runtime_arg(parser)
    return parser


def _command_pages():
    from flowctx_tui.cli import COMMANDS

    return sorted(COMMANDS)


@pytest.mark.parametrize("name", _command_pages())
def test_each_command_page_s_synopsis_names_exactly_its_options(name: str) -> None:
    """The synopsis at the top of docs/commands/NAME.md lists every option of the command and
    none it does not have, so a renamed or new option shows here."""
    page = REPO / "docs" / "commands" / f"{name}.md"
    text = page.read_text(encoding="utf-8")
    synopsis = re.search(r"```text\n(.*?)\n```", text, re.DOTALL)
    assert synopsis, f"{page.name} starts with a synopsis"
    shown = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", synopsis.group(1)))
    actions = [a for a in _parser(name)._actions if a.option_strings and a.dest != "help"]
    known = {option for action in actions for option in action.option_strings}
    assert shown <= known, f"{page.name}: no such option: {sorted(shown - known)}"
    missing = [a.option_strings[-1] for a in actions if not shown & set(a.option_strings)]
    assert not missing, f"{page.name}: the synopsis leaves out {missing}"
