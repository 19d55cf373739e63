#!/usr/bin/env python3
"""A long run of the servers, to see that nothing grows without bound.
Run by hand (not in CI), on a machine left alone or under `nice`:

    python3 tools/soak.py target/release/oddity --minutes 60 --out target/soak
    python3 tools/soak.py plot target/soak/samples.csv docs/pictures/soak.svg

At the same time, until `--minutes` have passed:

- `oddity gui` with two engines plays engine-against-engine games back to
  back (Xodd, Yodd, Odd and Onyx in turn, analysis on), while a reader
  holds the page's event stream open and the page is fetched after each
  game;
- `oddity analysis` answers queries on positions of all four games (1 to
  200 visits each), at most 64 outstanding, as fast as it can;
- `oddity match` plays `--games` (1000) games between two `oddity gtp`.

Every `--interval` seconds (60) it writes one row per process to
`samples.csv`: resident memory and open files of the GUI, of its engines
(summed), of `oddity analysis`, of `oddity match` and of its engines
(summed), with the work done so far. Standard library only; loopback only.
"""

import argparse
import csv
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

HOST = "127.0.0.1"


# ---------------------------------------------------------------- processes

def children(pid):
    """Direct child processes of `pid`, started by any of its threads
    (Linux /proc)."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return found


def use(pid):
    """(resident KiB, open files) of `pid`, or None when it has gone."""
    try:
        rss = 0
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        return rss, len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def summed(pids):
    rss = files = count = 0
    for pid in pids:
        u = use(pid)
        if u:
            rss, files, count = rss + u[0], files + u[1], count + 1
    return rss, files, count


# ---------------------------------------------------------------- GUI

class Gui:
    GAMES = [
        {"game": "xodd", "size": 5},
        {"game": "yodd", "size": 3},
        {"game": "odd", "size": 4},
        {"game": "onyx", "size": 6, "open_start": True},
    ]

    def __init__(self, binary, stop):
        engine = f"{binary} gtp --threads 1 --visits 300"
        self.process = subprocess.Popen(
            [binary, "gui", "--host", HOST,
             "--engine", f"a={engine} --seed 1",
             "--engine", f"b={engine} --seed 2"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline().strip()
        prefix = "oddity gui: open http://"
        if not line.startswith(prefix):
            sys.exit(f"no address from oddity gui: {line!r}")
        self.authority = line[len(prefix):].rstrip("/")
        self.port = int(self.authority.rsplit(":", 1)[1])
        self.stop = stop
        self.games = 0
        self.restarts = 0
        self.results = []
        self.events = 0
        self.errors = 0

    def request(self, method, path, body=b""):
        with socket.create_connection((HOST, self.port), timeout=60) as s:
            s.sendall(f"{method} {path} HTTP/1.1\r\nHost: {self.authority}\r\n"
                      f"Content-Type: application/json\r\n"
                      f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
                      .encode() + body)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        head, _, rest = answer.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 "):
            raise RuntimeError(f"{path}: no answer")
        status = int(head.split()[1])
        if b"chunked" in head.lower():
            rest = unchunk(rest)
        return status, rest

    def post(self, path, value):
        status, body = self.request("POST", path, json.dumps(value).encode())
        if status != 200:
            raise RuntimeError(f"{path}: {status} {body[:200]!r}")

    def state(self):
        status, body = self.request("GET", "/api/state")
        if status != 200:
            raise RuntimeError(f"state: {status}")
        return json.loads(body)

    def play(self):
        """Plays games back to back until stopped."""
        while not self.stop.is_set():
            spec = dict(self.GAMES[self.games % len(self.GAMES)])
            spec.update(black="a", white="b", seconds=0.3)
            try:
                self.post("/api/new", spec)
                self.post("/api/analyze", {"on": True})
                while not self.stop.wait(0.5):
                    state = self.state()
                    for engine in state["engines"]:
                        # As a player would: an engine stopped (say, too
                        # slow on a busy machine) is restarted.
                        if engine["status"] == "stopped":
                            self.post("/api/engine/restart", {"name": engine["name"]})
                            self.restarts += 1
                    if state["over"]:
                        self.games += 1
                        self.results.append((state["game"], len(state["moves"]),
                                             state["result"]["text"]))
                        break
                self.request("GET", "/")
            except (OSError, RuntimeError, ValueError) as e:
                self.errors += 1
                print(f"gui: {e}", file=sys.stderr, flush=True)
                self.stop.wait(1)

    def listen(self):
        """Holds the event stream open, as a page does; reconnects."""
        while not self.stop.is_set():
            try:
                with socket.create_connection((HOST, self.port), timeout=60) as s:
                    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: {self.authority}"
                              "\r\n\r\n".encode())
                    while not self.stop.is_set():
                        chunk = s.recv(65536)
                        if not chunk:
                            break
                        self.events += chunk.count(b"event: state")
            except OSError:
                self.stop.wait(1)


def unchunk(body):
    out = b""
    while b"\r\n" in body:
        size, _, body = body.partition(b"\r\n")
        n = int(size.strip() or b"0", 16)
        if n == 0:
            break
        out += body[:n]
        body = body[n + 2:]
    return out


# ---------------------------------------------------------------- analysis

class Analysis:
    OUTSTANDING = 64

    def __init__(self, binary, stop):
        self.process = subprocess.Popen(
            [binary, "analysis", "--threads", "1", "--visits", "20"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.stop = stop
        self.sent = 0
        self.answered = 0
        self.errors = 0
        self.room = threading.Semaphore(self.OUTSTANDING)

    def query(self, k, rng):
        kind = rng.choice(["xodd", "yodd", "odd", "onyx"])
        q = {"id": k, "game": kind, "maxVisits": rng.randint(1, 200)}
        if kind == "xodd":
            q.update(size=5, moves=rng.choice([[], ["B:C3"], ["B:C3", "W:B2,B:D4"]]))
        elif kind == "yodd":
            q.update(size=3, moves=rng.choice([[], ["B:C3"]]))
        elif kind == "odd":
            q.update(size=4, moves=rng.choice([[], ["B:D4"], ["B:D4", "W:C3"]]))
        else:
            q.update(size=6, rules={"start": "open"},
                     moves=rng.choice([[], ["C3"], ["C3", "D4"]]))
        return q

    def write(self):
        rng = random.Random(1)
        try:
            while not self.stop.is_set():
                if not self.room.acquire(timeout=1):
                    continue
                self.process.stdin.write(json.dumps(self.query(self.sent, rng)) + "\n")
                self.sent += 1
            self.process.stdin.close()
        except OSError as e:
            print(f"analysis: {e}", file=sys.stderr, flush=True)

    def read(self):
        for line in self.process.stdout:
            answer = json.loads(line)
            if "error" in answer:
                self.errors += 1
            self.answered += 1
            self.room.release()


# ---------------------------------------------------------------- match

def start_match(binary, games, out):
    engine = f"{binary} gtp --threads 1 --visits 50"
    results = os.path.join(out, "match.jsonl")
    if os.path.exists(results):
        os.remove(results)
    process = subprocess.Popen(
        [binary, "match", "--game", "odd", "--size", "3", "--games", str(games),
         "--random-plies", "2", "--quiet",
         "--engine", f"p={engine} --seed 1", "--engine", f"q={engine} --seed 2",
         "--results", results],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    return process, results


def lines_of(path):
    try:
        with open(path) as f:
            return sum(1 for _ in f)
    except OSError:
        return 0


# ---------------------------------------------------------------- run

def run(args):
    os.makedirs(args.out, exist_ok=True)
    stop = threading.Event()
    gui = Gui(args.binary, stop)
    analysis = Analysis(args.binary, stop)
    match, results = start_match(args.binary, args.games, args.out)
    threads = [threading.Thread(target=t, daemon=True)
               for t in (gui.play, gui.listen, analysis.write, analysis.read)]
    for t in threads:
        t.start()
    path = os.path.join(args.out, "samples.csv")
    start = time.monotonic()
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["minute", "process", "rss_kib", "files", "processes", "work"])

        def sample():
            minute = round((time.monotonic() - start) / 60, 2)
            rows = [
                ("gui", *summed([gui.process.pid]), gui.games),
                ("gui engines", *summed(children(gui.process.pid)), gui.events),
                ("analysis", *summed([analysis.process.pid]), analysis.answered),
                ("match", *summed([match.pid]), lines_of(results)),
                ("match engines", *summed(children(match.pid)), lines_of(results)),
            ]
            for row in rows:
                out.writerow([minute, *row])
            f.flush()
            print(f"{minute:6.1f} min  " + "  ".join(
                f"{name}: {rss / 1024:.1f} MiB {files} files ({work})"
                for name, rss, files, _, work in rows), flush=True)

        try:
            sample()
            while time.monotonic() - start < args.minutes * 60:
                left = args.minutes * 60 - (time.monotonic() - start)
                time.sleep(min(args.interval, max(0, left)))
                sample()
        except KeyboardInterrupt:
            print("interrupted", flush=True)
    stop.set()
    gui.process.send_signal(signal.SIGINT)
    match.send_signal(signal.SIGINT)
    for p in (gui.process, match):
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
    analysis.process.kill()
    with open(os.path.join(args.out, "gui-games.txt"), "w") as f:
        for game, turns, text in gui.results:
            f.write(f"{game}\t{turns} turns\t{text}\n")
    print(f"gui: {gui.games} games, {gui.events} events, {gui.errors} errors, "
          f"{gui.restarts} engine restarts; "
          f"analysis: {analysis.answered} answers ({analysis.errors} errors) "
          f"of {analysis.sent} queries; match: {lines_of(results)} games")


# ---------------------------------------------------------------- plot

def plot(csv_path, svg_path):
    """Two panels, resident memory and open files against minutes."""
    series = {}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if int(row["processes"]) == 0:
                continue
            s = series.setdefault(row["process"], [])
            s.append((float(row["minute"]), int(row["rss_kib"]) / 1024, int(row["files"])))
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]
    width, panel, margin = 760, 230, 60
    height = 2 * panel + 3 * margin
    end = max((p[0] for s in series.values() for p in s), default=1) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for k, (title, index) in enumerate([("resident memory, MiB", 1), ("open files", 2)]):
        top = margin + k * (panel + margin)
        left, right = 70, width - 190
        peak = max((p[index] for s in series.values() for p in s), default=1)
        peak = nice_ceiling(peak)
        out.append(f'<text x="{left}" y="{top - 12}" font-weight="bold">{title}</text>')
        out.append(f'<rect x="{left}" y="{top}" width="{right - left}" height="{panel}" '
                   'fill="none" stroke="#888"/>')
        for t in range(5):
            value = peak * t / 4
            y = top + panel - panel * t / 4
            out.append(f'<line x1="{left - 4}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" '
                       'stroke="#ddd"/>')
            out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">'
                       f'{value:g}</text>')
        step = next(s for s in (1, 2, 5, 10, 15, 20, 30, 60, 120) if end / s <= 8)
        for minute in range(0, int(end) + 1, step):
            x = left + (right - left) * minute / end
            out.append(f'<text x="{x:.1f}" y="{top + panel + 16}" text-anchor="middle">'
                       f'{minute}</text>')
        out.append(f'<text x="{(left + right) / 2}" y="{top + panel + 32}" '
                   'text-anchor="middle">minutes</text>')
        for c, (name, points) in enumerate(sorted(series.items())):
            colour = colours[c % len(colours)]
            xy = " ".join(f"{left + (right - left) * p[0] / end:.1f},"
                          f"{top + panel - panel * p[index] / peak:.1f}" for p in points)
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                       f'points="{xy}"/>')
            if k == 0:
                y = top + 14 + 18 * c
                out.append(f'<line x1="{right + 12}" x2="{right + 32}" y1="{y - 4}" '
                           f'y2="{y - 4}" stroke="{colour}" stroke-width="2"/>')
                out.append(f'<text x="{right + 38}" y="{y}">{name}</text>')
    out.append("</svg>")
    with open(svg_path, "w") as f:
        f.write("\n".join(out) + "\n")


def nice_ceiling(value):
    step = 1
    while step * 10 < value:
        step *= 10
    for m in (1, 2, 5, 10):
        if m * step >= value:
            return m * step
    return 10 * step


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "plot":
        plot(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the oddity executable")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--interval", type=float, default=60)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--out", default="target/soak")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
