//! The category (x) axis of a bar or line chart over categories: labels written across when
//! they fit beside each other, else turned upright, with the label area sized to the longest
//! label so that neither the labels nor the axis title below them overlap or are cut off.

use super::font;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Label font size (px).
pub const LABEL_PX: u32 = 12;
/// The longest an upright label may be (px): longer ones are shortened in the middle.
const MAX_UPRIGHT: u32 = 190;
/// Room under the labels for the axis title (px).
const TITLE_ROOM: u32 = 34;

/// How the category labels are laid out.
pub struct CatAxis {
    /// The labels as drawn (long ones shortened in the middle when upright).
    pub labels: Vec<String>,
    /// Upright (turned a quarter clockwise).
    pub upright: bool,
    /// The height of the label area, title included (px).
    pub area: u32,
}

impl CatAxis {
    /// The style of the labels.
    pub fn style(&self) -> TextStyle<'static> {
        let f = font(LABEL_PX);
        if self.upright {
            f.transform(FontTransform::Rotate90).into()
        } else {
            f.into()
        }
    }
}

/// Lay out `cats` under a plot about `plot_w` px wide.
pub fn layout<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    cats: &[String],
    plot_w: u32,
) -> CatAxis {
    let font: TextStyle = font(LABEL_PX).into();
    let width = |s: &str| {
        root.estimate_text_size(s, &font)
            .map(|d| d.0)
            .unwrap_or(s.len() as u32 * LABEL_PX * 6 / 10)
    };
    let slot = plot_w / cats.len().max(1) as u32;
    let widest = cats.iter().map(|c| width(c)).max().unwrap_or(0);
    if widest + 10 <= slot {
        return CatAxis {
            labels: cats.to_vec(),
            upright: false,
            area: LABEL_PX + 12 + TITLE_ROOM,
        };
    }
    let labels: Vec<String> = cats.iter().map(|c| shorten(c, &width)).collect();
    let tallest = labels.iter().map(|c| width(c)).max().unwrap_or(0);
    CatAxis {
        labels,
        upright: true,
        area: tallest + 14 + TITLE_ROOM,
    }
}

/// `s` shortened in the middle ("backup-rep…ntial-write") to fit [`MAX_UPRIGHT`].
fn shorten(s: &str, width: &impl Fn(&str) -> u32) -> String {
    if width(s) <= MAX_UPRIGHT {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    let mut keep = chars.len();
    while keep > 4 {
        keep -= 1;
        let head: String = chars[..keep.div_ceil(2)].iter().collect();
        let tail: String = chars[chars.len() - keep / 2..].iter().collect();
        let t = format!("{head}…{tail}");
        if width(&t) <= MAX_UPRIGHT {
            return t;
        }
    }
    s.chars().take(4).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels that fit side by side stay across; long ones turn upright, the longest
    /// shortened in the middle, and the label area holds the tallest label and the title.
    #[test]
    fn long_labels_turn_upright_with_room_for_the_title() {
        crate::images::fonts();
        let mut buf = vec![0u8; 1000 * 560 * 3];
        let root = BitMapBackend::with_buffer(&mut buf, (1000, 560)).into_drawing_area();
        let short: Vec<String> = ["read", "write"].map(String::from).to_vec();
        let a = layout(&root, &short, 900);
        assert!(!a.upright && a.labels == short);
        let long: Vec<String> = (0..5)
            .map(|i| format!("backup-repository-active-full-sequential-write-{i}"))
            .collect();
        let font: TextStyle = font(LABEL_PX).into();
        let w = |s: &str| root.estimate_text_size(s, &font).unwrap().0;
        let a = layout(&root, &long, 900);
        assert!(a.upright);
        let tallest = a.labels.iter().map(|l| w(l)).max().unwrap();
        assert!(tallest <= MAX_UPRIGHT, "{:?}", a.labels);
        assert!(a.area >= tallest + TITLE_ROOM);
        assert!(a.labels[0].contains('…') && a.labels[0].ends_with("write-0"));
        // Labels stay apart: each keeps its end, which tells them apart.
        let distinct: std::collections::HashSet<&String> = a.labels.iter().collect();
        assert_eq!(distinct.len(), 5);
    }
}
