#!/usr/bin/env python3
"""The engine's speed in headless Chromium against the native build, on the
same machine in one run (PERFORMANCE.md, "In the browser").

Usage: web/bench.py SITE_DIR ODDITY_BINARY [--rounds N] [--seconds S]
                    [--threads-games odd:7,yodd:8]
       web/bench.py SITE_DIR ODDITY_BINARY --clicks N [--clicks-games xodd:12,...]

For each of Odd 5, Xodd 12, Yodd 8 and Onyx 12, every round measures, one
after the other: `oddity bench --playouts` and the module's benchPlayouts
(random playouts from the start), then `oddity bench --threads 1` and the
module's benchSearch on one thread (search iterations), each for S seconds.
Then, in a cross-origin isolated page, the module's search on one thread
and on every core the browser reports, for the --threads-games. Prints the
median rate of each and the median of the per-round ratios (module over
native, or threads over one), one JSON line per figure, then a table.

One-thread rates are per second of CPU time that the measured process got
(the native process; the browser's renderer processes, where the worker
runs), so that a machine shared with other work slows both sides alike;
wall-clock rates are printed beside them. Thread scaling is per second of
wall-clock time, which is what threads buy.

With --clicks, instead: in the static page from a plain server (isolated
after the service worker's reload), from one that sends COOP/COEP, and in
`oddity gui` (its engine `oddity gtp
--threads 2`), a person plays each board against the engine with *Analyse
my turn* on; once the analysis has arrived for a second, a click on an
empty cell, timed until the page has drawn its stone (waiting to be
confirmed, in Xodd and Yodd, then cleared; else played). Prints per page
and board the click-to-stone p50, p95 and maximum, and the main thread's
long tasks (over 50 ms, PerformanceObserver "longtask") from the first
analysis of the board to its last click (`long_tasks`), and apart those
before it, from the board's start (`start_long_tasks`: the new board
drawn).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "peers"))
import web_play  # noqa: E402  (its browser and server)

GAMES = [("odd", 5), ("xodd", 12), ("yodd", 8), ("onyx", 12)]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def native(binary, game, size, seconds, playouts):
    """(count per CPU second, count per wall second) of `oddity bench`."""
    cmd = [binary, "bench", "--game", game, "--size", str(size), "--seconds", str(seconds)]
    cmd += ["--playouts"] if playouts else ["--threads", "1"]
    before = children_cpu()
    line = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    cpu = children_cpu() - before
    j = json.loads(line)
    count = j["playouts"] if playouts else j["iterations"]
    return count / cpu, count / j["seconds"]


def renderer_cpu(profile):
    """CPU seconds of the renderer processes of the browser using `profile`."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            if b"--type=renderer" not in cmd or profile.encode() not in cmd:
                continue
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def in_tab(b, what, game, size, seconds, threads=1):
    """(count per CPU second, count per wall second) of the module's bench."""
    d = b.driver
    before = renderer_cpu(b.profile)
    d.execute_script("window.oddity.bench = null; window.oddity.worker.postMessage(arguments[0])",
                     {"type": "bench", "what": what, "game": game, "size": size,
                      "millis": seconds * 1000, "threads": threads, "memory": 1024})
    rate = web_play.wait(d, "return window.oddity.bench", 120 + 4 * seconds, f"bench {what} {game}")
    cpu = renderer_cpu(b.profile) - before
    return rate["count"] / cpu, rate["per_second"]


def page(isolated):
    server = web_play.Server(isolated)
    b = web_play.Browser()
    b.driver.get(server.url)
    web_play.wait(b.driver, "return window.oddity && window.oddity.ready", 120, "the engine starts")
    ready = b.driver.execute_script("return window.oddity.readyMillis")
    print(json.dumps({"page": "isolated" if isolated else "plain", "engine_ready_ms": ready}), flush=True)
    return server, b


