from common import R, Q, hdr, colorize
F = "re-match-instead-of-search"

R("r-rms-1", "logscan", F, hdr("/home/ci/logscan", 12) + """
tests/test_codes.py ....F.......                                         [100%]

=================================== FAILURES ===================================
____________________________ test_error_code_extracted _________________________

    def test_error_code_extracted():
        line = "2026-03-14T09:26:53Z host-7 ERROR E1042 disk quota exceeded"
>       assert error_code(line) == "E1042"

tests/test_codes.py:31: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

line = '2026-03-14T09:26:53Z host-7 ERROR E1042 disk quota exceeded'

    def error_code(line):
>       return CODE_RE.match(line).group(0)
E       AttributeError: 'NoneType' object has no attribute 'group'

src/logscan/codes.py:11: AttributeError
=========================== short test summary info ============================
FAILED tests/test_codes.py::test_error_code_extracted - AttributeError: 'NoneType' object has no attribute 'group'
========================= 1 failed, 11 passed in 0.02s =========================
""", "AttributeError", ["src/logscan/codes.py"],
"error_code() used CODE_RE.match(), which only matches at the beginning of the string, but the code sits after the timestamp and level. Use CODE_RE.search() and return None when no code is present instead of calling .group on None.",
"pytest passed with exit code 0 (12 passed)",
"""--- a/src/logscan/codes.py
+++ b/src/logscan/codes.py
@@ -8,4 +8,5 @@ CODE_RE = re.compile(r"\\bE\\d{4}\\b")
 
 def error_code(line):
-    return CODE_RE.match(line).group(0)
+    m = CODE_RE.search(line)
+    return m.group(0) if m else None
""")

R("r-rms-2", "versionbump", F, hdr("/work/versionbump", 7, py="3.12.2", pytest="8.0.2", pluggy="1.4.0") + """
tests/test_find.py .F.....                                               [100%]

=================================== FAILURES ===================================
_________________________ test_find_version_in_setup_cfg _______________________

tmp_path = PosixPath('/tmp/pytest-of-rel/pytest-0/test_find_version_in_setup_cf0')

    def test_find_version_in_setup_cfg(tmp_path):
        cfg = tmp_path / "setup.cfg"
        cfg.write_text("[metadata]\\nname = demo\\nversion = 1.4.2\\n")
>       assert find_version(cfg) == "1.4.2"

tests/test_find.py:17: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

path = PosixPath('/tmp/pytest-of-rel/pytest-0/test_find_version_in_setup_cf0/setup.cfg')

    def find_version(path):
        for line in path.read_text().splitlines():
            m = re.match(r"(\\d+)\\.(\\d+)\\.(\\d+)", line)
            if m:
                return m.group(0)
>       raise VersionNotFound(f"no version string in {path.name}")
E       versionbump.errors.VersionNotFound: no version string in setup.cfg

src/versionbump/find.py:14: VersionNotFound
=========================== short test summary info ============================
FAILED tests/test_find.py::test_find_version_in_setup_cfg - versionbump.errors.VersionNotFound: no version string in setup.cfg
========================= 1 failed, 6 passed in 0.02s ==========================
""", "VersionNotFound", ["src/versionbump/find.py"],
"find_version() scanned each line with re.match, which anchors at position 0, so 'version = 1.4.2' never matched because the number is not at the start of the line. Switched to re.search with a 'version\\s*=' prefix group.",
"pytest passed with exit code 0 (7 passed)",
"""--- a/src/versionbump/find.py
+++ b/src/versionbump/find.py
@@ -8,7 +8,7 @@ from .errors import VersionNotFound
 def find_version(path):
     for line in path.read_text().splitlines():
-        m = re.match(r"(\\d+)\\.(\\d+)\\.(\\d+)", line)
+        m = re.search(r"version\\s*[=:]\\s*[\\"']?((\\d+)\\.(\\d+)\\.(\\d+))", line)
         if m:
-            return m.group(0)
+            return m.group(1)
     raise VersionNotFound(f"no version string in {path.name}")
""")

