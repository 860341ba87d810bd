//! A size a job file sets for its jobs (`size=`, `filesize=`): as in fio, a command line's
//! `--size=` does not change it, so when the files do not fit, the refusal names the switch that
//! does (`--override size=...`).

use super::JobLocs;
use crate::job_builder::RawJob;
use crate::jobfile::Loc;
use crate::options;
use crate::values;

/// The first job whose size comes from a job file, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct FileSize {
    /// The job's name.
    pub job: String,
    /// The option as written (`size`, `filesize`).
    pub key: String,
    /// Its value as written (`10g`).
    pub value: String,
    /// The line that sets it.
    pub at: Loc,
    /// The command line's own `--size=` (or `--filesize=`), which the job file's value won over.
    pub command_line: Option<String>,
}

impl FileSize {
    /// Find the first job whose size (its last `size=`/`filesize=`, overrides included) was
    /// written in a job file.
    pub(super) fn find(
        jobs: &[RawJob],
        locs: &[JobLocs],
        cli_globals: &[(String, String)],
    ) -> Option<FileSize> {
        jobs.iter().zip(locs).find_map(|(j, l)| {
            let all = j.inherited.iter().chain(&j.options);
            let (i, (key, value)) = all.enumerate().filter(|(_, (k, _))| is_size(k)).last()?;
            let at = l.options.get(i).cloned().flatten()?;
            let command_line = cli_globals
                .iter()
                .rev()
                .find(|(k, _)| is_size(k))
                .map(|(_, v)| v.clone());
            Some(FileSize {
                job: j.name.clone(),
                key: key.clone(),
                value: value.clone(),
                at,
                command_line,
            })
        })
    }

    /// What to say after a refusal for lack of free space: the line that sets the size, the
    /// rule that keeps it over `--size=`, and the `--override` that would fit (`free` of the
    /// `needed` bytes are available).
    pub fn no_space_hint(&self, needed: u64, free: u64) -> String {
        let FileSize {
            job,
            key,
            value,
            at,
            command_line,
        } = self;
        let rule = match command_line {
            Some(v) => format!(
                ", which the command line's --{key}={v} does not change (a job file's own {key}= is kept, as in fio)"
            ),
            None => String::new(),
        };
        let fit = values::parse_size(value, 1024)
            .ok()
            .filter(|&v| v > 0 && needed > 0)
            .map(|v| (u128::from(v) * u128::from(free) / u128::from(needed)) >> 20)
            .filter(|&mib| mib > 0)
            .map_or_else(|| "SIZE".to_string(), |mib| format!("{mib}m"));
        format!(
            "{}:{} sets {key}={value} for job '{job}'{rule}; pass --override {key}={fit} to set it in every job without editing the file",
            at.file, at.line
        )
    }
}

/// `size` or `filesize`, under any of their names.
fn is_size(key: &str) -> bool {
    matches!(
        options::lookup(key).map(|d| d.name),
        Some("size" | "filesize")
    )
}

#[cfg(test)]
mod tests {
    use crate::cmdline::parse_run_args;
    use iomark_engine::job::SizeSpec;
    use iomark_engine::runner::RunError;
    use iomark_engine::test_support::TempDir;
    use std::path::PathBuf;

    const JOBS: &str = "[global]\nioengine=null\nsize=10g\n[w1]\nrw=write\n[w2]\nrw=write\n";

    fn parse(args: &[&str]) -> crate::cmdline::CliRun {
        parse_run_args(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn a_job_files_size_is_kept_over_the_command_lines_and_named_in_the_refusal() {
        let dir = TempDir::new("filesize");
        let f = dir.join("two.fio");
        std::fs::write(&f, JOBS).unwrap();
        let f = f.display().to_string();
        // fio's rule: --size= before the job file is a global the file's own size= replaces.
        let r = parse(&["--size=1m", &f]);
        assert!(r
            .plan
            .jobs
            .iter()
            .all(|j| j.size == Some(SizeSpec::Bytes(10 << 30))));
        let fs = r.file_size.as_ref().expect("the job file sets the size");
        assert_eq!(
            (fs.job.as_str(), fs.key.as_str(), fs.value.as_str()),
            ("w1", "size", "10g")
        );
        assert_eq!((fs.at.line, fs.command_line.as_deref()), (3, Some("1m")));
        // Two jobs of 10 GiB in 4 GiB: each may have 2 GiB.
        let e = RunError::NoSpace {
            dir: PathBuf::from("/t"),
            needed: 20 << 30,
            free: 4 << 30,
        };
        assert_eq!(
            r.run_error(&e),
            format!(
                "refusing to lay out 20480 MiB of files in /t: only 4096 MiB are free on that filesystem. \
                 {f}:3 sets size=10g for job 'w1', which the command line's --size=1m does not change \
                 (a job file's own size= is kept, as in fio); pass --override size=2048m to set it in \
                 every job without editing the file. Otherwise point the jobs elsewhere (directory=, \
                 filename=), or pass --allow-fill to fill it on purpose"
            )
        );
        // The suggested override does what it says.
        let r = parse(&["--override", "size=2048m", &f]);
        assert!(r
            .plan
            .jobs
            .iter()
            .all(|j| j.size == Some(SizeSpec::Bytes(2 << 30))));
        assert_eq!(r.file_size, None);
        assert!(!r.run_error(&e).contains("--override"));
    }

    #[test]
    fn without_a_command_line_size_the_line_and_the_override_are_named() {
        let dir = TempDir::new("filesize2");
        let f = dir.join("one.fio");
        std::fs::write(&f, "[r]\nioengine=null\nrw=read\nsize=50%\n").unwrap();
        let r = parse(&[&f.display().to_string()]);
        let fs = r.file_size.as_ref().unwrap();
        assert_eq!(fs.command_line, None);
        assert_eq!(
            fs.no_space_hint(8 << 20, 1 << 20),
            format!(
                "{}:4 sets size=50% for job 'r'; pass --override size=SIZE to set it in every job without editing the file",
                f.display()
            )
        );
    }

    #[test]
    fn a_command_line_size_is_no_job_files() {
        let r = parse(&["--name=j", "--ioengine=null", "--size=1g"]);
        assert_eq!(r.file_size, None);
        let e = RunError::NoSpace {
            dir: PathBuf::from("/t"),
            needed: 1 << 30,
            free: 8 << 20,
        };
        assert_eq!(r.run_error(&e), crate::explain::run_error(&e));
        assert!(r.run_error(&e).contains("Make the jobs smaller (size="));
    }
}
