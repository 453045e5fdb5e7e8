fn main() {
    let _ = webfw::logger!(":res[content length]");
}
