from common import R, Q, hdr, colorize
F = "eq-defined-hash-removed"

R("r-ewh-1", "colorsets", F, hdr("/home/ci/colorsets", 11) + """
tests/test_palette.py ...F.......                                        [100%]

=================================== FAILURES ===================================
_________________________ test_palette_deduplicates ____________________________

    def test_palette_deduplicates():
>       p = Palette([Color(255, 0, 0), Color(255, 0, 0), Color(0, 0, 255)])

tests/test_palette.py:22: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <Palette>, colors = [Color(r=255, g=0, b=0), Color(r=255, g=0, b=0), Color(r=0, g=0, b=255)]

    def __init__(self, colors):
>       self._colors = set(colors)
E       TypeError: unhashable type: 'Color'

src/colorsets/palette.py:9: TypeError
=========================== short test summary info ============================
FAILED tests/test_palette.py::test_palette_deduplicates - TypeError: unhashable type: 'Color'
========================= 1 failed, 10 passed in 0.02s =========================
""", "TypeError", ["src/colorsets/color.py"],
"Color gained an __eq__ method for value comparison, and defining __eq__ without __hash__ sets __hash__ to None, so Color instances could no longer go into sets. Added a __hash__ based on the same (r, g, b) tuple used by __eq__.",
"pytest passed with exit code 0 (11 passed)",
"""--- a/src/colorsets/color.py
+++ b/src/colorsets/color.py
@@ -14,6 +14,9 @@ class Color:
             return NotImplemented
         return (self.r, self.g, self.b) == (other.r, other.g, other.b)
 
+    def __hash__(self):
+        return hash((self.r, self.g, self.b))
+
     def __repr__(self):
         return f"Color(r={self.r}, g={self.g}, b={self.b})"
""")

R("r-ewh-2", "routegraph", F, hdr("/srv/routegraph", 20, py="3.12.1", pytest="7.4.4", pluggy="1.3.0") + """
tests/test_paths.py ...........F........                                 [100%]

=================================== FAILURES ===================================
_________________________ test_shortest_path_two_hops __________________________

    def test_shortest_path_two_hops():
        g = Graph()
        a, b, c = Stop("AMS"), Stop("UTR"), Stop("EHV")
>       g.connect(a, b, minutes=27)

tests/test_paths.py:71: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <routegraph.graph.Graph object at 0x7fd9b2e1c4d0>, src = Stop(code='AMS', platform=None)
dst = Stop(code='UTR', platform=None), minutes = 27

    def connect(self, src, dst, minutes):
>       self._adj.setdefault(src, {})[dst] = minutes
E       TypeError: unhashable type: 'Stop'

src/routegraph/graph.py:18: TypeError
=========================== short test summary info ============================
FAILED tests/test_paths.py::test_shortest_path_two_hops - TypeError: unhashable type: 'Stop'
========================= 1 failed, 19 passed in 0.04s =========================
""", "TypeError", ["src/routegraph/model.py"],
"Stop is a @dataclass, which generates __eq__ and therefore sets __hash__ to None unless the class is frozen, so stops could not be used as adjacency keys. Made it @dataclass(frozen=True) so it is hashable by value.",
"pytest passed with exit code 0 (20 passed)",
"""--- a/src/routegraph/model.py
+++ b/src/routegraph/model.py
@@ -3,7 +3,7 @@ from typing import Optional
 
 
-@dataclass
+@dataclass(frozen=True)
 class Stop:
     code: str
     platform: Optional[str] = None
""")

Q("q-ewh-1", "contactdedupe", F, """..E.
======================================================================
ERROR: test_duplicates_removed (tests.test_merge.MergeTests.test_duplicates_removed)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ci/contactdedupe/tests/test_merge.py", line 25, in test_duplicates_removed
    merged = unique_contacts(self.import_a + self.import_b)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/ci/contactdedupe/contactdedupe/merge.py", line 14, in unique_contacts
    if c in seen:
       ^^^^^^^^^
TypeError: unhashable type: 'Contact'

----------------------------------------------------------------------
Ran 4 tests in 0.001s

FAILED (errors=1)
""", "TypeError")

Q("q-ewh-2", "skuindex", F, hdr("/home/dev/skuindex", 13) + """
tests/test_prices.py .......F.....                                       [100%]

=================================== FAILURES ===================================
__________________________ test_price_lookup_by_product ________________________

    def test_price_lookup_by_product():
        book = PriceBook()
        widget = Product(sku="W-1", name="widget")
>       book.set_price(widget, 1299)

tests/test_prices.py:50: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <skuindex.prices.PriceBook object at 0x7fe3a1c9d2b0>
product = Product(sku='W-1', name='widget'), cents = 1299

    def set_price(self, product, cents):
        if cents < 0:
            raise ValueError("price must be >= 0")
>       self._prices[product] = cents
E       TypeError: unhashable type: 'Product'

src/skuindex/prices.py:21: TypeError
=========================== short test summary info ============================
FAILED tests/test_prices.py::test_price_lookup_by_product - TypeError: unhashable type: 'Product'
========================= 1 failed, 12 passed in 0.02s =========================
""", "TypeError")

Q("q-ewh-3", "graphwalk", F, hdr("/home/ci/graphwalk", 9, plugins="networkx-3.2.1") + """
tests/test_build.py F........                                            [100%]

=================================== FAILURES ===================================
_________________________ test_build_graph_from_edges __________________________

    def test_build_graph_from_edges():
        edges = [(Vertex("a"), Vertex("b")), (Vertex("b"), Vertex("c"))]
>       g = build_graph(edges)

tests/test_build.py:8: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/graphwalk/build.py:11: in build_graph
    g.add_edge(u, v)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <networkx.classes.graph.Graph object at 0x7f4c21b3e190>
u_of_edge = Vertex(name='a', weight=1.0), v_of_edge = Vertex(name='b', weight=1.0), attr = {}

    def add_edge(self, u_of_edge, v_of_edge, **attr):
        u, v = u_of_edge, v_of_edge
        # add nodes
>       if u not in self._node:
E       TypeError: unhashable type: 'Vertex'

/usr/local/lib/python3.11/site-packages/networkx/classes/graph.py:932: TypeError
=========================== short test summary info ============================
FAILED tests/test_build.py::test_build_graph_from_edges - TypeError: unhashable type: 'Vertex'
========================= 1 failed, 8 passed in 0.31s ==========================
""", "TypeError")

Q("q-ewh-4", "rbacrules", F, colorize(hdr("/home/ci/rbacrules", 15) + """
tests/test_roles.py .....F.........                                      [100%]

=================================== FAILURES ===================================
__________________________ test_effective_roles_union __________________________

    def test_effective_roles_union():
        u = User("mia", roles=[Role("editor"), Role("viewer")])
        g = Group("docs", roles=[Role("viewer")])
>       assert effective_roles(u, [g]) == {Role("editor"), Role("viewer")}
E       TypeError: unhashable type: 'Role'

tests/test_roles.py:41: TypeError
=========================== short test summary info ============================
FAILED tests/test_roles.py::test_effective_roles_union - TypeError: unhashable type: 'Role'
========================= 1 failed, 14 passed in 0.02s =========================
"""), "TypeError")
