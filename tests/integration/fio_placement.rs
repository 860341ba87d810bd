//! NUMA placement options on a machine with one NUMA node: accepted with a warning saying so
//! (in the output's notes), and the job runs as fio runs it; a node the machine does not have
//! parses, and stops the run as fio's run stops.

use crate::util::*;

fn nodes() -> usize {
    let s = std::fs::read_to_string("/sys/devices/system/node/online").unwrap_or_default();
    let s = s.trim();
    if s == "0" || s.is_empty() {
        1
    } else {
        2
    }
}

#[test]
fn numa_options_on_one_node_warn_and_run_as_fio() {
    let d = Scratch::new_in("/dev/shm", "numa");
    let f = format!("--filename={}", d.s("n.dat"));
    let mut args = vec![
        "--name=n",
        f.as_str(),
        "--size=256k",
        "--rw=randread",
        "--numa_cpu_nodes=0",
        "--numa_mem_policy=local",
        "--output-format=json",
    ];
    if nodes() > 1 {
        let o = run_tool("iomark", &args, &d.path);
        assert!(stderr(&o).contains("not supported yet"), "{}", stderr(&o));
        return;
    }
    let fv = fio_json(&run_tool("fio", &args, &d.path));
    let o = run_tool("iomark", &args, &d.path);
    let iv = json(&o);
    // In the output's notes (stderr stays quiet, as fio's; --warnings prints them there).
    assert_eq!(stderr(&o), "");
    let e = iv.to_string();
    for opt in ["numa_cpu_nodes=0", "numa_mem_policy=local"] {
        assert!(
            e.contains(&format!(
                "{opt} has no effect: this machine has one NUMA node (node 0)"
            )),
            "{e}"
        );
    }
    assert_eq!(
        u(&job(&fv, 0)["read"]["total_ios"]),
        u(&job(&iv, 0)["read"]["total_ios"])
    );
    // A node the machine does not have: the run stops before any I/O (fio drops the job:
    // numa_parse_nodestring fails), for numa_cpu_nodes and for numa_mem_policy.
    for opt in ["--numa_cpu_nodes=3", "--numa_cpu_nodes=0-1"] {
        args[4] = opt;
        args[5] = "--numa_mem_policy=local";
        refused_at_run_time_as_fio(&d, &args, opt);
    }
    args[4] = "--numa_cpu_nodes=0";
    args[5] = "--numa_mem_policy=interleave:0-1";
    refused_at_run_time_as_fio(&d, &args, "interleave:0-1");
}

/// `args` name a NUMA node this one-node machine does not have: fio and iomark both refuse
/// the run, iomark before any I/O and naming the node; in a job file, both accept the options
/// with `--parse-only` (fio's parser looks at the nodes only for options of its command line;
/// iomark warns that a run here would be refused).
fn refused_at_run_time_as_fio(d: &Scratch, args: &[&str], what: &str) {
    let fo = run_tool("fio", args, &d.path);
    let io = run_tool("iomark", args, &d.path);
    assert!(!fo.status.success(), "fio ran {what}");
    assert!(!io.status.success(), "iomark ran {what}");
    assert_eq!(stdout(&io), "", "{what}");
    assert!(
        stderr(&io).contains("NUMA node 1 out of range") || stderr(&io).contains("node 3 out"),
        "{what}: {}",
        stderr(&io)
    );
    let mut text = String::from("[n]\n");
    for a in args.iter().filter(|a| !a.starts_with("--output")) {
        text.push_str(a.trim_start_matches("--"));
        text.push('\n');
    }
    std::fs::write(d.file("numa.fio"), text).unwrap();
    let parse = ["numa.fio", "--parse-only"];
    ok(&run_tool("fio", &parse, &d.path));
    let io = run_tool("iomark", &parse, &d.path);
    ok(&io);
    assert!(
        stderr(&io).contains("a run on this machine would be refused"),
        "{what}: {}",
        stderr(&io)
    );
}
