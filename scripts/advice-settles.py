#!/usr/bin/env python3
"""Does the advice for an unsure grid settle it?

For every grid the main job reports as `unsure` on the held-out sets, the
advice names cells to check and a `--set` for each. A person applies it by
looking at each named cell and setting what is printed there: this script
does the same with what the truth files say is printed, runs the tool again
with those `--set` values (exactly as printed, targets included), and counts
how the grid comes out:

  solved      solved, or a printed answer grid found complete
  stated      a contradiction stated: no solution, or several
  unsure      unsure again: the advice did not settle it
  error       a correction was refused (its target or cell did not fit)

and how many of the answers then given are wrong (must be 0).

The tool cannot know what is printed; the value each `--set` suggests is the
likeliest reading. The second table applies the advice without looking,
with the suggested values: it settles the grid too, but the answer is only
as right as the guesses, which is why the advice asks to look.

Held-out sets (models/eval/heldout.sh): the newspaper photos test and extra,
the held-out Kubiesa puzzles, the screenshots of seed 2026 and the book pages
of seed 2027 (ours, compose, capture).

Usage, from the repository root after `cargo build --release`:
  scripts/advice-settles.py [--heldout DIR] [--shared DIR] [--bin BIN] [--jobs N]
prints the tables as markdown; `scripts/figures.py accuracy --section advice`
puts them in docs/accuracy.md. --heldout defaults to SNAP_HELDOUT or
target/heldout (made by models/eval/heldout.sh), --shared to SNAP_SHARED or
../shared, --bin to SUDOKU_SNAP or target/release/sudoku-snap. The exit
code is 1 when an answer given after the truth was set is wrong.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KUBIESA_HELD = ["02_19", "02_24", "03_01", "03_05", "03_09"]
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png")
SETTLED = {"solved": "solved", "complete": "solved",
           "no_solution": "stated", "multiple_solutions": "stated"}


def grid_text(path):
    """The 81 characters of a 9-lines-of-9 truth file."""
    return "".join(open(path).read().split()).replace("0", ".")


def photo_set(name, files, truth_of):
    """A set of single-grid photos, each with its printed grid."""
    return {"name": name, "files": sorted(files),
            "truth": {f: [{"box": None, "givens": truth_of(f), "solution": None}]
                      for f in files}}


def book_set(name, folder):
    """Page images with `<stem>.truth.tsv` (one row per grid)."""
    files = sorted(f for f in glob.glob(os.path.join(folder, "*"))
                   if f.lower().endswith(IMAGE_EXTENSIONS))
    truth = {}
    for f in files:
        rows = []
        tsv = os.path.splitext(f)[0] + ".truth.tsv"
        if not os.path.exists(tsv):
            continue
        for line in open(tsv):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            box = [float(v) for v in cols[2].split(",")]
            rows.append({"box": box, "givens": cols[5], "solution": cols[7] or None})
        truth[f] = rows
    return {"name": name, "files": [f for f in files if f in truth], "truth": truth}


def sets(args):
    shared = args.shared
    out = []
    for part in ["test", "extra"]:
        folder = os.path.join(shared, "fixtures", "photos", part)
        files = [f for f in glob.glob(os.path.join(folder, "*.jpg"))
                 if os.path.exists(f[:-4] + ".txt")]
        out.append(photo_set("newspaper " + part, files, lambda f: grid_text(f[:-4] + ".txt")))
    kubiesa = os.path.join(shared, "fixtures", "kubiesa", "train")
    files = [f for f in glob.glob(os.path.join(kubiesa, "*.jpg"))
             if os.path.basename(f)[:5] in KUBIESA_HELD]
    printed = os.path.join(ROOT, "fixtures", "kubiesa-printed")
    out.append(photo_set("kubiesa held-out", files,
                         lambda f: grid_text(os.path.join(printed, os.path.basename(f)[:5] + ".txt"))))
    screens = os.path.join(args.heldout, "screens-2026")
    files = [f for f in glob.glob(os.path.join(screens, "*"))
             if f.lower().endswith(IMAGE_EXTENSIONS)
             and os.path.exists(os.path.splitext(f)[0] + ".txt")]
    out.append(photo_set("screens 2026", files,
                         lambda f: grid_text(os.path.splitext(f)[0] + ".txt")))
    for part in ["ours", "compose", "capture"]:
        out.append(book_set("books 2027 " + part, os.path.join(args.heldout, "books-2027", part)))
    missing = [s["name"] for s in out if not s["files"]]
    if missing:
        message = "no files for " + ", ".join(missing) + " (run models/eval/heldout.sh first?)"
        if os.environ.get("CI") == "true":
            sys.exit(message)
        print("advice-settles: " + message, file=sys.stderr)
    return [s for s in out if s["files"]]


def run(bin_path, args, cwd):
    """The main job's JSON lines for `args`."""
    done = subprocess.run([bin_path, "--json", "--no-image"] + args, cwd=cwd,
                          capture_output=True, text=True)
    lines = []
    for line in done.stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            pass
    return lines


