"""Recognising and masking secrets (REFERENCE.md section 8).

A key looks secret when it contains password, secret, token, credential, api_key, apikey or
private_key, or ends in ``key``. URI passwords (``scheme://user:pass@host``) are masked wherever
they appear in a string. Masking happens at output time; the core keeps real values so that
conditions evaluate exactly as the runtime would.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

MASK = "***"
#: why a value is masked, as the explain says it: ``*** (secret: key looks secret)``
KEY_REASON = "key looks secret"
URI_REASON = "URI password"

_SECRET_PARTS = (
    "password",
    "passwd",
    "secret",
    "token",
    "credential",
    "api_key",
    "apikey",
    "private_key",
)
# ``:/`` as well as ``://``: a URI that went through pathlib loses one slash but not its password.
# A scheme starts only after a non-scheme character and the quantifiers are possessive, so a
# long string with no URI in it costs one pass, not one pass per starting position.
_URI_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9+.\-])(?P<head>[A-Za-z][A-Za-z0-9+.\-]*+:/{1,2}[^:/?#@\s]*+:)"
    r"(?P<pw>[^@/\s]++)(?=@)"
)


def is_secret_key(name: object) -> bool:
    return isinstance(name, str) and _secret_name(name)


@lru_cache(maxsize=1 << 16)
def _secret_name(name: str) -> bool:
    # memoised: resolving asks it of every variable and env var, on every reload
    low = name.lower()
    return any(part in low for part in _SECRET_PARTS) or low.endswith("key")


def mask_text(text: str) -> str:
    """Mask URI passwords inside a string."""
    if ":/" not in text:
        return text
    return _URI_PASSWORD.sub(lambda m: m.group("head") + MASK, text)


def restore_uri_passwords(edited: str, real: str) -> str:
    """``edited`` (a masked value the user edited) with ``real``'s URI passwords back in place
    of their masks, so editing a masked URI does not replace its password with ``***``."""
    if MASK not in edited or "://" not in real:
        return edited
    for m in _URI_PASSWORD.finditer(real):
        head = m.group("head")
        edited = edited.replace(head + MASK + "@", head + m.group("pw") + "@")
    return edited


def mask_value(value: Any, key: object = None) -> Any:
    """A copy of ``value`` with secret-keyed entries and URI passwords masked."""
    if key is not None and is_secret_key(key) and value is not None:
        return MASK
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, Mapping):
        return {k: mask_value(v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_value(v) for v in value]
    return value


def mask_all(value: Any) -> Any:
    """Mask every leaf (used for ``context`` in the scratchpad: all of it may be secret)."""
    if isinstance(value, Mapping):
        return {k: mask_all(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_all(v) for v in value]
    return value if value is None or isinstance(value, bool) else MASK


def secret_strings(value: Any, key: object = None) -> set[str]:
    """The string forms of every secret in ``value`` (for leak audits and log scrubbing)."""
    found: set[str] = set()
    if key is not None and is_secret_key(key) and value not in (None, ""):
        found.add(value if isinstance(value, str) else repr(value))
    if isinstance(value, str):
        for m in _URI_PASSWORD.finditer(value):
            found.add(m.group("pw"))
    elif isinstance(value, Mapping):
        for k, v in value.items():
            found |= secret_strings(v, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= secret_strings(v)
    return found
