#!/usr/bin/env python3
"""The static page of web/build.sh as an installed app, in headless
Chromium: from a plain static server (no COOP/COEP, as GitHub Pages), the
page comes under its service worker, reloads once, and is cross-origin
isolated with the engine on every core the browser reports, with no
warning or error in the console (the page's or its workers'); Chromium finds
it installable (its manifest and icons); with the server stopped, a reload
opens it again and a person plays a turn against the engine; a reload
then brings both clocks back, the person's running on from where it was;
a click on Xodd 12 is answered while the engine analyses; with the
smallest memory (16 MiB) the engine's search tree fills while it analyses
Xodd 19, the page says so once, and the engine still plays its turn.

Usage: web_offline.py SITE_DIR SCREENSHOT_DIR

Prints one line per check; exits non-zero on the first failure.
"""

import os
import shutil
import sys
import tempfile

import web_play
from web_play import Browser, Server, fail, log, state, wait


def ready_isolated(d, what):
    """Waits for the page under its service worker, isolated, the engine
    ready and a person's turn to play."""
    return wait(d, "return self.crossOriginIsolated && navigator.serviceWorker.controller"
                   " && window.oddity && window.oddity.ready && typeof state !== 'undefined' && state"
                   " && state.engines[0].status == 'idle' && state", 120, what)


# Each seat's clock as the page shows it, in seconds, black first.
SHOWN_CLOCKS = """return ['clock-b', 'clock-w'].map((id) => {
  const m = document.getElementById(id).textContent.match(/(\\d+):(\\d+)$|([\\d.]+) s$/);
  return m[3] !== undefined ? Number(m[3]) : Number(m[1]) * 60 + Number(m[2]);
})"""


def clocks_survive_a_reload(d):
    """The person to move, their clock running, the engine's stopped: a
    reload shows each clock at least where it was, the engine's (which
    cannot run on) with its time, and the person's still running."""
    before = wait(d, "return state.clock.running == 'b' && state.clock.used[1] > 0 && state.clock", 30,
                  "the person's clock running, the engine's time counted")
    shown = d.execute_script(SHOWN_CLOCKS)
    d.refresh()
    after = ready_isolated(d, "the page after a reload")
    clock = after["clock"]
    if len(after["moves"]) != 2 or clock["running"] != "b" or \
            clock["used"][0] < before["used"][0] or clock["used"][1] < before["used"][1]:
        fail(f"a reload lost the clocks: {before} before, {clock} after, with {len(after['moves'])} turns")
    again = d.execute_script(SHOWN_CLOCKS)
    if again[0] < shown[0] or again[1] < shown[1]:
        fail(f"after a reload the clocks show {again}, before it {shown}")
    log(f"a reload brings the clocks back: shown {shown} s before, {again} s after, Black's running")


# Counts the engine's reports that say its tree is full, from now on.
COUNT_FULL = """
window.fullReports = 0;
window.oddity.worker.addEventListener("message", (e) => {
  if (e.data && e.data.thought && JSON.parse(e.data.thought).full) window.fullReports++;
});
"""

FULL_SAID = "search tree reached its memory bound"


def a_full_tree_is_said_once(d):
    """At 16 MiB the engine's tree fills while it analyses the person's
    turn on Xodd 19: the page says so, once (not again for the reports
    that follow, nor when the search starts again on the same tree), and
    the engine then plays a turn."""
    d.execute_script("const m = document.getElementById('memory'); m.value = 16;"
                     " m.dispatchEvent(new Event('change'))")
    wait(d, "return window.oddity.ready && document.getElementById('memory').value == '16'"
            " && state.engines[0].status != 'starting' && state", 60, "the engine started again with 16 MiB")
    d.execute_script(COUNT_FULL)
    web_play.new_game(d, "xodd", 19, "human", "oddity", 1)
    if not d.find_element(web_play.By.ID, "analyze").is_selected():
        d.find_element(web_play.By.ID, "analyze").click()
    said = wait(d, f"return state.notice && state.notice.text.includes('{FULL_SAID}') && state.notice.text",
                300, "the page saying that the engine's tree is full")
    # Change players only: the notice goes, the search starts again on its
    # full tree, and the full tree is not said again.
    d.find_element(web_play.By.ID, "apply-seats").click()
    wait(d, "return !state.notice", 30, "the notice gone")
    reports = d.execute_script("return window.fullReports")
    s = wait(d, f"return window.fullReports > {reports} + 2 && state.engines[0].status == 'analysing' && state",
             120, "more reports of the full tree")
    if s["notice"]:
        fail(f"the full tree was said again: {s['notice']['text']}")
    # The engine plays on: Black's turn handed to it.
    Select = web_play.Select
    Select(d.find_element(web_play.By.ID, "black")).select_by_value("oddity")
    d.find_element(web_play.By.ID, "apply-seats").click()
    s = wait(d, "return state.moves.length == 1 && state", 60, "the engine's turn with its tree full")
    log(f"16 MiB: the page says {said!r} once ({d.execute_script('return window.fullReports')} reports of a "
        f"full tree); the engine then plays {s['moves'][0]['token']}")


