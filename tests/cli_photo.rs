//! The photo half of the command line on the fixture photos, run as a user
//! would: the real binary, real files, exit codes.

mod common;

use std::path::{Path, PathBuf};

use common::{fixture, json_lines, p, quad_corners, run_in, scratch};
use image::{GrayImage, Luma, RgbImage};
use snap_vision::{Homography, Quad};

const FIXTURES: [&str; 4] = ["image18", "image31", "image166", "image1024"];

fn truth(stem: &str) -> String {
    let text = std::fs::read_to_string(fixture(&format!("{stem}.txt"))).unwrap();
    text.lines().map(str::trim).collect()
}

#[test]
fn fixture_photos_read_exactly() {
    let paths: Vec<PathBuf> = FIXTURES
        .iter()
        .map(|s| fixture(&format!("{s}.jpg")))
        .collect();
    let mut args = vec!["read", "--json"];
    args.extend(paths.iter().map(|x| p(x)));
    let out = run_in(&args, Path::new("."));
    let objects = json_lines(&out);
    assert_eq!(objects.len(), FIXTURES.len());
    for (stem, v) in FIXTURES.iter().zip(&objects) {
        assert_eq!(v["givens"].as_str(), Some(truth(stem).as_str()), "{stem}");
        assert_eq!(v["status"], "solved", "{stem}");
    }
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_app_screen_is_read_whole_not_a_row_short() {
    // fixtures/screen-dark-row-short.jpg: a dark app screen (drawn by
    // models/eval/screenshots.py) whose grid passed the first search with
    // a comb seven rows tall inside its outline: read that way, the cells
    // would straddle rows and the puzzle be unsure. The closer look at a
    // hull that a passing comb leaves part empty finds all nine rows.
    let stem = "screen-dark-row-short";
    let out = run_in(
        &["--json", "--no-image", p(&fixture(&format!("{stem}.jpg")))],
        Path::new("."),
    );
    let v = &json_lines(&out)[0];
    assert_eq!(v["givens"].as_str(), Some(truth(stem).as_str()), "{v}");
    assert_eq!(v["status"], "solved", "{v}");
}

/// The main job on one fixture image of one grid: that grid's JSON object.
fn read_one(file: &str) -> serde_json::Value {
    let out = run_in(&["--json", "--no-image", p(&fixture(file))], Path::new("."));
    let objects = json_lines(&out);
    assert_eq!(objects.len(), 1, "{file}: {objects:?}");
    objects[0].clone()
}

/// [`read_one`] of the fixture `file`, its puzzle read as its truth
/// (`<stem>.txt`) and given `status`.
fn read_as_truth(file: &str, status: &str) -> serde_json::Value {
    let v = read_one(file);
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    assert_eq!(v["givens"].as_str(), Some(truth(stem).as_str()), "{v}");
    assert_eq!(v["status"], status, "{v}");
    v
}

#[test]
fn a_console_screen_with_a_neon_frame_and_a_cursor_is_solved() {
    // fixtures/screen-console-neon.png: a 1280x720 console screen drawn by
    // models/eval/screenshots.py (--kinds console): a dark grid in a thick
    // glowing frame, a cursor ring across the lines of one cell, a column
    // of digits and button hints beside it.
    read_as_truth("screen-console-neon.png", "solved");
}

#[test]
fn a_video_frame_with_a_phone_screen_inside_is_solved() {
    // fixtures/screen-video-frame.jpg: a 1280x720 video frame (JPEG 45,
    // blurred) holding a phone screen a third of its width on a blurred
    // copy of itself, with a caption, a play button, a channel logo and a
    // progress bar off the grid.
    read_as_truth("screen-video-frame.jpg", "solved");
}

#[test]
fn a_finished_board_on_a_screen_is_complete() {
    // fixtures/screen-finished-board.png: a dark phone screen with every
    // cell filled right (clues and typed entries) and a "done" banner
    // under the grid: a full valid grid is `complete`, with no answer to
    // give.
    read_as_truth("screen-finished-board.png", "complete");
}

#[test]
fn a_dark_screen_whose_lines_are_faint_and_boxes_shaded_is_solved() {
    // fixtures/screen-dark-shaded.png: a dark Material theme's screen, its
    // cell lines and border 7 gray levels over their ground and its boxes
    // told apart by shading. No line of it stood out enough to be marked:
    // "no Sudoku grid found".
    read_as_truth("screen-dark-shaded.png", "solved");
}

#[test]
fn a_video_frame_of_a_borderless_grid_with_a_wrong_entry_is_no_solution() {
    // fixtures/screen-video-borderless.jpg: a 1280x720 video frame (JPEG
    // 40) of a light Material screen whose grid has no border, scaled to
    // a third, one of its cell lines blurred away; the player's wrong 8 in
    // r7c9 clashes. It was "no Sudoku grid found".
    let v = read_as_truth("screen-video-borderless.jpg", "no_solution");
    assert!(
        v["error"].as_str().is_some_and(|e| e.contains("r7c9")),
        "{v}"
    );
}

#[test]
fn a_video_frame_whose_grid_a_comb_placed_short_is_read_where_its_lattice_is() {
    // fixtures/screen-video-dark-narrow.jpg: a 1280x720 video frame (JPEG
    // 40) of a dark phone screen. The page search placed its grid two
    // thirds of a cell short on the right, and the clues of the last
    // columns fell out of their tiles: `unsure`. Its lattice of lines,
    // blurred, is not sure enough to replace that grid, but the grid read
    // in doubt is read there too.
    read_as_truth("screen-video-dark-narrow.jpg", "solved");
}

#[test]
fn a_video_frame_of_a_grid_shown_by_its_box_lines_alone_is_solved() {
    // fixtures/screen-video-box-lines.jpg: a 1280x720 video frame (JPEG
    // 42) of a dark Material screen with no cell lines and no border, a
    // highlighted row of the card's shade along its top. Its border was
    // asked for, and the JPEG's ringing beside its digits was taken for
    // ink across the missing cell lines: "no Sudoku grid found".
    read_as_truth("screen-video-box-lines.jpg", "solved");
}

#[test]
fn a_video_frame_of_a_grid_shaded_box_by_box_is_solved() {
    // fixtures/screen-video-shaded-boxes.jpg: a 1280x720 video frame
    // (JPEG 37) of a dark Material screen whose boxes are told apart by
    // shading on a card with rounded corners: only the two steps between
    // its boxes span its side each way. "No Sudoku grid found".
    read_as_truth("screen-video-shaded-boxes.jpg", "solved");
}

#[test]
fn a_video_frame_whose_grid_is_155_pixels_across_is_solved() {
    // fixtures/screen-video-small-grid.jpg: a 640x360 video frame (a
    // screenshots.py frame of seed 7391 at half size) of a dark phone
    // screen whose grid is 155 px across, its cells 17 px: its thin lines
    // and digits ran together in the search's threshold, "no Sudoku grid
    // found". It is searched again at twice its size.
    read_as_truth("screen-video-small-grid.jpg", "solved");
}

#[test]
fn a_photo_of_a_dark_theme_on_a_monitor_is_solved() {
    // fixtures/screen-photo-dark-theme.jpg (models/eval/browser_screens.py
    // --photo): a puzzle site in a dark theme, rendered by Chromium and
    // photographed on a monitor in simulation (pixel stripes, moire, a
    // bezel, a light desk around it). The photo is not mostly dark, so its
    // negative was never searched: "no Sudoku grid found".
    read_as_truth("screen-photo-dark-theme.jpg", "solved");
}

#[test]
fn a_samurai_on_a_checked_cloth_is_solved() {
    // fixtures/samurai-on-checks.jpg (models/eval/busy_photos.py): a
    // printed Samurai photographed at an angle on a gingham cloth. Its
    // lattice of 21 cells, 19.7 work pixels each, was counted as 22 and
    // no window of it was a grid: one 9x9 comb across 18 cells was read,
    // and "no Sudoku puzzle found".
    assert_samurai_solved("samurai-on-checks");
}

#[test]
fn a_samurai_found_grid_by_grid_is_one_samurai() {
    // fixtures/samurai-found-in-parts.jpg (models/eval/busy_photos.py): a
    // printed Samurai on a striped cloth. Its outline is never one
    // component there; its grids were found one by one, two of them a
    // cell off, and reported as five 9x9 parts of a Samurai not found.
    // Placed by the grids found, the others are looked at where the
    // Samurai puts them, and it is solved.
    assert_samurai_solved("samurai-found-in-parts");
}

/// Checks the photo `stem`.jpg is read as one Samurai, solved to the
/// solution in `stem`.txt.
fn assert_samurai_solved(stem: &str) {
    let v = &read_one(&format!("{stem}.jpg"));
    assert_eq!(v["shape"], "samurai", "{v}");
    assert_eq!(v["status"], "solved", "{v}");
    let want = truth(stem).replace('#', "");
    let got = v["solution"].as_str().unwrap_or_default().replace('#', "");
    assert_eq!(got, want, "{v}");
}

#[test]
fn a_blurred_16x16_is_one_16x16_never_broken_9x9s() {
    // fixtures/16x16-blurred.jpg (models/eval/busy_photos.py): a printed
    // 16x16 photographed out of focus, its thin lines half gone. Nine of
    // its cells have a 9x9's lines; read as 9x9s its letters would make
    // clashing digits, and the user told the puzzle is broken. It is one
    // 16x16, never without a solution.
    let v = &read_one("16x16-blurred.jpg");
    assert_eq!(v["shape"], "16x16", "{v}");
    assert!(v["status"] == "solved" || v["status"] == "unsure", "{v}");
}

#[test]
fn a_16x16_out_of_focus_is_solved() {
    // fixtures/16x16-blurred.jpg: its Bs and 8s, Es and Fs blurred towards
    // each other. Read as a 9x9's cells, more were in doubt than the
    // decision's search reaches (`unsure` at 0.73); the 16x16 model reads
    // them, and the puzzle is solved right.
    let v = &read_one("16x16-blurred.jpg");
    assert_eq!(v["status"], "solved", "{v}");
    let got = v["solution"].as_str().unwrap_or_default();
    assert_eq!(got, truth("16x16-blurred"), "{v}");
}

#[test]
fn a_16x16_blurred_by_a_twelfth_of_a_cell_is_solved() {
    // fixtures/16x16-blurred-letters.jpg (models/eval/busy_photos.py, a
    // held-out seed, in a font the 16x16 model never saw): blurred by 8.4 %
    // of a cell, its letters a smudge each. Read as a 9x9's cells it was
    // `unsure` (Bs as 8s, Es as empty); the 16x16 model solves it right.
    let v = &read_one("16x16-blurred-letters.jpg");
    assert_eq!(v["shape"], "16x16", "{v}");
    assert_eq!(v["status"], "solved", "{v}");
    let got = v["solution"].as_str().unwrap_or_default();
    assert_eq!(got, truth("16x16-blurred-letters"), "{v}");
}

#[test]
fn a_blurred_16x16_whose_thin_lines_the_search_image_lost_is_one_16x16() {
    // fixtures/16x16-blurred-lines-lost.jpg (models/eval/busy_photos.py):
    // a 16x16 out of focus whose thin lines the downscaled search image
    // loses among the letters. Its 16x16 comb failed there, with box lines
    // standing out as a 16x16's, and a 9x9 comb across the grid and the
    // paper around it was taken and read as nothing: "no Sudoku puzzle
    // found". Looked at again on the photo, it is one 16x16.
    let v = &read_one("16x16-blurred-lines-lost.jpg");
    assert_eq!(v["shape"], "16x16", "{v}");
    assert!(v["status"] == "solved" || v["status"] == "unsure", "{v}");
}

#[test]
fn a_blurred_16x16_whose_thin_lines_show_only_sharpened_is_one_16x16() {
    // fixtures/16x16-blurred-lines-sharpened.jpg (models/eval/busy_photos.py):
    // a 16x16 out of focus on a plain desk. Its comb failed on the search
    // image and on the photo's crop alike, every thin line under the
    // threshold among the letters, and a 9x9 comb across the page was
    // read as nothing: "no Sudoku puzzle found". On the crop sharpened by
    // about its blur, its lines show: one 16x16.
    let v = &read_one("16x16-blurred-lines-sharpened.jpg");
    assert_eq!(v["shape"], "16x16", "{v}");
    assert!(v["status"] == "solved" || v["status"] == "unsure", "{v}");
}

#[test]
fn rotated_copies_read_the_same() {
    let dir = scratch("cli_photo-rotated");
    let photo = image::open(fixture("image18.jpg")).unwrap().to_rgb8();
    let turns: [(&str, RgbImage); 3] = [
        ("r90.png", image::imageops::rotate90(&photo)),
        ("r180.png", image::imageops::rotate180(&photo)),
        ("r270.png", image::imageops::rotate270(&photo)),
    ];
    let mut args = vec!["read".to_string(), "--json".to_string()];
    for (name, img) in &turns {
        img.save(dir.join(name)).unwrap();
        args.push(p(&dir.join(name)).to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let objects = json_lines(&run_in(&args, &dir));
    let want = truth("image18");
    for (v, degrees) in objects.iter().zip([270, 180, 90]) {
        assert_eq!(v["givens"].as_str(), Some(want.as_str()), "{v}");
        assert_eq!(v["rotation"], degrees, "{v}");
    }
    // image1024 carries a stale EXIF tag (6) on upright pixels: read as stored.
    let out = run_in(&["read", "--json", p(&fixture("image1024.jpg"))], &dir);
    assert_eq!(json_lines(&out)[0]["rotation"], 0);
}

/// Reads each image of `crops` (file name, image) saved in `dir` and checks
/// its grid is solved with the truth of `stem` as givens.
fn assert_solved(dir: &Path, stem: &str, crops: &[(String, image::DynamicImage)]) {
    let mut args = vec!["--json".to_string(), "--no-image".to_string()];
    for (name, img) in crops {
        img.save(dir.join(name)).unwrap();
        args.push(p(&dir.join(name)).to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let objects = json_lines(&run_in(&args, dir));
    assert_eq!(objects.len(), crops.len());
    let want = truth(stem);
    for ((name, _), v) in crops.iter().zip(&objects) {
        assert_eq!(v["status"], "solved", "{name}: {v}");
        assert_eq!(v["givens"].as_str(), Some(want.as_str()), "{name}: {v}");
    }
}

#[test]
fn a_screen_cropped_at_its_grid_on_every_side_is_solved() {
    // fixtures/screen-cropped-at-border.png: an app screen cropped at its
    // grid's outer corners, every cell in the image. The comb found the
    // grid on the frame on all four sides and took it for cut; its lattice
    // of lines, every one seen, says it is whole.
    let stem = "screen-cropped-at-border";
    let v = &read_one(&format!("{stem}.png"));
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["givens"].as_str(), Some(truth(stem).as_str()), "{v}");
}

#[test]
fn a_grid_cropped_at_its_border_is_solved() {
    // The Wikipedia example puzzle drawn by models/eval/wikipedia_grid.py,
    // cropped at the outside of its border and 1-2 px inside it (the 3 px
    // border line then partly or wholly cut off), on every side and on the
    // bottom alone: every cell is in the image, and the border is where
    // the lattice puts it.
    let dir = scratch("cli_photo-tight-render");
    let img = image::open(fixture("wikipedia-example.png"))
        .unwrap()
        .to_luma8();
    // The grid's ink, first and past the last pixel each way.
    let inked = |x: u32, y: u32| img.get_pixel(x, y)[0] < 128;
    let (w, h) = img.dimensions();
    let cols: Vec<u32> = (0..w).filter(|&x| (0..h).any(|y| inked(x, y))).collect();
    let rows: Vec<u32> = (0..h).filter(|&y| (0..w).any(|x| inked(x, y))).collect();
    let (x0, x1) = (cols[0], cols[cols.len() - 1] + 1);
    let (y0, y1) = (rows[0], rows[rows.len() - 1] + 1);
    let mut crops = Vec::new();
    for d in 0..=2 {
        let all = image::imageops::crop_imm(&img, x0 + d, y0 + d, x1 - x0 - 2 * d, y1 - y0 - 2 * d);
        crops.push((format!("all-{d}.png"), all.to_image().into()));
        let bottom = image::imageops::crop_imm(&img, 0, 0, w, y1 - d);
        crops.push((format!("bottom-{d}.png"), bottom.to_image().into()));
    }
    assert_solved(&dir, "wikipedia-example", &crops);
    // Half of the last row or more cut off: cells are missing, and no
    // answer is given.
    let cell = (y1 - y0) / 9;
    let mut args = vec!["--json".to_string(), "--no-image".to_string()];
    for cut in [cell / 2, cell, 2 * cell] {
        let name = format!("cut-{cut}.png");
        image::imageops::crop_imm(&img, 0, 0, w, y1 - cut)
            .to_image()
            .save(dir.join(&name))
            .unwrap();
        args.push(p(&dir.join(name)).to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    for v in json_lines(&run_in(&args, &dir)) {
        assert_ne!(v["status"], "solved", "{v}");
        assert!(v["solution"].is_null(), "{v}");
    }
}

#[test]
fn a_tight_crop_that_reads_with_clashing_clues_is_partial_not_broken() {
    // The Wikipedia example with r1c1's 5 copied into r1c3: two 5s in the
    // first row. Whole with its margin, the puzzle as printed has no
    // solution and says so; cropped through its border, the same reading
    // could come from a lattice placed a line off, so the grid is reported
    // partial, saying why, and never called broken.
    let dir = scratch("cli_photo-tight-clash");
    let mut img = image::open(fixture("wikipedia-example.png"))
        .unwrap()
        .to_luma8();
    let inked = |img: &GrayImage, x: u32, y: u32| img.get_pixel(x, y)[0] < 128;
    let (w, h) = img.dimensions();
    let cols: Vec<u32> = (0..w)
        .filter(|&x| (0..h).any(|y| inked(&img, x, y)))
        .collect();
    let rows: Vec<u32> = (0..h)
        .filter(|&y| (0..w).any(|x| inked(&img, x, y)))
        .collect();
    let (x0, x1) = (cols[0], cols[cols.len() - 1] + 1);
    let (y0, y1) = (rows[0], rows[rows.len() - 1] + 1);
    let cell = (x1 - x0) / 9;
    // The cell's inside, clear of its lines.
    let inset = cell / 6;
    for dy in inset..cell - inset {
        for dx in inset..cell - inset {
            let v = *img.get_pixel(x0 + dx, y0 + dy);
            img.put_pixel(x0 + 2 * cell + dx, y0 + dy, v);
        }
    }
    img.save(dir.join("whole.png")).unwrap();
    image::imageops::crop_imm(&img, x0 + 1, y0 + 1, x1 - x0 - 2, y1 - y0 - 2)
        .to_image()
        .save(dir.join("tight.png"))
        .unwrap();
    let out = run_in(&["--json", "--no-image", "whole.png", "tight.png"], &dir);
    let objects = json_lines(&out);
    assert_eq!(objects.len(), 2, "{objects:?}");
    assert_eq!(objects[0]["status"], "no_solution", "{}", objects[0]);
    assert_eq!(objects[1]["status"], "partial", "{}", objects[1]);
    assert!(objects[1]["solution"].is_null(), "{}", objects[1]);
    assert!(objects[1]["quad"].is_array(), "reported with its outline");
    let why = objects[1]["error"].as_str().unwrap_or_default();
    assert!(why.contains("edge of the image"), "{why}");
}

#[test]
fn a_photo_cropped_at_its_border_and_found_a_row_short_is_solved() {
    // fixtures/photo-cropped-row-short.jpg: a newspaper photo cropped at
    // the grid's bottom border. Its comb took the row of text above the
    // grid for the first row and read a puzzle with no solution; the box
    // lines a line off place the grid a row down, whole.
    read_as_truth("photo-cropped-row-short.jpg", "solved");
}

#[test]
fn a_photo_cropped_at_its_bottom_border_with_no_outline_of_its_grid_is_solved() {
    // fixtures/photo-cropped-at-bottom-border.jpg: newspaper photo image43
    // cropped at the outermost point of its grid's bottom border. The cut
    // border joins no hull that outlines the grid (the one around it runs
    // out to a blue box at its top left), and no comb passed on any hull:
    // "no Sudoku grid found". The frame, taken as the grid's hull, holds
    // its lattice, and the lattice places the bottom border.
    read_as_truth("photo-cropped-at-bottom-border.jpg", "solved");
}

#[test]
fn a_tilted_photo_cropped_inside_its_border_and_outlined_skewed_is_solved() {
    // fixtures/photo-cropped-skewed-hull.jpg: newspaper photo image33
    // cropped 3 px inside the outermost point of its tilted grid's border
    // on all four sides. The search outlined it skewed across the frame,
    // a corner most of a cell inside, and reported it cut: `partial`. The
    // frame, taken as the grid's hull, holds its whole lattice.
    read_as_truth("photo-cropped-skewed-hull.jpg", "solved");
}

#[test]
fn a_tilted_photo_cropped_just_inside_its_border_on_every_side_is_solved() {
    // fixtures/photo-cropped-all-sides.jpg: newspaper photo image31
    // cropped 1 px inside the outermost point of its grid's border on all
    // four sides. The threshold lost the left border's lower end at the
    // frame, the largest quad in the hull cut that corner by most of a
    // cell, and its comb, passing, read the grid skewed across the frame:
    // `partial`. The quad on the border's straight runs is the grid's.
    read_as_truth("photo-cropped-all-sides.jpg", "solved");
}

#[test]
fn a_photo_cropped_at_the_grid_border_is_solved() {
    // Fixture photos cropped at the bottom of the grid the reader finds in
    // them, and 1 and 3 px inside it: the border line at or past the
    // frame, every cell still in the photo.
    let dir = scratch("cli_photo-tight-photo");
    for stem in ["image18", "image1024"] {
        let path = fixture(&format!("{stem}.jpg"));
        let v = &json_lines(&run_in(&["--json", "--no-image", p(&path)], &dir))[0];
        let bottom = v["quad"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c[1].as_f64().unwrap())
            .fold(0.0, f64::max)
            .round() as u32;
        let photo = image::open(&path).unwrap().to_rgb8();
        let crops: Vec<(String, image::DynamicImage)> = [0, 1, 3]
            .iter()
            .map(|&d| {
                let crop = image::imageops::crop_imm(&photo, 0, 0, photo.width(), bottom - d);
                (format!("{stem}-bottom-{d}.png"), crop.to_image().into())
            })
            .collect();
        assert_solved(&dir, stem, &crops);
    }
}

/// A page of text (no grid): lines of glyphs drawn with the embedded font.
fn text_page() -> GrayImage {
    use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
    let font = FontRef::try_from_slice(include_bytes!("../assets/Go-Bold.ttf")).unwrap();
    let mut img = GrayImage::from_pixel(640, 480, Luma([235]));
    let words = "The quick brown fox jumps over the lazy dog 1234567890 ";
    for line in 0..18 {
        let mut x = 20.0;
        for (k, c) in words.chars().cycle().skip(line * 7).take(60).enumerate() {
            let g = font.glyph_id(c).with_scale(PxScale::from(20.0));
            let advance = font.as_scaled(PxScale::from(20.0)).h_advance(g.id);
            let g =
                g.id.with_scale_and_position(20.0, ab_glyph::point(x, 30.0 + line as f32 * 25.0));
            if let Some(o) = font.outline_glyph(g) {
                let b = o.px_bounds();
                o.draw(|gx, gy, cov| {
                    let (px, py) = (b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32);
                    if (0..640).contains(&px) && (0..480).contains(&py) && cov > 0.3 {
                        img.put_pixel(px as u32, py as u32, Luma([30]));
                    }
                });
            }
            x += advance;
            if x > 600.0 || k > 60 {
                break;
            }
        }
    }
    img
}

#[test]
fn images_without_a_sudoku_say_no_grid() {
    let dir = scratch("cli_photo-nogrid");
    GrayImage::from_pixel(640, 480, Luma([255]))
        .save(dir.join("blank.png"))
        .unwrap();
    let mut seed = 12345u32;
    let noise = GrayImage::from_fn(640, 480, |_, _| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        Luma([(seed >> 16) as u8])
    });
    noise.save(dir.join("noise.png")).unwrap();
    text_page().save(dir.join("text.png")).unwrap();
    // A grid with its last two rows out of the frame: too much is missing
    // for it to be found, and the message says what to try.
    let photo = image::open(fixture("image18.jpg")).unwrap();
    let (w, h) = (photo.width(), photo.height());
    photo
        .crop_imm(0, 0, w, h * 4 / 5)
        .save(dir.join("cut.png"))
        .unwrap();
    let out = run_in(
        &[
            "--json",
            "--no-image",
            "blank.png",
            "noise.png",
            "text.png",
            "cut.png",
        ],
        &dir,
    );
    let objects = json_lines(&out);
    assert_eq!(objects.len(), 4);
    for v in &objects {
        assert_eq!(v["status"], "no_grid", "{v}");
        let error = v["error"].as_str().unwrap_or_default();
        assert!(error.contains("all of the grid inside the frame"), "{v}");
        assert!(error.contains("--corners"), "{v}");
    }
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn broken_files_are_clear_errors_with_exit_2_and_the_batch_goes_on() {
    let dir = scratch("cli_photo-broken");
    let bytes = std::fs::read(fixture("image18.jpg")).unwrap();
    std::fs::write(dir.join("truncated.jpg"), &bytes[..bytes.len() / 3]).unwrap();
    std::fs::write(dir.join("empty.jpg"), b"").unwrap();
    let good = fixture("image18.jpg");
    let out = run_in(
        &[
            "--json",
            "--no-image",
            "truncated.jpg",
            "empty.jpg",
            "missing.jpg",
            p(&good),
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    let objects = json_lines(&out);
    assert_eq!(objects.len(), 4);
    assert_eq!(
        objects[3]["status"], "solved",
        "the batch went on past the bad files"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    for name in ["truncated.jpg", "empty.jpg", "missing.jpg"] {
        let line = stderr
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} in {stderr}"));
        assert!(line.starts_with("sudoku-snap: "), "{line}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The centre of cell `index` of the upright grid, in photo pixels.
fn cell_centre(quad: &Quad, index: usize) -> (f32, f32) {
    let h = Homography::square_to_quad(9.0, quad).unwrap();
    h.map((index % 9) as f32 + 0.5, (index / 9) as f32 + 0.5)
}

/// True when any pixel within `r` of (x, y) differs between the images.
fn differs_near(a: &RgbImage, b: &RgbImage, (x, y): (f32, f32), r: i32) -> bool {
    (-r..=r).any(|dy| {
        (-r..=r).any(|dx| {
            let (px, py) = ((x as i32 + dx) as u32, (y as i32 + dy) as u32);
            a.get_pixel(px, py) != b.get_pixel(px, py)
        })
    })
}

/// Solves fixtures/image18.jpg into `answer` (in scratch folder `name`):
/// the folder and the grid's corners.
fn answer_image18(name: &str, answer: &str) -> (PathBuf, [(f32, f32); 4]) {
    let dir = scratch(name);
    let out = run_in(&["--json", p(&fixture("image18.jpg")), "-o", answer], &dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let corners = quad_corners(&json_lines(&out)[0]);
    (dir, corners)
}

#[test]
fn the_answer_is_drawn_into_the_empty_cells_only() {
    let (dir, corners) = answer_image18("cli_photo-overlay", "answer.png");
    let quad = Quad::new(corners);
    let before = image::open(fixture("image18.jpg")).unwrap().to_rgb8();
    let after = image::open(dir.join("answer.png")).unwrap().to_rgb8();
    assert_eq!(before.dimensions(), after.dimensions(), "full resolution");
    let givens = truth("image18");
    for (i, c) in givens.chars().enumerate() {
        let centre = cell_centre(&quad, i);
        assert_eq!(
            differs_near(&before, &after, centre, 4),
            c == '.',
            "cell r{}c{}",
            i / 9 + 1,
            i % 9 + 1
        );
    }
    // Far outside the grid nothing changed.
    assert!(!differs_near(&before, &after, (5.0, 5.0), 3));
}

#[test]
fn a_jpeg_answer_is_the_photo_itself_away_from_the_drawn_digits() {
    let photo = fixture("image18.jpg");
    let (dir, corners) = answer_image18("cli_photo-in-place", "answer.jpg");
    let quad = Quad::new(corners);
    let before = image::open(&photo).unwrap().to_rgb8();
    let bytes = std::fs::read(dir.join("answer.jpg")).unwrap();
    let after = image::load_from_memory(&bytes).unwrap().to_rgb8();
    // Away from the grid (two MCUs, 32 px, past its outline) every pixel
    // decodes as the photo's: its blocks were copied, not coded again.
    let (x0, x1) = (
        corners.iter().map(|c| c.0).fold(f32::MAX, f32::min),
        corners.iter().map(|c| c.0).fold(0.0, f32::max),
    );
    let (y0, y1) = (
        corners.iter().map(|c| c.1).fold(f32::MAX, f32::min),
        corners.iter().map(|c| c.1).fold(0.0, f32::max),
    );
    let mut away = 0;
    for (x, y, px) in after.enumerate_pixels() {
        let (x, y) = (x as f32, y as f32);
        if x < x0 - 32.0 || x > x1 + 32.0 || y < y0 - 32.0 || y > y1 + 32.0 {
            assert_eq!(px, before.get_pixel(x as u32, y as u32), "{x},{y}");
            away += 1;
        }
    }
    assert!(away > 10_000, "{away} pixels away from the grid");
    // The answer's digits are drawn, blue, in the empty cells.
    let givens = truth("image18");
    for (i, c) in givens.chars().enumerate().filter(|&(_, c)| c == '.') {
        let (x, y) = cell_centre(&quad, i);
        let blue = (-6..=6).any(|d: i32| {
            let px = after.get_pixel((x as i32 + d) as u32, y as u32);
            px[2] > 150 && px[0] < 100
        });
        assert!(
            blue,
            "cell r{}c{} ({c}) has no drawn digit",
            i / 9 + 1,
            i % 9 + 1
        );
    }
    // The photo's metadata (its EXIF block) is kept.
    let exif = |jpeg: &[u8]| jpeg.windows(6).position(|w| w == b"Exif\0\0");
    let at = exif(&std::fs::read(&photo).unwrap()).expect("the fixture has EXIF");
    let original = std::fs::read(&photo).unwrap();
    assert!(exif(&bytes).is_some_and(|b| bytes[b..b + 200] == original[at..at + 200]));
}

#[test]
fn output_is_never_overwritten_without_force() {
    let dir = scratch("cli_photo-force");
    let photo = fixture("image18.jpg");
    let first = run_in(&[p(&photo)], &dir);
    assert_eq!(first.status.code(), Some(0));
    // A JPEG photo gives a JPEG answer.
    let written = dir.join("image18.solved.jpg");
    let stamp = std::fs::read(&written).unwrap();
    std::fs::write(&written, b"keep me").unwrap();
    let second = run_in(&[p(&photo)], &dir);
    assert_eq!(second.status.code(), Some(2));
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("exists") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&written).unwrap(), b"keep me");
    let third = run_in(&[p(&photo), "--force"], &dir);
    assert_eq!(third.status.code(), Some(0));
    assert_eq!(std::fs::read(&written).unwrap(), stamp);
}

#[test]
fn an_unwritable_output_is_a_clear_error() {
    let dir = scratch("cli_photo-unwritable");
    std::fs::write(dir.join("plain-file"), b"x").unwrap();
    let photo = fixture("image18.jpg");
    let out = run_in(&[p(&photo), "-o", "plain-file/answer.png"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write plain-file/answer.png"), "{err}");
    // A missing --out-dir is made; one that cannot be made, under
    // a plain file, is the clear error.
    let out = run_in(&[p(&photo), "--out-dir", "plain-file/no-such-dir"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("plain-file/no-such-dir"));
}

#[test]
fn overrides_change_the_puzzle_before_solving() {
    let dir = scratch("cli_photo-overrides");
    let photo = fixture("image18.jpg");
    let givens = truth("image18");
    // Empty a clue by hand: the override shows in the givens.
    let clue = givens.find(|c: char| c != '.').unwrap();
    let cell = format!("r{}c{}=.", clue / 9 + 1, clue % 9 + 1);
    let out = run_in(&["--json", "--no-image", "--set", &cell, p(&photo)], &dir);
    let v = &json_lines(&out)[0];
    assert_eq!(v["givens"].as_str().unwrap().as_bytes()[clue], b'.', "{v}");
    // Two locked cells that clash are never changed: the puzzle is reported
    // as it reads, and the message names the clash.
    let out = run_in(
        &[
            "--no-image",
            "--set",
            "r9c8=5",
            "--set",
            "r9c9=5",
            p(&photo),
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no solution: givens clash: "), "{text}");
    assert!(text.contains("r9c8 and r9c9 are both 5"), "{text}");
    assert!(text.contains("--set"), "{text}");
    // A malformed override is a usage error.
    let out = run_in(&["--set", "r10c1=4", p(&photo)], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--set"));
}

#[test]
fn a_crowded_page_gives_the_puzzle_solved_and_the_solution_grid_apart() {
    // fixtures/crowded-page-in-panel.jpg: a newspaper page (drawn by
    // models/eval/crowded_pages.py) with the day's puzzle and yesterday's
    // smaller solution grid in one ruled panel with a crossword, beside
    // a number table. The panel joins the puzzle to the other print, and
    // the puzzle was lost while the solution grid was reported.
    let puzzle =
        "......8...7391........3..291...5..3..6.....5.7.......2.....56.1.5.48....6.9......";
    let yesterday =
        "359714682486529137271836945968175423743692851512483796194357268637248519825961374";
    let lines = fixture_lines("crowded-page-in-panel.jpg");
    assert_eq!(
        lines.len(),
        2,
        "crossword and table never reported: {lines:?}"
    );
    let solved: Vec<_> = lines.iter().filter(|v| v["status"] == "solved").collect();
    assert_eq!(solved.len(), 1, "{lines:?}");
    assert_eq!(solved[0]["givens"].as_str(), Some(puzzle), "{}", solved[0]);
    let answers: Vec<_> = lines.iter().filter(|v| v["status"] == "complete").collect();
    assert_eq!(
        answers.len(),
        1,
        "the solution grid reported apart: {lines:?}"
    );
    assert_eq!(
        answers[0]["givens"].as_str(),
        Some(yesterday),
        "{}",
        answers[0]
    );
}

#[test]
fn a_ruled_table_of_numbers_beside_a_solution_grid_is_no_grid() {
    // fixtures/crowded-ruled-table.jpg (cut from a page drawn by
    // models/eval/crowded_pages.py, seed 8332): yesterday's solution grid
    // beside a ruled table of two-digit numbers, nine rows by six number
    // columns. The table passed the grid search as a 9x9 (its rules at a
    // comb's box lines, its numbers' strokes taken for thin lines) and was
    // reported `unsure` with 39 cells to check. Its other rules run down
    // the middles of that lattice's cells, where a puzzle has none.
    let yesterday =
        "823691547974352186516874932157426398462938715398715264639547821741289653285163479";
    let lines = fixture_lines("crowded-ruled-table.jpg");
    assert_eq!(lines.len(), 1, "the table is never reported: {lines:?}");
    assert_eq!(lines[0]["status"], "complete", "{}", lines[0]);
    assert_eq!(lines[0]["givens"].as_str(), Some(yesterday), "{}", lines[0]);
}

#[test]
fn a_solution_grid_cut_by_the_edge_and_squeezed_over_a_lattice_is_partial() {
    // fixtures/crowded-solution-cut-squeezed.jpg (cut from a page drawn by
    // models/eval/crowded_pages.py, seed 7916): yesterday's solution grid,
    // its last rows cut off by the photo's edge. Its quad, the six rows in
    // the image, took a whole 9x9 lattice, so its own lines run through
    // that lattice's cells as a ruled table's do; read so, it was reported
    // `unsure` with cells to check. It is a grid cut by the edge.
    let v = read_one("crowded-solution-cut-squeezed.jpg");
    assert_eq!(v["status"], "partial", "{v}");
    assert!(v["solution"].is_null(), "{v}");
    let why = v["error"].as_str().unwrap_or_default();
    assert!(why.contains("edge of the image"), "{why}");
}

/// The JSON lines (one per grid) of the page `name` of fixtures/, read
/// with `--json --no-image`.
fn fixture_lines(name: &str) -> Vec<serde_json::Value> {
    let out = run_in(&["--json", "--no-image", p(&fixture(name))], Path::new("."));
    json_lines(&out)
}

/// Reads the page `name` of fixtures/ and checks that exactly one of its
/// grids is solved, with `solution`.
fn assert_one_puzzle_solved(name: &str, solution: &str) {
    let lines = fixture_lines(name);
    let solved: Vec<_> = lines.iter().filter(|v| v["status"] == "solved").collect();
    assert_eq!(solved.len(), 1, "{lines:?}");
    assert_eq!(
        solved[0]["solution"].as_str(),
        Some(solution),
        "{}",
        solved[0]
    );
}

#[test]
fn a_puzzle_whose_panel_rule_runs_down_the_page_is_solved() {
    // fixtures/crowded-panel-rule-down-the-page.jpg (drawn by
    // models/eval/crowded_pages.py): the panel's rule joins the puzzle's
    // outline and runs on to the bottom of the photo, which skews the
    // outline's quad; a comb slanted across the grid passed there without
    // a Sudoku's box lines and read as nothing: "no Sudoku puzzle found".
    // The grid's own cells, looked at alone, are the puzzle.
    assert_one_puzzle_solved(
        "crowded-panel-rule-down-the-page.jpg",
        "217835469368942157495176382972381546851467293634259718743598621186724935529613874",
    );
}

#[test]
fn a_puzzle_joined_to_a_column_of_text_is_solved() {
    // fixtures/crowded-puzzle-joined-to-text.jpg (drawn by
    // models/eval/crowded_pages.py): the puzzle's outline takes in the
    // column of text beside it, and a comb slanted across the grid passed
    // on that outline's quad with box lines that do not stand out as a
    // Sudoku's (0.26); read through it, the puzzle was `unsure`. The
    // grid's own cells, looked at alone, are the puzzle.
    assert_one_puzzle_solved(
        "crowded-puzzle-joined-to-text.jpg",
        "712368954458192376936547128384251697629874531571936842165423789297685413843719265",
    );
}

#[test]
fn a_grid_that_reads_as_no_puzzle_is_said_seen_with_what_to_do() {
    // An empty 9x9 grid (a notes table, or a puzzle whose digits the
    // reader cannot make out): the grid is found, reads as no puzzle, and
    // the user is told so and what to try, not only "no puzzle found".
    let dir = scratch("cli_photo-empty-grid");
    let (side, cell, x0) = (640u32, 60u32, 50u32);
    let img = GrayImage::from_fn(side, side, |x, y| {
        let on = |v: u32| {
            v >= x0 && v <= x0 + 9 * cell && {
                let k = (v - x0) % cell;
                let width = if ((v - x0) / cell).is_multiple_of(3) {
                    3
                } else {
                    1
                };
                k < width
            }
        };
        let inside = |v: u32| v >= x0 && v <= x0 + 9 * cell + 2;
        let ink = (on(x) && inside(y)) || (on(y) && inside(x));
        Luma([if ink { 20 } else { 235 }])
    });
    let path = dir.join("empty-grid.png");
    img.save(&path).unwrap();
    let out = run_in(&["--json", "--no-image", p(&path)], &dir);
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "no_grid", "{v}");
    let error = v["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("the grids found read as empty or unreadable"),
        "{v}"
    );
    assert!(error.contains("photograph it again"), "{v}");
}
