"""A workspace whose every shown string carries terminal escapes (issue 21, finding 3).

OSC 52 (write the clipboard), OSC 8 (a hyperlink), OSC 0 (the window title), CSI ``2J`` (clear
the screen) and bidi overrides, in the workflow folder's name, a variable's name, description
and default, agent names, a trigger, a transition's condition and description. Shared by the
Pilot test and the tmux test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ESC = "\x1b"
OSC52 = f"{ESC}]52;c;b3duZWQ={ESC}\\"
OSC8 = f"{ESC}]8;;https://evil.example{ESC}\\"
TITLE = f"{ESC}]0;pwned\x07"
CLEAR = f"{ESC}[2J"
BIDI = "\u202e\u2066"
EVERY = OSC52 + OSC8 + TITLE + CLEAR + BIDI
#: a character a terminal acts on (other than newline and tab) or a bidi control
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

WORKFLOW = f"W{TITLE}f"
VARIABLE = f"v{OSC52}ar"
AGENT = f"Ag{CLEAR}ent"
TARGET = f"Re{OSC8}viewer"
CONDITION = "${flag} == 'x" + EVERY + "'"


def _q(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def build(root: Path) -> Path:
    files = {
        f"workflows/{WORKFLOW}/context_variables.yaml": (
            "definitions:\n"
            f"  {_q(VARIABLE)}:\n"
            "    type: string\n"
            f"    description: {_q('desc' + EVERY)}\n"
            f"    source: {{type: config, default: {_q('val' + EVERY)}}}\n"
            "  flag:\n"
            "    type: boolean\n"
            "    source:\n"
            "      type: state\n"
            "      default: false\n"
            "      triggers:\n"
            f"        - {{type: agent_text, agent: {_q(AGENT)}, "
            f"match: {{contains: {_q('DONE' + EVERY)}}}}}\n"
            "agents:\n"
            f"  {_q(AGENT)}: {{variables: [{_q(VARIABLE)}, flag]}}\n"
            f"  {_q(TARGET)}: {{variables: [flag]}}\n"
        ),
        f"workflows/{WORKFLOW}/transition_graph.yaml": (
            "transitions:\n"
            f"  - source: {_q(AGENT)}\n"
            "    transition_type: condition\n"
            "    condition_type: context_expression\n"
            f"    condition: {_q(CONDITION)}\n"
            f"    target: {_q(TARGET)}\n"
            f"    description: {_q('path' + EVERY)}\n"
        ),
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
