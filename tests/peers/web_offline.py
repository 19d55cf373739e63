#!/usr/bin/env python3
"""The static page of web/build.sh as an installed app, in headless
Chromium: from a plain static server (no COOP/COEP, as GitHub Pages), the
page comes under its service worker, reloads once, and is cross-origin
isolated with the engine on every core the browser reports, with no
warning or error in the console (the page's or its workers'); Chromium finds
it installable (its manifest and icons); with the server stopped, a reload
opens it again and a person plays a turn against the engine; a click on
Xodd 12 is answered while the engine analyses.

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

    finally:
        b.driver.quit()
        server.close()
        shutil.rmtree(copy, ignore_errors=True)
    log("all offline checks passed")


if __name__ == "__main__":
    main()
