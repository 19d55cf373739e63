#!/usr/bin/env python3
"""Games for release/check.sh, with Python's standard library alone.

  check_play.py game ENGINE GAME SIZE MOVES_FILE
      Starts ENGINE (a command line, split as a shell does) as a GTP
      engine, has it play both sides of GAME SIZE with `genmove` until it
      answers `game is over`, asks `final_score`, then replays the turns
      with `play` in a second, fresh ENGINE, whose `final_score` must be
      the same. Writes the turns to MOVES_FILE, one line, space-separated.

  check_play.py recount ENGINE RESULTS
      For every game of RESULTS (the JSON lines of `oddity match
      --results`): it ended by the rules, and its turns replayed with
      `play` in a fresh ENGINE end the game with the winner the referee
      wrote.

Every answer is read with either line ending (CRLF or LF). Exits non-zero
with a message on the first failure.
"""

import json
import shlex
import subprocess
import sys


class Engine:
    """A GTP engine on pipes."""

    def __init__(self, command):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def ask(self, command):
        """(ok, text) of one command; the answer ends at an empty line."""
        self.proc.stdin.write((command + "\n").encode())
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"the engine closed its output after {command!r}")
            line = line.decode().rstrip("\r\n")
            if not line and lines:
                break
            if line:
                lines.append(line)
        text = "\n".join(lines)
        if text[:1] not in "=?":
            raise SystemExit(f"{command!r}: not a GTP answer: {text!r}")
        return text[0] == "=", text[1:].strip()

    def must(self, command):
        ok, text = self.ask(command)
        if not ok:
            raise SystemExit(f"{command!r} failed: {text}")
        return text

    def close(self):
        self.ask("quit")
        self.proc.stdin.close()
        if self.proc.wait(timeout=60) != 0:
            raise SystemExit(f"the engine exited with status {self.proc.returncode}")


def start(command, game, size, rules=""):
    """A fresh engine set to a game; `rules` as the results files write
    them (`min_group=3,...`)."""
    engine = Engine(command)
    engine.must(f"oddity-game {game}")
    engine.must(f"boardsize {size}")
    for item in filter(None, rules.split(",")):
        name, value = item.split("=", 1)
        engine.must(f"oddity-rules {name} {value}")
    engine.must("clear_board")
    return engine


def replay_score(command, game, size, turns, rules=""):
    """final_score of a fresh engine after `play` of every turn (black first)."""
    engine = start(command, game, size, rules)
    for i, turn in enumerate(turns):
        engine.must(f"play {'bw'[i % 2]} {turn}")
    score = engine.must("final_score")
    engine.close()
    return score


def game(command, name, size, moves_file):
    engine = start(command, name, size)
    turns = []
    while True:
        ok, text = engine.ask(f"genmove {'bw'[len(turns) % 2]}")
        if not ok:
            if text != "game is over":
                raise SystemExit(f"genmove after {len(turns)} turns: {text}")
            break
        turns.append(text)
    score = engine.must("final_score")
    engine.close()
    again = replay_score(command, name, size, turns)
    if again != score:
        raise SystemExit(f"final_score {score}, but {again} after replaying the turns")
    with open(moves_file, "w") as f:
        f.write(" ".join(turns) + "\n")
    print(f"{name} {size}: {len(turns)} turns, final_score {score}, the same after replaying them")


def recount(command, results):
    with open(results) as f:
        games = [json.loads(line) for line in f if line.strip()]
    if not games:
        raise SystemExit(f"{results}: no games")
    for g in games:
        what = f"{g['game']} {g['size']} game {g['id']} ({g['black']} b, {g['white']} w)"
        if g["reason"] != "rules" or g["winner_seat"] not in ("b", "w"):
            raise SystemExit(f"{what}: ended by {g['reason']!r}, winner {g['winner']!r}")
        score = replay_score(command, g["game"], g["size"], g["turns"], g.get("rules", ""))
        if not score.upper().startswith(g["winner_seat"].upper() + "+"):
            raise SystemExit(f"{what}: the referee wrote {g['winner_seat']} won, the replay says {score}")
        print(f"{what}: {len(g['turns'])} turns, {g['winner']} ({g['winner_seat']}) won "
              f"({g['detail']}); replayed: {score}")


def main():
    args = sys.argv[1:]
    if len(args) == 5 and args[0] == "game":
        game(args[1], args[2], int(args[3]), args[4])
    elif len(args) == 3 and args[0] == "recount":
        recount(args[1], args[2])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
