//! Result documents are kept deflated (zlib): JSON results shrink about tenfold.

use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::io::{Read, Write};

pub fn compress(bytes: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::with_capacity(bytes.len() / 4), Compression::default());
    // Writing into a Vec cannot fail.
    e.write_all(bytes).expect("deflate into memory");
    e.finish().expect("deflate into memory")
}

pub fn decompress(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() * 8);
    ZlibDecoder::new(bytes).read_to_end(&mut out)?;
    Ok(out)
}
