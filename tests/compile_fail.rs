//! Malformed wavelets are compile errors that point at the offending token and say how to fix it;
//! well-formed ones compile and expose their constants. A description file with the same text fails
//! at run time with the same message at the same line and column.

use std::fs;
use std::path::Path;

#[test]
fn malformed_wavelets_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui/pass/*.rs");
}

/// The body of the file's `lifting! { ... }`, with the text before it blanked out (newlines kept,
/// everything else turned into spaces) so that lines and columns stay those of the file.
fn macro_body(src: &str) -> String {
    let open = src
        .find("lifting! {")
        .expect("a `lifting! { ... }` invocation")
        + "lifting! {".len();
    let mut depth = 1;
    let close = open
        + src[open..]
            .find(|c| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .expect("a closing `}`");
    let blank: String = src[..open]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    format!("{blank}{}", &src[open..close])
}

/// The first error of a `.stderr` file: its message and its `--> file:line:column`.
fn expected_error(stderr: &str) -> (String, usize, usize) {
    let message = stderr
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("error: "))
        .expect("a stderr file starts with `error: `")
        .to_string();
    let location = stderr
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("--> "))
        .expect("a `-->` location");
    let mut parts = location.rsplitn(3, ':');
    let column = parts.next().unwrap().parse().unwrap();
    let line = parts.next().unwrap().parse().unwrap();
    (message, line, column)
}

#[test]
fn runtime_parse_gives_the_same_errors() {
    let mut checked = 0;
    let mut entries: Vec<_> = fs::read_dir("tests/ui")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let src = fs::read_to_string(&path).unwrap();
        let stderr = fs::read_to_string(path.with_extension("stderr")).unwrap();
        let (message, line, column) = expected_error(&stderr);
        let err = lifting::ir::parse_str(&macro_body(&src))
            .err()
            .unwrap_or_else(|| panic!("{} parses at run time", path.display()));
        let name = Path::new(&path).file_name().unwrap().to_string_lossy();
        assert_eq!(err.message, message, "{name}: message");
        // An empty invocation has no token to point at: the macro reports the call site.
        if name != "empty_invocation.rs" {
            assert_eq!((err.line, err.column), (line, column), "{name}: location");
        }
        checked += 1;
    }
    assert!(checked >= 14, "only {checked} cases");
}
