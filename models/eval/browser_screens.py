#!/usr/bin/env python3
"""Sudoku screens rendered by a web browser, with ground truth: a check of
the screen reader on pages drawn by another renderer than the one it was
tuned on (models/eval/screenshots.py draws with Pillow).

Each screen is an HTML page laid out by headless Chromium and captured at
the device's pixel ratio: a puzzle site on a desktop (header, the board, a
side panel with timer and number pad, text under it), a phone web app (top
bar, info row, the board, tool buttons, a row of digits) or a news article
with the day's puzzle between paragraphs and boxes of advertising. Boards
are CSS grids in four looks (cell lines with heavier box lines, rounded
tiles with wider gaps between boxes, boxes told apart by shading alone,
a heavy outline), light or dark, the selected cell and its row, column
and box highlighted, the cells holding the selected digit shaded, right
player entries in an accent colour, pencil candidates in small grey digits
in a 3x3 layout. Digits are set in typefaces that screenshots.py does not use
(`FONTS`, those installed), regular or bold.

    models/eval/browser_screens.py make OUT --seed S --count N [--bin BIN]
    models/eval/browser_screens.py eval OUT [--bin BIN] [--json]

`make` writes OUT/<stem>.png (or .jpg), OUT/<stem>.txt (the digits shown:
givens and entries; `.` for an empty or pencilled cell), OUT/<stem>.kinds.txt
(`*` pencil candidates) and OUT/screens.tsv (layout, look, theme, font,
pixel ratio, entries, pencil cells). Every screen's puzzle has one solution
and its entries are right, so the right outcome is `solved` with the
puzzle's answer. `eval` reads each with `sudoku-snap --json --no-image`.

Needs Debian's chromium and npm's playwright-core (scripts/web.sh install).
Everything is seeded; puzzles come from the binary's generator
(`generate --seed S`).
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_BIN = os.path.join(ROOT, "target", "release", "sudoku-snap")

# Font families of the digits, none of them one screenshots.py draws with;
# those fontconfig does not list are left out.
FONTS = ("Nimbus Sans", "TeX Gyre Heros", "URW Gothic", "TeX Gyre Adventor", "Roboto Condensed",
         "Noto Serif", "Nimbus Roman", "C059", "P052", "TeX Gyre Pagella", "Linux Libertine O",
         "Caladea", "Inconsolata", "Hack", "Comic Neue", "URW Bookman", "DejaVu Sans Mono",
         "Go Mono", "Roboto Light", "Open Sans Light")

# Viewports: (name, CSS width, CSS height, device pixel ratios).
DEVICES = {
    "desktop": ((1366, 768, (1,)), (1920, 1080, (1,)), (1440, 900, (1, 2)), (1280, 800, (2,))),
    "phone": ((390, 844, (3,)), (360, 800, (3, 2)), (412, 915, (2.625,)), (375, 667, (2,))),
    "article": ((1280, 900, (1, 2)), (1024, 1366, (1, 2)), (390, 844, (3,))),
}
LOOKS = ("lines", "tiles", "shaded", "outline")

THEMES = {
    "light": [
        dict(ground="#ffffff", board="#ffffff", thin="#c9ced6", box="#344861", given="#1f2a37",
             area="#e2ebf3", sel="#bbdefb", same="#c3d7ea", pencil="#6e7c90", text="#344861",
             button="#eaeef4", shade="#f1f4f8"),
        dict(ground="#fafafa", board="#fffdf7", thin="#bdb6a4", box="#2b2b2b", given="#111111",
             area="#efeadc", sel="#ffe08a", same="#f6d9a8", pencil="#857a66", text="#333333",
             button="#ece6d6", shade="#f3eee1"),
        dict(ground="#f3f6f4", board="#ffffff", thin="#b7c9bf", box="#2f5d48", given="#18332a",
             area="#e0eee6", sel="#a9dcc0", same="#cce6d6", pencil="#6a8677", text="#2f5d48",
             button="#e3ece7", shade="#edf5f0"),
    ],
    "dark": [
        dict(ground="#121212", board="#1c1c1e", thin="#3a3a3c", box="#8e8e93", given="#f2f2f7",
             area="#2a2a2e", sel="#1f3b5c", same="#2c3c54", pencil="#9a9aa2", text="#e5e5ea",
             button="#2c2c2e", shade="#26262a"),
        dict(ground="#0f1724", board="#16213a", thin="#34415e", box="#8ea0c4", given="#e6ecf8",
             area="#1f2c4a", sel="#2d4a80", same="#2a3d66", pencil="#93a1bf", text="#dbe3f3",
             button="#1d2942", shade="#1c2945"),
    ],
}
ACCENTS = ("#1976d2", "#0a84ff", "#2e7d32", "#6a1b9a", "#00897b", "#c2185b", "#ef6c00")


class Puzzles:
    def __init__(self, binary, seed, count):
        out = subprocess.run([binary, "generate", "--count", str(count), "--seed", str(seed),
                              "--json"], check=True, capture_output=True, text=True).stdout
        self.items = [json.loads(line) for line in out.splitlines() if line.strip()]


def installed(families):
    out = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True).stdout
    have = {name.strip() for line in out.splitlines() for name in line.split(",")}
    found = [f for f in families if f in have]
    if not found:
        sys.exit("browser_screens.py: none of the fonts in FONTS is installed")
    return found


def board_html(rng, board, look, pal, accent, family, weight, side):
    """The board as a CSS grid `side` CSS pixels square."""
    givens, shown, pencil, sel = board["givens"], board["shown"], board["pencil"], board["sel"]
    sr, sc = divmod(sel, 9)
    sel_digit = shown[sel]
    gap, box_gap, outer, radius = 0, 0, 0, 0
    if look == "tiles":
        gap, box_gap, radius = rng.choice((1, 2, 3)), rng.choice((4, 6)), rng.choice((2, 4, 6))
    elif look == "outline":
        outer = rng.choice((3, 4))
    cells = []
    for i in range(81):
        r, c = divmod(i, 9)
        bg = pal["board"]
        if look == "shaded" and ((r // 3) + (c // 3)) % 2 == 0:
            bg = pal["shade"]
        if r == sr or c == sc or (r // 3, c // 3) == (sr // 3, sc // 3):
            bg = pal["area"]
        if sel_digit != "." and shown[i] == sel_digit:
            bg = pal["same"]
        if i == sel:
            bg = pal["sel"]
        style = [f"background:{bg}"]
        if look == "tiles":
            style.append(f"border-radius:{radius}px")
        else:
            thin = f"1px solid {pal['thin']}"
            heavy = thin if look == "shaded" else f"2px solid {pal['box']}"
            if c < 8:
                style.append(f"border-right:{heavy if c % 3 == 2 else thin}")
            if r < 8:
                style.append(f"border-bottom:{heavy if r % 3 == 2 else thin}")
        content = ""
        if shown[i] != ".":
            colour = pal["given"] if givens[i] != "." else accent
            w = weight if givens[i] != "." else "normal"
            content = f'<span style="color:{colour};font-weight:{w}">{shown[i]}</span>'
        elif i in pencil:
            marks = "".join(f'<i>{d if str(d) in pencil[i] else ""}</i>' for d in range(1, 10))
            content = f'<div class="pm" style="color:{pal["pencil"]}">{marks}</div>'
        cells.append(f'<div class="c" style="{";".join(style)}">{content}</div>')
    inner = side - 2 * outer
    font_px = inner / 9 * rng.uniform(0.55, 0.72)
    common = f"font-family:'{family}';font-size:{font_px:.1f}px"
    if look == "tiles":
        # Boxes of tiles: the gaps between tiles show the board's lines'
        # colour, the wider gaps between boxes the box lines'.
        track = (inner - 2 * box_gap - 6 * gap) / 9
        boxes = []
        for b in range(9):
            br, bc = divmod(b, 3)
            members = [cells[(br * 3 + k // 3) * 9 + bc * 3 + k % 3] for k in range(9)]
            boxes.append(f'<div style="display:grid;grid-template-columns:repeat(3,{track:.2f}px);'
                         f'grid-template-rows:repeat(3,{track:.2f}px);gap:{gap}px;'
                         f'background:{pal["thin"]}">{"".join(members)}</div>')
        return (f'<div class="board" style="display:grid;grid-template-columns:repeat(3,auto);'
                f'gap:{box_gap}px;background:{pal["box"]};padding:{box_gap // 2}px;'
                f'border-radius:{radius}px;{common}">{"".join(boxes)}</div>')
    border = (f"border:{outer}px solid {pal['box']};" if look == "outline"
              else f"border:{rng.choice((1, 2, 3))}px solid {pal['box']};")
    return (f'<div class="board" style="width:{inner}px;height:{inner}px;{border}'
            f'display:grid;grid-template-columns:repeat(9,1fr);grid-template-rows:repeat(9,1fr);'
            f'background:{pal["board"]};{common}">{"".join(cells)}</div>')


CSS = """
* { box-sizing: border-box; margin: 0; padding: 0; }
body { font-family: sans-serif; }
.c { display: flex; align-items: center; justify-content: center; line-height: 1; }
.pm { display: grid; grid-template-columns: repeat(3, 1fr); width: 88%; height: 88%;
      font-size: 0.28em; text-align: center; align-items: center; }
