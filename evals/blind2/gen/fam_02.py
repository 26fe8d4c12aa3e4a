from common import R, Q, hdr, colorize
F = "json-int-keys-stringified"

R("r-jik-1", "seatplan", F, hdr("/home/ci/seatplan", 17, plugins="xdist-3.5.0") + """
tests/test_layout_cache.py ...E.............                             [100%]

==================================== ERRORS ====================================
___________________ ERROR at setup of test_row_lookup_cached ___________________

tmp_path = PosixPath('/tmp/pytest-of-ci/pytest-0/test_row_lookup_cached0')

    @pytest.fixture
    def cached_hall(tmp_path):
        hall = Hall.build(rows=20, seats_per_row=14)
        save_layout(hall, tmp_path / "hall.json")
>       return load_layout(tmp_path / "hall.json")

tests/test_layout_cache.py:14: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/seatplan/cache.py:29: in load_layout
    return Hall(rows={n: Row.from_dict(data["rows"][n]) for n in range(1, data["count"] + 1)})
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

.0 = <range_iterator object at 0x7f3a1c2d5e90>

>   return Hall(rows={n: Row.from_dict(data["rows"][n]) for n in range(1, data["count"] + 1)})
E   KeyError: 1

src/seatplan/cache.py:29: KeyError
=========================== short test summary info ============================
ERROR tests/test_layout_cache.py::test_row_lookup_cached - KeyError: 1
========================= 16 passed, 1 error in 0.41s ==========================
""", "KeyError", ["src/seatplan/cache.py"],
"save_layout() wrote the rows dict keyed by int row number with json.dump, and JSON object keys always come back as strings, so data['rows'][1] missed. load_layout now converts the keys back with int() when rebuilding the rows mapping.",
"pytest passed with exit code 0 (17 passed)",
"""--- a/src/seatplan/cache.py
+++ b/src/seatplan/cache.py
@@ -25,6 +25,7 @@ def save_layout(hall, path):
 def load_layout(path):
     with open(path, encoding="utf-8") as fh:
         data = json.load(fh)
-    return Hall(rows={n: Row.from_dict(data["rows"][n]) for n in range(1, data["count"] + 1)})
+    rows = {int(k): v for k, v in data["rows"].items()}
+    return Hall(rows={n: Row.from_dict(rows[n]) for n in range(1, data["count"] + 1)})
""")

R("r-jik-2", "scoreboard", F, hdr("/builds/scoreboard", 6, py="3.10.12", pytest="7.2.1", pluggy="1.0.0") + """
tests/test_persist.py .F....                                             [100%]

=================================== FAILURES ===================================
_____________________________ test_roundtrip_totals ____________________________

    def test_roundtrip_totals():
        board = Board()
        board.add(player=1, points=30)
        board.add(player=7, points=12)
        restored = Board.loads(board.dumps())
>       assert restored.totals == board.totals
E       AssertionError: assert {'1': 30, '7': 12} == {1: 30, 7: 12}
E         Left contains 2 more items:
E         {'1': 30, '7': 12}
E         Right contains 2 more items:
E         {1: 30, 7: 12}
E         Use -v to get more diff

tests/test_persist.py:22: AssertionError
=========================== short test summary info ============================
FAILED tests/test_persist.py::test_roundtrip_totals - AssertionError: assert {'1': 30, '7': 12} == {1: 30, 7: 12}
========================= 1 failed, 5 passed in 0.03s ==========================
""", "AssertionError", ["src/scoreboard/board.py"],
"Board.loads() took the totals dict straight from json.loads, but JSON turns the integer player ids used as keys into strings. Added a conversion of the keys back to int in loads() so a dumps/loads round trip preserves the mapping.",
"pytest passed with exit code 0 (6 passed)",
"""--- a/src/scoreboard/board.py
+++ b/src/scoreboard/board.py
@@ -40,5 +40,5 @@ class Board:
     @classmethod
     def loads(cls, text):
         raw = json.loads(text)
         board = cls()
-        board.totals = raw["totals"]
+        board.totals = {int(pid): pts for pid, pts in raw["totals"].items()}
         return board
""")

