#!/usr/bin/env python3
"""Details of `oddity gui` as a person meets them, in a real headless Chromium.

Usage: gui_details.py URL ODDITY_BINARY SERVER_PID SCREENSHOT_DIR

The server must have been started with the engines `e` (quick, visits
capped) and `slow` (thinks for the time the page gives it). Checked:

- a refused second stone leaves the first one pending and confirmable
  (Xodd, Black's first turn and a later one), by button and by Enter;
- a stopped engine left in the seat to move is announced in a banner, and
  changing the players clears it;
- a click while reviewing a finished game gets the review hint;
- Open SGF reports errors next to the button, and a file of several games
  offers each of them;
- an engine that answers within a second is seen thinking, and its
  candidates stay listed after it plays, its heat map gone from the board
  (Odd);
- Onyx clicks on the lines near a point play that point;
- the candidates table keeps its order under the pointer; the heat map's
  rings give the stone colour (Xodd);
- games between engines hide the stone controls and pause and resume;
- an engine time of 0.25 s, a smallest group beyond the board refused;
- Onyx captures counted, and the seats' clocks.

Screenshots go to SCREENSHOT_DIR (gui-detail-*.png). Prints one line per
check; exits non-zero on the first failure.
"""

import os
import shutil
import signal
import sys
import tempfile
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from gui_drive import (click_cell, engine_pid, fail, log, new_game, no_console_errors, pick_colour,
                       reason, screenshot, start_browser, state, wait, URL)


def shot_at(d, element, name):
    """A screenshot with `element` in the middle of the window."""
    d.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'center'})",
                     element)
    d.save_screenshot(os.path.join(sys.argv[4], name))


def pend(d, colour, cell, expect):
    """Places a pending stone; waits for the page's verdict containing `expect`."""
    pick_colour(d, colour)
    click_cell(d, cell)
    return wait(d, f"'{expect}' after {colour}:{cell}",
                lambda: (lambda t: t if expect in t else None)(reason(d)))


def refused_second_stone(d):
    """Issue: Confirm went grey after a refused second stone."""
    new_game(d, "xodd", 9, "human", "human")
    confirm = d.find_element(By.ID, "confirm")
    pend(d, "B", "E5", "confirm the turn")
    text = pend(d, "B", "C3", "refused")
    if "B:E5 can still be confirmed" not in text:
        fail(f"the refusal does not say the first stone stands: {text!r}")
    if not confirm.is_enabled() or not d.find_elements(By.CSS_SELECTOR, '#overlay [data-pending="E5"]'):
        fail("after a refused second stone on Black's first turn, E5 is not confirmable")
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)
    wait(d, "B:E5 played by Enter", lambda: [m["token"] for m in state(d)["moves"]] == ["B:E5"])
    log("  Black's first turn: C3 refused, E5 still confirmed with Enter")
    pend(d, "B", "E4", "confirm the turn, or add a second stone")
    text = pend(d, "W", "A1", "refused")
    if "even number of groups" not in text:
        fail(f"unexpected refusal: {text!r}")
    if not confirm.is_enabled():
        fail("Confirm is disabled after a refused second stone")
    shot_at(d, "composer", "gui-detail-refused.png")
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)
    wait(d, "B:E4 played by Enter", lambda: len(state(d)["moves"]) == 2)
    if state(d)["moves"][1]["token"] != "B:E4":
        fail(f"played {state(d)['moves'][1]}")
    pend(d, "B", "E3", "confirm the turn")
    pend(d, "W", "J9", "refused")
    confirm.click()
    wait(d, "B:E3 played by the button", lambda: len(state(d)["moves"]) == 3)
    if state(d)["moves"][2]["token"] != "B:E3":
        fail(f"played {state(d)['moves'][2]}")
    log(f"  White's turn: A1 refused after E4 ({text!r}), E4 confirmed with Enter; "
        "Black: J9 refused after E3, E3 confirmed with the button")


