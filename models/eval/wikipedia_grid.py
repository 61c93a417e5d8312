#!/usr/bin/env python3
"""Draws the well-known Wikipedia example Sudoku as a clean render, the way
the article's image shows it (black digits, thin grey cell lines, black box
lines and border), with a white margin around it, for the tight-crop tests:
tests/cli_photo.rs crops it at and just inside its outer border.

Usage, from the repository root:
    python3 models/eval/wikipedia_grid.py fixtures/wikipedia-example.png
The picture is committed; the script records how it was made.
"""

import sys

from PIL import Image, ImageDraw, ImageFont

PUZZLE = [
    "53..7....",
    "6..195...",
    ".98....6.",
    "8...6...3",
    "4..8.3..1",
    "7...2...6",
    ".6....28.",
    "...419..5",
    "....8..79",
]
CELL = 33  # pixels a cell: the article's image at about its own size
MARGIN = 20  # white paper around the grid, cropped away by the tests
THIN, THICK = 1, 3  # cell lines and box lines / border, pixels
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def main(out):
    side = 9 * CELL + THICK
    img = Image.new("L", (side + 2 * MARGIN, side + 2 * MARGIN), 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, int(CELL * 0.7))
    for i in range(10):
        at = MARGIN + i * CELL
        width, shade = (THICK, 0) if i % 3 == 0 else (THIN, 128)
        # Thick lines are drawn last so they cross the thin ones.
        if width == THIN:
            d.rectangle([at + 1, MARGIN, at + 1 + width - 1, MARGIN + side - 1], fill=shade)
            d.rectangle([MARGIN, at + 1, MARGIN + side - 1, at + 1 + width - 1], fill=shade)
    for i in range(0, 10, 3):
        at = MARGIN + i * CELL
        d.rectangle([at, MARGIN, at + THICK - 1, MARGIN + side - 1], fill=0)
        d.rectangle([MARGIN, at, MARGIN + side - 1, at + THICK - 1], fill=0)
    for r, row in enumerate(PUZZLE):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            cx = MARGIN + c * CELL + CELL / 2 + THICK / 2
            cy = MARGIN + r * CELL + CELL / 2 + THICK / 2
            d.text((cx, cy), ch, fill=0, font=font, anchor="mm")
    img.save(out, optimize=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fixtures/wikipedia-example.png")
