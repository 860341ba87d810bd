//! The lines of iozone's header that describe the options, in the order the flags appear on
//! the command line (iozone words each flag as it reads it, so a flag given twice is described
//! twice), each as iozone prints it.

use super::args::{parse_size, IozoneArgs};

/// The description lines of every flag given, in argv order, each with its tab and newline.
/// `uname` is what `-M` shows.
pub fn lines(a: &IozoneArgs, uname: Option<&str>) -> String {
    let mut s = String::new();
    for (name, v) in &a.given {
        if name == "M" {
            // iozone's own blank line before it.
            if let Some(u) = uname {
                s.push_str(&format!("\n\tMachine = {u}\n"));
            }
            continue;
        }
        for t in flag_lines(name, v) {
            s.push_str(&format!("\t{t}\n"));
        }
    }
    s
}

/// A size's value in kB, as iozone shows it (`floor` is iozone's smallest).
fn kb(v: &str, floor: u64) -> u64 {
    parse_size(v).map_or(floor, |b| (b >> 10).max(floor))
}

/// A whole number's value, or 0.
fn int(v: &str) -> u64 {
    v.trim().parse().unwrap_or(0)
}

/// What iozone prints for the flag `-name` given with `v` (nothing for most flags that only
/// set a value: -b, -f, -i, -t, -l, -u, -j, -d, -C, -T, -E, -+x).
fn flag_lines(name: &str, v: &str) -> Vec<String> {
    let one = |t: &str| vec![t.to_string()];
    match name {
        "a" => one("Auto Mode"),
        "z" => one("Cross over of record size disabled."),
        "e" => one("Include fsync in write timing"),
        "c" => one("Include close in write timing"),
        "I" => one("O_DIRECT feature enabled"),
        "o" => one("SYNC Mode. "),
        "+D" => one(">>> O_DSYNC mode enabled. <<<"),
        "+r" => one("Read & Write sync mode active."),
        "+n" => one("No retest option selected"),
        "B" => one("Using mmap files"),
        "D" => one("Using msync(MS_ASYNC) on mmap files"),
        "G" => one("Using msync(MS_SYNC) on mmap files"),
        "x" => one("Stonewall disabled"),
        "w" => one("Setting no_unlink"),
        "R" => one("Excel chart generation enabled"),
        "O" => one("OPS Mode. Output is in operations per second."),
        "N" => one("Microseconds/op Mode. Output is in microseconds per operation."),
        "+z" => one("Histogram summary enabled."),
        "+B" => one(">>> Sequential Mixed workload. <<<"),
        "+A" => vec![format!("Madvise enabled: {}", int(v))],
        "+p" => vec![format!(
            "Percent read in mix test is {}",
            int(v).clamp(1, 100)
        )],
        "+q" => vec![format!("Delay {} seconds between tests enabled.", int(v))],
        "P" => vec![format!("Binding of processors beginning with {} ", int(v))],
        "+d" => vec![
            ">>> I/O Diagnostic mode enabled. <<<".into(),
            "Performance measurements are invalid in this mode.".into(),
        ],
        "+u" => vec![
            format!(
                "CPU utilization Resolution = {:5.3} seconds.",
                iomark_engine::sys::cpu_time_resolution_ns() as f64 / 1e9
            ),
            "CPU utilization Excel chart enabled".into(),
        ],
        "n" => vec![format!(
            "Using minimum file size of {} kilobytes.",
            kb(v, 4)
        )],
        "g" => vec![format!(
            "Using maximum file size of {} kilobytes.",
            kb(v, 4)
        )],
        "y" => vec![format!("Using Minimum Record Size {} kB", kb(v, 4))],
        "q" => vec![format!("Using Maximum Record Size {} kB", kb(v, 0))],
        "s" => vec![format!("File size set to {} kB", kb(v, 0))],
        "r" => vec![format!("Record Size {} kB", kb(v, 0))],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iozone::parse;

    fn given(s: &str) -> IozoneArgs {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn lines_follow_the_command_line() {
        let a = given("-e -s 64k -a -r 4k -c -i 0 -s 1m -Rb x.xls -+n");
        assert_eq!(
            lines(&a, None),
            "\tInclude fsync in write timing\n\tFile size set to 64 kB\n\tAuto Mode\n\
             \tRecord Size 4 kB\n\tInclude close in write timing\n\tFile size set to 1024 kB\n\
             \tExcel chart generation enabled\n\tNo retest option selected\n"
        );
        let a = given("-O -M -x");
        assert_eq!(
            lines(&a, Some("Linux h 6.1")),
            "\tOPS Mode. Output is in operations per second.\n\n\tMachine = Linux h 6.1\n\
             \tStonewall disabled\n"
        );
    }
}
