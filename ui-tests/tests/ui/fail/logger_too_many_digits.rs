fn main() {
    let _ = webfw::logger!(":total-time[101] ms");
}
