fn main() {
    let _ = webfw::logger!("[:date[clf :method :url");
}
