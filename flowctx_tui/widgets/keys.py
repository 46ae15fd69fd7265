"""Keys applied in the order they were typed, and keys kept while a view is still mounting.

Textual handles a printable key in the focused widget itself, but a key bound by that widget
(backspace, the arrows, tab completion ...) or by the app (``2``: the scratchpad) first
bubbles up through every ancestor's message queue and only then runs. Meanwhile the app has
already handed the next keys to the focused widget, so in a burst (a fast typist, a paste of
keys, tmux ``send-keys``) they overtook it: ``ab``, backspace, ``data.x`` gave ``abdata.``,
and ``2data`` typed ``data`` into the matrix (``d`` hid the detail pane) before the tab changed.

``KeysInOrderApp`` hands the focused widget one key at a time: the next key waits until the
previous one was taken (stopped) by a widget or reached the app, whose bindings then run at
once, in order. ``BoundKeysInOrder`` saves the round trip for the focused widget's own
bindings: it runs them when the key reaches the widget. Either way the binding that runs is
the one Textual would have chosen (focused widget first, keymap applied); only the moment
changes.

``KeyBuffer`` stands in for a view that is not mounted yet: it takes the focus at once and
keeps every key (and paste) until the view's input exists, which then gets them in order.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual import events
from textual.message import Message
from textual.widgets import Input, Static, TextArea

#: Seconds a key waits for the one before it; a key lost on its way (its widget removed
#: meanwhile) must not hold up typing for longer.
SETTLE_TIMEOUT = 1.0


class Key(events.Key):
    """A key on its way from the app to the focused widget (named Key: same handlers)."""

    def __init__(self, key: str, character: str | None) -> None:
        super().__init__(key, character)
        self.settled = asyncio.Event()
        self.reached_app = False
        self.waited_out = False  # the app stopped waiting: it arrives as Textual's keys do

    def stop(self, stop: bool = True) -> Key:
        super().stop(stop)
        if stop:
            self.settled.set()
        return self


class KeysInOrderApp:
    """Mixin for the App (before ``App`` in the bases): one key at a time, in typing order."""

    async def on_event(self, event: events.Event) -> None:
        if type(event) is not events.Key or event.is_forwarded:
            await super().on_event(event)  # type: ignore[misc]
            return
        key = Key(event.key, event.character)
        await super().on_event(key)  # type: ignore[misc]  # priority bindings, else forwarded
        if not key.is_forwarded:
            return
        try:
            await asyncio.wait_for(key.settled.wait(), SETTLE_TIMEOUT)
        except TimeoutError:
            key.waited_out = True
            return
        if key.reached_app:
            # what App._on_key does when the key arrives through the queue: bindings, now
            await super().on_event(key)  # type: ignore[misc]

    def post_message(self, message: Message) -> bool:
        if (
            isinstance(message, Key)
            and message.is_forwarded
            and not (message.reached_app or message.waited_out)
        ):
            # bubbled up from the screen: handled in on_event above, before the next key
            message.reached_app = True
            message.settled.set()
            return True
        return super().post_message(message)  # type: ignore[misc, no-any-return]


class BoundKeysInOrder:
    """Mixin for a focusable widget: run its own key bindings without the round trip."""

    async def _on_key(self, event: events.Key) -> None:
        widget: Any = self
        if widget.check_consume_key(event.key, event.character):
            return  # typed text: the widget's own key handler inserts it, in order already
        bindings = widget._bindings.copy()
        keymap = widget.app._keymap
        if keymap:
            bindings.apply_keymap(keymap)
        for binding in bindings.key_to_bindings.get(event.key, ()):
            if binding.priority:
                continue  # priority bindings ran in the app before the key got here
            if await widget.app.run_action(binding.action, widget):
                event.stop()
                event.prevent_default()
                restart = getattr(widget, "_restart_blink", None)
                if callable(restart):
                    restart()
                return


class OrderedInput(BoundKeysInOrder, Input):
    """An ``Input`` whose backspace, arrows and bound keys apply in typing order."""


class OrderedTextArea(BoundKeysInOrder, TextArea):
    """A ``TextArea`` whose arrows, deletes and bound keys apply in typing order."""


class KeyBuffer(Static, can_focus=True):
    """A loading placeholder that keeps what the user types until the real view is there."""

    def __init__(self, text: str, **kwargs: Any) -> None:
        super().__init__(text, **kwargs)
        self.kept: list[events.Key | events.Paste] = []

    async def _on_key(self, event: events.Key) -> None:
        # every key, bound or not: the view's input decides what it means once it exists
        event.stop()
        event.prevent_default()
        self.kept.append(events.Key(event.key, event.character))

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        self.kept.append(events.Paste(event.text))

    def hand_over(self, target: Any) -> int:
        """Give the kept keys to ``target`` (now focused), in order; how many there were."""
        kept, self.kept = self.kept, []
        for event in kept:
            target._forward_event(event)
        return len(kept)
