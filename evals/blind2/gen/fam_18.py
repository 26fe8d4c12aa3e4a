from common import R, Q, hdr, colorize
F = "numpy-fixed-width-int-overflow"

R("r-npo-1", "pixelkit", F, hdr("/home/ci/pixelkit", 16, plugins="cov-4.1.0") + """
tests/test_adjust.py ......F.........                                    [100%]

=================================== FAILURES ===================================
_______________________ test_brighten_saturates_at_white _______________________

    def test_brighten_saturates_at_white():
        img = np.full((2, 2, 3), 200, dtype=np.uint8)
        out = brighten(img, 100)
>       assert out[0, 0, 0] == 255
E       assert 44 == 255

tests/test_adjust.py:51: AssertionError
=========================== short test summary info ============================
FAILED tests/test_adjust.py::test_brighten_saturates_at_white - assert 44 == 255
========================= 1 failed, 15 passed in 0.19s =========================
""", "AssertionError", ["src/pixelkit/adjust.py"],
"brighten() added the offset directly to the uint8 array, and numpy integer arithmetic wraps modulo 256 instead of saturating, so 200 + 100 became 44. Compute in int16, clip to 0..255 and cast back to uint8.",
"pytest passed with exit code 0 (16 passed)",
"""--- a/src/pixelkit/adjust.py
+++ b/src/pixelkit/adjust.py
@@ -6,4 +6,5 @@ import numpy as np
 def brighten(img, amount):
     \"\"\"Add ``amount`` to every channel, saturating at 0 and 255.\"\"\"
-    return img + amount
+    out = img.astype(np.int16) + amount
+    return np.clip(out, 0, 255).astype(np.uint8)
""")

R("r-npo-2", "stepcount", F, hdr("/srv/stepcount", 10, py="3.11.9", pytest="8.1.1", pluggy="1.4.0") + """
tests/test_weekly.py ...F......                                          [100%]

=================================== FAILURES ===================================
___________________________ test_weekly_total_marathon _________________________

    def test_weekly_total_marathon():
        days = [5200, 6100, 48000, 4100, 3900, 7000, 5300]
>       assert weekly_total(days) == 79600
E       assert 14064 == 79600
E        +  where 14064 = weekly_total([5200, 6100, 48000, 4100, 3900, 7000, ...])

tests/test_weekly.py:22: AssertionError
=========================== short test summary info ============================
FAILED tests/test_weekly.py::test_weekly_total_marathon - assert 14064 == 79600
========================= 1 failed, 9 passed in 0.14s ==========================
""", "AssertionError", ["src/stepcount/weekly.py"],
"weekly_total() stored the daily counts in np.array(..., dtype=np.int16) to save memory, so values above 32767 and the sum wrapped around to a negative number. Use int64 for the counts and the accumulator.",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/stepcount/weekly.py
+++ b/src/stepcount/weekly.py
@@ -3,5 +3,5 @@ import numpy as np
 
 def weekly_total(days):
-    arr = np.asarray(days, dtype=np.int16)
-    return int(arr.sum())
+    arr = np.asarray(days, dtype=np.int64)
+    return int(arr.sum(dtype=np.int64))
""")

Q("q-npo-1", "audiogain", F, hdr("/home/dev/audiogain", 8) + """
tests/test_gain.py ..F.....                                              [100%]

=================================== FAILURES ===================================
__________________________ test_gain_clips_loud_samples ________________________

    def test_gain_clips_loud_samples():
        pcm = np.array([0, 1000, 20000, -20000], dtype=np.int16)
        out = apply_gain(pcm, db=6.0)
>       assert out.max() == 32767
E       assert 25536 == 32767
E        +  where 25536 = <built-in method max of numpy.ndarray object at 0x7f8e1c2b4a30>()
E        +    where <built-in method max of numpy.ndarray object at 0x7f8e1c2b4a30> = array([     0,   2000, -25536,  25536], dtype=int16).max

tests/test_gain.py:19: AssertionError
=========================== short test summary info ============================
FAILED tests/test_gain.py::test_gain_clips_loud_samples - assert 25536 == 32767
========================= 1 failed, 7 passed in 0.22s ==========================
""", "AssertionError")

Q("q-npo-2", "heatdiff", F, """...F.
======================================================================
FAIL: test_abs_difference_small_values (tests.test_diff.DiffTests.test_abs_difference_small_values)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ci/heatdiff/tests/test_diff.py", line 28, in test_abs_difference_small_values
    self.assertEqual(int(d[0, 0]), 5)
AssertionError: 251 != 5

----------------------------------------------------------------------
Ran 5 tests in 0.041s

FAILED (failures=1)
""", "AssertionError")

Q("q-npo-3", "tilemap", F, colorize(hdr("/home/ci/tilemap", 12, plugins="benchmark-4.0.0") + """
tests/test_index.py .....F......                                         [100%]

=================================== FAILURES ===================================
___________________________ test_flat_index_far_corner _________________________

    def test_flat_index_far_corner():
        grid = TileGrid(width=300, height=300)
>       assert grid.flat_index(x=100, y=200) == 60100
E       assert -5436 == 60100
E        +  where -5436 = <bound method TileGrid.flat_index of TileGrid(300x300)>(x=100, y=200)
E        +    where <bound method TileGrid.flat_index of TileGrid(300x300)> = TileGrid(300x300).flat_index

tests/test_index.py:33: AssertionError
=============================== warnings summary ===============================
tests/test_index.py::test_flat_index_far_corner
  /home/ci/tilemap/src/tilemap/grid.py:27: RuntimeWarning: overflow encountered in scalar multiply
    return self._y_stride[y] * self.width + x

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED tests/test_index.py::test_flat_index_far_corner - assert -5436 == 60100
=================== 1 failed, 11 passed, 1 warning in 0.28s ====================
"""), "AssertionError")

Q("q-npo-4", "sensorstats", F, hdr("/opt/sensorstats", 14) + """
tests/test_summary.py ........F.....                                     [100%]

=================================== FAILURES ===================================
____________________________ test_mean_of_raw_adc ______________________________

raw_adc = array([41000, 41012, 41025, 41013], dtype=uint16)

    def test_mean_of_raw_adc(raw_adc):
>       assert channel_mean(raw_adc) == pytest.approx(41012.5)
E       assert 8244.5 == 41012.5 ± 4.1e-02
E         comparison failed
E         Obtained: 8244.5
E         Expected: 41012.5 ± 4.1e-02

tests/test_summary.py:61: AssertionError
=========================== short test summary info ============================
FAILED tests/test_summary.py::test_mean_of_raw_adc - assert 8244.5 == 41012.5 ± 4.1e-02
========================= 1 failed, 13 passed in 0.17s =========================
""", "AssertionError")
