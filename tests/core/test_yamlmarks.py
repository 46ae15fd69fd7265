"""YAML loading with line:column marks: syntax errors, tabs, duplicates, odd shapes, file reads."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from flowctx_core.base.yamlmarks import (
    MAX_DEPTH,
    format_path,
    load_yaml_file,
    parse_yaml_text,
    read_text_file,
)


def test_values_and_marks_of_keys_and_values() -> None:
    text = "definitions:\n  flag:\n    type: boolean\n    source: {type: config}\nagents: {}\n"
    doc, problems = parse_yaml_text(text, "cv.yaml")
    assert problems == []
    assert doc is not None
    assert doc.data == {
        "definitions": {"flag": {"type": "boolean", "source": {"type": "config"}}},
        "agents": {},
    }
    assert doc.where(("definitions", "flag")) == (2, 3)
    assert doc.where(("definitions", "flag", "type"), key=False) == (3, 11)
    assert doc.where(("definitions", "flag", "source", "type"), key=False) == (4, 20)
    # a path with no mark of its own falls back to its nearest marked ancestor, then to 1:1
    assert doc.where(("definitions", "flag", "nope", "deeper")) == (2, 3)
    assert doc.where(("missing",)) == (1, 1)


def test_diag_formats_file_line_column_and_yaml_path() -> None:
    doc, _ = parse_yaml_text("a:\n  b: [1, 2]\n", "x.yaml")
    assert doc is not None
    d = doc.diag(("a", "b", 1), "bad item", key=False)
    assert d.format() == "x.yaml:2:10: a.b[1]: bad item"
    w = doc.diag(("a",), "careful", severity="warning")
    assert w.format() == "x.yaml:1:1: warning: a: careful"


def test_format_path_writes_indexes_in_brackets() -> None:
    assert format_path(("definitions", "x", "source", "triggers", 0, "match")) == (
        "definitions.x.source.triggers[0].match"
    )
    assert format_path(()) == ""


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        # an unclosed bracket or quote is reported where it opens (the parser notices it at
        # the next key or the end, a line or more later, and says so in the message)
        (
            "definitions:\n  foo: [1, 2\nagents: {}\n",
            (2, 8),
            "this '[' is not closed (did not find expected ',' or ']' before line 3, column 7)",
        ),
        (
            "definitions:\n  x: {type: string\n",
            (2, 6),
            "this '{' is not closed (did not find expected ',' or '}' before line 3, column 1)",
        ),
        ("a: [1, 2\n\n\n# c\nb: 1\n", (1, 4), "this '[' is not closed"),
        ("a: [1, 2}\n", (1, 9), "did not find expected ',' or ']'"),  # on its line: where it is
        # the file ends inside the bracket, with nothing after it: the parser's mark is the
        # end of the file, a line after the bracket, and says only "expected node content"
        (
            "transition_rules:\n  - source_agent: [\n",
            (2, 19),
            "this '[' is not closed (the file ends",
        ),
        ("a: {b: 1,\n\n\n", (1, 4), "this '{' is not closed (the file ends inside it)"),
        ("r: a[0-9\nb: [1,\n", (2, 4), "this '[' is not closed"),  # a[ in a scalar opens nothing
        ("a:\n  - b\n  c: d\n", (3, 3), "expected '-'"),
        ("key: 'unterminated\n", (1, 6), "this quote (') is not closed (found unexpected end"),
        ("a: &x [1]\nb: *y\n", (2, 4), "undefined alias"),
    ],
)
def test_syntax_errors_say_where(text: str, where: tuple[int, int], words: str) -> None:
    doc, problems = parse_yaml_text(text, "cv.yaml")
    assert doc is None
    assert len(problems) == 1
    p = problems[0]
    assert (p.line, p.column) == where
    assert p.message.startswith("YAML syntax error: ")
    assert words in p.message
    assert p.format().startswith(f"cv.yaml:{where[0]}:{where[1]}: YAML syntax error")


def test_tab_indentation_is_named() -> None:
    doc, problems = parse_yaml_text("definitions:\n\tfoo: 1\n", "cv.yaml")
    assert doc is None
    [p] = problems
    assert (p.line, p.column) == (2, 1)
    assert "tab" in p.message
    assert "does not allow tabs" in p.message


def test_a_tab_inside_a_value_is_fine() -> None:
    doc, problems = parse_yaml_text('a: "x\\ty"\nb: "tab\there"\n', "cv.yaml")
    assert problems == []
    assert doc is not None and doc.data == {"a": "x\ty", "b": "tab\there"}


def test_duplicate_keys_are_reported_with_both_lines() -> None:
    text = "definitions:\n  a: {type: string}\n  b: 1\n  a: {type: integer}\n"
    doc, problems = parse_yaml_text(text, "cv.yaml")
    assert doc is not None
    [p] = problems
    assert (p.line, p.column) == (4, 3)
    assert p.yaml_path == "definitions.a"
    assert "duplicate key 'a'" in p.message
    assert "first defined at line 2" in p.message
    # the data keeps what a YAML loader would (last wins); the report is what changed
    assert doc.data["definitions"]["a"] == {"type": "integer"}


def test_duplicate_keys_are_found_at_any_depth() -> None:
    text = "x:\n  y:\n    z: 1\n    z: 2\ntop: 1\ntop: 2\n"
    _, problems = parse_yaml_text(text, "f.yaml")
    assert [(p.line, p.yaml_path) for p in problems] == [(4, "x.y.z"), (6, "top")]


def test_aliases_and_merge_keys() -> None:
    text = "base: &b {type: string, description: shared}\nx:\n  <<: *b\n  type: integer\ny: *b\n"
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert problems == []
    assert doc is not None
    assert doc.data["x"] == {"type": "integer", "description": "shared"}
    assert doc.data["y"] == {"type": "string", "description": "shared"}


def test_a_mapping_key_that_is_not_a_scalar_is_reported() -> None:
    doc, problems = parse_yaml_text("? [a, b]\n: 1\nok: 2\n", "f.yaml")
    assert doc is not None and doc.data == {"ok": 2}
    [p] = problems
    assert (p.line, p.column) == (1, 3)
    assert "mapping key must be a scalar" in p.message


def test_python_tags_are_refused_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f"x: !!python/object/apply:os.system ['touch {marker}']\n"
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert doc is None
    [p] = problems
    assert (p.line, p.column) == (1, 4)
    assert "could not determine a constructor" in p.message
    assert not marker.exists()


def test_scalar_types_follow_yaml_1_1_safe_loading() -> None:
    text = "a: 1\nb: 1.5\nc: yes\nd: ~\ne: 2024-01-02\nf: '007'\ng: !!str 5\n"
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert problems == []
    assert doc is not None
    data = doc.data
    assert data["a"] == 1 and data["b"] == 1.5 and data["c"] is True and data["d"] is None
    assert str(data["e"]) == "2024-01-02"
    assert data["f"] == "007" and data["g"] == "5"


def test_a_collection_tag_on_a_scalar_is_an_error() -> None:
    doc, problems = parse_yaml_text("a: !!map x\n", "f.yaml")
    assert doc is None
    assert "expected a mapping node" in problems[0].message


def test_empty_text_is_a_document_without_data() -> None:
    doc, problems = parse_yaml_text("", "f.yaml")
    assert problems == []
    assert doc is not None and doc.data is None
    doc, problems = parse_yaml_text("# only a comment\n", "f.yaml")
    assert problems == [] and doc is not None and doc.data is None


def test_deep_nesting_is_refused_with_a_location() -> None:
    text = "a: " + "[" * (MAX_DEPTH + 40) + "]" * (MAX_DEPTH + 40) + "\n"
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert doc is None
    [p] = problems
    assert "nesting deeper than" in p.message
    assert p.line == 1


def test_alias_bombs_are_refused() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    doc, problems = parse_yaml_text("\n".join(lines) + "\n", "bomb.yaml")
    assert doc is None
    assert problems and problems[0].file == "bomb.yaml"


def test_parsing_many_files_keeps_no_state_between_them() -> None:
    # each parse is independent: the same text parsed twice gives equal, separate data
    text = "a: {b: [1, 2]}\n"
    first, _ = parse_yaml_text(text, "f.yaml")
    second, _ = parse_yaml_text(text, "f.yaml")
    assert first is not None and second is not None
    assert first.data == second.data
    first.data["a"]["b"].append(3)
    assert second.data == {"a": {"b": [1, 2]}}


def test_read_text_file_problems(tmp_path: Path) -> None:
    missing, problem = read_text_file(tmp_path / "nope.yaml", "nope.yaml")
    assert missing is None and problem is not None and problem.message == "file not found"

    _, problem = read_text_file(tmp_path, "dir")
    assert problem is not None and "is a directory" in problem.message

    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"a: 1\x00\x01")
    _, problem = read_text_file(binary, "bin.yaml")
    assert problem is not None and "binary file" in problem.message

    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"a: 1\nname: caf\xe9\n")
    _, problem = read_text_file(latin, "latin.yaml")
    assert problem is not None
    assert (problem.line, problem.column) == (2, 10)
    assert "not valid UTF-8" in problem.message

    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 100 + "\n", encoding="utf-8")
    _, problem = read_text_file(big, "big.yaml", limit=50)
    assert problem is not None and "over the 50-byte limit" in problem.message


def test_load_yaml_file_reads_and_parses(tmp_path: Path) -> None:
    path = tmp_path / "cv.yaml"
    path.write_text("definitions: {}\nagents:\n  G: {variables: []}\n", encoding="utf-8")
    doc, problems = load_yaml_file(path, "workflows/G/cv.yaml")
    assert problems == []
    assert doc is not None and doc.file == "workflows/G/cv.yaml"
    assert doc.where(("agents", "G")) == (3, 3)
    doc, problems = load_yaml_file(tmp_path / "absent.yaml", "absent.yaml")
    assert doc is None and problems[0].message == "file not found"


def test_an_explicit_key_overrides_a_merged_one_without_a_duplicate_report() -> None:
    text = "base: &b {a: 1, b: 2}\nx:\n  a: 0\n  <<: *b\n  b: 3\n"
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert problems == []
    assert doc is not None and doc.data["x"] == {"a": 0, "b": 3}
    assert doc.where(("x", "b")) == (5, 3)


@pytest.mark.parametrize(
    "text", ["x: !Ref [a, b]\n", "x: !!python/tuple [1, 2]\n", "x: !custom {a: 1}\n"]
)
def test_unknown_collection_tags_are_refused_like_safe_load(text: str) -> None:
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert doc is None
    [p] = problems
    assert (p.line, p.column) == (1, 4)
    assert "could not determine a constructor for the tag" in p.message


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # libyaml scans a run of brackets ahead of the composer and stops at its own limit
        ("[" * 100_000, 1),
        ("a: " + "{b: " * 5_000, 1),
        ("k:\n  - " + "[" * 2_000 + "]" * 2_000 + "\n", 2),
    ],
    ids=["brackets", "flow mappings", "under a block sequence"],
)
def test_deep_flow_nesting_is_flowctxs_own_located_message(text: str, line: int) -> None:
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert doc is None
    [p] = problems
    assert p.message == "YAML nesting deeper than 64 levels"
    # located among the first 70 brackets, not where libyaml gave up (column 1,001)
    assert p.line == line and p.column < 300


@pytest.mark.parametrize(
    "text",
    [
        "a: |\n  " + "[" * 2_000 + "\n",  # brackets inside a block scalar are text
        "a: '" + "[" * 2_000 + "'\n",
        'a: "' + "{" * 2_000 + '"\n',
        "a: 1 # " + "[" * 2_000 + "\n",
    ],
    ids=["block scalar", "single-quoted", "double-quoted", "comment"],
)
def test_brackets_that_are_text_never_count_as_nesting(text: str) -> None:
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert problems == [] and doc is not None


def test_anchors_reused_after_the_tree_is_released_keep_data_and_marks() -> None:
    # the builder drops each node from the tree once taken: an anchor reached again later
    # (in a sequence, a merge, a nested value) must still give its value and marks (an anchor
    # that contains itself is refused: tests/reliability/test_hostile_yaml.py)
    text = (
        "base: &b {type: string, tags: &t [a, b]}\n"
        "list: [*b, *t, {k: *t}]\n"
        "merged:\n"
        "  <<: *b\n"
        "  type: integer\n"
        "last: *t\n"
    )
    doc, problems = parse_yaml_text(text, "f.yaml")
    assert problems == [] and doc is not None
    expected = yaml.safe_load(text)
    assert doc.data["base"] == expected["base"]
    assert doc.data["list"][:2] == expected["list"][:2]
    assert doc.data["list"][2] == {"k": ["a", "b"]}
    assert doc.data["merged"] == {"type": "integer", "tags": ["a", "b"]}
    assert doc.data["last"] == ["a", "b"]
    assert doc.where(("merged", "type")) == (5, 3)
    # an alias's value is the anchored node: its mark is where the anchor stands
    assert doc.where(("list", 2, "k"), key=False) == (1, 31)
    assert doc.where(("last",), key=False) == (1, 31)
    assert doc.where(("last",)) == (6, 1)


def test_a_plain_scalar_met_again_has_the_type_safe_load_gives_it() -> None:
    """The loader remembers each short plain scalar's tag; a scalar met again (in this file,
    or in a later one) keeps the type yaml.safe_load gives it, and a quoted one stays text."""
    scalars = ["1", "0x1F", "1.5e3", ".inf", "yes", "On", "~", "null", "", "2024-01-02", "x"]
    text = "".join(f"k{i}: {s}\nq{i}: '{s}'\n" for i, s in enumerate(scalars))
    for _ in range(2):
        doc, problems = parse_yaml_text(text, "f.yaml")
        assert problems == [] and doc is not None
        expected = yaml.safe_load(text)
        assert doc.data == expected
        assert [type(v) for v in doc.data.values()] == [type(v) for v in expected.values()]
