//! Setting up a network job's socket as fio's net engine does, so either side can be fio: a
//! listener (TCP `listen`, or any UDP or unix reader) binds and waits for its peer; a sender
//! connects (TCP, unix) or addresses its datagrams (UDP). A UDP sender announces itself with an
//! open message and ends with a close message; every sender ends with the close message.

use iomark_model::job::{NetLink, NetProtocol};
use socket2::{Domain, Protocol, SockAddr, Socket, Type};
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};

/// The word every link message starts with ("link").
const LINK_MAGIC: u32 = 0x6c69_6e6b;
/// The command of the message a UDP sender opens with.
const LINK_OPEN: u32 = 0x98;
/// The command of the message every sender ends with.
const LINK_CLOSE: u32 = 0x89;

/// The open message: big-endian words (as fio writes it).
pub(super) fn open_message() -> [u8; 8] {
    let mut m = [0u8; 8];
    m[..4].copy_from_slice(&LINK_MAGIC.to_be_bytes());
    m[4..].copy_from_slice(&LINK_OPEN.to_be_bytes());
    m
}

/// The close message: little-endian words (as fio writes it).
pub(super) fn close_message() -> [u8; 8] {
    let mut m = [0u8; 8];
    m[..4].copy_from_slice(&LINK_MAGIC.to_le_bytes());
    m[4..].copy_from_slice(&LINK_CLOSE.to_le_bytes());
    m
}

/// A UDP sender's datagram that carries fio's sequence stamp also begins with the open
/// message. The open message alone is one datagram, sent when the sender starts, and lost when
/// no receiver has bound the port (or joined the multicast group) yet: a receiver that comes
/// a moment later, on a busy host or as a late member of a group, would see a data datagram
/// first (fio's "bad udp open magic"). fio's receiver, as iomark's, reads the first 8 bytes
/// of the first datagram it gets: this way that datagram opens the link, and the stamps count
/// the blocks before it as dropped. A receiver that got the open message reads the mark as
/// data. A block too short for both keeps the stamp alone.
pub(super) fn mark_open(block: &mut [u8]) {
    if block.len() >= super::seq::STAMP_LEN + 8 {
        block[..8].copy_from_slice(&open_message());
    }
}

/// Whether `data` is exactly a close message.
pub(super) fn is_close(data: &[u8]) -> bool {
    data == close_message()
}

/// A connected (or, for UDP, addressed) socket.
pub(super) struct Linked {
    pub(super) socket: Socket,
    /// Where a UDP sender sends, and where a UDP reader's pingpong replies go (its last peer).
    pub(super) peer: Option<SockAddr>,
}

fn domain(p: NetProtocol) -> Domain {
    match p {
        NetProtocol::Unix => Domain::UNIX,
        p if p.is_ipv6() => Domain::IPV6,
        _ => Domain::IPV4,
    }
}

fn new_socket(link: &NetLink) -> io::Result<Socket> {
    let p = link.protocol;
    let (ty, proto) = if p.is_udp() {
        (Type::DGRAM, Some(Protocol::UDP))
    } else if p.is_tcp() {
        (Type::STREAM, Some(Protocol::TCP))
    } else {
        (Type::STREAM, None)
    };
    let s = Socket::new(domain(p), ty, proto)?;
    tune(&s, link, link.listen)?;
    Ok(s)
}

/// `window_size` (receive buffer on a receiving side, send buffer on a sending one, both
/// with pingpong) and `mss`, as fio sets them.
fn tune(s: &Socket, link: &NetLink, receiving: bool) -> io::Result<()> {
    if link.window_size > 0 {
        if receiving || link.pingpong {
            s.set_recv_buffer_size(link.window_size as usize)?;
        }
        if !receiving || link.pingpong {
            s.set_send_buffer_size(link.window_size as usize)?;
        }
    }
    if link.mss > 0 && link.protocol.is_tcp() {
        s.set_tcp_mss(link.mss)?;
    }
    Ok(())
}

