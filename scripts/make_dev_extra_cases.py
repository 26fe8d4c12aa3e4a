"""Write astra_memory/bench/cases/dev_extra.jsonl: hand-written development cases for the noise
real test suites add (ANSI colour from ``--color=yes``, FAILED lines cut at the terminal width,
parametrized ids, two different failures in one run, library frames, unittest output).

Written for development of the retrieval (issue 13), in bug families that are in neither the
shipped corpus nor the blind set, and not derived from the blind set. Run: ``python
scripts/make_dev_extra_cases.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "astra_memory" / "bench" / "cases" / "dev_extra.jsonl"
WIDTH = 80
ESC = "\x1b"


def rule(title: str, char: str = "=") -> str:
    side = max(3, (WIDTH - len(title) - 2) // 2)
    line = f"{char * side} {title} {char * side}"
    return line + char * (WIDTH - len(line)) if len(line) < WIDTH else line


def section(name: str, body: str) -> str:
    return rule(name, "_") + "\n\n" + body.rstrip("\n") + "\n"


def summary_line(kind: str, node: str, message: str) -> str:
    """pytest's short summary line, cut at the terminal width with '...' as pytest does."""
    line = f"{kind} {node} - {message}"
    if len(line) <= WIDTH:
        return line
    if len(f"{kind} {node}") + 3 >= WIDTH:
        return f"{kind} {node}"[: WIDTH - 3] + "..."
    return line[: WIDTH - 3] + "..."


def pytest_run(sections: list[tuple[str, str]], summary: list[tuple[str, str]], tail: str,
               progress: str = "F", color: bool = False) -> str:
    text = progress.ljust(WIDTH - 7) + "[100%]\n" + rule("FAILURES") + "\n"
    text += "".join(section(n, b) for n, b in sections)
    text += rule("short test summary info") + "\n"
    text += "\n".join(summary_line("FAILED", node, msg) for node, msg in summary) + "\n"
    text += rule(tail) + "\n"
    if not color:
        return text
    out = []
    for line in text.splitlines():
        if line.startswith("E "):
            line = f"{ESC}[1m{ESC}[31m{line}{ESC}[0m"
        elif line.startswith("FAILED"):
            line = f"{ESC}[31mFAILED{ESC}[0m" + line[6:]
        elif line.startswith(("_", "=")):
            line = f"{ESC}[31m{ESC}[1m{line}{ESC}[0m"
        elif line.lstrip().startswith("def "):
            line = line.replace("def ", f"{ESC}[94mdef{ESC}[39;49;00m ", 1)
        out.append(line)
    return "\n".join(out) + "\n"


def unittest_run(blocks: list[tuple[str, str, str]], ran: int, tally: str) -> str:
    sep, dash = "=" * 70, "-" * 70
    text = "F" * len(blocks) + "." * (ran - len(blocks)) + "\n"
    for head, where, body in blocks:
        text += f"{sep}\n{head} ({where})\n{dash}\nTraceback (most recent call last):\n{body.rstrip()}\n\n"
    return text + f"{dash}\nRan {ran} tests in 0.004s\n\nFAILED ({tally})\n"


def record(rid, project, family, failure, error_type, files, fix, diff, passed=4):
    return {"type": "record", "id": rid, "project": project, "family": family, "failure": failure,
            "error_type": error_type, "files": files, "fix": fix,
            "outcome": f"pytest passed with exit code 0 ({passed} passed)", "diff": diff}


def query(qid, project, family, failure, error_type, relevant):
    return {"type": "query", "id": qid, "project": project, "family": family, "failure": failure,
            "error_type": error_type, "relevant": relevant}


CASES: list[dict] = []

