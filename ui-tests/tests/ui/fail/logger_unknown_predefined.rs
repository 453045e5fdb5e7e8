fn main() {
    let _ = webfw::logger!("combind");
}
