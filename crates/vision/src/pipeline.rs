//! The photo pipeline: chains the stages and times each one.
//!
//! ```text
//! bytes -> decode -> locate (every grid) -> layout (Samurai from five grids)
//!       -> rectify + cells (per grid) -> classify (+ orientation) -> evidence
//!       -> decide (per puzzle) -> overlay
//! ```
//!
//! Nothing here does image work of its own; each stage lives in its module
//! and this one only passes plain data along.

use std::path::{Path, PathBuf};
// The clock the stages are timed by: std's, except on wasm32 in a browser,
// where std's panics (no clock) and the browser's stands in for it.
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

use image::GrayImage;
use snap_solver::Shape;

use crate::cells::{self, rotate_tiles, Cells};
use crate::classify::{kind_probs, Classifier, OcrError};
use crate::data::{Decision, Found, GridReading, Layout, PartReading, Tile, Verdict, CLASSES};
use crate::debug;
use crate::decide;
use crate::decode::{self, DecodeError, Decoded};
use crate::evidence;
use crate::geometry::{Homography, Quad, CELL_PX};
use crate::guide::{self, Guide};
use crate::kind::kind_as_read;
use crate::layout;
use crate::locate;
#[cfg(feature = "pdf")]
use crate::pdf::{PageImage, PdfDoc};
use crate::rectify;
use crate::tint;
#[cfg(feature = "pdf")]
use crate::vector;
#[cfg(feature = "pdf")]
use crate::vector::Drawing;

/// Time spent in each stage, in milliseconds, in the order they first ran.
///
/// The stages are laps of one thread's clock, so they add up to its wall
/// time: work done beside it on the pool (the finer page search while the
/// first search's puzzles are read) counts only where that thread waits
/// for it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timings(pub Vec<(&'static str, f64)>);

impl Timings {
    /// Adds the time since `start` to `stage` (a stage that runs again, as
    /// `cells` does for every puzzle of a page, keeps one entry), and
    /// returns now.
    pub fn lap(&mut self, stage: &'static str, start: Instant) -> Instant {
        let now = Instant::now();
        self.add(stage, (now - start).as_secs_f64() * 1000.0);
        now
    }

    /// Adds `ms` to `stage`.
    fn add(&mut self, stage: &'static str, ms: f64) {
        match self.0.iter_mut().find(|(s, _)| *s == stage) {
            Some((_, sum)) => *sum += ms,
            None => self.0.push((stage, ms)),
        }
    }

    /// Time of one stage, if it ran.
    pub fn get(&self, stage: &str) -> Option<f64> {
        self.0.iter().find(|(s, _)| *s == stage).map(|&(_, ms)| ms)
    }

    /// Sum of all stages.
    pub fn total(&self) -> f64 {
        // Not `sum()`: the sum of no floats is -0.0, which JSON would show.
        self.0.iter().fold(0.0, |total, (_, ms)| total + ms)
    }
}

/// Serialised as `{stage: ms, ..., "total": ms}` in the order the stages ran,
/// to the microsecond.
impl serde::Serialize for Timings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len() + 1))?;
        for (stage, ms) in &self.0 {
            map.serialize_entry(stage, &round_ms(*ms))?;
        }
        map.serialize_entry("total", &round_ms(self.total()))?;
        map.end()
    }
}

fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// Why a photo could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The bytes are not a usable image.
    #[error("{0}")]
    Decode(#[from] DecodeError),
    /// No Sudoku grid was found in the image.
    #[error("no Sudoku grid found")]
    NoGrid,
    /// The digit model failed.
    #[error("{0}")]
    Model(#[from] OcrError),
    /// The corners a person gave cannot be a grid of this image.
    #[error("{0}")]
    Guide(String),
}

/// A photo or page read: every puzzle on it, in reading order.
#[derive(Debug, Clone)]
pub struct Page {
    /// The decoded image, pixels as stored.
    pub photo: Decoded,
    /// Every puzzle found, in reading order.
    pub grids: Vec<GridReading>,
    /// Time per stage.
    pub timings: Timings,
    /// Shapes the size of its grids that the search did not look at: a
    /// page is searched for a few dozen of its largest shapes, and a page
    /// of more grids (a mosaic of a hundred puzzles) has this many more
    /// that may be grids. Zero on an ordinary page.
    pub unsearched: usize,
}

/// The most shapes a page is searched for grids (its largest): a page with
/// more may have grids left unread, and says so ([`Page::unsearched`]).
pub const PAGE_SEARCH_SHAPES: usize = locate::PAGE_MAX_CANDIDATES;

/// A 9x9's side: the grids whose model the web page loads ahead, and the
/// model that checks a book page's drawn clues.
const CLASSIC_SIDE: usize = 9;

/// Reads photos: holds the digit model, loaded once per process.
pub struct Reader {
    /// The model file's classifier, or `None` for the embedded model (see
    /// [`Reader::classifier`]).
    model_file: Option<Classifier>,
    debug_dir: Option<PathBuf>,
    /// The caller's work on each photo, done beside its reading (see
    /// [`Reader::with_ahead`]).
    ahead: Option<Ahead>,
    /// Whether JPEG photos are opened to change in place while they are
    /// decoded (see [`Reader::opening_jpegs`]).
    open_jpegs: bool,
    guide: Guide,
}

/// Work on a decoded photo that its answer will want (its colour, or its
/// JPEG opened to change in place), kept in the photo's own cells.
type Ahead = Box<dyn Fn(&Decoded) + Send + Sync>;

impl Reader {
    /// A reader with the embedded model, or the model file at `model`.
    ///
    /// A model file is loaded and checked here, so that a bad one is an
    /// error before any photo. The embedded model is loaded on a thread of
    /// its own, started here: the first photo is read and decoded
    /// meanwhile (loading and optimising the plan takes about as long as
    /// reading a small photo's file), and the first classification waits
    /// for it if it is not ready.
    pub fn new(model: Option<&Path>, debug_dir: Option<&Path>) -> Result<Reader, OcrError> {
        let model_file = match model {
            Some(path) => Some(Classifier::from_file(path)?),
            None => {
                // Detached: the plan lands in `Classifier::embedded`'s
                // once-cell, and an error there is met again at first use.
                #[cfg(feature = "threads")]
                std::thread::spawn(|| Classifier::embedded().is_ok());
                None
            }
        };
        // No warm-up run here: a blank batch costs as much as a real one,
        // and the one photo of most runs would pay it on top of its own.
        Ok(Reader {
            model_file,
            debug_dir: debug_dir.map(Path::to_path_buf),
            ahead: None,
            open_jpegs: false,
            guide: Guide::default(),
        })
    }

    /// The digit model for the cells of an `n` by `n` grid: the file's, or
    /// the embedded one for that size (waiting for its load if that has not
    /// finished).
    fn classifier(&self, n: usize) -> Result<Classifier, OcrError> {
        match &self.model_file {
            Some(classifier) => Ok(classifier.clone()),
            None => Classifier::embedded_for(n),
        }
    }

    /// Loads the digit model now (where threads cannot load it ahead, the
    /// web page does so when it opens, so that its first photo does not
    /// wait for it); an error when it cannot be loaded.
    pub fn load_model(&self) -> Result<(), OcrError> {
        self.classifier(CLASSIC_SIDE).map(|_| ())
    }

    /// Work done on a second thread while each photo is read (none, by
    /// default): what the answer will want of the photo and can be had
    /// before the reading ends, such as its colour ([`Decoded::rgb`]) or its
    /// JPEG opened to change in place ([`Decoded::in_place`]); both keep
    /// what they compute in the photo. Worth it where a core is free: it
    /// comes off the photo's wall time; in a busy batch it costs nothing
    /// extra, the work being needed anyway (unless no grid is found).
    /// Without the `threads` feature it is not done ahead; the photo does
    /// it when first asked.
    pub fn with_ahead(mut self, work: impl Fn(&Decoded) + Send + Sync + 'static) -> Reader {
        self.ahead = Some(Box::new(work));
        self
    }

    /// With `open`, each JPEG photo is also kept opened to make its answer
    /// in place ([`Decoded::in_place`]), as the walk that decodes its luma
    /// leaves it (see `decode::decode_opening`), for a caller that will draw
    /// JPEG answers.
    pub fn opening_jpegs(mut self, open: bool) -> Reader {
        self.open_jpegs = open;
        self
    }

    /// What a person says about the puzzles (`--shape`, `--corners`): with
    /// corners the grid is not searched for; with a shape every puzzle is
    /// read as that shape (see `guide::as_shape`).
    pub fn with_guide(mut self, guide: Guide) -> Reader {
        self.guide = guide;
        self
    }

    /// Reads the photo at `path`.
    pub fn read_file(&self, path: &Path) -> Result<Page, ReadError> {
        let bytes = decode::read_file_shared(path).map_err(ReadError::Io)?;
        let debug = self.debug_dir.as_ref().map(|d| d.join(debug_name(path)));
        self.read_decoding(
            |open| decode::decode_opening_shared(&bytes, open),
            debug.as_deref(),
        )
    }

    /// Reads a photo from its encoded bytes. `debug` is a folder for the
    /// intermediate images, if wanted.
    pub fn read_bytes(&self, bytes: &[u8], debug: Option<&Path>) -> Result<Page, ReadError> {
        self.read_decoding(|open| decode::decode_opening(bytes, open), debug)
    }

    /// Reads the photo `decode` gives (told whether to keep a JPEG opened),
    /// its decoding timed.
    fn read_decoding(
        &self,
        decode: impl FnOnce(bool) -> Result<Decoded, decode::DecodeError>,
        debug: Option<&Path>,
    ) -> Result<Page, ReadError> {
        let start = Instant::now();
        let photo = decode(self.open_jpegs).map_err(ReadError::Decode)?;
        let mut timings = Timings::default();
        timings.lap("decode", start);
        self.read_decoded(photo, timings, debug)
    }

    /// Reads an image already decoded (a photo, or a rendered PDF page);
    /// `timings` holds the stages already run. No grid at all is
    /// [`ReadError::NoGrid`].
    pub fn read_decoded(
        &self,
        photo: Decoded,
        timings: Timings,
        debug: Option<&Path>,
    ) -> Result<Page, ReadError> {
        let (grids, timings, unsearched) = match &self.ahead {
            Some(work) if cfg!(feature = "threads") => std::thread::scope(|s| {
                s.spawn(|| work(&photo));
                self.read_grids(&photo, timings, debug)
            })?,
            _ => self.read_grids(&photo, timings, debug)?,
        };
        Ok(Page {
            photo,
            grids,
            timings,
            unsearched,
        })
    }

    /// Reads page `rendered.page` of `doc`, rendered as `rendered`;
    /// `timings` holds the stages already run. A page whose grids are
    /// drawn as lines with text clues, every mark accounted for and the
    /// rendered pixels agreeing, is read from its drawing (the `vector`
    /// stage: exact, and a few milliseconds); any other page, and every
    /// page when a guide is given or debug images are asked for (they show
    /// the pixel stages), as [`read_decoded`](Self::read_decoded) reads
    /// the rendered pixels.
    #[cfg(feature = "pdf")]
    pub fn read_pdf_page(
        &self,
        doc: &PdfDoc,
        rendered: PageImage,
        mut timings: Timings,
        debug: Option<&Path>,
    ) -> Result<Page, ReadError> {
        let drawing = self.wants_drawing(debug).then(|| {
            let start = Instant::now();
            let drawing = doc.drawing(
                rendered.page,
                rendered.dpi,
                rendered.image.gray.dimensions(),
            );
            timings.lap("drawing", start);
            drawing
        });
        self.read_rendered(rendered, drawing.as_ref(), timings, debug)
    }

    /// Whether a page is read from its drawing when it can be: not when a
    /// guide is given or debug images are asked for (they show the pixel
    /// stages).
    #[cfg(feature = "pdf")]
    pub fn wants_drawing(&self, debug: Option<&Path>) -> bool {
        debug.is_none() && self.guide.is_empty()
    }

    /// Reads a rendered page as [`read_pdf_page`](Self::read_pdf_page)
    /// does, its `drawing` read elsewhere ([`PdfDoc::drawing`], in the
    /// process that rendered it): from the drawing when it is given, the
    /// reader [wants it](Self::wants_drawing) and the pixels and glyphs
    /// agree; else from the pixels.
    #[cfg(feature = "pdf")]
    pub fn read_rendered(
        &self,
        rendered: PageImage,
        drawing: Option<&Drawing>,
        mut timings: Timings,
        debug: Option<&Path>,
    ) -> Result<Page, ReadError> {
        if let Some(drawing) = drawing.filter(|_| self.wants_drawing(debug)) {
            let start = Instant::now();
            let classifier = self.classifier(CLASSIC_SIDE)?;
            let read = vector::confirm(drawing, &rendered.image.gray, &classifier)
                .map_err(ReadError::Model)?;
            timings.lap("vector", start);
            if let Ok(grids) = read {
                return Ok(Page {
                    photo: rendered.image,
                    grids,
                    timings,
                    unsearched: 0,
                });
            }
        }
        self.read_decoded(rendered.image, timings, debug)
    }

    /// Every puzzle of `photo` read, with `timings` extended by the stages,
    /// and the page's shapes not searched (see [`Page::unsearched`]).
    fn read_grids(
        &self,
        photo: &Decoded,
        mut timings: Timings,
        debug: Option<&Path>,
    ) -> Result<(Vec<GridReading>, Timings, usize), ReadError> {
        if let Some(corners) = self.guide.corners {
            let (w, h) = photo.gray.dimensions();
            let layout =
                guide::layout_from_corners(corners, self.guide.shape, w, h, photo.exif_orientation)
                    .map_err(ReadError::Guide)?;
            let mut t = Instant::now();
            let read = self.read_layout(photo, &layout, debug, &mut timings, &mut t)?;
            let mut grids: Vec<GridReading> = read.into_iter().collect();
            if grids.is_empty() {
                return Err(ReadError::NoGrid);
            }
            evidence::merge_page(&mut grids);
            return Ok((grids, timings, 0));
        }
        let t = Instant::now();
        // A dark theme draws its grid in light lines on dark ground: search
        // its negative, where the lines are dark as on paper (and the image
        // as it is when that finds nothing). The cells are read in the
        // right polarity either way (`cells::dark_on_light`). A photo not
        // mostly dark has its negative searched only when the image as it
        // is gives no puzzle (below).
        let search = |gray: &GrayImage| self.search(photo, gray, debug, t);
        let dark = decode::dark_ground(&photo.gray);
        let (located, dbg, early) = if dark {
            let negative = decode::negative(&photo.gray);
            match search(&negative) {
                (located, dbg, early) if !located.is_empty() => (located, dbg, early),
                _ => search(&photo.gray),
            }
        } else {
            search(&photo.gray)
        };
        let (mut early, mut t) = early_timed(early, &mut timings, t);
        if let Some(dir) = debug {
            // Best effort: debug images must never turn a result into an error.
            let _ = debug::write_search(dir, &dbg);
        }
        let (mut grids, mut any_layout) =
            self.read_located(photo, &located, &mut early, debug, &mut timings, &mut t)?;
        let reported = |grids: &[GridReading]| grids.iter().any(|g| kind_as_read(g).is_reported());
        // An image that gives no puzzle as searched is looked at again, in
        // this order, until one look gives a puzzle (see [`Look`]); a photo
        // whose puzzle is found costs nothing more.
        let looks = [
            (!dark).then_some(Look::Negative),
            Some(Look::FaintLattice),
            Some(Look::TwiceSize {
                negative: dark,
                faint: true,
            }),
            Some(Look::TwiceSize {
                negative: !dark,
                faint: false,
            }),
            Some(Look::Frame),
        ];
        // Grids all reported cut (or ruled at the frame, reported so) may be
        // one grid the search outlined skewed in a photo cropped just inside
        // its border, a tilted grid whose corners the crop cuts: the frame
        // look runs there too, and its grid, only ever a whole one with its
        // border on the frame, replaces them.
        let only_cut =
            |grids: &[GridReading]| !grids.is_empty() && grids.iter().all(|g| g.cut() || g.ruled());
        for look in looks.into_iter().flatten() {
            let frame_over_cut = matches!(look, Look::Frame) && only_cut(&grids);
            if reported(&grids) && !frame_over_cut {
                continue;
            }
            let (located, searched) = match look {
                Look::Negative => {
                    let (located, _, searched) =
                        self.search(photo, &decode::negative(&photo.gray), None, t);
                    (located, searched)
                }
                Look::FaintLattice => (locate::faint_lattice_grids(&photo.gray), None),
                Look::TwiceSize { negative, faint } => (
                    locate::locate_twice_size(&photo.gray, negative, faint),
                    None,
                ),
                Look::Frame => (locate::frame_grid(&photo.gray), None),
            };
            let (mut early, after) = early_timed(searched, &mut timings, t);
            t = after;
            let (read, some) =
                self.read_located(photo, &located, &mut early, debug, &mut timings, &mut t)?;
            any_layout |= some;
            if reported(&read) {
                grids = read;
            }
        }
        if grids.is_empty() {
            if let Some(dir) = debug.filter(|_| !any_layout) {
                // Best effort, as above.
                let _ = debug::write_debug_images(dir, None, Some((&photo.gray, None)), None, None);
            }
            return Err(ReadError::NoGrid);
        }
        let mut grids: Vec<GridReading> = grids
            .into_iter()
            .map(|grid| self.lone_samurai_grid(photo, grid, &mut timings, &mut t))
            .collect::<Result<_, _>>()?;
        evidence::merge_page(&mut grids);
        Ok((grids, timings, dbg.unsearched))
    }

    /// The puzzles of the grids `located` on `photo` (those read while the
    /// search went on taken from `early`), and whether they made any layout.
    fn read_located(
        &self,
        photo: &Decoded,
        located: &[locate::Located],
        early: &mut EarlyReads,
        debug: Option<&Path>,
        timings: &mut Timings,
        t: &mut Instant,
    ) -> Result<(Vec<GridReading>, bool), ReadError> {
        let mut layouts = layout::compose(&found_of(located, photo.gray.dimensions()));
        if let Some(shape) = self.guide.shape {
            layouts = guide::as_shape(layouts, shape);
        }
        let mut grids = Vec::with_capacity(layouts.len());
        for (k, layout) in layouts.iter().enumerate() {
            // A puzzle read while the finer search ran is taken as read,
            // and read where its lattice places it when that is known only
            // now (its `alternative`).
            let first = layout.without_alternatives();
            let read = match early.layouts.iter().position(|l| *l == first) {
                Some(i) => match std::mem::replace(&mut early.reads[i], Ok(None))? {
                    Some(grid) => Some(self.placed_otherwise(photo, layout, grid, timings, t)?),
                    None => None,
                },
                None => {
                    // The first grid's debug images go beside the page's
                    // search images, each other grid's into `grid-K/`.
                    let dir = debug.map(|d| match k {
                        0 => d.to_path_buf(),
                        _ => d.join(format!("grid-{}", k + 1)),
                    });
                    self.read_layout(photo, layout, dir.as_deref(), timings, t)?
                }
            };
            if let Some(grid) = read {
                grids.push(grid);
            }
        }
        Ok((grids, !layouts.is_empty()))
    }

    /// Searches `gray` (the photo or its negative) for grids, and reads the
    /// puzzles the first search finds while the finer one is prepared (see
    /// [`locate::locate_all_early`]). With a debug folder nothing is read
    /// early: the debug images show the first puzzle of the whole page.
    fn search(
        &self,
        photo: &Decoded,
        gray: &GrayImage,
        debug: Option<&Path>,
        start: Instant,
    ) -> (
        Vec<locate::Located>,
        locate::LocateDebug,
        Option<EarlyReads>,
    ) {
        locate::locate_all_early(gray, |coarse| {
            if debug.is_some() {
                return EarlyReads::default();
            }
            let mut timings = Timings::default();
            let mut t = timings.lap("locate", start);
            let layouts = layout::compose(&found_of(coarse, photo.gray.dimensions()));
            let reads = layouts
                .iter()
                .map(|layout| self.read_layout(photo, layout, None, &mut timings, &mut t))
                .collect();
            EarlyReads {
                layouts,
                reads,
                timings: Some(timings),
                end: t,
            }
        })
    }

    /// A lone 9x9 `grid` read with several solutions, looked at as one grid
    /// of a Samurai whose other grids the search missed (see
    /// [`locate::samurai_of_lone`]): the Samurai, read in its place, when
    /// all five of its grids stand and it reads with one solution; else the
    /// grid marked as a Samurai's part (see `Found::samurai_part`) when its
    /// Samurai shows, so that its several solutions, which the Samurai's
    /// other grids settle, are no verdict on the puzzle; else the grid as
    /// it is. Only such a reading is looked at, so a photo that solves
    /// costs nothing more.
    fn lone_samurai_grid(
        &self,
        photo: &Decoded,
        mut grid: GridReading,
        timings: &mut Timings,
        t: &mut Instant,
    ) -> Result<GridReading, ReadError> {
        let [part] = grid.layout.parts.as_slice() else {
            return Ok(grid);
        };
        let found = part.found;
        let several = |board: &snap_solver::Board| {
            matches!(
                snap_solver::solve(board, 2),
                Ok(snap_solver::Outcome::Multiple { .. })
            )
        };
        if grid.layout.shape != Shape::classic()
            || found.cut
            || found.samurai_part
            || !several(&grid.as_read())
        {
            return Ok(grid);
        }
        let lone = locate::Located {
            quad: found.quad,
            score: 0.0,
            n: found.n,
            cut: false,
            at_frame: found.at_frame,
            alternative: None,
        };
        let (shows, grids) = locate::samurai_of_lone(&photo.gray, &lone);
        let layouts = grids.map(|g| layout::compose(&found_of(&g, photo.gray.dimensions())));
        if let Some([samurai]) = layouts.as_deref() {
            if samurai.shape == Shape::Samurai {
                if let Some(read) = self.read_layout(photo, samurai, None, timings, t)? {
                    if matches!(
                        snap_solver::solve(&read.as_read(), 2),
                        Ok(snap_solver::Outcome::Unique(_))
                    ) {
                        return Ok(read);
                    }
                }
            }
        }
        if shows {
            grid.layout.parts[0].found.samurai_part = true;
        }
        Ok(grid)
    }

    /// Reads one puzzle (see [`Reader::look_at`]), looks at it again
    /// sharpened when more of its cells are read in doubt than the
    /// decision's search reaches ([`Reader::sharpened`]), and where it is
    /// read in doubt, where a lattice places it otherwise
    /// ([`Reader::placed_otherwise`]).
    fn read_layout(
        &self,
        photo: &Decoded,
        layout: &Layout,
        debug: Option<&Path>,
        timings: &mut Timings,
        t: &mut Instant,
    ) -> Result<Option<GridReading>, ReadError> {
        let Some(grid) = self.look_at(photo, layout, debug, timings, t, Focus::AsTaken)? else {
            return Ok(None);
        };
        let grid = if decide::beyond_reach(grid.shape(), &grid.cells) {
            self.sharpened(photo, layout, grid, timings, t)?
        } else {
            grid
        };
        self.placed_otherwise(photo, layout, grid, timings, t)
            .map(Some)
    }

    /// `grid`, read from `layout`, or its reading sharpened
    /// ([`Focus::Sharpened`]) when that is solved and `grid` is not. A
    /// photo out of focus leaves 8s and Bs, 3s and 5s alike, E and F
    /// faint; an unsharp mask of about the blur gives their strokes back.
    /// Only a reading with more cells in doubt than the decision's search
    /// reaches is looked at so, so a photo that reads surely costs nothing
    /// more.
    fn sharpened(
        &self,
        photo: &Decoded,
        layout: &Layout,
        grid: GridReading,
        timings: &mut Timings,
        t: &mut Instant,
    ) -> Result<GridReading, ReadError> {
        let sharpened = Focus::Sharpened {
            quarter_turns: grid.quarter_turns,
            tried: grid.orientations_tried,
        };
        // The sharpened reading is decided first: it is seldom solved, and
        // then the reading as taken needs no decision here.
        let sharp = self
            .look_at(photo, layout, None, timings, t, sharpened)?
            .filter(|sharp| decide_grid(sharp, &[]).verdict == Verdict::Solved);
        let take = sharp.is_some() && matches!(decide_grid(&grid, &[]).verdict, Verdict::Unsure(_));
        *t = timings.lap("solve", *t);
        Ok(match sharp {
            Some(sharp) if take => sharp,
            _ => grid,
        })
    }

    /// `grid`, read from the one-part `layout`, or where it is read in
    /// doubt, its reading where a lattice too faint to be sure places it
    /// otherwise ([`Found::alternative`]) when that reading is solved.
    fn placed_otherwise(
        &self,
        photo: &Decoded,
        layout: &Layout,
        grid: GridReading,
        timings: &mut Timings,
        t: &mut Instant,
    ) -> Result<GridReading, ReadError> {
        let [part] = layout.parts.as_slice() else {
            return Ok(grid);
        };
        let Some(quad) = part.found.alternative else {
            return Ok(grid);
        };
        if !matches!(decide_grid(&grid, &[]).verdict, Verdict::Unsure(_)) {
            *t = timings.lap("solve", *t);
            return Ok(grid);
        }
        let mut there = layout.clone();
        there.parts[0].found.quad = quad;
        there.parts[0].found.alternative = None;
        let other = self
            .look_at(photo, &there, None, timings, t, Focus::AsTaken)?
            .filter(|other| decide_grid(other, &[]).verdict == Verdict::Solved);
        *t = timings.lap("solve", *t);
        Ok(other.unwrap_or(grid))
    }

    /// Reads one puzzle in `focus`: every part rectified and cut into
    /// tiles, the orientation found on the part with most ink (sharpened,
    /// the first look's), every part classified in that orientation.
    /// `None` for a degenerate outline.
    fn look_at(
        &self,
        photo: &Decoded,
        layout: &Layout,
        debug: Option<&Path>,
        timings: &mut Timings,
        t: &mut Instant,
        focus: Focus,
    ) -> Result<Option<GridReading>, ReadError> {
        let mut stored: Vec<Vec<Tile>> = Vec::with_capacity(layout.parts.len());
        let mut negative = Vec::with_capacity(layout.parts.len());
        let mut marked = layout.clone();
        for (part, to_mark) in layout.parts.iter().zip(&mut marked.parts) {
            let Some((tiles, inverted, ruled)) = part_tiles(&photo.gray, &part.found, debug, focus)
            else {
                return Ok(None);
            };
            // A table ruled through its cells passed the grid search: no
            // puzzle. One at the frame may be a grid the frame cut, its
            // quad squeezing a whole lattice over the rows in the image
            // (its own lines then run through that lattice's cells): read,
            // and reported cut unless it reads as a table (`Found::ruled`).
            if ruled && !part.found.cut {
                if !part.found.at_frame {
                    return Ok(None);
                }
                to_mark.found.ruled = true;
            }
            stored.push(tiles);
            negative.push(inverted);
        }
        *t = timings.lap("cells", *t);
        // The Samurai's centre grid (or the one part) decides the
        // orientation: it is always complete and holds clues.
        let lead = if layout.parts.len() == 5 { 2 } else { 0 };
        let n = layout.parts[lead].found.n;
        let (quarter_turns, orientations_tried, lead_classes) = match focus {
            // Sharpening does not turn a grid: it is read as it was turned.
            Focus::Sharpened {
                quarter_turns: k,
                tried,
            } => {
                let classes = self
                    .classifier(n)?
                    .classify(&rotate_tiles(&stored[lead], n, k))
                    .map_err(ReadError::Model)?;
                (k, tried, classes)
            }
            Focus::AsTaken => self.orient(&stored[lead], n, photo.exif_orientation)?,
        };
        let upright = marked.rotated(quarter_turns);
        let mut parts = Vec::with_capacity(layout.parts.len());
        for (k, part) in layout.parts.iter().enumerate() {
            let n = part.found.n;
            let tiles = rotate_tiles(&stored[k], n, quarter_turns);
            let classes = if k == lead {
                lead_classes.clone()
            } else {
                self.classifier(n)?
                    .classify(&tiles)
                    .map_err(ReadError::Model)?
            };
            let (tiles, classes) = if negative[k] {
                (tiles, classes)
            } else {
                self.look_past_faint_ink(tiles, classes, n)?
            };
            let quad = part.found.quad.rotated(quarter_turns);
            let Some(grid_to_photo) = Homography::square_to_quad((n * CELL_PX) as f64, &quad)
            else {
                return Ok(None);
            };
            let origin = upright
                .parts
                .iter()
                .find(|p| p.found.quad == quad)
                .map_or((0, 0), |p| p.origin);
            parts.push(PartReading {
                grid_to_photo,
                n,
                origin,
                tiles,
                classes,
                negative: negative[k],
            });
        }
        parts.sort_by_key(|p| p.origin);
        *t = timings.lap("classify", *t);
        let cells = evidence::merge(upright.shape, &parts, &[]);
        let mut grid = GridReading {
            layout: upright,
            quarter_turns,
            orientations_tried,
            parts,
            cells,
        };
        // The colour of a worked grid's ink, which tells a coloured pen
        // from the print where gray does not (see `decide`), costs a
        // colour decode of its cells: only where the grid is not solved
        // as read.
        if let [part] = grid.parts.as_slice() {
            if grid.shape() == Shape::classic()
                && !part.negative
                && evidence::worked(&grid.cells)
                && decide_grid(&grid, &[]).verdict != Verdict::Solved
            {
                tint::measure(photo, part, &mut grid.cells, evidence::holds_glyph);
            }
        }
        Ok(Some(grid))
    }

    /// Reads again, with their faint ink taken away, the cells that may
    /// hide a printed clue under it ([`evidence::hidden_by_faint_ink`]);
    /// a cell takes that tile and reading where the second look settles
    /// it ([`evidence::second_look_settles`]: print that the first look
    /// missed or doubted). Other readings leave the cell as it was read.
    fn look_past_faint_ink(
        &self,
        mut tiles: Vec<Tile>,
        mut classes: Vec<[f32; CLASSES]>,
        n: usize,
    ) -> Result<(Vec<Tile>, Vec<[f32; CLASSES]>), ReadError> {
        let picked = evidence::hidden_by_faint_ink(&classes, &tiles);
        if picked.is_empty() {
            return Ok((tiles, classes));
        }
        let cleaned: Vec<Tile> = picked
            .iter()
            .map(|&i| tiles[i].without_faint_ink(evidence::FAINT_SHARE))
            .collect();
        let again = self
            .classifier(n)?
            .classify(&cleaned)
            .map_err(ReadError::Model)?;
        for ((i, tile), row) in picked.into_iter().zip(cleaned).zip(again) {
            if evidence::second_look_settles(&classes[i], &row) {
                tiles[i] = tile;
                classes[i] = row;
            }
        }
        Ok((tiles, classes))
    }

    /// Finds the rotation that makes a grid read as upright digits, and
    /// returns it with the number of orientations tried and the rotated
    /// tiles' probabilities.
    ///
    /// The stored orientation is tried first (it is right for nearly every
    /// photo, and the EXIF tag cannot be trusted: see the fixtures' README),
    /// then the rotation the EXIF tag suggests, then the rest. A reading
    /// whose every inked cell is a confident upright digit ends the search
    /// early, so upright photos pay for one batch only.
    fn orient(
        &self,
        tiles: &[Tile],
        n: usize,
        exif: u8,
    ) -> Result<(u8, u8, Vec<[f32; CLASSES]>), ReadError> {
        let hint = match exif {
            6 => 1, // the camera says: turn 90 degrees clockwise to view
            3 => 2,
            8 => 3,
            _ => 0,
        };
        let mut order = vec![0u8, hint];
        order.extend([1u8, 2, 3].iter().filter(|&&k| k != hint));
        order.dedup();
        let mut best: Option<(f32, u8, Vec<[f32; CLASSES]>)> = None;
        let mut tried = 0u8;
        for k in order {
            tried += 1;
            let turned = rotate_tiles(tiles, n, k);
            let classes = self
                .classifier(n)?
                .classify(&turned)
                .map_err(ReadError::Model)?;
            let (score, confident) = upright_score(&classes);
            if best.as_ref().is_none_or(|b| score > b.0) {
                best = Some((score, k, classes));
            }
            if confident {
                break;
            }
        }
        match best {
            Some((_, k, classes)) => Ok((k, tried, classes)),
            None => Err(ReadError::NoGrid),
        }
    }
}

/// The locator's grids on an image of `size` as the layout step takes
/// them. A grid with its border on the frame is found at the frame (see
/// `GridKind::MaybeCut`) whatever the search saw: a crop through its
/// outer cells leaves its border unseen, and a comb on what is left may
/// be placed a line off (a newspaper photo cropped 0.3 of a cell into
/// its right column was read a row off, its clues clashing: "no
/// solution" for a puzzle with one).
fn found_of(located: &[locate::Located], size: (u32, u32)) -> Vec<Found> {
    located
        .iter()
        .map(|l| Found {
            quad: l.quad,
            n: l.n,
            cut: l.cut,
            at_frame: l.at_frame || locate::border_on_frame(&l.quad, l.n, size),
            samurai_part: false,
            ruled: false,
            alternative: l.alternative,
        })
        .collect()
}

/// How an image that gives no puzzle as searched is looked at again
/// ([`Reader::read_grids`]).
#[derive(Clone, Copy)]
enum Look {
    /// Its negative, searched: a dark theme's screen photographed with the
    /// room around it (a monitor on a light desk), light lines on dark
    /// ground in a photo not mostly dark. (A mostly dark image has its
    /// negative searched first.)
    Negative,
    /// A grid drawn in lines as faint as a dark theme's, which the search
    /// does not see, looked for by its lattice (see
    /// `locate::faint_lattice_grids`).
    FaintLattice,
    /// A grid too small for the search at the image's own size, searched
    /// at twice it (see `locate::locate_twice_size`), in its negative or
    /// not, its faint lattices looked for in the first of the two; its
    /// cells are read on the image as it is.
    TwiceSize { negative: bool, faint: bool },
    /// The image's frame taken as the grid's hull: a photo cropped to its
    /// grid, whose cut border outlines no hull or one skewed across the
    /// frame (see `locate::frame_grid`). Also taken where every grid found
    /// is cut.
    Frame,
}

/// The reads a search made while it went on (none if it made none), with
/// their stages added to `timings` and the search's own time, from `start`,
/// as `locate`; and the instant the search ended.
fn early_timed(
    early: Option<EarlyReads>,
    timings: &mut Timings,
    start: Instant,
) -> (EarlyReads, Instant) {
    let mut early = early.unwrap_or_default();
    let mut t = start;
    if let Some(read) = early.timings.take() {
        for (stage, ms) in read.0 {
            timings.add(stage, ms);
        }
        t = early.end;
    }
    let t = timings.lap("locate", t);
    (early, t)
}

/// The puzzles read while the finer page search was prepared: the layouts
/// composed from the first search's grids, each one's reading, the stage
/// times of that work (its first lap is the first search), and when it
/// ended.
struct EarlyReads {
    layouts: Vec<Layout>,
    reads: Vec<Result<Option<GridReading>, ReadError>>,
    timings: Option<Timings>,
    end: Instant,
}

impl Default for EarlyReads {
    fn default() -> EarlyReads {
        EarlyReads {
            layouts: Vec::new(),
            reads: Vec::new(),
            timings: None,
            end: Instant::now(),
        }
    }
}

/// How a grid's cells are looked at (see [`Reader::read_layout`]).
#[derive(Clone, Copy, Debug)]
enum Focus {
    /// The photo as taken.
    AsTaken,
    /// The rectified grid sharpened: an unsharp mask, the grid plus
    /// [`SHARPEN_AMOUNT`] times what it differs from itself blurred by
    /// [`SHARPEN_CELL`] of a cell. Read in the orientation the look as
    /// taken found (its quarter turns, and the orientations it tried).
    Sharpened { quarter_turns: u8, tried: u8 },
}

/// Sigma of the unsharp mask of [`Focus::Sharpened`], as a share of a cell:
/// about the most blur whose 16x16 photos are read surely once sharpened
/// (none of the held-out blurred 16x16 photos blurred by more than 6.5 %
/// of a cell is, in `docs/accuracy.md`). On the tuning photos (busy seed
/// 41000) a mask of 4, 6 or 9 % settled the same grids within one.
const SHARPEN_CELL: f32 = 0.06;

/// See [`SHARPEN_CELL`]: the difference added 2.5 times raises a stroke
/// blurred by about the mask's sigma back near its ink; paper and ink
/// wider than the mask keep their levels. 1.5 and 4 settled the same
/// tuning grids within one.
const SHARPEN_AMOUNT: f32 = 2.5;

/// The tiles of one square grid, as stored (row-major, not yet turned
/// upright), cut along its lines as found and looked at in `focus`: `None`
/// for a degenerate quad. `debug` receives the grid's images. Also whether
/// the grid was read from its negative, and whether it is ruled through
/// its cells as a table is (`cells::Cells::ruled`).
fn part_tiles(
    gray: &GrayImage,
    found: &Found,
    debug: Option<&Path>,
    focus: Focus,
) -> Option<(Vec<Tile>, bool, bool)> {
    let mut rectified = rectify::rectify(gray, &found.quad, found.n)?;
    if matches!(focus, Focus::Sharpened { .. }) {
        rectified = imageproc::filter::sharpen_gaussian(
            &rectified,
            SHARPEN_CELL * CELL_PX as f32,
            SHARPEN_AMOUNT,
        );
    }
    let cells = cells::extract_cells(&rectified, found.n);
    if let Some(dir) = debug {
        let _ = write_debug(dir, gray, &found.quad, &rectified, &cells);
    }
    Some((cells.tiles, cells.negative, cells.ruled))
}

/// How much a reading looks like upright glyphs: the mean log probability
/// of each inked cell's best upright glyph (a printed digit or letter, or a
/// pen digit), where "other ink" (a rotated glyph) counts against it. Empty
/// cells and pencil candidates (small marks that look much the same turned)
/// are left out. Also whether it is sure enough to stop looking at other
/// rotations: at least 8 inked cells, and at least 90% of them confident
/// upright glyphs. One unsure cell (a blurred clue) must not cost three more
/// batches; a turned grid fails the test by far, because turned 3s, 4s and
/// 7s (and every digit at 90 degrees) read as other ink.
fn upright_score(classes: &[[f32; CLASSES]]) -> (f32, bool) {
    let mut sum = 0.0f32;
    let mut inked = 0usize;
    let mut sure = 0usize;
    for row in classes {
        let p = kind_probs(row);
        if p.empty + p.pencil >= 0.5 {
            continue;
        }
        inked += 1;
        let glyph = p.upright_glyph();
        sum += glyph.max(1e-6).ln();
        if glyph >= 0.9 && p.other <= 0.05 {
            sure += 1;
        }
    }
    if inked == 0 {
        return (f32::NEG_INFINITY, false);
    }
    (sum / inked as f32, inked >= 8 && sure * 10 >= inked * 9)
}

fn debug_name(path: &Path) -> String {
    // A folder name, unlike the answer's `<stem>.solved.png`: a photo named
    // `...jpg` has the stem `..`, which would be the debug folder's parent.
    match path.file_stem().map(|s| s.to_string_lossy()) {
        Some(stem) if !matches!(stem.as_ref(), "" | "." | "..") => stem.into_owned(),
        _ => "photo".to_string(),
    }
}

fn write_debug(
    dir: &Path,
    gray: &GrayImage,
    quad: &Quad,
    rect: &GrayImage,
    cells: &Cells,
) -> image::ImageResult<()> {
    debug::write_debug_images(dir, None, Some((gray, Some(quad))), Some(rect), Some(cells))
}

/// Decides and solves one puzzle of a page. `overrides` are the user's
/// `--set` cells (layout positions).
pub fn decide_grid(grid: &GridReading, overrides: &[(usize, u8)]) -> Decision {
    let tiles = evidence::layout_tiles(grid);
    decide::decide(grid.shape(), &grid.cells, overrides, &tiles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_stage_that_runs_again_keeps_one_entry() {
        let mut timings = Timings::default();
        let start = Instant::now();
        let t = timings.lap("cells", start);
        std::thread::sleep(Duration::from_millis(2));
        let t = timings.lap("classify", t);
        timings.lap("cells", t);
        let stages: Vec<&str> = timings.0.iter().map(|(s, _)| *s).collect();
        assert_eq!(stages, ["cells", "classify"]);
        assert!(timings.get("classify").unwrap() >= 2.0);
        // Laps of one clock add up to its wall time.
        assert!(timings.total() <= start.elapsed().as_secs_f64() * 1000.0);
    }

    #[test]
    fn no_stage_totals_zero_not_minus_zero() {
        let total = Timings::default().total();
        assert!(total == 0.0 && total.is_sign_positive(), "{total}");
    }
}
