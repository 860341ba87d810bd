//! Hostile input never panics: the value parsers, the command line and iomark result files get
//! arbitrary bytes and structured random input from a small deterministic generator. A short run
//! is part of `cargo test`; set `IOMARK_FUZZ_ITERS` (e.g. 1000000) for a longer one by hand, and
//! `IOMARK_FUZZ_SEED` to vary or replay the inputs. A failing input is printed before the panic
//! propagates.

use crate::cmdline::{parse_run_args, OutputFormat};
use crate::options::OPTIONS;
use crate::values::{self, TimeUnit};
use iomark_engine::RunResult;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn iters(default: u64) -> u64 {
    std::env::var("IOMARK_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn seed() -> u64 {
    std::env::var("IOMARK_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x10_4a11_5eed)
}

/// Deterministic input generation (the engine's generator), shared with the job-file fuzz test.
pub(crate) struct Gen(iomark_engine::rng::Rng);

impl Gen {
    pub(crate) fn new(seed: u64) -> Gen {
        Gen(iomark_engine::rng::Rng::new(seed))
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0.below(n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        (0..n).map(|_| self.next() as u8).collect()
    }
    /// Text assembled from the pieces value syntax is made of, plus a little noise.
    fn value(&mut self) -> String {
        const PIECES: &[&str] = &[
            "0",
            "1",
            "4",
            "7",
            "10",
            "64",
            "100",
            "512",
            "4096",
            "99999999999999999999999",
            "1e400",
            "-1",
            "0x",
            "0x1f",
            "0X",
            ".",
            "1.5",
            "nan",
            "inf",
            "k",
            "K",
            "m",
            "g",
            "t",
            "p",
            "e",
            "ki",
            "kib",
            "KiB",
            "MB",
            "b",
            "%",
            "s",
            "ms",
            "us",
            "ns",
            "min",
            "h",
            "d",
            "+",
            "-",
            "*",
            "/",
            "%",
            "^",
            "(",
            ")",
            ",",
            ":",
            "/",
            "-",
            " ",
            "\t",
            "x",
            "=",
            "'",
            "\"",
            "\\",
            "\\:",
            "$",
            "${X}",
            "$mb_memory",
            "zipf:",
            "pareto:",
            "normal:",
            "zoned:",
            "random",
            "é",
            "€",
            "\u{0}",
            "\u{feff}",
            "😀",
            "\n",
        ];
        let mut s = String::new();
        for _ in 0..self.below(12) {
            match self.below(20) {
                0 => s.push(char::from_u32(self.next() as u32 % 0x11_0000).unwrap_or('?')),
                1 => {
                    // Deep nesting, long runs of one operator, huge numbers.
                    let tok = *self.pick(&["(", "-", "1^", "+", "9"]);
                    s.push_str(&tok.repeat(1 + self.below(100_000)));
                }
                _ => s.push_str(PIECES[self.below(PIECES.len())]),
            }
        }
        s
    }
    fn text(&mut self) -> String {
        if self.below(4) == 0 {
            String::from_utf8_lossy(&self.bytes(64)).into_owned()
        } else {
            self.value()
        }
    }
}

/// Run `f` on `input`; on a panic print the input (for replay) and fail.
fn no_panic<I: std::fmt::Debug>(what: &str, input: &I, f: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        let mut shown = format!("{input:?}");
        if shown.len() > 2000 {
            shown.truncate(2000);
            shown.push_str("...");
        }
        panic!("{what} panicked on input {shown}");
    }
}

#[test]
fn value_parsers_never_panic() {
    let mut g = Gen::new(seed());
    let units = [TimeUnit::S, TimeUnit::Ms, TimeUnit::Us];
    for _ in 0..iters(4000) {
        let s = g.text();
        let kb = *g.pick(&[1024u32, 1000]);
        let u = *g.pick(&units);
        no_panic("value parsers", &s, || {
            let _ = values::parse_size(&s, kb);
            let _ = values::parse_int(&s, kb);
            let _ = values::parse_uint(&s, kb);
            let _ = values::parse_size_or_percent(&s, kb);
            let _ = values::parse_time(&s, u);
            let _ = values::parse_time_range(&s, u);
            let _ = values::parse_bool(&s);
            let _ = values::parse_float(&s);
            let _ = values::split_per_dir(&s);
            let _ = values::parse_per_dir(&s, |x| values::parse_size(x, kb));
            let _ = values::parse_size_range(&s, kb);
            let _ = values::parse_bssplit_list(&s, kb);
            let _ = values::parse_bssplit(&s, kb);
            let _ = values::parse_float_list(&s, 20, true);
            let _ = values::parse_float_list(&s, 3, false);
            let _ = values::parse_cpu_list(&s);
            let _ = values::parse_path_list(&s);
            let _ = values::parse_pattern(&s);
            let _ = values::parse_distribution(&s, kb);
            let _ = values::eval_expr(&s, &|l| {
                l.parse::<f64>()
                    .map_err(|_| values::ValueError::NotANumber(l.into()))
            });
        });
    }
}

#[test]
fn value_parsers_survive_pathological_shapes() {
    for s in [
        "(".repeat(200_000),
        format!("{}1{}", "(".repeat(200_000), ")".repeat(200_000)),
        "-".repeat(200_000) + "1",
        "1^".repeat(200_000) + "1",
        "((1)+(2))*".repeat(50_000) + "1",
        "0x".to_string() + &"f".repeat(10_000),
        "9".repeat(10_000),
        "4k/10:".repeat(50_000),
        "1,".repeat(100_000),
        "0-".repeat(100_000),
    ] {
        no_panic("value parsers", &s, || {
            let _ = values::parse_size(&s, 1024);
            let _ = values::parse_time(&s, TimeUnit::S);
            let _ = values::parse_float(&s);
            let _ = values::parse_bssplit(&s, 1024);
            let _ = values::parse_cpu_list(&s);
            let _ = values::parse_float_list(&s, 20, true);
            let _ = values::parse_size_range(&s, 1024);
        });
    }
    // A cpu list may name a huge range: it must be refused, not allocated.
    assert!(values::parse_cpu_list("0-18446744073709551615").is_err());
}

fn random_args(g: &mut Gen) -> Vec<String> {
    const SWITCHES: &[&str] = &[
        "--output-format",
        "--output",
        "--minimal",
        "--terse-version",
        "--readonly",
        "--parse-only",
        "--showcmd",
        "--cmdhelp",
        "--help",
        "--version",
        "--eta",
        "--eta-newline",
        "--status-interval",
        "--allow-fill",
        "--force-device-write",
        "--section",
        "--result",
        "--warnings-fatal",
        "--max-jobs",
        "--debug",
        "--client",
        "--server",
    ];
    let mut args = Vec::new();
    for _ in 0..g.below(14) {
        let name: String = match g.below(10) {
            0..=4 => g.pick(OPTIONS).name.to_string(),
            5 | 6 => g.pick(SWITCHES).trim_start_matches("--").to_string(),
            7 => "name".to_string(),
            _ => g.text().replace(['\0', '='], ""),
        };
        if name.is_empty() {
            continue;
        }
        let a = match g.below(6) {
            0 => format!("--{name}"),
            1 => format!("-{name}"),
            _ => format!("--{name}={}", g.text().replace('\0', "")),
        };
        // Positional arguments are job files (and "-" is stdin): not generated here, the
        // job-file parser has its own fuzzing.
        if a == "--" || a == "-" || !a.starts_with('-') {
            continue;
        }
        args.push(a);
    }
    args
}

#[test]
fn command_line_parser_never_panics() {
    let mut g = Gen::new(seed() ^ 0xc11);
    for _ in 0..iters(3000) {
        let args = random_args(&mut g);
        no_panic("parse_run_args", &args, || {
            let _ = parse_run_args(&args);
        });
    }
}

fn sample_result() -> RunResult {
    let args: Vec<String> = [
        "--name=a",
        "--rw=randrw",
        "--bs=4k",
        "--size=1m",
        "--ioengine=null",
        "--name=b",
        "--rw=write",
        "--verify=md5",
        "--numjobs=2",
        "--group_reporting",
        "--size=1m",
        "--filename=/nonexistent",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let cli = parse_run_args(&args).unwrap();
    let mut r = RunResult {
        format: iomark_engine::result::RESULT_FORMAT.to_string(),
        plan: cli.plan.clone(),
        ..Default::default()
    };
    for (i, j) in cli.plan.jobs.iter().enumerate() {
        for c in 0..j.numjobs {
            let mut jr = iomark_engine::result::JobResult {
                name: j.name.clone(),
                job_index: i,
                clone: c,
                thread_number: r.jobs.len() as u32,
                group_id: j.group_id,
                runtime_ms: 1000,
                elapsed_ms: 1000,
                ran: true,
                ..Default::default()
            };
            for ns in [1000u64, 5000, 20_000, 1_000_000] {
                jr.dirs.read.clat.add(ns);
                jr.dirs.read.lat.add(ns);
                jr.dirs.write.clat.add(ns * 3);
            }
            jr.dirs.read.io_bytes = 4096 * 4;
            jr.dirs.read.total_ios = 4;
            jr.dirs.read.runtime_ms = 1000;
            r.jobs.push(jr);
        }
    }
    r
}

fn render_all(r: &RunResult) {
    for f in [
        OutputFormat::Normal,
        OutputFormat::Json,
        OutputFormat::JsonPlus,
        OutputFormat::Terse,
    ] {
        let _ = crate::output::render(r, f, 3);
    }
}

#[test]
fn result_files_never_panic() {
    let base = sample_result();
    let text = serde_json::to_vec(&base).unwrap();
    // The genuine article reads back and renders.
    let back = RunResult::from_json(&text).unwrap();
    assert_eq!(back, base);
    render_all(&back);
    let mut g = Gen::new(seed() ^ 0x4e5);
    let numbers: &[&[u8]] = &[
        b"0",
        b"-1",
        b"1e308",
        b"18446744073709551615",
        b"4294967295",
        b"9999999999999999999999",
        b"0.5",
        b"null",
        b"[]",
        b"{}",
        b"\"\"",
        b"true",
    ];
    for i in 0..iters(1500) {
        let mut t = text.clone();
        match i % 4 {
            0 => {
                // Byte flips.
                for _ in 0..1 + g.below(8) {
                    let at = g.below(t.len());
                    t[at] = g.next() as u8;
                }
            }
            1 => t.truncate(g.below(t.len())),
            2 => {
                // Replace one number with an extreme or mistyped value.
                let digits: Vec<usize> = (0..t.len()).filter(|&k| t[k].is_ascii_digit()).collect();
                if let Some(&at) = digits.get(g.below(digits.len())) {
                    let mut end = at;
                    while end < t.len() && (t[end].is_ascii_digit() || t[end] == b'.') {
                        end += 1;
                    }
                    let rep = *g.pick(numbers);
                    t.splice(at..end, rep.iter().copied());
                }
            }
            _ => t = g.bytes(256),
        }
        no_panic("RunResult::from_json", &String::from_utf8_lossy(&t), || {
            if let Ok(r) = RunResult::from_json(&t) {
                render_all(&r);
            }
        });
    }
}
