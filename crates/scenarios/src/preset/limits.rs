//! The limits a preset's figures are checked against, and the checks: each figure against
//! its own limit (`--expect read.iops=5000`), every IOPS or MB/s figure against one value
//! (`--expect-iops`, `--expect-mbps`), or against a cloud disk type's published limits
//! (`--disk azure-p30`); several sets of limits in one run, each checked on its own.

use super::disks::DiskType;
use super::{Expect, Preset};

/// One set of limits: the user's or a disk type's.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// Its name in the output ("the expected limits", or the disk type's name).
    pub name: String,
    /// Where the limits come from (empty for the user's).
    pub source: String,
    /// Per figure key (`read.iops`): the limit, in the figure's unit (IOPS or MB/s).
    pub limits: Vec<(&'static str, f64)>,
}

/// The name of the limits given on the command line.
pub const GIVEN: &str = "the expected limits";

/// What the command line asked to check: one value for every figure of a kind, values per
/// figure key, disk types.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wanted {
    pub iops: Option<f64>,
    pub mbps: Option<f64>,
    pub per_figure: Vec<(String, f64)>,
    pub disks: Vec<&'static DiskType>,
}

impl Wanted {
    pub fn is_empty(&self) -> bool {
        *self == Wanted::default()
    }
}

/// The keys of `p`'s figures that can be checked against a limit.
pub fn keys(p: &Preset) -> Vec<&'static str> {
    p.figures
        .iter()
        .filter(|f| f.expect != Expect::None)
        .map(|f| f.key)
        .collect()
}

/// Why the limits asked for do not fit the preset.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LimitError {
    #[error("preset: {preset} has no figure to check against a limit (--expect, --disk): cloud-disk has")]
    NoFigures { preset: &'static str },
    #[error("preset: --expect {key}: {preset} has no such figure; its figures are {keys}")]
    UnknownKey {
        key: String,
        preset: &'static str,
        keys: String,
    },
}

