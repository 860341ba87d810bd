//! Recording a run in SQLite: its facts, tags, targets, document and figures in one
//! transaction; pruning.

use super::SqliteStore;
use crate::{codec, NewRun};
use rusqlite::{params, TransactionBehavior};

/// The size of the write-ahead log past which a run folds it into the database.
const LOG_LIMIT: u64 = 4 << 20;

impl SqliteStore {
    /// Records `run`; its id.
    pub(crate) fn record(&mut self, run: &NewRun) -> crate::Result<i64> {
        let id = self.record_inner(run).map_err(|e| self.err(e))?;
        self.fold_log();
        Ok(id)
    }

    /// Copies the write-ahead log into the database and empties it once it has grown past
    /// [`LOG_LIMIT`]: the runs that add to it pay nothing on their way out, one run in many pays
    /// the copy (and its two syncs). A checkpoint that another connection holds up is left for
    /// a later run; the records are safe in the log meanwhile.
    fn fold_log(&self) {
        let mut log = self.path().as_os_str().to_owned();
        log.push("-wal");
        let big = std::fs::metadata(&log).is_ok_and(|m| m.len() > LOG_LIMIT);
        if big {
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
    }

    fn record_inner(&mut self, run: &NewRun) -> rusqlite::Result<i64> {
        let doc = codec::compress(run.document);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO runs (time_ms, host, front_end, command_line, interrupted,
                iomark_version, format, document_bytes, stored_bytes)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                run.time_ms,
                run.host,
                run.front_end,
                run.command_line,
                run.interrupted,
                run.iomark_version,
                run.format,
                run.document.len() as i64,
                doc.len() as i64
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.execute(
            "INSERT INTO documents (run_id, document) VALUES (?1, ?2)",
            params![id, doc],
        )?;
        {
            let mut tag = tx.prepare("INSERT OR IGNORE INTO tags (run_id, tag) VALUES (?1, ?2)")?;
            for t in run.tags {
                tag.execute(params![id, t])?;
            }
            let mut target = tx.prepare("INSERT INTO targets (run_id, target) VALUES (?1, ?2)")?;
            for t in run.targets {
                target.execute(params![id, t])?;
            }
            let mut fig = tx.prepare(
                "INSERT INTO figures (run_id, job, direction, figure, value, unit)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for f in run.figures.iter().filter(|f| f.value.is_finite()) {
                fig.execute(params![id, f.job, f.direction, f.figure, f.value, f.unit])?;
            }
        }
        tx.commit()?;
        Ok(id)
    }
}

impl SqliteStore {
    pub(crate) fn prune_keep(&mut self, keep: u64) -> crate::Result<usize> {
        self.conn
            .execute(
                "DELETE FROM runs WHERE id NOT IN
                 (SELECT id FROM runs ORDER BY id DESC LIMIT ?1)",
                [keep as i64],
            )
            .map_err(|e| self.err(e))
    }

    pub(crate) fn prune_before(&mut self, ms: i64) -> crate::Result<usize> {
        self.conn
            .execute("DELETE FROM runs WHERE time_ms < ?1", [ms])
            .map_err(|e| self.err(e))
    }
}
