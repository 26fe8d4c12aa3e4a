"""The compiled graph as an SVG file a user can open in any browser, drawn offline.

Mermaid text (graph/picture.py) needs a renderer, and LangGraph's own PNG drawing asks a web
service (mermaid.ink) or a browser. Here the layout is grandalf's Sugiyama layering (the library
langchain-core's ``draw_ascii`` uses), and the drawing is a few SVG elements written by hand: a box
per node (gates amber, the human approval red, as in the Mermaid picture), a line per edge (dotted
when a router decides it), no script, no font file, no link outside the file.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from grandalf.graphs import Edge, Graph, Vertex
from grandalf.layouts import SugiyamaLayout
from grandalf.routing import route_with_lines

from astra_memory.graph import graph
from astra_memory.graph.picture import GATES, HUMAN

CHAR_W, BOX_H, PAD, MARGIN = 7.5, 30.0, 18.0, 24.0
FILL = {"gate": ("#fde68a", "#b45309"), "human": ("#fecaca", "#b91c1c"),
        "end": ("#e5e7eb", "#4b5563"), "node": ("#dbeafe", "#1d4ed8")}


class _Box:
    """What grandalf needs of a vertex: its size; it sets ``xy``, the centre."""

    def __init__(self, label: str) -> None:
        self.w, self.h = len(label) * CHAR_W + 2 * PAD, BOX_H
        self.xy = (0.0, 0.0)


class _Line:
    """What grandalf needs of an edge: somewhere to put the routed points."""

    def __init__(self) -> None:
        self.points: list[tuple[float, float]] = []

    def setpath(self, points: list[Any]) -> None:
        self.points = [(float(x), float(y)) for x, y in points]


def _label(node: str) -> str:
    return {"__start__": "START", "__end__": "END"}.get(node, node)


def _kind(node: str) -> str:
    if node in HUMAN:
        return "human"
    if node in GATES:
        return "gate"
    return "end" if node.startswith("__") else "node"


def layout() -> tuple[dict[str, tuple[float, float, float]], list[tuple[str, str, bool, list]]]:
    """Each node's centre and width, and each edge's routed points, from the compiled graph."""
    drawn = graph.get_graph()
    vertices = {name: Vertex(name) for name in drawn.nodes}
    edges = [Edge(vertices[e.source], vertices[e.target], data=e.conditional) for e in drawn.edges]
    whole = Graph(list(vertices.values()), edges)
    for name, vertex in vertices.items():
        vertex.view = _Box(_label(name))
    for edge in edges:
        edge.view = _Line()
    component = whole.C[0]
    sugiyama = SugiyamaLayout(component)
    sugiyama.init_all(roots=[vertices["__start__"]], optimize=True)
    sugiyama.xspace, sugiyama.yspace = 30, 36
    sugiyama.route_edge = route_with_lines
    sugiyama.draw()
    nodes = {name: (v.view.xy[0], v.view.xy[1], v.view.w) for name, v in vertices.items()}
    lines = [(e.v[0].data, e.v[1].data, bool(e.data), e.view.points) for e in edges]
    return nodes, lines


def svg() -> str:
    """The whole SVG document."""
    nodes, lines = layout()
    routed = [point for *_, points in lines for point in points]  # edges may run outside the boxes
    xs = [x - w / 2 for x, _, w in nodes.values()] + [x + w / 2 for x, _, w in nodes.values()]
    xs += [x for x, _ in routed]
    ys = [y for _, y, _ in nodes.values()] + [y for _, y in routed]
    left, top = min(xs) - MARGIN, min(ys) - BOX_H / 2 - MARGIN
    width, height = max(xs) - left + MARGIN, max(ys) + BOX_H / 2 + MARGIN - top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
           f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif" font-size="13">',
           "<title>astra-codebase-memory: the agent graph</title>",
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#374151"/></marker></defs>']
    for source, target, conditional, points in lines:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        dash = ' stroke-dasharray="5,4"' if conditional else ""
        out.append(f'<polyline class="edge" data-source="{escape(source)}" data-target="{escape(target)}" '
                   f'points="{path}" fill="none" stroke="#374151" stroke-width="1.3"{dash} marker-end="url(#arrow)"/>')
    for name, (x, y, w) in nodes.items():
        fill, stroke = FILL[_kind(name)]
        out.append(f'<g class="node {_kind(name)}" data-node="{escape(name)}">'
                   f'<rect x="{x - w / 2:.1f}" y="{y - BOX_H / 2:.1f}" width="{w:.1f}" height="{BOX_H:.0f}" rx="8" '
                   f'fill="{fill}" stroke="{stroke}" stroke-width="1.6"/>'
                   f'<text x="{x:.1f}" y="{y + 4.5:.1f}" text-anchor="middle">{escape(_label(name))}</text></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_svg(path: Path) -> Path:
    """Write the picture to ``path`` (a new or replaced file) and return it."""
    path = Path(path)
    path.write_text(svg(), encoding="utf-8")
    return path
