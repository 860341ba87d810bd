//! `--debug=random`: the seed lines of every job clone in fio's layout (what fio's
//! `t/random_seed.py` reads), with fio's rules: `randrepeat` or a given `randseed` repeat the
//! seeds, `randrepeat=0` alone draws new ones; a given `randseed` makes a `randrepeat=0` job
//! repeatable, with the read/write draws fio 3.33 makes for it; unknown classes are refused.

use crate::util::*;

/// The `rand_seeds[i]` values of each clone, from a run with `--debug=random` and `args`.
fn seeds(args: &[&str]) -> Vec<Vec<u64>> {
    let d = Scratch::new("debug-random");
    let mut a = vec![
        "run",
        "--debug=random",
        "--name=random_seed",
        "--ioengine=null",
        "--filesize=32k",
        "--rw=randread",
        "--output=out.txt",
    ];
    a.extend_from_slice(args);
    let o = iomark_in(&a, &d.path);
    ok(&o);
    assert!(o.stdout.is_empty() && o.stderr.is_empty(), "{}", stderr(&o));
    let text = std::fs::read_to_string(d.file("out.txt")).unwrap();
    let mut clones: Vec<Vec<u64>> = Vec::new();
    for l in text.lines().filter(|l| l.starts_with("random ")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w.len(), 3, "{l}");
        assert_eq!(w[1], w[1].parse::<u32>().unwrap().to_string(), "a pid: {l}");
        if w[2] == "FIO_RAND_NR_OFFS=21" {
            clones.push(Vec::new());
            continue;
        }
        let (name, value) = w[2].split_once('=').unwrap();
        let i = clones.last().unwrap().len();
        assert_eq!(name, format!("rand_seeds[{i}]"), "{l}");
        clones.last_mut().unwrap().push(value.parse().unwrap());
    }
    assert!(clones.iter().all(|c| c.len() == 21), "{text}");
    // The report follows the debug lines.
    assert!(text.contains("random_seed: (groupid=0"), "{text}");
    clones
}

#[test]
fn seeds_repeat_as_fios_rules_say() {
    let rr1 = seeds(&["--randrepeat=1"]);
    assert_eq!(rr1.len(), 1);
    assert_eq!(seeds(&["--randrepeat=1"]), rr1);
    let rr0 = seeds(&["--randrepeat=0"]);
    assert_ne!(rr0, rr1);
    assert_ne!(seeds(&["--randrepeat=0"]), rr0);
    // A given randseed repeats, with or without randrepeat; another one differs.
    let s1 = seeds(&["--randrepeat=0", "--randseed=12345"]);
    assert_eq!(seeds(&["--randrepeat=1", "--randseed=12345"]), s1);
    assert_eq!(seeds(&["--allrandrepeat=1", "--randseed=12345"]), s1);
    assert_ne!(seeds(&["--randseed=67890"]), s1);
    // allrandrepeat makes a randrepeat=0 job repeatable.
    let a = seeds(&["--randrepeat=0", "--allrandrepeat=1"]);
    assert_eq!(seeds(&["--randrepeat=0", "--allrandrepeat=1"]), a);
    // One block per clone, each clone its own seeds.
    let two = seeds(&["--numjobs=2"]);
    assert_eq!(two.len(), 2);
    assert_eq!(two[0], rr1[0]);
    assert_ne!(two[1], two[0]);
}

#[test]
fn a_given_randseed_repeats_fios_draws_without_randrepeat() {
    let args = [
        "--name=m",
        "--ioengine=null",
        "--size=4m",
        "--rw=randrw",
        "--randrepeat=0",
        "--randseed=777",
    ];
    let (fv, iv) = both_json("debug-random-mix", &args);
    let (_, iv2) = both_json("debug-random-mix", &args);
    assert_eq!(job_ios(&iv), job_ios(&fv));
    assert_eq!(job_ios(&iv2), job_ios(&iv));
    // Without the seed the draws differ from run to run.
    let free = &args[..5];
    let runs: Vec<_> = (0..3)
        .map(|_| {
            job_ios(&json(&iomark(
                &[&["run", "--output-format=json"], free].concat(),
            )))
        })
        .collect();
    assert!(runs[0] != runs[1] || runs[1] != runs[2], "{runs:?}");
}

#[test]
fn debug_classes_are_checked_and_the_others_print_nothing() {
    let base = ["run", "--name=x", "--ioengine=null", "--size=64k"];
    let o = iomark(&[&base[..], &["--debug=randum"]].concat());
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("randum") && err.contains("random"), "{err}");
    let o = iomark(&[&base[..], &["--debug=io,file", "--output-format=terse"]].concat());
    ok(&o);
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("random "));
    let o = iomark(&[&base[..], &["--debug=io", "--warnings"]].concat());
    assert!(stderr(&o).contains("--debug=io"), "{}", stderr(&o));
}

/// The I/Os of a two-loop randrw job's `write_iolog` (file, action, offset, length).
fn two_loops(tool: &str, extra: &[&str]) -> Vec<[String; 4]> {
    let d = Scratch::new("loops-repeat");
    let mut a = vec![
        "--name=j",
        "--directory=.",
        "--size=1m",
        "--bs=4k",
        "--rw=randrw",
        "--loops=2",
        "--write_iolog=io.log",
        "--output=/dev/null",
    ];
    a.extend_from_slice(extra);
    ok(&run_tool(tool, &a, &d.path));
    std::fs::read_to_string(d.file("io.log"))
        .unwrap()
        .lines()
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .filter(|w| w.len() == 4 && (w[1] == "read" || w[1] == "write"))
        .map(|w| [w[0].clone(), w[1].clone(), w[2].clone(), w[3].clone()])
        .collect()
}

#[test]
fn a_second_loop_repeats_the_first_unless_randseed_is_given() {
    // fio: randrepeat (the default) seeds every stream again at each loop, so the second
    // loop does the first one's I/O again (offsets, directions, files); a given randseed
    // turns randrepeat off, and the directions go on drawing (258 reads of 512 with seed 5).
    for extra in [
        &[][..],
        &["--randseed=5"][..],
        &["--nrfiles=3"][..],
        &["--nrfiles=3", "--file_service_type=random"][..],
    ] {
        let mut seen = Vec::new();
        for tool in ["fio", "iomark"] {
            let l = two_loops(tool, extra);
            let h = l.len() / 2;
            let reads = l.iter().filter(|x| x[1] == "read").count();
            let sizes = l.iter().all(|x| x[3] == "4096");
            seen.push((l.len(), l[..h] == l[h..], sizes, reads));
        }
        let (f, i) = (seen[0], seen[1]);
        assert_eq!(
            (i.0, i.1, i.2),
            (f.0, f.1, f.2),
            "{extra:?}: fio {f:?}, iomark {i:?}"
        );
        assert_eq!(f.1, extra != ["--randseed=5"], "{extra:?}: {f:?}");
        if extra.len() < 2 {
            // Fixed seeds for the directions: fio's draws (random file service draws from
            // a stream iomark does not share with fio).
            assert_eq!(i.3, f.3, "{extra:?}");
        }
    }
}
