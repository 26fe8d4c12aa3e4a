from common import R, Q, hdr, colorize

R("r-dx-nosetter-1", "speakerctl", "property-missing-setter", hdr("/home/ci/speakerctl", 9) + """
tests/test_speaker.py ...F.....                                          [100%]

=================================== FAILURES ===================================
__________________________ test_volume_can_be_changed __________________________

    def test_volume_can_be_changed():
        sp = Speaker("kitchen")
>       sp.volume = 0.4
E       AttributeError: property 'volume' of 'Speaker' object has no setter

tests/test_speaker.py:25: AttributeError
=========================== short test summary info ============================
FAILED tests/test_speaker.py::test_volume_can_be_changed - AttributeError: property 'volume' of 'Speaker' object has no setter
========================= 1 failed, 8 passed in 0.02s ==========================
""", "AttributeError", ["src/speakerctl/speaker.py"],
"Speaker.volume was a read-only @property, so assigning to it raised. Added a @volume.setter that validates the range 0..1 and stores the value in self._volume before pushing it to the device.",
"pytest passed with exit code 0 (9 passed)",
"""--- a/src/speakerctl/speaker.py
+++ b/src/speakerctl/speaker.py
@@ -18,3 +18,10 @@ class Speaker:
     @property
     def volume(self):
         return self._volume
+
+    @volume.setter
+    def volume(self, value):
+        if not 0.0 <= value <= 1.0:
+            raise ValueError(f"volume must be within 0..1, got {value}")
+        self._volume = value
+        self._device.set_volume(value)
""")

R("r-dx-ext-1", "uploadguard", "multi-dot-extension-split", hdr("/srv/uploadguard", 14, verbose=True) + """
tests/test_ext.py::test_allowed[report.pdf] PASSED                       [  7%]
tests/test_ext.py::test_allowed[photo.jpeg] PASSED                       [ 14%]
tests/test_ext.py::test_allowed[backup.tar.gz] FAILED                    [ 21%]
tests/test_ext.py::test_rejected[run.exe] PASSED                         [ 28%]
tests/test_ext.py::test_rejected[x.pdf.exe] FAILED                       [ 35%]
tests/test_ext.py::test_no_extension PASSED                              [ 42%]
tests/test_ext.py::test_uppercase PASSED                                 [ 50%]
tests/test_size.py::test_limit PASSED                                    [ 57%]
tests/test_size.py::test_zero PASSED                                     [ 64%]
tests/test_size.py::test_stream PASSED                                   [ 71%]
tests/test_mime.py::test_sniff_pdf PASSED                                [ 78%]
tests/test_mime.py::test_sniff_png PASSED                                [ 85%]
tests/test_mime.py::test_mismatch PASSED                                 [ 92%]
tests/test_mime.py::test_unknown PASSED                                  [100%]

=================================== FAILURES ===================================
_________________________ test_allowed[backup.tar.gz] __________________________

name = 'backup.tar.gz'

    @pytest.mark.parametrize("name", ["report.pdf", "photo.jpeg", "backup.tar.gz"])
    def test_allowed(name):
>       assert is_allowed(name)
E       AssertionError: assert False
E        +  where False = is_allowed('backup.tar.gz')

tests/test_ext.py:9: AssertionError
___________________________ test_rejected[x.pdf.exe] ___________________________

name = 'x.pdf.exe'

    @pytest.mark.parametrize("name", ["run.exe", "x.pdf.exe"])
    def test_rejected(name):
>       assert not is_allowed(name)
E       AssertionError: assert not True
E        +  where True = is_allowed('x.pdf.exe')

tests/test_ext.py:14: AssertionError
=========================== short test summary info ============================
FAILED tests/test_ext.py::test_allowed[backup.tar.gz] - AssertionError: assert False
FAILED tests/test_ext.py::test_rejected[x.pdf.exe] - AssertionError: assert not True
========================= 2 failed, 12 passed in 0.04s =========================
""", "AssertionError", ["src/uploadguard/ext.py"],
"is_allowed() took name.split('.')[1] as the extension, which is the second dot-separated part rather than the suffix: 'x.pdf.exe' looked like a pdf and 'backup.tar.gz' like 'tar'. Match the lowercased name against the allowed suffixes with endswith instead, longest first.",
"pytest passed with exit code 0 (14 passed)",
"""--- a/src/uploadguard/ext.py
+++ b/src/uploadguard/ext.py
@@ -1,8 +1,9 @@
-ALLOWED = {"pdf", "jpeg", "jpg", "png", "tar.gz"}
+ALLOWED = (".tar.gz", ".jpeg", ".jpg", ".png", ".pdf")
 
 
 def is_allowed(name):
-    if "." not in name:
-        return False
-    return name.split(".")[1].lower() in ALLOWED
+    lowered = name.lower()
+    return any(lowered.endswith(ext) for ext in ALLOWED)
""")

