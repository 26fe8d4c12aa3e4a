"""Build cases.jsonl from the hand-written case modules (data_*.py).

Run:  python3 gen.py   (standard library only; writes cases.jsonl next to this file)
"""
import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import _fmt  # noqa: E402

MODULES = ["data_a", "data_b", "data_c", "data_d", "data_e"]


def main():
    for name in MODULES:
        if os.path.exists(os.path.join(HERE, name + ".py")):
            importlib.import_module(name)
    records = [c for c in _fmt.CASES if c["type"] == "record"]
    queries = [c for c in _fmt.CASES if c["type"] == "query"]
    with open(os.path.join(HERE, "cases.jsonl"), "w", encoding="utf-8") as fh:
        for case in records + queries:
            fh.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"wrote {len(records)} records, {len(queries)} queries")


if __name__ == "__main__":
    main()
