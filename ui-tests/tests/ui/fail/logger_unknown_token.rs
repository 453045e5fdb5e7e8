fn main() {
    let _ = webfw::logger!(":method :metod :status");
}