def solutions(bin_path, puzzles):
    """Each puzzle's one solution (None when it has none or several)."""
    if not puzzles:
        return {}
    text = "".join(p + "\n" for p in puzzles)
    done = subprocess.run([bin_path, "solve", "--line"], input=text,
                          capture_output=True, text=True)
    answers = done.stdout.splitlines()
    return {p: (a if re.fullmatch(r"[1-9]{81}", a) else None)
            for p, a in zip(puzzles, answers)}


def truth_for(line, rows):
    """The truth row of a reported grid: the only one, or the box its
    outline's centre lies in."""
    if len(rows) == 1 and rows[0]["box"] is None:
        return rows[0]
    quad = line.get("quad")
    if not quad:
        return None
    cx = sum(p[0] for p in quad) / 4
    cy = sum(p[1] for p in quad) / 4
    inside = [r for r in rows if r["box"][0] <= cx <= r["box"][2] and r["box"][1] <= cy <= r["box"][3]]
    return inside[0] if len(inside) == 1 else None


def cell_index(name):
    r, c = re.fullmatch(r"r(\d+)c(\d+)", name).groups()
    return (int(r) - 1) * 9 + int(c) - 1


def with_value(advice, value):
    """An advice `--set` value (`--set 'a b.jpg:g2:r1c3=5'`) with another value."""
    word = advice[len("--set "):]
    if word.startswith("'") and word.endswith("'"):
        word = word[1:-1].replace("'\\''", "'")
    return word[:word.rindex("=") + 1] + value


def settle(bin_path, sets_, jobs, cwd):
    """Per set, for the truth and for the suggested values: the counts."""
    results = []
    for s in sets_:
        first = run(bin_path, ["--jobs", str(jobs)] + s["files"], cwd)
        grids = [l for l in first if l.get("grid") is not None and l["status"] not in ("no_grid", "error")]
        unsure = [l for l in grids if l["status"] == "unsure"]
        rows = {}
        for line in unsure:
            truth = truth_for(line, s["truth"].get(line["path"], []))
            if truth is not None:
                rows[(line["path"], line["grid"])] = (line, truth)
        need = [t["givens"] for _, t in rows.values() if t["solution"] is None]
        solved = solutions(bin_path, sorted(set(need)))
        counts = {}
        for mode in ["truth", "suggested"]:
            c = {"grids": len(grids), "unsure": len(unsure), "matched": len(rows),
                 "solved": 0, "stated": 0, "unsure_again": 0, "error": 0, "wrong": 0,
                 "same_advice": 0, "not_settled": []}
            by_file = {}
            for (path, grid), (line, truth) in rows.items():
                values = []
                for cell, advice in zip(line["check"], line["set"]):
                    value = truth["givens"][cell_index(cell)] if mode == "truth" else advice.rsplit("=", 1)[1].rstrip("'")
                    values.append(with_value(advice, value))
                by_file.setdefault(path, []).append((grid, values, line, truth))
            for path, items in sorted(by_file.items()):
                argv = [path]
                for _, values, _, _ in items:
                    for v in values:
                        argv += ["--set", v]
                after = {l.get("grid"): l for l in run(bin_path, argv, cwd)}
                failure = after.get(None)
                for grid, _, before, truth in items:
                    line = after.get(grid) or failure or {"status": "error"}
                    status = line["status"]
                    kind = SETTLED.get(status)
                    if kind:
                        c[kind] += 1
                    elif status == "unsure":
                        c["unsure_again"] += 1
                        c["same_advice"] += int(line.get("check") == before["check"])
                        c["not_settled"].append(f"{os.path.basename(path)} grid {grid}")
                    else:
                        c["error"] += 1
                        c["not_settled"].append(f"{os.path.basename(path)} grid {grid}: {line.get('error')}")
                    want = truth["solution"] or solved.get(truth["givens"])
                    if status == "solved" and want and line.get("solution") != want:
                        c["wrong"] += 1
                    if status == "complete" and not line.get("error") and line.get("givens") != truth["givens"]:
                        c["wrong"] += 1
            counts[mode] = c
        results.append((s["name"], counts))
    return results


