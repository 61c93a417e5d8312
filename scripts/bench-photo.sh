#!/usr/bin/env bash
# Times sudoku-snap on 12 MP phone photos against libjpeg-turbo's `djpeg`
# decoding the same file, as whole processes (model loading included).
#
# Per photo the three commands run alternately (A B C A B C ...), REPEATS
# times each, so a machine loaded by other jobs slows all three alike and the
# ratios stay fair:
#   djpeg   `djpeg -outfile /dev/null photo.jpg` (full colour decode)
#   read    `sudoku-snap --json --no-image photo.jpg`
#   answer  `sudoku-snap --json --out-dir TMP --force photo.jpg` (the whole
#           job, the answer written as JPEG like the photo)
# It prints per photo the median wall time of each and the ratios to djpeg,
# then the medians over the photos (ratios: the median of the per-photo
# ratios), and the per-stage split (the JSON `ms` medians). Each time is
# given as wall time and as CPU time (user + system): with other jobs on the
# machine the CPU time is the steadier of the two. The small photo fixtures/image18.jpg is timed the same way.
#
# Usage, from anywhere, after `cargo build --release`:
#   scripts/bench-photo.sh [PHOTOS] [REPEATS]      # defaults: 8 photos, 7 repeats
# PHOTOS is a count (that many, spread evenly over the set) or `held-out`:
# the photos of the five puzzles the digit model never saw.
# Environment: SUDOKU_SNAP (binary; default target/release/sudoku-snap),
# SUDOKU_KUBIESA (folder holding train/*.jpg; default $SNAP_SHARED/fixtures/kubiesa,
# SNAP_SHARED defaulting to ../shared).
# djpeg is the Debian package libjpeg-turbo-progs; it is only the reference.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
photos=${1:-8}
repeats=${2:-7}
bin=${SUDOKU_SNAP:-$root/target/release/sudoku-snap}
kubiesa=${SUDOKU_KUBIESA:-${SNAP_SHARED:-$root/../shared}/fixtures/kubiesa}
if ! command -v djpeg >/dev/null; then
    echo "bench-photo: djpeg not found (apt-get install libjpeg-turbo-progs)" >&2
    exit 2
fi
if [[ ! -x "$bin" ]]; then
    echo "bench-photo: $bin is not there; run cargo build --release" >&2
    exit 2
fi
if [[ ! -d "$kubiesa/train" ]]; then
    echo "bench-photo: $kubiesa/train is not there; it holds the 12 MP photos" >&2
    exit 2
fi
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1)," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$bin" "$kubiesa/train" "$root/fixtures/image18.jpg" "$photos" "$repeats" \
    "$root/models/train/kubiesa.py" <<'PY'
import ast, json, re, resource, statistics, subprocess, sys, tempfile, time
from pathlib import Path

binary, folder, small, count, repeats, training = sys.argv[1:7]
repeats = int(repeats)
every = sorted(Path(folder).glob("*.jpg"))
if count == "held-out":
    # The training's own list, read as text: importing the module needs the
    # training's packages.
    held_out = ast.literal_eval(
        re.search(r"^HELD_OUT = (\(.*\))$", Path(training).read_text(), re.M).group(1))
    chosen = [p for p in every if p.name[:5] in held_out]
else:
    # Every tenth photo: several puzzles and both phones, not one puzzle's shots.
    count = int(count)
    chosen = every[:: max(1, len(every) // count)][:count]
STAGES = ["decode", "locate", "rectify", "cells", "classify", "solve", "overlay", "encode"]
out_dir = tempfile.mkdtemp(prefix="bench-photo-")


def cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def run(cmd):
    """Wall and CPU time of one run in ms, and the JSON `ms` of its first line."""
    start, cpu = time.perf_counter(), cpu_ms()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ms = (time.perf_counter() - start) * 1000
    # 1 says a grid was left unsure or partial: a real photo's outcome, timed
    # like any other; anything else is a failure.
    if done.returncode not in (0, 1):
        raise subprocess.CalledProcessError(done.returncode, cmd)
    line = done.stdout.split(b"\n", 1)[0]
    split = json.loads(line).get("ms", {}) if line.startswith(b"{") else {}
    return ms, cpu_ms() - cpu, split


def bench(photo):
    cmds = {
        "djpeg": ["djpeg", "-outfile", "/dev/null", str(photo)],
        "read": [binary, "--json", "--no-image", str(photo)],
        "answer": [binary, "--json", "--out-dir", out_dir, "--force", str(photo)],
    }
    wall = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    stages = {k: {} for k in cmds}
    for _ in range(repeats):
        for k, cmd in cmds.items():
            ms, used, split = run(cmd)
            wall[k].append(ms)
            cpu[k].append(used)
            for s, v in split.items():
                stages[k].setdefault(s, []).append(v)
    med = {k: statistics.median(v) for k, v in wall.items()}
    med.update({"cpu " + k: statistics.median(v) for k, v in cpu.items()})
    split = {k: {s: statistics.median(v) for s, v in d.items()} for k, d in stages.items()}
    return med, split


def show_split(split):
    return " ".join(f"{s} {split[s]:.1f}" for s in STAGES if s in split)


print(f"{len(chosen)} photos, {repeats} runs each of djpeg / read / answer, alternated")
print("wall = elapsed time, cpu = user + system time of the process (steadier on a loaded machine)")
print(f"{'photo':32} {'':4} {'djpeg':>7} {'read':>7} {'x':>5} {'answer':>7} {'x':>5}  (ms, medians)")
rows = []
m = lambda xs: statistics.median(xs)


def line(name, kind, med):
    d = med[kind + "djpeg"]
    r, a = med[kind + "read"], med[kind + "answer"]
    print(f"{name:32} {kind or 'wall':4} {d:7.1f} {r:7.1f} {r / d:5.2f} {a:7.1f} {a / d:5.2f}")


for photo in chosen:
    med, split = bench(photo)
    rows.append((med, split))
    line(photo.name, "", med)
    line("", "cpu ", med)
    print(f"    read:   {show_split(split['read'])}")
    print(f"    answer: {show_split(split['answer'])}")
for kind in ["", "cpu "]:
    ratios = {
        k: m([x[0][kind + k] / x[0][kind + "djpeg"] for x in rows]) for k in ["read", "answer"]
    }
    d = m([x[0][kind + "djpeg"] for x in rows])
    print(
        f"{'median over photos':32} {kind or 'wall':4} {d:7.1f}"
        f" {m([x[0][kind + 'read'] for x in rows]):7.1f} {ratios['read']:5.2f}"
        f" {m([x[0][kind + 'answer'] for x in rows]):7.1f} {ratios['answer']:5.2f}"
    )
for kind in ["read", "answer"]:
    stage_med = {}
    for s in STAGES:
        vals = [x[1][kind][s] for x in rows if s in x[1][kind]]
        if vals:
            stage_med[s] = m(vals)
    print(f"  stages ({kind}, median over photos): {show_split(stage_med)}")
med, split = bench(Path(small))
line(f"small photo {Path(small).name}", "", med)
line("", "cpu ", med)
print(f"    read:   {show_split(split['read'])}")
print(f"    answer: {show_split(split['answer'])}")
PY
