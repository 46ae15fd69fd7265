"""The matrix filter language: free text, key:value by prefix, alternatives, negation."""

from __future__ import annotations

from flowctx_core.model.matrix import Row
from flowctx_tui.rowfilter import RowFilter


def row(name: str, status: str = "resolved", source: str = "config", agents=("A",)) -> Row:
    return Row(name, "string", source, status, None, "x", agents=tuple(agents))  # type: ignore[arg-type]


ROWS = [
    row("llm_model", "default"),
    row("api_token", "error"),
    row("catalog", "resolved", "file", agents=("Planner",)),
    row("contacts", "fallback", "data_reference", agents=()),
]


def names(text: str) -> list[str]:
    f = RowFilter.parse(text)
    return [r.name for r in ROWS if f.matches(r)]


def test_empty_filter_keeps_everything_and_is_falsy():
    assert names("") == [r.name for r in ROWS]
    assert not RowFilter.parse("   ")


def test_free_text_matches_names_case_insensitively():
    assert names("MODEL") == ["llm_model"]
    assert names("c") == ["catalog", "contacts"]


def test_field_values_match_by_prefix_and_alternatives():
    assert names("status:err") == ["api_token"]
    assert names("status:error,fallback") == ["api_token", "contacts"]
    assert names("source:data") == ["contacts"]
    assert names("agent:plan") == ["catalog"]
    assert names("type:str") == [r.name for r in ROWS]


def test_words_are_anded_and_can_be_negated():
    assert names("source:config -status:error") == ["llm_model"]
    assert names("c -source:file") == ["contacts"]


def test_empty_values_are_ignored():
    assert names("status:") == [r.name for r in ROWS]


def test_select_keeps_the_rows_matches_keeps_in_their_order():
    # select is what the matrix runs on each keystroke; it must pick exactly what matches does
    rows = [*ROWS, row("CATALOG_2", "error", "file"), row("-x", "pending")]
    for text in (
        "",
        "c",
        "CAT",
        "-c",
        "c -cat",
        "a t",
        "status:err",
        "-status:error,fallback c",
        "agent:plan cat",
        "- -x",
        "-",
        "nothing",
    ):
        f = RowFilter.parse(text)
        want = [i for i, r in enumerate(rows) if f.matches(r)]
        assert f.select(enumerate(rows)) == want, text
        # with the lowered names the matrix keeps beside its rows
        lowered = [r.name.lower() for r in rows]
        assert f.select(list(enumerate(rows)), lowered) == want, text


def test_an_unknown_column_filters_nothing_and_is_named_with_the_known_ones():
    f = RowFilter.parse("foo:bar -agnt:x status:err")
    assert f.unknown == ("foo", "agnt")
    assert names("foo:bar -agnt:x status:err") == ["api_token"]
    assert f.problem == (
        "unknown columns foo; agnt (did you mean 'agent'?): filter by name, status, source, "
        "type, agent"
    )
    assert RowFilter.parse("status:err").problem == ""
    assert names("name:cat") == ["catalog"]
