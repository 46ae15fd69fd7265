"""The README's ``flowctx test`` example is real: the demo's tests, run as shown, print it."""

from __future__ import annotations

from pathlib import Path

from flowctx_tui.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"
COMMAND = "$ cd flowctx_tui/demo && flowctx test workspace -w AppGenerator --coverage --suggest\n"


def test_readme_example_is_what_flowctx_test_prints(capsys, monkeypatch) -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index(COMMAND) + len(COMMAND)
    shown = text[start : text.index("\n```\n", start)]
    monkeypatch.chdir(README.parent / "flowctx_tui" / "demo")
    code = main(["test", "workspace", "-w", "AppGenerator", "--coverage", "--suggest"])
    assert code == 0
    assert capsys.readouterr().out.rstrip("\n") == shown
