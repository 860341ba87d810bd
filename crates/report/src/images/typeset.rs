//! Text on a bitmap, set glyph by glyph: each glyph's ink lands at its pen position plus its
//! left side bearing, the pen moving by the font's advance width (and kerning), so a word
//! keeps the spacing its font gives it ("IOPS", never "I OPS"). A drawing backend that sets
//! its text this way and passes everything else to the backend it wraps.

use ab_glyph::{point, Font, FontRef, Glyph, PxScale, ScaleFont};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle,
};
use std::sync::OnceLock;

/// The bundled face for `style`: bold, or regular for every other style.
fn face(style: FontStyle) -> &'static FontRef<'static> {
    static REGULAR: OnceLock<FontRef<'static>> = OnceLock::new();
    static BOLD: OnceLock<FontRef<'static>> = OnceLock::new();
    let (cell, bytes) = match style {
        FontStyle::Bold => (&BOLD, dejavu::sans::bold()),
        _ => (&REGULAR, dejavu::sans::regular()),
    };
    cell.get_or_init(|| FontRef::try_from_slice(bytes).expect("the bundled font is valid"))
}

/// A line of text laid out at `px` (the font's ascent-to-descent height, as the charts'
/// sizes mean it): its glyphs, each placed at its pen position on a baseline `px / 2` below
/// the line's top (on a whole pixel, so that flat and round bottoms end on one row), and the line's box (advances and kerning wide, `px / 1.24` high, the box
/// the charts make room for).
pub(crate) struct Line {
    pub glyphs: Vec<Glyph>,
    pub width: i32,
    pub height: i32,
}

/// `text` laid out in `font` at `px`.
pub(crate) fn layout(font: &FontRef<'_>, px: f32, text: &str) -> Line {
    let scaled = font.as_scaled(PxScale::from(px));
    let mut pen = 0f32;
    let mut prev = None;
    let mut glyphs = Vec::with_capacity(text.len());
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            pen += scaled.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(px, point(pen, (px / 2.0).floor())));
        pen += scaled.h_advance(id);
        prev = Some(id);
    }
    Line {
        glyphs,
        width: pen as i32,
        height: (px / 1.24) as i32,
    }
}

/// The ink of `line` in `font`: `ink(x, y, coverage)` per pixel, relative to the line's top
/// left corner.
pub(crate) fn rasterize(font: &FontRef<'_>, line: Line, mut ink: impl FnMut(i32, i32, f32)) {
    for g in line.glyphs {
        if let Some(o) = font.outline_glyph(g) {
            let b = o.px_bounds();
            let (x0, y0) = (b.min.x as i32, b.min.y as i32);
            o.draw(|x, y, c| ink(x0 + x as i32, y0 + y as i32, c));
        }
    }
}

/// A backend whose text is set by [`layout`] in the bundled font.
pub struct Typeset<B>(pub B);