.pm i { font-style: normal; }
.pad button { border: none; border-radius: 8px; font-size: 22px; }
p { line-height: 1.45; margin: 0 0 10px 0; }
"""

WORDS = ("puzzle number today daily edition grid solve logic easy medium hard expert row column "
         "box digit time score hint notes weekly classic news weather sport market city local "
         "reader letters editor crossword answer yesterday tomorrow family games").split()


def prose(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def page(rng, layout, board, pal, accent, family, weight, vw, vh):
    text = pal["text"]
    pad_buttons = "".join(f'<button style="background:{pal["button"]};color:{accent};'
                          f'font-family:\'{family}\'">{d}</button>' for d in range(1, 10))
    level = rng.choice(("Easy", "Medium", "Hard", "Expert"))
    if layout == "desktop":
        side = int(min(vh - 170, vw * 0.5))
        body = f"""
<div style="height:56px;background:{accent};color:#fff;font-size:22px;padding:14px 24px">
  Sudoku Daily &nbsp; <small>Play &middot; Archive &middot; Help</small></div>
<div style="display:flex;gap:40px;padding:24px 48px;color:{text}">
  <div>{board_html(rng, board, board['look'], pal, accent, family, weight, side)}</div>
  <div style="width:260px;font-size:18px">
    <div style="margin-bottom:12px">Level: {level}</div>
    <div style="margin-bottom:12px">Time {rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}</div>
    <div class="pad" style="display:grid;grid-template-columns:repeat(3,70px);gap:8px">
      {pad_buttons.replace('font-size:22px', '')}</div>
    <p style="margin-top:18px;font-size:14px">{prose(rng, 30)}</p>
  </div></div>"""
    elif layout == "phone":
        side = vw - rng.choice((8, 16, 24))
        body = f"""
