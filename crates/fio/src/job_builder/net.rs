//! The checks fio's net engines make of a job when it starts, made here before any I/O: a
//! port for TCP and UDP (none for unix), `listen` only for TCP, one direction on a datagram or
//! unix socket, a host to connect to, and sequential blocks. A `filename` names the host (or
//! the socket's path) when `hostname` is not given, as in fio, where `hostname` sets it. With
//! `numjobs`, each TCP or UDP clone takes the next port.

use super::BuildError;
use iomark_engine::job::{EngineKind, JobSpec, NetProtocol, SubmitMode};

fn refuse(spec: &JobSpec, why: &'static str) -> Result<(), BuildError> {
    Err(BuildError::NetJob {
        engine: spec.ioengine.name(),
        why,
    })
}

/// Settle and check a net or netsplice job (other jobs pass untouched).
pub(super) fn finish_net(spec: &mut JobSpec) -> Result<(), BuildError> {
    if !matches!(spec.ioengine, EngineKind::Net | EngineKind::Netsplice) {
        return Ok(());
    }
    if spec.engine_options.net.host.is_none() && spec.filenames.len() == 1 {
        let host = spec.filenames.remove(0);
        spec.engine_options.net.host = Some(host.to_string_lossy().into_owned());
    }
    let net = &spec.engine_options.net;
    let (reads, writes) = (spec.rw.has_read(), spec.writes());
    if spec.rw.is_random() {
        return refuse(
            spec,
            "network I/O cannot be random: use rw=read or rw=write",
        );
    }
    if net.protocol == NetProtocol::Unix && net.port != 0 {
        return refuse(spec, "port= is not valid with protocol=unix");
    }
    if net.protocol != NetProtocol::Unix && net.port == 0 {
        return refuse(spec, "protocol=tcp or udp needs port=");
    }
    if !net.protocol.is_tcp() {
        if net.listen {
            return refuse(spec, "listen is only valid with protocol=tcp or tcpv6");
        }
        if reads && writes {
            return refuse(
                spec,
                "a UDP or unix socket job must read or write, not both",
            );
        }
        if net.protocol == NetProtocol::Unix && net.host.is_none() {
            return refuse(spec, "protocol=unix needs hostname= (the socket's path)");
        }
    }
    if !net.waits(reads) && net.host.is_none() {
        return refuse(
            spec,
            "a sending job needs hostname= (a receiving TCP job needs listen)",
        );
    }
    if spec.submit_mode == SubmitMode::Offload {
        return refuse(
            spec,
            "io_submit_mode=offload is not supported: a socket's blocks go one after another",
        );
    }
    // Each clone has its own connection: TCP and UDP clones on the job's port plus their
    // number (fio's ports), while unix clones would all take the one path.
    if spec.numjobs > 1 {
        if net.protocol == NetProtocol::Unix {
            return refuse(
                spec,
                "numjobs above 1 with protocol=unix: the clones would share one socket path (give each job its own path)",
            );
        }
        if net.for_clone(spec.numjobs - 1).is_none() {
            return refuse(
                spec,
                "numjobs clones take the ports from port= on, one each, and the last would pass 65535",
            );
        }
    }
    Ok(())
}
