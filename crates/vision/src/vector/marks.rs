//! What a PDF page draws, one *mark* per drawing operation, in the pixels
//! of the page as rendered: a device for hayro's interpreter, fed the same
//! operations its renderer is, that keeps each operation's extent and what
//! kind of ink it is.
//!
//! Only a few kinds are told apart, the ones a printed Sudoku is made of:
//! bars of solid ink along an axis (grid lines, stroked or filled), upright
//! glyphs filled in one solid colour (the clues), and areas of paper colour
//! (a page's white background). Everything else (curves, slanted lines,
//! dashes, images, shadings, patterns, soft masks, blending, transparency,
//! clipping that cuts a mark, Type 3 glyphs) is kept as [`Kind::Other`]: the
//! reader makes no claim about a grid such a mark touches, and leaves the
//! page to the pixels.

use hayro::hayro_interpret::font::{Glyph, GlyphRun};
use hayro::hayro_interpret::hayro_cmap::BfString;
use hayro::hayro_interpret::{
    BlendMode, ClipPath, Device, DrawMode, DrawProps, FillRule, Image, ImageDrawProps, Paint,
    SoftMask, StrokeProps,
};
use hayro::kurbo::{Affine, BezPath, Cap, PathEl, Point, Rect, Shape};

/// A colour at most this light (0 black, 1 white; Rec. 601 luma, as the
/// pages are read) is ink: as dark as print to the reader's faint-ink rule
/// (a mark keeping half the contrast of the grid's print counts as print,
/// `evidence::PRINT_DARK`), for any print, black included.
const INK_LUMA: f32 = 0.5;

/// A colour at least this light is paper: it can only hide ink, never be
/// read as ink (a page's white background, a white box).
const PAPER_LUMA: f32 = 0.98;

/// Coordinates closer than this (pixels) are the same: what a PDF writer's
/// rounding of the numbers it prints leaves.
const SAME_PX: f64 = 1e-3;

/// A bar is at most this many pixels thick to be a rule rather than a
/// filled area; a grid's bold frame is a few pixels at any usual
/// resolution, a cell is tens.
pub(super) const MAX_BAR_PX: f64 = 12.0;

/// One drawing operation's mark on the page.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Mark {
    /// Its extent in page pixels (y down), as drawn, before any clip.
    pub bounds: Rect,
    /// What it is.
    pub kind: Kind,
}

/// What a mark is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kind {
    /// A rectangle of solid ink along an axis, at most [`MAX_BAR_PX`]
    /// thick: a grid line or a piece of one.
    Bar,
    /// A glyph filled in solid ink, upright and unmirrored.
    Glyph {
        /// Its text, when the font maps it to one character.
        text: Option<char>,
        /// Which outline it is (the font program and glyph), for telling
        /// glyphs of the same shape apart from others.
        outline: u128,
    },
    /// A glyph drawn invisibly (text render mode 3, or clipping text):
    /// searchable text over a scan, or a clip still to come.
    Invisible,
    /// An area painted in paper colour.
    Paper,
    /// An image drawn on the page (a scan, a logo, a picture of a grid).
    Image,
    /// Anything else; `why` says what, for tests and debugging.
    Other {
        /// What the mark is, in a few words.
        why: &'static str,
    },
}

/// Collects the marks of a page (see the module docs).
pub(super) struct Marks {
    /// The marks in the order they were drawn.
    pub marks: Vec<Mark>,
    /// The clips in force: the device-space rectangle of a rectangular
    /// clip, `None` for any other shape.
    clips: Vec<Option<Rect>>,
    /// The transparency groups open: whether each one changes what it
    /// holds (opacity under 1, a soft mask, a blend mode).
    groups: Vec<bool>,
}

impl Marks {
    /// An empty collection.
    pub(super) fn new() -> Marks {
        Marks {
            marks: Vec::new(),
            clips: Vec::new(),
            groups: Vec::new(),
        }
    }

