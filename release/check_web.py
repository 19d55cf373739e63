#!/usr/bin/env python3
"""The page of the web archive in headless Chromium, for release/check.sh.

Usage: check_web.py URL SCREENSHOT_DIR

URL serves the unpacked archive (a plain static server: no COOP/COEP, so
the page must say it uses one thread). A person plays one turn of Odd 5
against the engine by a click, and the engine answers it
(web-turn.png); then the engine plays both sides of a whole Odd 5 game,
whose end the page announces with its counted groups (web-end.png). No
request may leave the page's server. Uses the browser helpers of
tests/peers/web_play.py (Chromium, chromedriver, selenium).
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "peers"))
import web_play  # noqa: E402
from web_play import Browser, check_end, fail, log, new_game, state, wait  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    url, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    web_play.SHOTS = shots
    origin = url.rstrip("/")
    b = Browser()
    d = b.driver
    try:
        d.get(url)
        wait(d, "return window.oddity && window.oddity.ready && typeof state !== 'undefined'"
                " && state && state.engines[0].status == 'idle'", 120, "the engine starts")
        line = d.find_element(By.ID, "engines").text
        if "one thread" not in line:
            fail(f"a plain server, but the page says {line!r}")
        log(f"the page is ready: {line}")

        new_game(d, "odd", 5, "human", "oddity", 0.2)
        wait(d, "return state.human_turn", 30, "the person's first turn")
        empty = d.execute_script(
            "return [...document.querySelectorAll('#board [data-cell]')].map((e) => e.dataset.cell)")
        cell = random.Random(61).choice(empty)
        d.execute_script(f"document.querySelector('#board [data-cell=\"{cell}\"]')"
                         ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        s = wait(d, "return state.moves.length == 2 && state.human_turn && state", 60,
                 "the engine's answer to the person's turn")
        web_play.screenshot(d, "web-turn.png")
        log(f"a click on {cell} plays {s['moves'][0]['token']}; the engine answers {s['moves'][1]['token']}")

        new_game(d, "odd", 5, "oddity", "oddity", 0.03)
        s = wait(d, "return state.over && state", 300, "the engine's game of Odd 5 ends")
        status = check_end(d, s, "odd 5")
        web_play.screenshot(d, "web-end.png")
        log(f"the engine against itself: {len(s['moves'])} turns, {status!r}")
        if state(d)["game"] != "odd":
            fail("the game changed")
    finally:
        foreign = b.quit_and_requests(origin)
    if foreign:
        fail(f"requests left the page's server: {foreign}")
    log("no request left the page's server")


if __name__ == "__main__":
    main()
