from common import R, Q, hdr, colorize
F = "sql-built-by-string-formatting"

R("r-sql-1", "recipebox", F, hdr("/home/ci/recipebox", 16) + """
tests/test_repo.py ........F.......                                      [100%]

=================================== FAILURES ===================================
_____________________ test_find_by_title_with_apostrophe _______________________

db = <sqlite3.Connection object at 0x7f0c2a9e7e40>

    def test_find_by_title_with_apostrophe(db):
        repo = RecipeRepo(db)
        repo.add(Recipe(title="Grandma's pie", minutes=75))
>       found = repo.find_by_title("Grandma's pie")

tests/test_repo.py:61: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <recipebox.repo.RecipeRepo object at 0x7f0c2a9f1a90>, title = "Grandma's pie"

    def find_by_title(self, title):
>       cur = self.db.execute(f"SELECT id, title, minutes FROM recipes WHERE title = '{title}'")
E       sqlite3.OperationalError: near "s": syntax error

src/recipebox/repo.py:34: OperationalError
=========================== short test summary info ============================
FAILED tests/test_repo.py::test_find_by_title_with_apostrophe - sqlite3.OperationalError: near "s": syntax error
========================= 1 failed, 15 passed in 0.05s =========================
""", "sqlite3.OperationalError", ["src/recipebox/repo.py"],
"find_by_title() interpolated the title into the SQL with an f-string, so any apostrophe closed the string literal (and the method was injectable). Pass the value as a bound parameter with a '?' placeholder instead.",
"pytest passed with exit code 0 (16 passed)",
"""--- a/src/recipebox/repo.py
+++ b/src/recipebox/repo.py
@@ -31,7 +31,10 @@ class RecipeRepo:
         return cur.lastrowid
 
     def find_by_title(self, title):
-        cur = self.db.execute(f"SELECT id, title, minutes FROM recipes WHERE title = '{title}'")
+        cur = self.db.execute(
+            "SELECT id, title, minutes FROM recipes WHERE title = ?",
+            (title,),
+        )
         row = cur.fetchone()
         return Recipe(*row[1:], id=row[0]) if row else None
""")

R("r-sql-2", "crmlite", F, hdr("/srv/crmlite", 30, py="3.11.7", plugins="postgresql-5.0.0") + """
tests/test_contacts.py ...................F..........                    [100%]

=================================== FAILURES ===================================
_______________________ test_lookup_irish_surname ______________________________

pg = <connection object at 0x7f6e1b0a5d40; dsn: 'user=postgres password=xxx dbname=tests host=127.0.0.1 port=15432', closed: 0>

    def test_lookup_irish_surname(pg):
        contacts = ContactStore(pg)
        contacts.create(first="Siobhan", last="O'Brien", email="sob@example.ie")
>       assert contacts.by_last_name("O'Brien")[0].email == "sob@example.ie"

tests/test_contacts.py:118: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/crmlite/store.py:52: in by_last_name
    cur.execute("SELECT * FROM contacts WHERE last_name = '%s' ORDER BY first_name" % last)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <cursor object at 0x7f6e1b0c9a40; closed: 0>
query = "SELECT * FROM contacts WHERE last_name = 'O'Brien' ORDER BY first_name"
vars = None

    def execute(self, query, vars=None):
        self.index = OrderedDict()
        self._query_executed = True
>       return super().execute(query, vars)
E       psycopg2.errors.SyntaxError: syntax error at or near "Brien"
E       LINE 1: SELECT * FROM contacts WHERE last_name = 'O'Brien' ORDER BY ...
E                                                          ^

/usr/local/lib/python3.11/site-packages/psycopg2/extras.py:236: SyntaxError
=========================== short test summary info ============================
FAILED tests/test_contacts.py::test_lookup_irish_surname - psycopg2.errors.SyntaxError: syntax error at or near "Brien"
========================= 1 failed, 29 passed in 2.41s =========================
""", "psycopg2.errors.SyntaxError", ["src/crmlite/store.py"],
"by_last_name() used Python %-formatting to build the query, so the quote in O'Brien terminated the literal. Let psycopg2 bind the value: execute(\"... WHERE last_name = %s ...\", (last,)) with no quotes around the placeholder.",
"pytest passed with exit code 0 (30 passed)",
"""--- a/src/crmlite/store.py
+++ b/src/crmlite/store.py
@@ -49,7 +49,10 @@ class ContactStore:
 
     def by_last_name(self, last):
         with self.conn.cursor(cursor_factory=RealDictCursor) as cur:
-            cur.execute("SELECT * FROM contacts WHERE last_name = '%s' ORDER BY first_name" % last)
+            cur.execute(
+                "SELECT * FROM contacts WHERE last_name = %s ORDER BY first_name",
+                (last,),
+            )
             return [Contact(**row) for row in cur.fetchall()]
""")

