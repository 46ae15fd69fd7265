"""A routing graph drawn with box characters: one box per node, one line per edge.

Nodes are stacked in reading order (``layer_order``). Each box lists the node's edges in
evaluation order, one row each (``★ 1. → Target  kind: condition   outcome``); from that row a
line leaves the box's right side, runs down or up a lane of its own and enters the target's
top border with an arrow. Lanes are packed so that short edges sit nearest the boxes. The
winning edge of each node is drawn in heavy lines (``━ ┃``) and starred, so the route a run
takes under the scenario can be followed without colour.

The result is plain data (rows of tagged text segments); the CLI prints the text and the app
styles the tags. Nothing here knows about a terminal.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import groupby

from flowctx_core.routing.graph import FAILS, GraphEdge, RoutingGraph, layer_order

#: a row of the picture: (text, tag) segments; tags say what the text is, for styling
Segment = tuple[str, str]
Row = list[Segment]
MIN_BOX = 24
MAX_BOX = 72
#: lanes drawn beside the boxes at most. Every lane is two columns of every row, so a step with
#: thousands of paths made a picture of thousands of columns by thousands of rows (4.8 GB and
#: minutes for 3,000 paths); past this many an edge is still listed in its box, by target name,
#: with no line, and the picture says how many lines it left out.
MAX_LANES = 32
STAR = "★"

# direction weights of one cell: up, down, left, right; 0 none, 1 light, 2 heavy
Dirs = tuple[int, int, int, int]


def _box_chars() -> dict[Dirs, str]:
    """Every light/heavy box character, keyed by the weight of its four arms (from the
    characters' Unicode names, so no table is typed by hand)."""
    arms: dict[str, tuple[int, ...]] = {"UP": (0,), "DOWN": (1,), "LEFT": (2,), "RIGHT": (3,)}
    arms |= {"VERTICAL": (0, 1), "HORIZONTAL": (2, 3)}
    out: dict[Dirs, str] = {}
    for code in range(0x2500, 0x2580):
        name = unicodedata.name(chr(code), "")
        words = name.removeprefix("BOX DRAWINGS ").split()
        if {"DOUBLE", "ARC", "DIAGONAL", "DASH", "TRIPLE", "QUADRUPLE", "SINGLE"} & set(words):
            continue
        dirs = [0, 0, 0, 0]
        weight = 0
        for part in " ".join(words).split(" AND "):
            tokens = part.split()
            if "LIGHT" in tokens:
                weight = 1
            elif "HEAVY" in tokens:
                weight = 2
            for token in tokens:
                for arm in arms.get(token, ()):
                    dirs[arm] = weight
        if weight and any(dirs):
            out.setdefault((dirs[0], dirs[1], dirs[2], dirs[3]), chr(code))
    return out


BOX = _box_chars()


@dataclass
class _Canvas:
    width: int
    height: int
    chars: list[list[str]] = field(init=False)
    tags: list[list[str]] = field(init=False)
    #: per cell: the weight of each arm drawn there (up, down, left, right)
    arms: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    #: the cells where a line turns (its corners): every other cell with arms on both axes
    #: is two lines crossing
    corners: set[tuple[int, int]] = field(default_factory=set)
    #: per lane column: the vertical lines drawn in it (top, bottom, weight), laid into
    #: ``arms`` once by ``rows``. Edges into one box share a lane and overlap, so drawing each
    #: line cell by cell cost edges x rows (thousands of agents handing off to one).
    vlines: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    #: cells of horizontal and of vertical runs drawn dashed (edges no test case takes); kept
    #: apart so a solid line crossing a dashed one stays solid
    dashed_h: set[tuple[int, int]] = field(default_factory=set)
    dashed_v: set[tuple[int, int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.chars = [[" "] * self.width for _ in range(self.height)]
        self.tags = [[""] * self.width for _ in range(self.height)]

    def put(self, row: int, col: int, text: str, tag: str) -> None:
        end = col + len(text)
        if text.isprintable() and col >= 0 and end <= self.width:
            # the common case at once: printable (so no control character) and on the canvas
            self.chars[row][col:end] = text
            self.tags[row][col:end] = [tag] * len(text)
            return
        for i, ch in enumerate(text):
            if 0 <= col + i < self.width:
                # a control character in a name (an escape sequence, a newline) would break
                # the picture, or the terminal it is printed to
                self.chars[row][col + i] = "�" if unicodedata.category(ch)[0] == "C" else ch
                self.tags[row][col + i] = tag

    def _arm(self, cell: tuple[int, int], arm: int, weight: int) -> None:
        arms = self.arms.get(cell)
        if arms is None:
            arms = self.arms[cell] = [0, 0, 0, 0]
        if arms[arm] < weight:
            arms[arm] = weight

    def hline(self, row: int, start: int, end: int, heavy: bool) -> None:
        """Arms from ``start`` to ``end`` (inclusive, start < end) along ``row``."""
        weight = 2 if heavy else 1
        for col in range(start, end + 1):
            if col > start:
                self._arm((row, col), 2, weight)
            if col < end:
                self._arm((row, col), 3, weight)

    def vline(self, col: int, top: int, bottom: int, heavy: bool) -> None:
        """Arms from ``top`` to ``bottom`` (inclusive) down ``col``: up arms below ``top``,
        down arms above ``bottom``."""
        self.vlines.setdefault(col, []).append((top, bottom, 2 if heavy else 1))

    def _lay_vlines(self) -> None:
        """Each lane column's lines in one sweep: per row, how many lines (and heavy lines)
        reach up and down, from the running sum of where each line starts and stops."""
        for col, lines in self.vlines.items():
            first = min(top for top, _, _ in lines)
            last = max(bottom for _, bottom, _ in lines)
            size = last - first + 2
            # index 0: up arms (rows top+1..bottom), 1: down arms (rows top..bottom-1); per
            # arm, every line and the heavy ones
            deltas = [[0] * size for _ in range(4)]
            for top, bottom, weight in lines:
                if bottom <= top:
                    continue
                for arm, start, stop in ((0, top + 1, bottom), (1, top, bottom - 1)):
                    deltas[2 * arm][start - first] += 1
                    deltas[2 * arm][stop - first + 1] -= 1
                    if weight == 2:
                        deltas[2 * arm + 1][start - first] += 1
                        deltas[2 * arm + 1][stop - first + 1] -= 1
            counts = [0, 0, 0, 0]
            for offset in range(size - 1):
                for k in range(4):
                    counts[k] += deltas[k][offset]
                up = 2 if counts[1] else 1 if counts[0] else 0
                down = 2 if counts[3] else 1 if counts[2] else 0
                if up:
                    self._arm((first + offset, col), 0, up)
                if down:
                    self._arm((first + offset, col), 1, down)
        self.vlines.clear()

    def rows(self) -> list[Row]:
        self._lay_vlines()
        for (row, col), dirs in self.arms.items():
            if self.chars[row][col] != " ":
                continue
            up, down, left, right = dirs
            if (up or down) and (left or right) and (row, col) not in self.corners:
                # lines that only cross: the lane runs on and the other line jumps it, so
                # a crossing never reads as a join
                left = right = 0
            char = BOX.get((up, down, left, right), "+")
            straight = self.dashed_h if char in "─━" else self.dashed_v
            if char in _DASHED and (row, col) in straight:
                char = _DASHED[char]
            self.chars[row][col] = char
            self.tags[row][col] = "winner" if 2 in (up, down, left, right) else "edge"
        out: list[Row] = []
        for chars, tags in zip(self.chars, self.tags, strict=True):
            line = "".join(chars).rstrip()
            segments: Row = []
            start = 0
            for tag, run in groupby(tags[: len(line)]):
                n = len(list(run))
                segments.append((line[start : start + n], tag))
                start += n
            out.append(segments)
        return out


#: straight pieces of a line no test takes, drawn dashed (corners and joins stay solid)
_DASHED = {"─": "┄", "│": "┆", "━": "┅", "┃": "┇"}


def edge_text(edge: GraphEdge) -> str:
    # before the label, which a narrow box cuts
    untested = " (no test)" if edge.tested is False else ""
    return f"{edge.order}. → {edge.target}{untested}  {edge.label}"


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


@dataclass(frozen=True)
class _Box:
    name: str
    top: int  # row of the top border (where edges come in)
    edges: tuple[GraphEdge, ...]
    why: str  # a row saying why no route is picked, or ""

    @property
    def height(self) -> int:
        return 2 + len(self.edges) + (1 if self.why else 0)


def draw(graph: RoutingGraph, width: int = 100) -> list[Row]:
    """The picture of ``graph`` in at most about ``width`` columns (boxes shrink, lines don't)."""
    boxes: list[_Box] = []
    row = 0
    for name in layer_order(graph):
        node = graph.node(name)
        assert node is not None
        box = _Box(name, row, graph.edges_from(name), node.outcome)
        boxes.append(box)
        row += box.height
    if not boxes:
        return [[("(no steps or agents)", "detail")]]
    top_of = {b.name: b.top for b in boxes}
    # each edge: the row it leaves from and the top border row it enters
    spans: list[tuple[GraphEdge, int, int]] = []
    for box in boxes:
        for i, edge in enumerate(box.edges):
            spans.append((edge, box.top + 1 + i, top_of[edge.target]))
    lanes = _lanes(spans)
    count = max(lanes.values(), default=-1) + 1
    unlined = len(spans) - len(lanes)
    natural = max(
        [len(_top_text(graph, b.name)) + 4 for b in boxes]
        + [len(edge_text(e)) + 12 for b in boxes for e in b.edges]
        + [len(b.why) + 4 for b in boxes]
    )
    inner = max(MIN_BOX, min(natural, MAX_BOX, width - 4 - 2 * count))
    right = inner + 1  # column of the boxes' right border
    canvas = _Canvas(right + 3 + 2 * count, row)
    for box in boxes:
        _draw_box(canvas, graph, box, inner)
    for edge, leave, enter in spans:
        if id(edge) not in lanes:
            continue
        lane = right + 3 + 2 * lanes[id(edge)] - 1
        heavy = edge.winner
        canvas.put(leave, right, "┝" if heavy else "├", "winner" if heavy else "border")
        if edge.tested is False:
            canvas.dashed_h.update((leave, c) for c in range(right, lane + 1))
            canvas.dashed_v.update((r, lane) for r in range(min(leave, enter), max(leave, enter)))
            canvas.dashed_h.update((enter, c) for c in range(right + 1, lane + 1))
        canvas.hline(leave, right, lane, heavy)
        canvas.vline(lane, min(leave, enter), max(leave, enter), heavy)
        canvas.hline(enter, right + 1, lane, heavy)
        canvas.corners.update({(leave, lane), (enter, lane)})
        canvas.put(enter, right + 1, "◀", "winner" if heavy else "arrow")
    rows = canvas.rows()
    if unlined:
        note = f"({unlined} edges listed in their boxes are drawn without a line: more than "
        rows.append([(note + f"{MAX_LANES} lanes would be needed)", "detail")])
    return rows


def _lanes(spans: list[tuple[GraphEdge, int, int]]) -> dict[int, int]:
    """A lane per edge: shortest first, each in the lowest lane whose edges it does not
    overlap. Edges into the same box may share a lane: their lines merge on the way in. An
    edge that fits in none of ``MAX_LANES`` lanes gets none (it is left out of the result).

    A lane is kept as its runs of rows: the edges of a lane that overlap all enter the same
    box, so their union is one run with one entry, and runs do not overlap. An edge fits a
    lane when every run it overlaps enters where it does, found by bisection rather than by
    comparing with every edge of the lane (which made one box with thousands of incoming
    edges quadratic)."""
    taken: list[_Lane] = []
    out: dict[int, int] = {}
    for edge, leave, enter in sorted(spans, key=lambda s: (abs(s[1] - s[2]), s[1])):
        low, high = min(leave, enter), max(leave, enter)
        for n, lane in enumerate(taken):
            if lane.fits(low, high, enter):
                lane.occupy(low, high, enter)
                out[id(edge)] = n
                break
        else:
            if len(taken) < MAX_LANES:
                taken.append(_Lane([low], [high], [enter]))
                out[id(edge)] = len(taken) - 1
    return out


@dataclass
class _Lane:
    """The runs of one lane, sorted and disjoint: first row, last row, the row they enter."""

    lows: list[int]
    highs: list[int]
    entries: list[int]

    def fits(self, low: int, high: int, enter: int) -> bool:
        # runs are disjoint and sorted, so their last rows are sorted too: the first run that
        # can overlap is the first that ends at or after ``low``
        i = bisect_left(self.highs, low)
        while i < len(self.lows) and self.lows[i] <= high:
            if self.entries[i] != enter:
                return False
            i += 1
        return True

    def occupy(self, low: int, high: int, enter: int) -> None:
        """Merge [low, high] with the runs it overlaps (all entering ``enter``)."""
        i = bisect_left(self.highs, low)
        j = i
        while j < len(self.lows) and self.lows[j] <= high:
            j += 1
        if j > i:
            low, high = min(low, self.lows[i]), max(high, self.highs[j - 1])
        self.lows[i:j] = [low]
        self.highs[i:j] = [high]
        self.entries[i:j] = [enter]


def _top_text(graph: RoutingGraph, name: str) -> str:
    node = graph.node(name)
    detail = node.detail if node is not None else ""
    return f" {name} · {detail} " if detail else f" {name} "


_OUTCOME_WORDS = {"not evaluable": "model decides"}


def _draw_box(canvas: _Canvas, graph: RoutingGraph, box: _Box, inner: int) -> None:
    node = graph.node(box.name)
    kind = node.kind if node is not None else "step"
    top, right = box.top, inner + 1
    canvas.put(top, 0, "┌" + "─" * inner + "┐", "border")
    name_tag = {"missing": "missing", "end": "end", "user": "user"}.get(kind, "name")
    title = _fit(f" {box.name} ", inner - 1)
    canvas.put(top, 1, "─", "border")
    canvas.put(top, 2, title, name_tag)
    detail = node.detail if node is not None else ""
    if detail and len(title) + len(detail) + 4 <= inner:
        canvas.put(top, 2 + len(title), "· " + detail + " ", "detail")
    for i, edge in enumerate(box.edges):
        r = top + 1 + i
        canvas.put(r, 0, "│", "border")
        canvas.put(r, right, "│", "border")
        outcome = _OUTCOME_WORDS.get(edge.outcome, edge.outcome)
        room = inner - len(outcome) - 4
        text = _fit(edge_text(edge), room)
        mark = STAR if edge.winner else " "
        canvas.put(r, 1, mark, "winner" if edge.winner else "")
        canvas.put(r, 3, text, "winner" if edge.winner else "text")
        canvas.put(r, right - 1 - len(outcome), outcome, f"outcome:{edge.outcome}")
    if box.why:
        r = top + 1 + len(box.edges)
        canvas.put(r, 0, "│", "border")
        canvas.put(r, right, "│", "border")
        tag = "fails" if box.why.startswith(FAILS) else "ends"
        # padded to the border: one run of text up to it (some SVG renderers squeeze a run
        # of spaces that starts a text element)
        canvas.put(r, 1, _fit(box.why, inner - 1).ljust(inner - 1), tag)
    bottom = top + box.height - 1
    canvas.put(bottom, 0, "└" + "─" * inner + "┘", "border")


def plain(rows: list[Row]) -> str:
    return "\n".join("".join(text for text, _tag in row) for row in rows)
