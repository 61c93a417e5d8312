//! The vision stages on the committed fixture photos: decode, locate
//! against the dataset's hand-marked corners, rectify and tile.

use std::path::Path;

use snap_vision::{cells, corner_error, decode, locate, rectify, Quad};

/// `(file, tl, tr, br, bl)` from the dataset's `corners.csv`. The marked
/// corners sit 2-6 px outside the printed border (hand clicks), so the
/// tolerance below is loose; `sudoku-snap eval` measures the rest.
const CASES: [(&str, [(f32, f32); 4]); 4] = [
    (
        "image18.jpg",
        [(133.0, 27.0), (574.0, 35.0), (579.0, 478.0), (122.0, 477.0)],
    ),
    (
        "image31.jpg",
        [(116.0, 38.0), (585.0, 44.0), (601.0, 440.0), (110.0, 446.0)],
    ),
    (
        "image166.jpg",
        [(92.0, 13.0), (537.0, 17.0), (539.0, 463.0), (85.0, 465.0)],
    ),
    (
        "image1024.jpg",
        [
            (86.0, 361.0),
            (841.0, 374.0),
            (849.0, 1106.0),
            (101.0, 1113.0),
        ],
    ),
];

fn load(name: &str) -> decode::Decoded {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    decode::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn fixtures_are_located_near_the_marked_corners() {
    for (name, truth) in CASES {
        let d = load(name);
        let found = locate::locate(&d.gray).unwrap_or_else(|| panic!("{name}: no grid"));
        let err = corner_error(&found, &Quad::new(truth));
        // 12 px at 640x480 / 960x1280: marking offset plus curl.
        assert!(
            err < 12.0,
            "{name}: corner error {err:.1} px, found {found:?}"
        );
    }
}

#[test]
fn stale_exif_tag_is_reported_not_applied() {
    let d = load("image1024.jpg");
    assert_eq!(d.exif_orientation, 6);
    // Stored pixels stay as stored: portrait 960x1280.
    assert_eq!(d.gray.dimensions(), (960, 1280));
}

#[test]
fn tiles_of_a_fixture_separate_clues_from_empty_cells() {
    let d = load("image18.jpg");
    let truth = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/image18.txt"),
    )
    .expect("truth");
    let labels: Vec<char> = truth.lines().flat_map(|l| l.trim().chars()).collect();
    assert_eq!(labels.len(), 81);
    let quad = locate::locate(&d.gray).expect("grid");
    let rect = rectify::rectify(&d.gray, &quad).expect("rectify");
    assert_eq!(rect.image.dimensions(), (432, 432));
    let c = cells::extract_cells(&rect.image);
    // Ink in the tile centre alone already splits this photo's cells
    // (grid-line remnants live at the tile edges).
    let centre = |t: &cells::Tile| {
        let mut s = 0.0;
        for y in 7..21 {
            for x in 7..21 {
                s += t.pixels[y * cells::TILE + x];
            }
        }
        s / 196.0
    };
    let (mut empty_max, mut clue_min) = (0.0f32, 1.0f32);
    for (i, l) in labels.iter().enumerate() {
        let v = centre(&c.tiles[i]);
        if *l == '.' {
            empty_max = empty_max.max(v);
        } else {
            clue_min = clue_min.min(v);
        }
    }
    assert!(
        empty_max < clue_min,
        "empty up to {empty_max}, clues from {clue_min}"
    );
}
