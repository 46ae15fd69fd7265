"""UTS #46 (IDNA) as node 20's URL parser applies it to a host name: each code point mapped
(measured from node by ``scripts/idna_table.mjs`` into ``idna.json.gz``), the text put in
NFC, each label checked, and the labels that are not ASCII written as punycode (``xn--``).
A punycode label is decoded, mapped and checked in turn, and kept as written.

The checks node makes on a label, each reproduced as node makes it (which is not always as
UTS #46 and RFC 5893 write them): it is not empty once decoded, it starts with no combining
mark (node's own list), a punycode label decodes to what the mapping keeps, in NFC; the
joiners' contexts decide a label that holds one; otherwise a label with right-to-left letters
or Arabic digits follows node's bidirectional rules (``_bidi``). The lists and directions are
measured from node with the mapping."""

from __future__ import annotations

import bisect
import functools
import gzip
import json
from importlib import resources
from typing import Any, Final

from flowctx_core.expressions.js.unicodenorm import js_normalize


class IdnaFailure(Exception):
    """UTS #46 failed: the host is no valid domain (node's "Invalid URL")."""


@functools.cache
def _data() -> dict[str, Any]:
    raw = resources.files(__package__).joinpath("idna.json.gz").read_bytes()
    data: dict[str, Any] = json.loads(gzip.decompress(raw))
    return data


@functools.cache
def _table() -> tuple[list[int], list[int], list[str], dict[int, str]]:
    """Range starts, range ends, range kinds ("v" kept, "i" ignored) and the mapped code
    points; a code point in no range and not mapped is disallowed."""
    ranges = _data()["ranges"]
    return (
        [r[0] for r in ranges],
        [r[1] for r in ranges],
        [r[2] for r in ranges],
        {cp: text for cp, text in _data()["mapped"]},
    )


@functools.cache
def _no_start() -> frozenset[str]:
    """The code points node's list of combining marks holds: no label starts with one."""
    return frozenset(chr(cp) for cp in _data()["nostart"])


def _map_one(c: str) -> str:
    cp = ord(c)
    if cp < 0x80:
        return c.lower()
    starts, ends, kinds, mapped = _table()
    found = mapped.get(cp)
    if found is not None:
        return found
    at = bisect.bisect_right(starts, cp) - 1
    if at >= 0 and cp <= ends[at]:
        return c if kinds[at] == "v" else ""
    raise IdnaFailure


def _mapped(text: str) -> str:
    if text.isascii():
        return text.lower()
    # node's NFC, whose newer marks (U+11F41, U+1E4EC...) are reordered as Python's are not
    return js_normalize("".join(_map_one(c) for c in text), "NFC")


@functools.cache
def _directions() -> tuple[list[int], list[int], list[str]]:
    runs = _data()["directions"]
    return [r[0] for r in runs], [r[1] for r in runs], [r[2] for r in runs]


def _direction(c: str) -> str:
    """The direction node gives ``c`` (see ``scripts/idna_table.mjs``): "L", "R" (R or AL),
    "AN", "EN", "NSM", "ON" (ES, CS, ET, ON, BN) or "-" (none of these)."""
    cp = ord(c)
    if cp < 0x80:
        return _ASCII_DIRECTIONS.get(c, "L" if c.isalpha() else "ON")
    starts, ends, kinds = _directions()
    at = bisect.bisect_right(starts, cp) - 1
    return kinds[at] if at >= 0 and cp <= ends[at] else "L"


_ASCII_DIRECTIONS: Final = {d: "EN" for d in "0123456789"}
_LEFT_TO_RIGHT_OK: Final = frozenset({"L", "EN", "ON", "NSM"})
_RIGHT_TO_LEFT_OK: Final = frozenset({"R", "AN", "EN", "ON", "NSM"})


@functools.cache
def _joining() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    data = _data()
    return tuple(  # type: ignore[return-value]
        frozenset(chr(cp) for cp in data[key]) for key in ("virama", "joinsLeft", "joinsRight")
    )


def _joiners(label: str) -> bool | None:
    """Node's rules for U+200C and U+200D: the first one met decides the whole label (valid
    after a virama; U+200C also between a letter that joins to the left somewhere before it
    and one that joins to the right somewhere after it); None without one."""
    virama, left, right = _joining()
    for i, c in enumerate(label):
        if c == "\u200c":
            if i > 0 and label[i - 1] in virama:
                return True
            if i == 0 or i + 1 >= len(label):
                return False
            return any(b in left for b in label[:i]) and any(a in right for a in label[i + 1 :])
        if c == "\u200d":
            return i > 0 and label[i - 1] in virama
    return None


def _bidi(label: str) -> bool:
    """Node's bidirectional rules, for a label with an R, AL or AN letter: from an L, what
    stands before the last letter that is no NSM must be left-to-right (or neutral); from
    anything else, every letter up to it right-to-left (or neutral), EN and AN not both, and
    that last letter R, AL, AN or EN."""
    directions = [_direction(c) for c in label]
    if not any(d == "R" or d == "AN" for d in directions):
        return True
    last = max((i for i, d in enumerate(directions) if d != "NSM"), default=-1)
    if last < 0:
        return False
    if directions[0] == "L":
        return all(d in _LEFT_TO_RIGHT_OK for d in directions[:last])
    kept = directions[: last + 1]
    if "EN" in kept and "AN" in kept:
        return False
    return all(d in _RIGHT_TO_LEFT_OK for d in kept) and kept[-1] in ("R", "AN", "EN")


def _check(label: str) -> None:
    """Node's checks of one label (mapped, in NFC, not empty)."""
    if label.isascii():
        return
    if label[0] in _no_start():
        raise IdnaFailure
    joined = _joiners(label)
    if joined is False or (joined is None and not _bidi(label)):
        raise IdnaFailure


def to_ascii(domain: str) -> str:
    """The host name node's URL parser makes of ``domain`` (percent-decoded), before its
    forbidden code points and numbers are looked at; ``IdnaFailure`` where node fails."""
    text = _mapped(domain)
    out: list[str] = []
    for label in text.split("."):
        if label[:4].lower() == "xn--":
            if not label.isascii():
                raise IdnaFailure
            try:
                decoded = label[4:].encode("ascii").decode("punycode")
            except UnicodeError:
                raise IdnaFailure from None
            # kept as written only if it is what mapping would have written: in NFC, every
            # code point one the mapping keeps
            if not decoded or js_normalize(decoded, "NFC") != decoded:
                raise IdnaFailure
            if any(_map_one(c) != c for c in decoded if not c.isascii()):
                raise IdnaFailure
            _check(decoded)
            out.append(label)
        elif label and not label.isascii():
            _check(label)
            out.append("xn--" + label.encode("punycode").decode("ascii"))
        else:
            out.append(label)
    return ".".join(out)
