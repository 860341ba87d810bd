use super::super::testutil::{fill, setup, unit, AlignedBuf};
use super::super::{create, Engine, EngineKind, EngineOptions, Op, Queued, END_OF_STREAM};
use iomark_model::job::{NetLink, NetProtocol};
use std::thread;
use std::time::Duration;

fn options(link: NetLink) -> EngineOptions {
    EngineOptions {
        net: link,
        ..Default::default()
    }
}

fn engine(kind: EngineKind, link: NetLink) -> Box<dyn Engine> {
    let o = options(link);
    let s = setup(&[], &[], &o, false);
    match create(kind, &s) {
        Ok(e) => e,
        Err(e) => panic!("{kind:?}: {e}"),
    }
}

/// A sender's engine, once its listener is up (it retries while the peer is not there yet).
fn sender(kind: EngineKind, link: NetLink) -> Box<dyn Engine> {
    let o = options(link);
    for _ in 0..500 {
        let s = setup(&[], &[], &o, false);
        if let Ok(e) = create(kind, &s) {
            return e;
        }
        thread::sleep(Duration::from_millis(10));
    }
    panic!("{kind:?}: no listener");
}

fn io(e: &mut dyn Engine, op: Op, buf: &AlignedBuf) -> i64 {
    match e.queue(&unit(0, op, 0, buf.len(), buf.ptr())) {
        Queued::Done(r) => r,
        Queued::Pending => panic!("a network engine completes in queue"),
    }
}

/// A port free on 127.0.0.1 now (the listener binds it again with SO_REUSEADDR).
fn free_port(udp: bool) -> u16 {
    if udp {
        std::net::UdpSocket::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    } else {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }
}

/// `blocks` blocks of `bs` sent by one engine arrive in order at the other, whose next read
/// after the sender is gone ends the stream.
fn blocks_arrive(kind: EngineKind, proto: NetProtocol, host: &str, port: u16, bs: usize) {
    let blocks = 5u64;
    let listen = NetLink {
        protocol: proto,
        port,
        listen: true,
        host: (proto == NetProtocol::Unix).then(|| host.to_string()),
        ..Default::default()
    };
    let rx = thread::spawn(move || {
        let mut e = engine(kind, listen);
        let buf = AlignedBuf::new(bs);
        let mut got = Vec::new();
        for _ in 0..blocks {
            assert_eq!(io(&mut *e, Op::Read, &buf), bs as i64);
            got.push(buf.as_slice().to_vec());
        }
        assert_eq!(io(&mut *e, Op::Read, &buf), END_OF_STREAM);
        got
    });
    if proto == NetProtocol::Udp {
        // A datagram finds its receiver only once that is bound (its port then refuses a
        // socket without SO_REUSEPORT).
        while std::net::UdpSocket::bind(("0.0.0.0", port)).is_ok() {
            thread::sleep(Duration::from_millis(10));
        }
    }
    let link = NetLink {
        protocol: proto,
        port,
        host: Some(host.to_string()),
        ..Default::default()
    };
    let mut tx = sender(kind, link);
    let mut buf = AlignedBuf::new(bs);
    let mut sent = Vec::new();
    for b in 0..blocks {
        fill(buf.as_mut_slice(), b + 1);
        assert_eq!(io(&mut *tx, Op::Write, &buf), bs as i64);
        sent.push(buf.as_slice().to_vec());
    }
    drop(tx);
    assert_eq!(rx.join().unwrap(), sent, "{kind:?} {proto:?}");
}

#[test]
fn tcp_blocks_arrive_whole_and_in_order() {
    blocks_arrive(
        EngineKind::Net,
        NetProtocol::Tcp,
        "127.0.0.1",
        free_port(false),
        4096,
    );
    // Blocks larger than a pipe go through it in pieces.
    let port = free_port(false);
    blocks_arrive(
        EngineKind::Netsplice,
        NetProtocol::Tcp,
        "localhost",
        port,
        256 << 10,
    );
}

#[test]
fn unix_and_udp_blocks_arrive() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sock");
    let p = path.to_str().unwrap();
    blocks_arrive(EngineKind::Net, NetProtocol::Unix, p, 0, 8192);
    // A datagram's loss on loopback is not expected with five small ones.
    blocks_arrive(
        EngineKind::Net,
        NetProtocol::Udp,
        "127.0.0.1",
        free_port(true),
        1024,
    );
}

