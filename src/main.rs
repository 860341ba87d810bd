//! iomark: one binary for storage benchmarks. Every command lives in the application layer
//! (`iomark-app`); this is its entry point.

fn main() {
    std::process::exit(iomark_app::main(std::env::args().collect()));
}
