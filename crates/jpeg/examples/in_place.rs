//! Counts, over JPEG photos, how many an answer can be made of in place:
//! each photo gets a digit-sized blue square drawn in every cell of a 9x9
//! grid over its middle, and the answer is checked to decode as the photo
//! outside the drawn MCUs.
//!
//! `cargo run --release -p snap-jpeg --example in_place -- PHOTO_OR_FOLDER...`

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use snap_jpeg::{Area, Orientation, Photo};

fn photos(paths: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        let p = Path::new(p);
        if p.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            inner.retain(|f| {
                f.extension().is_some_and(|e| {
                    e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg")
                })
            });
            inner.sort();
            out.extend(inner);
        } else {
            out.push(p.to_path_buf());
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut ms = Vec::new();
    for path in photos(&args) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let start = Instant::now();
        let outcome = (|| {
            let photo = Photo::open(bytes.as_slice().into())?;
            let (w, h) = photo.dimensions();
            let side = w.min(h) * 2 / 3;
            let (x0, y0, cell) = ((w - side) / 2, (h - side) / 2, side / 9);
            let areas: Vec<Area> = (0..81)
                .map(|k| {
                    let (cx, cy) = (x0 + (k % 9) * cell, y0 + (k / 9) * cell);
                    Area {
                        x0: cx + cell / 3,
                        y0: cy + cell / 4,
                        x1: cx + 2 * cell / 3,
                        y1: cy + 3 * cell / 4,
                    }
                })
                .collect();
            let drawn = photo.draw(&areas, |image, (ox, oy)| {
                for a in &areas {
                    let (w, h) = (ox + image.width(), oy + image.height());
                    for y in a.y0.max(oy)..a.y1.min(h) {
                        for x in a.x0.max(ox)..a.x1.min(w) {
                            image.put_pixel(x - ox, y - oy, image::Rgb([30, 80, 220]));
                        }
                    }
                }
            })?;
            let answer = photo.answer(&drawn, Orientation::Keep)?;
            Ok::<_, snap_jpeg::Unsupported>((answer, areas))
        })();
        ms.push(start.elapsed().as_secs_f64() * 1000.0);
        let key = match outcome {
            Ok((answer, areas)) => match (
                image::load_from_memory(&bytes),
                image::load_from_memory(&answer),
            ) {
                (Ok(a), Ok(b)) => {
                    let (a, b) = (a.to_rgb8(), b.to_rgb8());
                    let near = |x: u32, y: u32| {
                        areas.iter().any(|r| {
                            x + 32 >= r.x0 && x < r.x1 + 32 && y + 32 >= r.y0 && y < r.y1 + 32
                        })
                    };
                    let differ = a
                        .enumerate_pixels()
                        .filter(|&(x, y, p)| !near(x, y) && p != b.get_pixel(x, y))
                        .count();
                    if differ == 0 {
                        "in place".to_string()
                    } else {
                        format!("WRONG: {differ} pixels")
                    }
                }
                _ => "WRONG: does not decode".to_string(),
            },
            Err(e) => format!("whole: {e}"),
        };
        if key.starts_with("WRONG") || key.starts_with("whole") {
            eprintln!("{}: {key}", path.display());
        }
        *outcomes.entry(key).or_default() += 1;
    }
    ms.sort_by(f64::total_cmp);
    for (k, n) in &outcomes {
        println!("{n:5}  {k}");
    }
    if !ms.is_empty() {
        println!(
            "median {:.1} ms per photo (open, draw, answer)",
            ms[ms.len() / 2]
        );
    }
}
