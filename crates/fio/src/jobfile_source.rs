//! Reading the text of a job file or an include safely: at most [`MAX_JOB_FILE_BYTES`], only
//! from a regular file, a FIFO or pipe (standard input may also be a terminal), and giving up
//! when the stop flag is raised (SIGINT while a FIFO waits for its writer).

use std::io;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The largest job file or include read (16 MiB): far above any real job file, small enough
/// that `include /dev/zero` or a runaway generator ends in an error instead of eating memory.
pub const MAX_JOB_FILE_BYTES: u64 = 16 << 20;

/// How often a wait for a FIFO's data looks at the stop flag.
const POLL_MS: libc::c_int = 100;

fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "larger than {} MiB, the most a job file or include may hold",
            MAX_JOB_FILE_BYTES >> 20
        ),
    )
}

fn interrupted() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "interrupted while reading")
}

/// What a file that is neither regular nor a FIFO is, for the refusal.
fn refused_kind(ft: &std::fs::FileType) -> Option<&'static str> {
    if ft.is_file() || ft.is_fifo() {
        None
    } else if ft.is_dir() {
        Some("a directory")
    } else if ft.is_char_device() {
        Some("a character device")
    } else if ft.is_block_device() {
        Some("a block device")
    } else if ft.is_socket() {
        Some("a socket")
    } else {
        Some("not a regular file")
    }
}

/// Read a job file (`-`: standard input) as text (invalid UTF-8 replaced).
pub fn read_job_text(path: &Path, stop: Option<&AtomicBool>) -> io::Result<String> {
    let bytes = if path.as_os_str() == "-" {
        let stdin = io::stdin();
        let fd = stdin.as_raw_fd();
        let meta = std::fs::metadata(format!("/proc/self/fd/{fd}")).ok();
        if let Some(len) = meta.as_ref().filter(|m| m.is_file()).map(|m| m.len()) {
            if len > MAX_JOB_FILE_BYTES {
                return Err(too_large());
            }
        }
        read_capped(fd, stop)?
    } else {
        let meta = std::fs::metadata(path)?;
        if let Some(kind) = refused_kind(&meta.file_type()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("it is {kind}, not a regular file or FIFO"),
            ));
        }
        if meta.is_file() && meta.len() > MAX_JOB_FILE_BYTES {
            return Err(too_large());
        }
        // No output of the run replaces its job file.
        iomark_output::outfile::note_input(path);
        // O_NONBLOCK: opening a FIFO does not wait for a writer; the reads below do, in steps
        // that look at the stop flag.
        let f = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        read_capped(f.as_raw_fd(), stop)?
    };
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Read to the end, at most the cap; a descriptor without data yet is waited for with poll in
/// steps, so a raised stop flag ends the wait.
fn read_capped(fd: i32, stop: Option<&AtomicBool>) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    // A FIFO opened without a writer reads as empty until one comes: wait for data or a hangup.
    let mut seen_writer = false;
    loop {
        if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
            return Err(interrupted());
        }
        if !wait_readable(fd, &mut seen_writer)? {
            continue;
        }
        // SAFETY: buf is valid for buf.len() bytes; fd is open for reading.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        let got = if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n as usize)
        };
        match got {
            Ok(0) if seen_writer || !is_fifo(fd) => return Ok(out),
            Ok(0) => continue,
            Ok(n) => {
                seen_writer = true;
                if out.len() as u64 + n as u64 > MAX_JOB_FILE_BYTES {
                    return Err(too_large());
                }
                out.extend_from_slice(&buf[..n]);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

fn is_fifo(fd: i32) -> bool {
    // SAFETY: zeroed stat is valid; fstat fills it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fd is open; st is a valid out pointer.
    unsafe { libc::fstat(fd, &mut st) == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFIFO }
}

/// Whether `fd` may be read now (data or end of file); false after a quiet poll step.
fn wait_readable(fd: i32, seen_writer: &mut bool) -> io::Result<bool> {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    let rc = unsafe { libc::poll(&mut p, 1, POLL_MS) };
    if rc < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(false)
        } else {
            Err(e)
        };
    }
    if p.revents & libc::POLLHUP != 0 {
        *seen_writer = true;
    }
    Ok(rc > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::test_support::TempDir;
    use std::fs::File;

    #[test]
    fn regular_files_up_to_the_cap() {
        let d = TempDir::new("jobsrc");
        let ok = d.path().join("ok.fio");
        std::fs::write(&ok, "[a]\nrw=read\n").unwrap();
        assert_eq!(read_job_text(&ok, None).unwrap(), "[a]\nrw=read\n");
        let big = d.path().join("big.fio");
        let f = File::create(&big).unwrap();
        f.set_len(MAX_JOB_FILE_BYTES + 1).unwrap();
        let e = read_job_text(&big, None).unwrap_err();
        assert!(e.to_string().contains("larger than 16 MiB"), "{e}");
    }

    #[test]
    fn devices_and_directories_are_refused() {
        let e = read_job_text(Path::new("/dev/zero"), None).unwrap_err();
        assert!(
            e.to_string()
                .contains("a character device, not a regular file or FIFO"),
            "{e}"
        );
        let d = TempDir::new("jobsrc");
        let e = read_job_text(d.path(), None).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }

    #[test]
    fn a_fifo_is_read_and_a_stop_ends_the_wait() {
        let d = TempDir::new("jobsrc");
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: c is a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // A writer that comes later is waited for.
        let w = fifo.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            std::fs::write(w, "[a]\nbs=8k\n").unwrap();
        });
        assert_eq!(read_job_text(&fifo, None).unwrap(), "[a]\nbs=8k\n");
        writer.join().unwrap();
        // No writer ever: the stop flag ends the wait.
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let s2 = stop.clone();
        let t = std::time::Instant::now();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            s2.store(true, Ordering::SeqCst);
        });
        let e = read_job_text(&fifo, Some(&stop)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::Interrupted);
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
        raiser.join().unwrap();
        // An endless writer is cut at the cap.
        let w = fifo.clone();
        let endless = std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(w).unwrap();
            let chunk = vec![b'#'; 1 << 20];
            while std::io::Write::write_all(&mut f, &chunk).is_ok() {}
        });
        let e = read_job_text(&fifo, None).unwrap_err();
        assert!(e.to_string().contains("larger than 16 MiB"), "{e}");
        endless.join().unwrap();
    }
}