# -- trailing-newline: lines read from a file keep their "\n" -------------------------------------
CASES.append(record(
    "r-hostsfile-newline", "hostsfile", "trailing-newline",
    pytest_run([("test_reads_all_hosts", '''    def test_reads_all_hosts(tmp_path):
        path = tmp_path / "hosts.txt"
        path.write_text("alpha\\nbeta\\n")
>       assert read_hosts(path) == ["alpha", "beta"]
E       AssertionError: assert ['alpha\\n', 'beta\\n'] == ['alpha', 'beta']
E
E         At index 0 diff: 'alpha\\n' != 'alpha'
E         Use -v to get more diff

tests/test_hosts.py:9: AssertionError'''),
                ("test_lookup_by_name", '''    def test_lookup_by_name(tmp_path):
        path = tmp_path / "hosts.txt"
        path.write_text("alpha 10.0.0.1\\n")
>       assert address_of(path, "alpha") == "10.0.0.1"
E       AssertionError: assert '10.0.0.1\\n' == '10.0.0.1'
E
E         - 10.0.0.1
E         + 10.0.0.1
E         ?         +

tests/test_hosts.py:15: AssertionError''')],
               [("tests/test_hosts.py::test_reads_all_hosts", "AssertionError: assert ['alpha\\n', 'beta\\n'] == ['alpha', 'beta']"),
                ("tests/test_hosts.py::test_lookup_by_name", "AssertionError: assert '10.0.0.1\\n' == '10.0.0.1'")],
               "2 failed, 2 passed in 0.03s", "FF.."),
    "AssertionError", ["hostsfile/reader.py"],
    "read_hosts iterated over the open file, and each line kept its trailing newline, so names and "
    "addresses compared unequal to the same text without it. Strip the line ending (line.rstrip('\\n'), "
    "or read_text().splitlines()) before splitting a line into fields.",
    "--- a/hostsfile/reader.py\n+++ b/hostsfile/reader.py\n@@ -3,3 +3,3 @@ def read_hosts(path):\n"
    "     with open(path) as fh:\n-        return [line for line in fh]\n+        return [line.rstrip(\"\\n\") for line in fh]\n"))
CASES.append(record(
    "r-portmap-newline", "portmap", "trailing-newline",
    pytest_run([("test_port_from_file", '''    def test_port_from_file(tmp_path):
        (tmp_path / "port").write_text("8443\\n")
>       assert load_port(tmp_path / "port") == 8443

tests/test_ports.py:6:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

path = PosixPath('/tmp/pytest-of-ci/pytest-3/test_port_from_file0/port')

    def load_port(path):
        raw = path.open().readline()
>       return PORTS[raw]
E       KeyError: '8443\\n'

src/portmap/config.py:14: KeyError''')],
               [("tests/test_ports.py::test_port_from_file", "KeyError: '8443\\n'")],
               "1 failed, 3 passed in 0.02s", "F..."),
    "KeyError", ["src/portmap/config.py"],
    "load_port looked the raw line from readline() up in PORTS, newline included, so '8443\\n' was "
    "never a key. Strip the line ending from what is read from a file before using it as a key or a number.",
    "--- a/src/portmap/config.py\n+++ b/src/portmap/config.py\n@@ -12,3 +12,3 @@ def load_port(path):\n"
    "     raw = path.open().readline()\n-    return PORTS[raw]\n+    return PORTS[raw.strip()]\n"))
CASES.append(query(
    "q-allowlist-newline", "mailgate", "trailing-newline",
    pytest_run([("test_sender_is_allowed[ops@example.org]", '''sender = 'ops@example.org'

    @pytest.mark.parametrize("sender", ["ops@example.org", "ci@example.org"])
    def test_sender_is_allowed(sender, allowlist_file):
>       assert is_allowed(sender, allowlist_file)
E       AssertionError: assert False
E        +  where False = is_allowed('ops@example.org', PosixPath('/tmp/pytest-of-ci/allow.txt'))

tests/test_allowlist.py:11: AssertionError'''),
                ("test_sender_is_allowed[ci@example.org]", '''sender = 'ci@example.org'

    @pytest.mark.parametrize("sender", ["ops@example.org", "ci@example.org"])
    def test_sender_is_allowed(sender, allowlist_file):
>       assert is_allowed(sender, allowlist_file)
E       AssertionError: assert False
E        +  where False = is_allowed('ci@example.org', PosixPath('/tmp/pytest-of-ci/allow.txt'))

tests/test_allowlist.py:11: AssertionError''')],
               [("tests/test_allowlist.py::test_sender_is_allowed[ops@example.org]", "AssertionError: assert False"),
                ("tests/test_allowlist.py::test_sender_is_allowed[ci@example.org]", "AssertionError: assert False")],
               "2 failed, 1 passed in 0.02s", "FF.", color=True),
    "AssertionError", ["r-hostsfile-newline", "r-portmap-newline"]))
