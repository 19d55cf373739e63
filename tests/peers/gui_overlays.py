#!/usr/bin/env python3
"""What the board and the panels of `oddity gui` say, in a real headless Chromium.

Usage: gui_overlays.py URL ODDITY_BINARY SERVER_PID SCREENSHOT_DIR

The server must have been started with the engines `e` (quick, visits
capped), `slow` (thinks for the time the page gives it), `ghost` (a program
that does not exist), `flaky` (exits at once until the file named by
$ODDITY_GO_FILE exists) and `late` (answers nothing until that file
exists). Checked, each by clicking and typing as a person would:

- engine health at start: `ghost` and `flaky` listed as failed to start
  with the reason and a Restart button, `late` as starting, the others as
  ready with their names; the failures also said above the board, in
  sight at 1366x768 without scrolling, and marked in the form's player
  lists, which do not let them be chosen (nor does the server); once the
  file exists `late` is ready, and Restart brings `flaky` up;
- 'Analyse my turn' goes off when its engine is killed;
- the board analysis toggle (button and key `o`): while an engine thinks
  (the default), always, off; remembered across a reload; the heat map is
  drawn only for the position it belongs to, never the turn before;
- a killed engine's analysis is cleared from the board and the table;
- a finished game reviewed says it is over and who won;
- Resign, Pass, Confirm and the stone colours are gone after the end and
  come back on 'Play from here';
- a finished Odd record opened: its three counted groups marked apart
  from the three single stones too small to count (gui-odd-end.png); with
  every group counted, no word of smaller groups; the end's status line
  ends with a full stop; the form's 'board side' hint is not cut.

Screenshots go to SCREENSHOT_DIR (gui-detail-*.png). Prints one line per
check; exits non-zero on the first failure.
"""

import os
import shutil
import signal
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from gui_drive import (END_MARKS, check_end_marks, click_cell, engine_pid, fail, log, new_game,
                       no_console_errors, pick_colour, screenshot, start_browser, state, wait, URL)

GO_FILE = os.environ["ODDITY_GO_FILE"]

# One look at the page, taken in one script so that no redraw falls between.
LOOK = """
const a = state.analysis;
return {
  heat: document.querySelectorAll('#overlay [data-heat]').length,
  labels: document.querySelectorAll('#overlay .ov-label').length,
  live: state.analysis_live,
  ownPosition: !!a && a.turn === state.view,
  mode: document.getElementById('overlays').dataset.mode,
  head: document.getElementById('analysis-head').textContent,
  rows: document.querySelectorAll('#candidates tbody tr').length,
};
"""


# Counts the pictures drawn with a heat map while an engine searches the
# position shown.
WATCH_LIVE_HEAT = """
window.liveHeat = 0;
const original = draw;
draw = function (s) {
  original(s);
  if (s.analysis_live && document.querySelector('#overlay [data-heat]')) window.liveHeat++;
};
"""


def look(d):
    return d.execute_script(LOOK)


def engine_item(d, name):
    li = d.find_element(By.CSS_SELECTOR, f'#engines li[data-engine="{name}"]')
    return li.get_attribute("data-status"), li.text


