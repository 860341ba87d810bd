//! The net and netsplice engines beside fio 3.33 (issue 25): a receiver job and a sender job
//! in one job file on 127.0.0.1 (the shape of fio's `examples/netio.fio`) count the same I/Os
//! and bytes under both tools, and one side of iomark talks to one side of fio, both ways, over
//! TCP, UDP and a unix socket: the proof that the wire behaviour (connection, link messages,
//! end of stream) is fio's.

use crate::util::*;
use std::thread;

/// Whether a run of fio ended on its own receiver's early stop: the sender killed by SIGPIPE,
/// or fio exiting 1 with a sender job whose error is ECONNRESET (104) or EPIPE (32).
fn fio_receiver_left_early(o: &std::process::Output) -> bool {
    if o.status.code().is_none() {
        return stderr(o).contains("got signal=13");
    }
    if o.status.code() != Some(1) {
        return false;
    }
    let text = stdout(o);
    let Some(start) = text.find('{') else {
        return false;
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text[start..]) else {
        return false;
    };
    v["jobs"].as_array().is_some_and(|jobs| {
        jobs.iter()
            .any(|j| matches!(j["error"].as_i64(), Some(104) | Some(32)))
    })
}

/// A TCP or UDP port free on 127.0.0.1 now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The `[global]` section of the network jobs.
fn global(engine: &str, proto: &str, port: Option<u16>, size: &str) -> String {
    let port = port.map_or(String::new(), |p| format!("port={p}\n"));
    format!("[global]\nioengine={engine}\n{port}protocol={proto}\nbs=4k\nsize={size}\n")
}

const RECEIVER: &str = "[receiver]\nlisten\nrw=read\n";
const SENDER: &str = "[sender]\nhostname=localhost\nstartdelay=1\nrw=write\n";

/// A job's name, read I/Os, read bytes, write I/Os, write bytes, error, short reads and
/// dropped reads.
type Row = (String, u64, u64, u64, u64, u64, u64, u64);

/// Each job's row.
fn counts(v: &serde_json::Value) -> Vec<Row> {
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["jobname"].as_str().unwrap().to_string(),
                u(&j["read"]["total_ios"]),
                u(&j["read"]["io_bytes"]),
                u(&j["write"]["total_ios"]),
                u(&j["write"]["io_bytes"]),
                u(&j["error"]),
                u(&j["read"]["short_ios"]),
                u(&j["read"]["drop_ios"]),
            )
        })
        .collect()
}

/// `tool` runs the job file `text` (written as `name` in `d`); its JSON document.
fn run_file(tool: &str, d: &Scratch, name: &str, text: &str) -> serde_json::Value {
    std::fs::write(d.file(name), text).unwrap();
    let o = run_tool(tool, &["--output-format=json", name], &d.path);
    tool_json(tool, &o)
}

#[test]
fn netio_counts_as_fio() {
    let d = Scratch::new("netio");
    for engine in ["net", "netsplice"] {
        let mut seen = Vec::new();
        for tool in ["fio", "iomark"] {
            let text = global(engine, "tcp", Some(free_port()), "64m") + RECEIVER + SENDER;
            seen.push(counts(&run_netio(tool, &d, &text)));
        }
        // The senders' rows are the same: 64 MiB of 4 KiB blocks.
        assert_eq!(seen[1][1], seen[0][1], "{engine}");
        assert_eq!(seen[0][1].4, 64 << 20, "{engine}: {:?}", seen[0]);
        // iomark's receiver waits for whole blocks: every byte, in 4 KiB I/Os. fio's counts
        // each recv as an I/O (more, shorter ones, as the stream's segments fall) and may
        // stop short when the sender closes: never more bytes than were sent.
        assert_eq!(
            seen[1][0],
            ("receiver".into(), 16384, 64 << 20, 0, 0, 0, 0, 0),
            "{engine}"
        );
        assert!(
            seen[0][0].2 <= 64 << 20 && seen[0][0].1 >= seen[0][0].2 / 4096,
            "{seen:?}"
        );
    }
}

