//! Measures the vision stages over the photo fixtures.
//!
//! ```text
//! cargo run --release --example vision_check -- [PHOTOS_DIR] [--only NAME]
//!     [--debug DIR] [--tiles DIR] [--upscale N]
//! ```
//!
//! For each split (train, test, extra) prints how many grids were located,
//! median / p95 / max corner error against `corners.csv`, the worst files
//! and the median time per stage. `--debug DIR` writes the debug images of
//! every photo into `DIR/<split>_<name>/`; `--tiles DIR` writes each cell's
//! 28x28 tile as `DIR/<split>/<name>_r<r>c<c>_<label>.png` (label from the
//! photo's `.txt`, `0` for empty) for training the digit model;
//! `--upscale N` enlarges every photo N times first (timing 12 MP inputs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sudoku_snap::vision::{cells, corner_error, decode, locate, rectify, Quad};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut root = PathBuf::from("/work/shared/fixtures/photos");
    let mut only: Option<String> = None;
    let mut debug: Option<PathBuf> = None;
    let mut tiles: Option<PathBuf> = None;
    let mut upscale = 1u32;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--only" => only = args.next(),
            "--debug" => debug = args.next().map(PathBuf::from),
            "--tiles" => tiles = args.next().map(PathBuf::from),
            "--upscale" => upscale = args.next().and_then(|s| s.parse().ok()).unwrap_or(1),
            _ => root = PathBuf::from(a),
        }
    }
    let truth = read_corners(&root.join("corners.csv"));
    for split in ["train", "test", "extra"] {
        let dir = root.join(split);
        let Ok(rd) = std::fs::read_dir(&dir) else {
            println!("{split}: cannot read {}", dir.display());
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jpg"))
            .collect();
        files.sort();
        let mut errs: Vec<(f32, String)> = Vec::new();
        let mut missed: Vec<String> = Vec::new();
        let mut times: [Vec<f64>; 4] = Default::default();
        let mut located = 0;
        for f in &files {
            let name = f
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("?")
                .to_string();
            if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
                continue;
            }
            let Ok(bytes) = std::fs::read(f) else {
                continue;
            };
            let t0 = Instant::now();
            let dec = match decode::decode(&bytes) {
                Ok(d) => d,
                Err(e) => {
                    println!("{name}: decode error {e}");
                    continue;
                }
            };
            let mut gray = dec.gray;
            if upscale > 1 {
                gray = image::imageops::resize(
                    &gray,
                    gray.width() * upscale,
                    gray.height() * upscale,
                    image::imageops::FilterType::Triangle,
                );
            }
            let t1 = Instant::now();
            let (found, dbg) = locate::locate_detailed(&gray);
            let t2 = Instant::now();
            let key = format!("{split}/{name}.jpg");
            if std::env::var("SCORES").is_ok() {
                if let Some(t) = truth.get(&key) {
                    for (q, sc) in &dbg.candidates {
                        let e = corner_error(&q.scaled(dbg.scale), t);
                        println!(
                            "SCORE {} {sc:.3} {name}",
                            if e < 25.0 { "TRUE" } else { "FALSE" }
                        );
                    }
                }
            }
            if let Some(d) = &debug {
                let dd = d.join(format!("{split}_{name}"));
                let _ = std::fs::create_dir_all(&dd);
                let _ = dbg.draw().save(dd.join("candidates.png"));
            }
            if only.is_some() {
                for (q, sc) in &dbg.candidates {
                    println!("{name}: candidate score {sc:.3} {:?}", q.corners);
                }
            }
            let Some(found) = found else {
                missed.push(name.clone());
                if let Some(d) = &debug {
                    let _ = cells::write_debug_images(
                        &d.join(format!("{split}_{name}")),
                        Some(&dbg.binary),
                        Some((&dbg.work, None)),
                        None,
                        None,
                    );
                }
                times[0].push((t1 - t0).as_secs_f64() * 1e3);
                times[1].push((t2 - t1).as_secs_f64() * 1e3);
                continue;
            };
            located += 1;
            let rect = rectify::rectify(&gray, &found.quad);
            let t3 = Instant::now();
            let cl = rect.as_ref().map(|r| cells::extract_cells(&r.image));
            let t4 = Instant::now();
            times[0].push((t1 - t0).as_secs_f64() * 1e3);
            times[1].push((t2 - t1).as_secs_f64() * 1e3);
            times[2].push((t3 - t2).as_secs_f64() * 1e3);
            times[3].push((t4 - t3).as_secs_f64() * 1e3);
            if let Some(t) = truth.get(&key) {
                let t = t.scaled(upscale as f32);
                let e = corner_error(&found.quad, &t) / upscale as f32;
                let ec = corner_error(&found.coarse, &t) / upscale as f32;
                if only.is_some() {
                    let d: Vec<String> = (0..4)
                        .map(|i| {
                            let (a, b) = (found.quad.corners[i], t.corners[i]);
                            format!("({:+.1},{:+.1})", a.0 - b.0, a.1 - b.1)
                        })
                        .collect();
                    println!("{name}: found-truth tl,tr,br,bl {}", d.join(" "));
                    if let Some(dd) = &debug {
                        save_corner_crops(
                            &dd.join(format!("{split}_{name}")),
                            &gray,
                            &found.quad,
                            &t,
                        );
                    }
                }
                errs.push((
                    e,
                    format!("{name} (coarse {ec:.1}, score {:.2})", found.score),
                ));
            }
            if let Some(d) = &debug {
                let _ = cells::write_debug_images(
                    &d.join(format!("{split}_{name}")),
                    Some(&dbg.binary),
                    Some((&gray, Some(&found.quad))),
                    rect.as_ref().map(|r| &r.image),
                    cl.as_ref(),
                );
            }
            if let (Some(td), Some(cl)) = (&tiles, &cl) {
                dump_tiles(td, split, &name, &f.with_extension("txt"), cl);
            }
        }
        errs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let n = errs.len();
        let q = |p: f64| {
            if n == 0 {
                f32::NAN
            } else {
                errs[((n as f64 - 1.0) * p).round() as usize].0
            }
        };
        let total = located + missed.len();
        println!(
            "{split}: located {located}/{total}; corner error (max of 4, px) median {:.2} p95 {:.2} max {:.2}",
            q(0.5),
            q(0.95),
            q(1.0)
        );
        if !missed.is_empty() {
            println!("  missed: {}", missed.join(" "));
        }
        for (e, s) in errs.iter().rev().take(6) {
            println!("  worst: {e:6.2} {s}");
        }
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            if v.is_empty() {
                f64::NAN
            } else {
                v[v.len() / 2]
            }
        };
        let [a, b, c, d] = &mut times;
        println!(
            "  median ms: decode {:.2} locate {:.2} rectify {:.2} cells {:.2}",
            med(a),
            med(b),
            med(c),
            med(d)
        );
    }
}

