"""A tiny OpenAI-compatible (chat completions) server that plays a script of hostile replies.

Script: JSON list; each item is a reply:
  {"calls": [{"name": "...", "args": {...} | "raw": "string args"}], "usage": {...}, "content": "..."}
When the script is used up, every further request gets a `finish` call (or the last item if
"repeat_last": true in the file's top-level object).
Every request body is appended to LOG (one JSON per line).
"""
import json
import os
import sys
import threading
import itertools
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCRIPT_PATH, LOG_PATH, PORT_FILE = sys.argv[1], sys.argv[2], sys.argv[3]
doc = json.load(open(SCRIPT_PATH))
if isinstance(doc, list):
    doc = {"replies": doc}
REPLIES = doc["replies"]
REPEAT_LAST = doc.get("repeat_last", False)
lock = threading.Lock()
counter = itertools.count()
ids = itertools.count(1)


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _send(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if os.environ.get("HOSTILE_LOG_GET") or "evil" in LOG_PATH:
            with lock:
                with open(LOG_PATH, "a") as f:
                    f.write(json.dumps({"i": -1, "path": self.path, "get": True,
                                        "auth": self.headers.get("Authorization", "")}) + "\n")
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "hostile", "object": "model",
                                                          "created": 0, "owned_by": "x"}]})
        else:
            self._send(404, {"error": {"message": "nope"}})

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(n)
        try:
            req = json.loads(raw)
        except Exception:
            req = {"raw": raw.decode("utf-8", "replace")}
        with lock:
            i = next(counter)
            with open(LOG_PATH, "a") as f:
                f.write(json.dumps({"i": i, "path": self.path, "body": req}) + "\n")
        if i < len(REPLIES):
            item = REPLIES[i]
        elif REPEAT_LAST:
            item = REPLIES[-1]
        else:
            item = {"calls": [{"name": "finish", "args": {"summary": "done"}}]}
        calls = []
        for c in item.get("calls", []):
            args = c.get("raw")
            if args is None:
                args = json.dumps(c.get("args", {}))
            calls.append({"id": c.get("id") or "call_%d" % next(ids), "type": "function",
                          "function": {"name": c["name"], "arguments": args}})
        if self.path.rstrip("/").endswith("/responses"):
            out = []
            for cl in calls:
                out.append({"type": "function_call", "id": "fc_" + cl["id"], "call_id": cl["id"],
                            "name": cl["function"]["name"], "arguments": cl["function"]["arguments"],
                            "status": "completed"})
            if not out:
                out.append({"type": "message", "id": "msg_%d" % i, "role": "assistant", "status": "completed",
                            "content": [{"type": "output_text", "text": item.get("content") or "", "annotations": []}]})
            u = item.get("usage", {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15})
            resp = {"id": "resp_%d" % i, "object": "response", "created_at": 0, "status": "completed",
                    "model": req.get("model", "hostile"), "output": out, "parallel_tool_calls": False,
                    "tool_choice": "auto", "tools": [], "usage": u}
            self._send(200, resp)
            return
        msg = {"role": "assistant", "content": item.get("content")}
        if calls:
            msg["tool_calls"] = calls
        usage = item.get("usage", {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
        resp = {"id": "chatcmpl-%d" % i, "object": "chat.completion", "created": 0,
                "model": req.get("model", "hostile") if isinstance(req, dict) else "hostile",
                "choices": [{"index": 0, "message": msg,
                             "finish_reason": "tool_calls" if calls else "stop"}]}
        if usage is not None:
            resp["usage"] = usage
        self._send(200, resp)


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(PORT_FILE, "w") as f:
    f.write(str(srv.server_address[1]))
srv.serve_forever()
