//! What a page will cost to render, measured before it is rendered.
//!
//! The renderer decodes every stream and image a page draws whole, in
//! memory, and draws forms as often as the content asks, with no budget and
//! no way to stop it: a 1.3 KB JPEG whose header declares 65000 x 65000
//! pixels asks it for 12.7 GB, a 1 MB content stream can inflate to 1 GB,
//! and seven forms each drawing the next ten times make 10^7 fills from
//! 2 KB. So before a page is rendered, what it draws is walked the way the
//! renderer will walk it (content streams, then the appearance of each
//! visible annotation) and measured, cheaply and without the renderer:
//!
//! - every image drawn (`Do`, inline images, their masks), by its
//!   dictionary and, for JPEG and JPEG 2000 data, by the codestream's own
//!   header (the one the decoder obeys), against [`MAX_IMAGE_PIXELS`];
//! - the decoded size of every stream the page uses (contents, forms,
//!   images, the fonts it selects, the graphics states, shadings and
//!   patterns it names), decoded here in chunks that are counted and
//!   dropped, each stream once, against [`MAX_DECODED_BYTES`] for the page
//!   as a whole;
//! - the operators the page runs once forms are expanded (a form drawn ten
//!   times counts ten times), against [`MAX_OPERATIONS`].
//!
//! Only what the page uses is counted, as the renderer only decodes that: a
//! book whose pages share one resource dictionary holding every page's
//! scan costs each page its own scan, not the book's.
//!
//! What cannot be measured this way (a filter this module does not decode,
//! a fill repeated with a tiling pattern, Type 3 glyphs, transparency
//! groups and soft masks, which cost pixels, not streams) is left to the
//! caller's process limits: the batch renders pages in child processes
//! with a memory limit and a deadline. This check makes the common bombs
//! cheap to refuse, with a reason, in every caller (the fuzz target
//! included).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use hayro::hayro_syntax::content::ops::TypedInstruction;
use hayro::hayro_syntax::content::TypedIter;
use hayro::hayro_syntax::object::{Array, Dict, MaybeRef, Name, Object, ObjectIdentifier, Stream};
use hayro::hayro_syntax::page::{Page, Resources};
use hayro::hayro_syntax::xref::XRef;
use hayro::hayro_syntax::Filter;
use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZFlush, MZStatus};

use crate::decode::MAX_PIXELS;

/// Most pixels of one image on a page: the photo bound, [`MAX_PIXELS`]
/// (about 67 MP). A page scanned at 600 dpi (Letter: 5100 x 6600, 34 MP)
/// fits; the decoder allocates the whole image at once, so a larger one
/// would cost its full size before a pixel is drawn.
pub const MAX_IMAGE_PIXELS: u64 = MAX_PIXELS;

/// Most bytes one page may decode, all the streams and images it uses
/// together: 128 MiB. A page scanned in colour at 600 dpi (Letter: 101 MB
/// decoded) fits; a puzzle page's streams come to kilobytes. A render is
/// allowed memory for this much whether it uses it or not (see the
/// binary's `commands::render`), so this bound also sets how many pages
/// render at once within a run's memory.
pub const MAX_DECODED_BYTES: u64 = 128 << 20;

/// Most content operators one page may run, forms expanded: 4 million.
/// A puzzle page runs a few thousand (the shared vector book: 4,070),
/// a dense map a few hundred thousand; the renderer draws about 100,000
/// simple fills a second, so this is under a minute of work at worst.
pub const MAX_OPERATIONS: u64 = 4_000_000;

/// Most objects walked for one page (resources looked up, objects inside
/// fonts, shadings and graphics states). A page with its fonts and images
/// is a few hundred; this keeps the walk itself bounded on a hostile file.
const MAX_OBJECTS: usize = 200_000;

/// The renderer's nesting limit for forms drawing forms: deeper ones are
/// not drawn, so they are not counted either.
const MAX_FORM_DEPTH: u32 = 50;

/// Bytes inflated at a time while counting a stream's decoded size.
const CHUNK: usize = 64 << 10;

/// Annotation flags (PDF 32000-1, 12.5.3) under which the renderer does not
/// draw an annotation: hidden (bit 2) and no-view (bit 6).
const ANNOTATION_NOT_DRAWN: i64 = (1 << 1) | (1 << 5);

/// What a page may cost; [`Limits::PAGE`] in use, smaller ones in tests.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub(super) image_pixels: u64,
    pub(super) decoded_bytes: u64,
    pub(super) operations: u64,
}

impl Limits {
    /// The bounds of a page render.
    pub(super) const PAGE: Limits = Limits {
        image_pixels: MAX_IMAGE_PIXELS,
        decoded_bytes: MAX_DECODED_BYTES,
        operations: MAX_OPERATIONS,
    };
}

