from _fmt import record, query, unified

# ---------------------------------------------------------------------------
# Family: shallow-copy-aliasing
# dict.copy()/copy.copy()/list(...) copies only the outer container; nested
# lists/dicts stay shared, so mutating the "copy" mutates the original.
# ---------------------------------------------------------------------------

record(
    "r-scp-formwizard", "formwizard", "shallow-copy-aliasing",
    r"""
==[test session starts]
platform linux -- Python 3.11.5, pytest-7.4.2, pluggy-1.3.0
rootdir: /home/ci/formwizard
configfile: pyproject.toml
collected 22 items

%%tests/test_schema.py .....F..... [ 50%]
%%tests/test_render.py ..........F [100%]

==[FAILURES]
__[test_new_schema_has_default_fields]

    def test_new_schema_has_default_fields():
        build_schema(extra_fields=[Field("nickname", "text")])
        schema = build_schema()
>       assert [f.name for f in schema["fields"]] == ["name", "email", "consent"]
E       AssertionError: assert ['name', 'email', 'consent', 'nickname'] == ['name', 'email', 'consent']
E         Left contains one more item: 'nickname'
E         Full diff:
E         - ['name', 'email', 'consent']
E         + ['name', 'email', 'consent', 'nickname']
E         ?                            ++++++++++++

tests/test_schema.py:48: AssertionError
__[test_render_default_form]

    def test_render_default_form():
        html = render_form(build_schema())
>       assert html.count("<input") == 3
E       AssertionError: assert 4 == 3
E        +  where 4 = <built-in method count of str object at 0x7f2b5c8d3e30>('<input')
E        +    where <built-in method count of str object at 0x7f2b5c8d3e30> = '<form method="post"><input name="name" type="text"><input name="email" type="email"><input name="consent" type="checkbox"><input name="nickname" type="text"></form>'.count

tests/test_render.py:77: AssertionError
==[short test summary info]
FAILED tests/test_schema.py::test_new_schema_has_default_fields - AssertionError: assert ['name', 'email', 'consent', 'nickname'] == ['name', 'email', 'consent']
FAILED tests/test_render.py::test_render_default_form - AssertionError: assert 4 == 3
==[2 failed, 20 passed in 0.14s]
""",
    "AssertionError",
    ["src/formwizard/schema.py"],
    """build_schema() started from DEFAULT_SCHEMA.copy(), which is a shallow copy, so
    schema["fields"] was the very list object held by the module-level default and
    appending extra fields permanently added them to every later schema. Replaced
    the shallow copy with copy.deepcopy(DEFAULT_SCHEMA).""",
    "pytest passed with exit code 0 (22 passed)",
    unified("src/formwizard/schema.py", """
import copy

from .fields import Field

DEFAULT_SCHEMA = {
    "method": "post",
    "fields": [Field("name", "text"), Field("email", "email"), Field("consent", "checkbox")],
}


def build_schema(extra_fields=()):
    schema = DEFAULT_SCHEMA.copy()
    schema["fields"].extend(extra_fields)
    return schema
""", """
import copy

from .fields import Field

DEFAULT_SCHEMA = {
    "method": "post",
    "fields": [Field("name", "text"), Field("email", "email"), Field("consent", "checkbox")],
}


def build_schema(extra_fields=()):
    schema = copy.deepcopy(DEFAULT_SCHEMA)
    schema["fields"].extend(extra_fields)
    return schema
"""),
)

record(
    "r-scp-gamestate", "gamestate", "shallow-copy-aliasing",
    r"""
..F......
======================================================================
FAIL: test_undo_restores_previous_board (tests.test_history.HistoryTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/kit/gamestate/tests/test_history.py", line 27, in test_undo_restores_previous_board
    self.assertEqual(game.board.grid[1][1], ".")
AssertionError: 'X' != '.'
- X
+ .


----------------------------------------------------------------------
Ran 9 tests in 0.002s

FAILED (failures=1)
""",
    "AssertionError",
    ["gamestate/history.py"],
    """History.snapshot() stored list(board.grid), which copies only the outer list of
    rows; the row lists were still shared with the live board, so later moves also
    changed the saved snapshot and undo() restored the already-modified grid.
    Snapshots now copy each row ([row[:] for row in grid]).""",
    "python -m unittest passed with exit code 0 (Ran 9 tests, OK)",
    unified("gamestate/history.py", """
class History:
    def __init__(self):
        self._stack = []

    def snapshot(self, board):
        self._stack.append(list(board.grid))

    def undo(self, board):
        board.grid = self._stack.pop()
""", """
class History:
    def __init__(self):
        self._stack = []

    def snapshot(self, board):
        self._stack.append([row[:] for row in board.grid])

    def undo(self, board):
        board.grid = self._stack.pop()
""", start=4),
)

record(
    "r-scp-manifestgen", "k8s-manifest-gen", "shallow-copy-aliasing",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/k8s-manifest-gen/k8s-manifest-gen
configfile: pyproject.toml
plugins: snapshot-0.9.0
collected 35 items

%%tests/test_overlays.py ...F............ [ 45%]
%%tests/test_cli.py ................... [100%]

==[FAILURES]
__[test_staging_and_prod_labels_are_independent]

base = {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'labels': {'app': 'checkout'}, 'name': 'checkout'}, 'spec': {...}}

    def test_staging_and_prod_labels_are_independent(base):
        staging = render_overlay(base, env="staging")
        prod = render_overlay(base, env="prod")
>       assert staging["metadata"]["labels"]["env"] == "staging"
E       AssertionError: assert 'prod' == 'staging'
E         - staging
E         + prod

tests/test_overlays.py:63: AssertionError
==[short test summary info]
FAILED tests/test_overlays.py::test_staging_and_prod_labels_are_independent - AssertionError: assert 'prod' == 'staging'
==[1 failed, 34 passed in 0.72s]
""",
    "AssertionError",
    ["src/manifestgen/overlay.py"],
    """render_overlay() did copy.copy(base) and then set
    doc["metadata"]["labels"]["env"]; the shallow copy shares the nested metadata
    dict, so every overlay wrote into the same labels dict and the last environment
    rendered won. Switched to copy.deepcopy(base) so each overlay owns its nested
    structure.""",
    "pytest passed with exit code 0 (35 passed)",
    unified("src/manifestgen/overlay.py", """
def render_overlay(base: dict, env: str) -> dict:
    doc = copy.copy(base)
    doc["metadata"]["labels"]["env"] = env
    doc["metadata"]["name"] = f"{base['metadata']['name']}-{env}"
    return doc