def engines_at_start(d):
    """Issue: an engine that cannot start looked healthy until used."""
    def listed():
        items = {n: engine_item(d, n) for n in ["e", "slow", "ghost", "flaky", "late"]}
        ready = all(items[n][0] == "idle" for n in ["e", "slow"])
        failed = all(items[n][0] == "failed" for n in ["ghost", "flaky"])
        return items if ready and failed and items["late"][0] == "starting" else None

    items = wait(d, "the engines' health", listed)
    for name in ["ghost", "flaky"]:
        text = items[name][1]
        if "failed to start" not in text or "Restart" not in text:
            fail(f"{name} listed as {text!r}")
    if "No such file" not in items["ghost"][1]:
        fail(f"the missing program's reason is not given: {items['ghost'][1]!r}")
    if "crash" not in items["flaky"][1]:
        fail(f"the exit is not given: {items['flaky'][1]!r}")
    if "starting…" not in items["late"][1]:
        fail(f"late listed as {items['late'][1]!r}")
    for name in ["e", "slow"]:
        if "ready" not in items[name][1] or "oddity" not in items[name][1]:
            fail(f"{name} listed as {items[name][1]!r}")
    panel = d.find_element(By.ID, "engines").find_element(By.XPATH, "..")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", panel)
    panel.screenshot(os.path.join(sys.argv[4], "gui-detail-engines.png"))
    failed_where_seen(d)
    with open(GO_FILE, "w"):
        pass
    wait(d, "late to be ready", lambda: engine_item(d, "late")[0] == "idle")
    d.find_element(By.CSS_SELECTOR, '.restart[data-engine="flaky"]').click()
    wait(d, "flaky to be ready after Restart", lambda: engine_item(d, "flaky")[0] == "idle")
    log("  at start: " + "; ".join(f"{items[n][1].strip()!r}" for n in items))
    log(f"  then late {engine_item(d, 'late')[1].strip()!r}, flaky after Restart "
        f"{engine_item(d, 'flaky')[1].strip()!r}")


def failed_where_seen(d):
    """Issue: a failed engine could be chosen, and start-up failures showed
    only below the fold."""
    d.set_window_size(1366, 768)
    d.execute_script("window.scrollTo(0, 0)")
    alert = d.find_element(By.ID, "engine-alert")
    text = alert.text
    bottom, height = d.execute_script(
        "return [document.getElementById('engine-alert').getBoundingClientRect().bottom, innerHeight]")
    if not alert.is_displayed() or "ghost failed to start" not in text or "flaky" not in text \
            or bottom > height:
        fail(f"the start-up failures above the board: {text!r}, bottom {bottom} of {height}")
    screenshot(d, "gui-engines.png")
    for seat in ["black", "white"]:
        option = d.find_element(By.CSS_SELECTOR, f'#{seat} option[value="ghost"]')
        if option.is_enabled() or "failed to start" not in option.text:
            fail(f"ghost offered for {seat} as {option.text!r}, enabled {option.is_enabled()}")
    answer = d.execute_async_script(
        "transport.request('seats', {black: 'human', white: 'ghost'}).then(arguments[0])")
    if "ghost failed to start" not in answer.get("error", ""):
        fail(f"the server let a failed engine take a seat: {answer}")
    d.set_window_size(1100, 860)
    log(f"  above the board at 1366x768: {text!r}; ghost marked in the form and refused")


def press(d, key):
    d.find_element(By.TAG_NAME, "body").send_keys(key)


def set_mode(d, mode, by_key):
    """Steps the toggle (by key `o` or by the button) until it shows `mode`."""
    for _ in range(3):
        if look(d)["mode"] == mode:
            break
        before = look(d)["mode"]
        if by_key:
            press(d, "o")
        else:
            d.find_element(By.ID, "overlays").click()
        wait(d, "the toggle to move", lambda: look(d)["mode"] != before)
    words = {"thinking": "while thinking", "always": "always", "off": "off"}[mode]
    text = d.find_element(By.ID, "overlays").text
    if look(d)["mode"] != mode or text != f"Board analysis: {words}":
        fail(f"the toggle shows {text!r}, not {mode}")


