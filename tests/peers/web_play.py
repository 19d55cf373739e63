#!/usr/bin/env python3
"""Plays the four games in the static page that web/build.sh writes (the
page of `oddity gui`, its session compiled to WebAssembly in the tab), in a
real headless Chromium, with the engine in the tab's Web Worker.

Usage: web_play.py SITE_DIR GAMES_JSON SCREENSHOT_DIR

The folder is served by web/serve.py's handler, a thread per connection, first
without special headers to a browser that gives the page no service worker
(the page must say it uses one thread, and why), then with
COOP/COEP (the page is cross-origin isolated and the engine uses every core
the browser reports). In each, the engine plays both seats of a whole game
of Odd 5, Xodd 12, Yodd 8 and Onyx 12 to the rules' end, and the end is
drawn with its counted groups (Onyx: its chain). The games (turns and the
winner the page announced) go to GAMES_JSON, for the caller to replay with
the rules crate. In the plain page a person also plays Odd 5 against the
engine by clicks, with the engine analysing while the person thinks: the
heat map and the candidates show while it thinks, an illegal click is
refused, Undo takes the person's turn back, and the game is downloaded as
SGF and opened again; the time from each click to its stone on the board is printed (its
median too), and so is the time from the page's start to a playable
board.

Chromium writes a NetLog of every request it makes, with the origin that
started it: any request that the page or its workers make for another host
is a failure ("nothing leaves the tab"; the browser's own background
requests are not the page's). Also checked: the fallback messages when
the browser has no WebAssembly, no Worker (the engine cannot start; people
can still play), when a file of the module is missing (404: the page names
it), and when the threads' module is missing from an isolated page (the
engine starts on one thread and says why). Prints one line per check; exits non-zero on the first failure.
"""

import http.server
import json
import random
import statistics
import os
import shutil
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

# The folder served (set by main, or by a caller such as web/bench.py).
SITE = None
# Where screenshots go (set by main).
SHOTS = None
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "web"))
import serve  # noqa: E402

GAMES = [("odd", 5), ("xodd", 12), ("yodd", 8), ("onyx", 12)]
started = time.time()


def log(text):
    print(f"[{time.time() - started:6.1f}s] {text}", flush=True)


def fail(text):
    raise AssertionError(text)


class Server:
    """The site (`site`, else SITE), a thread per connection as
    web/serve.py serves it, on `port` (0: any free one); `missing` paths
    answer 404."""

    def __init__(self, isolated, missing=(), port=0, site=None):
        self.served = []
        outer = self
        directory = site or SITE

        class Handler(serve.Handler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=directory, **kwargs)

            def do_GET(self):
                outer.served.append(self.path)
                if self.path.split("?")[0].lstrip("/") in missing:
                    self.send_error(404)
                    return
                super().do_GET()

            def log_message(self, format, *args):
                pass

        Handler.isolated = isolated
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = self.origin + "/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Browser:
    """Headless Chromium writing a NetLog: every request the browser makes,
    with the origin that started it."""

    def __init__(self, extra=(), downloads=None):
        self.profile = tempfile.mkdtemp(prefix="oddity-web-")
        self.netlog = os.path.join(self.profile, "netlog.json")
        opts = Options()
        opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1100,900", f"--log-net-log={self.netlog}",
                     f"--user-data-dir={self.profile}", *extra]:
            opts.add_argument(flag)
        # The console of the page and its workers, for `console()`.
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        if downloads:
            opts.add_experimental_option("prefs", {"download.default_directory": downloads,
                                                   "download.prompt_for_download": False})
        driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.driver = webdriver.Chrome(service=Service(driver_path), options=opts)

    def console(self):
        """The console messages of the page and its workers since the last
        call: [(level, text)]."""
        return [(e["level"], e["message"]) for e in self.driver.get_log("browser")]

    def quit_and_requests(self, origin):
        """Closes the browser; returns the URLs that pages of `origin` (and
        their workers) requested from anywhere but `origin`."""
        self.driver.quit()
        with open(self.netlog) as f:
            log = json.load(f)
        shutil.rmtree(self.profile, ignore_errors=True)
        start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
        foreign = []
        for e in log["events"]:
            p = e.get("params") or {}
            if e["type"] == start_job and p.get("initiator") == origin:
                url = p.get("url", "")
                if not (url.startswith(origin + "/") or url.startswith(("blob:", "data:"))):
                    foreign.append(url)
        return foreign


