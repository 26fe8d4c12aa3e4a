from common import R, Q, hdr, colorize
F = "class-attribute-shared-mutable"

R("r-cas-1", "kanbanly", F, hdr("/home/ci/kanbanly", 10) + """
tests/test_board.py ...F......                                           [100%]

=================================== FAILURES ===================================
_________________________ test_new_board_starts_empty __________________________

    def test_new_board_starts_empty():
        first = Board("sprint-1")
        first.add_card("fix login")
        second = Board("sprint-2")
>       assert second.cards == []
E       AssertionError: assert ['fix login'] == []
E         Left contains one more item: 'fix login'
E         Use -v to get more diff

tests/test_board.py:30: AssertionError
=========================== short test summary info ============================
FAILED tests/test_board.py::test_new_board_starts_empty - AssertionError: assert ['fix login'] == []
========================= 1 failed, 9 passed in 0.02s ==========================
""", "AssertionError", ["src/kanbanly/board.py"],
"Board declared `cards = []` in the class body, so every Board instance appended to the same list object. Moved the list into __init__ so each board gets its own cards list.",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/kanbanly/board.py
+++ b/src/kanbanly/board.py
@@ -4,10 +4,10 @@ from .card import Card
 
 class Board:
-    cards = []
 
     def __init__(self, name):
         self.name = name
+        self.cards = []
 
     def add_card(self, title):
         self.cards.append(Card(title))
""")

R("r-cas-2", "eventhooks", F, hdr("/work/eventhooks", 15, py="3.12.0", pytest="7.4.4", pluggy="1.3.0", plugins="mock-3.12.0") + """
tests/test_dispatch.py .......F.......                                   [100%]

=================================== FAILURES ===================================
____________________ test_handler_only_on_its_dispatcher _______________________

mocker = <pytest_mock.plugin.MockerFixture object at 0x7f01be2c4a10>

    def test_handler_only_on_its_dispatcher(mocker):
        cb = mocker.Mock()
        a = Dispatcher()
        b = Dispatcher()
        a.on("saved", cb)
        a.emit("saved", 1)
        b.emit("saved", 2)
>       assert cb.call_count == 1
E       AssertionError: assert 2 == 1
E        +  where 2 = <Mock id='139644129838736'>.call_count

tests/test_dispatch.py:58: AssertionError
=========================== short test summary info ============================
FAILED tests/test_dispatch.py::test_handler_only_on_its_dispatcher - AssertionError: assert 2 == 1
========================= 1 failed, 14 passed in 0.06s =========================
""", "AssertionError", ["src/eventhooks/dispatch.py"],
"The handlers registry was a class-level dict on Dispatcher, so registering a callback on one dispatcher registered it on all of them. Create the defaultdict(list) per instance in __init__ instead.",
"pytest passed with exit code 0 (15 passed)",
"""--- a/src/eventhooks/dispatch.py
+++ b/src/eventhooks/dispatch.py
@@ -6,7 +6,9 @@ from collections import defaultdict
 
 class Dispatcher:
     \"\"\"Tiny synchronous event dispatcher.\"\"\"
-    _handlers = defaultdict(list)
+
+    def __init__(self):
+        self._handlers = defaultdict(list)
 
     def on(self, event, cb):
         self._handlers[event].append(cb)
""")

Q("q-cas-1", "pluginreg", F, hdr("/home/dev/pluginreg", 9, verbose=True) + """
tests/test_registry.py::test_register_one PASSED                         [ 11%]
tests/test_registry.py::test_register_many PASSED                        [ 22%]
tests/test_registry.py::test_lookup_by_name PASSED                       [ 33%]
tests/test_registry.py::test_empty_registry FAILED                       [ 44%]
tests/test_registry.py::test_unregister PASSED                           [ 55%]
tests/test_registry.py::test_entry_point_names PASSED                    [ 66%]
tests/test_registry.py::test_duplicate_rejected PASSED                   [ 77%]
tests/test_registry.py::test_iter_sorted PASSED                          [ 88%]
tests/test_registry.py::test_repr PASSED                                 [100%]

=================================== FAILURES ===================================
_____________________________ test_empty_registry ______________________________

    def test_empty_registry():
        reg = Registry()
>       assert len(reg) == 0
E       assert 3 == 0
E        +  where 3 = len(<Registry plugins=['csv', 'json', 'xml']>)

tests/test_registry.py:31: AssertionError
=========================== short test summary info ============================
FAILED tests/test_registry.py::test_empty_registry - assert 3 == 0
========================= 1 failed, 8 passed in 0.03s ==========================
""", "AssertionError")

Q("q-cas-2", "shopcart", F, """..F.
======================================================================
FAIL: test_fresh_cart_total_is_zero (test_cart.CartTests.test_fresh_cart_total_is_zero)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/jo/shopcart/test_cart.py", line 27, in test_fresh_cart_total_is_zero
    self.assertEqual(Cart(customer="bob").total_cents(), 0)
AssertionError: 5997 != 0

----------------------------------------------------------------------
Ran 4 tests in 0.001s

FAILED (failures=1)
""", "AssertionError")

Q("q-cas-3", "tagcloud", F, colorize(hdr("/home/ci/tagcloud", 13, plugins="cov-4.1.0, randomly-3.15.0") + """
tests/test_documents.py ........F....                                    [100%]

=================================== FAILURES ===================================
______________________ test_same_tag_on_two_documents __________________________

    def test_same_tag_on_two_documents():
        d1 = Document("intro.md")
        d2 = Document("setup.md")
        d1.add_tag("python")
>       d2.add_tag("python")

tests/test_documents.py:70: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <Document 'setup.md'>, tag = 'python'

    def add_tag(self, tag):
        if tag in self.tags:
>           raise DuplicateTag(f"{self.name} already tagged {tag!r}")
E           tagcloud.errors.DuplicateTag: setup.md already tagged 'python'

src/tagcloud/document.py:21: DuplicateTag
=========================== short test summary info ============================
FAILED tests/test_documents.py::test_same_tag_on_two_documents - tagcloud.errors.DuplicateTag: setup.md already tagged 'python'
========================= 1 failed, 12 passed in 0.11s =========================
"""), "DuplicateTag")

Q("q-cas-4", "rowpipe", F, hdr("/builds/data/rowpipe", 6, py="3.11.8", pytest="8.0.0", pluggy="1.4.0") + """
tests/test_validate.py .F....                                            [100%]

=================================== FAILURES ===================================
______________________ test_stage_collects_errors[tsv] _________________________

fmt = 'tsv', sample = 'tests/data/bad_row3.tsv'

    @pytest.mark.parametrize("fmt,sample", [("csv", "tests/data/bad_row3.csv"),
                                            ("tsv", "tests/data/bad_row3.tsv")])
    def test_stage_collects_errors(fmt, sample):
        stage = ValidateStage(fmt)
        stage.run(open_rows(sample, fmt))
>       assert stage.errors == ["row 3: amount is not a number"]
E       AssertionError: assert ['row 3: amou...ot a number'] == ['row 3: amou...ot a number']
E         Left contains one more item: 'row 3: amount is not a number'
E         Use -v to get more diff

tests/test_validate.py:25: AssertionError
=========================== short test summary info ============================
FAILED tests/test_validate.py::test_stage_collects_errors[tsv] - AssertionError: assert ['row 3: amou...ot a number'] == ['row 3: amou...
========================= 1 failed, 5 passed in 0.04s ==========================
""", "AssertionError")
