"""A project's identity: its repository, never its folder name (issue 32, invariant e).

Replay trust (stores/trust.py), recurrence (stores/recurrence.py), ranking by evidence
(stores/evidence.py), supersession and staleness (stores/lifecycle.py) and failed attempts
(stores/attempts.py) compare ``project_id``; the folder name (``project``) is for display only.
Two folders named ``h3shop`` are one project only when they hold the same repository.

- **A git work tree**: ``git:`` and a hash of its root commit(s) (``git rev-list --max-parents=0
  HEAD``), its ``origin`` remote normalised (``normalised_remote``: credentials, scheme, port,
  ``.git`` and trailing slash dropped, host lowercased, ssh ``git@host:o/r`` the same as
  ``https://host/o/r``; no remote is its own value) and the folder's place in the work tree (``git
  rev-parse --show-prefix``: ``backend/`` and ``frontend/`` of one monorepo are two projects). The
  same repository cloned into two folders of any names is one project. **A fork** (same root
  commit, another remote) is **another project**: whoever can push to the fork can put anything in
  it, so its fixes replay here only as another project's do (with a human's yes, or once confirmed
  in two projects).
- **Anything else** (no git, git without a commit, a repository git refuses to read): ``dir:`` and a
  random id, kept in a file under ``ASTRA_HOME/projects/`` named for the folder's real path and
  holding that path, its device and inode (the user can read it, or delete it to start over). Not a
  file in the project: a checkout, a tarball or a ``cp -r`` would bring it along, and a copied id
  file is a claim to be the same project that nobody checked; under ``ASTRA_HOME`` no project can
  bring one. A folder moved or renamed is a new project (replay asks again); another folder put at
  the same path (another inode) is a new project too, but a filesystem may give a folder deleted and
  made again its old inode: then it is the old project (not covered).
- **A bundled scenario**: ``scenario:`` and its project's name: our own files, and a user's folder
  never gets an id of that form.

Git runs hardened (``_git``): a timeout, no hooks, no pager, no fsmonitor, no credential helper or
ssh command, no network protocol, no system or global config (GIT_CONFIG_NOSYSTEM,
GIT_CONFIG_GLOBAL=/dev/null), a clean environment (no GIT_DIR from the caller), and git's own
ownership check kept (a repository another user owns is refused and gets the id file instead). The
commands used (``rev-parse``, ``rev-list``, ``config --no-includes --get``) run nothing a hostile
``.git/config`` names.

Not covered: a checkout that brings its own ``.git`` (a tarball with history, a ``.git`` file
pointing at another repository) claims that repository's identity, as a clone of it would; a pull
request checked out from the same remote is the same project.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

GIT_TIMEOUT_S = 10.0
MAX_GIT_OUTPUT = 64 * 1024  # root commits and a remote: a few hundred bytes; more is not believed
IDS_DIR = "projects"  # under ASTRA_HOME
DEFAULT_PORTS = {"ssh": 22, "git+ssh": 22, "ssh+git": 22, "https": 443, "http": 80, "git": 9418}
HARDENED = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat",
            "-c", "credential.helper=", "-c", "core.sshCommand=false", "-c", "protocol.allow=never",
            "-c", "core.askPass=false", "--no-pager")
SCP_LIKE = re.compile(r"^(?:[^@/:]+@)?(?P<host>[^/:]{2,}):(?!//)(?P<path>.*)$")  # git@host:o/r (not C:\...)


@dataclass(frozen=True)
class ProjectIdentity:
    project_id: str  # git:<hash>, dir:<uuid> or scenario:<name>
    source: str  # what it was taken from, for the user (the prepare event)


def normalised_remote(url: str) -> str:
    """``host/owner/repo`` for any spelling of one remote; a local path stays a path, cleaned."""
    text = url.strip()
    scp = None if "://" in text else SCP_LIKE.match(text)
    if scp:
        host, path = scp["host"], scp["path"]
    elif "://" in text:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
        try:
            port = parts.port
        except ValueError:
            port = None
        if port is not None and port != DEFAULT_PORTS.get(parts.scheme.lower()):
            host = f"{host}:{port}"
        path = parts.path
    else:
        host, path = "", text
    path = path.rstrip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")].rstrip("/")
    return f"{host.lower()}/{path.lstrip('/')}" if host else path


def hardened_git_env() -> dict[str, str]:
    """git's whole environment: no caller variables, no system or global config, no prompt."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "HOME": "/nonexistent",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0", "GIT_ASKPASS": "false", "SSH_ASKPASS": "false"}


