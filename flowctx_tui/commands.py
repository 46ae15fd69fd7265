"""The command palette (ctrl+p): every action of the app, plus one command per workflow."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider


@dataclass(frozen=True)
class PaletteCommand:
    title: str
    help: str
    run: Callable[[], Any]


class FlowctxCommands(Provider):
    """Lists what ``app.palette_commands()`` returns (the app builds it from its bindings)."""

    def _commands(self) -> list[PaletteCommand]:
        app: Any = self.app
        return list(app.palette_commands()) if hasattr(app, "palette_commands") else []

    async def discover(self) -> Hits:
        for cmd in self._commands():
            yield DiscoveryHit(cmd.title, cmd.run, help=cmd.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for cmd in self._commands():
            score = matcher.match(cmd.title)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(cmd.title), partial(cmd.run), cmd.title, cmd.help
                )
