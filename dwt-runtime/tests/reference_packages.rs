//! The CPU reference against the real reference packages: vectors produced by vc2-conformance's own
//! VC-2 encoder pseudocode and by PyWavelets (tests/reference/generate.py; regenerate and compare in
//! CI with `python3 tests/reference/generate.py && git diff --exit-code tests/reference`).

use dwt_ir::{parse_wavelet, Boundary, Wavelet};
use dwt_runtime::cpu::{forward, inverse, Layout};
use serde_json::Value;

fn load(name: &str) -> Vec<Value> {
    let path = format!("{}/../tests/reference/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "reference vectors {path} are missing ({e}); run python3 tests/reference/generate.py"
        )
    });
    serde_json::from_str::<Value>(&text)
        .expect("valid JSON")
        .as_array()
        .expect("a list of cases")
        .clone()
}

fn ints(v: &Value) -> Vec<i32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap() as i32)
        .collect()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn vc2_wavelets_match_vc2_conformance() {
    let cases = load("vc2.json");
    assert!(cases.len() >= 50, "expected the full VC-2 vector set");
    for case in &cases {
        let name = case["wavelet"].as_str().unwrap();
        let wavelet =
            dwt_catalogue::by_name(name).unwrap_or_else(|| panic!("no catalogue wavelet {name}"));
        let shape = [
            case["height"].as_u64().unwrap() as usize,
            case["width"].as_u64().unwrap() as usize,
        ];
        let levels = case["levels"].as_u64().unwrap() as u32;
        let input = ints(&case["input"]);
        let expected = ints(&case["mallat"]);

        let mut data = input.clone();
        forward(wavelet, &mut data, &shape, levels, Layout::Mallat).unwrap();
        let wrong = data.iter().zip(&expected).filter(|(a, b)| a != b).count();
        assert_eq!(
            wrong, 0,
            "{name} {shape:?} {levels} levels: {wrong} coefficients differ from vc2-conformance"
        );

        // The same through i16 storage, which VC-2 pictures of these ranges fit.
        let mut narrow: Vec<i16> = input.iter().map(|&x| x as i16).collect();
        forward(wavelet, &mut narrow, &shape, levels, Layout::Mallat).unwrap();
        assert!(
            narrow.iter().zip(&expected).all(|(a, b)| *a as i32 == *b),
            "{name} i16 differs"
        );

        inverse(wavelet, &mut data, &shape, levels, Layout::Mallat).unwrap();
        assert_eq!(
            data, input,
            "{name} {shape:?}: inverse does not reconstruct"
        );
    }
}

/// Our float wavelets with PyWavelets' conventions: a periodic boundary ("periodization") and the
/// high band negated (pywt's cD is -d/K).
fn as_pywt(name: &str) -> Wavelet {
    let source = match name {
        "Haar" => "wavelet Haar { kind = float; odd -= even[0]; even += 1/2*odd[0]; scale (1.4142135623730951, -0.7071067811865476); }".to_string(),
        _ => {
            let w = dwt_catalogue::by_name(name).unwrap();
            let mut w = w.clone();
            w.boundary = Boundary::Periodic;
            if let Some(dwt_ir::Op::Scale { high, .. }) = w.program.ops.last_mut() {
                *high = high.neg();
            }
            return w;
        }
    };
    parse_wavelet(&source).unwrap()
}

#[test]
fn float_wavelets_match_pywavelets_periodization() {
    let cases = load("pywt.json");
    assert!(cases.len() >= 27);
    for case in &cases {
        let wavelet = as_pywt(case["ours"].as_str().unwrap());
        let shape: Vec<usize> = case["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect();
        let levels = case["levels"].as_u64().unwrap() as u32;
        let input = floats(&case["input"]);
        let expected = floats(&case["mallat"]);
        let mut data = input.clone();
        forward(&wavelet, &mut data, &shape, levels, Layout::Mallat).unwrap();
        let err = data
            .iter()
            .zip(&expected)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(
            err < 1e-10,
            "{} {shape:?} {levels} levels: max error {err:e} against pywt {}",
            wavelet.name,
            case["pywt"]
        );
        inverse(&wavelet, &mut data, &shape, levels, Layout::Mallat).unwrap();
        let err = data
            .iter()
            .zip(&input)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(
            err < 1e-12,
            "{}: reconstruction error {err:e}",
            wavelet.name
        );
    }
}
