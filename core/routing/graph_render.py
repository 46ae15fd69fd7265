"""Routing graphs as Mermaid, Graphviz DOT and text.

Mermaid is written to render as it is inside a Markdown ```` ```mermaid ```` block on the
common code hosts: node ids are ASCII words made from the names (never a Mermaid keyword:
each has a prefix), every label is quoted, and the characters Mermaid reads as syntax inside
a label (quotes, ``#``, ``;``, ``|``, brackets, ``<``/``>``, ``&``, backticks...) are written
as its entity codes (``#35;``). The winning edge from each node is thick (``==>``), starred and
coloured with ``linkStyle``; edges whose condition does not hold under the scenario are dotted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from flowctx_core.base.oneline import one_line
from flowctx_core.routing.graph import GraphEdge, RoutingGraph, layer_order
from flowctx_core.routing.graph_draw import STAR, draw, plain

FORMATS = ("mermaid", "dot", "text")
WIN_COLOUR = "#2b8a3e"
_PREFIX = {"flow": "step", "transition_graph": "tg", "handoffs": "ho"}
# what may stay as it is in a quoted Mermaid label; any other ASCII character is escaped
_MERMAID_SAFE = re.compile(r"[A-Za-z0-9 _.,:'=!?+*/()$@~^-]")
_HOLDS = ("true", "always")


def mermaid_text(text: str) -> str:
    """``text`` safe inside a quoted Mermaid label (entity codes for what Mermaid parses)."""
    out = []
    for ch in text:
        if ord(ch) < 128 and not _MERMAID_SAFE.fullmatch(ch):
            out.append(f"#{ord(ch)};" if ch not in "\n\r\t" else " ")
        else:
            out.append(ch)
    return "".join(out)


def node_ids(graph: RoutingGraph, prefix: str) -> dict[str, str]:
    """A distinct ``prefix_Name`` id per node, from the name's ASCII letters and digits."""
    ids: dict[str, str] = {}
    used: set[str] = set()
    for node in graph.nodes:
        base = f"{prefix}_" + (re.sub(r"[^A-Za-z0-9_]", "_", node.name) or "node")
        candidate, n = base, 1
        while candidate in used:
            n += 1
            candidate = f"{base}_{n}"
        used.add(candidate)
        ids[node.name] = candidate
    return ids


def edge_caption(edge: GraphEdge) -> str:
    """``★ 2. after_turn`` for the winner, ``1. path p10: cond [false]`` for the others."""
    head = f"{STAR} {edge.order}." if edge.winner else f"{edge.order}."
    tail = "" if edge.winner else f" [{edge.outcome}]"
    return f"{head} {edge.label}{tail}"


_SHAPES = {
    "step": ('["', '"]'),
    "agent": ('("', '")'),
    "user": ('[/"', '"/]'),
    "end": ('(["', '"])'),
    "missing": ('{{"', '"}}'),
    "other": ('("', '")'),
}


def to_mermaid(graphs: Sequence[RoutingGraph], header: Sequence[str] = ()) -> str:
    """One flowchart; several routing files become one subgraph each."""
    lines = ["flowchart TD"]
    lines += [f"  %% {one_line(line)}" for line in header]
    nested = len(graphs) > 1
    edge_lines: list[str] = []
    winners: list[int] = []
    classes: dict[str, list[str]] = {}
    for n, graph in enumerate(graphs):
        prefix = _PREFIX[graph.kind] + (str(n) if nested else "")
        ids = node_ids(graph, prefix)
        indent = "    " if nested else "  "
        if graph.unread:
            lines.append(f"  %% {one_line(graph.file)}: NOT READ: {one_line(graph.unread)}")
        if nested:
            title = graph.file + (" (NOT READ)" if graph.unread else "")
            lines.append(f'  subgraph {prefix}_file["{mermaid_text(title)}"]')
        for name in layer_order(graph):
            node = graph.node(name)
            assert node is not None
            opening, closing = _SHAPES[node.kind]
            text = mermaid_text(name)
            if node.detail:
                text += "<br/>" + mermaid_text(node.detail)
            if node.outcome:
                text += "<br/>" + mermaid_text(node.outcome)
            lines.append(f"{indent}{ids[name]}{opening}{text}{closing}")
            if node.kind in ("missing", "end", "user"):
                classes.setdefault(node.kind, []).append(ids[name])
        if nested:
            lines.append("  end")
        for edge in graph.edges:
            if edge.winner:
                arrow = "==>"
                winners.append(len(edge_lines))
            elif edge.outcome in _HOLDS:
                arrow = "-->"
            else:
                arrow = "-.->"
            caption = mermaid_text(edge_caption(edge))
            edge_lines.append(f'  {ids[edge.source]} {arrow}|"{caption}"| {ids[edge.target]}')
    lines += edge_lines
    if winners:
        which = ",".join(str(i) for i in winners)
        lines.append(f"  linkStyle {which} stroke:{WIN_COLOUR},stroke-width:3px")
    styles = {
        "missing": "fill:#fde2e1,stroke:#c92a2a",
        "end": "fill:#e9ecef,stroke:#495057",
        "user": "fill:#e7f5ff,stroke:#1971c2",
    }
    for kind, members in classes.items():
        # class names get the prefix too: ``end`` is a Mermaid keyword
        lines.append(f"  classDef fx_{kind} {styles[kind]}")
        lines.append(f"  class {','.join(members)} fx_{kind}")
    return "\n".join(lines)


def dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


_DOT_SHAPES = {
    "step": "box",
    "agent": "box",
    "user": "parallelogram",
    "end": "oval",
    "missing": "hexagon",
    "other": "box",
}


def to_dot(graphs: Sequence[RoutingGraph], header: Sequence[str] = ()) -> str:
    name = graphs[0].workflow if graphs else "routes"
    lines = [f'digraph "{dot_text(name)}" {{']
    lines += [f"  // {one_line(line)}" for line in header]
    lines += [
        "  rankdir=TB;",
        '  node [shape=box, style="rounded", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for n, graph in enumerate(graphs):
        ids = node_ids(graph, f"{_PREFIX[graph.kind]}{n}")
        lines.append(f'  subgraph "cluster_{n}" {{')
        lines.append(f'    label="{dot_text(f"{graph.file} ({graph.title})")}";')
        for node_name in layer_order(graph):
            node = graph.node(node_name)
            assert node is not None
            label = "\n".join(p for p in (node_name, node.detail, node.outcome) if p)
            attrs = f'label="{dot_text(label)}", shape={_DOT_SHAPES[node.kind]}'
            if node.kind == "missing":
                attrs += ', color="#c92a2a"'
            lines.append(f'    "{ids[node_name]}" [{attrs}];')
        lines.append("  }")
        for edge in graph.edges:
            attrs = f'label="{dot_text(edge_caption(edge))}"'
            if edge.winner:
                attrs += f', penwidth=3, color="{WIN_COLOUR}", fontcolor="{WIN_COLOUR}"'
            elif edge.outcome not in _HOLDS:
                attrs += ", style=dashed"
            lines.append(f'  "{ids[edge.source]}" -> "{ids[edge.target]}" [{attrs}];')
    lines.append("}")
    return "\n".join(lines)


def to_text(
    graphs: Sequence[RoutingGraph],
    header: Sequence[str] = (),
    width: int = 100,
    paint: Callable[[str, str], str] | None = None,
) -> str:
    """The drawings, one per graph under its file's name; ``paint(text, tag)`` colours each
    part (the CLI's ANSI colours on a terminal), plain text without it."""
    out = [one_line(line) for line in header]
    for graph in graphs:
        rows = draw(graph, width)
        picture = (
            plain(rows)
            if paint is None
            else "\n".join("".join(paint(text, tag) for text, tag in row) for row in rows)
        )
        out += ["", one_line(f"{graph.file} ({graph.title})"), picture]
    return "\n".join(out).lstrip("\n")


def to_json(graphs: Sequence[RoutingGraph], header: Sequence[str] = ()) -> dict[str, object]:
    """The graphs as one JSON document (``flowctx graph --format json``): every node and edge
    with the outcome each edge's condition has under the scenario, and which edge wins. The
    conditions are the masked ones the drawings show."""

    def edge(e: GraphEdge) -> dict[str, object]:
        return {
            "source": e.source,
            "target": e.target,
            "kind": e.kind,
            "condition": e.condition,
            "order": e.order,
            "priority": e.priority,
            "outcome": e.outcome,
            "winner": e.winner,
            "location": {"file": e.loc.file, "line": e.loc.line, "column": e.loc.column},
            "note": e.note or None,
            "tested": e.tested,
        }

    return {
        "header": list(header),
        "graphs": [
            {
                "workflow": g.workflow,
                "kind": g.kind,
                "file": g.file,
                "start": g.start,
                "unread": g.unread or None,
                "nodes": [
                    {
                        "name": n.name,
                        "kind": n.kind,
                        "detail": n.detail or None,
                        "outcome": n.outcome or None,
                    }
                    for n in g.nodes
                ],
                "edges": [edge(e) for e in g.edges],
            }
            for g in graphs
        ],
    }
