//! Answers made in place on the repository's fixture photos: with nothing
//! drawn the file comes back byte for byte; what is drawn shows, and every
//! pixel away from it decodes as in the photo.

use std::io::Cursor;
use std::path::PathBuf;

use image::codecs::jpeg::JpegDecoder;
use image::{ImageDecoder, RgbImage};
use snap_jpeg::{Area, Drawn, Orientation, Photo, Unsupported};

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn decode(jpeg: &[u8]) -> RgbImage {
    image::load_from_memory(jpeg).expect("decodes").to_rgb8()
}

/// Paints the part of `area` (photo coordinates) that lies on a piece of
/// the photo, `image` from `origin`, with `paint(x, y)`.
fn paint(
    (image, origin): (&mut RgbImage, (u32, u32)),
    area: Area,
    paint: impl Fn(u32, u32) -> [u8; 3],
) {
    let (ox, oy) = origin;
    for y in area.y0.max(oy)..area.y1.min(oy + image.height()) {
        for x in area.x0.max(ox)..area.x1.min(ox + image.width()) {
            image.put_pixel(x - ox, y - oy, image::Rgb(paint(x, y)));
        }
    }
}

/// Nothing drawn.
fn nothing(photo: &Photo) -> Drawn {
    photo.draw(&[], |_, _| {}).expect("nothing drawn")
}

/// The bodies of the DHT segments before the scan.
fn huffman_tables(jpeg: &[u8]) -> Vec<Vec<u8>> {
    let (mut at, mut out) = (2, Vec::new());
    while jpeg[at + 1] != 0xDA {
        let len = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
        if jpeg[at + 1] == 0xC4 {
            out.push(jpeg[at + 4..at + 2 + len].to_vec());
        }
        at += 2 + len;
    }
    out
}

/// The area [`blue_square`] paints.
const SQUARE: Area = Area {
    x0: 101,
    y0: 117,
    x1: 241,
    y1: 203,
};

/// The answer to `jpeg` with [`SQUARE`] painted a flat blue.
fn blue_square(jpeg: &[u8]) -> Vec<u8> {
    let photo = Photo::open(jpeg.into()).expect("a baseline photo");
    let drawn = photo
        .draw(&[SQUARE], |image, origin| {
            paint((image, origin), SQUARE, |_, _| BLUE)
        })
        .expect("drawn");
    photo.answer(&drawn, Orientation::Keep).expect("an answer")
}

/// The colour [`blue_square`] paints.
const BLUE: [u8; 3] = [30, 80, 220];

/// Photos with restart markers (image18), an EXIF block and optimised
/// tables (image1024), and a phone photo's standard tables (kubiesa-03_01).
const PHOTOS: [&str; 3] = ["image18.jpg", "image1024.jpg", "kubiesa-03_01.jpg"];

#[test]
fn with_nothing_drawn_the_answer_is_the_photo() {
    for name in PHOTOS {
        let bytes = fixture(name);
        let photo = Photo::open(bytes.as_slice().into()).expect("a baseline photo");
        assert_eq!(
            photo.answer(&nothing(&photo), Orientation::Keep),
            Ok(bytes.clone()),
            "{name}"
        );
        // Decoded and left as it was, a piece changes nothing either.
        let area = Area {
            x0: 100,
            y0: 120,
            x1: 300,
            y1: 260,
        };
        let drawn = photo.draw(&[area], |_, _| {}).expect("drawn");
        assert_eq!(photo.answer(&drawn, Orientation::Keep), Ok(bytes), "{name}");
    }
}

#[test]
fn what_is_drawn_shows_and_the_rest_decodes_as_before() {
    for name in PHOTOS {
        let bytes = fixture(name);
        let answer = blue_square(&bytes);
        let (before, after) = (decode(&bytes), decode(&answer));
        assert_eq!(before.dimensions(), after.dimensions());
        for (x, y, p) in after.enumerate_pixels() {
            // Inside, well away from the edge chroma is blended across.
            let inside = (SQUARE.x0 + 3..SQUARE.x1 - 3).contains(&x)
                && (SQUARE.y0 + 3..SQUARE.y1 - 3).contains(&y);
            if inside {
                let blue = BLUE.map(i32::from);
                for c in 0..3 {
                    assert!(
                        (i32::from(p[c]) - blue[c]).abs() <= 12,
                        "{name} {x},{y}: {p:?}"
                    );
                }
            }
            // Two MCUs (16 px) away, the decoder's chroma upsampling cannot
            // reach: the pixels are the photo's own.
            let near = (SQUARE.x0.saturating_sub(32)..SQUARE.x1 + 32).contains(&x)
                && (SQUARE.y0.saturating_sub(32)..SQUARE.y1 + 32).contains(&y);
            if !near {
                assert_eq!(p, before.get_pixel(x, y), "{name} {x},{y}");
            }
        }
    }
}

