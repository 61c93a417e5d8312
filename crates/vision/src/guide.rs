//! What a person tells the reader when it cannot see it: the shape of the
//! puzzle (`--shape samurai`) and where its outer corners are (`--corners`,
//! or the whole image). A guide turns into the same [`Layout`]s the
//! locator's grids make, so everything after locating reads them as usual.

use snap_solver::{Shape, SAMURAI_GRIDS};

use crate::data::{Found, Layout, Part};
use crate::geometry::{Homography, Quad};

/// Smallest side, in pixels, of a grid given by its corners: the cells of a
/// 9x9 are then 4 pixels wide, below what the classifier's 28-pixel tiles
/// can be made from without inventing detail.
const MIN_SIDE_PX: f32 = 36.0;

/// Where the puzzle is, as a person says it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Corners {
    /// The whole image is the grid (a screenshot cropped to it, a scan of
    /// the grid alone).
    Full,
    /// Four points in pixels of the image as a viewer shows it (its EXIF
    /// turn applied), in any order.
    At([(f32, f32); 4]),
}

/// What a person says about the puzzle of a photo.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Guide {
    /// Every puzzle is of this shape.
    pub shape: Option<Shape>,
    /// The puzzle's outer corners (one puzzle per photo).
    pub corners: Option<Corners>,
}

impl Guide {
    /// True when the guide says nothing.
    pub fn is_empty(&self) -> bool {
        self.shape.is_none() && self.corners.is_none()
    }
}

/// The layout of the one puzzle whose corners a person gave, on an image
/// of `width` x `height` stored pixels with EXIF tag `exif`; of the guide's
/// shape, 9x9 by default. The grid's turn is found as for any grid, so the
/// corners' order does not matter. Errors say why the corners cannot be a
/// grid of this image.
pub(crate) fn layout_from_corners(
    corners: Corners,
    shape: Option<Shape>,
    width: u32,
    height: u32,
    exif: u8,
) -> Result<Layout, String> {
    let (w, h) = (width as f32, height as f32);
    let quad = match corners {
        Corners::Full => Quad::new([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]),
        Corners::At(points) => {
            let (vw, vh) = if matches!(exif, 6 | 8) {
                (h, w)
            } else {
                (w, h)
            };
            for &(x, y) in &points {
                if !(0.0..=vw).contains(&x) || !(0.0..=vh).contains(&y) {
                    return Err(format!(
                        "--corners: ({x}, {y}) is outside the image ({vw} x {vh} pixels as viewed)"
                    ));
                }
            }
            clockwise(points.map(|p| stored_point(p, exif, w, h)))
        }
    };
    if quad.max_side() < MIN_SIDE_PX || quad.area() < MIN_SIDE_PX * MIN_SIDE_PX {
        return Err(format!(
            "--corners: the corners enclose no grid (a grid needs sides of at least {MIN_SIDE_PX} pixels)"
        ));
    }
    let shape = shape.unwrap_or_else(Shape::classic);
    let part = |quad: Quad, n: usize, origin: (usize, usize)| Part {
        found: Found {
            quad,
            n,
            cut: false,
            at_frame: false,
            samurai_part: false,
            ruled: false,
            alternative: None,
        },
        origin,
    };
    let parts = match shape {
        Shape::Square { size, .. } => vec![part(quad, size, (0, 0))],
        Shape::Samurai => {
            let side = shape.side() as f64;
            let to_photo = Homography::square_to_quad(side, &quad)
                .ok_or_else(|| "--corners: the corners enclose no grid".to_string())?;
            SAMURAI_GRIDS
                .iter()
                .map(|&(r0, c0)| {
                    let at = |dr: usize, dc: usize| {
                        let (x, y) = to_photo.map64((c0 + dc) as f64, (r0 + dr) as f64);
                        (x as f32, y as f32)
                    };
                    part(
                        Quad::new([at(0, 0), at(0, 9), at(9, 9), at(9, 0)]),
                        9,
                        (r0, c0),
                    )
                })
                .collect()
        }
    };
    Ok(Layout { shape, parts })
}

/// The layouts as `shape`: those of it kept, a single square grid read as
/// a square of that size (its outline is the same, only the cells differ:
/// a 16x16 whose 4x4 boxes were taken for a 9x9's lines), others dropped.
pub(crate) fn as_shape(layouts: Vec<Layout>, shape: Shape) -> Vec<Layout> {
    layouts
        .into_iter()
        .filter_map(
            |layout| match (layout.shape == shape, shape, layout.parts.as_slice()) {
                (true, _, _) => Some(layout),
                (false, Shape::Square { size, .. }, [only]) => Some(Layout {
                    shape,
                    parts: vec![Part {
                        found: Found {
                            n: size,
                            ..only.found
                        },
                        origin: (0, 0),
                    }],
                }),
                _ => None,
            },
        )
        .collect()
}

