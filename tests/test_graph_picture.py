"""docs/how-it-works.md's picture of the graph is the compiled graph's own Mermaid, with the gates marked."""

from __future__ import annotations

from astra_memory.graph import graph
from astra_memory.graph.picture import (
    BEGIN,
    END,
    GATES,
    mermaid,
    readme_block,
    update_readme,
)
from tests.conftest import ROOT, run_cli


def test_the_docs_show_the_compiled_graph():
    readme = (ROOT / "docs" / "how-it-works.md").read_text(encoding="utf-8")
    assert BEGIN in readme and END in readme
    shown = readme[readme.index(BEGIN):readme.index(END) + len(END)]
    assert shown == readme_block(), "the docs' graph is stale: run `astra-memory graph --readme docs/how-it-works.md`"


def test_the_picture_has_every_node_and_marks_the_gates():
    text = mermaid()
    for node in graph.get_graph().nodes:
        assert f"\t{node}(" in text or f"\t{node}([" in text
    assert "__start__ --> prepare;" in text and "investigate -.-> approve;" in text
    assert "class approve human" in text
    marked = text.split("class ")[-2].split()[0].split(",")
    assert set(marked) == set(GATES) - {"approve"}


def test_the_command_rewrites_a_stale_block(tmp_path):
    target = tmp_path / "README.md"
    target.write_text(f"# x\n\n{BEGIN}\nold picture\n{END}\n\nrest\n", encoding="utf-8")
    assert update_readme(target) and not update_readme(target)
    assert readme_block() in target.read_text() and target.read_text().endswith("\n\nrest\n")
    result = run_cli("graph", "--readme", str(tmp_path / "none.md"))
    assert result.returncode == 2 and "none.md" in result.stderr
    printed = run_cli("graph", "--mermaid")
    assert printed.returncode == 0 and printed.stdout == mermaid()


def test_the_svg_picture_draws_every_node_and_edge_offline(tmp_path):
    """`graph --svg FILE` writes a picture a browser opens with no network: every node of the compiled
    graph as a box (gates and the human approval marked), every edge as a line, dotted when conditional,
    and nothing that links outside the file."""
    import xml.etree.ElementTree as ET

    target = tmp_path / "graph.svg"
    result = run_cli("graph", "--svg", str(target))
    assert result.returncode == 0, result.stderr
    assert str(target) in result.stderr
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.parse(target).getroot()
    drawn = graph.get_graph()
    boxes = {g.get("data-node"): g.get("class") for g in root.iterfind("s:g", ns)}
    assert set(boxes) == set(drawn.nodes)
    assert boxes["approve"] == "node human" and boxes["confirm"] == "node gate" and boxes["tools"] == "node node"
    lines = {(p.get("data-source"), p.get("data-target")): p for p in root.iterfind("s:polyline", ns)}
    assert set(lines) == {(e.source, e.target) for e in drawn.edges}
    for edge in drawn.edges:
        line = lines[(edge.source, edge.target)]
        assert (line.get("stroke-dasharray") is not None) == edge.conditional
        assert len(line.get("points").split()) >= 2
    text = target.read_text(encoding="utf-8")
    assert "<script" not in text and "href" not in text and "@import" not in text
    assert text.count("http") == 1  # the SVG namespace, which names the format and is never fetched
    bad = run_cli("graph", "--svg", str(tmp_path / "missing" / "graph.svg"))
    assert bad.returncode == 2 and "cannot write" in bad.stderr
