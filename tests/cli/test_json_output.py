"""JSON output skips the control-character scan only when it cannot hold a character a
terminal acts on: ASCII text without DEL (json's default output always is: it escapes C0
controls, DEL and everything past ASCII); anything else goes through the escaping stream."""

from __future__ import annotations

import io
import json

from flowctx_tui.cli.terminal import SafeStream, write_json


def written(text: str) -> str:
    screen = io.StringIO()
    write_json(text, SafeStream(screen))
    return screen.getvalue()


def test_ascii_json_reaches_the_terminal_as_it_is() -> None:
    text = json.dumps({"name": "a\u202eb\x1b[2J", "v": [1, 2]}, indent=2)
    assert written(text) == text + "\n"


def test_del_and_text_past_ascii_go_through_the_escaping_stream() -> None:
    with_del = '{"name": "a\x7fb"}'  # JSON another writer made: DEL left raw
    assert "\x7f" not in written(with_del)
    assert json.loads(written(with_del)) == {"name": "a\x7fb"}
    not_ascii = json.dumps({"name": "a\u202eb"}, ensure_ascii=False)
    assert "\u202e" not in written(not_ascii)
