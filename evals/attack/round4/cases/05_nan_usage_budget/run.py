"""Hostile model server: token usage reported as NaN (valid for Python's json). The session budget must
still stop the session (invariant (h): "Every number from outside is validated: token usage (negative,
fractional, absurd ...)"). Control: the same server reporting honest, large usage.
Price 1000 USD / Mtok in and out, budget 100 USD: each request's worst case is ~20-30 USD."""
import os, sys, json, math
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

def replies(usage):
    out = []
    for i in range(40):
        out.append({"calls": [{"name": "search_code", "args": {"pattern": "zz%d" % i}}], "usage": usage})
    return out

def session(tag, usage):
    c = Case("c05" + tag)
    ws = c.project("proj", BUGGY_CALC)
    url, logp = c.server(replies(usage))
    args = ["run", "--workspace", ws, "--test-command", "python -m pytest -q", "--python", PY,
            "--model", "openai:hostile-local", "--base-url", url, "--chat-completions", "--approve-live-cost",
            "--price-in", "1000", "--price-out", "1000", "--budget", "100", "--total-budget", "100",
            "--max-output-tokens", "1000", "--max-model-requests", "25", "--max-tool-calls", "60",
            "--no-approve-edits", "--json"]
    p = c.astra(args)
    d = parse_json(p)
    cost = c.astra(["cost", "--json"])
    return c, d, len(c.requests(logp)), cost.stdout

variants = {
    "nan": {"prompt_tokens": float("nan"), "completion_tokens": float("nan"), "total_tokens": float("nan")},
    "inf": {"prompt_tokens": float("inf"), "completion_tokens": 1, "total_tokens": float("inf")},
    "cached_gt_prompt": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                         "prompt_tokens_details": {"cached_tokens": 10**12}},
    "neg_reasoning": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                      "completion_tokens_details": {"reasoning_tokens": -10**12}},
}
bad = []
for tag, usage in variants.items():
    c, d, n, cost = session(tag, usage)
    try:
        spent = json.loads(cost)["total"]["spent_usd"]
    except Exception:
        spent = cost[:200]
    cu = d.get("cost_usd")
    print(f"{tag}: status={d.get('status')} requests={n} cost_usd={cu} ledger_spent={spent} | {(d.get('reason') or '')[:160]}")
    if not isinstance(cu, (int, float)) or math.isnan(cu) or cu < 0 or cu > 100 \
            or not isinstance(spent, (int, float)) or math.isnan(spent) or spent < 0 or spent > 100 \
            or d.get("status") in ("error", None):
        bad.append(f"{tag}: status={d.get('status')} cost={cu} ledger={spent}")
verdict(bool(bad), "; ".join(bad) if bad else "NaN/inf/cached>prompt/negative reasoning usage: every session's cost finite, >= 0 and within the $100 budget")
