from common import R, Q, hdr, colorize
F = "unpicklable-local-callable"

R("r-pkl-1", "batchmap", F, hdr("/home/ci/batchmap", 9) + """
tests/test_parallel.py ...F.....                                         [100%]

=================================== FAILURES ===================================
_______________________ test_parallel_map_matches_serial _______________________

    def test_parallel_map_matches_serial():
        items = list(range(20))
>       assert parallel_map(items, scale=3, workers=2) == [i * 3 for i in items]

tests/test_parallel.py:22: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/batchmap/parallel.py:15: in parallel_map
    return list(pool.map(lambda x: x * scale, items, chunksize=4))
/usr/local/lib/python3.11/concurrent/futures/process.py:620: in _chain_from_iterable_of_lists
    for element in iterable:
/usr/local/lib/python3.11/concurrent/futures/_base.py:619: in result_iterator
    yield _result_or_cancel(fs.pop())
/usr/local/lib/python3.11/concurrent/futures/_base.py:317: in _result_or_cancel
    return fut.result(timeout)
/usr/local/lib/python3.11/concurrent/futures/_base.py:456: in result
    return self.__get_result()
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = None

    def __get_result(self):
        if self._exception:
            try:
>               raise self._exception
E               AttributeError: Can't pickle local object 'parallel_map.<locals>.<lambda>'

/usr/local/lib/python3.11/concurrent/futures/_base.py:401: AttributeError
=========================== short test summary info ============================
FAILED tests/test_parallel.py::test_parallel_map_matches_serial - AttributeError: Can't pickle local object 'parallel_map.<locals>.<lambda>'
========================= 1 failed, 8 passed in 0.64s ==========================
""", "AttributeError", ["src/batchmap/parallel.py"],
"ProcessPoolExecutor has to pickle the callable to send it to worker processes, and a lambda defined inside parallel_map cannot be pickled. Moved the work into a module-level _scale(x, factor) function and pass functools.partial(_scale, factor=scale) to pool.map.",
"pytest passed with exit code 0 (9 passed)",
"""--- a/src/batchmap/parallel.py
+++ b/src/batchmap/parallel.py
@@ -1,15 +1,20 @@
+import functools
 from concurrent.futures import ProcessPoolExecutor
 
 
+def _scale(x, factor):
+    return x * factor
+
+
 def parallel_map(items, scale, workers=None):
     \"\"\"Multiply every item by ``scale`` using a process pool.\"\"\"
     with ProcessPoolExecutor(max_workers=workers) as pool:
-        return list(pool.map(lambda x: x * scale, items, chunksize=4))
+        return list(pool.map(functools.partial(_scale, factor=scale), items, chunksize=4))
""")

R("r-pkl-2", "jobstore", F, hdr("/srv/jobstore", 12, py="3.12.3", pytest="8.1.1", pluggy="1.4.0") + """
tests/test_persist.py ....F.......                                       [100%]

=================================== FAILURES ===================================
_______________________ test_scheduled_job_survives_restart ____________________

tmp_path = PosixPath('/tmp/pytest-of-app/pytest-0/test_scheduled_job_survives_r0')

    def test_scheduled_job_survives_restart(tmp_path):
        store = FileStore(tmp_path / "jobs.pkl")
        sched = Scheduler(store)
        sched.every(minutes=5, name="cleanup", target_dir="/var/tmp/x")
>       sched.flush()

tests/test_persist.py:35: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/jobstore/scheduler.py:61: in flush
    self.store.save(self.jobs)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <jobstore.store.FileStore path=PosixPath('/tmp/pytest-of-app/pytest-0/test_scheduled_job_survives_r0/jobs.pkl')>
jobs = [Job(name='cleanup', interval=300, callback=<function Scheduler.every.<locals>.run at 0x7f44c9a0e2a0>)]

    def save(self, jobs):
        with open(self.path, "wb") as fh:
>           pickle.dump(jobs, fh, protocol=pickle.HIGHEST_PROTOCOL)
E           AttributeError: Can't pickle local object 'Scheduler.every.<locals>.run'

src/jobstore/store.py:18: AttributeError
=========================== short test summary info ============================
FAILED tests/test_persist.py::test_scheduled_job_survives_restart - AttributeError: Can't pickle local object 'Scheduler.every.<locals>.run'
========================= 1 failed, 11 passed in 0.05s =========================
""", "AttributeError", ["src/jobstore/scheduler.py"],
"Scheduler.every() wrapped the task in a nested function, so the Job held a closure that pickle cannot serialise by reference. Jobs now store the task's dotted name plus kwargs and resolve a module-level function from jobstore.tasks at run time.",
"pytest passed with exit code 0 (12 passed)",
"""--- a/src/jobstore/scheduler.py
+++ b/src/jobstore/scheduler.py
@@ -40,12 +40,9 @@ class Scheduler:
         self.jobs = []
 
     def every(self, minutes, name, **kwargs):
-        task = TASKS[name]
-
-        def run():
-            return task(**kwargs)
-
-        self.jobs.append(Job(name=name, interval=minutes * 60, callback=run))
+        if name not in TASKS:
+            raise KeyError(f"unknown task {name!r}")
+        self.jobs.append(Job(name=name, interval=minutes * 60, kwargs=kwargs))
 
     def run_due(self, now):
         for job in self.jobs:
             if job.is_due(now):
-                job.callback()
+                TASKS[job.name](**job.kwargs)
""")

