//! Static images of the charts (PNG or SVG) drawn with plotters, no browser needed. Text uses a
//! bundled font, so nothing depends on the fonts installed on the machine.
