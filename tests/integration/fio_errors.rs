//! Failed I/Os as fio 3.33 treats them, fio beside iomark on the same FUSE file: which errors
//! `continue_on_error` goes on after (EIO and EILSEQ only), `ignore_error` lists, `error_dump`.

use crate::blockdev::root_required;
use crate::faultfs::{FaultFs, FuseMount};
use crate::util::*;
use serde_json::Value;
use std::process::Output;
use std::sync::Mutex;

const MIB: usize = 1 << 20;

/// A 1 MiB file whose reads fail at `bad_read` and writes at `bad_write` (4 KiB blocks) with
/// `errno`.
fn mount(tag: &str, errno: i32, bad_read: &[u64], bad_write: &[u64]) -> FuseMount {
    let blocks = |b: &[u64]| b.iter().map(|&o| (o, o + 4096)).collect();
    FuseMount::new(
        tag,
        FaultFs {
            data: Mutex::new(vec![0u8; MIB]),
            bad_read: blocks(bad_read),
            bad_write: blocks(bad_write),
            short_read: Vec::new(),
            short_write: Vec::new(),
            errno,
        },
    )
}

/// stdout as JSON whatever the exit status (fio may print lines before the document).
#[track_caller]
fn doc(o: &Output) -> Value {
    let s = stdout(o);
    let start = s
        .find('{')
        .unwrap_or_else(|| panic!("no JSON:\n{s}\n{}", stderr(o)));
    serde_json::from_str(&s[start..])
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{s}\nstderr:\n{}", stderr(o)))
}

/// The same job under fio and iomark on the mounted file.
fn both(fm: &FuseMount, extra: &[&str]) -> (Output, Output) {
    let d = Scratch::new("fioerr");
    let f = format!("--filename={}", fm.file.display());
    let mut args = vec!["--name=f", f.as_str(), "--bs=4k", "--size=1m"];
    if !extra.iter().any(|a| a.starts_with("--output-format")) {
        args.push("--output-format=json");
    }
    args.extend_from_slice(extra);
    (
        run_tool("fio", &args, &d.path),
        run_tool("iomark", &args, &d.path),
    )
}

/// (error, total_err, first_error, bytes of a direction).
type Want = (u64, Option<u64>, Option<u64>, u64);

/// The fields of a job's errors: (error, total_err, first_error, bytes of `dir`). fio reports
/// the first tolerated error as `error` when the job went on after errors.
fn errors(v: &Value, dir: &str) -> Want {
    let j = job(v, 0);
    (
        u(&j["error"]),
        j.get("total_err").map(u),
        j.get("first_error").map(u),
        u(&j[dir]["io_bytes"]),
    )
}

