fn trace() {}

fn main() {
    let _ = webfw::logger!(":method :trace", tokens = [trace]);
}
