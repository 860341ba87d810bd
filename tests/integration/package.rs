//! `scripts/package`: its options are read before anything is built (the builds themselves take
//! many minutes and are not part of the test command).

use crate::util::*;
use std::path::PathBuf;
use std::process::Command;

fn package(args: &[&str]) -> std::process::Output {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/package");
    Command::new(script)
        .args(args)
        .bounded_output()
        .expect("run scripts/package (needs bash)")
}

#[test]
fn package_script_reads_its_options_before_building() {
    let o = package(&["--help"]);
    ok(&o);
    let help = stdout(&o);
    assert!(
        help.contains("Usage: scripts/package [--musl | --musl-only] [--no-deb] [--check]")
            && help.contains("iomark-musl")
            && help.contains("psync job"),
        "{help}"
    );
    // An unknown option: a usage error naming the valid ones, before any build.
    let o = package(&["--musl", "--static"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unknown argument '--static' (--musl, --musl-only, --no-deb, --check)"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("build"), "{}", stderr(&o));
    // The static binary is not a check of the release build: refused before any build.
    let o = package(&["--check", "--musl-only"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("drop --musl"), "{}", stderr(&o));
}
