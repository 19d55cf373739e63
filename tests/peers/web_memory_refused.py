#!/usr/bin/env python3
"""The static page of web/build.sh when the browser will not give the
engine the memory set for it, as a phone's browser may not: headless
Chromium whose V8 lets a WebAssembly memory grow to 32 MiB at most
(--wasm-max-mem-pages=512), the page from a plain static server and
without its service worker (one engine thread, the module with a memory of
its own), the engine's memory left at the page's default of 256 MiB.

The engine plays both seats of Odd 5 at 1 s a turn. The browser refuses
the search tree's arena of 102 MiB; the search halves it until the browser
gives it, the tree fills at half or less of the nodes 256 MiB would hold,
and the page says so once. Later in the game an allocation that is not
halved is refused and the module traps: the page stops the engine and
says, once, that it ran out of memory, at how many MiB (at most the
browser's 32) of the 256 set under Engines, and that less memory there
starts it again (in the notice and on the engine's line under Engines,
with its Restart button; no other alert, no uncaught error, no warning or
error in the console); the game is kept (every turn played, in the page
and in the browser's storage); a person can take the seat to move and
play a stone, after which the page says that the engine's seat cannot
move and why; with 16 MiB set under Engines the engine starts again,
plays its turn, and then both seats to the game's end.

Usage: web_memory_refused.py SITE_DIR SCREENSHOT_DIR

Prints one line per check; exits non-zero on the first failure.
"""

import json
import os
import shutil
import sys

import web_play
from web_play import By, Browser, Select, Server, fail, log, wait

