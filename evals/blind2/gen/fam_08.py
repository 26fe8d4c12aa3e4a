from common import R, Q, hdr, colorize
F = "strip-charset-not-affix"

R("r-scp-1", "imgtools", F, hdr("/home/ci/imgtools", 9, plugins="cov-4.1.0") + """
tests/test_names.py ...F.....                                            [100%]

=================================== FAILURES ===================================
____________________________ test_stem_of_jpeg_file ____________________________

    def test_stem_of_jpeg_file():
>       assert thumb_name("recipe.jpeg") == "recipe_thumb.jpeg"
E       AssertionError: assert 'reci_thumb.jpeg' == 'recipe_thumb.jpeg'
E         - recipe_thumb.jpeg
E         ?     --
E         + reci_thumb.jpeg

tests/test_names.py:20: AssertionError
=========================== short test summary info ============================
FAILED tests/test_names.py::test_stem_of_jpeg_file - AssertionError: assert 'reci_thumb.jpeg' == 'recipe_thumb.jpeg'
========================= 1 failed, 8 passed in 0.02s ==========================
""", "AssertionError", ["src/imgtools/names.py"],
"thumb_name() removed the extension with name.rstrip('.jpeg'), but rstrip treats its argument as a set of characters, so trailing 'p' and 'e' of the stem were eaten too. Use str.removesuffix('.jpeg') (via os.path.splitext for other extensions).",
"pytest passed with exit code 0 (9 passed)",
"""--- a/src/imgtools/names.py
+++ b/src/imgtools/names.py
@@ -1,6 +1,8 @@
+import os.path
+
 THUMB_SUFFIX = "_thumb"
 
 
 def thumb_name(filename):
-    stem = filename.rstrip(".jpeg")
-    return f"{stem}{THUMB_SUFFIX}.jpeg"
+    stem, ext = os.path.splitext(filename)
+    return f"{stem}{THUMB_SUFFIX}{ext}"
""")

R("r-scp-2", "gitlog", F, hdr("/work/gitlog", 23, py="3.11.5", pytest="7.4.2", pluggy="1.3.0") + """
tests/test_refs.py .........F.............                               [100%]

=================================== FAILURES ===================================
__________________________ test_branch_name_from_ref ___________________________

    def test_branch_name_from_ref():
        ref = Ref.parse("3f2a9c1 refs/heads/feature-x")
>       assert ref.branch == "feature-x"
E       AssertionError: assert 'ture-x' == 'feature-x'
E         - feature-x
E         ? ---
E         + ture-x

tests/test_refs.py:77: AssertionError
=========================== short test summary info ============================
FAILED tests/test_refs.py::test_branch_name_from_ref - AssertionError: assert 'ture-x' == 'feature-x'
========================= 1 failed, 22 passed in 0.05s =========================
""", "AssertionError", ["src/gitlog/refs.py"],
"Ref.branch used name.lstrip('refs/heads/'), which strips any leading characters found in that string rather than the prefix, so 'feature-x' lost 'fea'. Replaced with name.removeprefix('refs/heads/').",
"pytest passed with exit code 0 (23 passed)",
"""--- a/src/gitlog/refs.py
+++ b/src/gitlog/refs.py
@@ -22,7 +22,7 @@ class Ref:
     @property
     def branch(self):
         if self.name.startswith(HEADS):
-            return self.name.lstrip(HEADS)
+            return self.name.removeprefix(HEADS)
         return None
""")

