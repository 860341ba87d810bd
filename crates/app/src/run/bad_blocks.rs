//! Every bad block that verification found, one line each on stderr: file, offset, the check
//! that failed, and the expected and found headers.

use iomark_engine::result::BlockHeader;
use iomark_engine::RunResult;

/// Every bad block verification found, one line each on stderr: file, offset, the check that
/// failed, and the expected and found headers.
pub fn report(result: &RunResult) {
    fn hdr(h: &BlockHeader) -> String {
        let mut s = format!("offset={} len={}", h.offset, h.len);
        if let Some(m) = h.magic {
            s = format!("magic={m:#010x} {s}");
        }
        if let Some(j) = h.job {
            s.push_str(&format!(" job={j:#010x}"));
        }
        if let Some(x) = h.seed {
            s.push_str(&format!(" seed={x:#x}"));
        }
        match (h.generation, h.min_generation) {
            (Some(g), _) => s.push_str(&format!(" gen={g}")),
            (None, Some(g)) => s.push_str(&format!(" gen>={g}")),
            _ => {}
        }
        s
    }
    for j in &result.jobs {
        let Some(v) = &j.verify else { continue };
        for f in &v.failures {
            let mut line = format!(
                "iomark: {}: bad block in {} at offset {} (len {}): check {} failed: {}",
                j.name, f.file, f.offset, f.len, f.check, f.message
            );
            if let Some(e) = &f.expected {
                line.push_str(&format!("; expected header [{}]", hdr(e)));
            }
            if let Some(x) = &f.found {
                line.push_str(&format!("; found header [{}]", hdr(x)));
            }
            eprintln!("{line}");
        }
        if v.bad_blocks > v.failures.len() as u64 {
            eprintln!(
                "iomark: {}: {} more bad block(s) not listed",
                j.name,
                v.bad_blocks - v.failures.len() as u64
            );
        }
    }
}
