fn main() {
    let _ = webfw::logger!("[:date[rfc]] :method");
}
