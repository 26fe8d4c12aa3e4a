"""The git side of ``astra-memory learn``: which commits of a project's history are candidate fixes,
and the trees and diffs one is confirmed with.

GitPython reads the repository (``iter_commits``, trees, blobs, ``git diff`` between a commit and its
parent) and unidiff parses the diffs: no ``git log`` text is parsed here. Git runs with the same
hardened settings as the project's identity (workspace/identity.py: no hooks, no pager, no external
diff or text conversion, no system or global config), and every file learn writes is a blob's bytes
as stored (``export_tree``): no filter driver the repository's config names ever runs.

A **candidate** is a commit with one parent that changes test files and source files (``Filters``,
learn/options.py, shown in ``astra-memory learn --help`` and changed there): its message matches ``message`` (a
regular expression, case-insensitive; "" for every message), it changes at most ``max_lines``
source lines in at most ``max_files`` source files, every source file it changes exists at the
parent and at the commit (a fix adds or deletes no source file: a replayed diff changes files that
exist), and no changed path matches ``exclude``. A test file is what the failure parser calls one
(testrun/symptoms.py ``is_test_path``: ``tests/``, ``test_*.py``, ``*_test.py``, ``conftest.py``); a
source file is any other changed file matching ``source`` (``*.py`` by default). Other changed files
(docs, changelogs, CI) are neither applied nor stored.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import asdict, dataclass, field
from datetime import timezone
from pathlib import Path, PurePosixPath

try:  # GitPython refuses to load where there is no git executable: said when learn opens a repository
    from git import Repo
    from git.exc import GitCommandError, InvalidGitRepositoryError, NoSuchPathError
    GIT_MISSING = ""
except ImportError as exc:
    Repo = None
    GitCommandError = InvalidGitRepositoryError = NoSuchPathError = OSError
    GIT_MISSING = " ".join(str(exc).split())[:300]
from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from astra_memory.errors import AstraError
from astra_memory.learn.options import DEFAULT_FILTERS, Filters
from astra_memory.redact import scrub
from astra_memory.testrun.symptoms import is_test_path

# `git diff` as learn runs it: no colour, no external diff or text conversion, no rename detection
# (a rename is a delete and an add), the default three lines of context.
DIFF_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "-U3")
HARDENED_CONFIG = ("core.fsmonitor=false", "core.hooksPath=/dev/null", "core.pager=cat", "credential.helper=",
                   "protocol.allow=never", "diff.external=", "core.attributesFile=/dev/null",
                   "core.quotePath=false")  # a non-ASCII name as it is, not "\303\274..." in quotes


class HistoryError(AstraError):
    """The workspace's git history cannot be read (not a repository, an unknown revision)."""


@dataclass
class Commit:
    """One commit of the walk, as the learn graph keeps it (plain data: it is checkpointed)."""

    sha: str
    parent: str
    subject: str
    author_date: str  # ISO 8601, UTC
    test_files: list[str] = field(default_factory=list)
    source_files: list[str] = field(default_factory=list)
    skipped: str = ""  # why it is not a candidate ("" for a candidate)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Change:
    """What confirming a candidate needs: its test files' content at the commit (None: deleted),
    its source files' content at the commit, and the source diff as git wrote it, byte for byte."""

    message: str
    tests: dict[str, bytes | None]
    sources: dict[str, bytes]
    source_diff: str


def _matches(path: str, patterns: tuple[str, ...]) -> bool:
    name = path.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(path, p) or fnmatch.fnmatchcase(name, p) for p in patterns)


