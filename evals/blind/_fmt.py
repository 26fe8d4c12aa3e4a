"""Formatting helpers used by gen.py to build realistic test-runner output.

Mini markup understood by render() (one directive per line):
  ==[title]        pytest "=" separator with a centred title
  __[title]        pytest "_" separator (test header) with a centred title
  _ _              pytest "_ _ _" frame separator (full width)
  %%path chars [pct]  progress line, padded so "[pct]" ends at the terminal width
  !!text           a short-summary line that pytest truncates to the terminal width
Everything else is copied verbatim.  color=True adds the ANSI escapes that
pytest --color=yes prints.
"""
import difflib
import re

RED = "\x1b[31m"
GREEN = "\x1b[32m"
YELLOW = "\x1b[33m"
CYAN = "\x1b[36m"
BOLD = "\x1b[1m"
RESET = "\x1b[0m"


def sep(ch, title, width):
    if title is None:
        return ch * (width // len(ch))
    n = max((width - len(title) - 2) // (2 * len(ch)), 1)
    fill = ch * n
    line = f"{fill} {title} {fill}"
    if len(line) + len(ch.rstrip()) <= width:
        line += ch.rstrip()
    return line


def _progress(body, width):
    head, pct = body.rsplit(" [", 1)
    pct = "[" + pct
    pad = max(width - len(head) - len(pct), 1)
    return head + " " * pad + pct


def _colour_progress(line):
    m = re.match(r"^(\S+ )([.FEsx]+)(\s+)(\[\s*\d+%\])$", line)
    if not m:
        return line
    path, chars, pad, pct = m.groups()
    out = path
    for c in chars:
        if c == ".":
            out += GREEN + c + RESET
        elif c in "FE":
            out += RED + c + RESET
        else:
            out += YELLOW + c + RESET
    colour = RED if ("F" in chars or "E" in chars) else GREEN
    return out + colour + pad + pct + RESET


def _colour_final(line):
    m = re.match(r"^(=+ )(.*)( in [0-9.]+s(?: \([0-9:]+\))?)( =+)$", line)
    if not m:
        return RED + line + RESET
    lead, counts, tail, trail = m.groups()
    parts = []
    for i, part in enumerate(counts.split(", ")):
        if "failed" in part or "error" in part:
            c = RED + (BOLD if i == 0 else "")
        elif "passed" in part:
            c = GREEN
        else:
            c = YELLOW
        parts.append(c + part + RESET)
    return (RED + lead + ", ".join(parts) + RED + tail + RESET + RED + trail + RESET)


def render(text, width=80, color=False):
    out = []
    for raw in text.strip("\n").split("\n"):
        kind = None
        if raw.startswith("==[") and raw.endswith("]"):
            title = raw[3:-1]
            line = sep("=", title, width)
            if title == "test session starts":
                kind = "header"
            elif title == "short test summary info":
                kind = "summary"
            elif re.search(r"\d+ (failed|passed|error)", title):
                kind = "final"
            else:
                kind = "plainsep"
        elif raw.startswith("__[") and raw.endswith("]"):
            line = sep("_", raw[3:-1], width)
            kind = "testhead"
        elif raw == "_ _":
            line = sep("_ ", None, width)
        elif raw.startswith("%%"):
            line = _progress(raw[2:], width)
            kind = "progress"
        elif raw.startswith("!!"):
            # pytest's _format_trimmed(): the " - message" part is cut to the
            # terminal width with "...", or dropped if the node id leaves no room.
            line = raw[2:]
            head, _, msg = line.partition(" - ")
            avail = width - len(head)
            if msg and len(line) > width:
                if 3 + 3 > avail:
                    line = head
                else:
                    line = head + " - " + msg[: avail - 6] + "..."
            kind = "failedline"
        else:
            line = raw
            if raw.startswith(("FAILED ", "ERROR ")):
                kind = "failedline"
            elif raw.startswith("E   "):
                kind = "eline"
            elif raw.startswith(">   "):
                kind = "arrow"
            elif re.match(r"^[\w./-]+\.py:\d+: \w", raw):
                kind = "loc"
        if color:
            if kind == "header":
                line = BOLD + line + RESET
            elif kind == "summary":
                line = CYAN + BOLD + line + RESET
            elif kind == "final":
                line = _colour_final(line)
            elif kind == "testhead":
                line = RED + BOLD + line + RESET
            elif kind == "progress":
                line = _colour_progress(line)
            elif kind == "failedline":
                word, rest = line.split(" ", 1)
                m = re.match(r"^(\S+?::)(\S+)(.*)$", rest)
                if m:
                    rest = m.group(1) + BOLD + m.group(2) + RESET + m.group(3)
                line = RED + word + RESET + " " + rest
            elif kind in ("eline", "arrow"):
                line = BOLD + RED + line + RESET
            elif kind == "loc":
                path, rest = line.split(":", 1)
                line = BOLD + RED + path + RESET + ":" + rest
        out.append(line)
    return "\n".join(out) + "\n"


def unified(path, before, after, start=1, func=""):
    """Unified diff of two code snippets; start is the file line of the snippet's first line."""
    a = before.strip("\n").split("\n")
    b = after.strip("\n").split("\n")
    lines = list(difflib.unified_diff(a, b, "a/" + path, "b/" + path, n=3, lineterm=""))
    out = []
    for ln in lines:
        m = re.match(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@$", ln)
        if m:
            s1 = int(m.group(1)) + start - 1
            s2 = int(m.group(3)) + start - 1
            ln = f"@@ -{s1}{m.group(2) or ''} +{s2}{m.group(4) or ''} @@"
            if func:
                ln += " " + func
        out.append(ln)
    return "\n".join(out) + "\n"


CASES = []


def record(id, project, family, failure, error_type, files, fix, outcome, diff,
           width=80, color=False):
    CASES.append({
        "type": "record", "id": id, "project": project, "family": family,
        "failure": render(failure, width, color), "error_type": error_type,
        "files": files, "fix": " ".join(fix.split()), "outcome": outcome,
        "diff": diff,
    })


def query(id, project, family, failure, error_type, relevant, width=80, color=False):
    CASES.append({
        "type": "query", "id": id, "project": project, "family": family,
        "failure": render(failure, width, color), "error_type": error_type,
        "relevant": relevant,
    })
