"""The Intl tables node answers with (``intldata.json.gz``, written by scripts/intl_data.mjs):
read once, on the first use of a locale-sensitive built-in, never at import."""

from __future__ import annotations

import functools
import gzip
import json
from importlib import resources
from typing import Any


@functools.cache
def tables() -> dict[str, Any]:
    raw = resources.files(__package__).joinpath("intldata.json.gz").read_bytes()
    loaded: dict[str, Any] = json.loads(gzip.decompress(raw))
    return loaded


@functools.cache
def available(service: str) -> frozenset[str]:
    """The locales a service resolves to ("number", "plural", "list", "date", "collator")."""
    return frozenset(tables()["locales"][service])


def inherited(table: dict[str, Any], tag: str) -> Any:
    """A row of a table kept only where it differs from its parent's: the tag's, else its
    nearest parent's (de-CH, then de)."""
    while True:
        if tag in table:
            return table[tag]
        if "-" not in tag:
            return None
        tag = tag.rsplit("-", 1)[0]
