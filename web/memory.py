#!/usr/bin/env python3
"""What the static page's tab holds over a long game, for each engine
memory setting (README, "Play in your browser").

Usage: web/memory.py SITE_DIR [--budgets 16,256] [--game xodd --size 12]
                     [--seconds 1] [--turns 120]

For each memory setting (MiB, the page's Engine memory), a fresh headless
Chromium opens the page from a server that sends COOP/COEP (so that the
page is cross-origin isolated, with a thread per core, and
`performance.measureUserAgentSpecificMemory` is there), sets the memory,
and lets the engine play both seats of GAME SIZE at SECONDS a turn, for
TURNS turns or to the end. Every two seconds it reads the resident memory
(VmRSS) and proportional share (Pss) of the browser's renderer processes
(the page and its workers run there). At the end it asks the page for
`performance.measureUserAgentSpecificMemory()` (the bytes of the page's
JavaScript and WebAssembly by where they live: the window, the engine's
worker, its search threads) and reads each search's tree size. Prints one
JSON line per setting.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "peers"))
import web_play  # noqa: E402  (its browser and server)
from selenium.common.exceptions import TimeoutException  # noqa: E402

MIB = 1 << 20


def renderer_memory(profile):
    """(VmRSS, Pss) in bytes, summed over the renderer processes of the
    browser using `profile`."""
    rss = pss = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            if b"--type=renderer" not in cmd or profile.encode() not in cmd:
                continue
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    key, value = line.split(":", 1)
                    if key in ("Rss", "Pss"):
                        kib = int(value.split()[0]) * 1024
                        rss += kib if key == "Rss" else 0
                        pss += kib if key == "Pss" else 0
        except OSError:
            continue
    return rss, pss


# The page's JavaScript and WebAssembly memory by where it lives (bytes),
# from measureUserAgentSpecificMemory (resolved at the next collection;
# the flag below makes that prompt).
MEASURE = """
const done = arguments[0];
performance.measureUserAgentSpecificMemory().then((m) => {
  const by = {};
  for (const b of m.breakdown) {
    const where = b.attribution.map((a) => a.scope).join("+") || "shared";
    by[where] = (by[where] || 0) + b.bytes;
  }
  done(JSON.stringify({ total: m.bytes, by }));
}, (e) => done(JSON.stringify({ error: String(e) })));
"""

# The largest tree the engine's reports gave, and whether it was full.
WATCH_TREE = """
window.treeSeen = { nodes: 0, full: false };
const seen = window.oddity.worker;
seen.addEventListener("message", (e) => {
  const t = e.data && e.data.thought && JSON.parse(e.data.thought);
  if (!t) return;
  window.treeSeen.nodes = Math.max(window.treeSeen.nodes, t.nodes || 0);
  window.treeSeen.full = window.treeSeen.full || !!t.full;
});
"""


def one_setting(budget, a):
    server = web_play.Server(True)
    b = web_play.Browser(extra=["--enable-blink-features=ForceEagerMeasureMemory"])
    d = b.driver
    try:
        d.get(server.url)
        d.execute_script(f"localStorage.setItem('oddity-engine-memory', '{budget}')")
        d.refresh()
        web_play.wait(d, "return window.oddity && window.oddity.ready && self.crossOriginIsolated"
                         " && typeof state !== 'undefined' && state && state.engines[0].status == 'idle'",
                      120, "the engine ready on the isolated page")
        if d.find_element(web_play.By.ID, "memory").get_attribute("value") != str(budget):
            web_play.fail(f"the page's memory is not {budget} MiB")
        threads = d.execute_script("return window.oddity.threads")
        idle = renderer_memory(b.profile)
        d.execute_script(WATCH_TREE)
        web_play.new_game(d, a.game, a.size, "oddity", "oddity", a.seconds)
        peak_rss = peak_pss = 0
        turns = 0
        start = time.time()
        while True:
            rss, pss = renderer_memory(b.profile)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            s = web_play.state(d)
            turns = len(s["moves"])
            if s["over"] or turns >= a.turns:
                break
            if s["notice"] and s["notice"]["level"] == "error":
                web_play.fail(f"{budget} MiB: {s['notice']['text']}")
            time.sleep(2)  # a sample every two seconds
        end = renderer_memory(b.profile)
        # The measurement resolves at a garbage collection: up to a few
        # minutes in Chromium when nothing forces one.
        d.set_script_timeout(300)
        try:
            measured = json.loads(d.execute_async_script(MEASURE))
        except TimeoutException:
            measured = {"error": "measureUserAgentSpecificMemory did not answer within 300 s"}
        tree = d.execute_script("return window.treeSeen")
        notices = d.execute_script("return state.notice && state.notice.text")
        return {"memory_mib": budget, "game": a.game, "size": a.size, "seconds_per_turn": a.seconds,
                "turns": turns, "minutes": round((time.time() - start) / 60, 1), "threads": threads,
                "renderer_rss_idle_mib": round(idle[0] / MIB), "renderer_rss_peak_mib": round(peak_rss / MIB),
                "renderer_pss_peak_mib": round(peak_pss / MIB), "renderer_rss_end_mib": round(end[0] / MIB),
                "page_memory_mib": (round(measured["total"] / MIB) if "total" in measured else measured),
                "page_memory_by_mib": {k: round(v / MIB, 1) for k, v in measured.get("by", {}).items()},
                "tree_nodes_max": tree["nodes"], "tree_full": tree["full"], "notice": notices}
    finally:
        d.quit()
        server.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("site")
    p.add_argument("--budgets", default="16,256")
    p.add_argument("--game", default="xodd")
    p.add_argument("--size", type=int, default=12)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--turns", type=int, default=120)
    a = p.parse_args()
    web_play.SITE = a.site
    for budget in a.budgets.split(","):
        print(json.dumps(one_setting(int(budget), a)), flush=True)


if __name__ == "__main__":
    main()