<div style="padding:10px 14px;color:{text};font-size:18px;display:flex;justify-content:space-between">
  <span>&larr;</span><b>Sudoku</b><span>&#9881;</span></div>
<div style="padding:4px 14px;color:{text};font-size:13px;display:flex;justify-content:space-between">
  <span>{level}</span><span>Mistakes {rng.randint(0, 2)}/3</span>
  <span>{rng.randint(0, 30):02d}:{rng.randint(0, 59):02d}</span></div>
<div style="display:flex;justify-content:center;margin-top:8px">
  {board_html(rng, board, board['look'], pal, accent, family, weight, side)}</div>
<div style="display:flex;justify-content:space-around;padding:18px 10px;color:{text};font-size:13px">
  <span>Undo</span><span>Erase</span><span>Notes</span><span>Hint</span></div>
<div class="pad" style="display:grid;grid-template-columns:repeat(9,1fr);gap:4px;padding:0 8px">
  {pad_buttons.replace('font-size:22px', 'font-size:26px;height:52px;background:transparent')}</div>"""
    else:
        side = int(min(vw - 40, 560) * rng.uniform(0.7, 1.0))
        ads = (f'<div style="height:90px;background:{rng.choice(ACCENTS)};opacity:0.35;'
               f'margin:14px 0"></div>')
        body = f"""
