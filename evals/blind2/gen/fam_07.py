from common import R, Q, hdr, colorize
F = "none-in-ordering-comparison"

R("r-nis-1", "leaderbrd", F, hdr("/home/ci/leaderbrd", 13) + """
tests/test_ranking.py ......F......                                      [100%]

=================================== FAILURES ===================================
_________________________ test_ranking_puts_dnf_last ___________________________

    def test_ranking_puts_dnf_last():
        results = [Result("ana", 61.2), Result("ben", None), Result("cy", 59.8)]
>       ranked = rank(results)

tests/test_ranking.py:40: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

results = [Result(name='ana', best_time=61.2), Result(name='ben', best_time=None), Result(name='cy', best_time=59.8)]

    def rank(results):
>       ordered = sorted(results, key=lambda r: r.best_time)
E       TypeError: '<' not supported between instances of 'NoneType' and 'float'

src/leaderbrd/ranking.py:9: TypeError
=========================== short test summary info ============================
FAILED tests/test_ranking.py::test_ranking_puts_dnf_last - TypeError: '<' not supported between instances of 'NoneType' and 'float'
========================= 1 failed, 12 passed in 0.03s =========================
""", "TypeError", ["src/leaderbrd/ranking.py"],
"rank() sorted directly on best_time, which is None for riders who did not finish, and Python 3 cannot order None against floats. The sort key is now a tuple (best_time is None, best_time or 0.0) so DNF entries sort after every timed result.",
"pytest passed with exit code 0 (13 passed)",
"""--- a/src/leaderbrd/ranking.py
+++ b/src/leaderbrd/ranking.py
@@ -6,5 +6,8 @@ from .models import Result
 
 def rank(results):
-    ordered = sorted(results, key=lambda r: r.best_time)
+    ordered = sorted(
+        results,
+        key=lambda r: (r.best_time is None, r.best_time or 0.0),
+    )
     return [(i + 1, r) for i, r in enumerate(ordered)]
""")

R("r-nis-2", "tasklane", F, """test_agenda_orders_by_due (tests.test_agenda.AgendaTests.test_agenda_orders_by_due) ... ERROR
test_agenda_empty (tests.test_agenda.AgendaTests.test_agenda_empty) ... ok
test_agenda_filters_done (tests.test_agenda.AgendaTests.test_agenda_filters_done) ... ok

======================================================================
ERROR: test_agenda_orders_by_due (tests.test_agenda.AgendaTests.test_agenda_orders_by_due)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/lee/tasklane/tests/test_agenda.py", line 21, in test_agenda_orders_by_due
    items = agenda(self.tasks)
            ^^^^^^^^^^^^^^^^^^
  File "/home/lee/tasklane/src/tasklane/agenda.py", line 14, in agenda
    return sorted(open_tasks, key=attrgetter("due"))
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
TypeError: '<' not supported between instances of 'NoneType' and 'datetime.date'

----------------------------------------------------------------------
Ran 3 tests in 0.002s

FAILED (errors=1)
""", "TypeError", ["src/tasklane/agenda.py"],
"Tasks without a due date have due=None, and sorted(key=attrgetter('due')) then compared None with date objects. Sort on (task.due is None, task.due or date.max) so undated tasks go to the end of the agenda.",
"python -m unittest passed (OK, 3 tests)",
"""--- a/src/tasklane/agenda.py
+++ b/src/tasklane/agenda.py
@@ -1,5 +1,5 @@
-from operator import attrgetter
+from datetime import date
 
 from .models import Task
 
@@ -11,4 +11,4 @@ def agenda(tasks):
     open_tasks = [t for t in tasks if not t.done]
-    return sorted(open_tasks, key=attrgetter("due"))
+    return sorted(open_tasks, key=lambda t: (t.due is None, t.due or date.max))
""")

Q("q-nis-1", "bookshelf", F, hdr("/srv/bookshelf", 20, py="3.12.1", pytest="7.4.4", pluggy="1.3.0", plugins="django-4.7.0") + """
tests/test_stats.py ..........F.........                                 [100%]

=================================== FAILURES ===================================
_______________________ test_top_rating_ignores_unrated ________________________

    def test_top_rating_ignores_unrated():
        shelf = Shelf([Book("Dune", rating=5), Book("Emma", rating=None), Book("Ulysses", rating=3)])
>       assert shelf.top_rating() == 5

tests/test_stats.py:66: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <Shelf 3 books>

    def top_rating(self):
>       return max(b.rating for b in self.books)
E       TypeError: '>' not supported between instances of 'NoneType' and 'int'

src/bookshelf/shelf.py:41: TypeError
=========================== short test summary info ============================
FAILED tests/test_stats.py::test_top_rating_ignores_unrated - TypeError: '>' not supported between instances of 'NoneType' and 'int'
========================= 1 failed, 19 passed in 0.22s =========================
""", "TypeError")

Q("q-nis-2", "jobqueue", F, """...E
======================================================================
ERROR: test_push_without_priority (test_queue.PriorityQueueTest.test_push_without_priority)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/opt/jobqueue/test_queue.py", line 30, in test_push_without_priority
    q.push(Job("reindex"))
  File "/opt/jobqueue/jobqueue/queue.py", line 22, in push
    heapq.heappush(self._heap, (job.priority, job.name))
TypeError: '<' not supported between instances of 'NoneType' and 'int'

----------------------------------------------------------------------
Ran 4 tests in 0.001s

FAILED (errors=1)
""", "TypeError")

Q("q-nis-3", "pricegrid", F, colorize(hdr("/home/ci/pricegrid", 7) + """
tests/test_table.py .F.....                                              [100%]

=================================== FAILURES ===================================
_______________________ test_cheapest_first_with_blank_price ___________________

    def test_cheapest_first_with_blank_price():
        table = PriceTable.from_csv("tests/data/quotes_with_blanks.csv")
>       assert [r["vendor"] for r in table.cheapest_first()][:2] == ["acme", "zenith"]

tests/test_table.py:17: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <PriceTable rows=6 source='tests/data/quotes_with_blanks.csv'>

    def cheapest_first(self):
>       return sorted(self.rows, key=itemgetter("price"))
E       TypeError: '<' not supported between instances of 'int' and 'NoneType'

src/pricegrid/table.py:48: TypeError
=========================== short test summary info ============================
FAILED tests/test_table.py::test_cheapest_first_with_blank_price - TypeError: '<' not supported between instances of 'int' and 'NoneType'
========================= 1 failed, 6 passed in 0.02s ==========================
"""), "TypeError")

Q("q-nis-4", "coursereg", F, hdr("/home/ci/coursereg", 16, configfile="pyproject.toml") + """
tests/test_timetable.py ........F.......                                 [100%]

=================================== FAILURES ===================================
___________________ test_insert_slot_with_unassigned_room ______________________

    def test_insert_slot_with_unassigned_room():
        tt = Timetable()
        tt.add(Slot(day=1, start=900, room=12))
>       tt.add(Slot(day=1, start=900, room=None))

tests/test_timetable.py:59: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/coursereg/timetable.py:27: in add
    bisect.insort(self._slots, slot)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = Slot(day=1, start=900, room=None), other = Slot(day=1, start=900, room=12)

>   ???
E   TypeError: '<' not supported between instances of 'NoneType' and 'int'

<string>:4: TypeError
=========================== short test summary info ============================
FAILED tests/test_timetable.py::test_insert_slot_with_unassigned_room - TypeError: '<' not supported between instances of 'NoneType' and 'int'
========================= 1 failed, 15 passed in 0.04s =========================
""", "TypeError")