def wait(d, script, seconds, what, error_fails=True):
    """Polls `script` until it returns a true value; fails after `seconds`
    (a bound for a hung page, far above the expected time), or at once
    when the page shows an error and `error_fails`."""
    end = time.time() + seconds
    while time.time() < end:
        value = d.execute_script(script)
        if value:
            return value
        error = error_fails and d.execute_script(
            "const a = document.getElementById('page-alert');"
            "return (a && !a.hidden && a.textContent) || (window.oddity && window.oddity.error)")
        if error:
            fail(f"{what}: the page says: {error}")
        time.sleep(0.1)
    fail(f"{what}: not within {seconds} s")


def screenshot(d, name):
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(os.path.join(SHOTS, name))


def state(d):
    return d.execute_script("return typeof state === 'undefined' ? null : state")


def engine_line(d):
    return d.find_element(By.ID, "engines").text


def new_game(d, game, size, black, white, seconds):
    """Starts a game through the form (engines in both seats may have
    played some turns of it by the time it is seen)."""
    Select(d.find_element(By.ID, "game")).select_by_value(game)
    box = d.find_element(By.ID, "size")
    box.clear()
    box.send_keys(str(size))
    Select(d.find_element(By.ID, "black")).select_by_value(black)
    Select(d.find_element(By.ID, "white")).select_by_value(white)
    box = d.find_element(By.ID, "seconds")
    box.clear()
    box.send_keys(str(seconds))
    before = state(d)["version"]
    d.find_element(By.ID, "start").click()
    try:
        return wait(d, f"return state.version > {before} && state.game == '{game}' && state.size == {size} "
                       "&& state", 60, f"a new game of {game} {size}")
    except AssertionError as e:
        s = state(d)
        fail(f"{e}; the page says {d.find_element(By.ID, 'reason').text!r}; state: "
             f"{ {k: v for k, v in s.items() if k not in ('board', 'tree', 'stones', 'winrates')} }")


END_MARKS = """
return {
  groups: document.querySelectorAll('#overlay .ov-group').length,
  chain: document.querySelectorAll('#overlay .ov-chain').length,
  score: document.getElementById('score').textContent,
  status: document.getElementById('status').textContent,
};
"""


# Whether the board shown is the picture of the state: the same elements
# with the same attributes and texts (the board's width, which the page
# sets, aside), after every turn's stones were put in place of the last.
SHOWN_IS_STATE = """
const same = (a, b) => a.nodeName.toLowerCase() === b.nodeName.toLowerCase()
  && [...a.attributes].every((x) => x.name === 'style' || b.getAttribute(x.name) === x.value)
  && [...b.attributes].every((x) => a.hasAttribute(x.name))
  && a.children.length === b.children.length
  && (a.children.length > 0 || a.textContent === b.textContent)
  && [...a.children].every((c, i) => same(c, b.children[i]));
const shown = document.querySelector('#board svg:not(.overlay-layer)');
return same(shown, new DOMParser().parseFromString(state.board, 'image/svg+xml').documentElement);
"""