R("r-dx-ziplong-1", "vecadd", "zip-longest-none-fill", hdr("/home/dev/vecadd", 7) + """
tests/test_pad.py ..F....                                                [100%]

=================================== FAILURES ===================================
_________________________ test_add_pads_shorter_vector _________________________

    def test_add_pads_shorter_vector():
>       assert add_padded([1, 2, 3], [10, 20]) == [11, 22, 3]

tests/test_pad.py:12: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

a = [1, 2, 3], b = [10, 20]

    def add_padded(a, b):
>       return [x + y for x, y in zip_longest(a, b)]
E       TypeError: unsupported operand type(s) for +: 'int' and 'NoneType'

src/vecadd/ops.py:8: TypeError
=========================== short test summary info ============================
FAILED tests/test_pad.py::test_add_pads_shorter_vector - TypeError: unsupported operand type(s) for +: 'int' and 'NoneType'
========================= 1 failed, 6 passed in 0.01s ==========================
""", "TypeError", ["src/vecadd/ops.py"],
"itertools.zip_longest pads the shorter input with None by default, so adding the tail element raised TypeError. Pass fillvalue=0, which is the neutral element for the padded addition.",
"pytest passed with exit code 0 (7 passed)",
"""--- a/src/vecadd/ops.py
+++ b/src/vecadd/ops.py
@@ -5,4 +5,4 @@ from itertools import zip_longest
 
 def add_padded(a, b):
-    return [x + y for x, y in zip_longest(a, b)]
+    return [x + y for x, y in zip_longest(a, b, fillvalue=0)]
""")

R("r-dx-slots-1", "geopoint", "slots-blocks-new-attribute", """.....E.
======================================================================
ERROR: test_label_point (tests.test_point.PointTests.test_label_point)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/gis/geopoint/tests/test_point.py", line 40, in test_label_point
    p = LabeledPoint(4.9, 52.37, label="Amsterdam")
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/gis/geopoint/geopoint/point.py", line 27, in __init__
    self.label = label
    ^^^^^^^^^^
AttributeError: 'LabeledPoint' object has no attribute 'label'

----------------------------------------------------------------------
Ran 7 tests in 0.002s

FAILED (errors=1)
""", "AttributeError", ["geopoint/point.py"],
"Point defines __slots__ = ('lon', 'lat') and LabeledPoint declared its own empty __slots__ = (), so there was no slot or __dict__ for 'label'. Declared __slots__ = ('label',) on the subclass.",
"python -m unittest passed (OK, 7 tests)",
"""--- a/geopoint/point.py
+++ b/geopoint/point.py
@@ -20,7 +20,7 @@ class Point:
 
 
 class LabeledPoint(Point):
-    __slots__ = ()
+    __slots__ = ("label",)
 
     def __init__(self, lon, lat, label):
         super().__init__(lon, lat)
""")

