//! The category (x) axis of a bar or line chart over categories: labels written across when
//! they fit beside each other, else turned upright, with the label area sized to the longest
//! label so that neither the labels nor the axis title below them overlap or are cut off.

use super::font;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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
    /// The style of the labels written across, and of the axis titles.
    pub fn style(&self) -> TextStyle<'static> {
        font(LABEL_PX).into()
    }

    /// The label the chart's mesh writes at axis position `v`: the category's there, none
    /// when the labels are upright (see [`CatAxis::draw_upright`]).
    pub fn mesh_label(&self, v: f64) -> String {
        if self.upright {
            String::new()
        } else {
            super::cat_label(&self.labels, v)
        }
    }

    /// Upright labels, each hanging from the axis below its category: `at(i)` is where
    /// category `i` meets the axis on `area`.
    pub fn draw_upright<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        at: impl Fn(usize) -> (i32, i32),
    ) -> Result<(), super::DrawErr>
    where
        DB::ErrorType: 'static,
    {
        if !self.upright {
            return Ok(());
        }
        // Turned a quarter clockwise, the line's start at the top: its box's left end on the
        // axis, centred across on the category.
        let style = font(LABEL_PX)
            .transform(FontTransform::Rotate90)
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, label) in self.labels.iter().enumerate() {
            let (x, y) = at(i);
            area.draw(&Text::new(label.clone(), (x, y + 6), style.clone()))?;
        }
        Ok(())
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

    /// Upright labels hang below the axis, turned, each from its category's place, and the
    /// axis title under them is written across, not turned with them.
    #[test]
    fn upright_labels_hang_below_the_axis_and_the_title_stays_across() {
        use crate::charts::{bars, Chart, Kind};
        use crate::images::tests::svg_of;
        let mut c = Chart::new("b".into(), "s", "IOPS per job", Kind::Bars).axes("job", "IOPS");
        let cats: Vec<(String, f64)> = (0..12)
            .map(|i| (format!("bs=4k,iodepth={i} read"), 1000.0 * f64::from(i + 1)))
            .collect();
        c.traces.push(bars("IOPS", cats));
        let svg = svg_of(&c);
        let tag = |text: &str| -> String {
            fn inner(t: &str) -> Option<&str> {
                t.split('>').nth(1)?.split('<').next().map(str::trim)
            }
            let t = svg.split("<text").find(|t| inner(t) == Some(text));
            let t = t.unwrap_or_else(|| panic!("no text {text}: {svg}"));
            t.split('>').next().unwrap().to_string()
        };
        let attr = |tag: &str, name: &str| -> f64 {
            tag.split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no {name} in {tag}"))
        };
        // The y axis' "0" sits on the axis line.
        let axis_y = attr(&tag("0"), "y");
        let mut xs = Vec::new();
        for i in 0..12 {
            let t = tag(&format!("bs=4k,iodepth={i} read"));
            // Turned, running down from its point, not centred on it.
            assert!(t.contains("rotate(90"), "{t}");
            assert!(!t.contains("text-anchor=\"middle\""), "{t}");
            assert!(
                attr(&t, "y") > axis_y,
                "label {i} above the axis: {t} (axis {axis_y})"
            );
            xs.push(attr(&t, "x"));
        }
        assert!(xs.windows(2).all(|w| w[1] > w[0] + 20.0), "{xs:?}");
        assert!(!tag("job").contains("rotate"), "{}", tag("job"));
    }
}
