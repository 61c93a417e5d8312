//! sudoku-snap in the browser: the photo reader, decision, solver and
//! drawing of the command line, compiled to WebAssembly and called from the
//! page's worker (`www/worker.js`).
//!
//! Nothing here reads, decides or draws on its own: [`session::Session`]
//! holds a photo and calls `snap_vision` and `snap_answer` as the binary
//! does; this file carries its results to JavaScript as JSON text (the
//! `--json` objects) and RGBA pixels for a canvas.
//!
//! Built for `wasm32-unknown-unknown` by `scripts/web.sh build`; on other
//! targets it compiles too, so that the workspace's lints, docs and tests
//! cover it.

pub mod session;

use image::RgbImage;
use wasm_bindgen::prelude::*;

use session::Session;

/// The page's reader: one photo at a time, with the person's corrections.
#[wasm_bindgen]
pub struct Snap {
    session: Session,
}

/// An image for a canvas: RGBA pixels, row by row.
#[wasm_bindgen]
pub struct Picture {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

#[wasm_bindgen]
impl Picture {
    /// Width in pixels.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, 4 bytes each (taken out: a second call gets none).
    pub fn take_rgba(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.rgba)
    }
}

impl Picture {
    fn of(image: &RgbImage) -> Picture {
        let rgba = image
            .pixels()
            .flat_map(|p| [p.0[0], p.0[1], p.0[2], u8::MAX])
            .collect();
        Picture {
            width: image.width(),
            height: image.height(),
            rgba,
        }
    }
}

#[wasm_bindgen]
impl Snap {
    /// A reader with the embedded digit model.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Snap, JsError> {
        Ok(Snap {
            session: Session::new().map_err(|e| JsError::new(&e.to_string()))?,
        })
    }

    /// Loads the digit model now (it takes a moment), so that the first
    /// photo does not wait for it.
    pub fn warm_up(&self) -> Result<(), JsError> {
        self.session
            .warm_up()
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// Reads a photo's bytes; `name` is its file name. Returns the view as
    /// JSON (see [`session::View`]); a photo without a grid, or bytes that
    /// are no image, give a view with that status, not an error.
    pub fn read(&mut self, name: &str, bytes: &[u8]) -> String {
        json(&self.session.read(name, bytes))
    }

    /// Sets cell `cell` (layout index) of grid `grid` to `value` (0 for
    /// empty; -1 for what was read) and decides again; returns the view as
    /// JSON.
    pub fn correct(&mut self, grid: usize, cell: usize, value: i32) -> Result<String, JsError> {
        let value = match value {
            -1 => None,
            v => Some(u8::try_from(v).map_err(|_| JsError::new(&format!("bad value {v}")))?),
        };
        self.session
            .correct(grid, cell, value)
            .map(|view| json(&view))
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The photo with the answers drawn in (the photo alone when there is
    /// nothing to draw); `undefined` before a photo is read.
    pub fn answer(&self) -> Option<Picture> {
        self.session.answer_image().as_ref().map(Picture::of)
    }

    /// The photo alone, turned as the answer is; `undefined` before a
    /// photo is read.
    pub fn photo(&self) -> Option<Picture> {
        self.session.photo_image().as_ref().map(Picture::of)
    }

    /// Each grid's next step, with the corrections applied.
    pub fn hint(&self) -> Hint {
        let hints = self.session.hints();
        Hint {
            json: json(&hints.reports),
            picture: hints.image.as_ref().map(Picture::of),
        }
    }
}

/// The hints of a photo.
#[wasm_bindgen]
pub struct Hint {
    json: String,
    picture: Option<Picture>,
}

#[wasm_bindgen]
impl Hint {
    /// Each grid's hint as JSON: an array of `hint --json` objects.
    #[wasm_bindgen(getter)]
    pub fn json(&self) -> String {
        self.json.clone()
    }

    /// The photo with each grid's next step drawn; `undefined` when there
    /// is nothing to draw (taken out: a second call gets none).
    pub fn take_picture(&mut self) -> Option<Picture> {
        self.picture.take()
    }
}

/// JSON text of plain data (string keys only: cannot fail).
fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