impl<B: DrawingBackend> DrawingBackend for Typeset<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(
        &mut self,
        p: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_pixel(p, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_rect(a, b, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        centre: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_circle(centre, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.blit_bitmap(pos, size, src)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        let line = layout(face(style.style()), style.size() as f32, text);
        Ok((line.width.max(0) as u32, line.height.max(0) as u32))
    }

    /// `text` at `pos` as the style's anchor and rotation say, the line's box placed as
    /// plotters places it, so charts keep their room for it.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        use plotters_backend::text_anchor::{HPos, VPos};
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let font = face(style.style());
        let line = layout(font, style.size() as f32, text);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -line.width,
            HPos::Center => -line.width / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -line.height / 2,
            VPos::Bottom => -line.height,
        };
        let turn = style.transform();
        let (w, h) = self.get_size();
        let mut pixels = Vec::new();
        rasterize(font, line, |x, y, c| {
            let (x, y) = turn.transform(x + dx, y + dy);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 && c > 0.0 {
                pixels.push(((x, y), c));
            }
        });
        for (p, c) in pixels {
            let ink = BackendColor {
                alpha: color.alpha * f64::from(c.min(1.0)),
                rgb: color.rgb,
            };
            self.0.draw_pixel(p, ink)?;
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use plotters::prelude::*;

    /// `text` at `px` drawn on a white canvas of `w` x `h` by the PNG path (the canvas of
    /// every image, its text set by [`Typeset`]), its left end at `(px, px)`: the RGB bytes.
    pub(in crate::images) fn render(text: &str, px: u32, (w, h): (u32, u32)) -> Vec<u8> {
        let mut buf = vec![0u8; (w * h * 3) as usize];
        {
            let root = crate::images::canvas(Typeset(BitMapBackend::with_buffer(&mut buf, (w, h))))
                .unwrap();
            let at = (px as i32, px as i32);
            root.draw(&Text::new(text, at, crate::images::font(px).color(&BLACK)))
                .unwrap();
            root.present().unwrap();
        }
        buf
    }

    /// The columns of `buf` (`w` wide) that hold any ink.
    fn inked(buf: &[u8], w: u32) -> Vec<bool> {
        let h = buf.len() as u32 / (w * 3);
        (0..w)
            .map(|x| (0..h).any(|y| buf[((y * w + x) * 3) as usize] < 250))
            .collect()
    }

    /// Per glyph of `text` at `px`, the first and last column its ink adds to the text before
    /// it, as drawn (none for a space).
    fn drawn_edges(text: &str, px: u32) -> Vec<Option<(i32, i32)>> {
        let size = (px * (text.chars().count() as u32 + 2), px * 3);
        let mut before = vec![false; size.0 as usize];
        let mut edges = Vec::new();
        for (n, _) in text.char_indices().skip(1).chain([(text.len(), ' ')]) {
            let now = inked(&render(&text[..n], px, size), size.0);
            let new: Vec<i32> = (0..size.0 as usize)
                .filter(|&x| now[x] && !before[x])
                .map(|x| x as i32)
                .collect();
            edges.push(new.first().zip(new.last()).map(|(&l, &r)| (l, r)));
            before = now;
        }
        edges
    }

    /// Per glyph of `text` at `px`, where the font puts its ink (left and right edge, px),
    /// from its metrics alone: the pen starts at `px`, each glyph's ink begins at the pen plus
    /// its left side bearing and is as wide as its outline, and the pen moves on by the
    /// glyph's advance width and the pair's kerning (none for a space).
    fn metric_edges(text: &str, px: u32) -> Vec<Option<(f32, f32)>> {
        let font = FontRef::try_from_slice(dejavu::sans::regular()).unwrap();
        let k = px as f32 / font.height_unscaled();
        let mut pen = px as f32;
        let mut prev = None;
        let mut out = Vec::new();
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                pen += font.kern_unscaled(p, id) * k;
            }
            let left = pen + font.h_side_bearing_unscaled(id) * k;
            let b = font.outline(id).map(|o| o.bounds);
            out.push(b.map(|b| (left, left + (b.max.x - b.min.x) * k)));
            pen += font.h_advance_unscaled(id) * k;
            prev = Some(id);
        }
        out
    }

    /// Words drawn in the images keep the font's spacing at every size they are drawn at:
    /// each glyph's ink begins and ends within a pixel of where the font's advance widths and
    /// bearings put it, no gap between two glyphs is wider than the font makes it and none
    /// closes up where the font leaves one, and the word is as wide as the font says.
    #[test]
    fn words_keep_the_fonts_glyph_spacing() {
        for word in [
            "IOPS",
            "601197",
            "601,197",
            "height",
            "MB/s",
            "Write (MB/s)",
        ] {
            for px in [10, 12, 14, 18, 22, 30] {
                let (drawn, font): (Vec<_>, Vec<_>) = drawn_edges(word, px)
                    .into_iter()
                    .zip(metric_edges(word, px))
                    .filter_map(|(d, f)| d.zip(f))
                    .unzip();
                assert_eq!(
                    drawn.len(),
                    word.chars().filter(|c| *c != ' ').count(),
                    "'{word}' at {px} px: a glyph with no ink"
                );
                let said = format!("'{word}' at {px} px: drawn {drawn:?}, font {font:?}");
                for (&(l, r), &(fl, fr)) in drawn.iter().zip(&font) {
                    assert!(
                        (l as f32 - fl).abs() <= 1.0 && (r as f32 + 1.0 - fr).abs() <= 1.0,
                        "a glyph out of place: {said}"
                    );
                }
                for i in 1..drawn.len() {
                    let gap = (drawn[i].0 - drawn[i - 1].1 - 1) as f32;
                    let want = font[i].0 - font[i - 1].1;
                    assert!(gap <= want.ceil(), "gap {i} wider than the font's: {said}");
                    assert!(
                        want < 1.0 || gap >= want.floor() - 1.0,
                        "gap {i} closed up: {said}"
                    );
                }
                // Ink reaches into the pixels its edges fall in.
                let width = (drawn.last().unwrap().1 + 1 - drawn[0].0) as f32;
                let (first, last) = (font[0].0, font.last().unwrap().1);
                assert!(
                    width <= last.ceil() - first.floor() && width >= (last - first).floor(),
                    "word width {width} for {}: {said}",
                    last - first
                );
            }
        }
    }
}
