//! `numa_cpu_nodes` and `numa_mem_policy`. iomark does not bind jobs to NUMA nodes: on a
//! machine with one node the options change nothing, so they are accepted with a warning
//! saying so (as fio built without libnuma accepts them with a warning); on a machine with
//! several nodes they are refused by name. A node the machine does not have is accepted by
//! the parser (as fio's, whose `--parse-only` does not look at the machine's nodes) and stops
//! a run on this machine before any I/O, as fio 3.33 drops such a job at run time
//! (`numa_parse_nodestring failed`).

use super::apply::{Ctx, OptionError};

/// The nodes a node string names (`0`, `0-1`, `0,2`, `all`: the machine's `nodes`).
fn parse_nodes(v: &str, nodes: &[u32]) -> Result<Vec<u32>, String> {
    let v = v.trim();
    if v == "all" {
        return Ok(nodes.to_vec());
    }
    let mut out = Vec::new();
    for part in v.split(',') {
        let part = part.trim_start_matches('!');
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b) = match (a.trim().parse::<u32>(), b.trim().parse::<u32>()) {
            (Ok(a), Ok(b)) if a <= b => (a, b),
            _ => return Err(format!("'{part}' is not a NUMA node number or range")),
        };
        out.extend(a..=b);
    }
    Ok(out)
}

/// `numa_mem_policy=MODE[:NODES]`: the nodes it names.
fn parse_policy(v: &str, nodes: &[u32]) -> Result<Vec<u32>, String> {
    let (mode, list) = v.trim().split_once(':').unwrap_or((v.trim(), ""));
    match mode {
        "default" | "local" if list.is_empty() => Ok(Vec::new()),
        "prefer" if !list.is_empty() && !list.contains([',', '-']) => parse_nodes(list, nodes),
        "bind" | "interleave" if !list.is_empty() => parse_nodes(list, nodes),
        "default" | "local" | "prefer" | "bind" | "interleave" => Err(format!(
            "{mode} needs {}",
            match mode {
                "prefer" => "one node (prefer:N)",
                "bind" | "interleave" => "a list of nodes (e.g. bind:0-1)",
                _ => "no node list",
            }
        )),
        _ => Err("expected default, prefer:N, bind:NODES, interleave:NODES or local".into()),
    }
}

/// Accept on a one-node machine with a warning; refuse where binding would change something.
fn accept(c: &mut Ctx<'_>, v: &str, named: Result<Vec<u32>, String>) -> Result<(), OptionError> {
    let nodes = iomark_engine::sys::numa_nodes();
    let named = named.map_err(|e| c.invalid(v, e))?;
    for &n in &named {
        if !c.spec.numa_nodes.contains(&n) {
            c.spec.numa_nodes.push(n);
        }
    }
    if named.iter().any(|n| !nodes.contains(n)) {
        // Said (and the run stopped) by the run's checks, which know the machine that runs.
        return Ok(());
    }
    if nodes.len() > 1 {
        return Err(OptionError::NotYet {
            shown: format!("{}={v}", c.def.name),
            why: format!(
                "binding jobs to NUMA nodes is not implemented in iomark yet (this machine has {} nodes)",
                nodes.len()
            ),
        });
    }
    c.pending.warnings.push(format!(
        "{}={v} has no effect: this machine has one NUMA node (node {}), every job already runs and allocates on it; iomark does not bind to NUMA nodes (as fio built without libnuma)",
        c.def.name, nodes[0]
    ));
    Ok(())
}

pub fn numa_cpu_nodes(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let named = parse_nodes(v, &iomark_engine::sys::numa_nodes());
    accept(c, v, named)
}

pub fn numa_mem_policy(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let named = parse_policy(v, &iomark_engine::sys::numa_nodes());
    accept(c, v, named)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_strings() {
        assert_eq!(parse_nodes("0", &[0]).unwrap(), [0]);
        assert_eq!(parse_nodes("all", &[0, 1]).unwrap(), [0, 1]);
        assert_eq!(parse_nodes("0-1,3", &[0, 1, 2, 3]).unwrap(), [0, 1, 3]);
        // A node the machine does not have is named all the same (the run checks it).
        assert_eq!(parse_nodes("0-1", &[0]).unwrap(), [0, 1]);
        assert!(parse_nodes("1-0", &[0]).is_err());
        assert!(parse_nodes("x", &[0]).is_err());
    }

    #[test]
    fn policies() {
        assert!(parse_policy("local", &[0]).unwrap().is_empty());
        assert_eq!(parse_policy("prefer:0", &[0]).unwrap(), [0]);
        assert_eq!(parse_policy("interleave:0-1", &[0, 1]).unwrap(), [0, 1]);
        assert!(parse_policy("bind", &[0]).is_err());
        assert!(parse_policy("prefer:0-1", &[0, 1]).is_err());
        assert!(parse_policy("local:0", &[0]).is_err());
        assert!(parse_policy("spread", &[0]).is_err());
    }
}
