use super::*;
use iomark_engine::job::Distribution;

#[test]
fn sizes_kb_base_1024() {
    let p = |s| parse_size(s, 1024).unwrap();
    assert_eq!(p("4k"), 4096);
    assert_eq!(p("4K"), 4096);
    assert_eq!(p("4kb"), 4096);
    assert_eq!(p("4ki"), 4096);
    assert_eq!(p("4kib"), 4000);
    assert_eq!(p("1m"), 1 << 20);
    assert_eq!(p("1g"), 1 << 30);
    assert_eq!(p("16Gi"), 16u64 << 30);
    assert_eq!(p("1GiB"), 1_000_000_000);
    assert_eq!(p("64MB"), 64 << 20);
    assert_eq!(p("0x1000"), 4096);
    assert_eq!(p("512"), 512);
    assert_eq!(p("10b"), 10);
    assert_eq!(p("1t"), 1u64 << 40);
    assert_eq!(p("1p"), 1u64 << 50);
    assert_eq!(p("(2*4k)"), 8192);
    assert_eq!(p("(1m + 4k) "), (1 << 20) + 4096);
    assert!(parse_size("4x", 1024)
        .unwrap_err()
        .to_string()
        .contains("4k"));
    // fio ignores what follows the digits unless it starts with a letter or `%`.
    assert_eq!(p("65536)"), 65536);
    assert!(parse_size("", 1024).is_err());
    assert!(parse_size("-4k", 1024).is_err());
    assert!(parse_size("abc", 1024).is_err());
}

#[test]
fn sizes_kb_base_1000() {
    let p = |s| parse_size(s, 1000).unwrap();
    assert_eq!(p("4k"), 4000);
    assert_eq!(p("4ki"), 4000);
    assert_eq!(p("4kib"), 4096);
    assert_eq!(p("1MiB"), 1 << 20);
    assert_eq!(p("1g"), 1_000_000_000);
}

#[test]
fn percentages() {
    assert_eq!(
        parse_size_or_percent("50%", 1024).unwrap(),
        SizeSpec::Percent(50.0)
    );
    assert_eq!(
        parse_size_or_percent("1g", 1024).unwrap(),
        SizeSpec::Bytes(1 << 30)
    );
    assert!(parse_size_or_percent("150%", 1024).is_err());
}

#[test]
fn times() {
    assert_eq!(
        parse_time("600s", TimeUnit::S).unwrap(),
        Duration::from_secs(600)
    );
    assert_eq!(
        parse_time("1m", TimeUnit::S).unwrap(),
        Duration::from_secs(60)
    );
    assert_eq!(
        parse_time("500ms", TimeUnit::S).unwrap(),
        Duration::from_millis(500)
    );
    assert_eq!(
        parse_time("30", TimeUnit::S).unwrap(),
        Duration::from_secs(30)
    );
    assert_eq!(
        parse_time("100", TimeUnit::Us).unwrap(),
        Duration::from_micros(100)
    );
    assert_eq!(
        parse_time("2h", TimeUnit::S).unwrap(),
        Duration::from_secs(7200)
    );
    assert_eq!(
        parse_time("1d", TimeUnit::S).unwrap(),
        Duration::from_secs(86400)
    );
    assert_eq!(
        parse_time("20usec", TimeUnit::S).unwrap(),
        Duration::from_micros(20)
    );
    assert_eq!(
        parse_time("0.5", TimeUnit::S).unwrap(),
        Duration::from_millis(500)
    );
    assert_eq!(
        parse_time("(1000+500)", TimeUnit::S).unwrap(),
        Duration::from_micros(1500)
    );
    let e = parse_time("10q", TimeUnit::S).unwrap_err().to_string();
    assert!(e.contains("500ms"), "{e}");
    assert_eq!(
        parse_time_range("5s-2s", TimeUnit::S).unwrap(),
        (Duration::from_secs(2), Duration::from_secs(5))
    );
}

#[test]
fn bools() {
    for t in ["1", "true", "yes", "on", "ON"] {
        assert!(parse_bool(t).unwrap());
    }
    for f in ["0", "false", "no", "off"] {
        assert!(!parse_bool(f).unwrap());
    }
    assert!(parse_bool("2").unwrap_err().to_string().contains("0 or 1"));
}

