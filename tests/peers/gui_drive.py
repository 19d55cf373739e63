#!/usr/bin/env python3
"""Plays the four games through `oddity gui` in a real headless Chromium.

Usage: gui_drive.py URL ODDITY_BINARY SERVER_PID SCREENSHOT_DIR

The server must have been started with two engines: `e` (quick, visits
capped) and `slow` (thinks for the time the page gives it). For each game a
short game is played by clicking the board, human (Black) against `e`
(White). Checked along the way: the stones the page draws match `showboard`
of a separate `oddity gtp` that replays the page's turns; an illegal click is
refused with a message; the announced winner is the one `final_score`
gives; the SGF downloaded through the browser parses with sgfmill and holds
the turns; and, in some games, the live heat map while an engine thinks,
analysis of the person's turn with a line previewed on hover, a reload,
reviewing an opened SGF, and an engine killed mid-game (reported, game
kept, restarted). A screenshot of each finished game goes to SCREENSHOT_DIR,
and one of the heat map while the engine thinks (gui-thinking.png).
Prints one line per check; exits non-zero on the first failure.
"""

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from sgfmill import sgf

URL, ODDITY, SERVER_PID, SHOTS = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
ONYX_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
rng = random.Random(5)
started = time.time()


def log(text):
    print(f"[{time.time() - started:6.1f}s] {text}", flush=True)


def fail(text):
    raise AssertionError(text)


# ---- a separate GTP engine that replays the page's game ----

