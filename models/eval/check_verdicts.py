#!/usr/bin/env python3
"""Measures `--check` on photos of worked puzzles whose truth is known: how
many right entries it calls wrong (the target is none), how many truly
wrong entries it calls wrong (recall) or names to check, and how many pen
entries get a digit drawn over them, and how many blank cells get none.

Each photo `<name>.jpg` has a truth `<name>.truth.json`:
  {"puzzle": 81 chars, the printed clues ('.' empty),
   "written": 81 chars, the digit written in pen in each cell ('.' none),
   "faint": [cells whose pen entry is faint]}   (optional)
`kubiesa` makes these for the Kubiesa photos (labels and printed clues);
models/eval/pen_photos.py writes them beside its photos.

    models/eval/check_verdicts.py kubiesa train|held [--dump cal.tsv]
    models/eval/check_verdicts.py DIR [--dump cal.tsv] [--json]

Entries are counted on the photos solved right (elsewhere nothing is
checked). `--dump` writes one row per empty cell of the printed puzzle of
those photos, for calibration: photo, cell, truth (`right`, `wrong`
entry, `empty`), the entry's p_wrong (the probability of a pen digit
other than the solution's; empty when not read as an entry) and whether
it was written faintly.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HELD = {"02_19", "02_24", "03_01", "03_05", "03_09"}


def solve(puzzle):
    """The unique solution of a 9x9 (backtracking, fewest candidates first)."""
    cells = [int(c) if c.isdigit() else 0 for c in puzzle]
    peers = [set() for _ in range(81)]
    for i in range(81):
        r, c = divmod(i, 9)
        for j in range(81):
            rr, cc = divmod(j, 9)
            if j != i and (rr == r or cc == c or (rr // 3 == r // 3 and cc // 3 == c // 3)):
                peers[i].add(j)
    found = []

    def go():
        best, options = None, None
        for i in range(81):
            if cells[i] == 0:
                opts = set(range(1, 10)) - {cells[j] for j in peers[i]}
                if best is None or len(opts) < len(options):
                    best, options = i, opts
                    if not opts:
                        return
        if best is None:
            found.append("".join(map(str, cells)))
            return
        for d in sorted(options):
            cells[best] = d
            go()
            cells[best] = 0
            if len(found) > 1:
                return

    go()
    if len(found) != 1:
        raise SystemExit(f"puzzle {puzzle}: {len(found)} solutions")
    return found[0]


def kubiesa(split, into):
    """Links the Kubiesa photos of `split` into `into` with their truth."""
    shared = os.environ.get("SNAP_SHARED", os.path.join(ROOT, "..", "shared"))
    photos = os.path.join(shared, "fixtures", "kubiesa", "train")
    if not os.path.isdir(photos):
        if os.environ.get("CI") == "true":
            raise SystemExit(f"{photos}: absent (CI)")
        raise SystemExit(f"{photos}: absent; the Kubiesa photos live in ../shared")
    for f in sorted(os.listdir(photos)):
        if not f.endswith(".jpg"):
            continue
        name = f[:-4]
        if (name[:5] in HELD) != (split == "held"):
            continue
        label = "".join(open(os.path.join(photos, name + ".txt")).read().split())
        printed = "".join(open(os.path.join(ROOT, "fixtures", "kubiesa-printed",
                                            name[:5] + ".txt")).read().split())
        written = "".join(l if p == "." and l.isdigit() else "." for l, p in zip(label, printed))
        os.symlink(os.path.join(photos, f), os.path.join(into, f))
        with open(os.path.join(into, name + ".truth.json"), "w") as out:
            json.dump({"puzzle": printed, "written": written}, out)


def cell_index(name):
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    dump = None
    if "--dump" in args:
        k = args.index("--dump")
        dump = args[k + 1]
        del args[k:k + 2]
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    tmp = tempfile.TemporaryDirectory()
    if args[0] == "kubiesa":
        folder = tmp.name
        kubiesa(args[1], folder)
    else:
        folder = args[0]
    names = sorted(f[:-11] for f in os.listdir(folder) if f.endswith(".truth.json"))
    bin_ = os.environ.get("SUDOKU_SNAP", os.path.join(ROOT, "target", "release", "sudoku-snap"))
    photos = [os.path.join(folder, n + ".jpg") for n in names]
    run = subprocess.run([bin_, "--check", "--json", "--no-image", *photos],
                         capture_output=True, text=True)
    reports = {}
    for line in run.stdout.splitlines():
        v = json.loads(line)
        name = os.path.basename(v["path"])[:-4]
        reports.setdefault(name, v)  # one grid per photo here
    t = dict(photos=0, solved=0, wrong_answers=0, entries=0, right=0, truly_wrong=0,
             false_wrong=0, caught=0, wrong_named_to_check=0, right_named_to_check=0,
             drawn_over=0, faint=0, faint_drawn_over=0, empty=0, empty_undrawn=0)
    rows = []
    bad = []
    for n in names:
        truth = json.load(open(os.path.join(folder, n + ".truth.json")))
        solution = solve(truth["puzzle"])
        written = truth["written"]
        faint = set(truth.get("faint", []))
        t["photos"] += 1
        v = reports.get(n)
        pen_cells = [i for i in range(81) if written[i] != "."]
        wrong_cells = {i for i in pen_cells if written[i] != solution[i]}
        if v is None or v.get("status") != "solved":
            continue
        if v.get("solution") != solution:
            t["wrong_answers"] += 1
            bad.append(f"{n}: wrong answer")
            continue
        t["entries"] += len(pen_cells)
        t["truly_wrong"] += len(wrong_cells)
        t["right"] += len(pen_cells) - len(wrong_cells)
        t["faint"] += len(faint)
        t["solved"] += 1
        photo = v.get("photo", v)
        entries = {cell_index(e["cell"]): e for e in photo.get("entries", [])}
        check = {cell_index(c) for c in photo.get("check", [])}
        for i, e in entries.items():
            if e.get("correct") is False and i not in wrong_cells:
                t["false_wrong"] += 1
                bad.append(f"{n}: {e['cell']} called wrong ({e['digit']}; written "
                           f"{written[i]}, solution {solution[i]}, p_wrong {e.get('p_wrong')})")
        for i in wrong_cells:
            e = entries.get(i)
            if e is not None and e.get("correct") is False:
                t["caught"] += 1
            elif i in check:
                t["wrong_named_to_check"] += 1
        for i in pen_cells:
            if i not in wrong_cells and i in check and i in entries \
                    and entries[i].get("correct") is not False:
                t["right_named_to_check"] += 1
            # A pen entry read as a printed clue is not drawn over.
            given = v.get("givens") or "." * 81
            drawn = i not in entries and i not in check and given[i] in ".0"
            if drawn:
                t["drawn_over"] += 1
                t["faint_drawn_over"] += i in faint
                bad.append(f"{n}: r{i // 9 + 1}c{i % 9 + 1} pen {written[i]} drawn over")
        for i in range(81):
            if truth["puzzle"][i] != ".":
                continue
            if written[i] == ".":
                # A blank cell is drawn unless it is read as an entry or
                # named to check (ink seen in it).
                t["empty"] += 1
                if i in entries or i in check:
                    t["empty_undrawn"] += 1
                    bad.append(f"{n}: blank r{i // 9 + 1}c{i % 9 + 1} left undrawn")
            kind = "empty" if written[i] == "." else ("wrong" if i in wrong_cells else "right")
            e = entries.get(i)
            rows.append((n, i, kind, "" if e is None else e.get("p_wrong", ""),
                         int(i in faint)))
    if dump:
        with open(dump, "w") as out:
            out.write("photo\tcell\ttruth\tp_wrong\tfaint\n")
            for r in rows:
                out.write("\t".join(map(str, r)) + "\n")
    if as_json:
        print(json.dumps(t))
    else:
        for line in bad:
            print(line)
        recall = t["caught"] / t["truly_wrong"] if t["truly_wrong"] else float("nan")
        print(f"{t['photos']} photos, {t['solved']} solved right, {t['wrong_answers']} wrong "
              f"answers; on those solved, {t['entries']} pen entries ({t['truly_wrong']} truly "
              f"wrong, {t['faint']} faint)")
        print(f"false wrong verdicts: {t['false_wrong']}; wrong entries caught: "
              f"{t['caught']}/{t['truly_wrong']} (recall {recall:.2f}), named to check: "
              f"{t['wrong_named_to_check']}; right entries named to check: "
              f"{t['right_named_to_check']}; pen entries drawn over: {t['drawn_over']} "
              f"(faint {t['faint_drawn_over']}); blank cells left undrawn: {t['empty_undrawn']} "
              f"of {t['empty']}")


if __name__ == "__main__":
    main()