R("r-dx-wmode-1", "auditlog", "file-mode-truncates-instead-of-append", hdr("/opt/auditlog", 10, plugins="freezer-0.4.8") + """
tests/test_writer.py ....F.....                                          [100%]

=================================== FAILURES ===================================
_________________________ test_three_events_are_kept ___________________________

tmp_path = PosixPath('/tmp/pytest-of-ops/pytest-1/test_three_events_are_kept0')

    def test_three_events_are_kept(tmp_path):
        log = AuditLog(tmp_path / "audit.log")
        for ev in ("login", "chmod", "logout"):
            log.record(user="root", event=ev)
>       assert len((tmp_path / "audit.log").read_text().splitlines()) == 3
E       AssertionError: assert 1 == 3
E        +  where 1 = len(['2026-11-30T10:00:00Z root logout'])

tests/test_writer.py:44: AssertionError
=========================== short test summary info ============================
FAILED tests/test_writer.py::test_three_events_are_kept - AssertionError: assert 1 == 3
========================= 1 failed, 9 passed in 0.03s ==========================
""", "AssertionError", ["src/auditlog/writer.py"],
"record() reopened the log with mode 'w' for every event, truncating the file each time so only the last event survived. Open with mode 'a' so events are appended.",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/auditlog/writer.py
+++ b/src/auditlog/writer.py
@@ -14,6 +14,6 @@ class AuditLog:
     def record(self, user, event):
         line = f"{_now_iso()} {user} {event}\\n"
-        with open(self.path, "w", encoding="utf-8") as fh:
+        with open(self.path, "a", encoding="utf-8") as fh:
             fh.write(line)
""")

R("r-dx-setorder-1", "tagmerge", "set-iteration-order-assumed", colorize(hdr("/home/ci/tagmerge", 6) + """
tests/test_merge.py .F....                                               [100%]

=================================== FAILURES ===================================
__________________________ test_merge_keeps_first_seen _________________________

    def test_merge_keeps_first_seen():
>       assert merge_tags(["web", "api"], ["api", "db", "web"]) == ["web", "api", "db"]
E       AssertionError: assert ['db', 'web', 'api'] == ['web', 'api', 'db']
E         At index 0 diff: 'db' != 'web'
E         Use -v to get more diff

tests/test_merge.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_merge.py::test_merge_keeps_first_seen - AssertionError: assert ['db', 'web', 'api'] == ['web', 'api', 'db']
========================= 1 failed, 5 passed in 0.01s ==========================
"""), "AssertionError", ["src/tagmerge/merge.py"],
"merge_tags() deduplicated with list(set(a + b)); set iteration order depends on string hashes (randomised per process), not insertion order. Use dict.fromkeys(a + b) to deduplicate while keeping first-seen order.",
"pytest passed with exit code 0 (6 passed)",
"""--- a/src/tagmerge/merge.py
+++ b/src/tagmerge/merge.py
@@ -1,3 +1,3 @@
 def merge_tags(*lists):
     combined = [t for lst in lists for t in lst]
-    return list(set(combined))
+    return list(dict.fromkeys(combined))
""")

R("r-dx-classcounter-1", "idgen", "class-counter-incremented-via-self", hdr("/home/ci/idgen", 8) + """
tests/test_ids.py ..F.....                                               [100%]

=================================== FAILURES ===================================
________________________ test_ids_unique_across_instances ______________________

    def test_ids_unique_across_instances():
        a = Ticket("a")
        b = Ticket("b")
>       assert a.id != b.id
E       AssertionError: assert 1 != 1
E        +  where 1 = <Ticket a #1>.id
E        +  and   1 = <Ticket b #1>.id

tests/test_ids.py:19: AssertionError
=========================== short test summary info ============================
FAILED tests/test_ids.py::test_ids_unique_across_instances - AssertionError: assert 1 != 1
========================= 1 failed, 7 passed in 0.01s ==========================
""", "AssertionError", ["src/idgen/ticket.py"],
"Ticket.__init__ did `self.counter += 1`, which reads the class attribute but writes a new instance attribute, so the shared counter never advanced. Increment the class attribute explicitly via type(self).counter (itertools.count would also do).",
"pytest passed with exit code 0 (8 passed)",
"""--- a/src/idgen/ticket.py
+++ b/src/idgen/ticket.py
@@ -4,6 +4,6 @@ class Ticket:
     counter = 0
 
     def __init__(self, title):
         self.title = title
-        self.counter += 1
-        self.id = self.counter
+        type(self).counter += 1
+        self.id = type(self).counter
""")
