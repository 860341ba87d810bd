//! `prio` and `prioclass`: the job thread's I/O priority, set as fio 3.33 sets it (one
//! ioprio_set for the thread before its engine starts), checked under strace beside fio.

use crate::util::*;

/// The ioprio_set calls of `fio ARGS` or `iomark run ARGS`, without their thread ids.
fn ioprio_calls(tool: &str, d: &Scratch, args: &[&str]) -> Vec<String> {
    let base = ["--name=p", "--ioengine=null", "--size=64k"];
    let t = strace_tool(tool, "ioprio_set", &d.path, &[&base[..], args].concat());
    t.lines()
        .filter_map(|l| l.split_once("ioprio_set(").map(|(_, r)| r.to_string()))
        .collect()
}

#[test]
fn prio_and_prioclass_set_the_threads_priority_as_fio() {
    let d = Scratch::new("prio");
    let cases: &[&[&str]] = &[
        &["--prio=5", "--prioclass=2"],
        &["--prio=4"],
        &["--prioclass=3"],
        &["--prioclass=1", "--prio=0"],
        &[],
    ];
    for args in cases {
        let f = ioprio_calls("fio", &d, args);
        let i = ioprio_calls("iomark", &d, args);
        assert_eq!(i, f, "{args:?}");
        assert_eq!(f.len(), usize::from(!args.is_empty()), "{args:?}: {f:?}");
    }
    assert!(
        ioprio_calls("iomark", &d, &["--prio=5"])[0].contains("IOPRIO_CLASS_BE, 5"),
        "best-effort when no class is given"
    );
}

#[test]
fn prio_values_out_of_range_are_refused_as_fio() {
    let d = Scratch::new("prio-range");
    for bad in ["--prio=8", "--prioclass=4"] {
        for tool in ["fio", "iomark"] {
            let o = run_tool(
                tool,
                &["--name=p", "--ioengine=null", "--size=64k", bad],
                &d.path,
            );
            assert!(!o.status.success(), "{tool} {bad}");
            let all = stdout(&o) + &stderr(&o);
            assert!(
                all.contains("max value out of range"),
                "{tool} {bad}: {all}"
            );
        }
    }
}
