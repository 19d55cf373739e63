#!/usr/bin/env python3
"""Details of `oddity gui` as a person meets them, in a real headless Chromium.

Usage: gui_details.py URL ODDITY_BINARY SERVER_PID SCREENSHOT_DIR

The server must have been started with the engines `e` (quick, visits
capped) and `slow` (thinks for the time the page gives it). Checked:

- a refused second stone leaves the first one pending and confirmable
  (Xodd, Black's first turn and a later one), by button and by Enter;
- a stopped engine left in the seat to move is announced in a banner, and
  changing the players clears it;
- opening a record shows its players (people) in the form; a click at the
  end of a finished game says it is over, and the hint goes when another
  turn is looked at; a turn tried earlier starts a variation;
- variations: made by a click while looking back, marked in the turn list,
  drawn in the tree, walked (a click on the tree, the keys up and down),
  named, deleted, downloaded as SGF variations (sgfmill reads them) and
  opened again;
- the turn list keeps every digit of turn numbers past 100;
- Open SGF reports errors next to the button, and a file of several games
  offers each of them;
- an engine that answers within a second is seen thinking, and its
  candidates stay listed after it plays, its heat map gone from the board
  (Odd);
- Onyx clicks on the lines near a point play that point; the board drawn
  is the session's picture after captures (the page changes only what
  differs);
- on Onyx 12, with the engine analysing the person's turn, a click is
  answered: its stone drawn, the board the session's picture;
- the candidates table keeps its order under the pointer; Xodd's best
  turns drawn as turns (both stones joined, numbered, the best ringed),
  the rest of the heat map faint and unlabelled;
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

from sgfmill import sgf

from gui_drive import (Gtp, click_cell, engine_pid, fail, log, new_game, no_console_errors,
                       pick_colour, reason, screenshot, start_browser, state, wait, URL)


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


def seats_in_form(d):
    return [Select(d.find_element(By.ID, seat)).first_selected_option.get_attribute("value")
            for seat in ["black", "white"]]


def records(d, tmp):
    """Issues: Open SGF errors far from the button; a broken variation;
    collections; the form kept old players after a record was opened; a
    stale hint."""
    new_game(d, "odd", 3, "human", "e")
    upload = d.find_element(By.ID, "upload")
    msg = d.find_element(By.ID, "records-msg")
    upload.send_keys(write(tmp, "broken.sgf", "(;FF[4]GM[9000]OG[odd]SZ[5];B[B:A1]"))
    wait(d, "the refusal of a broken file", lambda: "cannot open broken.sgf" in msg.text)
    label = d.find_element(By.CSS_SELECTOR, "label.file")
    gap = msg.rect["y"] - (label.rect["y"] + label.rect["height"])
    if not msg.is_displayed() or gap > 40 or abs(msg.rect["x"] - label.rect["x"]) > 200:
        fail(f"the SGF error is {gap:.0f} px below the button: {msg.rect} vs {label.rect}")
    log(f"  SGF error shown {gap:.0f} px below the button: {msg.text!r}")
    shot_at(d, "records", "gui-detail-sgf-error.png")
    # A broken variation is cut, the rest opened, the cut said above the board.
    upload.send_keys(write(tmp, "cut.sgf", "(;GM[9000]OG[yodd]SZ[3](;B[B:B3])(;W[garbage]))"))
    note = wait(d, "the note of the variation cut", lambda: (lambda n: n.is_displayed() and "Left out" in n.text
                                                              and n.text)(d.find_element(By.ID, "notice")))
    if "variation 2 at turn 1, cut from turn 1" not in note or [m["token"] for m in state(d)["moves"]] != ["B:B3"]:
        fail(f"cut.sgf opened as {state(d)['moves']} with {note!r}")
    log(f"  a broken variation is cut, the main line kept: {note!r}")
    upload.send_keys(write(tmp, "two.sgf", TWO_GAMES))
    wait(d, "game 1 of 2", lambda: "game 1 of 2" in msg.text and state(d)["game"] == "odd")
    wait(d, "the record's players in the form", lambda: seats_in_form(d) == ["human", "human"])
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
    log(f"  the form shows the record's players: {seats_in_form(d)}")
    # At the end of a finished game a click says so; the hint goes with
    # the position it was about.
    Select(d.find_element(By.ID, "game-pick")).select_by_value("1")
    wait(d, "game 1 again", lambda: state(d)["game"] == "odd" and state(d)["over"])
    click_cell(d, "C2")
    wait(d, "the game-over answer", lambda: "the game is over" in reason(d))
    d.find_element(By.ID, "prev").click()
    wait(d, "turn 6, the hint gone", lambda: state(d)["view"] == 6 and reason(d) == "")
    click_cell(d, "A1")
    wait(d, "the refusal", lambda: "A1 is not empty" in reason(d))
    d.find_element(By.ID, "last").click()
    wait(d, "the last turn, the refusal gone", lambda: state(d)["view"] == 7 and reason(d) == "")
    # A turn tried while looking back starts a variation.
    d.find_element(By.ID, "prev").click()
    wait(d, "turn 6", lambda: state(d)["view"] == 6)
    pick_colour(d, "W")
    click_cell(d, "C3")
    s = wait(d, "the variation", lambda: (lambda s: s if len(s["tree"]) == 9 else None)(state(d)))
    if [m["token"] for m in s["moves"]][-1] != "W:C3" or s["view"] != 7:
        fail(f"the variation is not the line: {s['moves']}")
    log("  a click at the end of a finished game: 'the game is over', gone at turn 6; a refusal "
        "gone at the last turn; a turn tried at turn 6 made a variation")


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
    wait(d, "the board drawn as the session's picture after the captures",
         lambda: d.execute_script(BOARD_DRAWN))
    screenshot(d, "gui-detail-onyx.png")
    log(f"  Onyx: clicks 0.40-0.44 of a unit from A2, B2, C3 played them; {text!r}")


# Whether the board drawn is the session's picture (the width the page
# gives it aside).
BOARD_DRAWN = """
const t = document.createElement('template');
t.innerHTML = state.board;
const drawn = svgRoot().cloneNode(true);
drawn.removeAttribute('style');
return drawn.isEqualNode(t.content.querySelector('svg'));
"""


def click_while_analysing(d):
    """Issue: the page lagged while the engine analysed a larger board. A
    click on Onyx 12 is answered while the engine analyses the person's
    turn: the stone is in the picture drawn."""
    new_game(d, "onyx", 12, "human", "slow", seconds="1")
    if not d.find_element(By.ID, "analyze").is_selected():
        d.find_element(By.ID, "analyze").click()
    s = wait(d, "the engine analysing the person's turn",
             lambda: (lambda s: s if s["human_turn"] and s["analysis"] and s["analysis"]["turn"] == s["view"]
                      and s["analysis"]["candidates"] and d.find_elements(By.CSS_SELECTOR, "#overlay [data-heat]")
                      else None)(state(d)), 60)
    cells = d.execute_script("return [...document.querySelectorAll('#board [data-cell]')].map((e) => e.dataset.cell)")
    cell = sorted(c for c in cells if c not in s["stones"])[0]
    d.execute_script(f"document.querySelector('#board [data-cell=\"{cell}\"]')"
                     ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    wait(d, f"{cell} played and drawn while the engine analyses",
         lambda: d.execute_script(f"return Boolean(state.stones['{cell}'])") and d.execute_script(BOARD_DRAWN), 60)
    d.find_element(By.ID, "analyze").click()
    wait(d, "analysis off again", lambda: not state(d)["analysis_wanted"])
    log(f"  Onyx 12, the engine analysing: a click on {cell} answered, the board drawn as the session's picture")


# The best turns drawn, the analysis they are drawn from, and the heat
# map's labels, read in one script (the page redraws on every update).
BEST = """
const turns = {};
for (const e of document.querySelectorAll('#overlay .ov-best')) {
  const t = turns[e.dataset.best] = turns[e.dataset.best] || {token: e.dataset.token, stones: []};
  t.stones.push([e.dataset.cellOf, e.getAttribute('fill') === '#1c1c1c' ? 'B' : 'W']);
}
return {
  turns,
  links: document.querySelectorAll('#overlay .ov-best-link').length,
  ringed: [...document.querySelectorAll('#overlay .ov-best')].filter((e) => e.getAttribute('stroke') === '#d62728').length,
  heatLabels: document.querySelectorAll('#overlay .ov-label:not(.ov-rank):not(.ov-best-rate)').length,
  heatOpacity: Math.max(0, ...[...document.querySelectorAll('#overlay .ov-heat')].map((e) => +e.getAttribute('fill-opacity'))),
  candidates: state.analysis && state.analysis.turn === state.view ? state.analysis.candidates : [],
};
"""


def stones_of(token):
    return sorted((p.split(":")[1], p.split(":")[0]) for p in token.split(","))


def candidates_and_best_turns(d):
    """Issues: the preview changed under a still pointer; the Xodd/Yodd
    heat map did not show the best turn."""
    new_game(d, "xodd", 7, "human", "slow", seconds="4")
    pick_colour(d, "B")
    click_cell(d, "D4")
    confirm = d.find_element(By.ID, "confirm")
    wait(d, "the confirm button", confirm.is_enabled)
    confirm.click()

    # White's turns may be two stones: drawn while the engine thinks.
    def drawn():
        b = d.execute_script(BEST)
        two = any(len(t["stones"]) == 2 for t in b["turns"].values())
        return b if two and b["candidates"] and state(d)["analysis_live"] else None

    b = wait(d, "the best turns drawn while the engine thinks", drawn, 60)
    best = max(b["candidates"], key=lambda c: c["visits"])
    first = b["turns"]["1"]
    if first["token"] != best["token"] or sorted(map(tuple, first["stones"])) != stones_of(best["token"]):
        fail(f"turn 1 drawn is {first}, the most visited is {best['token']}")
    for rank, t in b["turns"].items():
        if sorted(map(tuple, t["stones"])) != stones_of(t["token"]):
            fail(f"turn {rank} drawn as {t['stones']}, not {t['token']}")
    if b["ringed"] != len(first["stones"]) or b["heatLabels"] or b["heatOpacity"] > 0.31:
        fail(f"the best turn does not stand out: {b}")
    two = sum(len(t["stones"]) == 2 for t in b["turns"].values())
    if b["links"] != two:
        fail(f"{b['links']} links for {two} two-stone turns")
    shot_at(d, "board", "gui-detail-best-turns.png")
    wait(d, "the engine's turn", lambda: len(state(d)["moves"]) == 2 and state(d)["human_turn"], 60)
    d.find_element(By.ID, "analyze").click()
    # The table shows the engine's analysis of its turn until one of mine
    # comes: the rows hovered must be mine.
    wait(d, "analysis of my turn",
         lambda: state(d)["analysis"] and state(d)["analysis"]["turn"] == state(d)["view"]
         and len(d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")) >= 3)

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
    # What stays is the engine's analysis of its own turn before.
    wait(d, "analysis off, and what it found gone",
         lambda: not state(d)["analysis_wanted"]
         and (state(d)["analysis"] is None or state(d)["analysis"]["turn"] != state(d)["view"])
         and not d.find_elements(By.CSS_SELECTOR, "#overlay [data-heat]"))
    log(f"  best turns drawn as turns, the best {first['token']} ringed, the heat map faint; "
        f"the hovered row kept {token} through updates")


TREE = """
return {
  dots: document.querySelectorAll('#tree .tree-dot').length,
  rows: new Set([...document.querySelectorAll('#tree .tree-dot')].map((e) => e.getAttribute('cy'))).size,
  names: [...document.querySelectorAll('#tree .tree-name')].map((e) => e.textContent),
  marks: [...document.querySelectorAll('#moves .alt')].map((e) => e.textContent.trim()),
  current: [...document.querySelectorAll('#tree .tree-dot')].filter((e) => e.getAttribute('stroke') === '#d62728').map((e) => +e.dataset.node),
};
"""


def tree_look(d):
    return d.execute_script(TREE)


def variations(d, tmp):
    """Issue: 'Play from here' threw the later turns away; no variations."""
    new_game(d, "odd", 3, "human", "human")
    for cell, colour in [("A1", "B"), ("B1", "W"), ("C1", "B")]:
        before = len(state(d)["moves"])
        pick_colour(d, colour)
        click_cell(d, cell)
        wait(d, f"{cell} played", lambda: len(state(d)["moves"]) > before)
    main_end = state(d)["node"]
    d.find_element(By.ID, "prev").click()
    d.find_element(By.ID, "prev").click()
    wait(d, "turn 1", lambda: state(d)["view"] == 1)
    pick_colour(d, "W")
    click_cell(d, "C3")
    wait(d, "the variation", lambda: len(state(d)["tree"]) == 5 and state(d)["view"] == 2)
    t = tree_look(d)
    if t["dots"] != 5 or t["rows"] != 2 or t["marks"] != ["+1"] or t["current"] != [state(d)["node"]]:
        fail(f"the tree after a variation: {t}")
    name = d.find_element(By.ID, "variation-name")
    name.send_keys("try C3", Keys.ENTER)
    wait(d, "the name in the tree", lambda: tree_look(d)["names"] == ["try C3"])
    branch = state(d)["node"]
    shot_at(d, "tree-box", "gui-detail-variations.png")
    # Walking: the main line's last turn by a click on the tree; back to
    # the variation by the key down from the main line's turn 2.
    d.find_element(By.CSS_SELECTOR, f'#tree .tree-dot[data-node="{main_end}"]').click()
    wait(d, "the main line", lambda: state(d)["node"] == main_end and len(state(d)["moves"]) == 3)
    d.find_element(By.ID, "prev").click()
    wait(d, "turn 2", lambda: state(d)["view"] == 2)
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)
    wait(d, "the variation by the key down", lambda: state(d)["node"] == branch)
    # Saved as SGF variations, read by sgfmill, opened again.
    path = os.path.join(tmp, "oddity-game.sgf")
    if os.path.exists(path):
        os.remove(path)
    d.find_element(By.ID, "download").click()
    wait(d, "the downloaded SGF", lambda: os.path.exists(path) and os.path.getsize(path) > 0)
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    after_a1 = game.get_root()[0]
    branches = [(n.get_raw_move()[0], n.get_raw("N") if n.has_property("N") else None) for n in after_a1]
    if len(after_a1) != 2 or branches[1] != ("w", b"try C3"):
        fail(f"sgfmill reads the variations after A1 as {branches}")
    # Deleted (the page asks first).
    d.find_element(By.ID, "delete-variation").click()
    d.switch_to.alert.accept()
    wait(d, "the variation deleted", lambda: len(state(d)["tree"]) == 4 and state(d)["view"] == 1)
    d.find_element(By.ID, "upload").send_keys(path)
    wait(d, "the saved tree opened", lambda: len(state(d)["tree"]) == 5 and len(state(d)["moves"]) == 3)
    log(f"  a variation made by a click at turn 1, named, walked by the tree and the key down, "
        f"saved ({branches}), deleted, opened again")


def long_game_numbers(d, tmp):
    """Issue: the turn list cut the hundreds digit past turn 100."""
    helper = Gtp()
    try:
        helper.cmd("oddity-game odd 8")
        helper.cmd("clear_board")
        # Odd's seats alternate: there is no pass.
        for k in range(120):
            turn = helper.cmd("oddity-legal_moves").split()[0]
            helper.cmd(f"play {'bw'[k % 2]} {turn}")
        record = helper.cmd("printsgf")
    finally:
        helper.close()
    d.find_element(By.ID, "upload").send_keys(write(tmp, "long.sgf", record))
    wait(d, "the long record", lambda: len(state(d)["moves"]) == 120)
    d.find_element(By.CSS_SELECTOR, '#moves li:nth-child(108)').click()
    wait(d, "turn 108", lambda: state(d)["view"] == 108)
    li = d.find_element(By.CSS_SELECTOR, "#moves li.current")
    box = d.find_element(By.ID, "moves")
    no = li.find_element(By.CSS_SELECTOR, ".no")
    if not li.text.startswith("108.") or no.rect["x"] < box.rect["x"]:
        fail(f"turn 108 is listed as {li.text!r} at x {no.rect['x']} in a list at x {box.rect['x']}")
    shot_at(d, "moves", "gui-detail-turn-numbers.png")
    log(f"  turn 108 listed as {li.text!r}")


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
        variations(d, tmp)
        long_game_numbers(d, tmp)
        odd_thinking_stays(d)
        onyx_near_points(d)
        click_while_analysing(d)
        candidates_and_best_turns(d)
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