fn nodelay(s: &Socket, link: &NetLink) -> io::Result<()> {
    if link.nodelay && link.protocol.is_tcp() {
        s.set_tcp_nodelay(true)?;
    }
    Ok(())
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// The address of `host` at `port` in the protocol's family.
fn resolve(link: &NetLink) -> io::Result<SocketAddr> {
    let host = link
        .host
        .as_deref()
        .ok_or_else(|| invalid("no hostname".into()))?;
    let v6 = link.protocol.is_ipv6();
    (host, link.port)
        .to_socket_addrs()?
        .find(|a| a.is_ipv6() == v6)
        .ok_or_else(|| {
            invalid(format!(
                "{host} has no IPv{} address",
                if v6 { 6 } else { 4 }
            ))
        })
}

/// The sending side: connect (TCP, unix) or address the datagrams (UDP, with the multicast
/// interface and time-to-live, and the open message).
pub(super) fn connect(link: &NetLink) -> io::Result<Linked> {
    let s = new_socket(link)?;
    nodelay(&s, link)?;
    if link.protocol == NetProtocol::Unix {
        let path = link
            .host
            .as_deref()
            .ok_or_else(|| invalid("no socket path".into()))?;
        s.connect(&SockAddr::unix(path)?)?;
        return Ok(Linked {
            socket: s,
            peer: None,
        });
    }
    let addr = resolve(link)?;
    if link.protocol.is_tcp() {
        s.connect(&addr.into())?;
        return Ok(Linked {
            socket: s,
            peer: None,
        });
    }
    if let IpAddr::V4(group) = addr.ip() {
        if group.is_multicast() {
            if let Some(i) = &link.interface {
                let ifa: Ipv4Addr = i.parse().map_err(|_| {
                    invalid(format!(
                        "the multicast interface {i} is not an IPv4 address"
                    ))
                })?;
                s.set_multicast_if_v4(&ifa)?;
            }
            s.set_multicast_ttl_v4(link.ttl())?;
        }
    }
    let peer = SockAddr::from(addr);
    s.send_to(&open_message(), &peer)?;
    Ok(Linked {
        socket: s,
        peer: Some(peer),
    })
}

/// The waiting side: bind to the port (all addresses, or the multicast group joined) or the
/// unix path, then accept the one peer (TCP, unix) or wait for its open message (UDP).
pub(super) fn listen(link: &NetLink) -> io::Result<Linked> {
    let s = new_socket(link)?;
    if link.protocol == NetProtocol::Unix {
        let path = link
            .host
            .as_deref()
            .ok_or_else(|| invalid("no socket path".into()))?;
        // A socket an earlier run left at the path was removed by the run's gate of named
        // files before the workers started; anything at the path now makes bind fail.
        s.bind(&SockAddr::unix(path)?)?;
        s.listen(10)?;
        let (c, _) = s.accept()?;
        return Ok(Linked {
            socket: c,
            peer: None,
        });
    }
    s.set_reuse_address(true)?;
    s.set_reuse_port(true)?;
    let any: IpAddr = if link.protocol.is_ipv6() {
        Ipv6Addr::UNSPECIFIED.into()
    } else {
        Ipv4Addr::UNSPECIFIED.into()
    };
    let mut bind_ip = any;
    if let Some(h) = &link.host {
        let group: Ipv4Addr = h
            .parse()
            .ok()
            .filter(|g: &Ipv4Addr| g.is_multicast() && link.protocol == NetProtocol::Udp)
            .ok_or_else(|| {
                invalid(format!(
                    "the host {h}: a receiver takes only a UDP multicast group"
                ))
            })?;
        let ifa = match &link.interface {
            Some(i) => i.parse().map_err(|_| {
                invalid(format!(
                    "the multicast interface {i} is not an IPv4 address"
                ))
            })?,
            None => Ipv4Addr::UNSPECIFIED,
        };
        s.join_multicast_v4(&group, &ifa)?;
        bind_ip = group.into();
    }
    s.bind(&SocketAddr::new(bind_ip, link.port).into())?;
    if link.protocol.is_tcp() {
        s.listen(10)?;
        let (c, _) = s.accept()?;
        nodelay(&c, link)?;
        return Ok(Linked {
            socket: c,
            peer: None,
        });
    }
    // UDP: the sender's open message starts the job.
    let mut m = [std::mem::MaybeUninit::<u8>::uninit(); 8];
    let (n, from) = s.recv_from(&mut m)?;
    // SAFETY: recv_from initialised the first n bytes.
    let got: Vec<u8> = m[..n].iter().map(|b| unsafe { b.assume_init() }).collect();
    if got != open_message() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the first datagram is not the sender's open message",
        ));
    }
    Ok(Linked {
        socket: s,
        peer: Some(from),
    })
}
