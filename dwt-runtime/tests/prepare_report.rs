//! What a prepare report says of a disk cache that could not be written.

use std::time::Duration;

use dwt_runtime::{KernelOrigin, PrepareReport};

#[test]
fn cache_warnings_are_in_the_report_s_text() {
    let mut report = PrepareReport::one_module(["k"], KernelOrigin::Compiled, Duration::ZERO);
    assert!(report.cache_warnings.is_empty());
    assert_eq!(report.to_string(), "1 kernel (k) from compiled in 0.0 ms");
    report.cache_warnings = vec!["could not write a: full".into(), "b: read-only".into()];
    assert_eq!(
        report.to_string(),
        "1 kernel (k) from compiled in 0.0 ms; warning: could not write a: full; \
         warning: b: read-only"
    );
    // Said even where nothing was built.
    let nothing = PrepareReport {
        cache_warnings: vec!["x".into()],
        ..PrepareReport::default()
    };
    assert_eq!(nothing.to_string(), "nothing to build; warning: x");
    assert_eq!(PrepareReport::default().to_string(), "nothing to build");
}

/// A report of several modules (a backend may build one per kernel) says where the kernels came
/// from by the coldest module's origin, and sums their times.
#[test]
fn several_modules_report_the_coldest_origin() {
    use dwt_runtime::ModuleReport;
    let module = |k: &str, origin, ms| ModuleReport {
        kernels: vec![k.to_string()],
        origin,
        time: Duration::from_millis(ms),
    };
    let report = |modules| PrepareReport {
        modules,
        ..PrepareReport::default()
    };
    let memory = KernelOrigin::Memory;
    let disk = KernelOrigin::DiskCache;
    let compiled = KernelOrigin::Compiled;
    let both = report(vec![module("a", memory, 0), module("b", compiled, 300)]);
    assert_eq!(both.origin(), Some(compiled));
    assert!(both.compiled());
    assert_eq!(both.kernels(), 2);
    assert_eq!(both.time(), Duration::from_millis(300));
    assert_eq!(
        both.to_string(),
        "1 kernel (a) from in-memory cache in 0.0 ms; 1 kernel (b) from compiled in 300.0 ms"
    );
    let cached = report(vec![module("a", disk, 2), module("b", memory, 0)]);
    assert_eq!(cached.origin(), Some(disk));
    assert!(!cached.compiled());
    let warm = report(vec![module("a", memory, 0), module("b", memory, 0)]);
    assert_eq!(warm.origin(), Some(memory));
    assert_eq!(PrepareReport::default().origin(), None);
}