/// Measures `page` (see the module's comment); the error says which bound
/// it passes, in words for a message after `page N: `.
pub(super) fn check(page: &Page<'_>, limits: Limits) -> Result<(), String> {
    let mut walk = Walk::new(limits, page.xref());
    let raw = page.raw();
    let resources = page.resources();
    let mut operations = 0u64;
    for stream in content_streams(raw) {
        let content = walk.content(&stream)?;
        operations = operations.saturating_add(walk.operations(&content, resources, 0)?);
        if operations > limits.operations {
            return Err(walk.too_much_work());
        }
    }
    // Each visible annotation's appearance is drawn as a form over the page.
    for annot in raw
        .get::<Array<'_>>(b"Annots")
        .iter()
        .flat_map(|a| a.iter::<Dict<'_>>())
    {
        walk.count_object()?;
        if annot.get::<i64>(b"F").unwrap_or(0) & ANNOTATION_NOT_DRAWN != 0 {
            continue;
        }
        if let Some(appearance) = appearance_stream(&annot) {
            operations = operations.saturating_add(walk.form(&appearance, resources, 1)?);
            if operations > limits.operations {
                return Err(walk.too_much_work());
            }
        }
    }
    Ok(())
}

/// The page's content streams: `/Contents` is one stream or an array.
fn content_streams<'a>(page: &Dict<'a>) -> Vec<Stream<'a>> {
    if let Some(stream) = page.get::<Stream<'_>>(b"Contents") {
        return vec![stream];
    }
    page.get::<Array<'_>>(b"Contents")
        .map(|array| array.iter::<Stream<'_>>().collect())
        .unwrap_or_default()
}

/// The appearance the renderer draws for an annotation: its normal
/// appearance, or the state `/AS` names among several (`/Off` without one).
fn appearance_stream<'a>(annot: &Dict<'a>) -> Option<Stream<'a>> {
    match annot.get::<Dict<'_>>(b"AP")?.get::<Object<'_>>(b"N")? {
        Object::Stream(stream) => Some(stream),
        Object::Dict(states) => annot
            .get::<Name<'_>>(b"AS")
            .and_then(|state| states.get::<Stream<'_>>(state.as_ref()))
            .or_else(|| states.get::<Stream<'_>>(b"Off")),
        _ => None,
    }
}

/// The state of one page's walk.
struct Walk<'x> {
    limits: Limits,
    xref: &'x XRef,
    /// Indirect objects already measured (each is counted once).
    seen: HashSet<ObjectIdentifier>,
    /// Objects walked, direct ones included.
    objects: usize,
    /// Bytes decoded so far: streams and images.
    decoded: u64,
    /// Decoded content of the forms and content streams met, by object:
    /// a form met at several depths is decoded once. Each is counted in
    /// `decoded`, so this holds at most the page's decoded bound.
    contents: HashMap<ObjectIdentifier, Rc<[u8]>>,
    /// Operators of a form, expanded, by (form, resources it sees, depth).
    form_work: HashMap<(ObjectIdentifier, usize, u32), u64>,
}

impl<'x> Walk<'x> {
    fn new(limits: Limits, xref: &'x XRef) -> Walk<'x> {
        Walk {
            limits,
            xref,
            seen: HashSet::new(),
            objects: 0,
            decoded: 0,
            contents: HashMap::new(),
            form_work: HashMap::new(),
        }
    }

    fn too_much_work(&self) -> String {
        format!(
            "it runs more than {} drawing operations, forms and patterns expanded; not rendered",
            self.limits.operations
        )
    }

    fn too_much_data(&self) -> String {
        format!(
            "its streams and images decode to more than {} MiB; not rendered",
            self.limits.decoded_bytes >> 20
        )
    }

    /// Counts one more object walked.
    fn count_object(&mut self) -> Result<(), String> {
        self.objects += 1;
        if self.objects > MAX_OBJECTS {
            return Err(format!(
                "it refers to more than {MAX_OBJECTS} objects; not rendered"
            ));
        }
        Ok(())
    }

    /// True the first time an indirect object is met; always true for a
    /// direct one (an inline image is decoded each time it is drawn).
    fn first_time(&mut self, id: Option<ObjectIdentifier>) -> bool {
        id.is_none_or(|id| self.seen.insert(id))
    }

    /// Walks the objects on `stack` and everything they refer to, except
    /// pages and the page tree (an annotation's link leads there), and
    /// measures the streams among them. Each indirect object is walked
    /// once, found by its number (a direct object has no number of its own
    /// and cannot form a cycle).
    fn objects(&mut self, mut stack: Vec<MaybeRef<Object<'x>>>) -> Result<(), String> {
        while let Some(item) = stack.pop() {
            self.count_object()?;
            let object = match item {
                MaybeRef::NotRef(object) => object,
                MaybeRef::Ref(r) => {
                    let id = ObjectIdentifier::from(r);
                    if !self.seen.insert(id) {
                        continue;
                    }
                    let Some(object) = self.xref.get::<Object<'_>>(id) else {
                        continue;
                    };
                    object
                }
            };
            match object {
                Object::Dict(dict) if !is_page_node(&dict) => push_entries(&dict, &mut stack),
                Object::Stream(stream) => {
                    self.stream(&stream)?;
                    push_entries(stream.dict(), &mut stack);
                }
                Object::Array(array) => stack.extend(array.raw_iter()),
                _ => {}
            }
        }
        Ok(())
    }

