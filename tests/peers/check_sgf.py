"""Parses SGF files written by `oddity printsgf` with sgfmill.

Usage: python3 check_sgf.py FILE...
For each file: parse, check the root properties of oddity's flavour (GM, OG,
SZ), walk the main line reading every move token raw, re-serialise and parse
the result again. Prints one line per file; exits 1 on the first failure.
"""
import sys

from sgfmill import sgf


def check(path):
    with open(path, "rb") as f:
        data = f.read()
    game = sgf.Sgf_game.from_bytes(data)
    root = game.get_root()
    assert root.get_raw("GM") == b"9000", root.get_raw("GM")
    assert root.get_raw("OG") in (b"xodd", b"yodd", b"odd", b"onyx")
    size = int(root.get_raw("SZ"))
    moves = []
    for node in game.get_main_sequence()[1:]:
        for prop in ("B", "W"):
            if node.has_property(prop):
                moves.append(node.get_raw(prop).decode())
    again = sgf.Sgf_game.from_bytes(game.serialise())
    assert len(again.get_main_sequence()) == len(game.get_main_sequence())
    return size, moves


def main():
    for path in sys.argv[1:]:
        try:
            size, moves = check(path)
        except Exception as e:  # report and fail
            print("FAIL %s: %r" % (path, e))
            sys.exit(1)
        print("OK %s size %d, %d turns" % (path, size, len(moves)))


if __name__ == "__main__":
    main()
