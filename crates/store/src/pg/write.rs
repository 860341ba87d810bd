//! Recording a run in PostgreSQL: its facts, tags, targets, document and figures in one
//! transaction (the lists each in one statement); pruning.

use super::PgStore;
use crate::{codec, NewRun, Result};

impl PgStore {
    pub(crate) fn record(&mut self, run: &NewRun) -> Result<i64> {
        self.record_inner(run).map_err(|e| self.err(e))
    }

    fn record_inner(&mut self, run: &NewRun) -> std::result::Result<i64, postgres::Error> {
        let doc = codec::compress(run.document);
        let mut tx = self.client.transaction()?;
        let id: i64 = tx
            .query_one(
                "INSERT INTO runs (time_ms, host, front_end, command_line, interrupted,
                    iomark_version, format, document_bytes, stored_bytes)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                &[
                    &run.time_ms,
                    &run.host,
                    &run.front_end,
                    &run.command_line,
                    &run.interrupted,
                    &run.iomark_version,
                    &run.format,
                    &(run.document.len() as i64),
                    &(doc.len() as i64),
                ],
            )?
            .get(0);
        tx.execute(
            "INSERT INTO documents (run_id, document) VALUES ($1, $2)",
            &[&id, &doc],
        )?;
        tx.execute(
            "INSERT INTO tags (run_id, tag) SELECT DISTINCT $1::BIGINT, t FROM unnest($2::TEXT[]) t
             ON CONFLICT DO NOTHING",
            &[&id, &run.tags],
        )?;
        tx.execute(
            "INSERT INTO targets (run_id, target)
             SELECT $1, t FROM unnest($2::TEXT[]) WITH ORDINALITY AS u(t, n) ORDER BY n",
            &[&id, &run.targets],
        )?;
        let figs: Vec<_> = run.figures.iter().filter(|f| f.value.is_finite()).collect();
        let col =
            |g: fn(&crate::Figure) -> &str| -> Vec<&str> { figs.iter().map(|f| g(f)).collect() };
        let values: Vec<f64> = figs.iter().map(|f| f.value).collect();
        tx.execute(
            "INSERT INTO figures (run_id, job, direction, figure, value, unit)
             SELECT $1, j, d, f, v, u
             FROM unnest($2::TEXT[], $3::TEXT[], $4::TEXT[], $5::FLOAT8[], $6::TEXT[])
                 WITH ORDINALITY AS x(j, d, f, v, u, n)
             ORDER BY n",
            &[
                &id,
                &col(|f| &f.job),
                &col(|f| &f.direction),
                &col(|f| &f.figure),
                &values,
                &col(|f| &f.unit),
            ],
        )?;
        tx.commit()?;
        Ok(id)
    }

    pub(crate) fn prune_keep(&mut self, keep: u64) -> Result<usize> {
        let r = self.client.execute(
            "DELETE FROM runs WHERE id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT $1)",
            &[&(keep as i64)],
        );
        r.map(|n| n as usize).map_err(|e| self.err(e))
    }

    pub(crate) fn prune_before(&mut self, ms: i64) -> Result<usize> {
        let r = self
            .client
            .execute("DELETE FROM runs WHERE time_ms < $1", &[&ms]);
        r.map(|n| n as usize).map_err(|e| self.err(e))
    }
}