Q("q-rms-1", "mailfilter", F, hdr("/home/dev/mailfilter", 19) + """
tests/test_rules.py ..........F........                                  [100%]

=================================== FAILURES ===================================
_______________________ test_reply_prefixed_spam_detected ______________________

    def test_reply_prefixed_spam_detected():
        msg = Message(subject="Re: WIN a FREE cruise today", sender="promo@deals.test")
>       assert is_spam(msg, rules=DEFAULT_RULES)
E       AssertionError: assert False
E        +  where False = is_spam(Message(subject='Re: WIN a FREE cruise today', sender='promo@deals.test'), rules=[Rule(pattern='WIN a FREE', weight=5), Rule(pattern='\\\\bviagra\\\\b', weight=9)])

tests/test_rules.py:88: AssertionError
=========================== short test summary info ============================
FAILED tests/test_rules.py::test_reply_prefixed_spam_detected - AssertionError: assert False
========================= 1 failed, 18 passed in 0.04s =========================
""", "AssertionError")

Q("q-rms-2", "phonefmt", F, """E.....
======================================================================
ERROR: test_number_inside_sentence (tests.test_extract.ExtractTests.test_number_inside_sentence)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ci/phonefmt/tests/test_extract.py", line 11, in test_number_inside_sentence
    self.assertEqual(extract("Call me at +31 20 123 4567 after six"), "+31201234567")
                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/ci/phonefmt/phonefmt/extract.py", line 9, in extract
    digits = PHONE.match(text).group(0)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^
AttributeError: 'NoneType' object has no attribute 'group'

----------------------------------------------------------------------
Ran 6 tests in 0.001s

FAILED (errors=1)
""", "AttributeError")

Q("q-rms-3", "hashtagger", F, colorize(hdr("/home/ci/hashtagger", 5, verbose=True) + """
tests/test_tags.py::test_first_tag[start] PASSED                         [ 20%]
tests/test_tags.py::test_first_tag[mid-sentence] FAILED                  [ 40%]
tests/test_tags.py::test_first_tag[none] PASSED                          [ 60%]
tests/test_tags.py::test_tag_lowercased PASSED                           [ 80%]
tests/test_tags.py::test_unicode_tag PASSED                              [100%]

=================================== FAILURES ===================================
_________________________ test_first_tag[mid-sentence] _________________________

text = 'loving #python today', expected = '#python'

    @pytest.mark.parametrize("text,expected", [
        ("#rust is fun", "#rust"),
        ("loving #python today", "#python"),
        ("no tags here", None),
    ], ids=["start", "mid-sentence", "none"])
    def test_first_tag(text, expected):
>       assert first_tag(text) == expected
E       AssertionError: assert None == '#python'
E        +  where None = first_tag('loving #python today')

tests/test_tags.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_tags.py::test_first_tag[mid-sentence] - AssertionError: assert None == '#python'
========================= 1 failed, 4 passed in 0.01s ==========================
"""), "AssertionError")

Q("q-rms-4", "ticketref", F, hdr("/builds/tools/ticketref", 10, plugins="cov-4.1.0") + """
tests/test_commits.py ......F...                                         [100%]

=================================== FAILURES ===================================
_______________________ test_ticket_in_trailing_parenthesis ____________________

    def test_ticket_in_trailing_parenthesis():
        c = Commit(sha="9f1c2e", message="Fix crash on empty cart (SHOP-481)")
>       assert linked_ticket(c) == "SHOP-481"

tests/test_commits.py:44: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

commit = Commit(sha='9f1c2e', message='Fix crash on empty cart (SHOP-481)')

    def linked_ticket(commit):
        m = TICKET.match(commit.message)
>       return m[0]
E       TypeError: 'NoneType' object is not subscriptable

src/ticketref/commits.py:17: TypeError
=========================== short test summary info ============================
FAILED tests/test_commits.py::test_ticket_in_trailing_parenthesis - TypeError: 'NoneType' object is not subscriptable
========================= 1 failed, 9 passed in 0.02s ==========================
""", "TypeError")
