fn main() {
    let _ = webfw::logger!("tiny", stream = std::io::stderr());
}