    /// Walks the entry `key` of `dict` (a resource the content names) as
    /// [`objects`](Self::objects) does.
    fn entry(&mut self, dict: &Dict<'x>, key: impl AsRef<[u8]>) -> Result<(), String> {
        let stack: Vec<_> = dict.get_raw::<Object<'_>>(key).into_iter().collect();
        self.objects(stack)
    }

    /// Counts a stream's decoded size (an image's from its size, the rest
    /// by decoding it in counted chunks).
    fn stream(&mut self, stream: &Stream<'x>) -> Result<(), String> {
        if is_image(stream.dict()) {
            return self.image_data(stream);
        }
        let room = self.limits.decoded_bytes.saturating_sub(self.decoded);
        let size = match decoded_size(stream, room) {
            Measured::Within(size) => size,
            Measured::Over => return Err(self.too_much_data()),
            // An image filter outside an image, or a filter not decoded
            // here: the renderer's limits apply.
            Measured::Unknown => 0,
        };
        self.add(size)
    }

    /// An image drawn: measured the first time (an indirect one), with its
    /// masks.
    fn image(&mut self, stream: &Stream<'x>) -> Result<(), String> {
        if !self.first_time(stream.dict().obj_id()) {
            return Ok(());
        }
        self.image_data(stream)?;
        // A soft mask or a stencil mask is an image decoded beside it.
        self.entry(stream.dict(), b"SMask")?;
        self.entry(stream.dict(), b"Mask")
    }

    /// Checks an image's size and counts its decoded bytes.
    fn image_data(&mut self, stream: &Stream<'_>) -> Result<(), String> {
        let dict = stream.dict();
        let number = |keys: [&[u8]; 2]| -> u64 {
            keys.iter()
                .find_map(|k| dict.get::<i64>(k))
                .map_or(0, |n| n.max(0).unsigned_abs())
        };
        let (mut width, mut height) = (number([b"Width", b"W"]), number([b"Height", b"H"]));
        let bits = if dict.get::<bool>(b"ImageMask").or(dict.get::<bool>(b"IM")) == Some(true) {
            1
        } else {
            number([b"BitsPerComponent", b"BPC"]).clamp(1, 16)
        };
        let mut components = components(dict);
        // A JPEG or JPEG 2000 decoder allocates what its codestream's own
        // header says, whatever the dictionary claims.
        if let Some((w, h, c)) = codestream_size(stream, self.limits.decoded_bytes) {
            width = width.max(w);
            height = height.max(h);
            components = components.max(c);
        }
        let pixels = width.saturating_mul(height);
        if pixels > self.limits.image_pixels {
            return Err(format!(
                "an image declares {width}x{height} pixels; the largest read is {} megapixels",
                self.limits.image_pixels / 1_000_000
            ));
        }
        let row = width
            .saturating_mul(components)
            .saturating_mul(bits)
            .div_ceil(8);
        self.add(row.saturating_mul(height))?;
        // The image's data is decoded before it is cut to its size: a
        // Flate stream of any declared size can inflate to gigabytes.
        if !stream.filters().iter().any(is_image_filter) {
            let room = self.limits.decoded_bytes.saturating_sub(self.decoded);
            if matches!(decoded_size(stream, room), Measured::Over) {
                return Err(self.too_much_data());
            }
        }
        Ok(())
    }

    /// Adds `bytes` to the page's decoded total.
    fn add(&mut self, bytes: u64) -> Result<(), String> {
        self.decoded = self.decoded.saturating_add(bytes);
        if self.decoded > self.limits.decoded_bytes {
            return Err(self.too_much_data());
        }
        Ok(())
    }

    /// A content stream's or form's decoded bytes, counted the first time,
    /// kept to read its operators; empty when this module cannot decode it.
    fn content(&mut self, stream: &Stream<'x>) -> Result<Rc<[u8]>, String> {
        let id = stream.dict().obj_id();
        if let Some(bytes) = id.and_then(|id| self.contents.get(&id)) {
            return Ok(Rc::clone(bytes));
        }
        let room = self.limits.decoded_bytes.saturating_sub(self.decoded);
        let bytes: Rc<[u8]> = match decode_bounded(stream, room) {
            Decoded::Bytes(bytes) => bytes.into(),
            Decoded::Over => return Err(self.too_much_data()),
            Decoded::Unknown => Rc::from(Vec::new()),
        };
        if self.first_time(id) {
            self.add(bytes.len() as u64)?;
        }
        if let Some(id) = id {
            self.contents.insert(id, Rc::clone(&bytes));
        }
        Ok(bytes)
    }