CASES.append(query(
    "q-shardmap-newline", "shardmap", "trailing-newline",
    unittest_run([("ERROR: test_shard_for_known_tenant", "shardmap.tests.test_router.RouterTest.test_shard_for_known_tenant",
                   '''  File "/home/ci/shardmap/shardmap/tests/test_router.py", line 18, in test_shard_for_known_tenant
    self.assertEqual(shard_for("acme"), 3)
                     ^^^^^^^^^^^^^^^^^
  File "/home/ci/shardmap/shardmap/router.py", line 22, in shard_for
    return int(TABLE[tenant])
               ~~~~~^^^^^^^^
KeyError: 'acme'
'''), ("FAIL: test_tenants_listed", "shardmap.tests.test_router.RouterTest.test_tenants_listed",
       '''  File "/home/ci/shardmap/shardmap/tests/test_router.py", line 24, in test_tenants_listed
    self.assertEqual(tenants(), ["acme", "globex"])
AssertionError: Lists differ: ['acme\\n', 'globex\\n'] != ['acme', 'globex']

First differing element 0:
'acme\\n'
'acme'
''')], 4, "failures=1, errors=1"),
    "KeyError", ["r-hostsfile-newline", "r-portmap-newline"]))

# -- str-int-compare: numbers read from config/env stay strings ------------------------------------
CASES.append(record(
    "r-retrylimit-strint", "retrylimit", "str-int-compare",
    pytest_run([("test_retries_stop_at_limit", '''monkeypatch = <_pytest.monkeypatch.MonkeyPatch object at 0x7f3a>

    def test_retries_stop_at_limit(monkeypatch):
        monkeypatch.setenv("RETRY_LIMIT", "3")
>       assert should_retry(attempt=5) is False

tests/test_retry.py:8:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

attempt = 5

    def should_retry(attempt):
        limit = os.environ.get("RETRY_LIMIT", 5)
>       return attempt < limit
E       TypeError: '<' not supported between instances of 'int' and 'str'

retrylimit/policy.py:9: TypeError''')],
               [("tests/test_retry.py::test_retries_stop_at_limit", "TypeError: '<' not supported between instances of 'int' and 'str'")],
               "1 failed, 2 passed in 0.02s", "F.."),
    "TypeError", ["retrylimit/policy.py"],
    "Environment variables are always strings, so the limit read from RETRY_LIMIT was '3' and comparing "
    "it with an int attempt raised TypeError. Convert the setting with int() where it is read, with the "
    "default given as an int too.",
    "--- a/retrylimit/policy.py\n+++ b/retrylimit/policy.py\n@@ -7,3 +7,3 @@ def should_retry(attempt):\n"
    "-    limit = os.environ.get(\"RETRY_LIMIT\", 5)\n+    limit = int(os.environ.get(\"RETRY_LIMIT\", \"5\"))\n"
    "     return attempt < limit\n"))
