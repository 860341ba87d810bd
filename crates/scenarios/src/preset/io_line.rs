//! How a preset's jobs ran, stated under its summary: direct or buffered I/O, the engine, the
//! queue depth (and clones) of each job, the target and its size. Read from the plan that ran,
//! so it says what happened, not what the preset asks for.

use iomark_engine::job::SizeSpec;
use iomark_engine::RunPlan;

/// The facts, grouped: each distinct value with the jobs that had it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IoFacts {
    /// (direct, jobs).
    pub direct: Vec<(bool, Vec<String>)>,
    /// (engine, jobs).
    pub engines: Vec<(&'static str, Vec<String>)>,
    /// ((iodepth, clones), jobs).
    pub depths: Vec<((u32, u32), Vec<String>)>,
    /// The target (the first job's first file) and the size each job uses, in bytes.
    pub target: String,
    pub size: Option<u64>,
}

fn add<K: PartialEq>(groups: &mut Vec<(K, Vec<String>)>, k: K, job: &str) {
    match groups.iter_mut().find(|(g, _)| *g == k) {
        Some((_, jobs)) => jobs.push(job.to_string()),
        None => groups.push((k, vec![job.to_string()])),
    }
}

impl IoFacts {
    pub fn of(plan: &RunPlan) -> IoFacts {
        let mut f = IoFacts::default();
        for j in &plan.jobs {
            add(&mut f.direct, j.direct, &j.name);
            add(&mut f.engines, j.ioengine.name(), &j.name);
            add(&mut f.depths, (j.iodepth, j.numjobs.max(1)), &j.name);
        }
        if let Some(j) = plan.jobs.first() {
            f.target = j
                .filenames
                .first()
                .or(j.directories.first())
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            f.size = match j.size {
                Some(SizeSpec::Bytes(b)) => Some(b),
                _ => None,
            };
        }
        f
    }

    /// The lines under the summary table.
    pub fn lines(&self) -> Vec<String> {
        let named = |jobs: &[String], all: bool| {
            if all {
                String::new()
            } else {
                format!(" ({})", jobs.join(", "))
            }
        };
        let mut io = Vec::new();
        for (direct, jobs) in &self.direct {
            let what = if *direct {
                "direct (O_DIRECT, past the page cache)"
            } else {
                "buffered (through the page cache: a file that fits in RAM measures the cache, not the device)"
            };
            io.push(format!("{what}{}", named(jobs, self.direct.len() == 1)));
        }
        let engines: Vec<String> = self
            .engines
            .iter()
            .map(|(e, jobs)| format!("{e}{}", named(jobs, self.engines.len() == 1)))
            .collect();
        let depths: Vec<String> = self
            .depths
            .iter()
            .map(|((qd, clones), jobs)| {
                let clones = if *clones > 1 {
                    format!(" x {clones} jobs")
                } else {
                    String::new()
                };
                format!("{qd}{clones}{}", named(jobs, self.depths.len() == 1))
            })
            .collect();
        let mut out = vec![
            format!("I/O: {}", io.join("; ")),
            format!("engine: {}", engines.join("; ")),
            format!("queue depth: {}", depths.join("; ")),
        ];
        if !self.target.is_empty() {
            out.push(match self.size {
                Some(b) => format!("target: {} ({} MiB)", self.target, b >> 20),
                None => format!("target: {}", self.target),
            });
        }
        out
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "direct": self.direct.iter().map(|(d, j)| serde_json::json!({"direct": d, "jobs": j})).collect::<Vec<_>>(),
            "engines": self.engines.iter().map(|(e, j)| serde_json::json!({"engine": e, "jobs": j})).collect::<Vec<_>>(),
            "queue_depths": self.depths.iter().map(|((qd, n), j)| serde_json::json!({"iodepth": qd, "numjobs": n, "jobs": j})).collect::<Vec<_>>(),
            "target": self.target,
            "size_bytes": self.size,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::jobfile::Settings;
    use crate::preset::plan;
    use crate::preset::registry::{BACKUP_REPO, CLOUD_DISK};
    use std::path::PathBuf;

    #[test]
    fn the_lines_say_how_each_job_ran() {
        let mut s = Settings::defaults(&BACKUP_REPO, PathBuf::from("/mnt/repo/t"));
        s.size = 64 << 20;
        let (p, _) = plan::build(&BACKUP_REPO, &s).unwrap();
        let l = IoFacts::of(&p).lines();
        assert_eq!(l[0], "I/O: direct (O_DIRECT, past the page cache)");
        assert_eq!(l[1], "engine: libaio");
        assert_eq!(
            l[2],
            "queue depth: 1 (active-full, restore-sequential, restore-fragmented); 4 (synthetic-full, reverse-incremental)"
        );
        assert_eq!(l[3], "target: /mnt/repo/t (64 MiB)");
        s.direct = false;
        let (p, _) = plan::build(&CLOUD_DISK, &s).unwrap();
        let f = IoFacts::of(&p);
        assert!(f.lines()[0].starts_with("I/O: buffered (through the page cache"));
        assert!(
            f.lines()[2].contains("256 x 4 jobs (max-write-iops, max-read-iops)"),
            "{:?}",
            f.lines()
        );
        // (The warm-up jobs are left out: this backup-repo setting has no warm-up time.)
        assert_eq!(f.to_json()["queue_depths"][0]["iodepth"], 256);
    }
}