# Collects the main thread's long tasks (over 50 ms) from the page's start.
LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.longTasks.push([e.startTime, e.duration]);
}).observe({ type: 'longtask', buffered: true });
"""

# Clicks `cell`; milliseconds until the page has drawn its stone: a stone
# waiting to be confirmed (Xodd, Yodd) or the turn played (Odd, Onyx).
CLICK = """
const [cell, done] = arguments;
const el = document.querySelector(`#board [data-cell="${cell}"]`);
const t0 = performance.now();
el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
const look = () => {
  if (document.querySelector(`#overlay [data-pending="${cell}"]`) || state.stones[cell]
      || document.getElementById('reason').textContent.startsWith('refused')) {
    done(performance.now() - t0);
  } else setTimeout(look, 1);
};
look();
"""


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def click_bench(d, game, size, clicks, rng):
    """A person (Black) against the engine, which analyses the person's
    turn: click to stone while the analysis arrives, and the main thread's
    long tasks meanwhile."""
    web_play.new_game(d, game, size, "human", "oddity", 1)
    if not d.find_element(web_play.By.ID, "analyze").is_selected():
        d.find_element(web_play.By.ID, "analyze").click()
    times = []
    d.execute_script("window.longTasks.length = 0")
    # From the first analysis on: the tasks before it drew the new board.
    analysing_since = None
    while len(times) < clicks:
        s = web_play.wait(d, "return (state.over || (state.human_turn && state.engines[0].status == 'analysing'"
                             " && state.analysis && state.analysis.turn == state.view"
                             " && state.analysis.candidates.length > 0)) && state",
                          120, "the person's turn, with the engine's analysis arriving")
        if s["over"]:
            web_play.new_game(d, game, size, "human", "oddity", 1)
            continue
        if analysing_since is None:
            analysing_since = d.execute_script("return performance.now()")
        time.sleep(1.0)  # the analysis arriving for a while
        cells = d.execute_script("return [...document.querySelectorAll('#board [data-cell]')]"
                                 ".map((e) => e.dataset.cell)")
        stones = d.execute_script("return state.stones")
        empty = [c for c in cells if c not in stones]
        times.append(d.execute_async_script(CLICK, rng.choice(empty)))
        print(f"{game} {size}: click {len(times)}: {times[-1]:.1f} ms", file=sys.stderr, flush=True)
        if not d.find_element(web_play.By.ID, "clear").get_attribute("hidden"):
            d.find_element(web_play.By.ID, "clear").click()
    tasks = d.execute_script("return window.longTasks")
    long_tasks = [duration for start, duration in tasks if start >= analysing_since]
    at_start = [duration for start, duration in tasks if start < analysing_since]
    return {"game": game, "size": size, "clicks": len(times),
            "click_p50_ms": round(percentile(times, 0.5), 1), "click_p95_ms": round(percentile(times, 0.95), 1),
            "click_max_ms": round(max(times), 1), "long_tasks": len(long_tasks),
            "long_task_max_ms": round(max(long_tasks), 1) if long_tasks else 0,
            "start_long_tasks": len(at_start),
            "start_long_task_max_ms": round(max(at_start), 1) if at_start else 0}


def clicks_main(a):
    """--clicks: click to stone and long tasks in the static page (plain
    and isolated) and in `oddity gui`, with the engine analysing."""
    import random
    games = [(g, int(n)) for g, n in (spec.split(":") for spec in a.clicks_games.split(","))]
    pages = []
    for name in a.clicks_pages.split(","):
        if name == "gui":
            gui = subprocess.Popen([a.binary, "gui", "--engine", "oddity=oddity gtp --threads 2"],
                                   stdout=subprocess.PIPE, text=True)
            pages.append((name, gui.stdout.readline().strip().removeprefix("oddity gui: open "), gui.terminate))
        else:
            server = web_play.Server(name == "isolated")
            pages.append((name, server.url, server.close))
    for name, url, close in pages:
        b = web_play.Browser()
        d = b.driver
        try:
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LONG_TASKS})
            d.get(url)
            web_play.wait(d, "return typeof state !== 'undefined' && state && state.engines[0].status == 'idle'"
                             " && (!window.oddity || (window.oddity.ready && self.crossOriginIsolated))",
                          120, f"{name}: the engine starts (the static page isolated, by its server's headers"
                          " or after its service worker's reload)")
            for game, size in games:
                figure = {"page": name, **click_bench(d, game, size, a.clicks, random.Random(7))}
                print(json.dumps(figure), flush=True)
        finally:
            b.driver.quit()
            close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("site")
    p.add_argument("binary")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--threads-games", default="odd:7,yodd:8")
    p.add_argument("--clicks", type=int, default=0,
                   help="instead: this many clicks on each board of --clicks-games while the engine analyses")
    p.add_argument("--clicks-games", default="xodd:12,xodd:19,yodd:8,onyx:12")
    p.add_argument("--clicks-pages", default="plain,isolated,gui",
                   help="the static page from a plain server, from one sending COOP/COEP, `oddity gui`")
    a = p.parse_args()
    web_play.SITE = a.site
    if a.clicks:
        clicks_main(a)
        return
    figures = []
    server, b = page(False)
    try:
        for game, size in GAMES:
            for what in ["playouts", "search"]:
                nat, tab = [], []
                for _ in range(a.rounds):
                    nat.append(native(a.binary, game, size, a.seconds, what == "playouts"))
                    tab.append(in_tab(b, what, game, size, a.seconds))
                ratios = [t[0] / n[0] for t, n in zip(tab, nat)]
                wall = [t[1] / n[1] for t, n in zip(tab, nat)]
                figures.append({"game": game, "size": size, "what": what,
                                "native": round(statistics.median(n[0] for n in nat)),
                                "wasm": round(statistics.median(t[0] for t in tab)),
                                "ratio": round(statistics.median(ratios), 3),
                                "ratios": [round(r, 3) for r in ratios],
                                "wall_ratios": [round(r, 3) for r in wall]})
                print(json.dumps(figures[-1]), flush=True)
    finally:
        b.driver.quit()
        server.close()
    if not a.threads_games:
        report(figures)
        return
    server, b = page(True)
    try:
        cores = b.driver.execute_script("return window.oddity.threads")
        for spec in a.threads_games.split(","):
            game, size = spec.split(":")
            one, many = [], []
            for _ in range(a.rounds):
                one.append(in_tab(b, "search", game, int(size), a.seconds, 1)[1])
                many.append(in_tab(b, "search", game, int(size), a.seconds, cores)[1])
            ratios = [m / o for m, o in zip(many, one)]
            figures.append({"game": game, "size": int(size), "what": f"search {cores} threads / 1",
                            "one": statistics.median(one), "many": statistics.median(many),
                            "ratio": round(statistics.median(ratios), 3),
                            "ratios": [round(r, 3) for r in ratios]})
            print(json.dumps(figures[-1]), flush=True)
    finally:
        b.driver.quit()
        server.close()
    report(figures)


def report(figures):
    print(f"\n{'game':10} {'what':22} {'native/one':>12} {'wasm/many':>12} {'ratio':>6}")
    for f in figures:
        left = f.get("native", f.get("one"))
        right = f.get("wasm", f.get("many"))
        print(f"{f['game']} {f['size']:<5} {f['what']:22} {left:12.0f} {right:12.0f} {f['ratio']:6.3f}")


if __name__ == "__main__":
    main()
