"""flowctx(1): written from the parsers, committed as man/flowctx.1, readable by man."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from flowctx_tui.cli import COMMANDS, build_parser
from flowctx_tui.cli.manpage import render

PAGE = Path(__file__).resolve().parents[2] / "man" / "flowctx.1"


def test_the_committed_page_is_the_one_the_parsers_write() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "man/flowctx.1 is out of date: run python scripts/manpage.py"
    )


def test_every_command_and_option_is_in_the_page() -> None:
    page = render()
    for name in COMMANDS:
        assert f"\n.SS {name}\n" in page, name
        _, parser = build_parser(name)
        for action in parser._actions:
            for flag in action.option_strings:
                if flag in ("-h", "--help"):
                    continue
                assert f"\\fB{flag.replace('-', chr(92) + '-')}\\fR" in page, (name, flag)


@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_man_reads_the_page_without_a_warning() -> None:
    shown = subprocess.run(
        ["man", "-l", str(PAGE)],
        capture_output=True,
        text=True,
        env={**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0", "PAGER": "cat"},
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr == ""  # troff warns of lines it cannot set
    # man's bold and underline are overstrikes (x, backspace, x): read the letters alone
    text = re.sub(".\x08", "", shown.stdout)
    assert text.startswith("FLOWCTX(1)")
    for heading in ("NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES"):
        assert f"\n{heading}\n" in text, heading
    assert "--stdin-filename FILE" in text and "NO_COLOR" in text
    # no line wider than the 80 columns asked for
    assert max(len(line) for line in text.splitlines()) <= 80
