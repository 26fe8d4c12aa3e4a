from common import R, Q, hdr, colorize
F = "shared-mutable-fill-value"

R("r-dfk-1", "rosterly", F, hdr("/home/ci/rosterly", 11) + """
tests/test_groups.py ....F......                                         [100%]

=================================== FAILURES ===================================
_________________________ test_members_grouped_by_team _________________________

    def test_members_grouped_by_team():
        people = [Person("ana", "red"), Person("bo", "blue"), Person("cem", "red")]
        groups = group_by_team(people, teams=["red", "blue"])
>       assert groups["blue"] == ["bo"]
E       AssertionError: assert ['ana', 'bo', 'cem'] == ['bo']
E         At index 0 diff: 'ana' != 'bo'
E         Left contains 2 more items, first extra item: 'bo'
E         Use -v to get more diff

tests/test_groups.py:29: AssertionError
=========================== short test summary info ============================
FAILED tests/test_groups.py::test_members_grouped_by_team - AssertionError: assert ['ana', 'bo', 'cem'] == ['bo']
========================= 1 failed, 10 passed in 0.02s =========================
""", "AssertionError", ["src/rosterly/groups.py"],
"group_by_team() initialised the mapping with dict.fromkeys(teams, []), which makes every key point at the same list object, so each member was appended to all teams. Build it with a dict comprehension that creates a fresh list per team.",
"pytest passed with exit code 0 (11 passed)",
"""--- a/src/rosterly/groups.py
+++ b/src/rosterly/groups.py
@@ -3,7 +3,7 @@
 def group_by_team(people, teams):
-    groups = dict.fromkeys(teams, [])
+    groups = {team: [] for team in teams}
     for p in people:
         groups[p.team].append(p.name)
     return groups
""")

R("r-dfk-2", "minesweep", F, hdr("/home/dev/minesweep", 14, py="3.12.0", pytest="7.4.3", pluggy="1.3.0") + """
tests/test_board.py .F............                                       [100%]

=================================== FAILURES ===================================
__________________________ test_place_single_mine ______________________________

    def test_place_single_mine():
        b = Board(width=3, height=3)
        b.place_mine(1, 0)
>       assert b.mine_count() == 1
E       assert 3 == 1
E        +  where 3 = <bound method Board.mine_count of Board(3x3)>()
E        +    where <bound method Board.mine_count of Board(3x3)> = Board(3x3).mine_count

tests/test_board.py:17: AssertionError
=========================== short test summary info ============================
FAILED tests/test_board.py::test_place_single_mine - assert 3 == 1
========================= 1 failed, 13 passed in 0.03s =========================
""", "AssertionError", ["src/minesweep/board.py"],
"The grid was created as [[False] * width] * height, which repeats a reference to one row list, so marking a cell marked that column in every row. Create each row separately with a list comprehension.",
"pytest passed with exit code 0 (14 passed)",
"""--- a/src/minesweep/board.py
+++ b/src/minesweep/board.py
@@ -6,7 +6,7 @@ class Board:
     def __init__(self, width, height):
         self.width = width
         self.height = height
-        self.mines = [[False] * width] * height
+        self.mines = [[False] * width for _ in range(height)]
 
     def place_mine(self, x, y):
         self.mines[y][x] = True
""")

Q("q-dfk-1", "tagindex", F, """F..
======================================================================
FAIL: test_index_documents_by_tag (tests.test_index.IndexTests.test_index_documents_by_tag)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ci/tagindex/tests/test_index.py", line 16, in test_index_documents_by_tag
    self.assertEqual(idx["python"], {"a.md"})
AssertionError: Items in the first set but not the second:
'c.md'
'b.md'

----------------------------------------------------------------------
Ran 3 tests in 0.001s

FAILED (failures=1)
""", "AssertionError")

Q("q-dfk-2", "seatgrid", F, hdr("/srv/seatgrid", 9) + """
tests/test_booking.py ..F......                                          [100%]

=================================== FAILURES ===================================
_____________________ test_book_same_seat_number_other_row _____________________

    def test_book_same_seat_number_other_row():
        hall = Hall(rows=5, seats=8)
        hall.book("A3", customer="kay")
>       hall.book("B3", customer="lin")

tests/test_booking.py:27: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = Hall(rows=5, seats=8), seat = 'B3', customer = 'lin'

    def book(self, seat, customer):
        r, c = self._parse(seat)
        if self.grid[r][c] is not None:
>           raise AlreadyBooked(f"{seat} is taken by {self.grid[r][c]}")
E           seatgrid.errors.AlreadyBooked: B3 is taken by kay

src/seatgrid/hall.py:31: AlreadyBooked
=========================== short test summary info ============================
FAILED tests/test_booking.py::test_book_same_seat_number_other_row - seatgrid.errors.AlreadyBooked: B3 is taken by kay
========================= 1 failed, 8 passed in 0.02s ==========================
""", "AlreadyBooked")

Q("q-dfk-3", "histobin", F, colorize(hdr("/home/ci/histobin", 6) + """
tests/test_bins.py F.....                                                [100%]

=================================== FAILURES ===================================
_____________________________ test_values_land_in_bins _________________________

    def test_values_land_in_bins():
        h = Histogram(edges=[0, 10, 20, 30, 40, 50])
        h.add_many([1, 4, 12, 25, 26, 33, 41, 44, 47, 49])
>       assert len(h.bins[0]) == 2
E       assert 10 == 2
E        +  where 10 = len([1, 4, 12, 25, 26, 33, ...])

tests/test_bins.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_bins.py::test_values_land_in_bins - assert 10 == 2
========================= 1 failed, 5 passed in 0.01s ==========================
"""), "AssertionError")

Q("q-dfk-4", "matrixops", F, hdr("/home/ci/matrixops", 10, verbose=True) + """
tests/test_matrix.py::test_identity[1] PASSED                            [ 10%]
tests/test_matrix.py::test_identity[3] FAILED                            [ 20%]
tests/test_matrix.py::test_zeros PASSED                                  [ 30%]
tests/test_matrix.py::test_transpose PASSED                              [ 40%]
tests/test_matrix.py::test_mul PASSED                                    [ 50%]
tests/test_matrix.py::test_add PASSED                                    [ 60%]
tests/test_matrix.py::test_shape PASSED                                  [ 70%]
tests/test_matrix.py::test_trace PASSED                                  [ 80%]
tests/test_matrix.py::test_det2 PASSED                                   [ 90%]
tests/test_matrix.py::test_repr PASSED                                   [100%]

=================================== FAILURES ===================================
_______________________________ test_identity[3] _______________________________

n = 3

    @pytest.mark.parametrize("n", [1, 3])
    def test_identity(n):
        m = Matrix.identity(n)
>       assert m.rows == [[1 if i == j else 0 for j in range(n)] for i in range(n)]
E       assert [[1, 1, 1], [1, 1, 1], [1, 1, 1]] == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
E         At index 0 diff: [1, 1, 1] != [1, 0, 0]
E         Full diff:
E         - [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
E         + [[1, 1, 1], [1, 1, 1], [1, 1, 1]]

tests/test_matrix.py:8: AssertionError
=========================== short test summary info ============================
FAILED tests/test_matrix.py::test_identity[3] - assert [[1, 1, 1], [1, 1, 1], [1, 1, 1]] == [[1, 0, 0], [0, 1, 0], [0, 0,...
========================= 1 failed, 9 passed in 0.02s ==========================
""", "AssertionError")
