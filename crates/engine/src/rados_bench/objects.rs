//! The objects `rados bench` writes and reads: their names (`benchmark_data_HOST_PID_objectN`)
//! and the metadata object a write run leaves (`benchmark_last_metadata`, or the run name) that
//! says how many objects there are, of which size, from which process; iomark writes and reads
//! the same, so each reads what the other left.

/// The metadata a write run leaves: object size, objects written, the writer's pid, op size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Metadata {
    pub object_size: u64,
    pub objects: u32,
    pub pid: i32,
    pub op_size: u64,
}

/// The metadata object of a run (`benchmark_last_metadata` without a run name).
pub fn metadata_object(run_name: Option<&str>) -> String {
    run_name.unwrap_or("benchmark_last_metadata").to_string()
}

/// The prefix of a run's data objects: `benchmark_data_HOST_PID`.
pub fn prefix(pid: i32) -> String {
    format!("benchmark_data_{}_{pid}", hostname())
}

/// The name of data object `n` under `prefix`.
pub fn object_name(prefix: &str, n: u64) -> String {
    format!("{prefix}_object{n}")
}

/// Fills `buf` with the content rados bench gives op `n`: `I'm the %16dth op!`, its NUL, then
/// 'z' to the end (cut to the buffer, as snprintf cuts it); a read checks it the same way.
pub fn fill_content(buf: &mut [u8], n: u64) {
    buf.fill(b'z');
    stamp(buf, n);
}

fn stamp(buf: &mut [u8], n: u64) {
    let text = format!("I'm the {n:>16}th op!");
    let Some(room) = buf.len().checked_sub(1) else {
        return;
    };
    let k = text.len().min(room);
    buf[..k].copy_from_slice(&text.as_bytes()[..k]);
    buf[k] = 0;
}

/// Whether `buf` holds the content of op `n` (rewriting its head for the comparison is not
/// needed: the head is compared as text, the rest as 'z').
pub fn content_ok(buf: &[u8], n: u64) -> bool {
    let mut head = [0u8; 32];
    let k = buf.len().min(head.len());
    head[..k].fill(b'z');
    stamp(&mut head[..k], n);
    buf[..k] == head[..k] && buf[k..].iter().all(|&b| b == b'z')
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: buf is writable for its length.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return "localhost".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

impl Metadata {
    /// The 24 bytes as rados bench stores them (little-endian).
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(24);
        v.extend_from_slice(&self.object_size.to_le_bytes());
        v.extend_from_slice(&self.objects.to_le_bytes());
        v.extend_from_slice(&self.pid.to_le_bytes());
        v.extend_from_slice(&self.op_size.to_le_bytes());
        v
    }

    pub fn decode(b: &[u8]) -> Option<Metadata> {
        let u64_at = |i: usize| Some(u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?));
        let u32_at = |i: usize| Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?));
        let object_size = u64_at(0)?;
        Some(Metadata {
            object_size,
            objects: u32_at(8)?,
            pid: u32_at(12)? as i32,
            op_size: u64_at(16).unwrap_or(object_size),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_round_trip() {
        // As a real `rados bench write -b 4096 --no-cleanup` left it.
        let real = [
            0x00, 0x10, 0, 0, 0, 0, 0, 0, 0xe6, 0x4c, 0, 0, 0x5e, 0x05, 0, 0, 0x00, 0x10, 0, 0, 0,
            0, 0, 0,
        ];
        let m = Metadata::decode(&real).unwrap();
        assert_eq!(
            m,
            Metadata {
                object_size: 4096,
                objects: 19686,
                pid: 1374,
                op_size: 4096
            }
        );
        assert_eq!(m.encode(), real);
        assert_eq!(
            object_name("benchmark_data_h_7", 3),
            "benchmark_data_h_7_object3"
        );
        let mut b = vec![0u8; 40];
        fill_content(&mut b, 12);
        assert_eq!(&b[..31], b"I'm the               12th op!\0");
        assert!(b[31..].iter().all(|&c| c == b'z'));
        assert!(content_ok(&b, 12) && !content_ok(&b, 13));
        let mut small = vec![0u8; 8];
        fill_content(&mut small, 1);
        assert_eq!(&small, b"I'm the\0");
    }
}