def check_end(d, s, what):
    """The end is announced, with its counted groups or chain drawn, on
    the board of the last position."""
    if not d.execute_script(SHOWN_IS_STATE):
        fail(f"{what}: the board shown is not the picture of the game's end")
    m = d.execute_script(END_MARKS)
    winner = "Black" if s["result"]["winner"] == "b" else "White"
    if f"{winner} wins" not in m["status"]:
        fail(f"{what}: the status {m['status']!r} does not announce {winner}")
    if s["game"] == "onyx":
        if not m["chain"] or m["chain"] != len(s["result"]["chain"]):
            fail(f"{what}: Onyx's chain is not drawn: {m}")
    elif not m["groups"] or "group" not in m["score"]:
        fail(f"{what}: the counted groups are not drawn: {m}")
    return m["status"]


def timed_click(d, cell):
    """Clicks `cell` on the board; milliseconds until its stone is in the
    state the page has drawn (the board's picture replaced; before the
    browser paints it), looked for every millisecond or so."""
    return d.execute_async_script("""
const [cell, done] = arguments;
const el = document.querySelector(`#board [data-cell="${cell}"]`);
const t0 = performance.now();
el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
const look = () => {
  if (state.stones[cell]) done(performance.now() - t0);
  else setTimeout(look, 1);
};
look();
""", cell)


# Notes whether the page ever draws the heat map and the candidates while
# the engine thinks of its turn (a moment that polling could miss).
SEE_THINKING = """
window.thinkingSeen = false;
const seen = () => state.engines[0].status == 'thinking' && state.analysis_live
  && document.querySelectorAll('#overlay [data-heat]').length > 0
  && document.querySelectorAll('#candidates tbody tr').length > 0;
new MutationObserver((_, observer) => {
  if (seen()) { window.thinkingSeen = true; observer.disconnect(); }
}).observe(document.querySelector('main'), { subtree: true, childList: true });
"""