Q("q-jik-1", "hivemon", F, hdr("/opt/hivemon", 31, plugins="mock-3.12.0, fakeredis-2.20.0") + """
tests/test_weights.py .........F.....................                    [100%]

=================================== FAILURES ===================================
_________________________ test_weekly_gain_from_store __________________________

store = <hivemon.store.WeightStore object at 0x7fd4a8b1c6d0>

    def test_weekly_gain_from_store(store):
        store.put_series("hive-3", {0: 41200, 1: 41350, 2: 41900, 6: 42810})
        series = store.get_series("hive-3")
>       assert weekly_gain(series) == 1610

tests/test_weights.py:64: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

series = {'0': 41200, '1': 41350, '2': 41900, '6': 42810}

    def weekly_gain(series):
        first = series.get(0)
        last = series.get(max(DAYS))
>       return last - first
E       TypeError: unsupported operand type(s) for -: 'NoneType' and 'NoneType'

src/hivemon/analysis.py:18: TypeError
=========================== short test summary info ============================
FAILED tests/test_weights.py::test_weekly_gain_from_store - TypeError: unsupported operand type(s) for -: 'NoneType' and 'NoneType'
========================= 1 failed, 30 passed in 0.72s =========================
""", "TypeError")

Q("q-jik-2", "gridtile", F, """F...
======================================================================
FAIL: test_tile_index_survives_reload (tests.test_index.TileIndexTest.test_tile_index_survives_reload)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/u/gridtile/tests/test_index.py", line 33, in test_tile_index_survives_reload
    self.assertEqual(reloaded.by_zoom, index.by_zoom)
AssertionError: {'0': ['0/0/0'], '1': ['1/0/0', '1/1/0']} != {0: ['0/0/0'], 1: ['1/0/0', '1/1/0']}
- {'0': ['0/0/0'], '1': ['1/0/0', '1/1/0']}
?  - -              - -
+ {0: ['0/0/0'], 1: ['1/0/0', '1/1/0']}

----------------------------------------------------------------------
Ran 4 tests in 0.006s

FAILED (failures=1)
""", "AssertionError")

Q("q-jik-3", "mealprep", F, hdr("/Users/kim/code/mealprep", 12, plat="darwin", py="3.12.2", pytest="8.1.1", pluggy="1.4.0") + """
tests/test_planner.py ......F.....                                       [100%]

=================================== FAILURES ===================================
_______________________ test_weeks_listed_after_import _________________________

sample_export = '/Users/kim/code/mealprep/tests/data/export.json'

    def test_weeks_listed_after_import(sample_export):
        plan = Planner.import_file(sample_export)
>       assert plan.weeks() == [2, 3, 10]
E       AssertionError: assert ['10', '2', '3'] == [2, 3, 10]
E         At index 0 diff: '10' != 2
E         Use -v to get more diff

tests/test_planner.py:51: AssertionError
=========================== short test summary info ============================
FAILED tests/test_planner.py::test_weeks_listed_after_import - AssertionError: assert ['10', '2', '3'] == [2, 3, 10]
========================= 1 failed, 11 passed in 0.08s =========================
""", "AssertionError")

Q("q-jik-4", "ratelimitd", F, hdr("/srv/app", 19, configfile="setup.cfg", plugins="asyncio-0.23.2") + """
tests/test_policy.py ........F..........                                 [100%]

=================================== FAILURES ===================================
____________________ test_backoff_for_429_from_config_file _____________________

tmp_path = PosixPath('/tmp/pytest-of-root/pytest-1/test_backoff_for_429_from_co0')

    def test_backoff_for_429_from_config_file(tmp_path):
        cfg = tmp_path / "policy.json"
        write_policy(cfg, {"backoff": {429: 30, 503: 5}})
        policy = RetryPolicy.from_file(cfg)
>       assert policy.delay_for(429, attempt=1) == 30

tests/test_policy.py:77: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = RetryPolicy(backoff={'429': 30, '503': 5}, max_delay=300), status = 429, attempt = 1

    def delay_for(self, status, attempt):
>       base = self.backoff[status]
E       KeyError: 429

src/ratelimitd/policy.py:44: KeyError
=========================== short test summary info ============================
FAILED tests/test_policy.py::test_backoff_for_429_from_config_file - KeyError: 429
========================= 1 failed, 18 passed in 0.15s =========================
""", "KeyError")
