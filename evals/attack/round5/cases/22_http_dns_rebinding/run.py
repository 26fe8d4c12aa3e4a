"""`astra-memory mcp --http PORT` "serves streamable HTTP on http://127.0.0.1:PORT/mcp (localhost
only)". A web page the user visits can reach 127.0.0.1 through DNS rebinding (the browser sends
`Host: evil.example:PORT` and `Origin: http://evil.example`) and call begin_fix, which runs the
project's tests. The case sends an initialize request then a tools/call begin_fix with those
headers (and a control with Host 127.0.0.1 and no Origin). Promise: localhost only (the MCP
specification asks servers to validate Origin for this reason); a foreign Host/Origin refused."""
import json, os, socket, subprocess, sys, time, urllib.request, urllib.error
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


def post(port, body, host, origin=None, session=None):
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Host": host,
         "MCP-Protocol-Version": "2025-06-18"}
    if origin:
        h["Origin"] = origin
    if session:
        h["Mcp-Session-Id"] = session
    req = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=json.dumps(body).encode(), headers=h, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, dict(r.headers), r.read().decode(errors="replace")
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode(errors="replace")


def main():
    c = Case("c22")
    ws = c.project("calc", BUGGY)
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    p = subprocess.Popen([ASTRA, "mcp", "--http", str(port), "--allow", c.src], env=c.env(), cwd=c.dir,
                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(c.dir, "server.log"), "w"))
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "evil", "version": "0"}}}
        res = {}
        for tag, host, origin in (("control", f"127.0.0.1:{port}", None),
                                  ("rebinding", f"evil.example:{port}", "http://evil.example"),
                                  ("cross-origin page", f"127.0.0.1:{port}", "http://evil.example")):
            st, hd, body = post(port, init, host, origin)
            sid = hd.get("mcp-session-id") or hd.get("Mcp-Session-Id")
            print(tag, "initialize:", st, sid, body[:200])
            call_st = None
            if st == 200:
                post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, host, origin, sid)
                call_st, _, cb = post(port, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                             "params": {"name": "begin_fix", "arguments": {"workspace": ws, "test_command": TEST_CMD}}},
                                      host, origin, sid)
                print(tag, "begin_fix:", call_st, cb[:300])
            res[tag] = (st, call_st)
    finally:
        p.terminate(); p.wait(timeout=10)
    verdict(res["rebinding"][0] == 200 or res["cross-origin page"][1] == 200,
            f"control (Host 127.0.0.1): initialize {res['control'][0]}, begin_fix {res['control'][1]}; "
            f"foreign Host/Origin (DNS rebinding): initialize {res['rebinding'][0]}, begin_fix {res['rebinding'][1]}; Host 127.0.0.1 with Origin http://evil.example: initialize {res['cross-origin page'][0]}, begin_fix {res['cross-origin page'][1]}")


main()