<div style="max-width:720px;margin:0 auto;padding:20px;color:{text};font-family:serif">
  <h1 style="font-size:30px;margin-bottom:10px">Sudoku: {level} puzzle No. {rng.randint(100, 999)}</h1>
  <p>{prose(rng, 45)}</p>{ads}
  <div style="display:flex;justify-content:center;margin:16px 0">
    {board_html(rng, board, board['look'], pal, accent, family, weight, side)}</div>
  <p>{prose(rng, 60)}</p><p>{prose(rng, 40)}</p>{ads}<p>{prose(rng, 50)}</p>
</div>"""
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{CSS}"
            f"body{{background:{pal['ground']};width:{vw}px}}</style></head>"
            f"<body>{body}</body></html>")


NODE = r"""
import { createRequire } from 'module';
import fs from 'fs';
const require = createRequire(process.env.SNAP_WEB_JS + '/package.json');
const { chromium } = require('playwright-core');
const jobs = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--font-render-hinting=none'] });
for (const j of jobs) {
  const ctx = await browser.newContext({ viewport: { width: j.w, height: j.h },
                                         deviceScaleFactor: j.dpr });
  const page = await ctx.newPage();
  await page.goto('file://' + j.html);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: j.out, fullPage: false });
  await ctx.close();
}
await browser.close();
"""


def photograph(path, rng, out):
    """The screen at `path` as a phone camera sees it (`--photo`): its pixels'
    red, green and blue stripes, a bezel, tilted in perspective on a desk
    and sampled without a prefilter (the moire of a photographed screen),
    a glare, the focus's blur, sensor noise and JPEG."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter
    from pen_photos import perspective
    screen = np.asarray(Image.open(path).convert("RGB"), dtype=np.float32)
    h, w, _ = screen.shape
    # Each pixel as three stripes with a dark gap under them, where the
    # camera could resolve them (a high-density screen's it cannot).
    k = SUBPIXELS if w * SUBPIXELS <= MAX_STRIPED else 1
    big = np.repeat(np.repeat(screen, k, axis=0), k, axis=1)
    if k > 1:
        mask = np.zeros((k, k, 3), dtype=np.float32)
        for ch in range(3):
            mask[:, ch, ch] = 1.0
            # The black matrix between rows of pixels, a fraction of a
            # pixel's height: the last row of each pixel half lit.
            mask[k - 1, ch, ch] = BLACK_MATRIX_ROW
        # Unlit subpixels and gaps are dark; the camera's exposure (below)
        # brings the screen's brightness back up.
        big *= np.tile(mask, (h, w, 1))
    big = Image.fromarray(np.clip(big, 0, 255).astype(np.uint8))
    bw, bh = big.size
    bezel = int(0.04 * max(bw, bh))
    body = Image.new("RGB", (bw + 2 * bezel, bh + 2 * bezel), (12, 12, 14))
    body.paste(big, (bezel, bezel))
    # A 12 MP photo, the screen filling 55-90 % of it.
    ow = CAMERA_WIDTH
    oh = int(ow * 0.75) if body.width >= body.height else int(ow * 4 / 3)
    fill = rng.uniform(0.55, 0.9)
    scale = fill * min(ow / body.width, oh / body.height)
    cw, ch = body.width * scale, body.height * scale
    cx, cy = ow / 2 + rng.uniform(-0.05, 0.05) * ow, oh / 2 + rng.uniform(-0.05, 0.05) * oh
    jit = lambda: rng.uniform(-0.07, 0.07) * min(cw, ch)
    dst = [(cx - cw / 2 + jit(), cy - ch / 2 + jit()), (cx + cw / 2 + jit(), cy - ch / 2 + jit()),
           (cx + cw / 2 + jit(), cy + ch / 2 + jit()), (cx - cw / 2 + jit(), cy + ch / 2 + jit())]
    src = [(0, 0), (body.width, 0), (body.width, body.height), (0, body.height)]
    # The lens blurs before the sensor samples: a little, so the stripes
    # beat against the sensor's pixels (moire) as on a real photo.
    body = body.filter(ImageFilter.GaussianBlur(0.4 / scale))
    warped = body.transform((ow, oh), Image.PERSPECTIVE, perspective(src, dst),
                            resample=Image.BILINEAR)
    m = Image.new("L", (ow, oh), 0)
    ImageDraw.Draw(m).polygon(dst, fill=255)
    inside = np.asarray(m) > 0
    # The camera's exposure puts the screen's brightest at about 240; the
    # desk around it, lit by the room, comes out anywhere from dim to bright.
    # (Metered on the photo smoothed over a few pixels: the moire's peaks
    # are no brighter to a light meter.)
    a = np.asarray(warped, dtype=np.float32)
    metered = np.asarray(warped.convert("L").filter(ImageFilter.GaussianBlur(METER_BLUR)))
    a *= 240.0 / max(40.0, float(np.percentile(metered[inside], 99)))
    desk = np.array([rng.randint(40, 200) for _ in range(3)], dtype=np.float32)
    a[~inside] = desk
    yy, xx = np.mgrid[0:oh, 0:ow]
    gx, gy, gr = rng.uniform(0, ow), rng.uniform(0, oh), rng.uniform(0.15, 0.4) * ow
    glare = rng.uniform(20, 70) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gr * gr))
    shade = 1.0 - rng.uniform(0, 0.3) * (xx / ow if rng.random() < 0.5 else yy / oh)
    a = a * shade[..., None] + glare[..., None]
    a += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 6), a.shape)
    photo = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    photo = photo.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 1.5)))
    photo.save(out, quality=rng.randint(75, 92))


