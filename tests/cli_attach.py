"""A command started through the suite's warm launcher on this process's own streams (tests/cli_launcher.py
``attached``): ``python cli_attach.py SOCKET ARGV...`` hands its stdin, stdout and stderr, environment and
folder to the launcher, which forks ``python -m astra_memory ARGV`` on them; SIGTERM, SIGINT and SIGHUP
are passed on to it, and this process ends as it ends (its exit status, or killed by its signal).

Run with ``-S -E``: standard library only, nothing of the venv's site imported.
"""

import json
import os
import signal
import socket
import sys


def main() -> None:
    path, argv = sys.argv[1], sys.argv[2:]
    conn = socket.socket(socket.AF_UNIX)
    conn.connect(path)
    request = {"argv": argv, "env": dict(os.environ), "cwd": os.getcwd()}
    socket.send_fds(conn, [b"{"], [0, 1, 2])
    conn.sendall(json.dumps(request).encode()[1:] + b"\n")
    null = os.open(os.devnull, os.O_RDWR)  # the command holds the streams now, not this process
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    replies = conn.makefile("r")
    pid = json.loads(replies.readline())["pid"]
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda number, _frame: os.kill(pid, number))
    status = json.loads(replies.readline())["status"]
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number != signal.SIGKILL:  # whose handler cannot be set, nor needs to be
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
