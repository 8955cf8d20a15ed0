//! `by_name_or_file`: the wavelets a command line names, and what it says when there are none.

use std::path::PathBuf;

use dwt_catalogue::{by_name_or_file, LoadError};

/// A fresh file under the target's temporary folder, holding `text`.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("by_name_or_file");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_catalogue_name_any_case_is_that_wavelet() {
    let w = by_name_or_file("legall53").unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(&w[0], dwt_catalogue::by_name("LeGall53").unwrap());
}

#[test]
fn a_file_gives_every_wavelet_it_declares_in_order() {
    let path = file(
        "two.wlt",
        "wavelet B { odd -= (even[0] + even[1]) >> 1; }\nwavelet A { odd -= even[0]; even += (odd[0] + 1) >> 1; }\n",
    );
    let w = by_name_or_file(path.to_str().unwrap()).unwrap();
    let names: Vec<&str> = w.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["B", "A"]);
}

#[test]
fn no_wavelet_is_an_error_saying_why() {
    let missing = by_name_or_file("NoSuchWavelet").unwrap_err();
    assert!(matches!(missing, LoadError::Unknown { .. }));
    let text = missing.to_string();
    assert!(
        text.contains("`NoSuchWavelet`")
            && text.contains("LeGall53")
            && text.contains("nor a file"),
        "{text}"
    );

    let empty = file("empty.wlt", "// nothing here\n");
    let text = by_name_or_file(empty.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("empty.wlt:1:1: no wavelet declared"),
        "{text}"
    );

    let bad = file("bad.wlt", "wavelet X {\n    odd -= even[0] +;\n}\n");
    let err = by_name_or_file(bad.to_str().unwrap()).unwrap_err();
    let LoadError::Parse { ref error, .. } = err else {
        panic!("not a parse error: {err}");
    };
    assert_eq!(error.line, 2, "{err}");
    assert!(err.to_string().contains("bad.wlt:2:"), "{err}");

    // A folder exists but is not a readable file.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let err = by_name_or_file(dir.to_str().unwrap()).unwrap_err();
    assert!(matches!(err, LoadError::Read { .. }), "{err}");
    assert!(
        err.to_string().starts_with("cannot read wavelet file"),
        "{err}"
    );
}
