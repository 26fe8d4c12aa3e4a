"""Benchmarks: does memory find the right fix, and what does it cost?

Three benches, each measuring the product beside its baselines in the same run:

- ``retrieval``: recall@1/@3 and MRR of the fix memory against the origin-story baseline
  (embed the fix description only, query with the raw failure) and BM25 over the same text;
  it also measures the score distributions the default minimum score is calibrated from.
- ``sessions``: the origin story's five-session experiment on scenario beta, and one family
  run in sequence with memory growing.
- ``perf``: memory search latency at growing sizes against an exact numpy floor, the cost of
  the durable checkpointer, the share of session time inside the project's tests, cold start.

Nothing is imported or computed at import time: each bench module loads its heavy
dependencies (MiniLM, matplotlib, langchain-community) only when it runs.
"""