def _git(folder: Path, *args: str) -> str | None:
    """git's stdout, or None when it fails, is missing, hangs or says too much."""
    try:
        done = subprocess.run(["git", *HARDENED, *args], cwd=folder, env=hardened_git_env(), stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0 or len(done.stdout) > MAX_GIT_OUTPUT:
        return None
    return done.stdout.decode("utf-8", "replace")


def git_identity(folder: Path) -> ProjectIdentity | None:
    """The identity of the git work tree ``folder`` is in, or None (not one, no commit, refused)."""
    where = _git(folder, "rev-parse", "--is-inside-work-tree", "--show-prefix")
    lines = (where or "").splitlines()
    if not lines or lines[0].strip() != "true":
        return None
    prefix = lines[1].strip() if len(lines) > 1 else ""
    roots = sorted(set((_git(folder, "rev-list", "--max-parents=0", "HEAD") or "").split()))
    if not roots or not all(re.fullmatch(r"[0-9a-f]{40,64}", r) for r in roots):
        return None
    remote = normalised_remote(_git(folder, "config", "--no-includes", "--get", "remote.origin.url") or "")
    digest = hashlib.sha256("\x1f".join(["git-v1", *roots, "remote", remote, "prefix", prefix]).encode())
    shown = f"root commit {', '.join(r[:12] for r in roots[:3])}{' ...' if len(roots) > 3 else ''}"
    return ProjectIdentity("git:" + digest.hexdigest()[:32],
                           f"git: {shown}, remote {remote or '(none)'}" + (f", folder {prefix}" if prefix else ""))


def id_file_for(folder: Path, home: Path) -> Path:
    """Where the kept id of a folder that is not a git work tree lives."""
    real = os.path.realpath(folder)
    return Path(home) / IDS_DIR / (hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".json")


def _read_kept(path: Path, real: str, stat: os.stat_result) -> str | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("path") != real:
        return None
    if data.get("device") != stat.st_dev or data.get("inode") != stat.st_ino:
        return None  # another folder at the same path: another project
    kept = data.get("project_id")
    return kept if isinstance(kept, str) and re.fullmatch(r"dir:[0-9a-f]{32}", kept) else None


def kept_identity(folder: Path, home: Path) -> ProjectIdentity:
    """The random id kept for ``folder`` under ``home`` (made on first use)."""
    real = os.path.realpath(folder)
    stat = os.stat(real)
    path = id_file_for(folder, home)
    kept = _read_kept(path, real, stat)
    if kept is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"path": real, "project_id": "dir:" + uuid.uuid4().hex, "device": stat.st_dev,
                "inode": stat.st_ino, "created": datetime.now(timezone.utc).isoformat()}
        temporary = path.with_name(f"{path.name}.{uuid.uuid4().hex}.tmp")
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        try:
            os.link(temporary, path)  # the first of two sessions starting at once wins
        except FileExistsError:
            if _read_kept(path, real, stat) is None:  # a stale file (another folder once): replaced
                os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
        kept = _read_kept(path, real, stat) or data["project_id"]
    return ProjectIdentity(kept, f"id file {path}")


def project_identity(folder: str | Path, home: str | Path) -> ProjectIdentity:
    """A user's project folder's identity: its git repository's, else its kept id (module docstring)."""
    folder = Path(folder)
    return git_identity(folder) or kept_identity(folder, Path(home))


def scenario_identity(project: str) -> ProjectIdentity:
    """A bundled scenario's identity: its project's name, in a form no user's folder gets."""
    return ProjectIdentity(f"scenario:{project}", "bundled scenario")