def overlay_toggle(d):
    """Issue: the engine's last analysis stayed drawn, with no way to hide it."""
    if look(d)["mode"] != "thinking":
        fail(f"the default is {look(d)['mode']}, not 'while thinking'")
    new_game(d, "odd", 5, "human", "slow", seconds="1")
    analyze = d.find_element(By.ID, "analyze")
    analyze.click()
    wait(d, "the heat map of my turn while the engine analyses",
         lambda: (lambda v: v["live"] and v["ownPosition"] and v["heat"] > 0)(look(d)))
    set_mode(d, "always", by_key=True)
    wait(d, "the heat map in 'always'", lambda: look(d)["heat"] > 0)
    set_mode(d, "off", by_key=True)
    v = look(d)
    if v["heat"] or v["labels"] or not v["live"] or not v["rows"]:
        fail(f"'off' while the engine analyses: {v}")
    d.refresh()
    wait(d, "the page after a reload", lambda: state(d) is not None and look(d)["live"])
    v = look(d)
    if v["mode"] != "off" or v["heat"]:
        fail(f"the toggle was not kept across a reload: {v}")
    set_mode(d, "thinking", by_key=False)
    wait(d, "the heat map again, 'while thinking'", lambda: look(d)["heat"] > 0)
    screenshot(d, "gui-detail-analysing.png")
    log("  toggle: heat map while analysing in 'while thinking' and 'always', none in 'off'; "
        "'off' kept across a reload")
    analyze = d.find_element(By.ID, "analyze")
    analyze.click()
    wait(d, "analysis off", lambda: not state(d)["analysis_wanted"] and look(d)["heat"] == 0)
    # The engine's turn: its heat map while it thinks, none after it played.
    # It thinks for a second: every picture drawn is watched, not sampled.
    d.execute_script(WATCH_LIVE_HEAT)
    pick_colour(d, "B")
    click_cell(d, "E5")
    wait(d, "the engine's turn", lambda: len(state(d)["moves"]) == 2 and state(d)["human_turn"], 60)
    if not d.execute_script("return window.liveHeat"):
        fail("no heat map drawn while the engine thought")
    for mode in ["thinking", "always"]:
        set_mode(d, mode, by_key=True)
        v = look(d)
        if v["heat"] or v["labels"]:
            fail(f"'{mode}': the engine's analysis of the turn before is drawn on my turn: {v}")
        if "played" not in v["head"] or not v["rows"]:
            fail(f"the table lost the engine's last analysis: {v}")
    screenshot(d, "gui-detail-my-turn.png")
    # Back to the position the engine analysed: 'always' draws it there.
    d.find_element(By.ID, "prev").click()
    wait(d, "turn 1 with its analysis", lambda: state(d)["view"] == 1 and look(d)["heat"] > 0)
    set_mode(d, "off", by_key=False)
    if look(d)["heat"]:
        fail("'off' draws the analysis of a turn looked back at")
    set_mode(d, "thinking", by_key=False)
    if look(d)["heat"]:
        fail("'while thinking' draws an analysis nobody is thinking about")
    d.find_element(By.ID, "last").click()
    wait(d, "the last turn", lambda: state(d)["view"] == 2)
    log("  the engine's heat map drawn while it thought, gone on my turn in every mode; "
        "turn 1 looked back at: drawn in 'always' only")


def analysis_off_when_its_engine_dies(d):
    """Issue: 'Analyse my turn' stayed ticked after its engine was killed."""
    new_game(d, "odd", 5, "human", "slow", seconds="60")
    analyze = d.find_element(By.ID, "analyze")
    analyze.click()
    wait(d, "the engine analysing my turn",
         lambda: any(e["name"] == "slow" and e["status"] == "analysing" for e in state(d)["engines"]))
    pid = wait(d, "the engine process", lambda: engine_pid("--seed 4"))
    os.kill(pid, signal.SIGKILL)
    wait(d, "'Analyse my turn' unticked",
         lambda: not analyze.is_selected() and not state(d)["analysis_wanted"])
    analyze.click()
    wait(d, "the refusal to analyse with a stopped engine",
         lambda: "engine slow is stopped" in d.find_element(By.ID, "reason").text
         and not analyze.is_selected())
    d.find_element(By.CSS_SELECTOR, '.restart[data-engine="slow"]').click()
    wait(d, "the restart", lambda: engine_item(d, "slow")[0] == "idle")
    log("  'Analyse my turn' unticked when its engine was killed, refused until restarted")