#[test]
fn each_area_is_drawn_whole_on_one_piece_and_pieces_share_no_mcu() {
    let bytes = fixture("kubiesa-03_01.jpg");
    let photo = Photo::open(bytes.as_slice().into()).expect("a baseline photo");
    let area = |x0, y0, x1, y1| Area { x0, y0, x1, y1 };
    // Two areas in one MCU row whose MCUs touch but do not overlap; a third
    // sharing an MCU with the second, and a fourth sharing one with the
    // third: those three are one piece.
    let areas = [
        area(100, 100, 128, 128),
        area(128, 100, 170, 120),
        area(165, 118, 200, 140),
        area(199, 139, 230, 170),
        area(400, 300, 420, 310),
    ];
    let pieces = std::sync::Mutex::new(Vec::new());
    photo
        .draw(&areas, |image, origin| {
            pieces.lock().expect("not poisoned").push([
                origin.0,
                origin.1,
                origin.0 + image.width(),
                origin.1 + image.height(),
            ]);
        })
        .expect("drawn");
    let pieces = pieces.into_inner().expect("not poisoned");
    assert_eq!(pieces.len(), 3, "{pieces:?}");
    for a in &areas {
        let holding = pieces
            .iter()
            .filter(|p| p[0] <= a.x0 && p[1] <= a.y0 && a.x1 <= p[2] && a.y1 <= p[3])
            .count();
        assert_eq!(holding, 1, "{a:?} in {pieces:?}");
    }
    for (i, p) in pieces.iter().enumerate() {
        assert!(p.iter().all(|v| v % 16 == 0), "MCU-aligned: {p:?}");
        for q in &pieces[i + 1..] {
            let overlap = p[0] < q[2] && q[0] < p[2] && p[1] < q[3] && q[1] < p[3];
            assert!(!overlap, "{p:?} and {q:?}");
        }
    }
}

#[test]
fn a_drawing_a_tuned_table_cannot_code_gets_tables_of_its_own() {
    // image1024's tables were tuned to the photo (65 and 46 of the 162 AC
    // symbols) and leave no code free for what a flat blue square needs.
    let bytes = fixture("image1024.jpg");
    let answer = blue_square(&bytes);
    assert_ne!(
        huffman_tables(&answer),
        huffman_tables(&bytes),
        "tables written anew"
    );
    let (before, after) = (decode(&bytes), decode(&answer));
    for (x, y, p) in after.enumerate_pixels() {
        if !(69..273).contains(&x) || !(85..235).contains(&y) {
            assert_eq!(p, before.get_pixel(x, y), "{x},{y}");
        }
    }
}

#[test]
fn the_orientation_tag_is_kept_or_set_to_the_pixels_as_stored() {
    let bytes = fixture("image1024.jpg");
    let photo = Photo::open(bytes.as_slice().into()).expect("a baseline photo");
    let drawn = nothing(&photo);
    let tag = |jpeg: &[u8]| {
        let mut d = JpegDecoder::new(Cursor::new(jpeg)).expect("a JPEG");
        d.orientation().expect("reads").to_exif()
    };
    assert_eq!(
        tag(&photo.answer(&drawn, Orientation::Keep).expect("answer")),
        6
    );
    assert_eq!(
        tag(&photo.answer(&drawn, Orientation::AsStored).expect("answer")),
        1
    );
}

#[test]
fn other_jpegs_are_refused_with_the_reason() {
    // A gray photo: its answer's colour needs the whole image encoded.
    let gray = fixture("unsure-blurred.jpg");
    assert_eq!(
        Photo::open(gray.as_slice().into()).err(),
        Some(Unsupported::Colour)
    );
    assert!(Photo::open(b"not a jpeg".as_slice().into()).is_err());
    let bytes = fixture("image18.jpg");
    let cut = &bytes[..bytes.len() / 2];
    assert!(Photo::open(cut.into()).is_err());
}

#[test]
fn the_luma_is_the_same_walked_on_one_thread_or_two_and_a_cut_scan_is_refused() {
    let luma = |threads: usize, jpeg: &[u8]| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| Photo::open_with_luma(jpeg.into()).map(|(_, luma)| luma))
    };
    let jpeg = fixture("kubiesa-03_01.jpg");
    let one = luma(1, &jpeg).expect("walked on one thread");
    let two = luma(2, &jpeg).expect("walked on two");
    assert!(one == two, "the two walks give different samples");
    // Its gray as the colour decoder gives it, within the rounding of the
    // colour conversion: the plane is the photo's, rows top down.
    let rgb = decode(&jpeg);
    assert_eq!(one.len(), (rgb.width() * rgb.height()) as usize);
    let far = rgb
        .pixels()
        .zip(&one)
        .filter(|(p, &y)| {
            let [r, g, b] = p.0.map(f32::from);
            (0.299 * r + 0.587 * g + 0.114 * b - f32::from(y)).abs() > 4.0
        })
        .count();
    assert!(
        far * 100 < one.len(),
        "{far} samples far from the colour's luma"
    );
    // The scan cut at two thirds and ended there: refused, whichever way it
    // is walked, and neither way waits for bands that never come.
    let mut cut = jpeg[..jpeg.len() * 2 / 3].to_vec();
    cut.extend_from_slice(&[0xFF, 0xD9]);
    assert!(luma(1, &cut).is_err());
    assert!(luma(2, &cut).is_err());
}
