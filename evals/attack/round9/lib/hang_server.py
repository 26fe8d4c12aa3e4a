"""An OpenAI-compatible chat-completions server that answers requests 0..N-1 from a script and
holds every request from index HANG_FROM on without answering (the agent is killed meanwhile).
Every request is logged (one JSON line) before it is answered or held."""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCRIPT, LOG, PORT_FILE = sys.argv[1], sys.argv[2], sys.argv[3]
doc = json.load(open(SCRIPT))
lock = threading.Lock()
count = [0]


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "hostile", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            i = count[0]
            count[0] += 1
            with open(LOG, "a") as f:
                f.write(json.dumps({"i": i, "t": time.time(), "n_messages": len(json.loads(raw).get("messages", []))}) + "\n")
        if i >= doc["hang_from"]:
            time.sleep(3600)
            return
        item = doc["replies"][min(i, len(doc["replies"]) - 1)]
        calls = [{"id": "call_%d_%d" % (i, k), "type": "function",
                  "function": {"name": c["name"], "arguments": json.dumps(c["args"])}} for k, c in enumerate(item["calls"])]
        body = json.dumps({"id": "chatcmpl-%d" % i, "object": "chat.completion", "created": 0, "model": "hostile",
                           "choices": [{"index": 0, "message": {"role": "assistant", "content": None, "tool_calls": calls},
                                        "finish_reason": "tool_calls"}],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
open(PORT_FILE, "w").write(str(srv.server_address[1]))
srv.serve_forever()