def killed_engine_cleared(d):
    """Issue: a killed engine's analysis looked current."""
    new_game(d, "odd", 5, "human", "slow", seconds="60")
    pick_colour(d, "B")
    click_cell(d, "C3")
    wait(d, "the engine thinking, drawn",
         lambda: (lambda v: v["live"] and v["heat"] > 0 and "visits" in v["head"])(look(d)), 60)
    pid = wait(d, "the engine process", lambda: engine_pid("--seed 4"))
    os.kill(pid, signal.SIGKILL)
    notice = d.find_element(By.ID, "notice")
    wait(d, "the crash report", lambda: notice.is_displayed() and "stopped" in notice.text)
    v = wait(d, "the analysis to go", lambda: (lambda v: v if v["heat"] == 0 and v["rows"] == 0
                                               else None)(look(d)))
    if state(d)["analysis"] is not None or v["head"] != "No analysis of this position.":
        fail(f"the killed engine's analysis is still shown: {v}")
    status, text = engine_item(d, "slow")
    if status != "stopped" or "Restart" not in text:
        fail(f"the killed engine is listed as {text!r}")
    screenshot(d, "gui-detail-killed.png")
    d.find_element(By.CSS_SELECTOR, '.restart[data-engine="slow"]').click()
    wait(d, "the restart", lambda: engine_item(d, "slow")[0] in ("idle", "thinking"))
    log(f"  engine killed while thinking: board and table cleared ({v['head']!r}); listed {text!r}")


def shown(d, control):
    return d.find_element(By.ID, control).is_displayed()


def finished_game_review_and_controls(d):
    """Issues: a reviewed finished game read 'Black to move'; Resign after the end."""
    new_game(d, "xodd", 4, "human", "human")
    pick_colour(d, "B")
    click_cell(d, "B2")
    confirm = d.find_element(By.ID, "confirm")
    wait(d, "the confirm button", confirm.is_enabled)
    confirm.click()
    wait(d, "the first turn", lambda: len(state(d)["moves"]) == 1)
    for control in ["resign", "confirm", "clear", "colours", "pass"]:
        if not shown(d, control):
            fail(f"{control} is not offered during the game")
    for n in [2, 3]:
        d.find_element(By.ID, "pass").click()
        wait(d, f"turn {n}", lambda: len(state(d)["moves"]) == n)
    s = wait(d, "the end", lambda: (lambda s: s if s["over"] else None)(state(d)))
    gone = [c for c in ["resign", "confirm", "clear", "colours", "pass"] if shown(d, c)]
    if gone:
        fail(f"still offered after the end: {gone}")
    code, winner = s["finished"]["code"], "Black" if s["finished"]["winner"] == "b" else "White"
    d.find_element(By.ID, "prev").click()
    wait(d, "turn 2", lambda: state(d)["view"] == 2)
    status = d.find_element(By.ID, "status").text
    for words in ["Game over", f"({code})", f"{winner} wins", "Reviewing turn 2 of 3"]:
        if words not in status:
            fail(f"the reviewed finished game reads {status!r}: no {words!r}")
    if "to move" in status or shown(d, "resign"):
        fail(f"reviewing a finished game offers play: {status!r}")
    screenshot(d, "gui-detail-review.png")
    d.find_element(By.ID, "branch").click()
    wait(d, "play from turn 2", lambda: not state(d)["over"] and len(state(d)["moves"]) == 2)
    back = [c for c in ["resign", "confirm", "clear", "colours", "pass"] if not shown(d, c)]
    if back:
        fail(f"not offered again after 'Play from here': {back}")
    after = d.find_element(By.ID, "status").text
    if not after.startswith("Black to move"):
        fail(f"after 'Play from here' the status reads {after!r}")
    log(f"  finished game reviewed: {status!r}; controls hidden after the end, back on "
        f"'Play from here' ({after!r})")


