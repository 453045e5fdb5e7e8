fn main() {
    let _ = webfw::logger!(":method[x] :url");
}