    /// Adds a mark, turned into [`Kind::Other`] when how it is drawn may
    /// change its look: a soft mask, a blend mode, a group that does, or a
    /// clip that cuts it.
    fn push(
        &mut self,
        bounds: Rect,
        kind: Kind,
        props: Option<(&Option<SoftMask<'_>>, BlendMode)>,
    ) {
        let kind = match props {
            Some((Some(_), _)) => Kind::Other { why: "soft mask" },
            Some((None, blend)) if blend != BlendMode::Normal => Kind::Other { why: "blend mode" },
            _ if self.groups.iter().any(|&changes| changes) => Kind::Other {
                why: "transparency group",
            },
            _ if !self.unclipped(bounds) => Kind::Other { why: "clipped" },
            _ => kind,
        };
        self.marks.push(Mark { bounds, kind });
    }

    /// Whether every clip in force leaves `bounds` whole.
    fn unclipped(&self, bounds: Rect) -> bool {
        self.clips.iter().all(|clip| {
            clip.is_some_and(|c| {
                c.x0 <= bounds.x0 + SAME_PX
                    && c.y0 <= bounds.y0 + SAME_PX
                    && c.x1 >= bounds.x1 - SAME_PX
                    && c.y1 >= bounds.y1 - SAME_PX
            })
        })
    }

    /// The marks of a filled path: each closed subpath that is a rectangle
    /// along the axes is a bar (ink, thin), paper (paper colour) or a
    /// filled area; any other shape is one mark of the whole path.
    fn fill(&mut self, path: &BezPath, props: &DrawProps<'_>, rule: FillRule) {
        let device = props.transform * path.clone();
        let ink = paint_kind(&props.paint);
        let mask = Some((&props.soft_mask, props.blend_mode));
        let rects = axis_rects(&device);
        match (rects, ink) {
            (Some(rects), Some(Ink::Dark)) => {
                for r in rects {
                    let kind = if r.width().min(r.height()) <= MAX_BAR_PX {
                        Kind::Bar
                    } else {
                        Kind::Other { why: "filled area" }
                    };
                    self.push(r, kind, mask);
                }
            }
            (Some(rects), Some(Ink::Paper)) => {
                // Overlapping paper rectangles stay paper under either
                // fill rule: a hole cut by the even-odd rule only shows
                // what is under it.
                for r in rects {
                    let kind = match rule {
                        FillRule::NonZero => Kind::Paper,
                        FillRule::EvenOdd => Kind::Other {
                            why: "even-odd paper",
                        },
                    };
                    self.push(r, kind, mask);
                }
            }
            _ => self.push(device.bounding_box(), Kind::Other { why: "fill" }, mask),
        }
    }

    /// The marks of a stroked path: each straight piece along an axis,
    /// undashed, is a bar of the stroke's width; anything else is one mark
    /// of the whole stroke.
    fn stroke(&mut self, path: &BezPath, props: &DrawProps<'_>, stroke: &StrokeProps) {
        let mask = Some((&props.soft_mask, props.blend_mode));
        let bars = (paint_kind(&props.paint) == Some(Ink::Dark) && stroke.dash_array.is_empty())
            .then(|| stroke_bars(path, props.transform, stroke))
            .flatten();
        match bars {
            Some(bars) => {
                for b in bars {
                    self.push(b, Kind::Bar, mask);
                }
            }
            None => {
                let half = f64::from(stroke.line_width) / 2.0;
                let outline = path.bounding_box().inflate(half, half);
                let bounds = props.transform.transform_rect_bbox(outline);
                self.push(bounds, Kind::Other { why: "stroke" }, mask);
            }
        }
    }
}

/// The two colours a mark may have for the reader to vouch for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ink {
    /// Opaque and at most [`INK_LUMA`] light.
    Dark,
    /// Opaque and at least [`PAPER_LUMA`] light.
    Paper,
}

/// The kind of a paint, `None` for a pattern or a colour between ink and
/// paper, or not opaque.
fn paint_kind(paint: &Paint<'_>) -> Option<Ink> {
    let Paint::Color(colour) = paint else {
        return None;
    };
    let [r, g, b, a] = colour.to_rgba().components();
    if a < 1.0 {
        return None;
    }
    let luma = 0.299 * r + 0.587 * g + 0.114 * b;
    if luma <= INK_LUMA {
        Some(Ink::Dark)
    } else if luma >= PAPER_LUMA {
        Some(Ink::Paper)
    } else {
        None
    }
}

