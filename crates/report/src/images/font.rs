//! The bundled font (DejaVu Sans) every image's text is drawn in, so nothing depends on the
//! fonts installed on the machine, at sizes whose glyphs share one baseline.

use plotters::style::{FontDesc, FontFamily, FontStyle};
use std::sync::Once;

pub(crate) fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is valid; a failure here would only lose the text.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
        let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

/// The bundled sans-serif at `px` pixels (the font's ascent-to-descent height).
pub(crate) fn font(px: u32) -> FontDesc<'static> {
    FontDesc::new(FontFamily::SansSerif, f64::from(px), FontStyle::Normal)
}

#[cfg(test)]
mod tests {

    /// The ink of `text` drawn at `px` by [`font`]: per run of inked columns (a glyph), its
    /// top and bottom row, and the text's line box height.
    fn glyph_rows(text: &str, px: u32) -> (Vec<(u32, u32)>, u32) {
        let (w, h) = (px * 6, px * 3);
        let buf = super::super::typeset::tests::render(text, px, (w, h));
        let dark = |x: u32, y: u32| buf[((y * w + x) * 3) as usize] < 128;
        let mut glyphs = Vec::new();
        let mut run: Option<(u32, u32)> = None;
        for x in 0..w {
            let rows: Vec<u32> = (0..h).filter(|&y| dark(x, y)).collect();
            match (rows.first(), rows.last(), &mut run) {
                (Some(&t), Some(&b), Some(r)) => *r = (r.0.min(t), r.1.max(b)),
                (Some(&t), Some(&b), None) => run = Some((t, b)),
                (None, _, _) => glyphs.extend(run.take()),
                _ => {}
            }
        }
        glyphs.extend(run);
        (glyphs, px)
    }

    /// A decimal point sits on the digits' baseline at every size the images ask for (odd
    /// ones included): its ink ends on the digits' last row and lies in the bottom part of
    /// the line box, never at mid-height.
    #[test]
    fn the_decimal_point_sits_on_the_baseline() {
        for px in 10..=30 {
            let (g, line) = glyph_rows("8 . 8", px);
            assert_eq!(g.len(), 3, "{px} px: {g:?}");
            let (digit, point) = (g[0], g[1]);
            assert_eq!(point.1, digit.1, "{px} px: the point's bottom row {g:?}");
            assert!(
                point.0 > (digit.0 + digit.1) / 2 && point.0 > digit.1 - line / 4,
                "{px} px: the point's ink starts above the digits' lower part {g:?}"
            );
            assert_eq!(g[2], digit, "{px} px: both digits alike {g:?}");
        }
    }
}