CASES.append(record(
    "r-pagesize-strint", "pagesize", "str-int-compare",
    pytest_run([("test_page_size_from_query", '''    def test_page_size_from_query(client):
        resp = client.get("/items?size=20")
>       assert resp.json["size"] == 20
E       AssertionError: assert '20' == 20

tests/test_api.py:12: AssertionError'''),
                ("test_page_is_capped", '''    def test_page_is_capped(client):
        resp = client.get("/items?size=500")
>       assert len(resp.json["items"]) == 100
E       AssertionError: assert 500 == 100
E        +  where 500 = len([{'id': 1}, {'id': 2}, {'id': 3}, {'id': 4}, {'id': 5}, {'id': 6}, ...])

tests/test_api.py:17: AssertionError''')],
               [("tests/test_api.py::test_page_size_from_query", "AssertionError: assert '20' == 20"),
                ("tests/test_api.py::test_page_is_capped", "AssertionError: assert 500 == 100")],
               "2 failed, 5 passed in 0.11s", "FF....."),
    "AssertionError", ["pagesize/views.py"],
    "The page size came from the query string as text, so the cap check compared '500' with 100 as "
    "strings and never applied, and the echoed size was a string. Parse query parameters with int() "
    "(rejecting bad values) before comparing or returning them.",
    "--- a/pagesize/views.py\n+++ b/pagesize/views.py\n@@ -20,4 +20,4 @@ def list_items(request):\n"
    "-    size = request.args.get(\"size\", 20)\n+    size = int(request.args.get(\"size\", 20))\n"
    "     size = min(size, MAX_PAGE)\n"))
CASES.append(query(
    "q-quota-strint", "quotaguard", "str-int-compare",
    pytest_run([("TestQuota.test_over_quota_is_rejected", '''self = <tests.test_quota.TestQuota object at 0x7f10>

    def test_over_quota_is_rejected(self, settings):
        settings["MAX_UPLOAD_MB"] = "50"
>       assert not accepts(upload_mb=120, settings=settings)

tests/test_quota.py:21:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/quotaguard/limits.py:31: in accepts
    return upload_mb <= settings["MAX_UPLOAD_MB"]
E   TypeError: '<=' not supported between instances of 'int' and 'str'
'''), ("TestQuota.test_quota_reported", '''self = <tests.test_quota.TestQuota object at 0x7f11>

    def test_quota_reported(self, settings):
        settings["MAX_UPLOAD_MB"] = "50"
>       assert quota_header(settings) == {"X-Quota-MB": 50}
E       AssertionError: assert {'X-Quota-MB': '50'} == {'X-Quota-MB': 50}
E
E         Differing items:
E         {'X-Quota-MB': '50'} != {'X-Quota-MB': 50}
E         Use -v to get more diff

tests/test_quota.py:27: AssertionError''')],
               [("tests/test_quota.py::TestQuota::test_over_quota_is_rejected", "TypeError: '<=' not supported between instances of 'int' and 'str'"),
                ("tests/test_quota.py::TestQuota::test_quota_reported", "AssertionError: assert {'X-Quota-MB': '50'} == {'X-Quota-MB': 50}")],
               "2 failed, 4 passed in 0.05s", "FF...."),
    "TypeError", ["r-retrylimit-strint", "r-pagesize-strint"]))
CASES.append(query(
    "q-workers-strint", "batchpool", "str-int-compare",
    unittest_run([("FAIL: test_worker_count_from_env", "batchpool.tests.test_pool.PoolTest.test_worker_count_from_env",
                   '''  File "C:\\\\ci\\\\batchpool\\\\batchpool\\\\tests\\\\test_pool.py", line 14, in test_worker_count_from_env
    self.assertEqual(pool_size(), 8)
AssertionError: '8' != 8
''')], 3, "failures=1"),
    "AssertionError", ["r-retrylimit-strint", "r-pagesize-strint"]))

