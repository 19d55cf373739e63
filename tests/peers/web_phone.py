#!/usr/bin/env python3
"""The static page of web/build.sh on a phone's screen (390 x 844 CSS px,
emulated in headless Chromium): for the smallest, a middle and the
largest board of each game, started from the form scrolled to the bottom
of the page, the board is in view after *Start new game*; neighbouring
cells are at least 24 CSS px apart (a board that would be smaller is drawn
larger and scrolls within its box); and the page itself never scrolls
sideways.

Usage: web_phone.py SITE_DIR SCREENSHOT_DIR

Prints one line per board; exits non-zero on the first failure.
"""

import os
import sys

import web_play
from web_play import Browser, Server, fail, log, wait

WIDTH, HEIGHT = 390, 844
TOUCH = 24

MEASURE = """
const cells = [...document.querySelectorAll('#board [data-cell]')].map((e) => {
  const r = e.getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
});
let spacing = Infinity;
for (let i = 0; i < cells.length; i++) {
  for (let j = i + 1; j < cells.length; j++) {
    spacing = Math.min(spacing, Math.hypot(cells[i][0] - cells[j][0], cells[i][1] - cells[j][1]));
  }
}
const board = document.getElementById('board').getBoundingClientRect();
return { cells: cells.length, spacing, top: board.top, page: document.documentElement.scrollWidth };
"""


def main():
    web_play.SITE, web_play.SHOTS = sys.argv[1], sys.argv[2]
    os.makedirs(web_play.SHOTS, exist_ok=True)
    server = Server(True)
    b = Browser()
    d = b.driver
    try:
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 3, "mobile": True})
        d.get(server.url)
        wait(d, "return window.oddity && window.oddity.ready && typeof state !== 'undefined' && state"
                " && state.engines[0].status == 'idle'", 120, "the engine starts")
        games = d.execute_script("return catalogue.games.map((g) => [g.id, g.sizes.map((s) => s.size)])")
        for game, sizes in games:
            for size in sorted({sizes[0], sizes[len(sizes) // 2], sizes[-1]}):
                d.execute_script("window.scrollTo(0, document.body.scrollHeight)")
                web_play.new_game(d, game, size, "human", "human", 1)
                m = wait(d, f"const m = (() => {{ {MEASURE} }})(); return m.cells > 0 && m", 30,
                         f"{game} {size}: the board drawn")
                if not 0 <= m["top"] < HEIGHT / 2:
                    fail(f"{game} {size}: after Start new game the board's top is at {m['top']:.0f} px")
                if m["spacing"] < TOUCH:
                    fail(f"{game} {size}: cells {m['spacing']:.1f} CSS px apart")
                if m["page"] > WIDTH:
                    fail(f"{game} {size}: the page is {m['page']} px wide")
                log(f"{game} {size}: board top at {m['top']:.0f} px after Start new game, "
                    f"cells {m['spacing']:.1f} CSS px apart")
        web_play.screenshot(d, "web-phone.png")
    finally:
        b.driver.quit()
        server.close()
    log("all phone checks passed")


if __name__ == "__main__":
    main()