def person_plays(d, downloads):
    """A person (Black) plays Odd 5 against the engine by clicks, with the
    engine analysing the person's turn. Returns the click-to-stone times."""
    rng = random.Random(51)
    new_game(d, "odd", 5, "human", "oddity", 0.5)
    d.find_element(By.ID, "analyze").click()
    wait(d, "return state.analysis_wanted", 30, "analysis of my turn on")
    times = []
    refused = undone = thinking = reloaded = False
    while True:
        s = wait(d, "return (state.over || (state.human_turn && state.engines[0].status == 'analysing'"
                    " && state.analysis && state.analysis.turn == state.view)) && state",
                 120, "the person's turn, with the engine analysing it")
        if s["over"]:
            break
        if not refused and s["stones"]:
            cell = sorted(s["stones"])[0]
            d.execute_script(f"document.querySelector('#board [data-cell=\"{cell}\"]')"
                             ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
            text = wait(d, "const r = document.getElementById('reason').textContent;"
                           "return r.includes('refused') && r", 30, "the refusal of an occupied cell")
            if len(state(d)["moves"]) != len(s["moves"]):
                fail("an illegal click changed the game")
            log(f"person: a click on {cell}, occupied, is refused: {text!r}")
            refused = True
        empty = [c for c in d.execute_script(
            "return [...document.querySelectorAll('#board [data-cell]')].map((e) => e.dataset.cell)")
            if c not in s["stones"]]
        cell = rng.choice(empty)
        if not thinking:
            d.execute_script(SEE_THINKING)
        times.append(timed_click(d, cell))
        if not thinking:
            # The engine's reply may come before a busy page draws its
            # thinking: then the next turn looks again.
            seen = wait(d, "return window.thinkingSeen ? 'seen' : (state.over ||"
                           f" state.moves.length >= {len(s['moves']) + 2}) && 'replied'",
                        120, "the heat map and candidates while the engine thinks, or its reply")
            if seen == "seen":
                screenshot(d, "web-thinking.png")
                log("person: the heat map and the candidates show while the engine thinks")
                thinking = True
        if not undone and len(s["moves"]) >= 2:
            wait(d, "return state.human_turn || state.over", 60, "the engine's answer")
            if state(d)["over"]:
                break
            before = len(state(d)["moves"])
            d.find_element(By.ID, "undo").click()
            wait(d, f"return state.moves.length == {before - 2} && state.human_turn", 30, "undo")
            log(f"person: Undo takes the turn back ({before} to {before - 2} turns)")
            undone = True
        if undone and not reloaded:
            n = len(state(d)["moves"])
            # The turn before the last shown: the reload comes back to it.
            d.find_element(By.ID, "prev").click()
            wait(d, "const k = JSON.parse(localStorage.getItem('oddity-game') || 'null');"
                    " return k && k.sgf.split(';B[').length + k.sgf.split(';W[').length - 2 == " + str(n) +
                    f" && k.view == {n - 1}", 30, "the game kept in the browser")
            d.refresh()
            back = wait(d, "return window.oddity && window.oddity.ready && typeof state !== 'undefined'"
                           f" && state && state.moves.length == {n} && state", 120,
                        "the game back after a reload")
            if back["game"] != "odd" or back["seats"] != ["human", "oddity"] or back["view"] != n - 1:
                fail(f"after a reload: {back['game']} with seats {back['seats']}, turn {back['view']} shown")
            d.find_element(By.ID, "last").click()
            wait(d, f"return state.view == {n} && state.human_turn", 30, "back to the last turn")
            d.find_element(By.ID, "analyze").click()
            wait(d, "return state.analysis_wanted", 30, "analysis of my turn on again")
            log(f"person: a reload brings the game back ({n} turns, the same seats, turn {n - 1} shown)")
            reloaded = True
    if not thinking:
        fail("the heat map and candidates never showed while the engine thought")
    if not reloaded:
        fail("the game ended before a reload could be tried")
    s = state(d)
    status = check_end(d, s, "person")
    screenshot(d, "web-person-end.png")
    for f in os.listdir(downloads):
        os.remove(os.path.join(downloads, f))
    d.find_element(By.ID, "download").click()
    path = os.path.join(downloads, "oddity-game.sgf")
    end = time.time() + 30
    while not (os.path.exists(path) and os.path.getsize(path) > 0):
        if time.time() > end:
            fail("the SGF was not downloaded")
        time.sleep(0.1)
    with open(path) as f:
        text = f.read()
    played = text.count(";B[") + text.count(";W[")
    if played != len(s["moves"]) or f"RE[{s['result']['code']}]" not in text:
        fail(f"the downloaded SGF has {played} turns for {len(s['moves'])}: {text[:200]!r}")
    log(f"person: {len(s['moves'])} turns, {status!r}; SGF downloaded with every turn")
    new_game(d, "xodd", 4, "human", "human", 1)
    d.find_element(By.ID, "upload").send_keys(path)
    opened = wait(d, f"return state.game == 'odd' && state.moves.length == {len(s['moves'])} && state", 30,
                  "the downloaded SGF opened again")
    if [m["token"] for m in opened["moves"]] != [m["token"] for m in s["moves"]] or not opened["over"]:
        fail("the SGF opened again is another game")
    log("person: the SGF opened again in the page: the same game, over")
    return s, times


# Run before the page's scripts: a browser without service workers.
NO_SERVICE_WORKER = "delete Navigator.prototype.serviceWorker;"


def play_games(isolated):
    mode = "isolated" if isolated else "plain"
    server = Server(isolated)
    downloads = tempfile.mkdtemp(prefix="oddity-downloads-")
    b = Browser(downloads=downloads)
    d = b.driver
    games = []
    foreign = None
    figures = {}
    try:
        if not isolated:
            # One thread: a browser that gives the page no service worker
            # (which would add the headers; see web_offline.py).
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_SERVICE_WORKER})
        d.get(server.url)
        wait(d, "return window.oddity && window.oddity.ready && typeof playableAt !== 'undefined'"
                " && playableAt !== null && state && state.engines[0].status == 'idle'",
             120, f"{mode}: the engine starts")
        figures = d.execute_script("return {board: playableAt, engine: window.oddity.readyMillis}")
        log(f"{mode}: a playable board {figures['board']:.0f} ms after the page's start, "
            f"the engine ready at {figures['engine']:.0f} ms")
        text = engine_line(d)
        cores = d.execute_script("return navigator.hardwareConcurrency")
        threads = d.execute_script("return window.oddity.threads")
        if isolated:
            if not d.execute_script("return self.crossOriginIsolated"):
                fail("isolated: the page is not cross-origin isolated")
            if threads != max(1, cores) or (threads > 1 and f"{threads} threads" not in text):
                fail(f"isolated: {threads} threads for {cores} cores: {text!r}")
        elif threads != 1 or "one thread" not in text or "cross-origin isolated" not in text \
            or "no service worker" not in text:
            fail(f"plain: {text!r}")
        log(f"{mode}: {text}")
        if not isolated:
            s, times = person_plays(d, downloads)
            figures["clicks"] = times
            log(f"person: click to stone while the engine analyses, {len(times)} clicks: median "
                f"{statistics.median(times):.1f} ms, max {max(times):.1f} ms")
        for game, size in GAMES:
            new_game(d, game, size, "oddity", "oddity", 0.03)
            begin = time.time()
            s = wait(d, "return state.over && state", 900, f"{mode} {game} {size}: the game ends")
            status = check_end(d, s, f"{mode} {game} {size}")
            log(f"{mode} {game} {size}: {len(s['moves'])} turns in {time.time() - begin:.1f} s: {status}")
            games.append({"mode": mode, "game": game, "size": size,
                          "moves": [m["token"] for m in s["moves"]], "winner": s["result"]["winner"]})
            screenshot(d, f"web-{mode}-{game}.png")
    finally:
        foreign = b.quit_and_requests(server.origin)
        server.close()
        shutil.rmtree(downloads, ignore_errors=True)
    if foreign:
        fail(f"{mode}: requests left the tab: {foreign}")
    log(f"{mode}: {len(server.served)} requests, all to the page's own server")
    return games, figures


