//! Snapshots: the seed command line and iozone lines from its documentation and its users'
//! scripts, each with a one-line summary of the plan it becomes (tests, cells, first and last
//! cell, throughput children, timing flags).

use super::args::parse;
use super::plan::{plan, size_word};

fn summary(line: &str) -> String {
    let args: Vec<String> = line.split_whitespace().skip(1).map(String::from).collect();
    let a = parse(&args).unwrap_or_else(|e| panic!("{line}: {e}"));
    let p = plan(&a, &|_| Some(1 << 50)).unwrap_or_else(|e| panic!("{line}: {e}"));
    let cell = |c: &super::plan::Cell| format!("{}/{}", size_word(c.file), size_word(c.record));
    let tp = p.throughput.as_ref().map_or(String::from("-"), |t| {
        format!(
            "{:?} files={} stonewall={}",
            t.counts,
            t.files.len(),
            t.stonewall
        )
    });
    let t = p.timing;
    format!(
        "tests={:?} cells={} first={} last={} tp={tp} e={} c={} direct={} sync={} retest={} R={} b={}",
        p.tests,
        p.cells.len(),
        cell(&p.cells[0]),
        cell(&p.cells[p.cells.len() - 1]),
        t.fsync_timed,
        t.close_timed,
        t.open.direct,
        t.open.sync,
        !t.no_retest,
        a.excel,
        a.workbook.is_some(),
    )
}

/// (command line, the plan's summary).
const SNAPSHOTS: &[(&str, &str)] = &[
    (
        "iozone -i 0 -i 1 -Rab test-iozone.xls -g 4g -n 1M -C",
        "tests=[0, 1] cells=127 first=1m/4k last=4g/16m tp=- e=false c=false direct=false sync=false retest=true R=true b=true",
    ),
    (
        "iozone -a",
        "tests=[0, 1, 2, 3, 4, 5, 6, 7] cells=126 first=64k/4k last=512m/16m tp=- e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
    (
        "iozone -az -i 0 -i 1",
        "tests=[0, 1] cells=146 first=64k/4k last=512m/16m tp=- e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
    (
        "iozone -Ra",
        "tests=[0, 1, 2, 3, 4, 5, 6, 7] cells=126 first=64k/4k last=512m/16m tp=- e=false c=false direct=false sync=false retest=true R=true b=false",
    ),
    (
        "iozone -Rab output.xls",
        "tests=[0, 1, 2, 3, 4, 5, 6, 7] cells=126 first=64k/4k last=512m/16m tp=- e=false c=false direct=false sync=false retest=true R=true b=true",
    ),
    (
        "iozone -a -g 2g -n 1m",
        "tests=[0, 1, 2, 3, 4, 5, 6, 7] cells=118 first=1m/4k last=2g/16m tp=- e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
    (
        "iozone -i 0 -i 1 -r 4k -s 1g -t 4 -F f1 f2 f3 f4",
        "tests=[0, 1] cells=1 first=1g/4k last=1g/4k tp=[4] files=4 stonewall=true e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
    (
        "iozone -s 24m -r 64 -i 0 -i 1 -t 2",
        "tests=[0, 1] cells=1 first=24m/64k last=24m/64k tp=[2] files=2 stonewall=true e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
    (
        "iozone -l 2 -u 4 -r 64k -s 1m -F a b c d",
        "tests=[0, 1, 2, 3, 5, 6, 7, 8] cells=1 first=1m/64k last=1m/64k tp=[2, 3, 4] files=4 stonewall=true e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
    (
        "iozone -e -c -C -w -+n -i 0 -s 1g -r 1m -t 8",
        "tests=[0] cells=1 first=1g/1m last=1g/1m tp=[8] files=8 stonewall=true e=true c=true direct=false sync=false retest=false R=false b=false",
    ),
    (
        "iozone -a -I -y 4k -q 1m -n 1m -g 64m",
        "tests=[0, 1, 2, 3, 4, 5, 6, 7] cells=63 first=1m/4k last=64m/1m tp=- e=false c=false direct=true sync=false retest=true R=false b=false",
    ),
    (
        "iozone -s 512m -r 1m -i 0 -i 2 -o",
        "tests=[0, 2] cells=1 first=512m/1m last=512m/1m tp=- e=false c=false direct=false sync=true retest=true R=false b=false",
    ),
    (
        "iozone -a -+x 4 -n 64k -g 16m",
        "tests=[0, 1, 2, 3, 4, 5, 6, 7] cells=25 first=64k/4k last=16m/16m tp=- e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
    (
        "iozone -i0 -i1 -i2 -s64m -r64k -O",
        "tests=[0, 1, 2] cells=1 first=64m/64k last=64m/64k tp=- e=false c=false direct=false sync=false retest=true R=false b=false",
    ),
];

#[test]
fn command_lines_become_the_expected_plans() {
    for (line, want) in SNAPSHOTS {
        assert_eq!(summary(line), *want, "{line}");
    }
}