/// A point as a viewer shows the image (EXIF turn `exif` applied) in the
/// stored pixels of a `w` x `h` image.
fn stored_point((x, y): (f32, f32), exif: u8, w: f32, h: f32) -> (f32, f32) {
    match exif {
        // Shown turned a quarter clockwise: a viewed (x, y) is stored at
        // (y, h - x).
        6 => (y, h - x),
        3 => (w - x, h - y),
        8 => (w - y, x),
        _ => (x, y),
    }
}

/// Four points as a quad: clockwise on screen from the one nearest the
/// top-left (the smallest x + y).
fn clockwise(points: [(f32, f32); 4]) -> Quad {
    let cx = points.iter().map(|p| p.0).sum::<f32>() / 4.0;
    let cy = points.iter().map(|p| p.1).sum::<f32>() / 4.0;
    let mut sorted = points;
    // Screen angles grow clockwise (y points down).
    sorted.sort_by(|a, b| {
        let angle = |p: &(f32, f32)| (p.1 - cy).atan2(p.0 - cx);
        angle(a).total_cmp(&angle(b))
    });
    let first = (0..4)
        .min_by(|&i, &j| {
            let s = |k: usize| sorted[k].0 + sorted[k].1;
            s(i).total_cmp(&s(j))
        })
        .unwrap_or(0);
    sorted.rotate_left(first);
    Quad::new(sorted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_in_any_order_make_one_clockwise_quad() {
        let want = Quad::new([(10.0, 20.0), (110.0, 25.0), (105.0, 120.0), (12.0, 118.0)]);
        let c = want.corners;
        for order in [[0, 1, 2, 3], [2, 0, 3, 1], [3, 2, 1, 0], [1, 3, 0, 2]] {
            assert_eq!(clockwise(order.map(|k| c[k])), want, "{order:?}");
        }
    }

    #[test]
    fn a_samurai_outline_places_its_five_grids() {
        let layout = layout_from_corners(Corners::Full, Some(Shape::Samurai), 210, 210, 1).unwrap();
        assert_eq!(layout.parts.len(), 5);
        // The centre grid spans cells 6-15 of 21, 10 pixels each.
        let centre = layout.parts[2].found.quad.corners;
        assert!((centre[0].0 - 60.0).abs() < 1e-3 && (centre[2].1 - 150.0).abs() < 1e-3);
        assert_eq!(
            layout.outline().corners,
            [(0.0, 0.0), (210.0, 0.0), (210.0, 210.0), (0.0, 210.0)]
        );
    }

    #[test]
    fn corners_are_taken_as_viewed() {
        // A 400 x 300 stored image shown turned a quarter clockwise is
        // 300 wide and 400 high; its viewed top-left corner is stored at
        // the bottom-left.
        assert_eq!(stored_point((0.0, 0.0), 6, 400.0, 300.0), (0.0, 300.0));
        let err = layout_from_corners(
            Corners::At([(0.0, 0.0), (350.0, 0.0), (350.0, 350.0), (0.0, 350.0)]),
            None,
            400,
            300,
            6,
        )
        .unwrap_err();
        assert!(err.contains("outside the image (300 x 400"), "{err}");
        let err = layout_from_corners(
            Corners::At([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]),
            None,
            400,
            300,
            1,
        )
        .unwrap_err();
        assert!(err.contains("enclose no grid"), "{err}");
    }

    #[test]
    fn a_single_grid_is_read_as_the_shape_asked_and_others_dropped() {
        let quad = Quad::new([(0.0, 0.0), (90.0, 0.0), (90.0, 90.0), (0.0, 90.0)]);
        let nine = Layout {
            shape: Shape::classic(),
            parts: vec![Part {
                found: Found {
                    quad,
                    n: 9,
                    cut: false,
                    at_frame: false,
                    samurai_part: false,
                    ruled: false,
                    alternative: None,
                },
                origin: (0, 0),
            }],
        };
        let sixteen = Shape::square(16).unwrap();
        let as_16 = as_shape(vec![nine.clone()], sixteen);
        assert_eq!(as_16[0].shape, sixteen);
        assert_eq!(as_16[0].parts[0].found.n, 16);
        assert!(as_shape(vec![nine], Shape::Samurai).is_empty());
    }
}
