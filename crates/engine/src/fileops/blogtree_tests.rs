//! Tests of the blog tree workload.

use super::*;
use crate::test_support::TempDir;

fn kind(prefix: &'static str, suffix: &'static str, most: u64) -> FileKind {
    FileKind {
        prefix,
        suffix,
        min: 100,
        max: 20_000,
        most,
    }
}

fn role(threads: u32, ms: u64) -> Role {
    Role {
        threads,
        think: Duration::from_millis(ms),
    }
}

#[test]
fn tree_layout_counts_and_ops() {
    let d = TempDir::new("blogtree");
    let spec = TreeSpec {
        root: d.path().to_path_buf(),
        writers: role(2, 1),
        rewriters: role(1, 5),
        commenters: role(1, 1),
        readers: role(3, 0),
        article: kind("article-", ".xml", 5),
        picture: kind("picture-", ".jpg", 5),
        comment: kind("comment-", ".xml", 5),
        write_chunk: 8192,
        read_chunk: 65536,
        read_buffer: 65536,
        backoff: Duration::from_millis(10),
        upstream: false,
        seed: 1,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let t = Tree::start(spec, stop).unwrap();
    std::thread::sleep(Duration::from_millis(400));
    let c = t.take_interval();
    let again = t.take_interval();
    assert!(again.articles_written <= c.articles_written + 50);
    let p = t.finish();
    assert!(p.error.is_none());
    assert!(c.blogs_written >= 2, "{c:?}");
    assert!(c.articles_written >= c.blogs_written);
    assert!(c.blogs_read > 0, "{c:?}");
    for op in [MKDIR, CREATE, WRITE, RENAME, OPEN, READ, PROBE] {
        assert!(p.stats.ops(op) > 0, "{op}");
    }
    // Every create is renamed (or failed, removing its temporary file).
    assert!(p.stats.ops(RENAME) <= p.stats.ops(CREATE));
    // Layout: blog-N directories holding article-K.xml / picture-K.jpg / comment-K.xml
    // and no temporary file.
    let mut blogs = 0;
    for e in std::fs::read_dir(d.path()).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        assert!(name.starts_with("blog-"), "{name}");
        blogs += 1;
        for f in std::fs::read_dir(e.path()).unwrap() {
            let f = f.unwrap().file_name().into_string().unwrap();
            let ok = (f.starts_with("article-") && f.ends_with(".xml"))
                || (f.starts_with("picture-") && f.ends_with(".jpg"))
                || (f.starts_with("comment-") && f.ends_with(".xml"));
            assert!(ok && !f.ends_with(".tmp"), "{f}");
        }
    }
    assert!(blogs >= 2);
    assert!(p.stats.get(READ).unwrap().lat.stat.max_or_zero() > 0);
}

/// A tree of one-file blogs in `root` with `writers` writers and no other thread.
fn tiny(root: PathBuf, writers: u32) -> TreeSpec {
    TreeSpec {
        root,
        writers: role(writers, 0),
        rewriters: role(0, 0),
        commenters: role(0, 0),
        readers: role(0, 0),
        article: kind("a-", "", 1),
        picture: kind("p-", "", 1),
        comment: kind("c-", "", 1),
        write_chunk: 10,
        read_chunk: 10,
        read_buffer: 10,
        backoff: Duration::from_millis(1),
        upstream: false,
        seed: 0,
    }
}

#[test]
fn zero_blog_draw_fails_only_upstream() {
    let draws = |upstream: bool| {
        let spec = TreeSpec {
            upstream,
            ..tiny(std::env::temp_dir(), 0)
        };
        let sh = Shared {
            root: at::open_dir(&spec.root).unwrap(),
            spec,
            next_blog: AtomicU64::new(3),
            counts: Counters::default(),
            done: AtomicBool::new(false),
            stop: Arc::new(AtomicBool::new(false)),
            errors: AtomicU64::new(0),
            first_error: Mutex::new(None),
            fatal: Mutex::new(None),
        };
        let mut rng = Draws::Own(Rng::new(5));
        (0..200)
            .map(|_| sh.random_blog(&mut rng))
            .collect::<Vec<_>>()
    };
    // Blogs 0 and 1 exist (2 is being written): upstream takes a draw of 0 as no blog.
    let up = draws(true);
    assert!(up.contains(&None) && up.contains(&Some(1)) && !up.contains(&Some(0)));
    let fixed = draws(false);
    assert!(fixed.contains(&Some(0)) && fixed.contains(&Some(1)) && !fixed.contains(&None));
}

#[test]
fn upstream_commenters_write_into_blog_0_and_go_on_after_any_error() {
    let d = TempDir::new("blogtree");
    // No writer: upstream's commenters take blog 0; its comment is a non-empty directory
    // here, so every rename fails (not a race: "Is a directory").
    std::fs::create_dir_all(d.join("blog-0/c-1/x")).unwrap();
    let spec = TreeSpec {
        commenters: role(1, 0),
        upstream: true,
        ..tiny(d.path().to_path_buf(), 0)
    };
    let t = Tree::start(spec.clone(), Arc::new(AtomicBool::new(false))).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let (failed, first) = t.failures();
    assert!(!t.ended_by_error());
    let p = t.finish();
    assert!(p.error.is_none(), "{:?}", p.error);
    assert!(failed >= 2, "{failed}");
    assert!(first.unwrap().contains("directory"));
    assert!(p.stats.ops(CREATE) >= 2);
    // Its temporary files were removed; the fixed workload has no blog to comment on.
    assert_eq!(std::fs::read_dir(d.join("blog-0")).unwrap().count(), 1);
    let fixed = TreeSpec {
        upstream: false,
        ..spec
    };
    let t = Tree::start(fixed, Arc::new(AtomicBool::new(false))).unwrap();
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(t.failures().0, 0);
    assert_eq!(t.finish().stats.ops(CREATE), 0);
}

#[test]
fn missing_root_refused() {
    let d = TempDir::new("blogtree");
    let spec = tiny(d.join("nope"), 1);
    let e = Tree::start(spec, Arc::new(AtomicBool::new(false)))
        .err()
        .unwrap();
    assert!(e.to_string().contains("nope"));
}