def stalled_engine_banner(d):
    """Issue: a stopped engine left in the seat to move waited silently."""
    new_game(d, "odd", 3, "human", "e")
    click_cell(d, "C3")
    wait(d, "the engine's turn", lambda: len(state(d)["moves"]) == 2 and state(d)["human_turn"])
    pid = wait(d, "the engine process", lambda: engine_pid("--seed 3"))
    os.kill(pid, signal.SIGKILL)
    notice = d.find_element(By.ID, "notice")
    wait(d, "the crash report", lambda: notice.is_displayed() and "stopped" in notice.text)
    d.find_element(By.ID, "undo").click()
    wait(d, "the undo", lambda: not state(d)["moves"])
    if notice.is_displayed():
        fail(f"a banner after undo: {notice.text!r}")
    click_cell(d, "C3")
    text = wait(d, "the banner for the stopped engine",
                lambda: notice.is_displayed() and "engine e is stopped" in notice.text and notice.text)
    status = d.find_element(By.ID, "status").text
    if "stopped" not in status:
        fail(f"status line {status!r} does not say the engine is stopped")
    screenshot(d, "gui-detail-stalled.png")
    Select(d.find_element(By.ID, "white")).select_by_value("human")
    d.find_element(By.ID, "apply-seats").click()
    wait(d, "the banner to go", lambda: not notice.is_displayed())
    d.find_element(By.CSS_SELECTOR, '.restart[data-engine="e"]').click()
    wait(d, "the restart", lambda: all(not e["fault"] for e in state(d)["engines"]))
    log(f"  stopped engine announced: {text!r}; gone after Change players only")


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


FULL_ODD = "(;FF[4]GM[9000]OG[odd]SZ[2];B[B:A1];W[W:B1];B[B:A2];W[W:B2];B[B:C2];W[W:B3];B[B:C3])"
TWO_GAMES = FULL_ODD + ("\n(;FF[4]GM[9000]OG[xodd]SZ[5]PB[alpha]PW[beta]RE[B+1]"
                        ";B[B:C3];W[W:A1,W:E5];B[pass];W[pass])\n")


def records(d, tmp):
    """Issues: Open SGF errors far from the button; collections; review hint."""
    upload = d.find_element(By.ID, "upload")
    msg = d.find_element(By.ID, "records-msg")
    upload.send_keys(write(tmp, "broken.sgf", "(;FF[4]GM[9000]OG[odd]SZ[5];B[B:Z99])"))
    wait(d, "the refusal of a broken file", lambda: "cannot open broken.sgf" in msg.text)
    label = d.find_element(By.CSS_SELECTOR, "label.file")
    gap = msg.rect["y"] - (label.rect["y"] + label.rect["height"])
    if not msg.is_displayed() or gap > 40 or abs(msg.rect["x"] - label.rect["x"]) > 200:
        fail(f"the SGF error is {gap:.0f} px below the button: {msg.rect} vs {label.rect}")
    log(f"  SGF error shown {gap:.0f} px below the button: {msg.text!r}")
    shot_at(d, "records", "gui-detail-sgf-error.png")
    upload.send_keys(write(tmp, "two.sgf", TWO_GAMES))
    wait(d, "game 1 of 2", lambda: "game 1 of 2" in msg.text and state(d)["game"] == "odd")
    choice = d.find_element(By.ID, "game-choice")
    if not choice.is_displayed():
        fail("no choice of game for a file of two games")
    shot_at(d, "records", "gui-detail-collection.png")
    Select(d.find_element(By.ID, "game-pick")).select_by_value("2")
    wait(d, "game 2 of the file", lambda: state(d)["game"] == "xodd" and len(state(d)["moves"]) == 4)
    labels = [o.text for o in Select(d.find_element(By.ID, "game-pick")).options]
    if labels != ["game 1: odd", "game 2: xodd, alpha - beta, B+1"]:
        fail(f"the games are offered as {labels}")
    log(f"  a file of two games: {msg.text!r}; offered as {labels}; game 2 chosen")
    # The review hint, not 'the game is over', while looking back.
    Select(d.find_element(By.ID, "game-pick")).select_by_value("1")
    wait(d, "game 1 again", lambda: state(d)["game"] == "odd" and state(d)["over"])
    click_cell(d, "A1")
    wait(d, "the game-over answer", lambda: "the game is over" in reason(d))
    d.find_element(By.ID, "prev").click()
    wait(d, "turn 6", lambda: state(d)["view"] == 6)
    click_cell(d, "C3")
    text = wait(d, "the review hint", lambda: (lambda t: t if "reviewing" in t else None)(reason(d)))
    log(f"  click while reviewing a finished game: {text!r}")


