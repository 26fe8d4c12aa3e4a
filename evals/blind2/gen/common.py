"""Small helpers shared by the hand-written case files.

Only the pytest session header (which pytest prints identically for every
run) and ANSI colouring are generated; every FAILURES body, traceback,
summary, fix and diff is written by hand in the fam_*.py files.
"""
CASES = []


def hdr(root, collected, py="3.11.6", pytest="7.4.3", pluggy="1.3.0",
        plugins=None, configfile=None, plat="linux", verbose=False):
    lines = ["============================= test session starts =============================="]
    pyver = "Python %s, pytest-%s, pluggy-%s" % (py, pytest, pluggy)
    if verbose:
        pyver += " -- /usr/local/bin/python3"
    lines.append("platform %s -- %s" % (plat, pyver))
    if verbose:
        lines.append("cachedir: .pytest_cache")
    r = "rootdir: %s" % root
    if configfile:
        r += "\nconfigfile: %s" % configfile
    lines.append(r)
    if plugins:
        lines.append("plugins: %s" % plugins)
    lines.append("collected %d item%s" % (collected, "" if collected == 1 else "s"))
    return "\n".join(lines) + "\n"


RED = "\x1b[31m"; GREEN = "\x1b[32m"; YEL = "\x1b[33m"; BOLD = "\x1b[1m"; RST = "\x1b[0m"


def colorize(text):
    """Apply pytest-style --color=yes escapes to a plain run."""
    import re
    out = []
    for ln in text.split("\n"):
        s = ln
        m = re.match(r"^(\S+\.py) ([.FEsx]+)(\s+)(\[\s*\d+%\])$", ln)
        mv = re.match(r"^(\S+::\S+) (PASSED|FAILED|ERROR)(\s+)(\[\s*\d+%\])$", ln)
        mf = re.match(r"^(\S+\.py:\d+)(: .*)$", ln)
        if m:
            dots = "".join((RED if ch in "FE" else GREEN) + ch + RST for ch in m.group(2))
            colour = RED if ("F" in m.group(2) or "E" in m.group(2)) else GREEN
            s = m.group(1) + " " + dots + m.group(3) + colour + m.group(4) + RST
        elif mv:
            colour = GREEN if mv.group(2) == "PASSED" else RED
            s = mv.group(1) + " " + colour + mv.group(2) + RST + mv.group(3) + colour + mv.group(4) + RST
        elif ln.startswith("E   ") or ln == "E":
            s = BOLD + RED + ln + RST
        elif ln.startswith("====") and (" in " in ln) and ("passed" in ln or "failed" in ln or "error" in ln):
            body = ln.strip("= ")
            left = ln[:len(ln) - len(ln.lstrip("="))]
            right = ln[len(ln.rstrip("=")):]
            parts = []
            for piece in body.split(" in ")[0].split(", "):
                c = RED if ("failed" in piece or "error" in piece) else (GREEN if "passed" in piece else YEL)
                parts.append(c + (BOLD if c == RED else "") + piece + RST)
            s = RED + left + " " + ", ".join(parts) + RED + " in " + body.split(" in ")[1] + RST + RED + " " + right + RST
        elif ln.startswith("===") or ln.startswith("___"):
            s = (RED if "FAILURES" in ln or "ERRORS" in ln else "") + BOLD + ln + RST
        elif ln.startswith("FAILED ") or ln.startswith("ERROR "):
            parts = ln.split(" ", 1)
            s = RED + parts[0] + RST + " " + parts[1]
        elif ln.startswith(">"):
            s = BOLD + RED + ">" + RST + ln[1:]
        elif mf and not ln.startswith(" "):
            s = BOLD + RED + mf.group(1) + RST + mf.group(2)
        out.append(s)
    return "\n".join(out)


def R(id, project, family, failure, error_type, files, fix, outcome, diff):
    CASES.append(dict(type="record", id=id, project=project, family=family,
                      failure=failure, error_type=error_type, files=files,
                      fix=fix, outcome=outcome, diff=diff))


def Q(id, project, family, failure, error_type):
    CASES.append(dict(type="query", id=id, project=project, family=family,
                      failure=failure, error_type=error_type))
