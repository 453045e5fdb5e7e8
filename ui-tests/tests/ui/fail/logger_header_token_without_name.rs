fn main() {
    let _ = webfw::logger!(":method :req");
}