/// `tool` runs netio's job file `text` in `d`; its JSON document. fio 3.33's receiver may stop
/// reading before the sender ends (it counts a short `recv` as issued, never as read); its
/// sender then gets SIGPIPE ("got signal=13") and fio aborts at exit ("double free"), or its
/// `send` fails with ECONNRESET or EPIPE (the sender's `error` 104 or 32) and fio exits 1:
/// that run of fio is taken again, at most three times in all. iomark's runs are never retried.
fn run_netio(tool: &str, d: &Scratch, text: &str) -> serde_json::Value {
    std::fs::write(d.file("netio.fio"), text).unwrap();
    for _ in 0..2 {
        let o = run_tool(tool, &["--output-format=json", "netio.fio"], &d.path);
        if tool != "fio" || !fio_receiver_left_early(&o) {
            return tool_json(tool, &o);
        }
        eprintln!("fio's receiver stopped before its sender ended; running it again");
    }
    let o = run_tool(tool, &["--output-format=json", "netio.fio"], &d.path);
    tool_json(tool, &o)
}

/// The receiver under `rx` and the sender under `tx`, each from its own job file, at once;
/// the receiver's and the sender's counts.
fn across(
    d: &Scratch,
    rx: &'static str,
    tx: &'static str,
    head: &str,
    receiver: &str,
    sender: &str,
) -> (Vec<Row>, Vec<Row>) {
    let rdir = Scratch::new("net-rx");
    let rtext = format!("{head}{receiver}");
    let r = thread::spawn(move || counts(&run_file(rx, &rdir, "rx.fio", &rtext)));
    // A UDP sender's open message is lost if it comes before the receiver has bound its
    // port (the receiver would then wait for it for ever): wait for the port to be taken.
    if head.contains("protocol=udp") {
        let port: u16 = head
            .split("port=")
            .nth(1)
            .and_then(|p| p.lines().next()?.parse().ok())
            .unwrap();
        wait_bound(port);
    }
    let s = counts(&run_file(tx, d, "tx.fio", &format!("{head}{sender}")));
    (r.join().unwrap(), s)
}