WATCH_DRAWS = """
window.thinkingHeat = 0;
const original = draw;
draw = function (s) {
  original(s);
  const thinking = s.engines.some((e) => e.status === 'thinking');
  if (thinking && s.analysis && s.analysis.turn === s.moves.length
      && document.querySelector('#overlay [data-heat]')) window.thinkingHeat++;
};
"""


def odd_thinking_stays(d):
    """Issue: Odd never showed live thinking (the engine answers fast).

    The engine thinks for its whole time: one that reaches its visit cap
    first may answer before its first analysis line, with nothing to show."""
    new_game(d, "odd", 5, "human", "slow", seconds="2")
    d.execute_script(WATCH_DRAWS)
    pick_colour(d, "B")
    t0 = time.time()
    click_cell(d, "E5")
    wait(d, "the engine's turn", lambda: len(state(d)["moves"]) == 2, 60)
    took = time.time() - t0
    seen = d.execute_script("return window.thinkingHeat")
    if not seen:
        fail(f"no heat map drawn while the engine thought ({took:.2f} s)")
    heat = d.find_elements(By.CSS_SELECTOR, "#overlay [data-heat]")
    rows = d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")
    head = d.find_element(By.ID, "analysis-head").text
    # The table keeps it; the board, now a position it is not about, not.
    if heat or not rows or "played" not in head:
        fail(f"after the engine's turn: {len(heat)} heat spots, {len(rows)} rows, {head!r}")
    screenshot(d, "gui-detail-odd-after.png")
    log(f"  Odd: {seen} pictures with a heat map while thinking, answer after {took:.2f} s; "
        f"after it: the board clear, {len(rows)} candidates listed, {head!r}")


def onyx_near_points(d):
    """Issue: Onyx clicks on the lines 0.38-0.45 of a unit from a point did nothing."""
    new_game(d, "onyx", 4, "human", "human", open_start=True)

    def click_between(a, b, t):
        # A pointer at viewport coordinates: the board must be on screen.
        x, y = d.execute_script(f"""
          svgRoot().scrollIntoView({{block: 'nearest'}});
          const p = cellSpot('{a}'), q = cellSpot('{b}'), svg = svgRoot();
          const pt = svg.createSVGPoint();
          pt.x = p.x + {t} * (q.x - p.x); pt.y = p.y + {t} * (q.y - p.y);
          const c = pt.matrixTransform(svg.getScreenCTM());
          return [c.x, c.y];""")
        actions = ActionBuilder(d)
        actions.pointer_action.move_to_location(round(x), round(y)).click()
        actions.perform()

    for (a, b, t, played) in [("A2", "A1", 0.44, "A2"), ("B2", "C2", 0.42, "B2"),
                              ("C3", "C2", 0.40, "C3")]:
        before = len(state(d)["moves"])
        click_between(a, b, t)
        wait(d, f"{played} played by a click {t} of a unit from it",
             lambda: len(state(d)["moves"]) > before)
        if state(d)["moves"][-1]["token"] != played:
            fail(f"a click {t} from {a} towards {b} played {state(d)['moves'][-1]}")
    # B3 takes B2 and A3 (the square A2-B3 with its midpoint empty).
    for cell in ["A3", "B3"]:
        before = len(state(d)["moves"])
        click_cell(d, cell)
        wait(d, f"{cell} played", lambda: len(state(d)["moves"]) > before)
    wait(d, "the captures", lambda: state(d)["captured"] == [0, 2])
    text = d.find_element(By.ID, "captured").text
    if text != "Captured: 0 black, 2 white":
        fail(f"captures shown as {text!r}")
    screenshot(d, "gui-detail-onyx.png")
    log(f"  Onyx: clicks 0.40-0.44 of a unit from A2, B2, C3 played them; {text!r}")