#[test]
fn pingpong_returns_each_block() {
    let port = free_port(false);
    let rx = thread::spawn(move || {
        let link = NetLink {
            port,
            listen: true,
            pingpong: true,
            ..Default::default()
        };
        let mut e = engine(EngineKind::Net, link);
        let buf = AlignedBuf::new(512);
        for _ in 0..3 {
            assert_eq!(io(&mut *e, Op::Read, &buf), 512);
        }
    });
    let link = NetLink {
        port,
        host: Some("127.0.0.1".into()),
        pingpong: true,
        nodelay: true,
        ..Default::default()
    };
    let mut tx = sender(EngineKind::Net, link);
    let mut buf = AlignedBuf::new(512);
    for b in 0..3 {
        fill(buf.as_mut_slice(), 40 + b);
        let sent = buf.as_slice().to_vec();
        assert_eq!(io(&mut *tx, Op::Write, &buf), 512);
        assert_eq!(buf.as_slice(), &sent[..]);
    }
    rx.join().unwrap();
}

/// A receiver that binds after the sender's open message was sent (and lost) takes the first
/// datagram it gets as the open message, reads the rest, and counts the blocks before as
/// dropped; a datagram of a stamped sender begins with the open message for it.
#[test]
fn a_late_udp_receiver_starts_at_the_first_datagram_it_gets() {
    let port = free_port(true);
    let link = NetLink {
        protocol: NetProtocol::Udp,
        port,
        host: Some("127.0.0.1".into()),
        stamps: true,
        ..Default::default()
    };
    // No receiver yet: the open message and the first two blocks go nowhere.
    let mut tx = engine(EngineKind::Net, link.clone());
    let mut buf = AlignedBuf::new(1024);
    let mut send = |b: u64, buf: &mut AlignedBuf| {
        fill(buf.as_mut_slice(), b);
        assert_eq!(io(&mut *tx, Op::Write, buf), 1024);
        assert_eq!(buf.as_slice()[..8], super::link::open_message());
    };
    send(1, &mut buf);
    send(2, &mut buf);
    let listen = NetLink {
        listen: true,
        host: None,
        ..link
    };
    let rx = thread::spawn(move || {
        let mut e = engine(EngineKind::Net, listen);
        let buf = AlignedBuf::new(1024);
        let mut n = 0;
        while io(&mut *e, Op::Read, &buf) == 1024 {
            n += 1;
        }
        (n, e.dropped())
    });
    while std::net::UdpSocket::bind(("0.0.0.0", port)).is_ok() {
        thread::sleep(Duration::from_millis(10));
    }
    for b in 3..=6 {
        send(b, &mut buf);
    }
    drop(tx);
    // Block 3 opened the link; blocks 4 to 6 were read; 1 to 3 were never read as data.
    let (read, dropped) = rx.join().unwrap();
    assert_eq!((read, dropped[0]), (3, 3));
}

#[test]
fn link_messages_are_fios() {
    assert_eq!(
        super::link::open_message(),
        [0x6c, 0x69, 0x6e, 0x6b, 0, 0, 0, 0x98]
    );
    assert_eq!(
        super::link::close_message(),
        [0x6b, 0x6e, 0x69, 0x6c, 0x89, 0, 0, 0]
    );
}

#[test]
fn each_clone_has_its_own_port() {
    let mut spec = crate::job::JobSpec {
        ioengine: EngineKind::Net,
        numjobs: 3,
        ..Default::default()
    };
    spec.engine_options.net = NetLink {
        port: 8000,
        ..Default::default()
    };
    let ports: Vec<u16> = (0..3)
        .map(|c| {
            let mut s = spec.clone();
            super::for_clone(&mut s, c);
            assert!(s.engine_options.net.stamps, "no verify: stamps");
            s.engine_options.net.port
        })
        .collect();
    assert_eq!(ports, [8000, 8001, 8002]);
    // A unix socket's clones keep the path (the front end refuses them); a port past 65535
    // does not exist.
    let unix = NetLink {
        protocol: NetProtocol::Unix,
        host: Some("p".into()),
        ..Default::default()
    };
    assert_eq!(unix.for_clone(2), Some(unix.clone()));
    let top = NetLink {
        port: 65535,
        ..Default::default()
    };
    assert_eq!(top.for_clone(1), None);
}
