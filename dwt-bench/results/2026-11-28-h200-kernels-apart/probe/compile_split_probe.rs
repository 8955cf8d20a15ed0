//! Probe: a plan's source compiled whole, whole with --split-compile, and per kernel in parallel.
use dwt_cuda::compile;
use dwt_cuda::LaunchConfig;
use dwt_emit_c::{emit_module, plan, Cuda};
use dwt_ir::{Direction, ElementKind, ElementType, Layout};
use std::time::Instant;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let arch = "sm_90";
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    for w in dwt_catalogue::all() {
        let (small, large) = match w.kind {
            ElementKind::Integer => (ElementType::I16, ElementType::I32),
            _ => (ElementType::F32, ElementType::F32),
        };
        for (elem, shape) in [
            (small, vec![1080usize, 1920]),
            (large, vec![8192usize, 8192]),
        ] {
            for dir in [Direction::Forward, Direction::Inverse] {
                let cfg = LaunchConfig::default().for_request(w, dir, elem, &shape);
                let m = emit_module(&Cuda, w, dir, elem, Layout::Mallat, &cfg).unwrap();
                let p = plan(&m, &shape, 3).unwrap();
                let src = m.source_for(&p);
                let kernels: Vec<String> = p.kernels().iter().map(|s| s.to_string()).collect();
                let mut rows = vec![];
                for _ in 0..reps {
                    std::env::remove_var("PROBE_SPLIT");
                    let t = Instant::now();
                    let a = compile(&src, arch).unwrap();
                    let whole = ms(t);
                    let t = Instant::now();
                    let parts: Vec<_> = std::thread::scope(|sc| {
                        let hs: Vec<_> = kernels
                            .iter()
                            .map(|k| {
                                let s = m.kernel_source(k).unwrap();
                                sc.spawn(move || compile(&s, arch).unwrap())
                            })
                            .collect();
                        hs.into_iter().map(|h| h.join().unwrap()).collect()
                    });
                    let par = ms(t);
                    // the same ptxas report per kernel?
                    let same = kernels
                        .iter()
                        .zip(&parts)
                        .all(|(k, c)| usage(&a.log, k) == usage(&c.log, k));
                    std::env::set_var("PROBE_SPLIT", "0");
                    let t = Instant::now();
                    let b = compile(&src, arch).unwrap();
                    let split = ms(t);
                    let same_split = kernels.iter().all(|k| usage(&a.log, k) == usage(&b.log, k));
                    let same_cubin = a.cubin == b.cubin;
                    std::env::remove_var("PROBE_SPLIT");
                    rows.push(format!("whole {whole:.0} | per-kernel parallel {par:.0} (same usage {same}) | split {split:.0} (same usage {same_split}, same cubin {same_cubin})"));
                }
                println!(
                    "{} {:?} {:?} {:?} [{}]: {}",
                    w.name,
                    elem,
                    dir,
                    shape,
                    kernels.join(", "),
                    rows.join(" ;; ")
                );
            }
        }
    }
}

fn usage(log: &str, kernel: &str) -> Vec<String> {
    let mut out = vec![];
    let mut on = false;
    for l in log.lines() {
        if l.contains("Compiling entry function") || l.contains("Function properties for") {
            on = l.contains(kernel);
        }
        if on && (l.contains("Used") || l.contains("spill")) {
            out.push(l.trim().to_string());
        }
    }
    out
}
