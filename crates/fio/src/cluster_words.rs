//! `$rank`, `$nranks` and `$hostname` in the options that say where a job's files go
//! (`filename`, `directory`, `filename_format`, and the Ceph image and pool: `rbdname`, `pool`):
//! this process's place among the processes of one run (the ranks of an MPI launch); rank 0 of 1
//! in a run of one process. In `filename_format`, `$clientuid` is the rank too.

use crate::job_builder::RawJob;
use crate::options;

/// This process's place in a run of many processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub rank: usize,
    pub nranks: usize,
    pub host: String,
}

impl Place {
    /// The place of a process that runs alone on this host.
    pub fn alone() -> Place {
        Place {
            rank: 0,
            nranks: 1,
            host: iomark_engine::sys::host_info().hostname,
        }
    }
}

/// The options whose values take the words.
const TARGET_OPTIONS: [&str; 5] = [
    "filename",
    "directory",
    "filename_format",
    "rbdname",
    "pool",
];

/// The words a value may hold and what they are for `place`.
fn words(key: &str, place: &Place) -> Vec<(&'static str, String)> {
    let mut w = vec![
        ("$nranks", place.nranks.to_string()),
        ("$rank", place.rank.to_string()),
        ("$hostname", place.host.clone()),
    ];
    if key == "filename_format" {
        w.push(("$clientuid", place.rank.to_string()));
    }
    w
}

/// Expands the words in `value` of option `key` (its canonical name); the flag says whether one
/// was there.
pub fn expand(key: &str, value: &str, place: &Place) -> (String, bool) {
    if !TARGET_OPTIONS.contains(&key) {
        return (value.to_string(), false);
    }
    let mut out = value.to_string();
    let mut found = false;
    for (word, to) in words(key, place) {
        if out.contains(word) {
            found = true;
            out = out.replace(word, &to);
        }
    }
    (out, found)
}

/// Expands the words in the target options of `job`; true when the job names a target of this
/// process's own (its files hold one of the words), false when every process uses the same.
pub fn apply(job: &mut RawJob, place: &Place) -> bool {
    let mut own = false;
    for (k, v) in job.inherited.iter_mut().chain(job.options.iter_mut()) {
        let Some(def) = options::lookup(k) else {
            continue;
        };
        let (x, found) = expand(def.name, v, place);
        own |= found;
        *v = x;
    }
    own
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place() -> Place {
        Place {
            rank: 3,
            nranks: 4,
            host: "node7".into(),
        }
    }

    #[test]
    fn words_expand_in_target_options_only() {
        let p = place();
        assert_eq!(
            expand("filename", "/data/$hostname/f.$rank.of.$nranks", &p),
            ("/data/node7/f.3.of.4".to_string(), true)
        );
        assert_eq!(
            expand("filename_format", "$jobname.$clientuid.$filenum", &p),
            ("$jobname.3.$filenum".to_string(), true)
        );
        assert_eq!(
            expand("filename", "/dev/sdb", &p),
            ("/dev/sdb".to_string(), false)
        );
        assert_eq!(
            expand("rbdname", "img$rank", &p),
            ("img3".to_string(), true)
        );
        assert_eq!(
            expand("description", "rank $rank", &p),
            ("rank $rank".to_string(), false)
        );
    }

    #[test]
    fn a_job_is_its_own_when_its_target_holds_a_word() {
        let p = place();
        let mut j = RawJob {
            name: "j".into(),
            inherited: vec![("directory".into(), "/mnt/$hostname".into())],
            options: vec![("rw".into(), "read".into())],
            implicit_stonewall: false,
            overrides: 0,
        };
        assert!(apply(&mut j, &p));
        assert_eq!(j.inherited[0].1, "/mnt/node7");
        let mut shared = RawJob {
            inherited: vec![("filename".into(), "/dev/sdb".into())],
            ..j.clone()
        };
        assert!(!apply(&mut shared, &p));
    }
}
