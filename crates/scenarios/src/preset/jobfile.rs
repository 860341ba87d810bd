//! A preset as an fio job file: its options with the placeholders filled in for one target,
//! size and runtime. `preset show` prints it; [`super::plan`] types the same options, so what is
//! shown is what runs.

use super::Preset;
use std::path::PathBuf;
use std::time::Duration;

/// What a preset's placeholders stand for in one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The file or device every job uses (`filename=`).
    pub path: PathBuf,
    /// `{size}`: bytes of the test file; `{size/N}` is a 1 MiB-aligned N-th of it.
    pub size: u64,
    /// `{runtime}`: measured time of each timed job.
    pub runtime: Duration,
    /// `{ramp}`: time before each job's statistics start.
    pub ramp: Duration,
    /// `{warmup}`: time of each warm-up job; zero leaves the warm-up jobs out.
    pub warmup: Duration,
    /// O_DIRECT; false turns every `direct=1` into `direct=0` (a filesystem without it).
    pub direct: bool,
}

impl Settings {
    /// The preset's defaults on `path`.
    pub fn defaults(p: &Preset, path: PathBuf) -> Settings {
        Settings {
            path,
            size: p.size,
            runtime: Duration::from_secs(p.runtime_s),
            ramp: Duration::from_secs(if p.warmup_s > 0 && p.jobs.iter().any(|j| j.warmup) {
                0
            } else {
                p.warmup_s
            }),
            warmup: Duration::from_secs(p.warmup_s),
            direct: true,
        }
    }
}

/// A size as fio reads it, in the largest binary unit that divides it.
pub fn size_text(b: u64) -> String {
    for (shift, unit) in [(30, "g"), (20, "m"), (10, "k")] {
        if b >= (1 << shift) && b % (1 << shift) == 0 {
            return format!("{}{unit}", b >> shift);
        }
    }
    b.to_string()
}

/// A duration as fio reads it.
pub fn time_text(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

fn fill(v: &str, s: &Settings) -> String {
    match v {
        "{size}" => size_text(s.size),
        "{runtime}" => time_text(s.runtime),
        "{ramp}" => time_text(s.ramp),
        "{warmup}" => time_text(s.warmup),
        _ => match v.strip_prefix("{size/").and_then(|r| r.strip_suffix('}')) {
            Some(n) => {
                let n: u64 = n.parse().unwrap_or(1).max(1);
                let part = (s.size / n) & !((1 << 20) - 1);
                size_text(part.max(1 << 20))
            }
            None => v.to_string(),
        },
    }
}

/// One job section: its name and options, placeholders filled.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub name: String,
    pub options: Vec<(String, String)>,
    pub warmup: bool,
}

/// The `[global]` options and the job sections of `p` under `s`. On an RBD image
/// (`rbd:POOL/IMAGE`) every job runs through librbd: fio's `ioengine=rbd` with `pool` and
/// `rbdname` in place of `filename`, at the same depths (a synchronous engine's jobs at depth 1).
pub fn sections(p: &Preset, s: &Settings) -> (Vec<(String, String)>, Vec<Section>) {
    let image = super::target::rbd_image(&s.path);
    let mut globals = match &image {
        Some((pool, name)) => vec![
            ("ioengine".to_string(), "rbd".to_string()),
            ("pool".to_string(), pool.clone()),
            ("rbdname".to_string(), name.clone()),
        ],
        None => vec![("filename".to_string(), s.path.display().to_string())],
    };
    let keep = |k: &str| image.is_none() || k != "ioengine";
    for (k, v) in p.globals.iter().filter(|(k, _)| keep(k)) {
        let v = if *k == "direct" && !s.direct {
            "0".to_string()
        } else {
            fill(v, s)
        };
        globals.push((k.to_string(), v));
    }
    let jobs = p
        .jobs
        .iter()
        .filter(|j| !(j.warmup && s.warmup.is_zero()))
        .map(|j| Section {
            name: j.name.to_string(),
            options: j
                .options
                .iter()
                .filter(|(k, _)| keep(k))
                .map(|(k, v)| (k.to_string(), fill(v, s)))
                .collect(),
            warmup: j.warmup,
        })
        .collect();
    (globals, jobs)
}

/// The job file: a comment block (what, where from, how to read it), `[global]`, the jobs.
pub fn render(p: &Preset, s: &Settings) -> String {
    let mut out = format!(
        "; iomark preset {}: {}\n; from: {}\n",
        p.name, p.title, p.source
    );
    for r in p.reading {
        out.push_str(&format!("; {r}\n"));
    }
    if p.loops > 1 {
        out.push_str(&format!(
            "; the preset runs these jobs {} times and reports the {} of each figure\n",
            p.loops, p.agg
        ));
    }
    out.push_str("; run it with: iomark run THIS-FILE (or fio THIS-FILE)\n\n[global]\n");
    let (globals, jobs) = sections(p, s);
    for (k, v) in &globals {
        out.push_str(&format!("{k}={v}\n"));
    }
    for j in &jobs {
        out.push_str(&format!("\n[{}]\n", j.name));
        if j.warmup {
            out.push_str("; warm-up: reported separately, not part of the figures\n");
        }
        for (k, v) in &j.options {
            out.push_str(&format!("{k}={v}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::registry::BACKUP_REPO;

    #[test]
    fn placeholders_are_filled() {
        let mut s = Settings::defaults(&BACKUP_REPO, PathBuf::from("/d/f"));
        assert_eq!(fill("{size}", &s), "1g");
        assert_eq!(fill("{size/16}", &s), "64m");
        assert_eq!(fill("{runtime}", &s), "20s");
        s.runtime = Duration::from_millis(300);
        assert_eq!(fill("{runtime}", &s), "300ms");
        assert_eq!(size_text(3 << 20), "3m");
        assert_eq!(size_text(1536), "1536");
        let text = render(&BACKUP_REPO, &s);
        assert!(
            text.contains("[global]\nfilename=/d/f\nioengine=libaio\n"),
            "{text}"
        );
        assert!(text.contains("\n[reverse-incremental]\nrw=randrw\nrwmixwrite=67\niodepth=4\n"));
        s.direct = false;
        assert!(render(&BACKUP_REPO, &s).contains("direct=0\n"));
    }

    /// On an RBD image every job goes through librbd, the synchronous ones too.
    #[test]
    fn an_rbd_image_takes_the_rbd_engine() {
        let p = crate::preset::registry::find("cdm-standard").unwrap();
        let s = Settings::defaults(p, PathBuf::from("rbd:rbd/vm1"));
        let text = render(p, &s);
        assert!(
            text.contains("[global]\nioengine=rbd\npool=rbd\nrbdname=vm1\n"),
            "{text}"
        );
        assert_eq!(text.matches("ioengine=").count(), 1, "{text}");
        assert!(!text.contains("filename="), "{text}");
    }
}
