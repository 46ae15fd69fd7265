"""flowctx(1), the manual page, written from the very parsers ``flowctx`` reads its arguments
with (as the completion scripts are), so it lists exactly the commands and options of this
version. ``python scripts/manpage.py`` writes it to ``man/flowctx.1``, which the wheel installs
as ``share/man/man1/flowctx.1`` (pipx links it into its man folder); tests/cli/test_manpage.py
fails when the committed page and the parsers disagree.
"""

from __future__ import annotations

import argparse
import re


def _roff(text: str) -> str:
    """``text`` safe in a roff line: backslashes escaped, hyphens as minus signs (so options
    can be searched and pasted), and a leading dot or quote kept from reading as a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text)


def _option(action: argparse.Action) -> list[str]:
    flags = ", ".join(f"\\fB{_roff(flag)}\\fR" for flag in action.option_strings)
    if action.nargs != 0:
        shown = action.metavar or (
            "{" + ",".join(map(str, action.choices)) + "}" if action.choices else action.dest
        )
        flags += f" \\fI{_roff(str(shown))}\\fR"
    return [".TP", flags, _roff(" ".join((action.help or "").split()))]


def _positional(action: argparse.Action) -> list[str]:
    shown = str(action.metavar or action.dest)
    return [".TP", f"\\fI{_roff(shown)}\\fR", _roff(" ".join((action.help or "").split()))]


def render() -> str:
    """The page, in roff (man macros)."""
    from flowctx_tui.cli import COMMANDS, _usage, build_parser, version

    release = version().split(" ")[0]
    lines = [
        f'.TH FLOWCTX 1 "" "flowctx {_roff(release)}" "flowctx manual"',
        # left-aligned: option lists and long usage lines cannot be justified
        ".ad l",
        ".SH NAME",
        "flowctx \\- see what your agent workflow runtime will do, before you run it",
        ".SH SYNOPSIS",
        ".B flowctx",
        "[\\fIPATH\\fR] [\\fB\\-\\-workflow\\fR \\fINAME\\fR]",
        ".br",
        ".B flowctx",
        "\\fICOMMAND\\fR [\\fIPATH\\fR] [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        "flowctx predicts, from a workflow's files and without running anything, what the",
        "runtime will do: the value and source of every context variable, which agent or step",
        "speaks next and why, what a change does. Answers are given against a versioned",
        "runtime profile (\\fB\\-\\-runtime\\fR).",
        ".PP",
    ]
    usage = _usage().split("\n")
    start = next(i for i, line in enumerate(usage) if line.startswith("PATH comes first"))
    end = next(i for i, line in enumerate(usage) if line == "commands:")
    lines.append(_roff(" ".join(line for line in usage[start:end] if line)))
    lines.append(".SH COMMANDS")
    for name, (_, summary) in COMMANDS.items():
        _, parser = build_parser(name)
        usage_line = " ".join(parser.format_usage().split())
        usage_line = usage_line.removeprefix("usage: ")
        lines += [
            f".SS {_roff(name)}",
            _roff(summary[0].upper() + summary[1:] + "."),
            ".PP",
            _roff(usage_line),
            ".RS",
        ]
        actions = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
        for action in actions:
            lines += _option(action) if action.option_strings else _positional(action)
        lines.append(".RE")
    lines += [
        ".SH EXIT STATUS",
        "0 when the command did what was asked and the answer is one a script can go on with;",
        "1 when the answer is one to stop on (errors found, nothing matched, a case failed);",
        "2 for bad arguments or input that cannot be read, or a one\\-shot command run outside",
        "any workspace without \\fB\\-\\-demo\\fR; 3 only for \\fBeval\\fR, when the expression",
        "cannot be evaluated; 130 when interrupted.",
        ".SH ENVIRONMENT",
        ".TP",
        "\\fBNO_COLOR\\fR",
        "When set to a non\\-empty value, no colour on any output (as \\fBTERM=dumb\\fR).",
        ".TP",
        "\\fBFLOWCTX_CONFIG\\fR",
        "The settings file to use instead of the one under \\fBXDG_CONFIG_HOME\\fR.",
        ".TP",
        "\\fBXDG_CONFIG_HOME\\fR",
        "Where the settings file is looked for (default \\fI~/.config\\fR).",
        ".TP",
        "\\fBFLOWCTX_MONGO_URI\\fR",
        "The database a workflow's data references are read from (as \\fB\\-\\-mongo\\-uri\\fR).",
        ".SH FILES",
        ".TP",
        "\\fI$XDG_CONFIG_HOME/flowctx/config.yaml\\fR",
        "Your settings: theme, keymap, default runtime (\\fBflowctx config \\-\\-show\\fR).",
        ".TP",
        "\\fIflowctx.yaml\\fR",
        "A workspace's own settings: runtime profile, check tuning, clock.",
        ".SH SEE ALSO",
        "The documentation site built from the repository's \\fIdocs/\\fR folder",
        "(\\fBmkdocs serve\\fR); \\fBflowctx COMMAND \\-\\-help\\fR.",
    ]
    return "\n".join(lines) + "\n"
