"""The environment the tests import from is part of the snapshot.

The fresh copy that confirms a fix links the project's environments (``.venv``, ...) instead of
copying them, and ``python -m pytest`` runs on the agent's own interpreter: a test run that writes
a ``.pth`` file, a ``sitecustomize.py`` or a patched module into one of them changes what every
later run, the confirmation included, imports. So observe records the environment (``Environment``)
and every later test run is held to it:

- ``read-only`` (where a test step gets its own mount namespace, testrun/isolation.py): the
  environment's folders are bind-mounted read-only inside the step, so nothing a test starts can
  write there; after each run a quick manifest (the entries of every import folder, the content of
  every ``.pth``/``sitecustomize``/``usercustomize`` file) is checked as well.
- ``manifest`` (elsewhere): a full manifest, every file's size, mtime, ctime, inode and mode (ctime
  cannot be set back by ``os.utime``; it counts for the files Python imports, ``IMPORTED``) and
  the content hash of ``.pth`` files, taken at observe and checked after every run.

Any difference fails the run, and its paths are named in the run's outcome. The one exemption:
bytecode caches (``__pycache__/*.pyc``) that are exactly what this interpreter compiles from their
unchanged source (the agent's own imports write them); any other ``.pyc`` counts as a change.

The environment is: the test command's interpreter (its venv, its standard library, every import
folder on its ``sys.path`` and the interpreter binary), the agent's own, the project's linked
environment folders (``.venv``, ``venv``, ``.tox``, ``.nox``) and folders the task's PYTHONPATH
names outside the workspace; never the workspace itself, nor anything holding it or the temp folder.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import marshal
import os
import re
import shlex
import shutil
import site
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from astra_memory.testrun.isolation import read_only_supported, start_step
from astra_memory.workspace.protected import ENVIRONMENT_DIRS

GUARD_READ_ONLY, GUARD_MANIFEST = "read-only", "manifest"
MANIFEST_FILE = "environment-manifest.json.gz"
RECORD_FILE = "environment.json"
HASHED = re.compile(r"(\.pth|(^|/)(site|user)customize\.py)$")
# Python's own files (source, bytecode, .pth, the entry points pytest loads plugins from): for these a
# ctime change alone (content rewritten with its size kept and its mtime set back) counts. For any
# other file only size, mtime, inode and mode do: installed tools chmod their own binaries and
# libraries on every start (an embedded PostgreSQL server's, for one), which moves only the ctime.
IMPORTED = re.compile(r"(\.(py|pyc|pyw|pth)|/entry_points\.txt|/top_level\.txt)$")
_PYTHON = re.compile(r"^python[\d.]*(\.exe)?$")
_PYC = re.compile(r"^(?P<stem>[^.]+)\.(?P<tag>[\w-]+?)(?:\.opt-(?P<opt>\d))?\.pyc$")
_QUERY = ("import json, sys, sysconfig; print(json.dumps({'path': sys.path, 'prefix': sys.prefix, "
          "'base_prefix': sys.base_prefix, 'executable': sys.executable, 'stdlib': sysconfig.get_path('stdlib')}))")
MAX_PATHS_SHOWN = 5
_LOADED: dict[str, dict] = {}  # manifest file digest -> its entries (read once per process)


def guard_mode() -> str:
    """``read-only`` where a test step can have its own mount namespace here, else ``manifest``."""
    return GUARD_READ_ONLY if read_only_supported() else GUARD_MANIFEST


def mounts_read_only(roots: list[str]) -> bool:
    """Whether a step here can mount exactly ``roots`` read-only (a file system may refuse one)."""
    try:
        step = start_step([sys.executable, "-I", "-S", "-c", "pass"], cwd=Path(tempfile.gettempdir()),
                          env={"PATH": "/usr/bin:/bin"}, read_only=roots)
    except OSError:
        return False
    with step:
        step.collect(timeout_s=30, max_bytes=10_000)
    return step.exit_code == 0


# -- what the environment is ------------------------------------------------------------------------

def command_program(command: str) -> str:
    """The program a test command starts (its first word), or "" when it names none or cannot be split."""
    try:
        return (shlex.split(command) or [""])[0]
    except ValueError:
        return ""


def command_interpreter(workspace: Path, command: str, env: dict[str, str]) -> Path | None:
    """The Python the test command runs on: its program when that is a Python, the interpreter a
    script's ``#!`` line names (``pytest``), else the ``python`` first on the test PATH."""
    program = command_program(command)
    search = env.get("PATH", "")

    def find(name: str) -> Path | None:
        if "/" in name:
            path = Path(name) if os.path.isabs(name) else workspace / name
            return path if path.exists() else None
        found = shutil.which(name, path=search)
        return Path(found) if found else None

    found = find(program) if program else None
    if found and _PYTHON.match(found.name):
        return found
    if found and found.is_file():
        try:
            first = found.read_bytes()[:256].split(b"\n", 1)[0].decode("utf-8", errors="replace")
        except OSError:
            first = ""
        if first.startswith("#!"):
            words = first[2:].split()
            if words and os.path.basename(words[0]) == "env" and len(words) > 1:
                words = words[1:]
            if words and _PYTHON.match(os.path.basename(words[0])):
                return find(words[0])
    return find("python")