/// The sets of limits `w` asks for on preset `p`: the user's first (one value per kind,
/// overridden per figure), then each disk type's.
pub fn targets(p: &Preset, w: &Wanted) -> Result<Vec<Target>, LimitError> {
    if w.is_empty() {
        return Ok(Vec::new());
    }
    let keys = keys(p);
    if keys.is_empty() {
        return Err(LimitError::NoFigures { preset: p.name });
    }
    let kind = |e: Expect| {
        p.figures
            .iter()
            .filter(move |f| f.expect == e)
            .map(|f| f.key)
    };
    let mut given: Vec<(&'static str, f64)> = Vec::new();
    for (e, v) in [(Expect::Iops, w.iops), (Expect::Mbps, w.mbps)] {
        if let Some(v) = v {
            given.extend(kind(e).map(|k| (k, v)));
        }
    }
    for (key, v) in &w.per_figure {
        let Some(k) = keys.iter().find(|k| **k == key.as_str()) else {
            return Err(LimitError::UnknownKey {
                key: key.clone(),
                preset: p.name,
                keys: keys.join(", "),
            });
        };
        given.retain(|(g, _)| g != k);
        given.push((k, *v));
    }
    let mut out = Vec::new();
    if !given.is_empty() {
        // In the figures' order.
        given.sort_by_key(|(k, _)| keys.iter().position(|x| x == k));
        out.push(Target {
            name: GIVEN.to_string(),
            source: String::new(),
            limits: given,
        });
    }
    for d in &w.disks {
        let mut limits: Vec<(&'static str, f64)> =
            kind(Expect::Iops).map(|k| (k, d.iops)).collect();
        limits.extend(kind(Expect::Mbps).map(|k| (k, d.mbps)));
        limits.sort_by_key(|(k, _)| keys.iter().position(|x| x == k));
        out.push(Target {
            name: d.name.to_string(),
            source: format!("{}: {}", d.title, d.source),
            limits,
        });
    }
    Ok(out)
}

/// One figure against one limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub target: String,
    pub figure: &'static str,
    pub key: &'static str,
    pub unit: &'static str,
    /// The headline in the figure's unit; None when its jobs did not run.
    pub measured: Option<f64>,
    pub limit: f64,
}

impl Check {
    /// Met, missed, or (None) not run.
    pub fn met(&self) -> Option<bool> {
        self.measured.map(|m| m >= self.limit)
    }

    /// How far below the limit, in % of it (0 when met or not run).
    pub fn shortfall(&self) -> f64 {
        match self.measured {
            Some(m) if m < self.limit => (self.limit - m) / self.limit * 100.0,
            _ => 0.0,
        }
    }

    /// The check's line under the summary table.
    pub fn line(&self) -> String {
        let prec = if self.unit == "IOPS" { 0 } else { 1 };
        match (self.measured, self.met()) {
            (Some(m), Some(true)) => format!(
                "  {}: {m:.prec$} of {:.prec$} {}: met",
                self.figure, self.limit, self.unit
            ),
            (Some(m), _) => format!(
                "  {}: {m:.prec$} of {:.prec$} {}: missed ({:.1} % short)",
                self.figure,
                self.limit,
                self.unit,
                self.shortfall()
            ),
            (None, _) => format!(
                "  {}: not run (limit {:.prec$} {})",
                self.figure, self.limit, self.unit
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::disks;
    use crate::preset::registry::{BACKUP_REPO, CLOUD_DISK};

    #[test]
    fn per_figure_values_override_the_kind_and_disks_add_targets() {
        let w = Wanted {
            iops: Some(1000.0),
            per_figure: vec![("read.iops".into(), 7500.0), ("write.mbps".into(), 200.0)],
            disks: vec![
                disks::find("azure-p30").unwrap(),
                disks::find("aws-gp3").unwrap(),
            ],
            ..Default::default()
        };
        let t = targets(&CLOUD_DISK, &w).unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].name, GIVEN);
        assert_eq!(
            t[0].limits,
            [
                ("write.iops", 1000.0),
                ("read.iops", 7500.0),
                ("combined.iops", 1000.0),
                ("write.mbps", 200.0)
            ]
        );
        assert_eq!(t[1].name, "azure-p30");
        assert_eq!(t[1].limits.len(), 6);
        assert!(t[1].limits.contains(&("combined.mbps", 200.0)));
        assert!(t[1].source.contains("learn.microsoft.com"));
        assert!(t[2].limits.contains(&("read.iops", 3000.0)));
    }

    #[test]
    fn limits_that_do_not_fit_are_refused() {
        let w = Wanted {
            per_figure: vec![("reads.iops".into(), 1.0)],
            ..Default::default()
        };
        let e = targets(&CLOUD_DISK, &w).unwrap_err().to_string();
        assert!(e.starts_with("preset: --expect reads.iops: cloud-disk has no such figure; its figures are write.iops, read.iops, combined.iops"), "{e}");
        let w = Wanted {
            mbps: Some(1.0),
            ..Default::default()
        };
        assert_eq!(
            targets(&BACKUP_REPO, &w),
            Err(LimitError::NoFigures {
                preset: "backup-repo"
            })
        );
        assert_eq!(targets(&BACKUP_REPO, &Wanted::default()), Ok(vec![]));
    }

    #[test]
    fn a_check_says_met_missed_or_not_run() {
        let c = |m| Check {
            target: GIVEN.into(),
            figure: "max read IOPS (8 KiB)",
            key: "read.iops",
            unit: "IOPS",
            measured: m,
            limit: 5000.0,
        };
        assert_eq!(
            c(Some(5000.0)).line(),
            "  max read IOPS (8 KiB): 5000 of 5000 IOPS: met"
        );
        assert_eq!(
            c(Some(4000.0)).line(),
            "  max read IOPS (8 KiB): 4000 of 5000 IOPS: missed (20.0 % short)"
        );
        assert_eq!(
            c(None).line(),
            "  max read IOPS (8 KiB): not run (limit 5000 IOPS)"
        );
        assert_eq!(c(None).met(), None);
    }
}