/// Returns once a receiver has bound UDP `port` (binding it here then fails).
fn wait_bound(port: u16) {
    while std::net::UdpSocket::bind(("0.0.0.0", port)).is_ok() {
        thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn iomark_and_fio_talk_both_ways() {
    let d = Scratch::new("net-cross");
    for (rx, tx) in [("iomark", "fio"), ("fio", "iomark")] {
        // TCP: the sender sends every block. iomark's receiver counts every byte; fio 3.33's
        // counts a short recv() (fewer bytes than a block, as a stream's segments fall) as
        // issued but not as read, so it stops reading early and reports fewer bytes than it
        // received, with fio's own sender as with iomark's (found with strace: iomark's
        // sender sends every block and then the close message, nothing is reset). Its
        // shortfall is bounded by its short reads: at most a block each, twice (issued twice).
        let head = global("net", "tcp", Some(free_port()), "16m");
        let (r, s) = across(&d, rx, tx, &head, RECEIVER, SENDER);
        assert_eq!(
            (s[0].3, s[0].4, s[0].5),
            (4096, 16 << 20, 0),
            "{rx} <- {tx}"
        );
        assert_eq!(r[0].5, 0, "{rx} <- {tx}: {r:?}");
        if rx == "iomark" {
            assert_eq!((r[0].1, r[0].2), (4096, 16 << 20), "{rx} <- {tx}");
        } else {
            let short = r[0].6;
            assert!(
                r[0].2 <= 16 << 20 && r[0].2 + 2 * 4096 * short >= 16 << 20,
                "{rx} <- {tx}: {r:?}"
            );
        }
        // UDP: the receiver starts at the sender's open message and ends at its close
        // message; the datagrams that never came are counted dropped from the sequence
        // stamps (fio's form on both sides). A busy receiver drops many on loopback, and the
        // lost tail of a run is counted by no one: never more than were sent.
        let head = global("net", "udp", Some(free_port()), "4m");
        // The sender paced (a quarter second) so that a busy receiver keeps up.
        let sender = "[sender]\nhostname=127.0.0.1\nstartdelay=1\nrw=write\nrate=16m\n";
        let (r, s) = across(&d, rx, tx, &head, "[receiver]\nrw=read\n", sender);
        assert_eq!((s[0].3, s[0].4, s[0].5), (1024, 4 << 20, 0), "{rx} <- {tx}");
        assert!(r[0].1 > 0 && r[0].5 == 0, "{rx} <- {tx}: {r:?}");
        assert!(r[0].1 + r[0].7 <= 1024, "{rx} <- {tx}: {r:?}");
    }
    // Over a unix socket fio 3.33's own sender fails its close message (EISCONN, error
    // 106), so fio is not the sender there; the engine's tests cover unix sockets.
}

/// UDP multicast on the loopback interface (group 239.0.0.7, `interface=127.0.0.1`).
/// A receiver bound before the sender starts gets the open message and every datagram after it,
/// both ways. A receiver started after iomark's sender (whose open message then went to no
/// one: fio 3.33's receiver answered the first data datagram with "bad udp open magic") joins
/// the group while the blocks flow, takes the first datagram it gets as the open message, and
/// counts those before as dropped.
#[test]
fn multicast_receivers_on_time_and_late() {
    let d = Scratch::new("net-mcast");
    let group = "hostname=239.0.0.7\ninterface=127.0.0.1\nttl=1\n";
    let receiver = "[receiver]\nrw=read\n";
    for (rx, tx) in [("fio", "iomark"), ("iomark", "fio")] {
        let head = global("net", "udp", Some(free_port()), "4m") + group;
        let sender = "[sender]\nstartdelay=1\nrw=write\nrate=16m\n";
        let (r, s) = across(&d, rx, tx, &head, receiver, sender);
        assert_eq!((s[0].3, s[0].4, s[0].5), (1024, 4 << 20, 0), "{rx} <- {tx}");
        assert!(r[0].1 > 0 && r[0].5 == 0, "{rx} <- {tx}: {r:?}");
        assert!(r[0].1 + r[0].7 <= 1024, "{rx} <- {tx}: {r:?}");
    }
    // iomark sends 24 MiB at 4 MiB/s (six seconds). Its open message is seen here (this
    // socket joined the group first), then fio's receiver starts and joins while the blocks
    // flow.
    let port = free_port();
    let head = global("net", "udp", Some(port), "24m") + group;
    std::fs::write(
        d.file("tx.fio"),
        format!("{head}[sender]\nrw=write\nrate=4m\n"),
    )
    .unwrap();
    let watch = std::net::UdpSocket::bind(("0.0.0.0", port)).unwrap();
    let lo = std::net::Ipv4Addr::LOCALHOST;
    watch
        .join_multicast_v4(&std::net::Ipv4Addr::new(239, 0, 0, 7), &lo)
        .unwrap();
    watch
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    let dir = d.path.clone();
    let tx = thread::spawn(move || {
        let o = run_tool("iomark", &["--output-format=json", "tx.fio"], &dir);
        counts(&tool_json("iomark", &o))
    });
    let mut first = [0u8; 64];
    let (n, _) = watch.recv_from(&mut first).unwrap();
    assert_eq!(n, 8, "the open message first");
    drop(watch);
    let rx = Scratch::new("net-mcast-rx");
    let r = counts(&run_file(
        "fio",
        &rx,
        "rx.fio",
        &format!("{head}{receiver}"),
    ));
    let s = tx.join().unwrap();
    assert_eq!((s[0].3, s[0].5), (6144, 0), "{s:?}");
    // The blocks that went by before fio's receiver was there are counted dropped.
    assert_eq!(r[0].5, 0, "{r:?}");
    assert!(r[0].1 > 0 && r[0].7 > 0, "{r:?}");
    assert!(r[0].1 + r[0].7 <= 6144, "{r:?}");
}

/// Forwards the datagrams that reach `from` to `to` on 127.0.0.1, leaving out the data
/// datagrams numbered in `lose` (the first is number 0; link messages always pass), until
/// the sender's close message has passed.
fn lossy_link(from: std::net::UdpSocket, to: u16, lose: &'static [u64]) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut buf = vec![0u8; 65536];
        let mut n = 0u64;
        // Nothing is forwarded before the receiver has bound its port (a datagram to a port
        // nobody has is lost); a sender that never comes ends the relay.
        wait_bound(to);
        from.set_read_timeout(Some(std::time::Duration::from_secs(120)))
            .unwrap();
        loop {
            let Ok((len, _)) = from.recv_from(&mut buf) else {
                return;
            };
            let link_message = len == 8;
            if link_message || !lose.contains(&n) {
                from.send_to(&buf[..len], ("127.0.0.1", to)).unwrap();
            }
            if !link_message {
                n += 1;
            }
            // The close message: "link" in little-endian words, command 0x89.
            if len == 8 && buf[..8] == [0x6b, 0x6e, 0x69, 0x6c, 0x89, 0, 0, 0] {
                return;
            }
        }
    })
}