Q("q-scp-1", "s3sync", F, hdr("/home/dev/s3sync", 11, plugins="moto-4.2.0") + """
tests/test_listing.py ..F........                                        [100%]

=================================== FAILURES ===================================
______________________ test_relative_keys_under_prefix _________________________

bucket = <s3sync.testing.FakeBucket 'nightly'>

    def test_relative_keys_under_prefix(bucket):
        bucket.put("backups/bak-2024-01.tar", b"x")
        bucket.put("backups/users.db", b"y")
>       assert sorted(list_relative(bucket, "backups/")) == ["bak-2024-01.tar", "users.db"]
E       AssertionError: assert ['-2024-01.tar', 'ers.db'] == ['bak-2024-01.tar', 'users.db']
E         At index 0 diff: '-2024-01.tar' != 'bak-2024-01.tar'
E         Use -v to get more diff

tests/test_listing.py:29: AssertionError
=========================== short test summary info ============================
FAILED tests/test_listing.py::test_relative_keys_under_prefix - AssertionError: assert ['-2024-01.tar', 'ers.db'] == ['bak-2024-01.tar', '...
========================= 1 failed, 10 passed in 0.31s =========================
""", "AssertionError")

Q("q-scp-2", "envloader", F, """.E..
======================================================================
ERROR: test_export_lines (tests.test_dotenv.DotenvTests.test_export_lines)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/pat/envloader/tests/test_dotenv.py", line 18, in test_export_lines
    self.assertEqual(env["region"], "eu-west-1")
                     ~~~^^^^^^^^^^
KeyError: 'region'

----------------------------------------------------------------------
Ran 4 tests in 0.003s

FAILED (errors=1)
""", "KeyError")

Q("q-scp-3", "urlslug", F, colorize(hdr("/home/ci/urlslug", 6, verbose=True) + """
tests/test_canonical.py::test_canonical[faq] PASSED                      [ 16%]
tests/test_canonical.py::test_canonical[getting-started] FAILED          [ 33%]
tests/test_canonical.py::test_canonical[root] PASSED                     [ 50%]
tests/test_canonical.py::test_no_index_suffix PASSED                     [ 66%]
tests/test_canonical.py::test_query_dropped PASSED                       [ 83%]
tests/test_canonical.py::test_lowercase_host PASSED                      [100%]

=================================== FAILURES ===================================
_______________________ test_canonical[getting-started] ________________________

url = 'https://docs.example.com/docs/getting-started/index.html'
expected = 'https://docs.example.com/docs/getting-started'

    @pytest.mark.parametrize("url,expected", CASES, ids=["faq", "getting-started", "root"])
    def test_canonical(url, expected):
>       assert canonical(url) == expected
E       AssertionError: assert 'https://docs...getting-star' == 'https://docs...ting-started'
E         - https://docs.example.com/docs/getting-started
E         ?                                          ---
E         + https://docs.example.com/docs/getting-star

tests/test_canonical.py:15: AssertionError
=========================== short test summary info ============================
FAILED tests/test_canonical.py::test_canonical[getting-started] - AssertionError: assert 'https://docs...getting-star' == 'https://docs...
========================= 1 failed, 5 passed in 0.02s ==========================
"""), "AssertionError")

Q("q-scp-4", "pluginhost", F, hdr("/opt/pluginhost", 5) + """
tests/test_discover.py F....                                             [100%]

=================================== FAILURES ===================================
__________________________ test_loads_all_plugin_files _________________________

plugin_dir = PosixPath('/opt/pluginhost/tests/fixtures/plugins')

    def test_loads_all_plugin_files(plugin_dir):
>       loaded = discover(plugin_dir)

tests/test_discover.py:12: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/pluginhost/discover.py:19: in discover
    mods.append(importlib.import_module(f"plugins.{fn.rstrip('.py')}"))
/usr/local/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
<frozen importlib._bootstrap>:1204: in _gcd_import
    ???
<frozen importlib._bootstrap>:1176: in _find_and_load
    ???
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

name = 'plugins.ha', import_ = <function _gcd_import at 0x7f8a2c1a3d80>

>   ???
E   ModuleNotFoundError: No module named 'plugins.ha'

<frozen importlib._bootstrap>:1140: ModuleNotFoundError
=========================== short test summary info ============================
FAILED tests/test_discover.py::test_loads_all_plugin_files - ModuleNotFoundError: No module named 'plugins.ha'
========================= 1 failed, 4 passed in 0.06s ==========================
""", "ModuleNotFoundError")