# -- missing-return: a helper computes the value and never returns it ------------------------------
CASES.append(record(
    "r-normalize-noreturn", "tagnorm", "missing-return",
    pytest_run([("test_normalises_tags", '''    def test_normalises_tags():
>       assert normalise(["B", "a"]) == ["a", "b"]
E       AssertionError: assert None == ['a', 'b']
E        +  where None = normalise(['B', 'a'])

tests/test_tags.py:4: AssertionError''')],
               [("tests/test_tags.py::test_normalises_tags", "AssertionError: assert None == ['a', 'b']")],
               "1 failed, 1 passed in 0.01s", "F."),
    "AssertionError", ["tagnorm/tags.py"],
    "normalise sorted and lower-cased the tags into a local list but had no return statement, so every "
    "caller got None. Return the built list at the end of the function.",
    "--- a/tagnorm/tags.py\n+++ b/tagnorm/tags.py\n@@ -4,3 +4,4 @@ def normalise(tags):\n"
    "     result = sorted(t.lower() for t in tags)\n+    return result\n"))
CASES.append(record(
    "r-merge-noreturn", "cfgmerge", "missing-return",
    pytest_run([("test_override_wins", '''    def test_override_wins():
        merged = merge({"a": 1}, {"a": 2})
>       assert merged.get("a") == 2
E       AttributeError: 'NoneType' object has no attribute 'get'

tests/test_merge.py:6: AttributeError''')],
               [("tests/test_merge.py::test_override_wins", "AttributeError: 'NoneType' object has no attribute 'get'")],
               "1 failed, 3 passed in 0.01s", "F..."),
    "AttributeError", ["cfgmerge/merge.py"],
    "merge updated a copy of the base mapping with the overrides and then fell off the end of the "
    "function, returning None; callers then failed on None.get. Return the merged copy.",
    "--- a/cfgmerge/merge.py\n+++ b/cfgmerge/merge.py\n@@ -2,4 +2,5 @@ def merge(base, override):\n"
    "     out = dict(base)\n     out.update(override)\n+    return out\n"))
CASES.append(query(
    "q-invoice-noreturn", "invoicer", "missing-return",
    pytest_run([("test_totals_are_summed", '''    def test_totals_are_summed():
        lines = [Line("pen", 2, 150), Line("pad", 1, 300)]
>       assert build_totals(lines)["net"] == 600
E       TypeError: 'NoneType' object is not subscriptable

tests/test_invoice.py:9: TypeError'''), ("test_totals_with_tax_for_a_long_descriptive_case_name", '''    def test_totals_with_tax_for_a_long_descriptive_case_name():
>       assert build_totals([Line("pen", 1, 100)], tax=0.2) == {"net": 100, "tax": 20}
E       AssertionError: assert None == {'net': 100, 'tax': 20}
E        +  where None = build_totals([Line(name='pen', qty=1, cents=100)], tax=0.2)

tests/test_invoice.py:14: AssertionError''')],
               [("tests/test_invoice.py::test_totals_are_summed", "TypeError: 'NoneType' object is not subscriptable"),
                ("tests/test_invoice.py::test_totals_with_tax_for_a_long_descriptive_case_name", "AssertionError: assert None == {'net': 100, 'tax': 20}")],
               "2 failed in 0.02s", "FF", color=True),
    "TypeError", ["r-normalize-noreturn", "r-merge-noreturn"]))
CASES.append(query(
    "q-slugs-noreturn", "slugger", "missing-return",
    pytest_run([("test_slug_of_title", '''    def test_slug_of_title():
>       assert make_slug("Hello World").startswith("hello")
E       AttributeError: 'NoneType' object has no attribute 'startswith'

tests/test_slug.py:5: AttributeError''')],
               [("tests/test_slug.py::test_slug_of_title", "AttributeError: 'NoneType' object has no attribute 'startswith'")],
               "1 failed, 2 passed in 0.01s", "F.."),
    "AttributeError", ["r-normalize-noreturn", "r-merge-noreturn"]))