    /// Operators `content` runs with `resources`, each form it draws
    /// expanded (up to the renderer's depth limit), and what it uses
    /// measured: images, fonts, graphics states, shadings, patterns.
    fn operations(
        &mut self,
        content: &[u8],
        resources: &Resources<'x>,
        depth: u32,
    ) -> Result<u64, String> {
        let mut total = 0u64;
        let mut ops = TypedIter::new(content);
        while let Some(op) = ops.next() {
            total = total.saturating_add(1);
            match op {
                TypedInstruction::XObject(name) => match resources.get_x_object(name.0) {
                    Some(form) if is_form(&form) => {
                        total = total.saturating_add(self.form(&form, resources, depth + 1)?);
                    }
                    Some(image) if is_image(image.dict()) => self.image(&image)?,
                    _ => {}
                },
                TypedInstruction::InlineImage(image) => self.image_data(image.0)?,
                TypedInstruction::TextFont(font) => self.entry(&resources.fonts, font.0)?,
                TypedInstruction::Shading(shading) => {
                    self.entry(&resources.shadings, shading.0)?;
                }
                TypedInstruction::SetGraphicsState(state) => {
                    total = total.saturating_add(self.graphics_state(state.0, resources, depth)?);
                }
                TypedInstruction::NonStrokeColorNamed(colour) => {
                    if let Some(name) = colour.1 {
                        total = total.saturating_add(self.pattern(name, resources, depth)?);
                    }
                }
                TypedInstruction::StrokeColorNamed(colour) => {
                    if let Some(name) = colour.1 {
                        total = total.saturating_add(self.pattern(name, resources, depth)?);
                    }
                }
                _ => {}
            }
            if total > self.limits.operations {
                return Err(self.too_much_work());
            }
        }
        Ok(total)
    }

