"""The shared photos held out by puzzle, for the scripts that measure on
them (tight_crops.py, transformed_photos.py): the newspaper photos of
photos/test and photos/extra whose puzzle is in no training photo (by
`manifest.tsv`), and the Kubiesa phone photos of the five puzzles held out
of training (as models/eval/kubiesa.sh holds them out; their truth is the
printed clues, fixtures/kubiesa-printed)."""

import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# The Kubiesa puzzles held out of training (models/eval/kubiesa.sh).
KUBIESA_HELD = ["02_19", "02_24", "03_01", "03_05", "03_09"]


def newspaper(shared):
    """The held-out newspaper photos (JPEG paths; the truth beside each)."""
    fixtures = shared / "fixtures" / "photos"
    rows = list(csv.DictReader(open(fixtures / "manifest.tsv"), delimiter="\t"))
    trained = {r["puzzle"] for r in rows if r["split"] == "train"}
    return [fixtures / r["file"] for r in rows
            if r["split"] != "train" and r["puzzle"] not in trained]


def kubiesa(shared):
    """The held-out Kubiesa photos, each with its printed clues' file."""
    photos = sorted((shared / "fixtures" / "kubiesa" / "train").glob("*.jpg"))
    return [(jpg, ROOT / "fixtures" / "kubiesa-printed" / f"{jpg.name[:5]}.txt")
            for jpg in photos if jpg.name[:5] in KUBIESA_HELD]
