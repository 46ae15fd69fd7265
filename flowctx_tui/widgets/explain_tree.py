"""An ``ExplainNode`` shown as a Textual ``Tree``: each sub-expression with its value.

The tree renders what the evaluator recorded (``ExplainNode.display`` is the verdict text, in
the dialect's spelling); masking is done by the core before the tree gets here (``evaluate``'s
``secret_roots``/``reveal_secrets``, ``Candidate.explain_tree(reveal=)``), so this widget never
decides what is secret. ``add_explain`` lets another tree (the routes view) graft an explain
under one of its own nodes.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from flowctx_tui.cli.terminal import escape_controls

#: Longest expression text shown on one tree line (the full text is the node above it).
TEXT_WIDTH = 80
#: wide enough for a masked operand and why: ``true (got *** (secret: key looks secret))``
VERDICT_WIDTH = 80


def _clip(text: str, width: int) -> str:
    text = escape_controls(" ".join(text.split()))
    return text if len(text) <= width else text[: width - 1] + "…"


def verdict(node: Any) -> Text:
    """What a sub-expression came to: true green, false red, errors red, skipped dim."""
    if node.error is not None:
        inner = any(c.error == node.error for c in node.children)
        message = "error (below)" if inner else f"error: {node.error}"
        return Text.assemble((_clip(message, VERDICT_WIDTH), "bold red"))
    if node.skipped:
        return Text.assemble(("skipped", "dim italic"))
    if node.value is True:
        style = "bold green"
    elif node.value is False:
        style = "bold red"
    else:
        style = "cyan"
    return Text.assemble((_clip(node.display or str(node.value), VERDICT_WIDTH), style))


def node_label(node: Any) -> Text:
    """``verdict  text``: the verdict first, so a narrow pane still shows it."""
    label = verdict(node)
    label.append("  ")
    text_style = "dim" if node.skipped else ("bold" if node.children else "")
    label.append(_clip(str(node.text), TEXT_WIDTH), style=text_style)
    return label


def add_explain(parent: TreeNode[Any], node: Any, *, expand: bool = True) -> TreeNode[Any]:
    """Graft ``node`` (an ExplainNode) and its children under ``parent``."""
    if node.children:
        branch = parent.add(node_label(node), data=node, expand=expand)
        for child in node.children:
            add_explain(branch, child, expand=expand)
        return branch
    return parent.add_leaf(node_label(node), data=node)


class FitTree(Tree[Any]):
    """A tree whose lines end within its width: a label too long for the room left after its
    guides ends with ``…`` (what the line is, the verdict first, stays readable) instead of
    being cut at the edge mid-word. The label is rendered again when the width changes (Tree
    resets its line widths on a resize)."""

    def render_label(self, node: TreeNode[Any], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        depth = 0
        parent = node.parent
        while parent is not None:
            depth += 1
            parent = parent.parent
        if not self.show_root:
            depth -= 1
        room = self.scrollable_content_region.width - self.guide_depth * max(depth, 0)
        if room > 8 and text.cell_len > room:
            text.truncate(room - 1)
            text.append("…", style=style)
        return text


class ExplainTree(FitTree):
    """The explain of one evaluation, fully expanded."""

    DEFAULT_CSS = """
    ExplainTree {
        height: 1fr;
        padding: 0;
        background: $surface;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("explain", id=id, classes=classes)
        self.show_root = False
        self.guide_depth = 2

    def show(self, node: Any | None, empty: str = "") -> None:
        """Replace the tree with ``node`` (an ExplainNode); ``empty`` when there is none."""
        self.clear()
        if node is None:
            if empty:
                self.root.add_leaf(Text.assemble((empty, "dim")))
            return
        add_explain(self.root, node)

    def labels(self) -> list[str]:
        """Every line shown, depth-first (what a user reads, for tests and copy)."""
        out: list[str] = []

        def walk(n: TreeNode[Any], depth: int) -> None:
            for child in n.children:
                label = child.label
                out.append("  " * depth + (label.plain if isinstance(label, Text) else str(label)))
                walk(child, depth + 1)

        walk(self.root, 0)
        return out