def main():
    site, web_play.SHOTS = sys.argv[1], sys.argv[2]
    os.makedirs(web_play.SHOTS, exist_ok=True)
    # A copy of the site, served by this script alone.
    copy = tempfile.mkdtemp(prefix="oddity-site-")
    shutil.copytree(site, copy, dirs_exist_ok=True)
    server = Server(False, site=copy)
    port = server.httpd.server_address[1]
    b = Browser()
    d = b.driver
    try:
        d.get(server.url)
        ready_isolated(d, "the page isolated by its service worker")
        cores = d.execute_script("return navigator.hardwareConcurrency")
        threads = d.execute_script("return window.oddity.threads")
        text = web_play.engine_line(d)
        if threads != max(1, cores) or (threads > 1 and f"{threads} threads" not in text):
            fail(f"plain server: {threads} threads for {cores} cores: {text!r}")
        warned = [m for level, m in b.console() if level in ("WARNING", "SEVERE")]
        if warned:
            fail(f"the console warns: {warned}")
        served = [p for p in server.served if p in ("/", "/index.html")]
        log(f"plain server: after the service worker's reload the page is cross-origin isolated, {text!r} "
            f"(the page requested {len(served)} times)")

        errors = d.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
        manifest = d.execute_cdp_cmd("Page.getAppManifest", {})
        if errors or manifest.get("errors"):
            fail(f"not installable: {errors} {manifest.get('errors')}")
        log(f"installable: Chromium finds no installability error; manifest {manifest['url']}")

        server.close()
        d.refresh()
        s = ready_isolated(d, "the page again with the server stopped")
        web_play.new_game(d, "odd", 5, "human", "oddity", 0.2)
        s = wait(d, "return state.human_turn && state", 30, "the person's turn")
        cell = sorted(set(d.execute_script(
            "return [...document.querySelectorAll('#board [data-cell]')].map((e) => e.dataset.cell)"))
            - set(s["stones"]))[0]
        d.execute_script(f"document.querySelector('#board [data-cell=\"{cell}\"]')"
                         ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        s = wait(d, "return state.moves.length == 2 && state.human_turn && state", 60,
                 "the engine's answer, offline")
        web_play.screenshot(d, "web-offline.png")
        log(f"offline: the page opens with the server stopped; {cell} played, the engine answered "
            f"{s['moves'][1]['token']} ({web_play.engine_line(d)!r})")

        clocks_survive_a_reload(d)

        # A click answered while the engine analyses a larger board.
        web_play.new_game(d, "xodd", 12, "human", "oddity", 1)
        d.find_element(web_play.By.ID, "analyze").click()
        s = wait(d, "return state.human_turn && state.engines[0].status == 'analysing' && state.analysis"
                    " && state.analysis.candidates.length > 0 && state", 60, "the engine analysing Xodd 12")
        cell = sorted(set(d.execute_script(
            "return [...document.querySelectorAll('#board [data-cell]')].map((e) => e.dataset.cell)"))
            - set(s["stones"]))[0]
        d.execute_script(f"document.querySelector('#board [data-cell=\"{cell}\"]')"
                         ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        wait(d, f"return document.querySelector('#overlay [data-pending=\"{cell}\"]')"
                " && state.engines[0].status == 'analysing'", 30, "the click answered while the engine analyses")
        log(f"analysing Xodd 12: a click on {cell} is answered (its stone drawn, waiting to be confirmed)")

        a_full_tree_is_said_once(d)

    finally:
        b.driver.quit()
        server.close()
        shutil.rmtree(copy, ignore_errors=True)
    log("all offline checks passed")


if __name__ == "__main__":
    main()