# -- enum-member-vs-value: an Enum member compared with (or used as a key for) its value -----------
CASES.append(record(
    "r-orderstatus-enum", "orderflow", "enum-member-vs-value",
    pytest_run([("test_status_serialised", '''    def test_status_serialised():
>       assert to_json(Order(1, Status.SHIPPED))["status"] == "shipped"
E       AssertionError: assert <Status.SHIPPED: 'shipped'> == 'shipped'

tests/test_orders.py:7: AssertionError''')],
               [("tests/test_orders.py::test_status_serialised", "AssertionError: assert <Status.SHIPPED: 'shipped'> == 'shipped'")],
               "1 failed, 4 passed in 0.02s", "F...."),
    "AssertionError", ["orderflow/serialise.py"],
    "to_json put the Status enum member itself into the payload, and an Enum member is not equal to its "
    "string value. Serialise the member's .value (and look members up with Status(value) on the way in).",
    "--- a/orderflow/serialise.py\n+++ b/orderflow/serialise.py\n@@ -5,3 +5,3 @@ def to_json(order):\n"
    "-    return {\"id\": order.id, \"status\": order.status}\n+    return {\"id\": order.id, \"status\": order.status.value}\n"))
CASES.append(record(
    "r-levels-enum", "loglevels", "enum-member-vs-value",
    pytest_run([("test_colour_for_level", '''    def test_colour_for_level():
>       assert colour_for("warning") == "yellow"

tests/test_colours.py:4:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

level = 'warning'

    def colour_for(level):
>       return COLOURS[level]
E       KeyError: 'warning'

loglevels/theme.py:12: KeyError''')],
               [("tests/test_colours.py::test_colour_for_level", "KeyError: 'warning'")],
               "1 failed, 1 passed in 0.01s", "F."),
    "KeyError", ["loglevels/theme.py"],
    "COLOURS is keyed by Level enum members, and callers pass the level's string value, which is never "
    "equal to a member, so the lookup missed. Convert the value with Level(level) before the lookup.",
    "--- a/loglevels/theme.py\n+++ b/loglevels/theme.py\n@@ -11,2 +11,2 @@ def colour_for(level):\n"
    "-    return COLOURS[level]\n+    return COLOURS[Level(level)]\n"))
CASES.append(query(
    "q-roles-enum", "rbac", "enum-member-vs-value",
    pytest_run([("test_admin_can_delete[admin]", '''role = 'admin'

    @pytest.mark.parametrize("role", ["admin", "owner"])
    def test_admin_can_delete(role):
>       assert can("delete", role)

tests/test_perms.py:9:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/rbac/policy.py:18: in can
    return action in GRANTS[role]
E   KeyError: 'admin'
''')],
               [("tests/test_perms.py::test_admin_can_delete[admin]", "KeyError: 'admin'")],
               "1 failed, 1 passed in 0.02s", "F."),
    "KeyError", ["r-orderstatus-enum", "r-levels-enum"]))
CASES.append(query(
    "q-shipping-enum", "parcels", "enum-member-vs-value",
    unittest_run([("FAIL: test_carrier_code", "parcels.tests.test_labels.LabelTest.test_carrier_code",
                   '''  File "/srv/parcels/parcels/tests/test_labels.py", line 12, in test_carrier_code
    self.assertEqual(label(parcel)["carrier"], "dhl")
AssertionError: <Carrier.DHL: 'dhl'> != 'dhl'
''')], 5, "failures=1"),
    "AssertionError", ["r-orderstatus-enum", "r-levels-enum"]))

# -- recursion-no-base-case: a recursive helper misses the case that ends it -----------------------
CASES.append(record(
    "r-flatten-recursion", "nestlist", "recursion-no-base-case",
    pytest_run([("test_flatten_strings", '''    def test_flatten_strings():
>       assert flatten(["ab", ["c"]]) == ["ab", "c"]

tests/test_flatten.py:4:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
nestlist/core.py:6: in flatten
    out.extend(flatten(item))
nestlist/core.py:6: in flatten
    out.extend(flatten(item))
E   RecursionError: maximum recursion depth exceeded
!!! Recursion detected (same locals & position)
''')],
               [("tests/test_flatten.py::test_flatten_strings", "RecursionError: maximum recursion depth exceeded")],
               "1 failed, 2 passed in 0.08s", "F.."),
    "RecursionError", ["nestlist/core.py"],
    "flatten recursed into every iterable, and a one-character string is an iterable of itself, so it "
    "never reached a leaf. Treat str (and bytes) as leaves: the base case must come before the recursion.",
    "--- a/nestlist/core.py\n+++ b/nestlist/core.py\n@@ -3,4 +3,4 @@ def flatten(items):\n"
    "     for item in items:\n-        if isinstance(item, Iterable):\n+        if isinstance(item, Iterable) and not isinstance(item, (str, bytes)):\n"))