class Gtp:
    def __init__(self):
        self.p = subprocess.Popen(
            [ODDITY, "gtp", "--threads", "1", "--visits", "20", "--time", "0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            out = self.p.stdout.readline()
            if out == "":
                fail(f"helper engine died on {line!r}")
            if out.strip() == "" and lines:
                break
            if out.strip() or lines:
                lines.append(out.rstrip("\n"))
        text = "\n".join(lines)
        if text.startswith("?"):
            fail(f"helper engine refused {line!r}: {text}")
        return text[1:].strip()

    def replay(self, s):
        self.cmd(f"oddity-game {s['game']} {s['size']}")
        for item in filter(None, s["rules"].split(",")):
            name, value = item.split("=")
            self.cmd(f"oddity-rules {name} {value}")
        self.cmd("clear_board")
        for m in s["moves"][: s["view"]]:
            self.cmd(f"play {m['seat']} {m['token']}")

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


def parse_showboard(text, game, size):
    """Cell name -> 'B'/'W' from a showboard diagram."""
    stones = {}
    lines = text.split("\n")
    rows = [(i, l) for i, l in enumerate(lines) if re.match(r"^\s*\d+\s", l)]
    for i, line in rows:
        row = int(line.split()[0])
        body = line.strip()[len(str(row)):].rstrip()
        body = body[: body.rfind(str(row))] if body.endswith(str(row)) else body
        if game == "onyx":
            marks = re.findall(r"\(?([oBW])\)?", body)
            for c, m in enumerate(marks):
                if m in "BW":
                    stones[f"{ONYX_LETTERS[c]}{row}"] = m
            # The line below a row holds the midpoints between it and row - 1.
            below = lines[i + 1] if i + 1 < len(lines) else ""
            if row > 1 and "|" in below:
                cells = below.strip().strip("|").split("|")
                for c, cell in enumerate(cells):
                    m = cell.strip().strip("()")
                    if m in ("B", "W"):
                        name = f"{ONYX_LETTERS[c]}{ONYX_LETTERS[c + 1]}{row - 1}{row}"
                        stones[name] = m
            continue
        marks = re.findall(r"\(?([.BW])\)?", body)
        y = row - 1
        if game == "xodd":
            xs = range(size)
        else:
            xs = range(max(0, y - (size - 1)), min(2 * size - 2, y + size - 1) + 1)
        xs = list(xs)
        if len(xs) != len(marks):
            fail(f"cannot read showboard row {row}: {line!r}")
        for x, m in zip(xs, marks):
            if m in "BW":
                stones[f"{GTP_LETTERS[x]}{row}"] = m
    return stones


# ---- the browser ----

def start_browser(downloads):
    opts = Options()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1100,860", f"--user-data-dir={tempfile.mkdtemp(prefix='oddity-chrome-')}"]:
        opts.add_argument(flag)
    opts.add_experimental_option("prefs", {
        "download.default_directory": downloads,
        "download.prompt_for_download": False,
    })
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=opts)


def state(d):
    return d.execute_script("return state")


def wait(d, what, cond, timeout=30):
    end = time.time() + timeout
    while True:
        try:
            value = cond()
            if value:
                return value
        except Exception as e:  # the page may be between two pictures
            last = e
        if time.time() > end:
            fail(f"timed out waiting for {what}; state: {short(state(d))}")
        time.sleep(0.05)


def short(s):
    if not s:
        return s
    return {k: v for k, v in s.items() if k not in ("board", "winrates")}


DRAWN_STONES = """
const out = {};
for (const st of document.querySelectorAll('#board svg .stones .stone')) {
  const x = Number(st.getAttribute('cx')), y = Number(st.getAttribute('cy'));
  let best = null, bestD = Infinity;
  for (const el of document.querySelectorAll('#board svg [data-cell]')) {
    const spot = cellSpot(el.getAttribute('data-cell'));
    const dd = (spot.x - x) ** 2 + (spot.y - y) ** 2;
    if (dd < bestD) { bestD = dd; best = el.getAttribute('data-cell'); }
  }
  out[best] = st.classList.contains('black') ? 'B' : 'W';
}
return out;
"""


def check_board(d, helper, s):
    """The stones drawn match the helper engine's showboard."""
    helper.replay(s)
    expected = parse_showboard(helper.cmd("showboard"), s["game"], s["size"])
    drawn = d.execute_script(DRAWN_STONES)
    if drawn != expected or s["stones"] != expected:
        fail(f"board differs from showboard:\n drawn {drawn}\n state {s['stones']}\n showboard {expected}")


def screenshot(d, name):
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(os.path.join(SHOTS, name))


def click_cell(d, name):
    el = d.find_element(By.CSS_SELECTOR, f'#board [data-cell="{name}"]')
    ActionChains(d).move_to_element(el).click().perform()


def human_moves(d):
    s = state(d)
    return s["human_turn"] and not s["over"]


def wait_human(d, at_least):
    return wait(d, "the person's turn", lambda: (lambda s: s if len(s["moves"]) >= at_least
                                                  and (s["human_turn"] or s["over"]) else None)(state(d)), 60)


def legal_turns(helper, s):
    helper.replay(s)
    return helper.cmd("oddity-legal_moves").split()


def choose(helper, s, prefer_two):
    turns = legal_turns(helper, s)
    if s["game"] in ("xodd", "yodd"):
        moves_done = len(s["moves"])
        if moves_done >= 4 and "pass" in turns:
            return "pass"
        two = [t for t in turns if "," in t and t[0] != t[t.index(",") + 1]]
        if prefer_two and two:
            return rng.choice(two)
        one = [t for t in turns if "," not in t and t != "pass"]
        return rng.choice(one or turns)
    return rng.choice([t for t in turns if t != "swap"] or turns)


def play_turn(d, s, token):
    before = len(s["moves"])
    if token == "pass":
        d.find_element(By.ID, "pass").click()
    elif s["game"] == "onyx":
        click_cell(d, token)
    else:
        for part in token.split(","):
            colour, cell = part.split(":")
            pick_colour(d, colour)
            click_cell(d, cell)
            if s["game"] in ("xodd", "yodd"):
                wait(d, f"the pending stone on {cell}",
                     lambda: d.find_elements(By.CSS_SELECTOR, f'#overlay [data-pending="{cell}"]'))
        if s["game"] in ("xodd", "yodd"):
            confirm = d.find_element(By.ID, "confirm")
            wait(d, "the confirm button", confirm.is_enabled)
            confirm.click()
    wait(d, f"turn {token} to be played", lambda: len(state(d)["moves"]) > before)


def illegal_click(d, s):
    """A click on an occupied point is refused with a message."""
    cell = sorted(s["stones"])[0]
    colour = s["stones"][cell]
    before = len(s["moves"])
    if s["game"] != "onyx":
        pick_colour(d, colour)
    click_cell(d, cell)
    text = wait(d, "the refusal", lambda: (lambda t: t if "refused" in t else None)(reason(d)))
    if "not empty" not in text:
        fail(f"unexpected refusal text: {text!r}")
    if len(state(d)["moves"]) != before:
        fail("an illegal click changed the game")
    log(f"  illegal click on {cell} refused: {text!r}")


def reason(d):
    return d.find_element(By.ID, "reason").text


def pick_colour(d, colour):
    d.find_element(By.ID, "colour-b" if colour == "B" else "colour-w").click()


def new_game(d, game, size, black="human", white="e", seconds="1.5", open_start=False):
    """Starts a game through the new-game form; waits for the page to show it."""
    Select(d.find_element(By.ID, "game")).select_by_value(game)
    size_box = d.find_element(By.ID, "size")
    size_box.clear()
    size_box.send_keys(str(size))
    if game == "onyx":
        box = d.find_element(By.ID, "open-start")
        if box.is_selected() != open_start:
            box.click()
    Select(d.find_element(By.ID, "black")).select_by_value(black)
    Select(d.find_element(By.ID, "white")).select_by_value(white)
    box = d.find_element(By.ID, "seconds")
    box.clear()
    box.send_keys(seconds)
    d.find_element(By.ID, "start").click()
    invalid = d.execute_script(
        "return [...document.querySelectorAll('#new-game :invalid')].map((e) => e.id)")
    if invalid:
        fail(f"the new-game form refuses {invalid}: {reason(d)!r}")
    # An engine in Black's seat may have played already.
    try:
        wait(d, f"a new {game} game", lambda: (lambda s: s["game"] == game and s["size"] == size
                                               and s["seats"] == [black, white]
                                               and (not s["moves"] or black != "human"))(state(d)))
    except AssertionError as e:
        fail(f"{e}; the page says {reason(d)!r}")


def set_white(d, name):
    Select(d.find_element(By.ID, "white")).select_by_value(name)
    d.find_element(By.ID, "apply-seats").click()
    wait(d, f"white played by {name}", lambda: state(d)["seats"][1] == name)


def engine_pid(seed_arg):
    """The server's engine child whose command line has `seed_arg`."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(")") + 2:].split()[1])
        if ppid == SERVER_PID and seed_arg in cmdline:
            return int(pid)
    return None


def kill_engine(d):
    """The engine dies mid-game: reported, the game kept, restarted."""
    s = state(d)
    pid = wait(d, "the engine process", lambda: engine_pid("--seed 3"))
    os.kill(pid, signal.SIGKILL)
    text = wait(d, "the crash report", lambda: (lambda n: n.text if n.is_displayed()
                                                and "stopped" in n.text else None)(
        d.find_element(By.ID, "notice")))
    after = state(d)
    if after["stones"] != s["stones"] or after["moves"] != s["moves"]:
        fail("the game changed when the engine died")
    log(f"  engine killed: page says {text!r}")
    d.find_element(By.CSS_SELECTOR, '.restart[data-engine="e"]').click()
    wait(d, "the restart", lambda: state(d)["notice"] is None)


def watch_heat_map_while_thinking(d, helper):
    """With the slow engine in White's seat, the heat map and the candidates
    show while it thinks."""
    set_white(d, "slow")
    s = state(d)
    play_turn(d, s, choose(helper, s, False))
    wait(d, "the slow engine thinking",
         lambda: any(e["status"] == "thinking" for e in state(d)["engines"]), 20)
    wait(d, "a heat map while the engine thinks",
         lambda: d.find_elements(By.CSS_SELECTOR, "#overlay [data-heat]")
         and any(e["status"] == "thinking" for e in state(d)["engines"]), 20)
    rows = d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")
    if not rows:
        fail("no candidates listed while the engine thinks")
    log(f"  heat map and {len(rows)} candidates shown while the engine thinks")
    screenshot(d, "gui-thinking.png")
    set_white(d, "e")
    wait_human(d, len(s["moves"]) + 2)


def analyse_my_turn(d):
    """Analysis of the person's turn; hovering a candidate previews its line."""
    d.find_element(By.ID, "analyze").click()
    # Not the engine's analysis of its own turn, which stays on the board.
    wait(d, "analysis of my turn", lambda: (lambda s: s["analysis"] and s["analysis"]["turn"] == s["view"])(
        state(d)) and d.find_elements(By.CSS_SELECTOR, "#overlay [data-heat]"))

    def hover_first_row():
        # An analysis update may draw the table anew between finding a row
        # and hovering it: then the row is found and hovered again.
        row = d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")[0]
        ActionChains(d).move_to_element(row).perform()
        return d.find_elements(By.CSS_SELECTOR, "#overlay .ov-pv")

    wait(d, "the previewed line of a hovered candidate", hover_first_row)
    ActionChains(d).move_to_element(d.find_element(By.ID, "status")).perform()
    d.find_element(By.ID, "analyze").click()
    wait(d, "analysis off", lambda: not state(d)["analysis_wanted"])
    log("  analysis of my turn shown; hovering a candidate previews its line")


def reload_keeps_game(d):
    s = state(d)
    d.refresh()
    wait(d, "the page after a reload", lambda: state(d) is not None)
    again = state(d)
    if again["moves"] != s["moves"] or again["stones"] != s["stones"]:
        fail("a reload lost the game")
    # The clocks are the server's: each at least where it was (the one
    # running has run on), and some time was counted before.
    before, after = s["clock"]["used"], again["clock"]["used"]
    if not max(before) > 0 or after[0] < before[0] or after[1] < before[1]:
        fail(f"a reload lost the clocks: {before} before, {after} after")
    log(f"  reload shows the game where it was, its clocks at {after} s (before: {before})")


def download_sgf(d, downloads, s):
    for f in os.listdir(downloads):
        os.remove(os.path.join(downloads, f))
    d.find_element(By.ID, "download").click()
    path = os.path.join(downloads, "oddity-game.sgf")
    # Chromium writes to a .crdownload file and renames it when complete.
    wait(d, "the downloaded SGF", lambda: os.path.exists(path) and os.path.getsize(path) > 0)
    with open(path, "rb") as f:
        data = f.read()
    game = sgf.Sgf_game.from_bytes(data)
    root = game.get_root()
    if root.get_raw("OG").decode() != s["game"] or root.get_raw("GM") != b"9000":
        fail(f"SGF root: {data[:120]!r}")
    turns = [(n.get_raw_property_map()) for n in game.get_main_sequence()[1:]]
    tokens = []
    for props in turns:
        (seat, values), = [(k, v) for k, v in props.items() if k in ("B", "W")]
        tokens.append((seat.lower(), values[0].decode()))
    if tokens != [(m["seat"], m["token"]) for m in s["moves"]]:
        fail(f"SGF turns {tokens} differ from the page's {s['moves']}")
    if root.get_raw("RE").decode() != s["result"]["code"]:
        fail(f"SGF result {root.get_raw('RE')} differs from {s['result']['code']}")
    log(f"  SGF downloaded, parsed by sgfmill: {len(tokens)} turns, RE[{s['result']['code']}]")
    return path


def review_sgf(d, path, s):
    """Open the downloaded record and step through it."""
    d.find_element(By.ID, "upload").send_keys(path)
    wait(d, "the opened record", lambda: state(d)["seats"] == ["human", "human"])
    d.find_element(By.ID, "first").click()
    wait(d, "turn 0", lambda: state(d)["view"] == 0 and not state(d)["stones"])
    d.find_element(By.ID, "next").click()
    first = wait(d, "turn 1", lambda: (lambda t: t if t["view"] == 1 else None)(state(d)))
    if len(first["stones"]) != len(s["moves"][0]["token"].split(",")):
        fail(f"turn 1 of the opened record shows {first['stones']}")
    d.find_element(By.ID, "last").click()
    wait(d, "the last turn", lambda: state(d)["view"] == len(s["moves"]))
    if state(d)["stones"] != s["stones"]:
        fail("the opened record ends in another position")
    log("  the record opened for review and stepped through")


END_MARKS = """
const rings = [...document.querySelectorAll('#overlay .ov-group, #overlay .ov-small')];
const counted = rings.filter((r) => r.classList.contains('ov-group'));
return {
  heat: document.querySelectorAll('#overlay [data-heat], #overlay .ov-pv').length,
  last: document.querySelectorAll('#board svg .last-turn').length,
  groups: [...new Set(counted.map((r) => r.dataset.colour + r.dataset.group))],
  ringed: rings.map((r) => r.getAttribute('data-cell-of')).sort(),
  small: new Set(rings.filter((r) => r.classList.contains('ov-small')).map((r) => r.dataset.group)).size,
  chain: document.querySelectorAll('#overlay .ov-chain').length,
  score: document.getElementById('score').textContent,
};
"""


def check_end_marks(d, s):
    """The final position is drawn clean (no analysis, no last-turn marks)
    with the groups the rules count marked (Onyx: its winning chain)."""
    m = d.execute_script(END_MARKS)
    if m["heat"]:
        fail(f"analysis drawn over the final position: {m}")
    if m["last"]:
        fail("the final position keeps the last turn's marks")
    if s["game"] == "onyx":
        if m["groups"] or m["chain"] != len(s["result"]["chain"]) or not m["chain"]:
            fail(f"Onyx's end: {m}, chain {s['result']['chain']}")
        log(f"  the winning chain ringed: {'-'.join(s['result']['chain'])}")
        return
    if m["ringed"] != sorted(s["stones"]):
        fail(f"not every stone is marked in exactly one group: {m['ringed']} vs {sorted(s['stones'])}")
    black = sum(1 for g in m["groups"] if g.startswith("B"))
    white = len(m["groups"]) - black
    if [black, white] != s["groups"]:
        fail(f"groups marked as counted: Black {black}, White {white}; the rules count {s['groups']}")
    counts = f"Black {black} group{'' if black == 1 else 's'}, White {white} group{'' if white == 1 else 's'}"
    if counts not in m["score"]:
        fail(f"the score line {m['score']!r} does not say {counts!r}")
    if s["game"] != "odd" and m["small"]:
        fail(f"{s['game']} marks groups as too small: {m}")
    if s["game"] in ("xodd", "yodd") and f"(Black {black}, White {white})" not in s["result"]["text"]:
        fail(f"the result {s['result']['text']!r} counts otherwise than the marks")
    log(f"  final position marked: {m['score']!r}")


def play_game(d, helper, downloads, game, size, extras):
    t0 = time.time()
    log(f"{game} {size}:")
    new_game(d, game, size, **extras.get("form", {}))
    s = wait_human(d, 0)
    turn = 0
    done = set()

    def extra(name, at):
        if turn == at and name in extras:
            done.add(name)
            return True
        return False

    while not s["over"]:
        if extra("think", 0):
            watch_heat_map_while_thinking(d, helper)
            s = state(d)
            if s["over"]:
                break
        if turn == 1:
            illegal_click(d, s)
        if extra("analyse", 1):
            analyse_my_turn(d)
        if extra("reload", 1):
            reload_keeps_game(d)
        if extra("kill", 2):
            kill_engine(d)
        if turn == 2:
            check_board(d, helper, s)
        token = choose(helper, s, prefer_two=(turn == 1))
        play_turn(d, s, token)
        s = wait_human(d, len(s["moves"]) + 1)
        turn += 1
    missed = set(extras) - done - {"form", "review"}
    if missed or turn < 3:
        fail(f"the game ended after {turn} turns of the person, before {missed or 'the checks'}")
    check_board(d, helper, s)
    helper.replay(s)
    score = helper.cmd("final_score")
    if s["result"]["code"] != score:
        fail(f"page result {s['result']} but final_score {score}")
    status = d.find_element(By.ID, "status").text
    winner = "Black" if score.startswith("B") else "White"
    if "Game over" not in status or f"{winner} wins" not in status:
        fail(f"status line {status!r} does not announce {winner}")
    log(f"  {len(s['moves'])} turns; announced: {status!r}")
    check_end_marks(d, s)
    screenshot(d, f"gui-{game}.png")
    path = download_sgf(d, downloads, s)
    if "review" in extras:
        review_sgf(d, path, s)
    log(f"  {game} done in {time.time() - t0:.1f}s")


def no_console_errors(d):
    """Refused requests (409) are expected in the console; script errors are not."""
    logs = [e for e in d.get_log("browser")
            if e["level"] == "SEVERE" and e.get("source") != "network"]
    if logs:
        fail(f"browser console errors: {logs}")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    downloads = tempfile.mkdtemp(prefix="oddity-downloads-")
    helper = Gtp()
    d = start_browser(downloads)
    try:
        d.set_window_size(1100, 860)
        d.get(URL)
        wait(d, "the first state", lambda: state(d) is not None)
        log(f"page loaded: {d.title}")
        play_game(d, helper, downloads, "xodd", 4, {"kill": 1})
        play_game(d, helper, downloads, "yodd", 3, {"analyse": 1, "reload": 1})
        play_game(d, helper, downloads, "odd", 3, {"think": 1, "review": 1})
        play_game(d, helper, downloads, "onyx", 4, {"form": {"open_start": True}})
        no_console_errors(d)
        log("all games played")
    finally:
        d.quit()
        helper.close()
        shutil.rmtree(downloads, ignore_errors=True)


if __name__ == "__main__":
    main()
