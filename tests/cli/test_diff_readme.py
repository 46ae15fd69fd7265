"""The README's review-mode examples are real: the same repository, built again, gives the
same output in every format (commit ids aside)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.diff_repo import make_demo_review

README = Path(__file__).resolve().parents[2] / "README.md"
COMMIT = re.compile(r"git:[0-9a-f]{12}")


def readme_block(after: str, language: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Review mode: flowctx diff") :]
    start = section.index(f"```{language}\n", section.index(after)) + len(language) + 4
    return section[start : section.index("\n```\n", start)]


@pytest.mark.parametrize(
    ("label", "language", "args"),
    [
        ("**Text**", "text", ["--width", "80"]),
        ("**JSON**", "json", ["-w", "Approvals", "--format", "json"]),
        ("**Markdown**", "markdown", ["--format", "markdown"]),
    ],
)
def test_readme_example_is_what_diff_prints(tmp_path, capsys, monkeypatch, label, language, args):
    shop = make_demo_review(tmp_path)
    monkeypatch.chdir(shop)
    assert main(["diff", ".", "--base", "HEAD", *args]) == 0
    out = capsys.readouterr().out.rstrip("\n")
    shown = readme_block(label, language)
    assert COMMIT.sub("git:<id>", out) == COMMIT.sub("git:<id>", shown)