def _query(python: Path) -> dict:
    """``sys.path``, prefixes and executable of ``python`` (isolated: no PYTHONPATH, no user site,
    no working-directory code runs)."""
    try:
        done = subprocess.run([str(python), "-I", "-c", _QUERY], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, cwd=tempfile.gettempdir(), env={"PATH": "/usr/bin:/bin"})
        return json.loads(done.stdout) if done.returncode == 0 else {}
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return {}


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def environment_folders(workspace: str | Path, command: str, env: dict[str, str]) -> tuple[list[str], list[str], str]:
    """(roots, import folders, interpreter): what to hold still (mount read-only, or manifest) and
    the import folders the quick check lists."""
    workspace = Path(workspace).resolve()
    python = command_interpreter(workspace, command, env)
    theirs = _query(python) if python else {}
    # The agent's own environment: its installation's folders, not its sys.path (which holds the
    # working directory and source checkouts that are nobody's environment).
    ours = {"path": [*site.getsitepackages(), *(sysconfig.get_path(k) for k in ("stdlib", "platstdlib", "purelib"))],
            "prefix": sys.prefix, "base_prefix": sys.base_prefix, "executable": sys.executable}
    linked = [(workspace / name).resolve() for name in sorted(ENVIRONMENT_DIRS) if (workspace / name).is_dir()]
    temp = Path(tempfile.gettempdir()).resolve()

    def allowed(path: Path) -> bool:
        if str(path) == "/" or _inside(workspace, path) or _inside(temp, path):
            return False  # holds the workspace or the temp folder (the results go there)
        return not _inside(path, workspace) or any(_inside(path, env_dir) for env_dir in linked)

    imports: list[Path] = []
    roots: list[Path] = list(linked)
    for info in (theirs, ours):
        folders = [Path(p) for p in info.get("path", []) if isinstance(p, str) and os.path.isabs(p)]
        imports += [p.resolve() for p in folders if p.is_dir()]
        if info.get("prefix") and info.get("prefix") != info.get("base_prefix"):
            roots.append(Path(info["prefix"]).resolve())  # a venv: all of it (bin/ too)
        if info.get("executable"):
            roots.append(Path(info["executable"]).resolve())  # the interpreter binary itself
    extra = [Path(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if os.path.isabs(p)]
    imports += [p.resolve() for p in extra if p.is_dir()]
    imports = [p for p in dict.fromkeys(imports) if allowed(p)]
    roots = [p for p in dict.fromkeys(roots + imports) if p.exists() and allowed(p)]
    outermost = [p for p in sorted(roots, key=lambda p: len(p.parts))
                 if not any(q != p and _inside(p, q) for q in roots)]
    return [str(p) for p in sorted(outermost)], [str(p) for p in imports], str(python or "")


# -- manifests --------------------------------------------------------------------------------------

def _sha256(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError as exc:
        return f"unreadable: {exc.strerror}"


def _entry(path: str, st: os.stat_result) -> list:
    kind = "l" if stat.S_ISLNK(st.st_mode) else "f"
    entry = [kind, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode]
    if kind == "l":
        entry.append(os.readlink(path))
    elif HASHED.search(path):
        entry.append(_sha256(path))
    return entry


def full_manifest(roots: list[str]) -> dict[str, list]:
    """Every file and symlink under ``roots`` (symlinks not followed): kind, size, mtime_ns,
    ctime_ns, inode, mode, and the hash of ``.pth``/``*customize.py`` files."""
    entries: dict[str, list] = {}
    for root in roots:
        try:
            st = os.lstat(root)
        except OSError:
            entries[root] = ["missing"]
            continue
        if not stat.S_ISDIR(st.st_mode):
            entries[root] = _entry(root, st)
            continue
        stack = [root]
        while stack:
            folder = stack.pop()
            try:
                scan = os.scandir(folder)
            except OSError:
                continue
            with scan:
                for item in scan:
                    try:
                        if item.is_dir(follow_symlinks=False):
                            stack.append(item.path)
                        else:
                            entries[item.path] = _entry(item.path, item.stat(follow_symlinks=False))
                    except OSError:
                        continue
    return entries


def quick_manifest(imports: list[str]) -> dict[str, list]:
    """The entries of every import folder, and the content hash of the files that run at start-up
    (``.pth``, ``sitecustomize.py``, ``usercustomize.py``)."""
    entries: dict[str, list] = {}
    for folder in imports:
        try:
            names = os.listdir(folder)
        except OSError:
            entries[folder] = ["missing"]
            continue
        for name in names:
            path = os.path.join(folder, name)
            entries[path] = ["h", _sha256(path)] if HASHED.search(path) else ["e"]
    return entries


def fresh_bytecode(path: str) -> bool:
    """Whether ``path`` is a ``__pycache__`` file this interpreter would write for its unchanged
    source: the right magic, the source's own mtime and size (or hash), and the very code that
    compiling the source gives."""
    pyc = Path(path)
    match = _PYC.match(pyc.name)
    if pyc.parent.name != "__pycache__" or not match or match["tag"] != sys.implementation.cache_tag:
        return False
    source = pyc.parent.parent / f"{match['stem']}.py"
    try:
        data, text, st = pyc.read_bytes(), source.read_bytes(), source.stat()
    except OSError:
        return False
    if data[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(data[4:8], "little")
    if flags == 0:
        if (int.from_bytes(data[8:12], "little") != int(st.st_mtime) & 0xFFFFFFFF
                or int.from_bytes(data[12:16], "little") != st.st_size & 0xFFFFFFFF):
            return False
    elif not flags & 1 or data[8:16] != importlib.util.source_hash(text):
        return False
    try:
        return marshal.loads(data[16:]) == compile(text, str(source), "exec", dont_inherit=True,
                                                   optimize=int(match["opt"] or 0))
    except Exception:  # noqa: BLE001 - anything that does not load or compile is not fresh bytecode
        return False


def differences(before: dict[str, list], after: dict[str, list]) -> list[str]:
    """The paths that differ, each with what happened to it (new, changed, removed)."""
    changed = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old and new and len(old) > 3 and old[:3] + old[4:] == new[:3] + new[4:] and not IMPORTED.search(path):
            continue  # only the ctime moved (a chmod to the same mode) of a file Python does not import
        if path.endswith(".pyc") and (new is None or fresh_bytecode(path)):
            continue  # a bytecode cache removed, or written by Python from its unchanged source
        changed.append(f"{path} ({'new' if old is None else 'removed' if new is None else 'changed'})")
    return changed


def describe(changes: list[str]) -> str:
    shown = ", ".join(changes[:MAX_PATHS_SHOWN])
    more = f" and {len(changes) - MAX_PATHS_SHOWN} more" if len(changes) > MAX_PATHS_SHOWN else ""
    return f"the environment the tests import from changed: {shown}{more}"


# -- what observe records -----------------------------------------------------------------------------

@dataclass
class Environment:
    """The environment observe recorded (as a RunRecord keeps it: ``to_record``)."""

    guard: str  # read-only or manifest
    roots: list[str] = field(default_factory=list)  # mounted read-only / fully manifested
    imports: list[str] = field(default_factory=list)  # the import folders (quick manifest)
    interpreter: str = ""
    manifest: str = ""  # the file holding the manifest taken at observe
    digest: str = ""  # its sha256: a manifest file changed since is not trusted
    files: int = 0
    took_ms: float = 0.0  # how long taking the manifest took

    def to_record(self) -> dict:
        return asdict(self)

    @classmethod
    def from_record(cls, record: dict) -> Environment:
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in record.items() if k in known})

    @property
    def read_only(self) -> list[str]:
        """What a test step mounts read-only (nothing in manifest mode)."""
        return self.roots if self.guard == GUARD_READ_ONLY else []

    def scan(self) -> dict[str, list]:
        return quick_manifest(self.imports) if self.guard == GUARD_READ_ONLY else full_manifest(self.roots)

    def recorded(self) -> dict[str, list] | None:
        if self.digest in _LOADED:
            return _LOADED[self.digest]
        try:
            data = Path(self.manifest).read_bytes()
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != self.digest:
            return None
        _LOADED[self.digest] = json.loads(gzip.decompress(data))
        return _LOADED[self.digest]

    def check(self) -> list[str]:
        """What changed since observe (empty: nothing)."""
        before = self.recorded()
        if before is None:
            return [f"{self.manifest} (the manifest taken at observe is missing or was changed)"]
        return differences(before, self.scan())


def record_environment(workspace: str | Path, command: str, env: dict[str, str], directory: str | Path,
                       *, guard: str | None = None) -> Environment:
    """Observe's record of the environment, taken before its test run; its manifest is written to
    ``directory`` (the session's run directory). Like the snapshot, a record already there (a
    re-run of observe after a crash: the first run may have changed the environment) is kept."""
    directory = Path(directory)
    kept = directory / RECORD_FILE
    if kept.is_file():
        try:
            environment = Environment.from_record(json.loads(kept.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            environment = None
        if environment is not None and environment.recorded() is not None:
            return environment
    roots, imports, python = environment_folders(workspace, command, env)
    guard = guard or guard_mode()
    if guard == GUARD_READ_ONLY and roots and not mounts_read_only(roots):
        guard = GUARD_MANIFEST  # one of them cannot be mounted read-only here: check them all instead
    environment = Environment(guard=guard, roots=roots, imports=imports, interpreter=python)
    started = time.perf_counter()
    entries = environment.scan()
    environment.took_ms = round(1000 * (time.perf_counter() - started), 1)
    data = gzip.compress(json.dumps(entries, separators=(",", ":")).encode("utf-8"), compresslevel=1)
    target = directory / MANIFEST_FILE
    directory.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    environment.manifest, environment.files = str(target), len(entries)
    environment.digest = hashlib.sha256(data).hexdigest()
    _LOADED[environment.digest] = entries
    partial = kept.with_name(kept.name + ".partial")
    partial.write_text(json.dumps(environment.to_record()), encoding="utf-8")
    os.replace(partial, kept)
    return environment