Q("q-pkl-1", "imgresize", F, """E....
======================================================================
ERROR: test_resize_folder_in_parallel (tests.test_batch.BatchTests.test_resize_folder_in_parallel)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/rui/imgresize/tests/test_batch.py", line 29, in test_resize_folder_in_parallel
    out = resize_all(self.src, self.dst, width=64, processes=2)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/rui/imgresize/imgresize/batch.py", line 24, in resize_all
    return pool.map(one, paths)
           ^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/multiprocessing/pool.py", line 367, in map
    return self._map_async(func, iterable, mapstar, chunksize).get()
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/multiprocessing/pool.py", line 774, in get
    raise self._value
  File "/usr/lib/python3.11/multiprocessing/pool.py", line 540, in _handle_tasks
    put(task)
  File "/usr/lib/python3.11/multiprocessing/connection.py", line 205, in send
    self._send_bytes(_ForkingPickler.dumps(obj))
                     ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/multiprocessing/reduction.py", line 51, in dumps
    cls(buf, protocol).dump(obj)
AttributeError: Can't pickle local object 'resize_all.<locals>.one'

----------------------------------------------------------------------
Ran 5 tests in 0.412s

FAILED (errors=1)
""", "AttributeError")

Q("q-pkl-2", "wordstats", F, hdr("/home/dev/wordstats", 10) + """
tests/test_snapshot.py .....F....                                        [100%]

=================================== FAILURES ===================================
___________________________ test_snapshot_roundtrip ____________________________

tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-12/test_snapshot_roundtrip0')

    def test_snapshot_roundtrip(tmp_path):
        stats = WordStats()
        stats.feed("the cat sat on the mat")
>       stats.snapshot(tmp_path / "stats.bin")

tests/test_snapshot.py:41: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <wordstats.stats.WordStats object at 0x7f91e8c3a2d0>
path = PosixPath('/tmp/pytest-of-dev/pytest-12/test_snapshot_roundtrip0/stats.bin')

    def snapshot(self, path):
        with open(path, "wb") as fh:
>           pickle.dump(self.__dict__, fh)
E           AttributeError: Can't pickle local object 'WordStats.__init__.<locals>.<lambda>'

src/wordstats/stats.py:30: AttributeError
=========================== short test summary info ============================
FAILED tests/test_snapshot.py::test_snapshot_roundtrip - AttributeError: Can't pickle local object 'WordStats.__init__.<locals>.<lambda>'
========================= 1 failed, 9 passed in 0.03s ==========================
""", "AttributeError")

Q("q-pkl-3", "taskrelay", F, colorize(hdr("/home/ci/taskrelay", 15, plugins="timeout-2.2.0") + """
tests/test_enqueue.py .........F.....                                    [100%]

=================================== FAILURES ===================================
_________________________ test_enqueue_inline_handler __________________________

broker = <taskrelay.broker.MemoryBroker queued=0>

    def test_enqueue_inline_handler(broker):
        app = Relay(broker)
        app.register("double", lambda n: n * 2)
>       app.enqueue("double", 21)

tests/test_enqueue.py:62: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/taskrelay/app.py:48: in enqueue
    self.broker.push(serialize(Envelope(self._handlers[name], args, kwargs)))
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

env = Envelope(func=<function test_enqueue_inline_handler.<locals>.<lambda> at 0x7fa0c81d3e20>, args=(21,), kwargs={})

    def serialize(env):
>       return pickle.dumps(env)
E       _pickle.PicklingError: Can't pickle <function test_enqueue_inline_handler.<locals>.<lambda> at 0x7fa0c81d3e20>: attribute lookup test_enqueue_inline_handler.<locals>.<lambda> on tests.test_enqueue failed

src/taskrelay/codec.py:9: PicklingError
=========================== short test summary info ============================
FAILED tests/test_enqueue.py::test_enqueue_inline_handler - _pickle.PicklingError: Can't pickle <function test_enqueue_inline_handler.<locals>.<...
========================= 1 failed, 14 passed in 0.08s =========================
"""), "PicklingError")

Q("q-pkl-4", "epidemsim", F, hdr("/home/ci/epidemsim", 7, py="3.12.4", pytest="8.2.2", pluggy="1.5.0") + """
tests/test_runner.py ..F....                                             [100%]

=================================== FAILURES ===================================
_________________________ test_run_replicates_spawned __________________________

    def test_run_replicates_spawned():
>       results = run_replicates(Model(beta=0.3, gamma=0.1), n=2, start_method="spawn")

tests/test_runner.py:19: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/epidemsim/runner.py:33: in run_replicates
    p.start()
/usr/local/lib/python3.12/multiprocessing/process.py:121: in start
    self._popen = self._Popen(self)
/usr/local/lib/python3.12/multiprocessing/context.py:289: in _Popen
    return Popen(process_obj)
/usr/local/lib/python3.12/multiprocessing/popen_spawn_posix.py:32: in __init__
    super().__init__(process_obj)
/usr/local/lib/python3.12/multiprocessing/popen_fork.py:19: in __init__
    self._launch(process_obj)
/usr/local/lib/python3.12/multiprocessing/popen_spawn_posix.py:47: in _launch
    reduction.dump(process_obj, fp)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

obj = <SpawnProcess name='SpawnProcess-1' parent=81422 initial>
file = <_io.BytesIO object at 0x7f2b9d0f8d10>, protocol = None

    def dump(obj, file, protocol=None):
        '''Replacement for pickle.dump() using ForkingPickler.'''
>       ForkingPickler(file, protocol).dump(obj)
E       AttributeError: Can't pickle local object 'run_replicates.<locals>.worker'

/usr/local/lib/python3.12/multiprocessing/reduction.py:60: AttributeError
=========================== short test summary info ============================
FAILED tests/test_runner.py::test_run_replicates_spawned - AttributeError: Can't pickle local object 'run_replicates.<locals>.worker'
========================= 1 failed, 6 passed in 0.37s ==========================
""", "AttributeError")
