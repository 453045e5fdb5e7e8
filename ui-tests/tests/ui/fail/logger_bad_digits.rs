fn main() {
    let _ = webfw::logger!(":method :url :response-time[abc] ms");
}
