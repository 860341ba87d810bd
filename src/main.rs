fn main() {
    println!("iomark {}", iomark_engine::VERSION);
}
