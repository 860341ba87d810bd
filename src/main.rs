//! iomark: one binary for storage benchmarks. Every command lives in the application layer
//! (`iomark-app`); this is its entry point.

/// The static (musl) binary allocates with mimalloc: musl's malloc is slow where iomark allocates
/// much (file sets, long job files); the glibc build keeps glibc's.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(iomark_app::main(std::env::args().collect()));
}
