"""The same hostile usage numbers as case 05, on the default wire (the Responses API): input/output
tokens NaN and Infinity, cached input tokens far above the input tokens, negative reasoning tokens.
Invariant (h): every number from outside is validated; the session budget ($100 at $1000/Mtok) must hold
and no cost may be NaN or negative."""
import os, sys, json, math
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

def session(tag, usage):
    c = Case("c17" + tag)
    ws = c.project("proj", BUGGY_CALC)
    url, logp = c.server([{"calls": [{"name": "search_code", "args": {"pattern": "zz%d" % i}}], "usage": usage} for i in range(40)])
    args = ["run", "--workspace", ws, "--test-command", "python -m pytest -q", "--python", PY,
            "--model", "openai:hostile-local", "--base-url", url, "--approve-live-cost",
            "--price-in", "1000", "--price-out", "1000", "--budget", "100", "--total-budget", "100",
            "--max-output-tokens", "1000", "--max-model-requests", "25", "--no-approve-edits", "--json"]
    p = c.astra(args)
    d = parse_json(p)
    cost = c.astra(["cost", "--json"])
    try:
        spent = json.loads(cost.stdout)["total"]["spent_usd"]
    except Exception:
        spent = cost.stdout[:200] + cost.stderr[-200:]
    return d, len(c.requests(logp)), spent, p

variants = {
    "nan": {"input_tokens": float("nan"), "output_tokens": float("nan"), "total_tokens": float("nan")},
    "inf": {"input_tokens": float("inf"), "output_tokens": 1, "total_tokens": float("inf")},
    "cached_gt_input": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                        "input_tokens_details": {"cached_tokens": 10**12}},
    "neg_reasoning": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                      "output_tokens_details": {"reasoning_tokens": -10**12}},
}
bad = []
for tag, usage in variants.items():
    d, n, spent, p = session(tag, usage)
    cu = d.get("cost_usd")
    print(f"{tag}: rc={p.returncode} status={d.get('status')} requests={n} cost_usd={cu} ledger_spent={spent} | {(d.get('reason') or d.get('_stderr') or '')[:220]}")
    if not isinstance(cu, (int, float)) or math.isnan(cu) or cu < 0 or cu > 100 \
            or not isinstance(spent, (int, float)) or math.isnan(spent) or spent < 0 or spent > 100 \
            or d.get("status") in ("error", None):
        bad.append(f"{tag}: status={d.get('status')} cost={cu} ledger={spent}")
verdict(bool(bad), "; ".join(bad) if bad else "Responses API: NaN/inf/cached>input/negative reasoning usage: every cost finite, >= 0, within budget")