    /// A graphics state set: its objects measured, and the form of a soft
    /// mask it holds, which is drawn (its operators, returned).
    fn graphics_state(
        &mut self,
        name: &Name<'_>,
        resources: &Resources<'x>,
        depth: u32,
    ) -> Result<u64, String> {
        self.entry(&resources.ext_g_states, name)?;
        let mask_form = resources
            .get_ext_g_state(name)
            .and_then(|state| state.get::<Dict<'_>>(b"SMask"))
            .and_then(|mask| mask.get::<Stream<'_>>(b"G"));
        match mask_form {
            Some(form) => self.form(&form, resources, depth + 1),
            None => Ok(0),
        }
    }

    /// A pattern selected as a colour: a tiling pattern's cell is drawn as
    /// a form is (its operators, returned, counted once per selection), a
    /// shading pattern's objects are measured.
    fn pattern(
        &mut self,
        name: &Name<'_>,
        resources: &Resources<'x>,
        depth: u32,
    ) -> Result<u64, String> {
        match resources.get_pattern(name) {
            Some(Object::Stream(cell)) => self.form(&cell, resources, depth + 1),
            Some(_) => {
                self.entry(&resources.patterns, name)?;
                Ok(0)
            }
            None => Ok(0),
        }
    }

    /// Operators a form (or a tiling pattern's cell) runs when drawn at
    /// `depth`, with `outer` as the resources of what draws it (a form
    /// without its own inherits them).
    fn form(
        &mut self,
        form: &Stream<'x>,
        outer: &Resources<'x>,
        depth: u32,
    ) -> Result<u64, String> {
        if depth > MAX_FORM_DEPTH {
            return Ok(0);
        }
        self.count_object()?;
        let own = form
            .dict()
            .get::<Dict<'_>>(b"Resources")
            .map(Resources::new);
        let resources = own.as_ref().unwrap_or(outer);
        let key = (
            form.obj_id(),
            resources.x_objects.data().as_ptr() as usize,
            depth,
        );
        if let Some(&work) = self.form_work.get(&key) {
            return Ok(work);
        }
        let content = self.content(form)?;
        let work = self.operations(&content, resources, depth)?;
        self.form_work.insert(key, work);
        Ok(work)
    }
}

/// True for a page or page-tree node: the walk of one page stops there.
fn is_page_node(dict: &Dict<'_>) -> bool {
    matches!(
        dict.get::<Name<'_>>(b"Type").as_deref(),
        Some(b"Page" | b"Pages")
    )
}

/// Pushes the values of `dict`, except `/Parent` (the page tree above).
fn push_entries<'a>(dict: &Dict<'a>, stack: &mut Vec<MaybeRef<Object<'a>>>) {
    for key in dict.keys() {
        if key.as_ref() != b"Parent" {
            stack.extend(dict.get_raw::<Object<'_>>(key.as_ref()));
        }
    }
}

fn is_image(dict: &Dict<'_>) -> bool {
    dict.get::<Name<'_>>(b"Subtype").as_deref() == Some(b"Image")
}

fn is_form(stream: &Stream<'_>) -> bool {
    stream.dict().get::<Name<'_>>(b"Subtype").as_deref() == Some(b"Form")
}

fn is_image_filter(filter: &Filter) -> bool {
    matches!(
        filter,
        Filter::DctDecode | Filter::JpxDecode | Filter::Jbig2Decode | Filter::CcittFaxDecode
    )
}

/// Colour components per pixel of an image, from its colour space; 4 (the
/// most of any device space) when it cannot be told.
fn components(dict: &Dict<'_>) -> u64 {
    let space = dict
        .get::<Object<'_>>(b"ColorSpace")
        .or_else(|| dict.get::<Object<'_>>(b"CS"));
    let name_components = |name: &[u8]| match name {
        b"DeviceGray" | b"G" | b"CalGray" | b"Indexed" | b"I" | b"Separation" => 1,
        b"DeviceRGB" | b"RGB" | b"CalRGB" | b"Lab" => 3,
        _ => 4,
    };
    match space {
        None => 1,
        Some(Object::Name(name)) => name_components(&name),
        Some(Object::Array(array)) => {
            let mut items = array.iter::<Object<'_>>();
            match items.next() {
                Some(Object::Name(name)) if &*name == b"ICCBased" => items
                    .next()
                    .and_then(|o| o.into_stream())
                    .and_then(|s| s.dict().get::<u32>(b"N"))
                    .map_or(4, |n| u64::from(n).clamp(1, 4)),
                Some(Object::Name(name)) if &*name == b"DeviceN" => items
                    .next()
                    .and_then(|o| o.into_array())
                    .map_or(4, |a| a.iter::<Object<'_>>().count() as u64)
                    .max(1),
                Some(Object::Name(name)) => name_components(&name),
                _ => 4,
            }
        }
        Some(_) => 4,
    }
}

/// Width, height and components a JPEG (SOF) or JPEG 2000 (SIZ) codestream
/// declares, for an image whose last filter is `/DCTDecode` or
/// `/JPXDecode` and whose earlier filters (if any) this module decodes.
fn codestream_size(stream: &Stream<'_>, limit: u64) -> Option<(u64, u64, u64)> {
    let filters = stream.filters();
    let last = *filters.last()?;
    if !matches!(last, Filter::DctDecode | Filter::JpxDecode) {
        return None;
    }
    let data = match filters.len() {
        1 => stream.raw_data().into_owned(),
        _ => match decode_chain(stream, &filters[..filters.len() - 1], limit) {
            Decoded::Bytes(bytes) => bytes,
            _ => return None,
        },
    };
    match last {
        Filter::DctDecode => jpeg_size(&data),
        _ => jpx_size(&data),
    }
}

/// The frame size of a JPEG: the first SOFn marker's height, width and
/// components.
fn jpeg_size(data: &[u8]) -> Option<(u64, u64, u64)> {
    let mut i = data.windows(2).position(|w| w == [0xFF, 0xD8])? + 2;
    while i + 4 <= data.len() {
        if data[i] != 0xFF {
            i += 1;
            continue;
        }
        let marker = data[i + 1];
        let is_sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_sof {
            let sof = data.get(i + 4..i + 10)?;
            let height = u64::from(u16::from_be_bytes([sof[1], sof[2]]));
            let width = u64::from(u16::from_be_bytes([sof[3], sof[4]]));
            return Some((width, height, u64::from(sof[5])));
        }
        if marker == 0xFF || marker == 0x01 || (0xD0..=0xD9).contains(&marker) {
            i += if marker == 0xFF { 1 } else { 2 };
            continue;
        }
        let len = usize::from(u16::from_be_bytes([*data.get(i + 2)?, *data.get(i + 3)?]));
        i += 2 + len;
    }
    None
}

/// The image size of a JPEG 2000 codestream (raw, or inside a JP2 file):
/// its SIZ marker's extent less its offset, and components.
fn jpx_size(data: &[u8]) -> Option<(u64, u64, u64)> {
    let at = data
        .windows(4)
        .position(|w| w == [0xFF, 0x4F, 0xFF, 0x51])?
        + 4;
    let siz = data.get(at..at + 38)?;
    let word = |o: usize| {
        u64::from(u32::from_be_bytes([
            siz[o],
            siz[o + 1],
            siz[o + 2],
            siz[o + 3],
        ]))
    };
    let (width, height) = (
        word(4).saturating_sub(word(12)),
        word(8).saturating_sub(word(16)),
    );
    let components = u64::from(u16::from_be_bytes([siz[36], siz[37]]));
    Some((width, height, components))
}

/// A stream's decoded size, measured up to `limit`.
enum Measured {
    Within(u64),
    Over,
    Unknown,
}

/// The decoded size of `stream` up to `limit`, counting the last filter's
/// output in chunks that are dropped (earlier filters are decoded whole,
/// each bounded by `limit`).
fn decoded_size(stream: &Stream<'_>, limit: u64) -> Measured {
    let filters = stream.filters();
    let Some((&last, before)) = filters.split_last() else {
        let len = stream.raw_data().len() as u64;
        return if len > limit {
            Measured::Over
        } else {
            Measured::Within(len)
        };
    };
    let input = match before {
        [] => stream.raw_data().into_owned(),
        _ => match decode_chain(stream, before, limit) {
            Decoded::Bytes(bytes) => bytes,
            Decoded::Over => return Measured::Over,
            Decoded::Unknown => return Measured::Unknown,
        },
    };
    let mut count = 0u64;
    let known = run_filter(last, &input, limit, &mut |chunk| {
        count += chunk.len() as u64;
        count <= limit
    });
    match known {
        None => Measured::Unknown,
        Some(_) if count > limit => Measured::Over,
        Some(_) => Measured::Within(count),
    }
}

/// A stream decoded whole, up to a limit.
enum Decoded {
    Bytes(Vec<u8>),
    Over,
    Unknown,
}

/// `stream` decoded through all its filters, at most `limit` bytes.
fn decode_bounded(stream: &Stream<'_>, limit: u64) -> Decoded {
    let filters = stream.filters();
    if filters.is_empty() {
        let data = stream.raw_data();
        if data.len() as u64 > limit {
            return Decoded::Over;
        }
        return Decoded::Bytes(data.into_owned());
    }
    decode_chain(stream, &filters, limit)
}

/// `stream`'s raw data through `filters` in order, each output at most
/// `limit` bytes.
fn decode_chain(stream: &Stream<'_>, filters: &[Filter], limit: u64) -> Decoded {
    let mut data = stream.raw_data().into_owned();
    for &filter in filters {
        let mut out = Vec::new();
        let known = run_filter(filter, &data, limit, &mut |chunk| {
            out.extend_from_slice(chunk);
            out.len() as u64 <= limit
        });
        match known {
            None => return Decoded::Unknown,
            Some(_) if out.len() as u64 > limit => return Decoded::Over,
            Some(_) => data = out,
        }
    }
    Decoded::Bytes(data)
}

/// Runs one filter over `input`, handing `sink` its output in chunks until
/// the sink returns false; `None` for a filter not decoded here (LZW, run
/// length and the image codecs are left to the renderer and the caller's
/// process limits). Damaged data ends the output where the damage is.
fn run_filter(
    filter: Filter,
    input: &[u8],
    limit: u64,
    sink: &mut dyn FnMut(&[u8]) -> bool,
) -> Option<()> {
    match filter {
        Filter::Crypt => {
            // Decryption happened in `raw_data`; the filter passes through.
            sink(input);
        }
        Filter::FlateDecode => inflate_into(input, limit, sink),
        Filter::AsciiHexDecode => {
            let digits: Vec<u8> = input
                .iter()
                .take_while(|&&b| b != b'>')
                .filter_map(|&b| (b as char).to_digit(16).map(|d| d as u8))
                .collect();
            let bytes: Vec<u8> = digits
                .chunks(2)
                .map(|p| p[0] << 4 | p.get(1).copied().unwrap_or(0))
                .collect();
            sink(&bytes);
        }
        Filter::Ascii85Decode => {
            sink(&ascii85(input));
        }
        _ => return None,
    }
    Some(())
}

/// Inflates zlib (or, when the header is not zlib's, raw deflate) data in
/// chunks, as the renderer's decoder accepts both.
fn inflate_into(input: &[u8], limit: u64, sink: &mut dyn FnMut(&[u8]) -> bool) {
    let zlib = input.len() >= 2
        && input[0] & 0x0F == 8
        && (u16::from(input[0]) << 8 | u16::from(input[1])) % 31 == 0;
    let format = if zlib {
        DataFormat::Zlib
    } else {
        DataFormat::Raw
    };
    let mut state = InflateState::new_boxed(format);
    let mut out = vec![0u8; CHUNK];
    let mut rest = input;
    let mut total = 0u64;
    loop {
        let result = inflate(&mut state, rest, &mut out, MZFlush::None);
        rest = &rest[result.bytes_consumed..];
        total += result.bytes_written as u64;
        if !sink(&out[..result.bytes_written]) || total > limit {
            return;
        }
        match result.status {
            Ok(MZStatus::Ok) if result.bytes_written > 0 || result.bytes_consumed > 0 => {}
            _ => return,
        }
    }
}

/// ASCII85 (`<~...~>` content, `z` for four zeros), damaged groups dropped.
fn ascii85(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut group = [0u8; 5];
    let mut n = 0;
    let body = input.strip_prefix(b"<~").unwrap_or(input);
    for &b in body {
        match b {
            b'~' => break,
            b'z' if n == 0 => out.extend_from_slice(&[0; 4]),
            b'!'..=b'u' => {
                group[n] = b - b'!';
                n += 1;
                if n == 5 {
                    let value = group.iter().fold(0u64, |v, &d| v * 85 + u64::from(d));
                    out.extend_from_slice(&(value as u32).to_be_bytes());
                    n = 0;
                }
            }
            _ => {}
        }
    }
    if n > 1 {
        for slot in group.iter_mut().skip(n) {
            *slot = 84;
        }
        let value = group.iter().fold(0u64, |v, &d| v * 85 + u64::from(d));
        out.extend_from_slice(&(value as u32).to_be_bytes()[..n - 1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use hayro::hayro_syntax::Pdf;

    use super::*;

    /// Bounds small enough for test files of a few kilobytes.
    const SMALL: Limits = Limits {
        image_pixels: 10_000,
        decoded_bytes: 64 << 10,
        operations: 1_000,
    };

    /// A PDF of one 200 x 200 pt page: object 3 is the page, with
    /// `resources`, drawing content object 4; `more` are objects 5, 6, ...
    fn pdf(resources: &str, content: &[u8], content_dict: &str, more: &[Vec<u8>]) -> Vec<u8> {
        build(
            "",
            &format!("/Resources {resources}"),
            stream(content_dict, content),
            more,
        )
    }

    /// As [`pdf`], the resources on the page tree, inherited by the page.
    fn pdf_inheriting(resources: &str, content: &[u8], more: &[Vec<u8>]) -> Vec<u8> {
        build(
            &format!("/Resources {resources}"),
            "",
            stream("", content),
            more,
        )
    }

    /// As [`pdf`], with `/Annots` on the page.
    fn pdf_with_annotations(
        resources: &str,
        content: &[u8],
        annots: &str,
        more: &[Vec<u8>],
    ) -> Vec<u8> {
        build(
            "",
            &format!("/Resources {resources} /Annots {annots}"),
            stream("", content),
            more,
        )
    }

    /// A PDF of one 200 x 200 pt page: object 2 is the page tree (with
    /// `tree` entries), 3 the page (with `page` entries) drawing content
    /// object 4; `more` are objects 5, 6, ...
    fn build(tree: &str, page: &str, content: Vec<u8>, more: &[Vec<u8>]) -> Vec<u8> {
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!("<< /Type /Pages /Kids [3 0 R] /Count 1 {tree} >>").into_bytes(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] {page} /Contents 4 0 R >>"
            )
            .into_bytes(),
            content,
        ];
        objects.extend_from_slice(more);
        let mut out = b"%PDF-1.5\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let xref = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
        );
        for offset in offsets {
            out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }

    fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut body = format!("<< /Length {} {dict} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        body
    }

    /// The first page of `bytes`, measured against `limits`.
    fn measure(bytes: Vec<u8>, limits: Limits) -> Result<(), String> {
        let pdf = Pdf::new(Arc::new(bytes)).expect("a valid test PDF");
        check(&pdf.pages()[0], limits)
    }

    fn jpeg(width: u16, height: u16) -> Vec<u8> {
        let small = image::RgbImage::from_pixel(16, 16, image::Rgb([90, 90, 90]));
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new(&mut bytes)
            .encode_image(&small)
            .unwrap();
        let sof = bytes.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        bytes[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
        bytes[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
        bytes
    }

    /// A page drawing image object 5, whose dictionary says `width` x
    /// `height` and whose JPEG says `jpeg_size`.
    fn jpeg_page(width: u32, height: u32, jpeg_size: (u16, u16)) -> Vec<u8> {
        let image = stream(
            &format!(
                "/Type /XObject /Subtype /Image /Width {width} /Height {height} \
                 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode"
            ),
            &jpeg(jpeg_size.0, jpeg_size.1),
        );
        pdf(
            "<< /XObject << /Im 5 0 R >> >>",
            b"q 200 0 0 200 0 0 cm /Im Do Q",
            "",
            &[image],
        )
    }

    #[test]
    fn an_image_is_measured_by_its_dictionary_and_its_codestream() {
        assert_eq!(measure(jpeg_page(16, 16, (16, 16)), SMALL), Ok(()));
        let err = measure(jpeg_page(200, 100, (16, 16)), SMALL).unwrap_err();
        assert!(err.starts_with("an image declares 200x100 pixels"), "{err}");
        // The dictionary says 16 x 16, the JPEG's frame 300 x 300: the
        // decoder allocates what the frame says.
        let err = measure(jpeg_page(16, 16, (300, 300)), SMALL).unwrap_err();
        assert!(err.starts_with("an image declares 300x300 pixels"), "{err}");
        // At the real bound, the run's 65000 x 65000 bomb.
        let err = measure(jpeg_page(16, 16, (65000, 65000)), Limits::PAGE).unwrap_err();
        assert!(
            err.contains("65000x65000 pixels; the largest read is 67 megapixels"),
            "{err}"
        );
    }

    #[test]
    fn streams_are_counted_as_they_inflate_whatever_their_filters() {
        let zeros = |n: usize| miniz_oxide::deflate::compress_to_vec_zlib(&vec![0u8; n], 6);
        let fits = pdf("<< >>", &zeros(60 << 10), "/Filter /FlateDecode", &[]);
        assert_eq!(measure(fits, SMALL), Ok(()));
        let over = pdf("<< >>", &zeros(70 << 10), "/Filter /FlateDecode", &[]);
        let err = measure(over, SMALL).unwrap_err();
        assert!(
            err.starts_with("its streams and images decode to more than"),
            "{err}"
        );
        // Compressed twice, then written in hexadecimal: every layer is
        // decoded before the last is counted.
        let twice = miniz_oxide::deflate::compress_to_vec_zlib(&zeros(70 << 10), 6);
        let hex: String = twice.iter().map(|b| format!("{b:02x}")).collect::<String>() + ">";
        let layered = pdf(
            "<< >>",
            hex.as_bytes(),
            "/Filter [/ASCIIHexDecode /FlateDecode /FlateDecode]",
            &[],
        );
        assert!(measure(layered, SMALL).is_err());
        // A font program is counted when the page selects the font.
        let font = stream("/Filter /FlateDecode", &zeros(70 << 10));
        let fonts = "<< /Font << /F1 << /Type /Font /Subtype /TrueType /FontDescriptor \
                     << /FontFile2 5 0 R >> >> >> >>";
        let used = pdf(fonts, b"BT /F1 12 Tf ET", "", std::slice::from_ref(&font));
        assert!(measure(used, SMALL).is_err());
        let unused = pdf(fonts, b"", "", &[font]);
        assert_eq!(measure(unused, SMALL), Ok(()));
    }

    #[test]
    fn only_what_the_page_draws_is_counted_wherever_its_resources_are() {
        // A 200 x 200 gray image: 40,000 pixels, past the small bound.
        let image = stream(
            "/Type /XObject /Subtype /Image /Width 200 /Height 200 \
             /ColorSpace /DeviceGray /BitsPerComponent 8",
            &[0; 16],
        );
        let resources = "<< /XObject << /Im 5 0 R >> >>";
        let draws = b"q 200 0 0 200 0 0 cm /Im Do Q";
        // Held in the resources but not drawn (a book whose pages share
        // one dictionary of every page's scan): not decoded, not counted.
        let idle = pdf(resources, b"", "", std::slice::from_ref(&image));
        assert_eq!(measure(idle, SMALL), Ok(()));
        let drawn = pdf(resources, draws, "", std::slice::from_ref(&image));
        assert!(measure(drawn, SMALL)
            .unwrap_err()
            .starts_with("an image declares 200x200 pixels"));
        // Resources inherited from the page tree are the page's too.
        let inherited = pdf_inheriting(resources, draws, &[image]);
        assert!(measure(inherited, SMALL)
            .unwrap_err()
            .starts_with("an image declares 200x200 pixels"));
    }

    #[test]
    fn an_annotation_appearance_is_drawn_and_counted() {
        let mut forms = fan_out(4, 11);
        // Object 9: an annotation whose appearance is the top form.
        forms.push(
            b"<< /Type /Annot /Subtype /Square /Rect [0 0 200 200] /AP << /N 8 0 R >> >>".to_vec(),
        );
        let page = pdf_with_annotations("<< >>", b"", "[9 0 R]", &forms);
        assert!(measure(page, SMALL)
            .unwrap_err()
            .contains("drawing operations"));
        // Hidden (flag 2): not drawn.
        forms[4] =
            b"<< /Type /Annot /Subtype /Square /F 2 /Rect [0 0 200 200] /AP << /N 8 0 R >> >>"
                .to_vec();
        let hidden = pdf_with_annotations("<< >>", b"", "[9 0 R]", &forms);
        assert_eq!(measure(hidden, SMALL), Ok(()));
    }

    /// Forms 5, 6, ...: the first fills a square, each next one draws the
    /// one before it `width` times; `count` forms in all.
    fn fan_out(count: usize, width: usize) -> Vec<Vec<u8>> {
        let mut forms = vec![stream(
            "/Type /XObject /Subtype /Form /BBox [0 0 200 200]",
            b"0 0 10 10 re f",
        )];
        for inner in 5..4 + count {
            forms.push(stream(
                &format!(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 200] \
                     /Resources << /XObject << /F {inner} 0 R >> >>"
                ),
                "/F Do ".repeat(width).as_bytes(),
            ));
        }
        forms
    }

    #[test]
    fn forms_drawing_forms_count_every_drawing() {
        // Form 5 fills a square; forms 6, 7 and 8 each draw the one before
        // it ten times: the page's one `Do` runs 1,111 forms and 1,000 fills.
        let forms = fan_out(4, 10);
        let page = pdf("<< /XObject << /F 8 0 R >> >>", b"/F Do", "", &forms);
        let err = measure(page.clone(), SMALL).unwrap_err();
        assert!(
            err.starts_with("it runs more than 1000 drawing operations"),
            "{err}"
        );
        let roomy = Limits {
            operations: 5_000,
            ..SMALL
        };
        assert_eq!(measure(page, roomy), Ok(()));
        // Forms drawing each other (or themselves) twice would be 2^50
        // drawings by the renderer's depth limit, but the parser does not
        // resolve an object from within that object: the cycle ends where
        // it closes, for the renderer as for the measure.
        let form = |other: usize| {
            stream(
                &format!(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 200] \
                     /Resources << /XObject << /F {other} 0 R >> >>"
                ),
                b"/F Do /F Do",
            )
        };
        let page = pdf(
            "<< /XObject << /F 5 0 R >> >>",
            b"/F Do",
            "",
            &[form(6), form(5)],
        );
        assert_eq!(measure(page, Limits::PAGE), Ok(()));
        let page = pdf("<< /XObject << /F 5 0 R >> >>", b"/F Do", "", &[form(5)]);
        assert_eq!(measure(page, Limits::PAGE), Ok(()));
    }

    #[test]
    fn the_shared_vector_book_is_well_within_the_bounds() {
        let book = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/pdf/postonwj_puzzles.pdf"
        ))
        .unwrap();
        let pdf = Pdf::new(Arc::new(book)).unwrap();
        for page in pdf.pages().iter() {
            assert_eq!(check(page, Limits::PAGE), Ok(()));
            // Well within: a hundredth of the bounds would do.
            let tight = Limits {
                image_pixels: MAX_IMAGE_PIXELS / 100,
                decoded_bytes: MAX_DECODED_BYTES / 100,
                operations: MAX_OPERATIONS / 100,
            };
            assert_eq!(check(page, tight), Ok(()));
        }
    }
}
