fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::Path::new(&args[1]);
    let b = mantra::detect::Snapshot::read(&dir.join("before")).unwrap();
    let a = mantra::detect::Snapshot::read(&dir.join("after")).unwrap();
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let r = mantra::detect::detect(&b, &a);
        eprintln!("{} in {:?}", r.len(), t.elapsed());
    }
}