# A full Odd 3 board (smallest counted group 3): Black has a group of 9
# and two single stones, White groups of 4 and 3 and a single stone.
ODD_END = ("(;FF[4]GM[9000]OG[odd]SZ[3]OR[min_group=3];B[B:A3];W[B:C2];B[W:D5];W[B:E3];B[W:B4]"
           ";W[W:B2];B[W:C1];W[B:C5];B[B:E5];W[B:C3];B[B:C4];W[B:B1];B[W:B3];W[B:D2];B[W:A2]"
           ";W[W:D4];B[B:A1];W[W:E4];B[B:D3])")


def odd_end_groups(d, tmp):
    """Issue: what was counted was not shown; in Odd, which groups count."""
    path = os.path.join(tmp, "odd-end.sgf")
    with open(path, "w") as f:
        f.write(ODD_END)
    d.find_element(By.ID, "upload").send_keys(path)
    s = wait(d, "the finished Odd record", lambda: (lambda s: s if s["game"] == "odd" and s["over"]
                                                    and s["seats"] == ["human", "human"] else None)(state(d)))
    check_end_marks(d, s)
    m = d.execute_script(END_MARKS)
    if s["groups"] != [1, 2] or m["small"] != 3 or "3 smaller groups not counted" not in m["score"]:
        fail(f"Odd's end: the rules count {s['groups']}, marked {m}")
    if s["result"]["text"] != "Black wins: 3 groups of 3+ stones, odd":
        fail(f"Odd's end reads {s['result']['text']!r}")
    status = d.find_element(By.ID, "status").text
    if not status.endswith("odd."):
        fail(f"the end's status line has no full stop: {status!r}")
    screenshot(d, "gui-odd-end.png")
    # Every group counted: nothing said of smaller ones.
    with open(path, "w") as f:
        f.write(ODD_END.replace("OR[min_group=3]", "OR[min_group=1]"))
    d.find_element(By.ID, "upload").send_keys(path)
    s = wait(d, "the record with every group counted",
             lambda: (lambda s: s if s["min_group"] == 1 and s["over"] else None)(state(d)))
    score = d.find_element(By.ID, "score").text
    if "smaller" in score or not score.endswith("."):
        fail(f"with every group counted the score reads {score!r}")
    log(f"  Odd's end: {status!r}; every group counted: {score!r}")


# The 'board side' hint of the smallest group: its text's width and the
# room the box gives it (less its arrows).
PLACEHOLDER = """
const box = document.getElementById('min-group');
const style = getComputedStyle(box);
const ctx = document.createElement('canvas').getContext('2d');
ctx.font = style.font;
const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
return [ctx.measureText(box.placeholder).width, room];
"""


def placeholder_fits(d):
    """Issue: the 'board side' hint of the smallest group was cut off."""
    Select(d.find_element(By.ID, "game")).select_by_value("odd")
    box = d.find_element(By.ID, "min-group")
    box.clear()
    text, room = d.execute_script(PLACEHOLDER)
    if text > room:
        fail(f"the hint {box.get_attribute('placeholder')!r} needs {text:.0f} px, has {room:.0f}")
    log(f"  the smallest group's hint needs {text:.0f} px of {room:.0f}")


def main():
    shots = sys.argv[4]
    os.makedirs(shots, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="oddity-overlays-")
    d = start_browser(tmp)
    try:
        d.set_window_size(1100, 860)
        d.get(URL)
        wait(d, "the first state", lambda: state(d) is not None)
        engines_at_start(d)
        overlay_toggle(d)
        analysis_off_when_its_engine_dies(d)
        killed_engine_cleared(d)
        finished_game_review_and_controls(d)
        odd_end_groups(d, tmp)
        placeholder_fits(d)
        no_console_errors(d)
        log("all overlays checked")
    finally:
        d.quit()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