""", """
def render_overlay(base: dict, env: str) -> dict:
    doc = copy.deepcopy(base)
    doc["metadata"]["labels"]["env"] = env
    doc["metadata"]["name"] = f"{base['metadata']['name']}-{env}"
    return doc
""", start=18),
)

SCP = ["r-scp-formwizard", "r-scp-gamestate", "r-scp-manifestgen"]

query(
    "q-scp-quotebuilder", "quotebuilder", "shallow-copy-aliasing",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.2.0, pluggy-1.5.0
rootdir: /srv/app
configfile: pytest.ini
collected 47 items

%%tests/test_quotes.py ......F................. [ 51%]
%%tests/test_pdf.py ....................... [100%]

==[FAILURES]
__[test_second_quote_starts_from_clean_template]

catalog = Catalog(items=12)

    def test_second_quote_starts_from_clean_template(catalog):
        q1 = new_quote(customer="Harbor Dental")
        q1.add_line(catalog["chair-basic"], qty=2)
        q1.add_line(catalog["lamp-led"], qty=2)
        q2 = new_quote(customer="Northside Vet")
>       assert len(q2.lines) == 0
E       AssertionError: assert 2 == 0
E        +  where 2 = len([QuoteLine(sku='chair-basic', qty=2), QuoteLine(sku='lamp-led', qty=2)])
E        +    where [QuoteLine(sku='chair-basic', qty=2), QuoteLine(sku='lamp-led', qty=2)] = Quote(customer='Northside Vet', currency='EUR', lines=[QuoteLine(sku='chair-basic', qty=2), QuoteLine(sku='lamp-led', qty=2)]).lines

tests/test_quotes.py:88: AssertionError
==[short test summary info]
FAILED tests/test_quotes.py::test_second_quote_starts_from_clean_template - AssertionError: assert 2 == 0
==[1 failed, 46 passed in 0.92s]
""",
    "AssertionError", SCP,
)

query(
    "q-scp-matrixlab", "matrixlab", "shallow-copy-aliasing",
    r"""
==[test session starts]
platform darwin -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /Users/jo/dev/matrixlab
collected 30 items

%%tests/test_ops.py .........F.................... [100%]

==[FAILURES]
__[test_scaled_copy_leaves_original_untouched]

    def test_scaled_copy_leaves_original_untouched():
        m = Matrix([[1, 2], [3, 4]])
        s = m.copy()
        s.scale_row(0, 9)
>       assert m.rows == [[1, 2], [3, 4]]
E       assert [[9, 18], [3, 4]] == [[1, 2], [3, 4]]
E         At index 0 diff: [9, 18] != [1, 2]
E         Full diff:
E         - [[1, 2], [3, 4]]
E         ?   ^  ^
E         + [[9, 18], [3, 4]]
E         ?   ^  ^^

tests/test_ops.py:102: AssertionError
==[short test summary info]
FAILED tests/test_ops.py::test_scaled_copy_leaves_original_untouched - assert [[9, 18], [3, 4]] == [[1, 2], [3, 4]]
==[1 failed, 29 passed in 0.05s]
""",
    "AssertionError", SCP,
)