def candidates_and_rings(d):
    """Issues: the preview changed under a still pointer; rings give colours."""
    new_game(d, "xodd", 7, "human", "slow", seconds="3")
    d.find_element(By.ID, "analyze").click()
    wait(d, "analysis of my turn", lambda: len(d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")) >= 3)
    # The page redraws on every update: read it in one script each time.
    colours = set(d.execute_script(
        "return [...document.querySelectorAll('#overlay [data-heat][data-colour]')]"
        ".map((e) => e.getAttribute('data-colour'))"))
    if not colours or not colours <= {"B", "W"}:
        fail(f"heat map without stone colours: {colours}")

    def hover_third_row():
        row = d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")[2]
        token = row.get_attribute("data-token")
        ActionChains(d).move_to_element(row).perform()
        return token

    token = wait(d, "the pointer on the third row", hover_third_row)
    wait(d, "the previewed line", lambda: d.find_elements(By.CSS_SELECTOR, "#overlay .ov-pv"))
    versions = state(d)["version"]
    wait(d, "an analysis update while hovering", lambda: state(d)["version"] > versions, 60)
    third, classes, shown = d.execute_script(
        "const r = document.querySelectorAll('#candidates tbody tr')[2];"
        "return [r.dataset.token, r.className, previewLine && previewLine.token]")
    if third != token or shown != token or "previewing" not in classes:
        fail(f"the hovered row changed from {token} to {third}, preview {shown}")
    shot_at(d, "board", "gui-detail-hover.png")
    ActionChains(d).move_to_element(d.find_element(By.ID, "status")).perform()
    d.find_element(By.ID, "analyze").click()
    wait(d, "analysis off, and what it found gone",
         lambda: not state(d)["analysis_wanted"] and state(d)["analysis"] is None
         and not d.find_elements(By.CSS_SELECTOR, "#overlay [data-heat]"))
    log(f"  rings of colours {sorted(colours)}; the hovered row kept {token} through updates")


def engines_game(d):
    """Issues: stone controls in engine games; no pause; 0.25 s; min group."""
    new_game(d, "xodd", 9, "e", "slow", seconds="0.25")
    if state(d)["seconds"] != 0.25:
        fail(f"engine time {state(d)['seconds']}, not 0.25")
    for control in ["colours", "confirm", "clear", "resign"]:
        if d.find_element(By.ID, control).is_displayed():
            fail(f"{control} shown in a game between engines")
    # At 0.25 s a turn the game may be over before a busy browser looks at
    # it: Pause is tried in a game where White thinks 5 s a turn, which
    # cannot end before the click.
    new_game(d, "xodd", 8, "e", "slow", seconds="5")
    pause = d.find_element(By.ID, "pause")
    wait(d, "the engines' first turn, and Pause offered",
         lambda: len(state(d)["moves"]) >= 1 and not state(d)["over"] and pause.is_displayed(), 60)
    pause.click()
    wait(d, "the pause", lambda: state(d)["paused"] and pause.text == "Resume")
    # Once the server says paused, a turn still being thought is dropped:
    # nothing may change from here on. A second of watching can only miss
    # a change, never invent one.
    held = len(state(d)["moves"])
    clocks = d.find_element(By.ID, "clocks").text
    time.sleep(1.2)
    if len(state(d)["moves"]) != held or d.find_element(By.ID, "clocks").text != clocks:
        fail("the game went on while paused")
    screenshot(d, "gui-detail-paused.png")
    pause.click()
    wait(d, "play to go on", lambda: len(state(d)["moves"]) > held, 60)
    log(f"  engines' game at 0.25 s: stone controls hidden, paused at turn {held} ({clocks!r}), resumed")
    Select(d.find_element(By.ID, "game")).select_by_value("odd")
    box = d.find_element(By.ID, "size")
    box.clear()
    box.send_keys("5")
    group = d.find_element(By.ID, "min-group")
    group.clear()
    group.send_keys("99")
    if not d.execute_script("return $('min-group').validity.rangeOverflow"):
        fail("a smallest group of 99 on a 61-cell board is not refused by the form")
    d.find_element(By.ID, "start").click()
    time.sleep(0.3)
    if state(d)["game"] != "xodd":
        fail("the form started a game with a smallest group of 99")
    group.clear()
    log("  a smallest group of 99 on Odd 5 refused by the form")


def clocks(d):
    new_game(d, "odd", 3, "human", "human")
    started = time.time()
    first = d.find_element(By.ID, "clock-b").text
    # Black thinks for at least a second, and the clock shows it.
    later = wait(d, "Black's clock running for a second",
                 lambda: time.time() - started >= 1.1
                 and d.find_element(By.ID, "clock-b").text != first
                 and d.find_element(By.ID, "clock-b").text)
    if not later.startswith("Black "):
        fail(f"Black's clock shows {first!r}, then {later!r}")
    click_cell(d, "C3")
    wait(d, "White's clock", lambda: state(d)["clock"]["running"] == "w")
    used = state(d)["clock"]["used"][0]
    if used < 1.0:
        fail(f"Black's turn took {used} s by the clock")
    log(f"  clocks: {later!r}, Black used {used:.1f} s")


def balance_note(d):
    """The new-game form quotes the balance study for the board and variant it
    describes, as /api/games gives it: each level's games and the study rule's
    verdict, a lean named as a lean, and on an Odd side its fair smallest group
    or that none is established; it follows the smallest group."""
    catalogue = d.execute_async_script(
        "const done = arguments[0]; fetch('/api/games').then((r) => r.json()).then(done)")
    odd = next(g for g in catalogue["games"] if g["id"] == "odd")
    side6 = next(s for s in odd["sizes"] if s["size"] == 6)
    Select(d.find_element(By.ID, "game")).select_by_value("odd")
    size_box = d.find_element(By.ID, "size")
    size_box.clear()
    size_box.send_keys("6")
    note = lambda: d.find_element(By.ID, "balance-note").text
    side = f"Side 6: {side6['min_group_note']}."
    for m in [None, 7, 9]:
        box = d.find_element(By.ID, "min-group")
        box.clear()
        if m is not None:
            box.send_keys(str(m))
        finding = next(b for b in side6["balance"] if b["min_group"] == (m or 6))
        wait(d, f"the study's note for Odd 6, m = {m}",
             lambda: note() == f"Balance study: {finding['text']} {side}")
    # Odd 6 with m = 9 at 0.8 s per move: 58 of 100, not decided, a lean.
    for words in ["At 0.8 s per move", "not decided", "leans to the first player",
                  "fair smallest group not established"]:
        if words not in note():
            fail(f"{words!r} missing from the note {note()!r}")
    shot_at(d, "balance-note", "gui-balance-note.png")
    Select(d.find_element(By.ID, "game")).select_by_value("onyx")
    size_box.clear()
    size_box.send_keys("12")
    onyx12 = next(s for s in next(g for g in catalogue["games"] if g["id"] == "onyx")["sizes"]
                  if s["size"] == 12)
    box = d.find_element(By.ID, "open-start")
    for _ in range(2):
        box.click()
        variant = next(b for b in onyx12["balance"]
                       if b["open_start"] == box.is_selected() and b["swap"])
        wait(d, "the study's note for the Onyx variant", lambda: variant["text"] in note())
    log("balance note follows the form")


def main():
    shots = sys.argv[4]
    os.makedirs(shots, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="oddity-details-")
    d = start_browser(tmp)
    try:
        d.set_window_size(1100, 860)
        d.get(URL)
        wait(d, "the first state", lambda: state(d) is not None)
        refused_second_stone(d)
        stalled_engine_banner(d)
        records(d, tmp)
        odd_thinking_stays(d)
        onyx_near_points(d)
        candidates_and_rings(d)
        engines_game(d)
        clocks(d)
        balance_note(d)
        no_console_errors(d)
        log("all details checked")
    finally:
        d.quit()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