/// The rectangles along the axes a device-space path is made of, one per
/// closed subpath, or `None` when any subpath is another shape.
fn axis_rects(path: &BezPath) -> Option<Vec<Rect>> {
    let mut out = Vec::new();
    let mut corners: Vec<Point> = Vec::new();
    let close = |corners: &mut Vec<Point>, out: &mut Vec<Rect>| -> Option<()> {
        if corners.is_empty() {
            return Some(());
        }
        let rect = rect_of(corners)?;
        out.push(rect);
        corners.clear();
        Some(())
    };
    for el in path.elements() {
        match *el {
            PathEl::MoveTo(p) => {
                close(&mut corners, &mut out)?;
                corners.push(p);
            }
            PathEl::LineTo(p) => corners.push(p),
            PathEl::ClosePath => close(&mut corners, &mut out)?,
            PathEl::QuadTo(..) | PathEl::CurveTo(..) => return None,
        }
    }
    close(&mut corners, &mut out)?;
    Some(out)
}

/// The rectangle that the polygon `corners` is (closed or not, the last
/// corner repeating the first or not), when it is one along the axes.
fn rect_of(corners: &[Point]) -> Option<Rect> {
    let mut pts: Vec<Point> = corners.to_vec();
    if pts.len() == 5 && near(pts[0], pts[4]) {
        pts.pop();
    }
    if pts.len() != 4 {
        return None;
    }
    for i in 0..4 {
        let (a, b) = (pts[i], pts[(i + 1) % 4]);
        let along_x = (a.y - b.y).abs() <= SAME_PX;
        let along_y = (a.x - b.x).abs() <= SAME_PX;
        if along_x == along_y {
            return None;
        }
    }
    let rect = Rect::from_points(pts[0], pts[2]);
    (rect.width() > 0.0 && rect.height() > 0.0).then_some(rect)
}

fn near(a: Point, b: Point) -> bool {
    (a.x - b.x).abs() <= SAME_PX && (a.y - b.y).abs() <= SAME_PX
}

/// The bars of a stroke in device space: each straight piece of the path,
/// along an axis of the device, as the rectangle its ink covers (the
/// stroke's width across; along, its length, plus half the width at an end
/// that meets another piece or has a square or round cap). `None` when
/// a piece is curved or slanted, or the transform is not a plain scale
/// along the axes (the width would not be the same both ways).
fn stroke_bars(path: &BezPath, transform: Affine, stroke: &StrokeProps) -> Option<Vec<Rect>> {
    let [a, b, c, d, _, _] = transform.as_coeffs();
    if b.abs() > SAME_PX || c.abs() > SAME_PX || (a.abs() - d.abs()).abs() > SAME_PX * a.abs() {
        return None;
    }
    let half = f64::from(stroke.line_width) * a.abs() / 2.0;
    let capped = !matches!(stroke.line_cap, Cap::Butt);
    let mut out = Vec::new();
    // Each subpath as its points, and whether it is closed.
    let mut subpaths: Vec<(Vec<Point>, bool)> = Vec::new();
    for el in path.elements() {
        match *el {
            PathEl::MoveTo(p) => subpaths.push((vec![transform * p], false)),
            PathEl::LineTo(p) => subpaths.last_mut()?.0.push(transform * p),
            PathEl::ClosePath => {
                let last = subpaths.last_mut()?;
                last.1 = true;
                if let Some(&first) = last.0.first() {
                    last.0.push(first);
                }
            }
            PathEl::QuadTo(..) | PathEl::CurveTo(..) => return None,
        }
    }
    for (points, closed) in subpaths {
        let pieces: Vec<(Point, Point)> = points
            .windows(2)
            .map(|w| (w[0], w[1]))
            .filter(|(p, q)| !near(*p, *q))
            .collect();
        let count = pieces.len();
        for (i, &(p, q)) in pieces.iter().enumerate() {
            let joined_start = i > 0 || closed;
            let joined_end = i + 1 < count || closed;
            let start = if joined_start || capped { half } else { 0.0 };
            let end = if joined_end || capped { half } else { 0.0 };
            let rect = if (p.y - q.y).abs() <= SAME_PX {
                let (x0, x1) = if p.x <= q.x {
                    (p.x - start, q.x + end)
                } else {
                    (q.x - end, p.x + start)
                };
                Rect::new(x0, p.y - half, x1, p.y + half)
            } else if (p.x - q.x).abs() <= SAME_PX {
                let (y0, y1) = if p.y <= q.y {
                    (p.y - start, q.y + end)
                } else {
                    (q.y - end, p.y + start)
                };
                Rect::new(p.x - half, y0, p.x + half, y1)
            } else {
                return None;
            };
            if rect.width().min(rect.height()) > MAX_BAR_PX {
                return None;
            }
            out.push(rect);
        }
    }
    Some(out)
}