Q("q-sql-1", "libcat", F, """.....E..
======================================================================
ERROR: test_add_author_with_apostrophe (tests.test_catalog.CatalogTests.test_add_author_with_apostrophe)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/libby/libcat/tests/test_catalog.py", line 72, in test_add_author_with_apostrophe
    self.cat.add_book("Dubliners", author="Frank O'Connor", year=1952)
  File "/home/libby/libcat/libcat/catalog.py", line 40, in add_book
    self.conn.execute(
sqlite3.OperationalError: near "Connor": syntax error

----------------------------------------------------------------------
Ran 8 tests in 0.021s

FAILED (errors=1)
""", "sqlite3.OperationalError")

Q("q-sql-2", "forumdb", F, hdr("/home/ci/forumdb", 14, plugins="cov-4.1.0") + """
tests/test_search.py ..........F...                                      [100%]

=================================== FAILURES ===================================
_______________________ test_username_lookup_is_not_injectable _________________

seeded_db = <forumdb.db.Database path=':memory:' users=3>

    def test_username_lookup_is_not_injectable(seeded_db):
        rows = seeded_db.users_named("x' OR '1'='1")
>       assert len(rows) == 0
E       assert 3 == 0
E        +  where 3 = len([User(id=1, name='mod'), User(id=2, name='ann'), User(id=3, name='kai')])

tests/test_search.py:80: AssertionError
=========================== short test summary info ============================
FAILED tests/test_search.py::test_username_lookup_is_not_injectable - assert 3 == 0
========================= 1 failed, 13 passed in 0.07s =========================
""", "AssertionError")

Q("q-sql-3", "geonames", F, colorize(hdr("/home/ci/geonames", 11, py="3.12.3", pytest="8.2.0", pluggy="1.5.0", plugins="anyio-4.3.0") + """
tests/test_import.py ....F......                                         [100%]

=================================== FAILURES ===================================
________________________ test_import_quebec_towns ______________________________

engine = Engine(sqlite:///:memory:)

    def test_import_quebec_towns(engine):
>       n = import_rows(engine, [("Val-d'Or", "CA", 32491), ("Rimouski", "CA", 48935)])

tests/test_import.py:37: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/geonames/load.py:21: in import_rows
    conn.execute(text(f"INSERT INTO cities (name, country, population) VALUES ('{name}', '{cc}', {pop})"))
/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/base.py:1416: in execute
    return meth(
/usr/local/lib/python3.12/site-packages/sqlalchemy/sql/elements.py:516: in _execute_on_connection
    return connection._execute_clauseelement(
/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/base.py:1639: in _execute_clauseelement
    ret = self._execute_context(
/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/base.py:1848: in _execute_context
    return self._exec_single_context(
/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/base.py:1988: in _exec_single_context
    self._handle_dbapi_exception(
/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/base.py:2343: in _handle_dbapi_exception
    raise sqlalchemy_exception.with_traceback(exc_info[2]) from e
/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/base.py:1969: in _exec_single_context
    self.dialect.do_execute(
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <sqlalchemy.dialects.sqlite.pysqlite.SQLiteDialect_pysqlite object at 0x7f3b5c2e8d10>
cursor = <sqlite3.Cursor object at 0x7f3b5c1f0ec0>
statement = "INSERT INTO cities (name, country, population) VALUES ('Val-d'Or', 'CA', 32491)"
parameters = (), context = <sqlalchemy.dialects.sqlite.base.SQLiteExecutionContext object at 0x7f3b5c1e9b50>

    def do_execute(self, cursor, statement, parameters, context=None):
>       cursor.execute(statement, parameters)
E       sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) near "Or": syntax error
E       [SQL: INSERT INTO cities (name, country, population) VALUES ('Val-d'Or', 'CA', 32491)]
E       (Background on this error at: https://sqlalche.me/e/20/e3q8)

/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/default.py:922: OperationalError
=========================== short test summary info ============================
FAILED tests/test_import.py::test_import_quebec_towns - sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) near "Or": syntax error
========================= 1 failed, 10 passed in 0.19s =========================
"""), "sqlalchemy.exc.OperationalError")

Q("q-sql-4", "ticketdb", F, hdr("/srv/ticketdb", 13) + """
tests/test_tickets.py .......F.....                                      [100%]

=================================== FAILURES ===================================
________________________ test_open_ticket_has_no_close_time ____________________

store = <ticketdb.store.TicketStore db='/tmp/pytest-of-ci/pytest-7/test_open_ticket_has_no_close0/t.db'>

    def test_open_ticket_has_no_close_time(store):
        tid = store.save(Ticket(title="printer on fire", closed_at=None))
        row = store.raw_row(tid)
>       assert row["closed_at"] is None
E       AssertionError: assert 'None' is None

tests/test_tickets.py:47: AssertionError
=========================== short test summary info ============================
FAILED tests/test_tickets.py::test_open_ticket_has_no_close_time - AssertionError: assert 'None' is None
========================= 1 failed, 12 passed in 0.04s =========================
""", "AssertionError")
