//! Counts of an image's gray levels, for its percentiles: sorting a large
//! grid's pixels (a million in the finer page search's box) cost a tenth
//! of the search; counting them costs a pass.

use image::GrayImage;

use crate::geometry::Quad;

/// Pixel values counted (see [`histogram`]).
pub(crate) struct Histogram {
    counts: [usize; 256],
    /// Pixels counted.
    pub len: usize,
}

impl Histogram {
    /// The value at index `i` of the pixels sorted; `None` past the end.
    pub(crate) fn sorted_at(&self, i: usize) -> Option<u8> {
        let mut below = 0;
        for (v, &c) in self.counts.iter().enumerate() {
            below += c;
            if i < below {
                return u8::try_from(v).ok();
            }
        }
        None
    }
}

/// The histogram of the pixels of `img` in the bounding box of `quad`
/// (none for a quad off the image).
pub(crate) fn histogram(img: &GrayImage, quad: &Quad) -> Histogram {
    let (w, h) = (img.width() as f32, img.height() as f32);
    let (bx0, by0, bx1, by1) = quad.bounds();
    let (x0, x1) = (bx0.clamp(0.0, w) as usize, bx1.clamp(0.0, w) as usize);
    let (y0, y1) = (by0.clamp(0.0, h) as usize, by1.clamp(0.0, h) as usize);
    let mut counts = [0usize; 256];
    let stride = img.width() as usize;
    let raw = img.as_raw();
    for y in y0..y1 {
        for &p in &raw[y * stride + x0..y * stride + x1.max(x0)] {
            counts[usize::from(p)] += 1;
        }
    }
    Histogram {
        counts,
        len: (y1.saturating_sub(y0)) * x1.saturating_sub(x0),
    }
}

/// The histogram of every pixel of `img`.
pub(crate) fn histogram_of_image(img: &GrayImage) -> Histogram {
    let (w, h) = (img.width() as f32, img.height() as f32);
    histogram(img, &Quad::new([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_histogram_gives_the_pixels_of_the_box_sorted() {
        let img = GrayImage::from_fn(50, 40, |x, y| Luma([((x * 37 + y * 11) % 251) as u8]));
        let quad = Quad::new([(3.2, 5.0), (31.0, 4.1), (33.7, 29.0), (2.0, 30.5)]);
        let hist = histogram(&img, &quad);
        let mut px: Vec<u8> = (4..30)
            .flat_map(|y| (2..33).map(move |x| (x, y)))
            .map(|(x, y)| img.get_pixel(x, y)[0])
            .collect();
        px.sort_unstable();
        assert_eq!(hist.len, px.len());
        for (i, &p) in px.iter().enumerate() {
            assert_eq!(hist.sorted_at(i), Some(p), "{i}");
        }
        assert_eq!(hist.sorted_at(px.len()), None);
        let off = Quad::new([(60.0, 0.0), (70.0, 0.0), (70.0, 9.0), (60.0, 9.0)]);
        assert_eq!(histogram(&img, &off).len, 0);
    }
}
