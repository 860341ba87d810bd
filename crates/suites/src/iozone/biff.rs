//! A BIFF2 worksheet (the binary format of the oldest Excel `.xls` files, which iozone's `-b`
//! writes and which spreadsheets and `xlrd` still read): a BOF record, one LABEL or NUMBER
//! record per cell, an EOF record. Every record is a 16-bit type and a 16-bit length, then its
//! body, little-endian; a cell's body starts with its row and column (16 bits each) and three
//! bytes of cell attributes (all zero: no format, unlocked, visible).

/// BOF: the start of a worksheet.
const BOF: u16 = 0x0009;
/// EOF: the end of the stream.
const EOF: u16 = 0x000A;
/// LABEL: a text cell (8-bit length, then its bytes).
const LABEL: u16 = 0x0004;
/// NUMBER: a cell holding an IEEE 754 double.
const NUMBER: u16 = 0x0003;

/// The largest row and column a BIFF2 sheet holds.
pub const MAX_ROWS: u32 = 16_384;
pub const MAX_COLS: u32 = 256;

/// A cell beyond what a BIFF2 sheet holds.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error(
    "cell ({row}, {col}) is beyond the {MAX_ROWS} rows and {MAX_COLS} columns of an .xls sheet"
)]
pub struct TooLarge {
    pub row: u32,
    pub col: u32,
}

/// A worksheet being written.
pub struct Sheet {
    bytes: Vec<u8>,
}

impl Default for Sheet {
    fn default() -> Self {
        Sheet::new()
    }
}

impl Sheet {
    /// An empty worksheet (its BOF record written).
    pub fn new() -> Sheet {
        let mut s = Sheet { bytes: Vec::new() };
        // BIFF version 2, substream type 0x0010 (a worksheet).
        s.record(BOF, &[0x02, 0x00, 0x10, 0x00]);
        s
    }

    fn record(&mut self, kind: u16, body: &[u8]) {
        self.bytes.extend_from_slice(&kind.to_le_bytes());
        self.bytes
            .extend_from_slice(&(body.len() as u16).to_le_bytes());
        self.bytes.extend_from_slice(body);
    }

    fn cell_start(row: u32, col: u32) -> Result<Vec<u8>, TooLarge> {
        if row >= MAX_ROWS || col >= MAX_COLS {
            return Err(TooLarge { row, col });
        }
        let mut b = Vec::with_capacity(16);
        b.extend_from_slice(&(row as u16).to_le_bytes());
        b.extend_from_slice(&(col as u16).to_le_bytes());
        b.extend_from_slice(&[0, 0, 0]);
        Ok(b)
    }

    /// A text cell: at most 255 bytes; characters outside ASCII become `?` (the sheet names
    /// no code page).
    pub fn label(&mut self, row: u32, col: u32, text: &str) -> Result<(), TooLarge> {
        let mut b = Sheet::cell_start(row, col)?;
        let t: Vec<u8> = text
            .chars()
            .map(|c| if c.is_ascii() { c as u8 } else { b'?' })
            .take(255)
            .collect();
        b.push(t.len() as u8);
        b.extend_from_slice(&t);
        self.record(LABEL, &b);
        Ok(())
    }

    /// A number cell.
    pub fn number(&mut self, row: u32, col: u32, v: f64) -> Result<(), TooLarge> {
        let mut b = Sheet::cell_start(row, col)?;
        b.extend_from_slice(&v.to_le_bytes());
        self.record(NUMBER, &b);
        Ok(())
    }

    /// The finished stream (its EOF record written).
    pub fn finish(mut self) -> Vec<u8> {
        self.record(EOF, &[]);
        self.bytes
    }
}

/// The cells of a BIFF2 stream, for tests: (row, column, text), numbers as text.
#[cfg(test)]
pub(crate) fn read_cells(b: &[u8]) -> Vec<(u16, u16, String)> {
    let at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let mut out = Vec::new();
    let mut i = 0;
    while i + 4 <= b.len() {
        let (kind, len) = (at(i), at(i + 2) as usize);
        let body = &b[i + 4..i + 4 + len];
        let text = match kind {
            LABEL => Some(String::from_utf8_lossy(&body[8..8 + body[7] as usize]).into_owned()),
            NUMBER => Some(f64::from_le_bytes(body[7..15].try_into().unwrap()).to_string()),
            _ => None,
        };
        if let Some(t) = text {
            out.push((at(i + 4), at(i + 6), t));
        }
        i += 4 + len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_laid_out_as_biff2() {
        let mut s = Sheet::new();
        s.label(0, 0, "Writer Report").unwrap();
        s.number(1, 2, 4.0).unwrap();
        s.label(2, 0, "café").unwrap();
        let b = s.finish();
        assert_eq!(&b[..8], &[0x09, 0, 4, 0, 2, 0, 0x10, 0]);
        // LABEL: type 4, length 7 + 1 + 13, row 0, col 0, three attribute bytes, length.
        assert_eq!(&b[8..12], &[4, 0, 21, 0]);
        assert_eq!(&b[12..20], &[0, 0, 0, 0, 0, 0, 0, 13]);
        assert_eq!(&b[20..33], b"Writer Report");
        // NUMBER: type 3, length 15, row 1, col 2, attributes, the double.
        assert_eq!(&b[33..37], &[3, 0, 15, 0]);
        assert_eq!(&b[37..44], &[1, 0, 2, 0, 0, 0, 0]);
        assert_eq!(&b[44..52], &4.0f64.to_le_bytes());
        assert_eq!(&b[52..56], &[4, 0, 12, 0]);
        assert_eq!(&b[56..64], &[2, 0, 0, 0, 0, 0, 0, 4]);
        assert_eq!(&b[64..68], b"caf?");
        assert_eq!(b.len(), 72);
        assert_eq!(&b[b.len() - 4..], &[0x0A, 0, 0, 0]);
        assert_eq!(
            Sheet::new().number(MAX_ROWS, 0, 1.0),
            Err(TooLarge {
                row: MAX_ROWS,
                col: 0
            })
        );
    }
}