# Camera pixels per screen pixel side before the photo is sampled: room
# for a pixel's three colour stripes.
SUBPIXELS = 3
# Brightness of the last camera row of each screen pixel (see photograph).
BLACK_MATRIX_ROW = 0.5
# Widest screen image, in camera pixels, drawn with its stripes (memory).
MAX_STRIPED = 6000
# Pixels over which the exposure is metered (see photograph).
METER_BLUR = 4
# Width of a 4:3 12 MP phone photo.
CAMERA_WIDTH = 4000


def make(args):
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    fonts = installed(FONTS)
    puzzles = Puzzles(args.bin, args.seed, args.count).items
    jobs, rows = [], []
    tmp = tempfile.mkdtemp(prefix="browser-screens-")
    for k, p in enumerate(puzzles[:args.count]):
        layout = rng.choice(tuple(DEVICES))
        vw, vh, ratios = rng.choice(DEVICES[layout])
        dpr = rng.choice(ratios)
        look = rng.choice(LOOKS)
        theme = rng.choice(tuple(THEMES))
        pal = rng.choice(THEMES[theme])
        accent = rng.choice(ACCENTS)
        family = rng.choice(fonts)
        weight = rng.choice(("normal", "normal", "bold"))
        givens, solution = p["givens"], p["solution"]
        empty = [i for i in range(81) if givens[i] == "."]
        rng.shuffle(empty)
        n_entries = rng.choice((0, 0, rng.randint(1, 12), rng.randint(10, 30)))
        entries = set(empty[:n_entries])
        n_pencil = rng.choice((0, 0, rng.randint(1, 8), rng.randint(8, 25)))
        pencil = {}
        for i in empty[n_entries:n_entries + n_pencil]:
            cands = set(rng.sample("123456789", rng.randint(1, 5))) | {solution[i]}
            pencil[i] = "".join(sorted(cands))
        shown = "".join(solution[i] if (givens[i] != "." or i in entries) else "."
                        for i in range(81))
        board = dict(givens=givens, shown=shown, pencil=pencil, sel=rng.randrange(81), look=look)
        stem = f"web-{args.seed}-{k:03d}"
        html_path = os.path.join(tmp, stem + ".html")
        with open(html_path, "w") as f:
            f.write(page(rng, layout, board, pal, accent, family, weight, vw, vh))
        jpeg = rng.random() < 0.3 and not args.photo
        png = os.path.join(args.out, stem + ".png")
        jobs.append(dict(html=html_path, out=png, w=vw, h=vh, dpr=dpr, jpeg=jpeg,
                         quality=rng.randint(60, 90)))
        with open(os.path.join(args.out, stem + ".txt"), "w") as f:
            f.write("\n".join(shown[r * 9:r * 9 + 9] for r in range(9)) + "\n")
        kinds = "".join("*" if i in pencil else shown[i] for i in range(81))
        with open(os.path.join(args.out, stem + ".kinds.txt"), "w") as f:
            f.write("\n".join(kinds[r * 9:r * 9 + 9] for r in range(9)) + "\n")
        rows.append([stem, layout, f"{vw}x{vh}@{dpr}", look, theme, family, weight,
                     str(len(entries)), str(len(pencil)), "jpeg" if jpeg else "png", solution])
    job_file = os.path.join(tmp, "jobs.json")
    with open(job_file, "w") as f:
        json.dump(jobs, f)
    env = dict(os.environ, SNAP_WEB_JS=os.path.join(ROOT, "crates", "web", "js"))
    subprocess.run(["node", "--input-type=module", "-e", NODE, job_file], check=True, env=env)
    shutil.rmtree(tmp, ignore_errors=True)
    for j, r in zip(jobs, rows):
        if args.photo:
            photograph(j["out"], rng, j["out"][:-4] + ".jpg")
            os.remove(j["out"])
            r[9] = "photo"
        elif j["jpeg"]:
            from PIL import Image
            Image.open(j["out"]).convert("RGB").save(j["out"][:-4] + ".jpg", quality=j["quality"])
            os.remove(j["out"])
    with open(os.path.join(args.out, "screens.tsv"), "w") as f:
        f.write("stem\tlayout\tviewport\tlook\ttheme\tfont\tweight\tentries\tpencil\tfile\tsolution\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print(f"{len(rows)} screens in {args.out}")


def evaluate(args):
    rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(args.out, "screens.tsv"))]
    head, rows = rows[0], rows[1:]
    col = {h: i for i, h in enumerate(head)}
    tally, detail = {}, []
    for r in rows:
        stem = r[col["stem"]]
        path = next(os.path.join(args.out, stem + e) for e in (".png", ".jpg")
                    if os.path.exists(os.path.join(args.out, stem + e)))
        out = subprocess.run([args.bin, "--json", "--no-image", path], capture_output=True,
                             text=True).stdout
        grids = [json.loads(line) for line in out.splitlines() if line.strip()]
        solved = [g for g in grids if g.get("status") == "solved"]
        if any(g.get("solution") != r[col["solution"]] for g in solved):
            outcome = "WRONG"
        elif solved:
            outcome = "right"
        elif any(g.get("status") == "unsure" for g in grids):
            outcome = "unsure"
        elif not grids or all(g.get("status") == "no_grid" for g in grids):
            outcome = "no grid"
        else:
            outcome = "other"
        if outcome != "right":
            detail.append(f"  {stem}: {outcome} "
                          f"({'; '.join(str(g.get('error') or g.get('status')) for g in grids)[:160]}); "
                          + ", ".join(f"{h} {r[col[h]]}" for h in head[1:-1]))
        for key in ("all", "layout " + r[col["layout"]], "look " + r[col["look"]],
                    "theme " + r[col["theme"]]):
            t = tally.setdefault(key, dict(screens=0, right=0, unsure=0, no_grid=0, other=0,
                                           wrong=0))
            t["screens"] += 1
            t[{"right": "right", "unsure": "unsure", "no grid": "no_grid", "other": "other",
               "WRONG": "wrong"}[outcome]] += 1
    if args.json:
        print(json.dumps(tally))
        return
    print(f"{'':16} {'screens':>7} {'right':>6} {'unsure':>6} {'no grid':>7} {'other':>6} {'WRONG':>6}")
    for key, t in tally.items():
        print(f"{key:16} {t['screens']:7} {t['right']:6} {t['unsure']:6} {t['no_grid']:7} "
              f"{t['other']:6} {t['wrong']:6}")
    print("\n".join(detail))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("out")
    m.add_argument("--seed", type=int, required=True)
    m.add_argument("--count", type=int, default=30)
    m.add_argument("--bin", default=DEFAULT_BIN)
    m.add_argument("--photo", action="store_true",
                   help="photograph each screen with a phone camera (see photograph)")
    e = sub.add_parser("eval")
    e.add_argument("out")
    e.add_argument("--bin", default=DEFAULT_BIN)
    e.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"browser_screens.py: {args.bin} not found (cargo build --release)")
    make(args) if args.cmd == "make" else evaluate(args)


if __name__ == "__main__":
    main()