#[test]
fn udp_datagrams_lost_on_the_way_are_counted_as_fio_counts_them() {
    let d = Scratch::new("net-udp-loss");
    for (rx, tx) in [("iomark", "fio"), ("fio", "iomark"), ("iomark", "iomark")] {
        let relay = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let relay_port = relay.local_addr().unwrap().port();
        let port = free_port();
        let link = lossy_link(relay, port, &[3, 100, 101]);
        let rdir = Scratch::new("net-udp-loss-rx");
        let rtext = global("net", "udp", Some(port), "1m") + "[receiver]\nrw=read\n";
        let r = thread::spawn(move || counts(&run_file(rx, &rdir, "rx.fio", &rtext)));
        let stext = global("net", "udp", Some(relay_port), "1m")
            + "[sender]\nhostname=127.0.0.1\nstartdelay=1\nrw=write\nrate=4m\n";
        let s = counts(&run_file(tx, &d, "tx.fio", &stext));
        let r = r.join().unwrap();
        link.join().unwrap();
        assert_eq!((s[0].3, s[0].5), (256, 0), "{rx} <- {tx}");
        // Three datagrams left out (number 3 alone, 100 and 101 together): the receiver
        // read the other side's stamps and counted the gap after number 3 at least (a busy
        // receiver drops more, and may end early: never more than were sent).
        assert_eq!(r[0].5, 0, "{rx} <- {tx}: {r:?}");
        assert!(r[0].7 >= 1 && r[0].1 + r[0].7 <= 256, "{rx} <- {tx}: {r:?}");
        if r[0].1 >= 253 {
            assert_eq!(r[0].7, 3, "{rx} <- {tx}: {r:?}");
        }
    }
}

#[test]
fn numjobs_clones_connect_on_fios_ports() {
    let d = Scratch::new("net-numjobs");
    // fio's senders (two clones: port, port + 1) into iomark's receivers, and iomark's
    // senders into fio's: each clone has its own connection, every block arrives.
    for (rx, tx) in [("iomark", "fio"), ("fio", "iomark")] {
        let port = free_port();
        let head = global("net", "tcp", Some(port), "4m") + "numjobs=2\n";
        let (r, s) = across(&d, rx, tx, &head, RECEIVER, SENDER);
        assert_eq!(s.len(), 2, "{rx} <- {tx}: {s:?}");
        for c in &s {
            assert_eq!((c.3, c.4, c.5), (1024, 4 << 20, 0), "{rx} <- {tx}: {s:?}");
        }
        assert_eq!(r.len(), 2, "{rx} <- {tx}: {r:?}");
        for c in &r {
            assert_eq!(c.5, 0, "{rx} <- {tx}: {r:?}");
            if rx == "iomark" {
                assert_eq!((c.1, c.2), (1024, 4 << 20), "{rx} <- {tx}: {r:?}");
            } else {
                assert!(c.2 > 0 && c.2 <= 4 << 20, "{rx} <- {tx}: {r:?}");
            }
        }
    }
}

#[test]
fn net_jobs_fio_refuses_are_refused_before_any_io() {
    for (args, want) in [
        (
            &["--rw=randread", "--port=9", "--listen"][..],
            "cannot be random",
        ),
        (&["--rw=read", "--protocol=udp"][..], "needs port="),
        (
            &["--rw=read", "--protocol=udp", "--port=9", "--listen"][..],
            "listen is only valid",
        ),
        (&["--rw=write", "--port=9"][..], "needs hostname="),
        (
            &["--rw=read", "--protocol=unix", "--port=9"][..],
            "port= is not valid",
        ),
    ] {
        let mut a = vec!["run", "--name=n", "--ioengine=net", "--size=1m"];
        a.extend_from_slice(args);
        let o = iomark(&a);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_unix_listener_replaces_only_a_socket() {
    let d = Scratch::new("net-unix-gate");
    let path = d.file("s");
    let p = path.to_str().unwrap();
    let host = format!("--hostname={p}");
    let args = [
        "run",
        "--name=n",
        "--ioengine=net",
        "--protocol=unix",
        &host,
        "--rw=read",
        "--size=1m",
    ];
    // A file where the socket would be: refused before any I/O, the file kept whole.
    std::fs::write(&path, b"keep").unwrap();
    let o = iomark(&args);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a regular file, not a socket"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"keep");
    // A socket left there by an earlier run: replaced, and the listener takes its sender.
    std::fs::remove_file(&path).unwrap();
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    let listener = {
        let a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        thread::spawn(move || {
            let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
            iomark(&a)
        })
    };
    let send = [
        "run",
        "--name=s",
        "--ioengine=net",
        "--protocol=unix",
        &host,
        "--rw=write",
        "--size=1m",
        "--startdelay=2",
    ];
    let s = iomark(&send);
    let r = listener.join().unwrap();
    assert!(s.status.success(), "{}", stderr(&s));
    assert!(r.status.success(), "{}", stderr(&r));
}