fn read_corners(p: &Path) -> HashMap<String, Quad> {
    let mut m = HashMap::new();
    let Ok(s) = std::fs::read_to_string(p) else {
        return m;
    };
    for line in s.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 9 {
            continue;
        }
        let v: Vec<f32> = f[1..]
            .iter()
            .filter_map(|x| x.trim().parse().ok())
            .collect();
        if v.len() == 8 {
            m.insert(
                f[0].to_string(),
                Quad::new([(v[0], v[1]), (v[2], v[3]), (v[4], v[5]), (v[6], v[7])]),
            );
        }
    }
    m
}

fn dump_tiles(dir: &Path, split: &str, name: &str, txt: &Path, cl: &cells::Cells) {
    let Ok(s) = std::fs::read_to_string(txt) else {
        return;
    };
    let labels: Vec<char> = s.lines().flat_map(|l| l.trim().chars()).collect();
    if labels.len() != 81 {
        return;
    }
    let out = dir.join(split);
    if std::fs::create_dir_all(&out).is_err() {
        return;
    }
    for (i, t) in cl.tiles.iter().enumerate() {
        let l = if labels[i] == '.' { '0' } else { labels[i] };
        let p = out.join(format!("{name}_r{}c{}_{l}.png", i / 9, i % 9));
        let _ = cells::save_tile_png(t, &p);
    }
}

/// 4x crops around each true corner: photo gray, truth in blue, found in red.
fn save_corner_crops(dir: &Path, gray: &image::GrayImage, found: &Quad, truth: &Quad) {
    let _ = std::fs::create_dir_all(dir);
    let r = 12i64;
    let z = 8i64;
    for k in 0..4 {
        let (tx, ty) = truth.corners[k];
        let mut img = image::RgbImage::new((2 * r * z) as u32, (2 * r * z) as u32);
        for y in 0..2 * r * z {
            for x in 0..2 * r * z {
                let sx = tx as i64 - r + x / z;
                let sy = ty as i64 - r + y / z;
                let g = if sx >= 0
                    && sy >= 0
                    && (sx as u32) < gray.width()
                    && (sy as u32) < gray.height()
                {
                    gray.get_pixel(sx as u32, sy as u32)[0]
                } else {
                    0
                };
                img.put_pixel(x as u32, y as u32, image::Rgb([g, g, g]));
            }
        }
        let mut mark = |p: (f32, f32), c: [u8; 3]| {
            let cx = ((p.0 - tx + r as f32) * z as f32) as i64;
            let cy = ((p.1 - ty + r as f32) * z as f32) as i64;
            for dy in -2..=2 {
                for dx in -2..=2 {
                    let (x, y) = (cx + dx, cy + dy);
                    if x >= 0 && y >= 0 && x < 2 * r * z && y < 2 * r * z {
                        img.put_pixel(x as u32, y as u32, image::Rgb(c));
                    }
                }
            }
        };
        // Truth integer coordinates taken as pixel centres (+0.5).
        mark((tx + 0.5, ty + 0.5), [0, 0, 255]);
        mark(found.corners[k], [255, 0, 0]);
        let _ = img.save(dir.join(format!("corner{k}.png")));
    }
}