#[test]
fn continue_on_error_goes_on_only_after_eio_and_eilseq_and_ignore_error_lists_others() {
    root_required();
    let (r1, r2) = (10 * 4096, 20 * 4096);
    let enospc = mount("errnospc", libc::ENOSPC, &[r1, r2], &[r1]);
    let eio = mount("erreio", libc::EIO, &[r1, r2], &[]);
    let total = MIB as u64;
    let cases: &[(&FuseMount, &[&str], &str, Want)] = &[
        // ENOSPC is not among the errors continue_on_error goes on after by default.
        (
            &enospc,
            &["--rw=read", "--continue_on_error=read"],
            "read",
            (28, Some(1), Some(28), r1),
        ),
        // EIO is.
        (
            &eio,
            &["--rw=read", "--continue_on_error=read"],
            "read",
            (5, Some(2), Some(5), total - 8192),
        ),
        // A list tolerates its errors and makes the class go on...
        (
            &enospc,
            &["--rw=read", "--ignore_error=ENOSPC"],
            "read",
            (28, Some(2), Some(28), total - 8192),
        ),
        (
            &enospc,
            &["--rw=read", "--ignore_error=5:28"],
            "read",
            (28, Some(2), Some(28), total - 8192),
        ),
        // ...and replaces the default list: EIO now stops the job.
        (
            &eio,
            &[
                "--rw=read",
                "--continue_on_error=read",
                "--ignore_error=ENOSPC",
            ],
            "read",
            (5, Some(1), Some(5), r1),
        ),
        // One list per class: the read list does not cover writes.
        (
            &enospc,
            &["--rw=write", "--ignore_error=ENOSPC"],
            "write",
            (28, Some(0), Some(0), r1),
        ),
        (
            &enospc,
            &["--rw=write", "--ignore_error=,ENOSPC"],
            "write",
            (28, Some(1), Some(28), total - 4096),
        ),
        // continue_on_error given after ignore_error sets the classes again.
        (
            &enospc,
            &[
                "--rw=read",
                "--ignore_error=ENOSPC",
                "--continue_on_error=none",
            ],
            "read",
            (28, None, None, r1),
        ),
    ];
    for (fm, extra, dir, want) in cases {
        let (fo, io) = both(fm, extra);
        let (fv, iv) = (doc(&fo), doc(&io));
        let what = format!("{extra:?}");
        assert_eq!(errors(&fv, dir), *want, "fio {what}");
        assert_eq!(errors(&iv, dir), *want, "iomark {what}\n{}", stderr(&io));
        assert_eq!(fo.status.success(), io.status.success(), "{what}");
        // The job's error is the first tolerated one when it went on (exit status 0).
        let went_on = want.3 > r1;
        assert_eq!(io.status.success(), went_on, "{what}");
        if went_on {
            // Tolerated errors are counted, not printed: stderr stays empty, as fio's.
            assert_eq!(stderr(&fo), "", "fio {what}");
            assert_eq!(stderr(&io), "", "iomark {what}");
        }
    }
    // The normal output's error line.
    let (fo, io) = both(
        &enospc,
        &[
            "--rw=read",
            "--ignore_error=ENOSPC",
            "--output-format=normal",
        ],
    );
    let line = |o: &Output| {
        stdout(o)
            .lines()
            .find(|l| l.trim_start().starts_with("errors"))
            .map(str::to_string)
    };
    assert_eq!(
        line(&io),
        Some("     errors    : total=2, first_error=28/<No space left on device>".into())
    );
    assert_eq!(line(&fo), line(&io));
}

#[test]
fn ignore_error_refuses_names_fio_does_not_know() {
    let d = Scratch::new("fioerrname");
    let f = d.s("f");
    for v in ["EILSEQ", "0", "EIO,EIO,EIO,EIO"] {
        let args = [
            "--name=f",
            &format!("--filename={f}"),
            "--size=64k",
            &format!("--ignore_error={v}"),
        ];
        let fo = run_tool("fio", &args, &d.path);
        let io = run_tool("iomark", &args, &d.path);
        assert!(!fo.status.success(), "fio accepted {v}");
        assert!(!io.status.success(), "iomark accepted {v}");
        assert!(stderr(&io).contains("ignore_error"), "{}", stderr(&io));
    }
}

#[test]
fn error_dump_prints_every_error_as_fio_does() {
    root_required();
    let bad = [3 * 4096, 9 * 4096, 200 * 4096];
    let fm = mount("errdump", libc::EIO, &bad, &[]);
    let dumped = |o: &Output| -> Vec<String> {
        stderr(o)
            .lines()
            .filter(|l| l.starts_with("fio: io_u error"))
            .map(str::to_string)
            .collect()
    };
    let (fo, io) = both(
        &fm,
        &["--rw=read", "--continue_on_error=read", "--error_dump=1"],
    );
    let want: Vec<String> = bad
        .iter()
        .map(|o| {
            format!(
                "fio: io_u error on file {}: Input/output error: read offset={o}, buflen=4096",
                fm.file.display()
            )
        })
        .collect();
    assert_eq!(dumped(&fo), want, "fio");
    assert_eq!(dumped(&io), want, "iomark");
    ok(&io);
    // error_dump=0 (the default): nothing.
    let (fo, io) = both(
        &fm,
        &["--rw=read", "--continue_on_error=read", "--error_dump=0"],
    );
    assert!(dumped(&fo).is_empty() && dumped(&io).is_empty());
}