def fallback(what, element, expect, extra=(), missing=(), before=None, isolated=False):
    server = Server(isolated, missing)
    b = Browser(extra)
    d = b.driver
    try:
        if before:
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": before})
        d.get(server.url)
        shown = f"const m = document.getElementById('{element}'); return m && !m.hidden && m.textContent"
        try:
            text = wait(d, f"const t = (() => {{ {shown}; }})(); return t && t.includes({json.dumps(expect)}) && t",
                        60, what, error_fails=False)
        except AssertionError:
            fail(f"{what}: {d.execute_script(shown)!r} does not say {expect!r}")
        screenshot(d, f"web-{what.replace(' ', '-')}.png")
        log(f"{what}: {text}")
    finally:
        b.quit_and_requests(server.origin)
        server.close()


def main():
    global SITE, SHOTS
    SITE, games_json, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(SHOTS, exist_ok=True)
    fallback("no webassembly", "page-alert", "no WebAssembly", before="delete globalThis.WebAssembly;")
    fallback("no worker", "engine-alert", "no Web Workers", before="delete globalThis.Worker;")
    for name in ["oddity_web.js", "oddity_web_bg.wasm"]:
        fallback(f"module missing {name}", "page-alert", f"pkg/{name} could not be loaded (the server answered 404",
                 missing=(f"pkg/{name}",))
    fallback("threads missing", "engines", "pkg-threads/oddity_web.js could not be loaded (the server answered 404",
             missing=("pkg-threads/oddity_web.js",), isolated=True)
    plain, figures = play_games(False)
    isolated, _ = play_games(True)
    games = plain + isolated
    with open(games_json, "w") as f:
        json.dump(games, f)
    log(f"all checks passed: {len(games)} games")


if __name__ == "__main__":
    main()