def table(results, mode):
    head = ("| set | grids | unsure | with truth | solved | stated | unsure again "
            "| refused | wrong answers |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    body = ""
    total = {k: 0 for k in ["grids", "unsure", "matched", "solved", "stated", "unsure_again", "error", "wrong"]}
    for name, counts in results:
        c = counts[mode]
        for k in total:
            total[k] += c[k]
        body += (f"| {name} | {c['grids']} | {c['unsure']} | {c['matched']} | {c['solved']} "
                 f"| {c['stated']} | {c['unsure_again']} | {c['error']} | {c['wrong']} |\n")
    t = total
    body += (f"| **all** | {t['grids']} | {t['unsure']} | {t['matched']} | {t['solved']} "
             f"| {t['stated']} | {t['unsure_again']} | {t['error']} | {t['wrong']} |\n")
    return head + body, total


def section(results):
    """The tables and what they say, as markdown."""
    truth_table, t = table(results, "truth")
    blind_table, b = table(results, "suggested")
    settled = t["solved"] + t["stated"]
    not_settled = [n for _, c in results for n in c["truth"]["not_settled"]]
    lines = [
        "For each grid reported `unsure` on the held-out sets, every cell the advice names is set",
        "to what is printed there (the truth files), with the `--set` values as the tool printed",
        "them (their targets included), and the tool is run again. The advice names every cell",
        "whose reading could change the answer, so once those are known the grid settles: solved",
        "(or a printed answer grid found complete), or a contradiction stated (no solution,",
        f"several). **{settled} of {t['matched']} unsure grids settle** ({t['unsure_again']} unsure again,",
        f"{t['error']} corrections refused), with **{t['wrong']} wrong answers**.",
        "",
        truth_table,
        "Applying the advice means looking at each named cell and setting what it shows: the value",
        "each suggested `--set` carries is only the likeliest reading. Applied as printed, without",
        f"looking, {b['solved'] + b['stated']} of {b['matched']} settle too, and {b['wrong']} of the answers then",
        "given are wrong: a guess set by hand is taken as certain.",
        "",
        blind_table.rstrip("\n"),
    ]
    if not_settled:
        lines += ["", "Not settled: " + ", ".join(not_settled) + "."]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--heldout", default=os.environ.get("SNAP_HELDOUT", os.path.join(ROOT, "target", "heldout")))
    p.add_argument("--shared", default=os.environ.get("SNAP_SHARED", os.path.join(ROOT, "..", "shared")))
    p.add_argument("--bin", default=os.environ.get("SUDOKU_SNAP", os.path.join(ROOT, "target", "release", "sudoku-snap")))
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    if not os.path.isdir(args.shared):
        message = f"{args.shared}: the shared fixtures are not there"
        if os.environ.get("CI") == "true":
            sys.exit(message)
        print("advice-settles: " + message + "; only the held-out sets are read", file=sys.stderr)
    with tempfile.TemporaryDirectory() as cwd:
        results = settle(os.path.abspath(args.bin), sets(args), args.jobs, cwd)
    print(section(results), end="")
    if sum(c["truth"]["wrong"] for _, c in results) > 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