impl<'a> Device<'a> for Marks {
    fn draw_path(&mut self, path: &BezPath, props: DrawProps<'a>, draw_mode: &DrawMode) {
        match draw_mode {
            DrawMode::Fill(rule) => self.fill(path, &props, *rule),
            DrawMode::Stroke(stroke) => self.stroke(path, &props, stroke),
            DrawMode::FillAndStroke(rule, stroke) => {
                self.fill(path, &props, *rule);
                self.stroke(path, &props, stroke);
            }
            DrawMode::Invisible => {}
        }
    }

    fn push_clip_path(&mut self, clip_path: &ClipPath) {
        self.clips.push(None);
        // A clip path that is a rectangle arrives as `push_clip_rect`;
        // this one's bounds are kept nowhere: every mark under it is
        // `Other`, whatever its place.
        let _ = clip_path;
    }

    fn push_clip_rect(&mut self, rect: &Rect) {
        self.clips.push(Some(*rect));
    }

    fn push_transparency_group(
        &mut self,
        opacity: f32,
        mask: Option<SoftMask<'a>>,
        blend_mode: BlendMode,
    ) {
        self.groups
            .push(opacity < 1.0 || mask.is_some() || blend_mode != BlendMode::Normal);
    }

    fn draw_glyph_run(
        &mut self,
        glyph_run: &GlyphRun<'_, 'a>,
        props: DrawProps<'a>,
        draw_mode: &DrawMode,
    ) {
        let mask = Some((&props.soft_mask, props.blend_mode));
        let filled_in_ink =
            matches!(draw_mode, DrawMode::Fill(_)) && paint_kind(&props.paint) == Some(Ink::Dark);
        for glyph in glyph_run.glyphs() {
            let transform = props.transform * glyph.transform();
            let outline = match &**glyph {
                Glyph::Outline(outline) => outline,
                Glyph::Type3(_) => {
                    // A Type 3 glyph is a drawing of its own, placed
                    // through its font's matrix: its extent is not known
                    // here, so it is taken to cover the page.
                    self.marks.push(Mark {
                        bounds: Rect::new(f64::MIN, f64::MIN, f64::MAX, f64::MAX),
                        kind: Kind::Other {
                            why: "Type 3 glyph",
                        },
                    });
                    continue;
                }
            };
            let path = transform * outline.outline();
            if path.elements().is_empty() {
                continue;
            }
            let bounds = path.bounding_box();
            let kind = match draw_mode {
                DrawMode::Invisible => Kind::Invisible,
                _ if !filled_in_ink => Kind::Other {
                    why: "glyph not filled in ink",
                },
                _ if !upright(transform) => Kind::Other {
                    why: "glyph turned or mirrored",
                },
                _ => Kind::Glyph {
                    text: match glyph.as_unicode() {
                        Some(BfString::Char(c)) => Some(c),
                        Some(BfString::String(s)) => single_char(&s),
                        None => None,
                    },
                    outline: outline.identifier().cache_key(),
                },
            };
            self.push(bounds, kind, mask);
        }
    }

    fn draw_image(&mut self, image: Image<'a, '_>, props: ImageDrawProps<'a>) {
        let _ = image;
        // An image is drawn into the unit square of its transform.
        let bounds = props
            .transform
            .transform_rect_bbox(Rect::new(0.0, 0.0, 1.0, 1.0));
        self.marks.push(Mark {
            bounds,
            kind: Kind::Image,
        });
    }

    fn pop_clip(&mut self) {
        self.clips.pop();
    }

    fn pop_transparency_group(&mut self) {
        self.groups.pop();
    }
}

/// The one character of `s`, if it has exactly one.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// Whether a glyph's transform to device space (y down) keeps it upright
/// and unmirrored: a scale along the axes, x kept, y flipped (glyph space
/// has y up).
fn upright(transform: Affine) -> bool {
    let [a, b, c, d, _, _] = transform.as_coeffs();
    let scale = a.abs().max(d.abs());
    a > 0.0 && d < 0.0 && b.abs() <= 1e-6 * scale && c.abs() <= 1e-6 * scale
}