def open_repo(workspace: str | Path) -> Repo:
    """The repository of ``workspace``, or HistoryError saying why there is none."""
    if Repo is None:
        raise HistoryError(f"learn reads the project's history with git, which cannot be run here: {GIT_MISSING}")
    try:
        repo = Repo(Path(workspace), search_parent_directories=False)
        repo.head.commit  # noqa: B018  (a repository with no commit has no history to learn)
    except (InvalidGitRepositoryError, NoSuchPathError):
        raise HistoryError(f"{workspace} is not a git repository (its own .git): learn reads a project's git "
                           "history") from None
    except ValueError:
        raise HistoryError(f"the git repository at {workspace} has no commit yet") from None
    repo.git.update_environment(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", GIT_TERMINAL_PROMPT="0")
    return repo


def _git(repo: Repo):
    """``repo.git`` with the hardened ``-c`` settings (module docstring)."""
    return repo.git(c=list(HARDENED_CONFIG))


def raw_diff(repo: Repo, parent: str, sha: str, paths: list[str] | None = None) -> str:
    """``git diff parent sha [-- paths]`` exactly as git writes it (the trailing newline kept)."""
    args = [*DIFF_OPTIONS, parent, sha, *(["--", *paths] if paths is not None else [])]
    data = _git(repo).diff(*args, stdout_as_string=False, strip_newline_in_stdout=False)
    return data.decode("utf-8")


def describe(repo: Repo, commit, filters: Filters) -> Commit:
    """The commit as a candidate, or with ``skipped`` saying why it is not one."""
    parents = commit.parents
    when = commit.authored_datetime.astimezone(timezone.utc).isoformat()
    summary = commit.summary if isinstance(commit.summary, str) else commit.summary.decode("utf-8", "replace")
    item = Commit(sha=commit.hexsha, parent=parents[0].hexsha if len(parents) == 1 else "",
                  subject=scrub(summary),  # printed, kept in --json and checkpointed: never a key
                  author_date=when)
    if len(parents) != 1:
        item.skipped = "a merge commit" if parents else "the first commit (no parent to compare with)"
        return item
    message = commit.message if isinstance(commit.message, str) else commit.message.decode("utf-8", "replace")
    if filters.message and not re.search(filters.message, message, re.IGNORECASE):
        item.skipped = "its message does not look like a fix (--message)"
        return item
    try:
        patch = PatchSet(raw_diff(repo, item.parent, item.sha))
    except UnicodeDecodeError:
        item.skipped = "its diff is not UTF-8 text"
        return item
    except UnidiffParseError as exc:
        item.skipped = f"its diff cannot be parsed ({exc})"
        return item
    tests, sources, lines, other_changes = [], [], 0, []
    for changed in patch:
        path = changed.path
        if path.startswith('"'):  # a name git must quote even so (a newline, a tab, a quote, a backslash)
            item.skipped = f"it changes {path}, a file name git has to quote (learn leaves such names out)"
            return item
        if _matches(path, filters.exclude):
            item.skipped = f"it changes {path}, which --exclude leaves out"
            return item
        if is_test_path(path):
            tests.append(path)
        elif _matches(path, filters.source):
            if changed.is_binary_file:
                item.skipped = f"it changes {path} as a binary file"
                return item
            if changed.is_added_file or changed.is_removed_file:
                other_changes.append(f"{'adds' if changed.is_added_file else 'deletes'} {path}")
            sources.append(path)
            lines += changed.added + changed.removed
    item.test_files, item.source_files = tests, sources
    if not tests:
        item.skipped = "it changes no test file"
    elif not sources:
        item.skipped = "it changes no source file (--source)"
    elif other_changes:
        item.skipped = f"it {other_changes[0]} (a learned fix only changes files that exist)"
    elif len(sources) > filters.max_files:
        item.skipped = f"it changes {len(sources)} source files (--max-files {filters.max_files})"
    elif lines > filters.max_lines:
        item.skipped = f"it changes {lines} source lines (--max-lines {filters.max_lines})"
    return item


def walk(workspace: str | Path, *, since: str | None = None, max_commits: int | None = None,
         filters: Filters = DEFAULT_FILTERS, until: str = "HEAD") -> list[Commit]:
    """The commits after ``since`` up to ``until`` (all of its history without ``since``), at most the
    ``max_commits`` latest, oldest first, each a candidate or with the reason it is not one."""
    repo = open_repo(workspace)
    rev = f"{since}..{until}" if since else until
    try:
        commits = list(repo.iter_commits(rev, max_count=max_commits, topo_order=True))
    except (GitCommandError, ValueError) as exc:
        raise HistoryError(f"git cannot list the commits {rev!r} of {workspace}: "
                           f"{' '.join(str(getattr(exc, 'stderr', exc)).split())[:300]}") from None
    return [describe(repo, c, filters) for c in reversed(commits)]


def change_of(workspace: str | Path, item: Commit) -> Change:
    """What confirming the candidate ``item`` needs (``Change``), read from the repository."""
    repo = open_repo(workspace)
    try:
        commit = repo.commit(item.sha)
        commit.tree  # noqa: B018  (a commit gone from the repository fails here, not half way)
    except (ValueError, GitCommandError) as exc:
        raise HistoryError(f"commit {item.sha[:12]} is no longer in the repository (was its history rewritten?): "
                           f"{' '.join(str(exc).split())[:200]}") from None
    tests: dict[str, bytes | None] = {}
    for path in item.test_files:
        try:
            tests[path] = (commit.tree / path).data_stream.read()
        except KeyError:  # deleted by the commit
            tests[path] = None
    sources = {path: (commit.tree / path).data_stream.read() for path in item.source_files}
    message = commit.message if isinstance(commit.message, str) else commit.message.decode("utf-8", "replace")
    return Change(message=message, tests=tests, sources=sources,
                  source_diff=raw_diff(repo, item.parent, item.sha, item.source_files))


def export_tree(workspace: str | Path, sha: str, destination: str | Path) -> Path:
    """The tree of commit ``sha`` written to a new folder ``destination``: each blob's bytes as git
    stores them (read with ``git cat-file``, never converted: no filter driver of the repository's
    config runs, no ``export-subst``/``export-ignore``/``eol`` attribute applies, as the diffs and the
    test files learn reads are the objects too), its executable bit, a symlink only where it points
    inside the tree, a submodule as an empty folder. Nothing is written through a link."""
    repo = open_repo(workspace)
    try:
        tree = repo.commit(sha).tree
    except (ValueError, GitCommandError) as exc:
        raise HistoryError(f"commit {sha[:12]} is no longer in the repository: {' '.join(str(exc).split())[:200]}"
                           ) from None
    destination = Path(destination)
    destination.mkdir(parents=True, exist_ok=False)
    root = destination.resolve()
    for entry in tree.traverse():
        parts = PurePosixPath(entry.path).parts
        if not parts or any(p in ("", ".", "..") for p in parts) or entry.path.startswith("/"):
            raise HistoryError(f"the tree of {sha[:12]} has a path that leaves it: {entry.path!r}")
        target = root.joinpath(*parts)
        if entry.type in ("tree", "submodule"):
            target.mkdir(exist_ok=True)
            continue
        data = entry.data_stream.read()
        if entry.mode & 0o170000 == 0o120000:
            link = os.fsdecode(data)
            inside = os.path.normpath(os.path.join(os.path.dirname(str(target)), link))
            if os.path.isabs(link) or not (inside == str(root) or inside.startswith(str(root) + os.sep)):
                raise HistoryError(f"{entry.path} is a symlink out of the tree ({link!r})")
            os.symlink(link, target)
            continue
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                     0o755 if entry.mode & 0o111 else 0o644)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    return destination


def remove_file(root: Path, rel: str) -> None:
    """Delete ``rel`` (a file a commit deleted) inside ``root``, never through a link."""
    target = root
    for part in Path(rel).parts:
        target = target / part
        if target.is_symlink() and target != root / rel:
            raise HistoryError(f"{rel}: {target.relative_to(root)} is a symlink; refusing to delete through it")
    if target.is_file() or target.is_symlink():
        os.unlink(target)
