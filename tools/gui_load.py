#!/usr/bin/env python3
"""How fast `oddity gui` answers its own page while idle or slow connections
pile up: starts the GUI on loopback, opens the connections, and times
`GET /` and `GET /api/state` on fresh connections meanwhile.

    python3 tools/gui_load.py target/release/oddity [--samples 20]

Scenarios: 300, 1000 and 5000 idle connections (connected, sending
nothing), then 100 slow clients (each sends a request head one byte a
second and, when the server drops it, starts again). Loopback only,
at most 10000 connections, every wait bounded. Prints one row per
scenario and request: median and slowest answer in milliseconds, failures,
and the server's resident memory and open files at the end of the
scenario. Standard library only.
"""

import argparse
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

HOST = "127.0.0.1"
MAX_CONNECTIONS = 10_000
ANSWER_TIMEOUT = 30.0


def raise_file_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def start_gui(binary):
    gui = subprocess.Popen(
        [binary, "gui", "--host", HOST, "--engine",
         "e=oddity gtp --threads 1 --visits 100"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = gui.stdout.readline().strip()
    prefix = "oddity gui: open http://"
    if not line.startswith(prefix):
        gui.kill()
        sys.exit(f"no address from oddity gui: {line!r}")
    authority = line[len(prefix):].rstrip("/")
    return gui, authority


def timed_get(authority, path):
    """Milliseconds from connecting to the whole answer, or None on failure."""
    port = int(authority.rsplit(":", 1)[1])
    start = time.monotonic()
    try:
        with socket.create_connection((HOST, port), timeout=ANSWER_TIMEOUT) as s:
            s.settimeout(ANSWER_TIMEOUT)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: {authority}\r\n"
                      "Connection: close\r\n\r\n".encode())
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
    except OSError:
        return None
    if not answer.startswith(b"HTTP/1.1 200"):
        return None
    return (time.monotonic() - start) * 1000


def server_use(pid):
    rss_kib = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss_kib = int(line.split()[1])
    files = len(os.listdir(f"/proc/{pid}/fd"))
    return rss_kib, files


def open_idle(authority, count):
    port = int(authority.rsplit(":", 1)[1])
    sockets = []
    for _ in range(count):
        try:
            sockets.append(socket.create_connection((HOST, port), timeout=10))
        except OSError as e:
            print(f"  connection {len(sockets) + 1} failed: {e}", file=sys.stderr)
            break
    return sockets


class SlowClients:
    """`count` clients sending a request head one byte a second."""

    HEAD = "GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: " + "a" * 1000

    def __init__(self, authority, count):
        self.port = int(authority.rsplit(":", 1)[1])
        self.head = self.HEAD.format(authority).encode()
        self.clients = [self.connect() for _ in range(count)]
        self.reconnects = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def connect(self):
        s = socket.create_connection((HOST, self.port), timeout=10)
        s.setblocking(False)
        return [s, 0]

    def run(self):
        while not self.stopping.wait(1.0):
            for client in self.clients:
                s, sent = client
                try:
                    s.send(self.head[sent:sent + 1])
                    client[1] = (sent + 1) % len(self.head)
                except OSError:
                    s.close()
                    try:
                        client[:] = self.connect()
                        self.reconnects += 1
                    except OSError:
                        pass

    def close(self):
        self.stopping.set()
        self.thread.join()
        for s, _ in self.clients:
            s.close()


def measure(authority, pid, name, samples, spread):
    """Times both requests `samples` times over about `spread` seconds."""
    times = {"/": [], "/api/state": []}
    failures = {"/": 0, "/api/state": 0}
    for _ in range(samples):
        for path in times:
            ms = timed_get(authority, path)
            if ms is None:
                failures[path] += 1
            else:
                times[path].append(ms)
        time.sleep(spread / samples)
    rss_kib, files = server_use(pid)
    for path, ms in times.items():
        median = statistics.median(ms) if ms else float("nan")
        slowest = max(ms) if ms else float("nan")
        print(f"{name:<22} GET {path:<11} median {median:7.1f} ms  "
              f"slowest {slowest:7.1f} ms  failed {failures[path]}/{samples}  "
              f"server {rss_kib / 1024:.1f} MiB, {files} files", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the oddity executable")
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--idle", type=int, nargs="*", default=[300, 1000, 5000])
    parser.add_argument("--slow", type=int, default=100)
    args = parser.parse_args()
    wanted = max(args.idle + [args.slow])
    if wanted > MAX_CONNECTIONS:
        sys.exit(f"at most {MAX_CONNECTIONS} connections")
    limit = raise_file_limit(wanted + 100)
    if limit < wanted + 50:
        sys.exit(f"this process may open only {limit} files (ulimit -n)")
    gui, authority = start_gui(args.binary)
    try:
        measure(authority, gui.pid, "no other connection", args.samples, 1.0)
        for count in args.idle:
            sockets = open_idle(authority, count)
            measure(authority, gui.pid, f"{len(sockets)} idle", args.samples, 2.0)
            for s in sockets:
                s.close()
        if args.slow:
            slow = SlowClients(authority, args.slow)
            # Long enough for the head deadline to drop and restart them.
            measure(authority, gui.pid, f"{args.slow} slow", args.samples, 12.0)
            print(f"{'':<22} (slow clients dropped by the server and "
                  f"reconnected: {slow.reconnects})")
            slow.close()
    finally:
        gui.send_signal(signal.SIGINT)
        gui.wait(timeout=10)


if __name__ == "__main__":
    main()