CASES.append(record(
    "r-depth-recursion", "treeutil", "recursion-no-base-case",
    pytest_run([("test_depth_of_leaf", '''    def test_depth_of_leaf():
>       assert depth(Node("x")) == 1

tests/test_tree.py:5:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

node = Node(name='x', children=[])

    def depth(node):
>       return 1 + max(depth(c) for c in node.children)
E       ValueError: max() arg is an empty sequence

treeutil/walk.py:4: ValueError''')],
               [("tests/test_tree.py::test_depth_of_leaf", "ValueError: max() arg is an empty sequence")],
               "1 failed, 3 passed in 0.01s", "F..."),
    "ValueError", ["treeutil/walk.py"],
    "depth had no base case for a node without children, so max() got an empty sequence at every leaf. "
    "Return 1 for a leaf before recursing (or max(..., default=0)).",
    "--- a/treeutil/walk.py\n+++ b/treeutil/walk.py\n@@ -3,2 +3,4 @@ def depth(node):\n"
    "+    if not node.children:\n+        return 1\n     return 1 + max(depth(c) for c in node.children)\n"))
CASES.append(query(
    "q-sizes-recursion", "diskusage", "recursion-no-base-case",
    pytest_run([("test_size_of_empty_folder", '''tmp_path = PosixPath('/tmp/pytest-of-ci/pytest-9/test_size_of_empty_folder0')

    def test_size_of_empty_folder(tmp_path):
>       assert total_size(Folder(tmp_path, [])) == 0

tests/test_usage.py:8:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/diskusage/sizes.py:11: in total_size
    biggest = max(total_size(f) for f in folder.children)
E   ValueError: max() arg is an empty sequence
'''), ("test_nested_sizes", '''    def test_nested_sizes(tree):
>       assert total_size(tree) == 4096

tests/test_usage.py:13:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/diskusage/sizes.py:11: in total_size
    biggest = max(total_size(f) for f in folder.children)
src/diskusage/sizes.py:11: in total_size
    biggest = max(total_size(f) for f in folder.children)
E   ValueError: max() arg is an empty sequence
''')],
               [("tests/test_usage.py::test_size_of_empty_folder", "ValueError: max() arg is an empty sequence"),
                ("tests/test_usage.py::test_nested_sizes", "ValueError: max() arg is an empty sequence")],
               "2 failed, 1 passed in 0.02s", "FF.", color=True),
    "ValueError", ["r-flatten-recursion", "r-depth-recursion"]))
CASES.append(query(
    "q-menu-recursion", "menutree", "recursion-no-base-case",
    pytest_run([("test_render_menu_with_labels_that_are_plain_strings_only", '''    def test_render_menu_with_labels_that_are_plain_strings_only():
>       assert render(["File", ["Open", "Save"]]) == "File\\n  Open\\n  Save"

tests/test_menu.py:6:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
menutree/render.py:9: in render
    return "\\n".join(render(child, depth + 1) for child in entry)
menutree/render.py:9: in render
    return "\\n".join(render(child, depth + 1) for child in entry)
E   RecursionError: maximum recursion depth exceeded while calling a Python object
!!! Recursion detected (same locals & position)
''')],
               [("tests/test_menu.py::test_render_menu_with_labels_that_are_plain_strings_only",
                 "RecursionError: maximum recursion depth exceeded while calling a Python object")],
               "1 failed in 0.09s", "F"),
    "RecursionError", ["r-flatten-recursion", "r-depth-recursion"]))

