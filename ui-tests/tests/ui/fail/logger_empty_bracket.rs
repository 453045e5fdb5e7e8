fn main() {
    let _ = webfw::logger!(":method :res[] :url");
}
