#!/usr/bin/env python3
"""Plays the four games in the static page that web/build.sh writes, in a
real headless Chromium, with the engine in the tab.

Usage: web_play.py SITE_DIR GAMES_JSON SCREENSHOT_DIR

The folder is served by web/serve.py's handler on one thread, first
without special headers (the page must say it uses one thread), then with
COOP/COEP (the page is cross-origin isolated and the engine uses every core
the browser reports). In each, the engine plays both sides of a whole game
of Odd 5, Xodd 12, Yodd 8 and Onyx 12 to the rules' end. The games (moves
and the winner the page announced) go to GAMES_JSON, for the caller to
replay with the rules crate.

Chromium writes a NetLog of every request it makes, with the origin that
started it: any request that the page or its workers make for another host
is a failure ("nothing leaves the tab"; the browser's own background
requests are not the page's). Also checked: the fallback messages when
the browser has no WebAssembly, no Worker, and when the module is missing
(404). Prints one line per check; exits non-zero on the first failure.
"""

import http.server
import json
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
    """The site on one thread; `missing` paths answer 404."""

    def __init__(self, isolated, missing=()):
        self.served = []
        outer = self

        class Handler(serve.Handler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=SITE, **kwargs)

            def do_GET(self):
                outer.served.append(self.path)
                if self.path.split("?")[0].lstrip("/") in missing:
                    self.send_error(404)
                    return
                super().do_GET()

            def log_message(self, format, *args):
                pass

        Handler.isolated = isolated
        self.httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = self.origin + "/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Browser:
    """Headless Chromium writing a NetLog: every request the browser makes,
    with the origin that started it."""

    def __init__(self, extra=()):
        self.profile = tempfile.mkdtemp(prefix="oddity-web-")
        self.netlog = os.path.join(self.profile, "netlog.json")
        opts = Options()
        opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1000,800", f"--log-net-log={self.netlog}",
                     f"--user-data-dir={self.profile}", *extra]:
            opts.add_argument(flag)
        driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.driver = webdriver.Chrome(service=Service(driver_path), options=opts)

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
        error = error_fails and d.execute_script("return window.oddity && window.oddity.error")
        if error:
            fail(f"{what}: the page says: {error}")
        time.sleep(0.1)
    fail(f"{what}: not within {seconds} s")


def message(d):
    return wait(d, "const m = document.getElementById('message'); return m && !m.hidden && m.textContent",
                60, "a message", error_fails=False)


def play_games(isolated):
    mode = "isolated" if isolated else "plain"
    server = Server(isolated)
    b = Browser()
    d = b.driver
    games = []
    foreign = None
    try:
        d.get(server.url)
        wait(d, "return window.oddity && window.oddity.ready", 120, f"{mode}: the engine starts")
        text = d.find_element(By.ID, "engine").text
        cores = d.execute_script("return navigator.hardwareConcurrency")
        threads = d.execute_script("return window.oddity.threads")
        if isolated:
            if not d.execute_script("return self.crossOriginIsolated"):
                fail("isolated: the page is not cross-origin isolated")
            if threads != max(1, cores) or (threads > 1 and f"{threads} threads" not in text):
                fail(f"isolated: {threads} threads for {cores} cores: {text!r}")
        elif threads != 1 or "one thread" not in text or "SharedArrayBuffer" not in text:
            fail(f"plain: {text!r}")
        log(f"{mode}: {text}")
        d.find_element(By.ID, "millis").clear()
        d.find_element(By.ID, "millis").send_keys("25")
        for game, size in GAMES:
            Select(d.find_element(By.ID, "game")).select_by_value(game)
            d.find_element(By.ID, "size").clear()
            d.find_element(By.ID, "size").send_keys(str(size))
            d.find_element(By.ID, "new").click()
            wait(d, f"return window.oddity.game && window.oddity.game.game == '{game}' "
                    f"&& window.oddity.game.moves.length == 0 && window.oddity.ready", 60, "new game")
            begin = time.time()
            d.find_element(By.ID, "auto").click()
            state = wait(d, "const g = window.oddity.game; return g.over && !window.oddity.thinking && g",
                         900, f"{mode} {game} {size}: the game ends")
            log(f"{mode} {game} {size}: {len(state['moves'])} turns in {time.time() - begin:.1f} s: "
                f"{state['result']}")
            games.append({"mode": mode, "game": game, "size": size,
                          "moves": state["moves"], "winner": state["winner"]})
        d.save_screenshot(os.path.join(SHOTS, f"web-{mode}.png"))
    finally:
        foreign = b.quit_and_requests(server.origin)
        server.close()
    if foreign:
        fail(f"{mode}: requests left the tab: {foreign}")
    log(f"{mode}: {len(server.served)} requests, all to the page's own server")
    return games


def fallback(what, expect, extra=(), missing=(), before=None):
    server = Server(False, missing)
    b = Browser(extra)
    d = b.driver
    try:
        if before:
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": before})
        d.get(server.url)
        text = message(d)
        if expect not in text:
            fail(f"{what}: {text!r}")
        d.save_screenshot(os.path.join(SHOTS, f"web-{what.replace(' ', '-')}.png"))
        log(f"{what}: {text}")
    finally:
        b.quit_and_requests(server.origin)
        server.close()


def main():
    global SITE, SHOTS
    SITE, games_json, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(SHOTS, exist_ok=True)
    fallback("no webassembly", "no WebAssembly", before="delete globalThis.WebAssembly;")
    fallback("no worker", "no Web Workers", before="delete globalThis.Worker;")
    fallback("module missing", "could not be loaded", missing=("pkg/oddity_web_bg.wasm",))
    games = play_games(False) + play_games(True)
    with open(games_json, "w") as f:
        json.dump(games, f)
    log(f"all checks passed: {len(games)} games")


if __name__ == "__main__":
    main()