# -- distractors: the same surface, another cause ---------------------------------------------------
CASES.append(record(
    "r-typo-key", "metricsd", "typo-in-key-constant",
    pytest_run([("test_host_label", '''    def test_host_label():
>       assert labels({"hostname": "web1"})["host"] == "web1"

tests/test_labels.py:4:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
metricsd/labels.py:7: in labels
    return {"host": tags[HOST_KEY]}
E   KeyError: 'host_name'
''')],
               [("tests/test_labels.py::test_host_label", "KeyError: 'host_name'")],
               "1 failed, 2 passed in 0.01s", "F.."),
    "KeyError", ["metricsd/labels.py"],
    "The HOST_KEY constant was spelled 'host_name' while the agent sends 'hostname'. Fix the constant.",
    "--- a/metricsd/labels.py\n+++ b/metricsd/labels.py\n@@ -1,1 +1,1 @@\n-HOST_KEY = \"host_name\"\n+HOST_KEY = \"hostname\"\n"))
CASES.append(record(
    "r-optional-env", "mailer", "unset-optional-setting",
    pytest_run([("test_sender_domain", '''    def test_sender_domain(monkeypatch):
        monkeypatch.delenv("MAIL_FROM", raising=False)
>       assert sender_domain() == "example.org"

tests/test_mail.py:6:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
mailer/config.py:5: in sender_domain
    return os.environ.get("MAIL_FROM").split("@")[1]
E   AttributeError: 'NoneType' object has no attribute 'split'
''')],
               [("tests/test_mail.py::test_sender_domain", "AttributeError: 'NoneType' object has no attribute 'split'")],
               "1 failed, 1 passed in 0.01s", "F."),
    "AttributeError", ["mailer/config.py"],
    "When MAIL_FROM is unset, os.environ.get returns None and the code split it anyway. Fall back to the "
    "default sender address when the setting is missing.",
    "--- a/mailer/config.py\n+++ b/mailer/config.py\n@@ -4,2 +4,2 @@ def sender_domain():\n"
    "-    return os.environ.get(\"MAIL_FROM\").split(\"@\")[1]\n+    return os.environ.get(\"MAIL_FROM\", DEFAULT_FROM).split(\"@\")[1]\n"))
CASES.append(record(
    "r-cycle-recursion", "depgraph", "cycle-without-visited-set",
    pytest_run([("test_order_with_cycle_is_reported", '''    def test_order_with_cycle_is_reported():
        with pytest.raises(CycleError):
>           install_order({"a": ["b"], "b": ["a"]})

tests/test_graph.py:6:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
depgraph/order.py:9: in visit
    visit(dep)
depgraph/order.py:9: in visit
    visit(dep)
E   RecursionError: maximum recursion depth exceeded
!!! Recursion detected (same locals & position)
''')],
               [("tests/test_graph.py::test_order_with_cycle_is_reported", "RecursionError: maximum recursion depth exceeded")],
               "1 failed, 3 passed in 0.07s", "F..."),
    "RecursionError", ["depgraph/order.py"],
    "The depth-first walk kept no set of nodes in progress, so a dependency cycle recursed forever. Track "
    "the nodes on the current path and raise CycleError when one is met again.",
    "--- a/depgraph/order.py\n+++ b/depgraph/order.py\n@@ -6,3 +6,6 @@ def install_order(graph):\n"
    "     def visit(node):\n+        if node in active:\n+            raise CycleError(node)\n+        active.add(node)\n"))


def main() -> None:
    OUT.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in CASES), encoding="utf-8")
    print(f"wrote {OUT} ({sum(c['type'] == 'record' for c in CASES)} records, "
          f"{sum(c['type'] == 'query' for c in CASES)} queries)")


if __name__ == "__main__":
    main()