#[test]
fn per_dir_lists() {
    let p = |s| parse_per_dir(s, |x| parse_size(x, 1024)).unwrap();
    let v = p("4k");
    assert_eq!(
        (v.read, v.write, v.trim),
        (Some(4096), Some(4096), Some(4096))
    );
    let v = p("8k,32k");
    assert_eq!(
        (v.read, v.write, v.trim),
        (Some(8192), Some(32768), Some(32768))
    );
    let v = p("8k,32k,");
    assert_eq!((v.read, v.write, v.trim), (Some(8192), Some(32768), None));
    let v = p(",8k");
    assert_eq!((v.read, v.write, v.trim), (None, Some(8192), Some(8192)));
    let v = p("8k,,16k");
    assert_eq!((v.read, v.write, v.trim), (Some(8192), None, Some(16384)));
    let v = p("8k,");
    assert_eq!((v.read, v.write, v.trim), (Some(8192), None, None));
    assert!(parse_per_dir("1,2,3,4", |x| parse_size(x, 1024)).is_err());
    assert!(parse_per_dir("1,zz", |x| parse_size(x, 1024)).is_err());
}

#[test]
fn ranges() {
    assert_eq!(parse_size_range("4k-64k", 1024).unwrap(), (4096, 65536));
    assert_eq!(parse_size_range("4k:64k", 1024).unwrap(), (4096, 65536));
    assert_eq!(parse_size_range("64k-4k", 1024).unwrap(), (4096, 65536));
    assert_eq!(parse_size_range("8k", 1024).unwrap(), (8192, 8192));
    assert!(parse_size_range("4k-zz", 1024).is_err());
    // fio's lenient reading: a '-' splits first, and an end stops at a separator.
    assert_eq!(
        parse_size_range("512/25:1k:25:2k:25:4k/25", 1024).unwrap(),
        (512, 1024)
    );
    assert_eq!(parse_size_range("1k:2k-4k", 1024).unwrap(), (1024, 4096));
    assert_eq!(parse_size_range("4k/1-8k", 1024).unwrap(), (4096, 8192));
    assert!(parse_size_range("/5:8k", 1024).is_err());
    assert!(parse_size_range("4k/x:zz", 1024).is_err());
}

#[test]
fn bssplit() {
    assert_eq!(
        parse_bssplit_list("4k/10:64k/50:32k/40", 1024).unwrap(),
        vec![(4096, 10), (65536, 50), (32768, 40)]
    );
    assert_eq!(
        parse_bssplit_list("4k/50:1k/:32k/", 1024).unwrap(),
        vec![(4096, 50), (1024, 25), (32768, 25)]
    );
    let v = parse_bssplit_list("4k:8k:16k", 1024).unwrap();
    assert_eq!(v.iter().map(|x| x.1).sum::<u32>(), 100);
    assert_eq!(parse_bssplit_list("4k/0:8k/60", 1024).unwrap()[0].1, 40);
    assert!(parse_bssplit_list("4k/10:64k/50", 1024)
        .unwrap_err()
        .to_string()
        .contains("100%"));
    assert!(parse_bssplit_list("4k/70:64k/50", 1024)
        .unwrap_err()
        .to_string()
        .contains("more than 100%"));
    assert!(parse_bssplit_list("4k/x", 1024).is_err());
    let pd = parse_bssplit("4k/100,8k/50:16k/50", 1024).unwrap();
    assert_eq!(pd.read, Some(vec![(4096, 100)]));
    assert_eq!(pd.write, Some(vec![(8192, 50), (16384, 50)]));
    assert_eq!(pd.trim, pd.write);
}

#[test]
fn float_and_cpu_lists() {
    assert_eq!(
        parse_float_list("99:99.9", 20, true).unwrap(),
        vec![99.0, 99.9]
    );
    assert!(parse_float_list("99:abc", 20, true).is_err());
    assert!(parse_float_list("101", 20, true).is_err());
    let many = vec!["1"; 21].join(":");
    assert!(parse_float_list(&many, 20, true).is_err());
    assert_eq!(
        parse_cpu_list("0,5,8-11").unwrap(),
        vec![0, 5, 8, 9, 10, 11]
    );
    assert_eq!(parse_cpu_list("3,1,1").unwrap(), vec![1, 3]);
    assert!(parse_cpu_list("4-2").is_err());
    assert!(parse_cpu_list("a").is_err());
}

