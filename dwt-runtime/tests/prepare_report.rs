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
