//! NUMA placement options on a machine with one NUMA node: accepted with a warning saying so
//! (in the output's notes), and the job runs as fio runs it.

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
    // A node the machine does not have is refused, as fio refuses it.
    args[4] = "--numa_cpu_nodes=3";
    let fo = run_tool("fio", &args, &d.path);
    let io = run_tool("iomark", &args, &d.path);
    assert!(!fo.status.success());
    assert!(!io.status.success());
    assert!(stderr(&io).contains("no NUMA node 3"), "{}", stderr(&io));
}
