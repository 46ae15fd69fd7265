"""Positions in the encoding the client and the server agreed on (LSP ``positionEncoding``:
UTF-16 unless the client offers another), and the code points the analysis counts in.

The analysis indexes lines as Python strings (code points). A client counts characters in
UTF-16 code units (every editor's default) or UTF-8 bytes (Neovim offers it first), so a
line holding ``'café'`` or ``'日本語'`` puts the two counts apart: every position that comes
in is turned into code points, and every range that goes out back into the client's units.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec


def to_server(
    codec: PositionCodec, lines: Sequence[str], position: types.Position
) -> types.Position:
    """``position`` (client units) as a line and a code-point column."""
    copy = types.Position(line=position.line, character=position.character)
    found = codec.position_from_client_units(list(lines), copy)
    return types.Position(line=found.line, character=found.character)


def to_client(codec: PositionCodec, row: str, line: int, start: int, end: int) -> types.Range:
    """The code-point span ``start:end`` of ``row`` (line ``line``) in client units."""
    return types.Range(
        start=types.Position(line=line, character=codec.client_num_units(row[:start])),
        end=types.Position(line=line, character=codec.client_num_units(row[:end])),
    )
