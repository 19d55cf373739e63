#!/usr/bin/env python3
"""How much two builds search in the same time, position by position: the
positions of a match's games (a results file of `oddity match`), each
searched by both builds for the same fixed time, their root visits summed
by stage of the game. Shows where in a game one build searches less (an
endgame table being built, a costlier playout) where a benchmark from the
empty board cannot. Run by hand (not in CI); standard library only:

    python3 tools/root_visits.py RESULTS.jsonl --time 0.2 --games 4 \\
        --engine new=target/release/oddity --engine old=oddity-5498ee6

Each build runs as `BINARY gtp --game G --threads 1 --time T --visits 0`
and is asked `genmove_analyze` in every position from the end of the
opening on (every `--step` turns); its root visits are the sum of the
visits of the candidates of its last `info` line (0 where it answered
without searching: a proven win, or a position the solver settled). The
builds alternate position by position, so that a machine shared with
other work slows both alike.
"""

import argparse
import collections
import json
import re
import subprocess


class Gtp:
    """One engine process, asked one command at a time."""

    def __init__(self, binary, game, seconds):
        self.p = subprocess.Popen(
            [binary, "gtp", "--game", game, "--threads", "1", "--time", str(seconds), "--visits", "0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def ask(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"the engine ended at: {command}")
            if line.strip():
                lines.append(line.strip())
            elif lines:
                return lines

    def root_visits(self, size, turns, seat):
        """Root visits of a search of the position after `turns`."""
        self.ask(f"boardsize {size}")
        self.ask("clear_board")
        for i, turn in enumerate(turns):
            self.ask(f"play {'b' if i % 2 == 0 else 'w'} {turn}")
        infos = [line for line in self.ask(f"genmove_analyze {seat} 100000") if line.startswith("info")]
        return sum(int(v) for v in re.findall(r"visits (\d+)", infos[-1])) if infos else 0

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results")
    p.add_argument("--engine", action="append", required=True, metavar="NAME=BINARY",
                   help="a build (give two)")
    p.add_argument("--time", type=float, default=0.2, help="seconds per search")
    p.add_argument("--games", type=int, default=4, help="games of the results file, from its first")
    p.add_argument("--step", type=int, default=2, help="every STEP turns")
    p.add_argument("--band", type=int, default=10, help="turns per stage of the table")
    a = p.parse_args()
    builds = [spec.split("=", 1) for spec in a.engine]
    games = [json.loads(line) for line in open(a.results)][: a.games]
    if not games:
        raise SystemExit(f"{a.results}: no games")
    kind = games[0]["game"]
    engines = {name: Gtp(binary, kind, a.time) for name, binary in builds}
    visits = collections.defaultdict(lambda: collections.defaultdict(list))
    for g in games:
        turns = g["turns"]
        for k in range(len(g["opening"]), len(turns) - 1, a.step):
            # One turn a player, Black's player first: the seat to move.
            seat = "b" if k % 2 == 0 else "w"
            for name, engine in engines.items():
                visits[k // a.band * a.band][name].append(engine.root_visits(g["size"], turns[:k], seat))
                engine.ask("undo")
    for engine in engines.values():
        engine.close()
    names = [name for name, _ in builds]
    print(f"| turns | positions | {' | '.join(f'mean root visits, {n}' for n in names)} | {names[0]} / {names[-1]} |")
    print("|---|---|" + "---|" * len(names) + "---|")
    for band in sorted(visits):
        row = visits[band]
        means = [sum(row[n]) / len(row[n]) for n in names]
        ratio = sum(row[names[0]]) / max(1, sum(row[names[-1]]))
        print(f"| {band}-{band + a.band - 1} | {len(row[names[0]])} | "
              + " | ".join(f"{m:,.0f}" for m in means) + f" | {ratio:.2f} |")


if __name__ == "__main__":
    main()
