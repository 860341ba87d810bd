//! The classic tools through the one gate of files a run writes: they work in a directory of
//! their own, never open, truncate or remove a file they did not make, refuse the backing files
//! of loop devices and bound what they start.

use crate::blockdev::{root_required, Loop};
use crate::data_loss::digest;
use crate::util::*;
use std::path::Path;
use std::process::Command;

/// `iomark ARGS` started by a shell that first runs `setup` with `$$` = iomark's pid (the
/// shell execs iomark), so a test can plant a file at a name made from the pid.
fn with_pid(setup: &str, args: &[&str]) -> std::process::Output {
    let script = format!("{setup}; exec \"$0\" \"$@\"");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args(args)
        .bounded_output()
        .unwrap()
}

#[test]
fn bonnie_never_follows_or_removes_a_planted_name() {
    let d = Scratch::new("bonnie-planted");
    let dir = d.s("d");
    std::fs::create_dir(&dir).unwrap();
    let victim = d.file("victim");
    std::fs::write(&victim, b"precious").unwrap();
    let args = [
        "bonnie", "-d", &dir, "-s", "1", "-r", "0", "-n", "0", "-m", "h",
    ];
    // A symbolic link at Bonnie.PID aimed at another file: refused, the file and the link kept.
    let plant = format!("ln -s {} {dir}/Bonnie.$$", victim.display());
    let o = with_pid(&plant, &args);
    assert!(!o.status.success(), "{}", stdout(&o));
    assert!(stderr(&o).contains("File exists"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "the planted link is left alone");
    assert!(left[0].file_type().unwrap().is_symlink());
    std::fs::remove_file(left[0].path()).unwrap();
    // A file of someone else's at Bonnie.PID: refused and kept.
    let o = with_pid(&format!("echo mine > {dir}/Bonnie.$$"), &args);
    assert!(!o.status.success());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(std::fs::read(left[0].path()).unwrap(), b"mine\n");
    std::fs::remove_file(left[0].path()).unwrap();
    // A clean run works in Bonnie.PID and leaves nothing.
    let o = iomark(&args);
    ok(&o);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn bonnie_blanks_and_bounds() {
    for (args, needle) in [
        (
            &["-s", "8:4096:10:100000", "-r", "0"][..],
            "from 1 to 1000 seekers",
        ),
        (
            &["-s", "0", "-n", "18014398509481984"][..],
            "at most 2097151",
        ),
    ] {
        let d = Scratch::new("bonnie-bounds");
        let mut a = vec!["bonnie", "-d"];
        let dir = d.path.display().to_string();
        a.push(&dir);
        a.extend(args);
        let o = iomark(&a);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
        assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    }
}

#[test]
fn blogbench_among_files_touches_none_of_them() {
    let d = Scratch::new("blog-among");
    let dir = d.file("d");
    let blog = dir.join("blog-1");
    std::fs::create_dir_all(&blog).unwrap();
    let victim = d.file("victim");
    std::fs::write(&victim, b"precious").unwrap();
    std::fs::write(blog.join("article-1.xml"), b"mine").unwrap();
    for k in 1..=100 {
        let tmp = blog.join(format!("article-{k}.xml.tmp"));
        std::os::unix::fs::symlink(&victim, tmp).unwrap();
    }
    let o = iomark(&[
        "blogbench",
        "-d",
        &dir.display().to_string(),
        "-i",
        "2",
        "-s",
        "1",
        "-r",
        "4",
        "--allow-nonempty",
    ]);
    ok(&o);
    assert!(stderr(&o).contains("new directory"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert_eq!(std::fs::read(blog.join("article-1.xml")).unwrap(), b"mine");
    assert_eq!(std::fs::read_dir(&blog).unwrap().count(), 101);
    // The blogs are in blogbench.PID, beside the files that were there.
    let made: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("blogbench."))
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    let private = dir.join(&made[0]);
    assert!(private.join("blog-0").is_dir());
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&private).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
}

#[test]
fn blogbench_bounds_its_threads_and_goes_on_after_a_full_filesystem_as_upstream() {
    let d = Scratch::new("blog-full");
    let o = iomark(&["blogbench", "-d", &d.s("b"), "-r", "2000"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("at most 1000"), "{}", stderr(&o));
    assert!(!d.file("b").exists());
    root_required();
    let mnt = d.file("small");
    crate::util::mount_tmpfs(&mnt, "size=2m");
    // Upstream mode goes on after a full file system, as blogbench 1.2 does (it prints the
    // error, sleeps a second and goes on), and says so; --fixed ends on it, status 1.
    let run = |dir: &str, iterations: &str, extra: &[&str]| {
        let target = mnt.join(dir).display().to_string();
        let mut a = vec![
            "blogbench",
            "-d",
            &target,
            "-i",
            iterations,
            "-s",
            "1",
            "-r",
            "2",
        ];
        a.extend_from_slice(extra);
        iomark(&a)
    };
    let up = run("b", "2", &[]);
    std::fs::remove_dir_all(mnt.join("b")).unwrap();
    let fixed = run("c", "30", &["--fixed"]);
    let _ = Command::new("umount").arg(&mnt).status();
    assert_eq!(up.status.code(), Some(0), "{}", stderr(&up));
    assert!(
        stdout(&up).contains("Final score for reads"),
        "{}",
        stdout(&up)
    );
    let e = stderr(&up);
    assert!(
        e.contains("rounds failed") && e.contains("No space left on device"),
        "{e}"
    );
    assert_eq!(fixed.status.code(), Some(1), "{}", stdout(&fixed));
    let e = stderr(&fixed);
    assert!(e.contains("No space left on device"), "{e}");
    assert!(!e.contains("raced"), "{e}");
}

#[test]
fn iozone_refuses_loop_backing_files_duplicates_and_too_many_children() {
    let d = Scratch::new("iozone-gate");
    let f = |n: &str| d.s(n);
    let (a, b) = (f("a"), f("b"));
    let o = iomark(&[
        "iozone", "-t", "3", "-s", "64k", "-i", "0", "-F", &a, &b, &a,
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("twice"), "{}", stderr(&o));
    let o = iomark(&["iozone", "-t", "100000", "-s", "64k", "-i", "0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("at most 1000"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    root_required();
    let mut lp = Loop::new("iozone-back", 16 << 20, true);
    let img = lp._dir.file("img");
    let _mnt = lp.mount(None);
    let before = digest(&img);
    let i = img.display().to_string();
    for args in [
        &["iozone", "-s", "64k", "-i", "0", "-f", &i][..],
        &["iozone", "-t", "2", "-s", "64k", "-i", "0", "-F", &a, &i][..],
    ] {
        let o = iomark(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            stderr(&o).contains(&format!("backing file of {}", lp.dev)),
            "{}",
            stderr(&o)
        );
    }
    assert!(img.exists());
    assert_eq!(digest(&img), before, "backing file modified");
}

#[test]
fn deleting_engines_keep_loop_backing_files() {
    root_required();
    let mut lp = Loop::new("filedelete-back", 16 << 20, true);
    let img = lp._dir.file("img");
    let _mnt = lp.mount(None);
    let fi = format!("--filename={}", img.display());
    let o = iomark(&["run", "--name=d", "--ioengine=filedelete", &fi]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(&format!("backing file of {}", lp.dev)),
        "{}",
        stderr(&o)
    );
    assert!(img.exists());
    // unlink=1 with --allow-unlink-existing is refused before the run (tests/integration/gates.rs);
    // below it, the runner never removes such a file either (a note says it was kept).
    assert!(Path::new(&lp.dev).exists());
}
