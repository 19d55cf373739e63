#!/usr/bin/env python3
"""Draws the page's icons into DIR: icon.svg and icon-192.png, icon-512.png
(the sizes a web app manifest needs to be installed). Seven stones in a
hexagon on a wooden square, all within the middle 80 % so that a launcher
may cut the square to a circle (a "maskable" icon).

Usage: icons.py DIR
"""

import math
import os
import struct
import sys
import zlib

WOOD = (220, 179, 107)
BLACK = (28, 28, 28)
WHITE = (250, 250, 250)
RIM = (59, 47, 30)
# Fractions of the side: the stones' radius, the ring's distance from the
# centre, and the white stones' rim.
RADIUS = 0.11
RING = 0.235
RIM_WIDTH = 0.012


def stones():
    """(x, y, colour) of each stone, as fractions of the side."""
    out = [(0.5, 0.5, BLACK)]
    for k in range(6):
        a = math.pi / 6 + k * math.pi / 3
        out.append((0.5 + RING * math.cos(a), 0.5 + RING * math.sin(a), WHITE if k % 2 else BLACK))
    return out


def mix(under, over, alpha):
    return tuple(u + (o - u) * alpha for u, o in zip(under, over))


def png(side):
    """The icon as PNG bytes, `side` pixels square, its edges smoothed by
    each pixel's covered fraction."""
    rows = []
    spots = [(x * side, y * side, c) for x, y, c in stones()]
    r = RADIUS * side
    rim = RIM_WIDTH * side
    for j in range(side):
        row = bytearray([0])
        for i in range(side):
            px, py = i + 0.5, j + 0.5
            colour = WOOD
            for x, y, c in spots:
                d = math.hypot(px - x, py - y)
                if d > r + 1:
                    continue
                if c == WHITE:
                    colour = mix(colour, RIM, min(1.0, max(0.0, r - d + 0.5)))
                    colour = mix(colour, WHITE, min(1.0, max(0.0, r - rim - d + 0.5)))
                else:
                    colour = mix(colour, c, min(1.0, max(0.0, r - d + 0.5)))
            row += bytes(round(v) for v in colour)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def svg():
    hexc = lambda c: "#%02x%02x%02x" % c  # noqa: E731
    parts = [f'<rect width="100" height="100" fill="{hexc(WOOD)}"/>']
    for x, y, c in stones():
        rim = f' stroke="{hexc(RIM)}" stroke-width="{RIM_WIDTH * 100:.1f}"' if c == WHITE else ""
        parts.append(f'<circle cx="{x * 100:.2f}" cy="{y * 100:.2f}" r="{(RADIUS - (RIM_WIDTH / 2 if c == WHITE else 0)) * 100:.2f}"'
                     f' fill="{hexc(c)}"{rim}/>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">' + "".join(parts) + "</svg>\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: icons.py DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for side in (192, 512):
        with open(os.path.join(out, f"icon-{side}.png"), "wb") as f:
            f.write(png(side))
    with open(os.path.join(out, "icon.svg"), "w") as f:
        f.write(svg())


if __name__ == "__main__":
    main()