query(
    "q-scp-configlayers", "configlayers", "shallow-copy-aliasing",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/build/configlayers
configfile: setup.cfg
collected 19 items

%%tests/test_merge.py ..F.F.......... [ 78%]
%%tests/test_env.py .... [100%]

==[FAILURES]
__[test_defaults_unchanged_after_merge]

    def test_defaults_unchanged_after_merge():
        merge_layers(DEFAULTS, {"db": {"host": "prod-db"}})
>       assert DEFAULTS == {"db": {"host": "localhost", "port": 5432}, "debug": False}
E       AssertionError: assert {'db': {'host': 'prod-db', 'port': 5432}, 'debug': False} == {'db': {'host': 'localhost', 'port': 5432}, 'debug': False}
E         Common items:
E         {'debug': False}
E         Differing items:
E         {'db': {'host': 'prod-db', 'port': 5432}} != {'db': {'host': 'localhost', 'port': 5432}}
E         Use -v to get more diff

tests/test_merge.py:30: AssertionError
__[test_two_profiles_do_not_bleed]

    def test_two_profiles_do_not_bleed():
        a = merge_layers(DEFAULTS, {"db": {"port": 6543}})
        b = merge_layers(DEFAULTS, {"debug": True})
>       assert b["db"]["port"] == 5432
E       assert 6543 == 5432

tests/test_merge.py:44: AssertionError
==[short test summary info]
!!FAILED tests/test_merge.py::test_defaults_unchanged_after_merge - AssertionError: assert {'db': {'host': 'prod-db', 'port': 5432}, 'debug': False} == {'d...
FAILED tests/test_merge.py::test_two_profiles_do_not_bleed - assert 6543 == 5432
==[2 failed, 17 passed in 0.03s]
""",
    "AssertionError", SCP, color=True,
)

query(
    "q-scp-npc-spawner", "npc-spawner", "shallow-copy-aliasing",
    r"""
.E...
======================================================================
ERROR: test_each_npc_gets_its_own_potion (tests.test_spawn.SpawnTest.test_each_npc_gets_its_own_potion)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/dev/npc-spawner/tests/test_spawn.py", line 35, in test_each_npc_gets_its_own_potion
    goblin_b.use_item("potion")
  File "/home/dev/npc-spawner/spawner/npc.py", line 48, in use_item
    self.stats["inventory"].pop(item)
KeyError: 'potion'

----------------------------------------------------------------------
Ran 5 tests in 0.001s

FAILED (errors=1)
""",
    "KeyError", SCP,
)

query(
    "q-scp-fixture-factory", "fixture-factory", "shallow-copy-aliasing",
    r"""
==[test session starts]
platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/runner/work/fixture-factory/fixture-factory
configfile: pyproject.toml
collected 58 items

%%tests/test_factory.py ..............F...F................... [ 65%]
%%tests/test_sequences.py .................... [100%]

==[FAILURES]
__[test_build_batch_independent_tags]

    def test_build_batch_independent_tags():
        users = UserFactory.build_batch(3)
        users[0]["profile"]["tags"].append("vip")
>       assert users[1]["profile"]["tags"] == []
E       AssertionError: assert ['vip'] == []
E         Left contains one more item: 'vip'
E         Full diff:
E         - []
E         + ['vip']

tests/test_factory.py:141: AssertionError
__[test_override_nested_field]

    def test_override_nested_field():
        admin = UserFactory.build(profile__role="admin")
        user = UserFactory.build()
>       assert user["profile"]["role"] == "member"
E       AssertionError: assert 'admin' == 'member'
E         - member
E         + admin

tests/test_factory.py:166: AssertionError
==[short test summary info]
FAILED tests/test_factory.py::test_build_batch_independent_tags - AssertionError: assert ['vip'] == []
FAILED tests/test_factory.py::test_override_nested_field - AssertionError: assert 'admin' == 'member'
==[2 failed, 56 passed in 0.39s]
""",
    "AssertionError", SCP, width=100,
)

# ---------------------------------------------------------------------------
# Family: late-binding-closure
# Lambdas / inner functions created in a loop close over the loop variable,
# which is looked up at call time, so all of them see its final value.
# ---------------------------------------------------------------------------

record(
    "r-lbc-clickmenu", "clickmenu", "late-binding-closure",
    r"""
==[test session starts]
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/ana/clickmenu
collected 12 items

%%tests/test_menu.py ..F.F....... [100%]

==[FAILURES]
__[test_first_item_callback_selects_first]

    def test_first_item_callback_selects_first():
        menu = Menu(["Open", "Save", "Quit"])
        menu.items[0].on_click()
>       assert menu.selected == 0
E       assert 2 == 0
E        +  where 2 = <clickmenu.menu.Menu object at 0x7f9a3e2d1c10>.selected

tests/test_menu.py:22: AssertionError
__[test_keyboard_shortcuts_dispatch]

    def test_keyboard_shortcuts_dispatch():
        menu = Menu(["Open", "Save", "Quit"])
        menu.press("ctrl+s")
>       assert menu.selected == 1
E       assert 2 == 1
E        +  where 2 = <clickmenu.menu.Menu object at 0x7f9a3e2d2f50>.selected

tests/test_menu.py:39: AssertionError
==[short test summary info]
FAILED tests/test_menu.py::test_first_item_callback_selects_first - assert 2 == 0
FAILED tests/test_menu.py::test_keyboard_shortcuts_dispatch - assert 2 == 1
==[2 failed, 10 passed in 0.04s]
""",
    "AssertionError",
    ["src/clickmenu/menu.py"],
    """Menu.__init__ built each item's callback as lambda: self.select(i) inside the
    for loop. The lambda closes over the variable i, not its value, so once the loop
    finished every callback selected the last index. The index is now bound at
    definition time with a default argument (lambda i=i: self.select(i)).""",
    "pytest passed with exit code 0 (12 passed)",
    unified("src/clickmenu/menu.py", """
class Menu:
    def __init__(self, labels):
        self.items = []
        self.selected = None
        for i, label in enumerate(labels):
            self.items.append(Item(label, on_click=lambda: self.select(i)))
""", """
class Menu:
    def __init__(self, labels):
        self.items = []
        self.selected = None
        for i, label in enumerate(labels):
            self.items.append(Item(label, on_click=lambda i=i: self.select(i)))
""", start=8),
)

record(
    "r-lbc-validators", "validators-kit", "late-binding-closure",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/runner/work/validators-kit/validators-kit
configfile: pyproject.toml
collected 41 items

%%tests/test_rules.py ................F........ [ 60%]
%%tests/test_messages.py ................ [100%]

==[FAILURES]
__[test_max_length_rules_per_field]

    def test_max_length_rules_per_field():
        rules = build_length_rules({"zip": 5, "city": 40, "street": 80})
        errors = run_rules(rules, {"zip": "123456", "city": "Oslo", "street": "Main"})
>       assert errors == {"zip": "must be at most 5 characters"}
E       AssertionError: assert {} == {'zip': 'must be at most 5 characters'}
E         Right contains 1 more item:
E         {'zip': 'must be at most 5 characters'}
E         Full diff:
E         - {'zip': 'must be at most 5 characters'}
E         + {}

tests/test_rules.py:112: AssertionError
==[short test summary info]
FAILED tests/test_rules.py::test_max_length_rules_per_field - AssertionError: assert {} == {'zip': 'must be at most 5 characters'}
==[1 failed, 40 passed in 0.08s]
""",
    "AssertionError",
    ["src/validators_kit/rules.py"],
    """build_length_rules() created one check per field with
    lambda value: len(value) <= limit inside a loop over the limits dict. Every lambda
    looked up limit when it ran, after the loop had finished, so all fields were
    checked against the last limit (80). The rules are now created by a factory
    function that receives the limit as a parameter, giving each closure its own
    binding.""",
    "pytest passed with exit code 0 (41 passed)",
    unified("src/validators_kit/rules.py", """
def build_length_rules(limits):
    rules = {}
    for field, limit in limits.items():
        rules[field] = Rule(
            check=lambda value: len(value) <= limit,
            message=f"must be at most {limit} characters",
        )
    return rules
""", """
def _max_len(limit):
    return lambda value: len(value) <= limit


def build_length_rules(limits):
    rules = {}
    for field, limit in limits.items():
        rules[field] = Rule(
            check=_max_len(limit),
            message=f"must be at most {limit} characters",
        )
    return rules
""", start=30),
)

record(
    "r-lbc-eventbus", "eventbus-lite", "late-binding-closure",
    r"""
==[test session starts]
platform linux -- Python 3.10.13, pytest-7.3.2, pluggy-1.0.0
rootdir: /build/eventbus-lite
collected 15 items

%%tests/test_bus.py ....F.......... [100%]

==[FAILURES]
__[test_handlers_receive_their_own_topic]

    def test_handlers_receive_their_own_topic():
        bus = EventBus()
        received = Counter()
        wire_counters(bus, ["orders", "payments"], received)
        bus.publish("orders", {"id": 1})
        bus.publish("payments", {"id": 2})
>       assert received == {"orders": 1, "payments": 1}
E       AssertionError: assert Counter({'payments': 2}) == {'orders': 1, 'payments': 1}
E         Differing items:
E         {'payments': 2} != {'payments': 1}
E         Right contains 1 more item:
E         {'orders': 1}
E         Use -v to get more diff

tests/test_bus.py:58: AssertionError
==[short test summary info]
FAILED tests/test_bus.py::test_handlers_receive_their_own_topic - AssertionError: assert Counter({'payments': 2}) == {'orders': 1, 'payments': 1}
==[1 failed, 14 passed in 0.02s]
""",
    "AssertionError",
    ["eventbus_lite/wiring.py"],
    """wire_counters() subscribed a nested function per topic that incremented
    received[topic]; the inner function closed over the loop variable topic, so by
    the time events were published every handler counted under the last topic.
    Handlers are now created with functools.partial(_count, topic, received) so the
    topic is captured when subscribing.""",
    "pytest passed with exit code 0 (15 passed)",
    unified("eventbus_lite/wiring.py", """
def wire_counters(bus, topics, received):
    for topic in topics:
        def handler(event):
            received[topic] += 1
        bus.subscribe(topic, handler)
""", """
def _count(topic, received, event):
    received[topic] += 1


def wire_counters(bus, topics, received):
    for topic in topics:
        bus.subscribe(topic, functools.partial(_count, topic, received))
""", start=5),
)

LBC = ["r-lbc-clickmenu", "r-lbc-validators", "r-lbc-eventbus"]

query(
    "q-lbc-gui-toolbar", "gui-toolbar", "late-binding-closure",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.1.1, pluggy-1.4.0
PyQt6 6.6.1 -- Qt runtime 6.6.2 -- Qt compiled 6.6.2
rootdir: /home/runner/work/gui-toolbar/gui-toolbar
plugins: qt-4.4.0, xvfb-3.0.0
collected 26 items

%%tests/test_toolbar.py ...F...................... [100%]

==[FAILURES]
__[test_open_button_triggers_open_action]

qtbot = <pytestqt.qtbot.QtBot object at 0x7f1e2a9c5d10>
recorder = ActionRecorder(calls=['export'])

    def test_open_button_triggers_open_action(qtbot, recorder):
        bar = Toolbar(actions=["open", "save", "export"], dispatch=recorder)
        qtbot.addWidget(bar)
        qtbot.mouseClick(bar.button("open"), Qt.MouseButton.LeftButton)
>       assert recorder.calls == ["open"]
E       AssertionError: assert ['export'] == ['open']
E         At index 0 diff: 'export' != 'open'
E         Full diff:
E         - ['open']
E         + ['export']

tests/test_toolbar.py:47: AssertionError
==[short test summary info]
FAILED tests/test_toolbar.py::test_open_button_triggers_open_action - AssertionError: assert ['export'] == ['open']
==[1 failed, 25 passed in 1.86s]
""",
    "AssertionError", LBC,
)

query(
    "q-lbc-retry-scheduler", "retry-scheduler", "late-binding-closure",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/dev/retry-scheduler
configfile: pyproject.toml
plugins: respx-0.21.1, anyio-4.3.0
collected 20 items

%%tests/test_jobs.py ......F............. [100%]

==[FAILURES]
__[test_each_job_fetches_its_own_url]

fake_fetch = <FakeFetch seen=['https://c.example/feed', 'https://c.example/feed', 'https://c.example/feed']>

    def test_each_job_fetches_its_own_url(fake_fetch):
        urls = ["https://a.example/feed", "https://b.example/feed", "https://c.example/feed"]
        sched = Scheduler(fetch=fake_fetch)
        sched.enqueue_all(urls)
        sched.run_pending()
>       assert fake_fetch.seen == urls
E       AssertionError: assert ['https://c.example/feed', 'https://c.example/feed', 'https://c.example/feed'] == ['https://a.example/feed', 'https://b.example/feed', 'https://c.example/feed']
E         At index 0 diff: 'https://c.example/feed' != 'https://a.example/feed'
E         Full diff:
E           [
E         -     'https://a.example/feed',
E         ?              ^
E         +     'https://c.example/feed',
E         ?              ^
E         -     'https://b.example/feed',
E         ?              ^
E         +     'https://c.example/feed',
E         ?              ^
E               'https://c.example/feed',
E           ]

tests/test_jobs.py:66: AssertionError
==[short test summary info]
!!FAILED tests/test_jobs.py::test_each_job_fetches_its_own_url - AssertionError: assert ['https://c.example/feed', 'https://c.example/feed', 'https://c.exa...
==[1 failed, 19 passed in 0.27s]
""",
    "AssertionError", LBC,
)

query(
    "q-lbc-pricing-rules", "pricing-rules", "late-binding-closure",
    r"""
....F.F...
======================================================================
FAIL: test_tier_multipliers_applied_per_tier (tests.test_tiers.TierRulesTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/var/lib/ci/pricing-rules/tests/test_tiers.py", line 40, in test_tier_multipliers_applied_per_tier
    self.assertEqual(rules["bronze"](100), 100)
AssertionError: 150 != 100

======================================================================
FAIL: test_silver_discount (tests.test_tiers.TierRulesTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/var/lib/ci/pricing-rules/tests/test_tiers.py", line 52, in test_silver_discount
    self.assertEqual(rules["silver"](200), 240)
AssertionError: 300 != 240

----------------------------------------------------------------------
Ran 10 tests in 0.001s

FAILED (failures=2)
""",
    "AssertionError", LBC,
)

query(
    "q-lbc-cli-subcommands", "cli-subcommands", "late-binding-closure",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/ops/clusterctl
configfile: pyproject.toml
collected 17 items

%%tests/test_cli.py .F.F............. [100%]

==[FAILURES]
__[test_status_subcommand]

capsys = <_pytest.capture.CaptureFixture object at 0x7f77c3b1a290>

    def test_status_subcommand(capsys):
        exit_code = main(["status"])
        out = capsys.readouterr().out
>       assert out == "cluster healthy (3/3 nodes)\n"
E       AssertionError: assert 'clusterctl 1.4.2\n' == 'cluster healthy (3/3 nodes)\n'
E         - cluster healthy (3/3 nodes)
E         + clusterctl 1.4.2

tests/test_cli.py:19: AssertionError
__[test_drain_subcommand]

capsys = <_pytest.capture.CaptureFixture object at 0x7f77c3b1bd50>

    def test_drain_subcommand(capsys):
        exit_code = main(["drain", "node-2"])
>       assert exit_code == 0
E       assert 2 == 0

tests/test_cli.py:27: AssertionError
----------------------------- Captured stderr call -----------------------------
usage: clusterctl version [-h]
clusterctl version: error: unrecognized arguments: node-2
==[short test summary info]
FAILED tests/test_cli.py::test_status_subcommand - AssertionError: assert 'clusterctl 1.4.2\n' == 'cluster healthy (3/3 nodes)\n'
FAILED tests/test_cli.py::test_drain_subcommand - assert 2 == 0
==[2 failed, 15 passed in 0.06s]
""",
    "AssertionError", LBC,
)

query(
    "q-lbc-asyncfanout", "asyncfanout", "late-binding-closure",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/asyncfanout/asyncfanout
configfile: pyproject.toml
plugins: asyncio-0.23.5
asyncio: mode=Mode.STRICT
collected 9 items

%%tests/test_fanout.py ..F...... [100%]

==[FAILURES]
__[test_gather_keyed_results]

    @pytest.mark.asyncio
    async def test_gather_keyed_results():
        results = await fan_out({"a": 1, "b": 2, "c": 3}, worker=double_after_tick)
>       assert results == {"a": 2, "b": 4, "c": 6}
E       AssertionError: assert {'c': 6} == {'a': 2, 'b': 4, 'c': 6}
E         Common items:
E         {'c': 6}
E         Right contains 2 more items:
E         {'a': 2, 'b': 4}
E         Full diff:
E         - {'a': 2, 'b': 4, 'c': 6}
E         + {'c': 6}

tests/test_fanout.py:31: AssertionError
==[short test summary info]
FAILED tests/test_fanout.py::test_gather_keyed_results - AssertionError: assert {'c': 6} == {'a': 2, 'b': 4, 'c': 6}
==[1 failed, 8 passed in 0.05s]
""",
    "AssertionError", LBC, color=True,
)

# ---------------------------------------------------------------------------
# Family: mutation-during-iteration
# A dict/set/list is modified while a for-loop iterates over it: RuntimeError
# for dicts and sets, silently skipped elements for lists.
# ---------------------------------------------------------------------------

record(
    "r-mdi-sessionstore", "sessionstore", "mutation-during-iteration",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/ci/sessionstore
collected 18 items

%%tests/test_memory_backend.py ......F........... [100%]

==[FAILURES]
__[test_purge_expired_removes_only_stale]

store = <sessionstore.backends.memory.MemoryStore object at 0x7f4b0e8c2d10>
frozen_clock = <FrozenClock 2024-05-01T12:00:00+00:00>

    def test_purge_expired_removes_only_stale(store, frozen_clock):
        store.put("a", {"uid": 1}, ttl=10)
        store.put("b", {"uid": 2}, ttl=3600)
        store.put("c", {"uid": 3}, ttl=10)
        frozen_clock.advance(seconds=60)
>       removed = store.purge_expired()

tests/test_memory_backend.py:71: 
_ _

self = <sessionstore.backends.memory.MemoryStore object at 0x7f4b0e8c2d10>

    def purge_expired(self):
        now = self._clock.now()
        removed = 0
>       for sid, entry in self._sessions.items():
E       RuntimeError: dictionary changed size during iteration

src/sessionstore/backends/memory.py:44: RuntimeError
==[short test summary info]
FAILED tests/test_memory_backend.py::test_purge_expired_removes_only_stale - RuntimeError: dictionary changed size during iteration
==[1 failed, 17 passed in 0.05s]
""",
    "RuntimeError",
    ["src/sessionstore/backends/memory.py"],
    """purge_expired() deleted expired entries from self._sessions while looping over
    self._sessions.items(), which raises RuntimeError as soon as the dict shrinks.
    The loop now collects the expired session ids first (iterating over a list
    snapshot) and deletes them afterwards.""",
    "pytest passed with exit code 0 (18 passed)",
    unified("src/sessionstore/backends/memory.py", """
    def purge_expired(self):
        now = self._clock.now()
        removed = 0
        for sid, entry in self._sessions.items():
            if entry.expires_at <= now:
                del self._sessions[sid]
                removed += 1
        return removed
""", """
    def purge_expired(self):
        now = self._clock.now()
        expired = [sid for sid, entry in self._sessions.items() if entry.expires_at <= now]
        for sid in expired:
            del self._sessions[sid]
        return len(expired)
""", start=41, func="class MemoryStore:"),
)

record(
    "r-mdi-graphwalk", "graphwalk", "mutation-during-iteration",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/graphwalk/graphwalk
configfile: pyproject.toml
collected 33 items

%%tests/test_prune.py ..F.. [ 15%]
%%tests/test_traversal.py ............................ [100%]

==[FAILURES]
__[test_prune_leaves_repeatedly]

    def test_prune_leaves_repeatedly():
        g = Graph.from_edges([("a", "b"), ("b", "c"), ("c", "d"), ("b", "e")])
>       prune_leaves(g, keep={"a"})

tests/test_prune.py:29: 
_ _
src/graphwalk/prune.py:17: in prune_leaves
    _drop_node(graph, node)
_ _

graph = Graph(nodes=4, edges=3), node = 'd'

    def _drop_node(graph, node):
>       for nbr in graph.adj[node]:
E       RuntimeError: Set changed size during iteration

src/graphwalk/prune.py:8: RuntimeError
==[short test summary info]
FAILED tests/test_prune.py::test_prune_leaves_repeatedly - RuntimeError: Set changed size during iteration
==[1 failed, 32 passed in 0.19s]
""",
    "RuntimeError",
    ["src/graphwalk/prune.py"],
    """_drop_node() iterated over graph.adj[node] and, for a self-referencing or
    already-visited neighbour, discarded entries from that same adjacency set inside
    the loop, so the set changed size during iteration. The loop now iterates over
    a frozen copy (tuple(graph.adj[node])) and the node's set is cleared after the
    loop.""",
    "pytest passed with exit code 0 (33 passed)",
    unified("src/graphwalk/prune.py", """
def _drop_node(graph, node):
    for nbr in graph.adj[node]:
        graph.adj[nbr].discard(node)
        graph.adj[node].discard(nbr)
    del graph.adj[node]
""", """
def _drop_node(graph, node):
    for nbr in tuple(graph.adj[node]):
        graph.adj[nbr].discard(node)
    graph.adj[node].clear()
    del graph.adj[node]
""", start=7),
)

record(
    "r-mdi-mailfilter", "mailfilter", "mutation-during-iteration",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/mx/mailfilter
collected 14 items

%%tests/test_rules.py .....F........ [100%]

==[FAILURES]
__[test_consecutive_spam_is_all_removed]

inbox = [Message(id='m1', spam=True), Message(id='m2', spam=True), Message(id='m3', spam=False)]

    def test_consecutive_spam_is_all_removed(inbox):
        drop_spam(inbox)
>       assert [m.id for m in inbox] == ["m3"]
E       AssertionError: assert ['m2', 'm3'] == ['m3']
E         At index 0 diff: 'm2' != 'm3'
E         Left contains one more item: 'm3'
E         Full diff:
E         - ['m3']
E         + ['m2', 'm3']

tests/test_rules.py:44: AssertionError
==[short test summary info]
FAILED tests/test_rules.py::test_consecutive_spam_is_all_removed - AssertionError: assert ['m2', 'm3'] == ['m3']
==[1 failed, 13 passed in 0.03s]
""",
    "AssertionError",
    ["mailfilter/rules.py"],
    """drop_spam() called inbox.remove(msg) while iterating over inbox with a for loop.
    Removing an element shifts the following items left, so the iterator skipped
    the message right after each removed one and back-to-back spam survived. The
    inbox is now rebuilt in place with a slice assignment of the non-spam messages.""",
    "pytest passed with exit code 0 (14 passed)",
    unified("mailfilter/rules.py", """
def drop_spam(inbox):
    for msg in inbox:
        if msg.spam:
            inbox.remove(msg)
""", """
def drop_spam(inbox):
    inbox[:] = [msg for msg in inbox if not msg.spam]
""", start=21),
)

MDI = ["r-mdi-sessionstore", "r-mdi-graphwalk", "r-mdi-mailfilter"]

query(
    "q-mdi-cachetools-lite", "cachetools-lite", "mutation-during-iteration",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/cachetools-lite/cachetools-lite
collected 27 items

%%tests/test_ttl.py .........F..... [ 55%]
%%tests/test_lru.py ............ [100%]

==[FAILURES]
__[test_expire_drops_old_entries]

    def test_expire_drops_old_entries():
        timer = FakeTimer()
        cache = TTLCache(maxsize=10, ttl=5, timer=timer)
        cache["x"] = 1
        cache["y"] = 2
        timer.tick(6)
>       cache.expire()

tests/test_ttl.py:88: 
_ _
src/cachetools_lite/ttl.py:61: in expire
    for key, (value, deadline) in self._data.items():
E   RuntimeError: dictionary changed size during iteration
==[short test summary info]
FAILED tests/test_ttl.py::test_expire_drops_old_entries - RuntimeError: dictionary changed size during iteration
==[1 failed, 26 passed in 0.07s]
""",
    "RuntimeError", MDI, color=True,
)

query(
    "q-mdi-feature-flags", "feature-flags", "mutation-during-iteration",
    r"""
...E.....
======================================================================
ERROR: test_prune_disabled_flags (tests.test_registry.RegistryTest.test_prune_disabled_flags)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/code/feature-flags/tests/test_registry.py", line 61, in test_prune_disabled_flags
    self.registry.prune_disabled()
  File "/code/feature-flags/src/flagship/registry.py", line 94, in prune_disabled
    for name in self._flags:
RuntimeError: dictionary changed size during iteration

----------------------------------------------------------------------
Ran 9 tests in 0.004s

FAILED (errors=1)
""",
    "RuntimeError", MDI,
)

query(
    "q-mdi-todo-cli", "todo-cli", "mutation-during-iteration",
    r"""
==[test session starts]
platform darwin -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /Users/kai/code/todo-cli
collected 21 items

%%tests/test_store.py ........F............ [100%]

==[FAILURES]
__[test_clear_completed]

store = TaskStore(path=PosixPath('/private/var/folders/7q/xk3_5n1d0qg2/T/pytest-of-kai/pytest-9/test_clear_completed0/todo.json'))

    def test_clear_completed(store):
        for title, done in [("buy milk", True), ("call mum", True), ("file taxes", False), ("walk dog", True)]:
            store.add(title, done=done)
        store.clear_completed()
>       assert [t.title for t in store.tasks] == ["file taxes"]
E       AssertionError: assert ['call mum', 'file taxes'] == ['file taxes']
E         At index 0 diff: 'call mum' != 'file taxes'
E         Left contains one more item: 'file taxes'
E         Full diff:
E         - ['file taxes']
E         + ['call mum', 'file taxes']

tests/test_store.py:97: AssertionError
==[short test summary info]
FAILED tests/test_store.py::test_clear_completed - AssertionError: assert ['call mum', 'file taxes'] == ['file taxes']
==[1 failed, 20 passed in 0.06s]
""",
    "AssertionError", MDI,
)

query(
    "q-mdi-depresolver", "dependency-resolver", "mutation-during-iteration",
    r"""
==[test session starts]
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/build/depresolver
configfile: pyproject.toml
collected 36 items

%%tests/test_resolve.py .............F...F.................. [100%]

==[FAILURES]
__[test_topological_order_simple]

    def test_topological_order_simple():
        graph = {"app": {"web", "db"}, "web": {"http"}, "db": set(), "http": set()}
>       assert resolve_order(graph) == ["db", "http", "web", "app"]

tests/test_resolve.py:88: 
_ _

graph = {'app': {'db', 'web'}, 'db': set(), 'http': set(), 'web': {'http'}}

    def resolve_order(graph):
        pending = {name: set(deps) for name, deps in graph.items()}
        ready = {name for name, deps in pending.items() if not deps}
        order = []
        while ready:
>           for name in ready:
E           RuntimeError: Set changed size during iteration

src/depresolver/resolve.py:23: RuntimeError
__[test_diamond_dependencies]

    def test_diamond_dependencies():
        graph = {"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": set()}
>       order = resolve_order(graph)

tests/test_resolve.py:102: 
_ _

graph = {'a': {'b', 'c'}, 'b': {'d'}, 'c': {'d'}, 'd': set()}

    def resolve_order(graph):
        pending = {name: set(deps) for name, deps in graph.items()}
        ready = {name for name, deps in pending.items() if not deps}
        order = []
        while ready:
>           for name in ready:
E           RuntimeError: Set changed size during iteration

src/depresolver/resolve.py:23: RuntimeError
==[short test summary info]
FAILED tests/test_resolve.py::test_topological_order_simple - RuntimeError: Set changed size during iteration
FAILED tests/test_resolve.py::test_diamond_dependencies - RuntimeError: Set changed size during iteration
==[2 failed, 34 passed in 0.11s]
""",
    "RuntimeError", MDI,
)

query(
    "q-mdi-websocket-hub", "websocket-hub", "mutation-during-iteration",
    r"""
==[test session starts]
platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/dev/websocket-hub
configfile: pyproject.toml
plugins: asyncio-0.23.7
asyncio: mode=Mode.AUTO
collected 24 items

%%tests/test_broadcast.py ......F................. [100%]

==[FAILURES]
__[test_broadcast_drops_closed_connections]

hub = <Hub rooms=1 clients=3>

    async def test_broadcast_drops_closed_connections(hub):
        hub.clients["c2"].close()
>       delivered = await hub.broadcast("lobby", {"type": "ping"})

tests/test_broadcast.py:74: 
_ _

self = <Hub rooms=1 clients=2>, room = 'lobby', message = {'type': 'ping'}

    async def broadcast(self, room, message):
        delivered = 0
>       for client_id, conn in self.clients.items():
E       RuntimeError: dictionary changed size during iteration

src/wshub/hub.py:58: RuntimeError
==[short test summary info]
!!FAILED tests/test_broadcast.py::test_broadcast_drops_closed_connections - RuntimeError: dictionary changed size during iteration
==[1 failed, 23 passed in 0.33s]
""",
    "RuntimeError", MDI,
)

# ---------------------------------------------------------------------------
# Family: bytes-str-mismatch
# bytes and str are mixed at an I/O boundary (subprocess, sockets, base64,
# hashlib/hmac, redis, BytesIO) without decoding/encoding.
# ---------------------------------------------------------------------------

record(
    "r-bsm-gitstat", "gitstat", "bytes-str-mismatch",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/dev/gitstat
collected 10 items

%%tests/test_log.py .F........ [100%]

==[FAILURES]
__[test_commit_subjects]

repo = PosixPath('/tmp/pytest-of-dev/pytest-31/test_commit_subjects0/repo')

    def test_commit_subjects(repo):
>       assert commit_subjects(repo) == ["second", "initial"]

tests/test_log.py:24: 
_ _

repo = PosixPath('/tmp/pytest-of-dev/pytest-31/test_commit_subjects0/repo')

    def commit_subjects(repo):
        out = subprocess.check_output(
            ["git", "log", "--format=%s"], cwd=repo
        )
>       return [line for line in out.split("\n") if line]
E       TypeError: a bytes-like object is required, not 'str'

src/gitstat/log.py:14: TypeError
==[short test summary info]
FAILED tests/test_log.py::test_commit_subjects - TypeError: a bytes-like object is required, not 'str'
==[1 failed, 9 passed in 0.41s]
""",
    "TypeError",
    ["src/gitstat/log.py"],
    """subprocess.check_output() returns bytes unless text mode is requested, and the
    code split that bytes object on the str '\\n', raising TypeError. The call now
    passes text=True and encoding="utf-8" so git's output is decoded once at the
    process boundary.""",
    "pytest passed with exit code 0 (10 passed)",
    unified("src/gitstat/log.py", """
def commit_subjects(repo):
    out = subprocess.check_output(
        ["git", "log", "--format=%s"], cwd=repo
    )
    return [line for line in out.split("\\n") if line]
""", """
def commit_subjects(repo):
    out = subprocess.check_output(
        ["git", "log", "--format=%s"], cwd=repo, text=True, encoding="utf-8"
    )
    return [line for line in out.split("\\n") if line]
""", start=10),
)

record(
    "r-bsm-tokenforge", "tokenforge", "bytes-str-mismatch",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/runner/work/tokenforge/tokenforge
configfile: pyproject.toml
collected 28 items

%%tests/test_headers.py ..F.F..... [ 35%]
%%tests/test_jwt.py .................. [100%]

==[FAILURES]
__[test_bearer_header]

    def test_bearer_header():
        tok = issue_opaque_token(b"\x01\x02\x03\x04")
>       assert auth_header(tok) == {"Authorization": "Bearer AQIDBA=="}
E       AssertionError: assert {'Authorization': "Bearer b'AQIDBA=='"} == {'Authorization': 'Bearer AQIDBA=='}
E         Differing items:
E         {'Authorization': "Bearer b'AQIDBA=='"} != {'Authorization': 'Bearer AQIDBA=='}
E         Full diff:
E         - {'Authorization': 'Bearer AQIDBA=='}
E         ?                   ^
E         + {'Authorization': "Bearer b'AQIDBA=='"}
E         ?                   ^       ++         ^

tests/test_headers.py:17: AssertionError
__[test_token_roundtrip]

    def test_token_roundtrip():
        tok = issue_opaque_token(b"secret-id")
>       assert parse_auth_header(auth_header(tok)) == b"secret-id"

tests/test_headers.py:29: 
_ _
src/tokenforge/headers.py:21: in parse_auth_header
    return base64.b64decode(value.removeprefix("Bearer "))
/usr/lib/python3.12/base64.py:88: in b64decode
    return binascii.a2b_base64(s, strict_mode=validate)
E   binascii.Error: Invalid base64-encoded string: number of data characters (13) cannot be 1 more than a multiple of 4
==[short test summary info]
FAILED tests/test_headers.py::test_bearer_header - AssertionError: assert {'Authorization': "Bearer b'AQIDBA=='"} == {'Authorization': 'Bearer AQIDBA=='}
FAILED tests/test_headers.py::test_token_roundtrip - binascii.Error: Invalid base64-encoded string: number of data characters (13) cannot be 1 more than a multiple of 4
==[2 failed, 26 passed in 0.16s]
""",
    "AssertionError",
    ["src/tokenforge/tokens.py"],
    """issue_opaque_token() returned base64.b64encode(raw), which is bytes, and
    auth_header() interpolated it into an f-string, producing the literal text
    "Bearer b'AQIDBA=='" (and garbage when parsed back). The token is now decoded
    to ASCII right after encoding so the rest of the code works with str.""",
    "pytest passed with exit code 0 (28 passed)",
    unified("src/tokenforge/tokens.py", """
def issue_opaque_token(raw: bytes) -> str:
    return base64.b64encode(raw)
""", """
def issue_opaque_token(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")
""", start=9),
)

record(
    "r-bsm-redisq", "redisq-lite", "bytes-str-mismatch",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0
rootdir: /srv/redisq-lite
plugins: timeout-2.3.1
timeout: 5.0s
collected 16 items

%%tests/test_worker.py ...F............ [100%]

==[FAILURES]
__[test_wait_for_done_returns_result]

redis_conn = Redis<ConnectionPool<Connection<host=localhost,port=6379,db=15>>>

    def test_wait_for_done_returns_result(redis_conn):
        job = enqueue(redis_conn, "square", 7)
        run_worker_once(redis_conn)
>       assert job_status(redis_conn, job.id) == "done"
E       AssertionError: assert b'done' == 'done'
E        +  where b'done' = job_status(Redis<ConnectionPool<Connection<host=localhost,port=6379,db=15>>>, 'job:3f9c1a')

tests/test_worker.py:52: AssertionError
==[short test summary info]
FAILED tests/test_worker.py::test_wait_for_done_returns_result - AssertionError: assert b'done' == 'done'
==[1 failed, 15 passed in 1.08s]
""",
    "AssertionError",
    ["redisq/connection.py"],
    """redis-py returns bytes for every reply by default, so job_status() returned
    b'done' and comparisons against the str 'done' were always false (the wait loop
    never finished in production). The client is now created with
    decode_responses=True so replies are str.""",
    "pytest passed with exit code 0 (16 passed)",
    unified("redisq/connection.py", """
def connect(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)
""", """
def connect(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=True)
""", start=6),
)

BSM = ["r-bsm-gitstat", "r-bsm-tokenforge", "r-bsm-redisq"]

query(
    "q-bsm-sigcheck", "sigcheck", "bytes-str-mismatch",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/sigcheck/sigcheck
configfile: pyproject.toml
collected 14 items

%%tests/test_verify.py F.F........... [100%]

==[FAILURES]
__[test_valid_signature_accepted]

    def test_valid_signature_accepted():
        body = b'{"event":"push"}'
        sig = "sha256=" + hmac.new(b"s3cr3t", body, hashlib.sha256).hexdigest()
>       assert verify(secret="s3cr3t", body=body, header=sig)

tests/test_verify.py:12: 
_ _
src/sigcheck/verify.py:9: in verify
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
/usr/lib/python3.12/hmac.py:184: in new
    return HMAC(key, msg, digestmod)
_ _

self = <hmac.HMAC object at 0x7f2d9a4b6e90>, key = 's3cr3t', msg = b'{"event":"push"}'
digestmod = <built-in function openssl_sha256>

    def __init__(self, key, msg=None, digestmod=''):
        if not isinstance(key, (bytes, bytearray)):
>           raise TypeError("key: expected bytes or bytearray, but got %r" % type(key).__name__)
E           TypeError: key: expected bytes or bytearray, but got 'str'

/usr/lib/python3.12/hmac.py:53: TypeError
__[test_tampered_body_rejected]

    def test_tampered_body_rejected():
>       assert not verify(secret="s3cr3t", body=b"{}", header="sha256=00")

tests/test_verify.py:21: 
_ _
src/sigcheck/verify.py:9: in verify
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
/usr/lib/python3.12/hmac.py:184: in new
    return HMAC(key, msg, digestmod)
E   TypeError: key: expected bytes or bytearray, but got 'str'
==[short test summary info]
FAILED tests/test_verify.py::test_valid_signature_accepted - TypeError: key: expected bytes or bytearray, but got 'str'
FAILED tests/test_verify.py::test_tampered_body_rejected - TypeError: key: expected bytes or bytearray, but got 'str'
==[2 failed, 12 passed in 0.04s]
""",
    "TypeError", BSM,
)

query(
    "q-bsm-serialbridge", "serialbridge", "bytes-str-mismatch",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/pi/serialbridge
collected 11 items

%%tests/test_framing.py ..F........ [100%]

==[FAILURES]
__[test_reads_line_across_chunks]

fake_port = FakeSerial(chunks=[b'TEMP=2', b'1.4\r\n'])

    def test_reads_line_across_chunks(fake_port):
        reader = LineReader(fake_port)
>       assert reader.readline() == "TEMP=21.4"

tests/test_framing.py:30: 
_ _

self = <serialbridge.framing.LineReader object at 0x7fa1d2c3b4e0>

    def readline(self):
        buf = ""
        while "\r\n" not in buf:
            chunk = self.port.read(self.chunk_size)
>           buf += chunk
E           TypeError: can only concatenate str (not "bytes") to str

src/serialbridge/framing.py:27: TypeError
==[short test summary info]
FAILED tests/test_framing.py::test_reads_line_across_chunks - TypeError: can only concatenate str (not "bytes") to str
==[1 failed, 10 passed in 0.02s]
""",
    "TypeError", BSM,
)

query(
    "q-bsm-basicauth", "basicauth-mw", "bytes-str-mismatch",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/ci/basicauth-mw
configfile: pyproject.toml
plugins: anyio-4.2.0
collected 19 items

%%tests/test_middleware.py ....F.............. [100%]

==[FAILURES]
__[test_outgoing_request_has_basic_header]

    def test_outgoing_request_has_basic_header():
        req = Request("GET", "https://api.internal/v1/me")
        BasicAuth("user", "pw").apply(req)
>       assert req.headers["Authorization"] == "Basic dXNlcjpwdw=="
E       assert "Basic b'dXNlcjpwdw=='" == 'Basic dXNlcjpwdw=='
E         - Basic dXNlcjpwdw==
E         + Basic b'dXNlcjpwdw=='
E         ?       ++          +

tests/test_middleware.py:41: AssertionError
==[short test summary info]
FAILED tests/test_middleware.py::test_outgoing_request_has_basic_header - assert "Basic b'dXNlcjpwdw=='" == 'Basic dXNlcjpwdw=='
==[1 failed, 18 passed in 0.09s]
""",
    "AssertionError", BSM, color=True,
)

query(
    "q-bsm-pidwatch", "pidwatch", "bytes-str-mismatch",
    r"""
.....E..
======================================================================
ERROR: test_detects_running_service (test_probe.ProbeTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/opt/pidwatch/test_probe.py", line 33, in test_detects_running_service
    self.assertTrue(probe.is_running("nginx"))
  File "/opt/pidwatch/pidwatch/probe.py", line 19, in is_running
    return "active (running)" in out
TypeError: a bytes-like object is required, not 'str'

----------------------------------------------------------------------
Ran 8 tests in 0.051s

FAILED (errors=1)
""",
    "TypeError", BSM,
)

query(
    "q-bsm-zipstream", "zipstream", "bytes-str-mismatch",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/runner/work/zipstream/zipstream
collected 22 items

%%tests/test_manifest.py .F.................... [100%]

==[FAILURES]
__[test_manifest_written_first]

    def test_manifest_written_first():
        buf = io.BytesIO()
        with ZipStreamWriter(buf) as zw:
>           zw.add_manifest({"files": ["a.txt"], "version": 2})

tests/test_manifest.py:18: 
_ _
src/zipstream/writer.py:47: in add_manifest
    self._write_member("MANIFEST.json", json.dumps(manifest))
src/zipstream/writer.py:39: in _write_member
    self._out.write(payload)
E   TypeError: a bytes-like object is required, not 'str'
==[short test summary info]
FAILED tests/test_manifest.py::test_manifest_written_first - TypeError: a bytes-like object is required, not 'str'
==[1 failed, 21 passed in 0.05s]
""",
    "TypeError", BSM,
)
