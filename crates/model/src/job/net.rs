//! Where the network engines send or receive: the socket's protocol, its peer and its tuning
//! (fio's `hostname`, `port`, `protocol`, `listen`, `pingpong`, `nodelay`, `window_size`,
//! `mss`, `interface`, `ttl`).

use serde::{Deserialize, Serialize};

/// The socket's protocol (fio's `protocol=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NetProtocol {
    #[default]
    Tcp,
    Tcpv6,
    Udp,
    Udpv6,
    /// A unix stream socket at the path `hostname` names.
    Unix,
}

impl NetProtocol {
    /// The protocol's name, as `protocol=` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            NetProtocol::Tcp => "tcp",
            NetProtocol::Tcpv6 => "tcpv6",
            NetProtocol::Udp => "udp",
            NetProtocol::Udpv6 => "udpv6",
            NetProtocol::Unix => "unix",
        }
    }
    /// The protocol called `name`.
    pub fn from_name(name: &str) -> Option<NetProtocol> {
        [
            NetProtocol::Tcp,
            NetProtocol::Tcpv6,
            NetProtocol::Udp,
            NetProtocol::Udpv6,
            NetProtocol::Unix,
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }
    pub fn is_tcp(self) -> bool {
        matches!(self, NetProtocol::Tcp | NetProtocol::Tcpv6)
    }
    pub fn is_udp(self) -> bool {
        matches!(self, NetProtocol::Udp | NetProtocol::Udpv6)
    }
    pub fn is_ipv6(self) -> bool {
        matches!(self, NetProtocol::Tcpv6 | NetProtocol::Udpv6)
    }
}

/// The socket of a network job and its peer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetLink {
    /// `hostname`: the host to connect to, a multicast group (UDP), or the socket's path
    /// (unix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// `port` (0: not given).
    #[serde(default)]
    pub port: u16,
    #[serde(default)]
    pub protocol: NetProtocol,
    /// `listen`: wait for the peer to connect (TCP; UDP and unix readers always wait).
    #[serde(default)]
    pub listen: bool,
    /// `pingpong`: each I/O is answered by the peer before the next one.
    #[serde(default)]
    pub pingpong: bool,
    /// `nodelay`: TCP_NODELAY.
    #[serde(default)]
    pub nodelay: bool,
    /// `window_size`: SO_RCVBUF/SO_SNDBUF in bytes (0: the system's).
    #[serde(default)]
    pub window_size: u32,
    /// `mss`: TCP_MAXSEG (0: the system's).
    #[serde(default)]
    pub mss: u32,
    /// `interface`: the address of the interface UDP multicast uses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interface: Option<String>,
    /// `ttl`: the time-to-live of outgoing multicast datagrams (unset: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u32>,
    /// Not an option: UDP datagrams carry fio's sequence stamp, and a receiver counts the
    /// missing ones (set when the job runs, for a job that does not verify its data).
    #[serde(skip)]
    pub stamps: bool,
}

impl NetLink {
    pub fn is_unset(&self) -> bool {
        *self == NetLink::default()
    }
    /// Whether this side waits for its peer: a TCP job with `listen`, or a UDP or unix reader.
    pub fn waits(&self, reads: bool) -> bool {
        if self.protocol.is_tcp() {
            self.listen
        } else {
            reads
        }
    }
    /// The multicast time-to-live (fio's default 1).
    pub fn ttl(&self) -> u32 {
        self.ttl.unwrap_or(1)
    }
    /// The link of clone `clone` (0 for the first) of a job with `numjobs`: each clone has
    /// its own connection, on the job's port plus its clone number (TCP, UDP), as in fio.
    /// `None`: the port would pass 65535.
    pub fn for_clone(&self, clone: u32) -> Option<NetLink> {
        let mut l = self.clone();
        if self.protocol != NetProtocol::Unix {
            l.port = u16::try_from(u32::from(self.port) + clone).ok()?;
        }
        Some(l)
    }
}
