//! The stages on fixture photos and drawn pages, tested from inside the
//! crate: the locator, the rectifier and the cell cutter are not part of
//! the public API, which `tests/` sees alone.

mod fixtures;
mod locate_books;
mod locate_pages;
