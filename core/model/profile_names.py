"""The names of the shipped runtime profiles, without their rules.

Every command's ``--runtime`` help lists them, and most commands never open a workspace
(``flowctx eval``, ``schema``): the profiles themselves (``profiles``, four frozen dataclasses
built at import) come with the first workspace opened. ``profiles`` checks at import that its
profiles carry exactly these names.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

#: the shipped profiles, in the order they are listed
NAMES: Final = ("mozaiks-0.2.0", "mozaiks-2026-01", "spec")
#: names that stand for a profile: ``mozaiks`` is always the newest release
ALIASES: Final[Mapping[str, str]] = MappingProxyType({"mozaiks": "mozaiks-0.2.0"})
DEFAULT_PROFILE: Final = "mozaiks-0.2.0"


def known_names() -> str:
    """``mozaiks-0.2.0 (alias mozaiks), mozaiks-2026-01, spec``."""
    aliases: dict[str, list[str]] = {}
    for alias, target in ALIASES.items():
        aliases.setdefault(target, []).append(alias)
    return ", ".join(f"{n} (alias {', '.join(aliases[n])})" if n in aliases else n for n in NAMES)


class UnknownRuntime(ValueError):
    """A profile name that is not shipped."""
