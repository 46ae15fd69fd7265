"""Recognising and masking secrets.

A key looks secret when it contains password, secret, token, credential, api_key, apikey or
private_key, or ends in ``key``. URI passwords (``scheme://user:pass@host``, up to the last ``@``,
and secret query and fragment values: ``?password=``, ``&refresh_token=``, ``&sig=``,
``X-Amz-Signature=``, ``#access_token=``) are masked wherever they appear in a string. Masking
happens at output time; the core keeps real values so that conditions evaluate exactly as the
runtime would.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from flowctx_core.base.lazyre import pattern

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
# long string with no URI in it costs one pass, not one pass per starting position. This finds
# where a password starts; where it ends is decided by ``_password_end``.
_URI_HEAD = r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+:/{1,2}[^:/?#@\s]*+:"
#: a ``name=value`` pair in a query string or a fragment (``?``, ``&``, ``;`` and ``#`` start
#: one: OAuth's implicit flow returns ``#access_token=...``); whether its value is secret is
#: decided by its name, in ``_secret_param``
_QUERY_PARAM = r"[?&;#](?P<name>[A-Za-z0-9_.\-]{1,64}+)=(?P<pw>[^&#\s\"']++)"
#: query parameters that carry a secret although no secret-looking word is in their name:
#: short password spellings, and the signatures of signed URLs (Azure SAS ``sig``, ``signature``)
_SECRET_PARAMS = frozenset({"pwd", "pass", "sig", "signature", "code", "auth", "jwt", "session"})
#: A password is never searched for further than this; masking stays linear however many URIs
#: a long text holds. A longer password is masked to the end of its token (see
#: ``_password_end``), never shown.
_PASSWORD_WINDOW = 256
_TOKEN_END = re.compile(r"[\s\"']")


def _secret_param(name: str) -> bool:
    """Is the value of query parameter ``name`` a secret? Secret-looking names
    (``refresh_token``, ``id_token``, ``key``, ``client_secret``), the short spellings above, and
    every ``X-Amz-*`` parameter of an S3 presigned URL (the credential and signature among them)."""
    low = name.lower()
    return _secret_name(name) or low in _SECRET_PARAMS or low.startswith("x-amz-")


def _password_end(text: str, start: int) -> int:
    """Where the password that starts at ``start`` (after ``scheme://user:``) ends, or -1.

    Passwords hold ``/``, ``@``, quotes and spaces more often than specs allow
    (``admin:PLANT/SECRET@h`` was shown whole), so the password runs to the LAST ``@`` before
    the line or the next URI ends; a quote ends it only when an ``@`` stands before the quote
    (a URI inside a JSON or YAML string), since a password may hold a quote itself. Masking a
    little too much hides a host name; too little shows a secret. ``host:8080/...`` is a port,
    not a password. A password longer than the search window is masked to the end of its token.
    """
    window = text[start : start + _PASSWORD_WINDOW]
    first = re.match(r"[^/\s@]*", window)
    if (
        first is not None
        and first.group().isdigit()
        and window[first.end() : first.end() + 1] in "/ "
    ):
        return -1  # host:port followed by a path or text
    for stop in ("\n", "://"):
        cut = window.find(stop)
        if cut >= 0:
            window = window[:cut]
    for quote in ('"', "'"):
        cut = window.find(quote)
        if cut >= 0 and "@" in window[:cut]:
            window = window[:cut]
    at = window.rfind("@")
    if at > 0:
        return start + at
    if len(window) == _PASSWORD_WINDOW:
        # no ``@`` in reach: a password longer than the window (or a host with no password,
        # which then loses its name): mask the rest of the token rather than show 256 of it
        found = _TOKEN_END.search(text, start)
        end = len(text) if found is None else found.start()
        at = text.rfind("@", start, end)
        return at if at > start else end
    return -1


def _secret_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every URI password and secret query value in ``text``, in order."""
    spans: list[tuple[int, int]] = []
    if ":/" in text:
        pos = 0
        while (m := pattern(_URI_HEAD).search(text, pos)) is not None:
            end = _password_end(text, m.end())
            if end < 0:
                pos = m.end()
                continue
            spans.append((m.end(), end))
            pos = end
    if "=" in text:
        for q in pattern(_QUERY_PARAM).finditer(text):
            if not _secret_param(q.group("name")):
                continue
            if not any(a <= q.start("pw") < b for a, b in spans):
                spans.append((q.start("pw"), q.end("pw")))
    return sorted(spans)


def is_secret_key(name: object) -> bool:
    return isinstance(name, str) and _secret_name(name)


@lru_cache(maxsize=1 << 16)
def _secret_name(name: str) -> bool:
    # memoised: resolving asks it of every variable and env var, on every reload
    low = name.lower()
    return any(part in low for part in _SECRET_PARTS) or low.endswith("key")


def mask_text(text: str) -> str:
    """Mask URI passwords (``scheme://user:***@host``, ``?password=***``) inside a string."""
    if ":/" not in text and "=" not in text:
        return text
    spans = _secret_spans(text)
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for start, end in spans:
        out.append(text[pos:start] + MASK)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def restore_uri_passwords(edited: str, real: str) -> str:
    """``edited`` (a masked value the user edited) with ``real``'s URI passwords back in place
    of their masks, so editing a masked URI does not replace its password with ``***``."""
    if MASK not in edited or (":/" not in real and "=" not in real):
        return edited
    for start, end in _secret_spans(real):
        # what stands before the password (up to 64 characters of it) finds its mask
        head = real[max(0, start - 64) : start]
        head = head[max(head.rfind(" "), head.rfind("\n")) + 1 :]
        after = real[end : end + 1]
        edited = edited.replace(head + MASK + after, head + real[start:end] + after)
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
        for start, end in _secret_spans(value):
            found.add(value[start:end])
    elif isinstance(value, Mapping):
        for k, v in value.items():
            found |= secret_strings(v, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= secret_strings(v)
    return found


#: a secret shorter than this is not searched for in free text: replacing every ``1`` or
#: ``yes`` in a message would garble it and hide nothing a reader could not guess
_SCRUB_MIN = 4


def _spellings(secret: str) -> set[str]:
    """How a dependency may quote ``secret`` in its message: as is, or escaped by repr/JSON."""
    return {secret, repr(secret)[1:-1], json.dumps(secret)[1:-1]}


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` (a message from a dependency: the database, a template engine) with every
    known secret in it replaced by ``***``, then URI passwords masked.

    A driver quotes the value it choked on (``Unknown type name alias: tok-...``), and no key
    name travels with it any more, so the message is cleaned by value, longest secret first.
    """
    for secret in sorted(
        {s for raw in secrets if len(raw) >= _SCRUB_MIN for s in _spellings(raw)},
        key=len,
        reverse=True,
    ):
        text = text.replace(secret, MASK)
    return mask_text(text)


def masked_leaves(real: Any, shown: Any) -> set[str]:
    """The string forms of the leaves of ``real`` that ``shown`` (its masked twin) hides."""
    if isinstance(shown, str) and shown == MASK and real != MASK and real is not None:
        return {real if isinstance(real, str) else json.dumps(real, default=str)}
    if isinstance(real, Mapping) and isinstance(shown, Mapping):
        return {s for k, v in real.items() if k in shown for s in masked_leaves(v, shown[k])}
    if isinstance(real, (list, tuple)) and isinstance(shown, (list, tuple)):
        return {s for r, m in zip(real, shown, strict=False) for s in masked_leaves(r, m)}
    return set()


def shown_at_path(value: Any, path: str, secret_names: Iterable[str] = ()) -> str:
    """``repr`` of ``value``, read through the dotted ``path`` (``selected_by: a.b``), masked
    when the path starts at a secret variable or passes a secret-looking key: the value has
    no key of its own left to be recognised by."""
    parts = [p.strip() for p in path.split(".")]
    if (parts and parts[0] in set(secret_names)) or any(is_secret_key(p) for p in parts):
        return MASK
    return repr(mask_value(value))