#[test]
fn path_lists() {
    assert_eq!(parse_path_list("/dev/a:/dev/b"), vec!["/dev/a", "/dev/b"]);
    assert_eq!(parse_path_list(r"c\:x:/y"), vec!["c:x", "/y"]);
}

#[test]
fn patterns() {
    assert_eq!(
        parse_pattern("0xdeadbeef").unwrap(),
        vec![0xde, 0xad, 0xbe, 0xef]
    );
    assert_eq!(parse_pattern("\"ab\"").unwrap(), b"ab".to_vec());
    assert_eq!(parse_pattern("1234").unwrap(), vec![0xd2, 0x04]);
    assert_eq!(parse_pattern("-12").unwrap(), vec![0xf4, 0xff, 0xff, 0xff]);
    assert_eq!(
        parse_pattern("0xdeadbeef\"ab\"").unwrap(),
        vec![0xde, 0xad, 0xbe, 0xef, b'a', b'b']
    );
    assert_eq!(parse_pattern("0xabc").unwrap(), vec![0x0a, 0xbc]);
    assert!(parse_pattern("\"ab").is_err());
    assert!(parse_pattern("zz").is_err());
    // %o: 8 bytes for the offset, where they stand; refused where only bytes are taken.
    assert_eq!(
        parse_pattern_fmt("0xff%o\"ab\"").unwrap(),
        ([&[0xff][..], &[0; 8], b"ab"].concat(), vec![1])
    );
    assert!(parse_pattern("%o")
        .unwrap_err()
        .to_string()
        .contains("verify_pattern"));
    let f = std::env::temp_dir().join(format!("iomark-pattern-{}", std::process::id()));
    std::fs::write(&f, vec![7u8; 600]).unwrap();
    let p = parse_pattern(&format!("0x01'{}'", f.display())).unwrap();
    std::fs::remove_file(&f).unwrap();
    assert_eq!(p.len(), MAX_PATTERN);
    assert_eq!(&p[..2], &[1, 7]);
    assert!(parse_pattern("'/nonexistent/pattern'")
        .unwrap_err()
        .to_string()
        .contains("cannot read the pattern file"));
}