# The most a WebAssembly memory may grow to in this browser, in 64 KiB
# pages: 32 MiB, above the module's own 8.3 MiB (its 8 MiB stack) and far
# below the page's default budget.
MAX_PAGES = 512
DEFAULT_MB = 256
# The tree's share of a budget and a node's size (crates/oddity-web's
# memory.rs and oddity-search's node.rs): the nodes 256 MiB would hold.
NODE_BYTES = 28
NODES_AT_DEFAULT = (DEFAULT_MB * 2 // 5 << 20) // NODE_BYTES

# Before the page's scripts: no service worker (it would make the page
# cross-origin isolated, with the threads' shared memory), and a count of
# the page's uncaught errors.
BEFORE = web_play.NO_SERVICE_WORKER + """
window.uncaught = [];
addEventListener('error', (e) => window.uncaught.push(String(e.message)));
addEventListener('unhandledrejection', (e) => window.uncaught.push(String(e.reason)));
"""

# Watches the engine's worker: its errors, the reports of a full tree, and
# the turns of the game after each turn the page took from it (the page's
# own handler has run by then).
WATCH = """
window.watched = { errors: [], full: [], turns: null };
window.oddity.worker.addEventListener('message', (e) => {
  const m = e.data;
  if (m.type === 'error') window.watched.errors.push(m);
  if (m.type === 'progress' || m.type === 'best') {
    const t = JSON.parse(m.thought);
    if (t.full) window.watched.full.push(t.nodes);
  }
  if (m.type === 'best') window.watched.turns = state.moves.map((t) => t.token);
});
"""

OUT_OF_MEMORY = "ran out of memory"

# Every text the page's notice shows, each time it is shown.
NOTICES = """
window.notices = [];
let showing = '';
const notice = document.getElementById('notice');
new MutationObserver(() => {
  const text = notice.hidden ? '' : notice.textContent;
  if (text && text !== showing) window.notices.push(text);
  showing = text;
}).observe(notice, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def shown(d, words):
    """The notices shown that say `words`."""
    return [t for t in d.execute_script("return window.notices") if words in t]


def engine_runs_out(d):
    """The engine plays both seats of Odd 5 with 256 MiB set until the
    browser refuses it memory; returns the state then."""
    d.execute_script(WATCH)
    web_play.new_game(d, "odd", 5, "oddity", "oddity", 1)
    s = wait(d, "return state.engines[0].fault && state", 600, "the engine stopped", error_fails=False)
    w = d.execute_script("return window.watched")
    if s["over"]:
        fail(f"the game ended with {len(s['moves'])} turns before memory ran out")
    full = w["full"]
    if not full or max(full) > NODES_AT_DEFAULT // 2:
        fail(f"no tree cut short by the browser: full at {full[:3]} nodes, {NODES_AT_DEFAULT} at {DEFAULT_MB} MiB")
    said = shown(d, "memory bound")
    if len(said) != 1:
        fail(f"a full tree said {len(said)} times: {said}")
    log(f"the browser refuses the tree's arena: it fills at {full[0]:,} nodes of the "
        f"{NODES_AT_DEFAULT:,} that {DEFAULT_MB} MiB holds, and the page says so once ({said[0]!r}, "
        f"for {len(full)} reports of a full tree); the engine plays on")
    return s, w


def said_once(d, s, w):
    """The page says, once, that the engine ran out of memory, and nothing
    else went wrong."""
    errors = w["errors"]
    if len(errors) != 1 or not errors[0]["memory"] or not errors[0]["size"] > 8:
        fail(f"the worker's errors: {errors}")
    size = errors[0]["size"]
    if size > MAX_PAGES // 16:
        fail(f"out of memory at {size} MiB, above the browser's {MAX_PAGES // 16} MiB")
    expect = f"{OUT_OF_MEMORY} at {size} MiB of the {DEFAULT_MB} MiB set under Engines; set less memory there"
    notice = (s["notice"] or {}).get("text", "")
    line = d.find_element(By.CSS_SELECTOR, '#engines li[data-engine="oddity"]')
    for where, text in [("notice", notice), ("engine's line", line.text)]:
        if text.count(OUT_OF_MEMORY) != 1 or expect not in text:
            fail(f"the {where} says {text!r}, not once {expect!r}")
    if not line.find_elements(By.CSS_SELECTOR, "button.restart"):
        fail(f"no Restart beside {line.text!r}")
    if len(shown(d, OUT_OF_MEMORY)) != 1:
        fail(f"the notices: {shown(d, OUT_OF_MEMORY)}")
    alerts = d.execute_script("return ['page-alert', 'engine-alert'].filter((id) =>"
                              " !document.getElementById(id).hidden).map((id) => document.getElementById(id).textContent)")
    if alerts:
        fail(f"other alerts: {alerts}")
    web_play.screenshot(d, "web-memory-refused.png")
    d.find_element(By.ID, "engines").find_element(By.XPATH, "..").screenshot(
        os.path.join(web_play.SHOTS, "web-memory-refused-engines.png"))
    log(f"after {len(s['moves'])} turns the page says once: {notice!r}; under Engines: {line.text!r}")
    return notice


def no_uncaught(b, d, when):
    uncaught = d.execute_script("return window.uncaught")
    console = [m for level, m in b.console() if level in ("WARNING", "SEVERE")]
    if uncaught or console:
        fail(f"{when}: uncaught errors {uncaught}, console {console}")


def game_kept(d, s, w):
    """Every turn the engine played is there, in the page and in the
    browser's storage."""
    turns = [t["token"] for t in s["moves"]]
    if turns != w["turns"]:
        fail(f"the turns before the failure {w['turns']}, after {turns}")
    wait(d, f"return JSON.stringify(JSON.parse(localStorage.getItem('oddity-game')).line)"
            f" == '{json.dumps(turns, separators=(',', ':'))}'", 30, "the game kept in the browser",
         error_fails=False)
    log(f"the game is kept: its {len(turns)} turns in the page and in the browser's storage")


def seats(d, black, white):
    Select(d.find_element(By.ID, "black")).select_by_value(black)
    Select(d.find_element(By.ID, "white")).select_by_value(white)
    d.find_element(By.ID, "apply-seats").click()
    wait(d, f"return state.seats[0] == '{black}' && state.seats[1] == '{white}'", 30,
         f"{black} and {white} to play", error_fails=False)


def person_plays(d, s):
    """The person takes the seat to move and plays a stone; the engine's
    seat then waits, and the page says why."""
    n = len(s["moves"])
    colour = {"b": "black", "w": "white"}[s["to_move"][0].lower()]
    seats(d, *(("human", "oddity") if colour == "black" else ("oddity", "human")))
    cell = sorted(set(d.execute_script(
        "return [...document.querySelectorAll('#board [data-cell]')].map((e) => e.dataset.cell)"))
        - set(s["stones"]))[0]
    d.execute_script(f"document.querySelector('#board [data-cell=\"{cell}\"]')"
                     ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    s = wait(d, f"return state.moves.length == {n + 1} && state", 30, "the person's stone", error_fails=False)
    notice = wait(d, f"return state.notice && state.notice.text.includes('{OUT_OF_MEMORY}')"
                     " && state.notice.text", 30, "the engine's seat waiting", error_fails=False)
    if cell not in s["moves"][-1]["token"] or s["engines"][0]["status"] != "stopped":
        fail(f"the person's stone: {s['moves'][-1]}, the engine {s['engines'][0]['status']}")
    waiting = "White" if colour == "black" else "Black"
    if f"{waiting} cannot move" not in notice:
        fail(f"after the person's stone the page says {notice!r}")
    log(f"a person plays {s['moves'][-1]['token']}; then: {notice!r}")
    return s


def less_memory_plays_on(d, s):
    """16 MiB set under Engines: the engine starts again and plays its
    turn, then both seats to the game's end."""
    n = len(s["moves"])
    d.execute_script("const m = document.getElementById('memory'); m.value = 16;"
                     " m.dispatchEvent(new Event('change'))")
    # The page's error stays until the engine is ready again.
    wait(d, "return window.oddity.ready && !state.engines[0].fault", 120, "the engine started again with 16 MiB",
         error_fails=False)
    s = wait(d, f"return state.moves.length == {n + 1} && state", 120, "the engine's turn with 16 MiB")
    line = web_play.engine_line(d)
    if OUT_OF_MEMORY in line or s["engines"][0]["fault"]:
        fail(f"after the restart: {line!r}")
    log(f"with 16 MiB set the engine starts again and plays {s['moves'][-1]['token']}")
    seats(d, "oddity", "oddity")
    s = wait(d, "return state.over && state", 600, "the game's end")
    status = web_play.check_end(d, s, "after the restart")
    log(f"the engine plays on to the end: {len(s['moves'])} turns, {status!r}")


def main():
    site, web_play.SHOTS = sys.argv[1], sys.argv[2]
    os.makedirs(web_play.SHOTS, exist_ok=True)
    server = Server(False, site=site)
    b = Browser(extra=[f"--js-flags=--wasm-max-mem-pages={MAX_PAGES}"])
    d = b.driver
    try:
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": BEFORE})
        d.get(server.url)
        wait(d, "return window.oddity && window.oddity.ready && typeof state !== 'undefined' && state"
                " && state.engines[0].status == 'idle'", 120, "the engine ready")
        memory = d.execute_script("return document.getElementById('memory').value")
        if memory != str(DEFAULT_MB) or d.execute_script("return window.oddity.threads") != 1:
            fail(f"the engine has {memory} MiB and {d.execute_script('return window.oddity.threads')} threads")
        log(f"the browser's WebAssembly memory bound to {MAX_PAGES // 16} MiB; the engine ready with "
            f"{memory} MiB set, on one thread")
        d.execute_script(NOTICES)
        s, w = engine_runs_out(d)
        said_once(d, s, w)
        no_uncaught(b, d, "when memory ran out")
        game_kept(d, s, w)
        s = person_plays(d, s)
        less_memory_plays_on(d, s)
        no_uncaught(b, d, "after the restart")
    finally:
        d.quit()
        shutil.rmtree(b.profile, ignore_errors=True)
        server.close()
    log("all memory checks passed")


if __name__ == "__main__":
    main()
