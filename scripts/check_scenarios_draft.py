"""Draft checker for the bundled bug scenarios (development aid).

For every scenario under astra_memory/scenarios/bundled/ it checks that all acceptance
tests fail on the template, that the scripted apply_edit steps apply cleanly (each
old_text occurs exactly once), that all tests pass afterwards, and that every family
has at least three scenarios.
"""

import collections
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "astra_memory" / "scenarios" / "bundled"
PYTHON = "/tmp/venv/bin/python"
REQUIRED_KEYS = {"name", "family", "project", "title", "prompt", "test_command", "solution"}


def run_tests(workdir: Path, command: str) -> tuple[int, str]:
    argv = command.split()
    if argv[0] == "python":
        argv[0] = PYTHON
    proc = subprocess.run(argv, cwd=workdir, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    return proc.returncode, proc.stdout + proc.stderr


def counts(output: str) -> dict[str, int]:
    summary = output.strip().splitlines()[-1] if output.strip() else ""
    return {kind: int(n) for n, kind in re.findall(r"(\d+) (failed|passed|error|errors)", summary)}


def check(scenario_dir: Path) -> list[str]:
    problems = []
    data = tomllib.loads((scenario_dir / "scenario.toml").read_text())
    missing = REQUIRED_KEYS - data.keys()
    if missing:
        return [f"missing keys {sorted(missing)}"]
    if data["name"] != scenario_dir.name:
        problems.append(f"name {data['name']!r} != folder name")
    steps = data["solution"]
    tools = [step["tool"] for step in steps]
    if tools[0] != "read_file" or tools[-1] != "finish" or set(tools[1:-1]) != {"apply_edit"}:
        problems.append(f"unexpected solution tools {tools}")
    if not (scenario_dir / "project" / steps[0]["args"]["path"]).is_file():
        problems.append("read_file path does not exist")
    finish = steps[-1]["args"]
    if not finish.get("error_type") or not finish.get("fix_description"):
        problems.append("finish lacks error_type/fix_description")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "project"
        shutil.copytree(scenario_dir / "project", work)
        n_tests = len(re.findall(r"^def test_", "".join(
            p.read_text() for p in (work / "tests").glob("test_*.py")), re.M))
        if not 3 <= n_tests <= 6:
            problems.append(f"{n_tests} tests (want 3-6)")
        rc, out = run_tests(work, data["test_command"])
        c = counts(out)
        if rc != 1 or c.get("passed", 0) or c.get("failed") != n_tests:
            problems.append(f"before fix: rc={rc} counts={c} (want {n_tests} failed)\n{out[-1500:]}")
        elif finish.get("error_type") and finish["error_type"] not in out:
            problems.append(f"error_type {finish['error_type']} not in failing output")
        for step in steps:
            if step["tool"] != "apply_edit":
                continue
            args = step["args"]
            if not args["path"].startswith("app/"):
                problems.append(f"edit outside app/: {args['path']}")
            target = work / args["path"]
            text = target.read_text()
            occurrences = text.count(args["old_text"])
            if occurrences != 1:
                problems.append(f"old_text occurs {occurrences}x in {args['path']}: {args['old_text']!r}")
                break
            target.write_text(text.replace(args["old_text"], args["new_text"], 1))
        else:
            rc, out = run_tests(work, data["test_command"])
            c = counts(out)
            if rc != 0 or c.get("failed") or c.get("passed") != n_tests:
                problems.append(f"after fix: rc={rc} counts={c}\n{out[-1500:]}")
    return problems, data


def main() -> int:
    families = collections.Counter()
    names, projects, failures = set(), set(), 0
    dirs = sorted(p for p in ROOT.iterdir() if (p / "scenario.toml").is_file())
    for scenario_dir in dirs:
        problems, data = check(scenario_dir)
        families[data["family"]] += 1
        if data["project"] in projects:
            problems.append(f"duplicate project {data['project']}")
        projects.add(data["project"])
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {data['family']:18} {scenario_dir.name}")
        for problem in problems:
            print("     - " + problem)
        failures += bool(problems)
    for family, n in sorted(families.items()):
        if n < 3:
            print(f"FAIL family {family} has only {n} scenarios")
            failures += 1
    print(f"\n{len(dirs)} scenarios, {len(families)} families, {failures} failing")
    print(", ".join(f"{f}={n}" for f, n in sorted(families.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