#[test]
fn distributions() {
    assert_eq!(
        parse_distribution("random", 1024).unwrap(),
        Distribution::Random
    );
    assert_eq!(
        parse_distribution("zipf:1.2", 1024).unwrap(),
        Distribution::Zipf {
            theta: 1.2,
            center: 0.0
        }
    );
    assert_eq!(
        parse_distribution("zipf:1.2:0.3", 1024).unwrap(),
        Distribution::Zipf {
            theta: 1.2,
            center: 0.3
        }
    );
    assert_eq!(
        parse_distribution("pareto:0.9", 1024).unwrap(),
        Distribution::Pareto {
            h: 0.9,
            center: 0.0
        }
    );
    assert_eq!(
        parse_distribution("gauss:5", 1024).unwrap(),
        Distribution::Normal {
            sigma_pct: 5.0,
            center: 0.0
        }
    );
    assert_eq!(
        parse_distribution("normal:5", 1024).unwrap(),
        parse_distribution("gauss:5", 1024).unwrap()
    );
    assert_eq!(
        parse_distribution("zoned:60/10:30/20:8/30:2/40", 1024).unwrap(),
        Distribution::Zoned(vec![(60.0, 10.0), (30.0, 20.0), (8.0, 30.0), (2.0, 40.0)])
    );
    assert_eq!(
        parse_distribution("zoned_abs:60/20g:40/10g", 1024).unwrap(),
        Distribution::ZonedAbs(vec![(60.0, 20 << 30), (40.0, 10 << 30)])
    );
    assert!(parse_distribution("zoned:60/10:30/20", 1024).is_err());
    // fio's grammar: an empty entry ends the list, missing or 0 regions share out the rest,
    // regions above 100 count as 100, their sum may stay below 100 but not exceed it.
    let z = |s: &str| parse_distribution(s, 1024);
    assert_eq!(
        z("zoned:50/10:50::ignored").unwrap(),
        Distribution::Zoned(vec![(50.0, 10.0), (50.0, 90.0)])
    );
    assert_eq!(
        z("zoned:20/10:40:40/0").unwrap(),
        Distribution::Zoned(vec![(20.0, 10.0), (40.0, 45.0), (40.0, 45.0)])
    );
    assert_eq!(
        z("zoned:100/20").unwrap(),
        Distribution::Zoned(vec![(100.0, 20.0)])
    );
    assert_eq!(
        z("zoned:100/250").unwrap(),
        Distribution::Zoned(vec![(100.0, 100.0)])
    );
    assert!(z("zoned:50/60:50/50").is_err());
    assert!(z("zoned:50.5/10:49.5/90").is_err());
    // Per direction: read,write[,trim]; trim takes write's list; an empty part is uniform.
    assert_eq!(
        z("zoned:100/10,100/50").unwrap(),
        Distribution::PerDir(Box::new([
            Distribution::Zoned(vec![(100.0, 10.0)]),
            Distribution::Zoned(vec![(100.0, 50.0)]),
            Distribution::Zoned(vec![(100.0, 50.0)]),
        ]))
    );
    assert_eq!(
        z("zoned_abs:100/1m,,100/2m").unwrap(),
        Distribution::PerDir(Box::new([
            Distribution::ZonedAbs(vec![(100.0, 1 << 20)]),
            Distribution::Random,
            Distribution::ZonedAbs(vec![(100.0, 2 << 20)]),
        ]))
    );
    assert_eq!(
        z("zoned:100/10,100/10").unwrap(),
        Distribution::Zoned(vec![(100.0, 10.0)])
    );
    assert!(z("zoned:100/10,100/10,100/10,100/10").is_err());
    // Without a parameter, fio's defaults.
    assert_eq!(
        parse_distribution("zipf", 1024).unwrap(),
        Distribution::Zipf {
            theta: 1.1,
            center: 0.0
        }
    );
    assert_eq!(
        parse_distribution("pareto", 1024).unwrap(),
        Distribution::Pareto {
            h: 0.2,
            center: 0.0
        }
    );
    assert_eq!(
        parse_distribution("normal", 1024).unwrap(),
        Distribution::Normal {
            sigma_pct: 0.0,
            center: 0.0
        }
    );
    assert!(parse_distribution("zipf:1", 1024).is_err());
    assert!(parse_distribution("pareto:2", 1024).is_err());
    assert!(parse_distribution("bogus:1", 1024)
        .unwrap_err()
        .to_string()
        .contains("zipf:THETA"));
}

#[test]
fn expressions() {
    let leaf = |s: &str| {
        s.parse::<f64>()
            .map_err(|_| ValueError::NotANumber(s.into()))
    };
    assert_eq!(eval_expr("(1+2*3)", &leaf).unwrap(), 7.0);
    assert_eq!(eval_expr("((1+2)*3)", &leaf).unwrap(), 9.0);
    assert_eq!(eval_expr("(2^10)", &leaf).unwrap(), 1024.0);
    assert_eq!(eval_expr("(10 % 4 - -1)", &leaf).unwrap(), 3.0);
    assert!(eval_expr("(1/0)", &leaf).is_err());
    assert!(eval_expr("(1+", &leaf).is_err());
    assert_eq!(parse_int("(4k/2)", 1024).unwrap(), 2048);
}

#[test]
fn errors_carry_the_facts_and_name_the_form() {
    assert_eq!(
        parse_bssplit_list("4k/10:64k/50", 1024),
        Err(ValueError::SplitNot100 {
            value: "4k/10:64k/50".into(),
            given: 60
        })
    );
    let e = parse_size("4x", 1024).unwrap_err();
    assert_eq!(
        e,
        ValueError::UnknownSuffix {
            quantity: Quantity::Size,
            suffix: "x".into()
        }
        .expected(Form::Size)
    );
    assert_eq!(
        e.to_string(),
        format!("unknown size suffix 'x'; expected {SIZE_FORM}")
    );
    let e = parse_distribution("zoned:50/10:x/20", 1024).unwrap_err();
    assert!(
        matches!(&e, ValueError::Zone { zone, .. } if zone == "x/20"),
        "{e:?}"
    );
}
