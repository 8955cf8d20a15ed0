//! End-to-end tests of `dwt`: every input is generated here in a temporary directory.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use image::{ImageBuffer, Luma, Rgb};
use predicates::prelude::*;
use tempfile::TempDir;

fn dwt() -> Command {
    let mut c = Command::cargo_bin("dwt").unwrap();
    c.env_remove("DWT_BACKEND");
    c
}

/// A 8-bit grayscale scene with gradients, an edge and noise.
fn scene8(w: u32, h: u32) -> ImageBuffer<Luma<u8>, Vec<u8>> {
    let mut s = 0x9e37_79b9u32;
    ImageBuffer::from_fn(w, h, |x, y| {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        let v = (x * 255 / w + y * 60 / h) as i32 + if (x / 7 + y / 5) % 3 == 0 { 40 } else { 0 };
        Luma([(v + (s % 7) as i32).clamp(0, 255) as u8])
    })
}

fn scene16(w: u32, h: u32) -> ImageBuffer<Luma<u16>, Vec<u16>> {
    let s = scene8(w, h);
    ImageBuffer::from_fn(w, h, |x, y| {
        Luma([(s.get_pixel(x, y).0[0] as u16 * 257).saturating_add((x % 3) as u16)])
    })
}

struct Dir(TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    fn p(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
    /// The path of a file `name` written with `contents`.
    fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.p(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `dwt -q transform COEFFS OUT --inverse`, to take more arguments and be asserted.
fn inverse(coeffs: &Path, out: &Path) -> Command {
    let mut cmd = dwt();
    cmd.args(["-q", "transform", s(coeffs), s(out), "--inverse"]);
    cmd
}

/// `dwt -q transform INPUT OUTPUT -w WAVELET -l LEVELS`, which must succeed.
fn forward_ok(input: &Path, output: &Path, wavelet: &str, levels: &str) {
    dwt()
        .args([
            "-q",
            "transform",
            s(input),
            s(output),
            "-w",
            wavelet,
            "-l",
            levels,
        ])
        .assert()
        .success();
}

/// Runs `dwt args` and checks it fails with one `dwt: ...` line containing `needle`, without
/// touching `input`.
fn fails(args: &[&str], input: Option<&Path>, needle: &str) {
    let before = input.map(|p| std::fs::read(p).unwrap());
    let out = dwt()
        .args(args)
        .assert()
        .failure()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    let last = err.lines().last().unwrap_or("");
    assert!(
        last.starts_with("dwt: ") && last.contains(needle),
        "{args:?}: expected `dwt: ...{needle}...`, got:\n{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    if let (Some(p), Some(b)) = (input, before) {
        assert_eq!(std::fs::read(p).unwrap(), b, "the input was modified");
    }
}

fn read_npy_i64(path: &Path) -> (Vec<i64>, Vec<usize>, String) {
    let b = std::fs::read(path).unwrap();
    let hl = u16::from_le_bytes([b[8], b[9]]) as usize;
    let header = std::str::from_utf8(&b[10..10 + hl]).unwrap().to_string();
    let body = &b[10 + hl..];
    let shape_txt = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let shape: Vec<usize> = shape_txt
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect();
    let descr = header.split("'descr': '").nth(1).unwrap()[..3].to_string();
    let v = match descr.as_str() {
        "<i2" => body
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]) as i64)
            .collect(),
        "<i4" => body
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64)
            .collect(),
        "|u1" => body.iter().map(|&x| x as i64).collect(),
        "<u2" => body
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) as i64)
            .collect(),
        d => panic!("{d}"),
    };
    (v, shape, descr)
}

fn write_npy_i16(path: &Path, shape: &[usize], v: &[i16]) {
    let body: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    write_npy(path, "<i2", shape, &body);
}

/// A version 1 `.npy` of `descr` (e.g. `<f4`) holding `body`.
fn write_npy(path: &Path, descr: &str, shape: &[usize], body: &[u8]) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let mut h = format!(
        "{{'descr': '{descr}', 'fortran_order': False, 'shape': ({},), }}",
        dims.join(", ")
    );
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut b = b"\x93NUMPY\x01\x00".to_vec();
    b.extend((h.len() as u16).to_le_bytes());
    b.extend(h.as_bytes());
    b.extend(body);
    std::fs::write(path, b).unwrap();
}

#[test]
fn png_round_trip_is_bit_exact_with_preview() {
    let d = Dir::new();
    let (input, coeffs, back, preview) =
        (d.p("in.png"), d.p("c.npy"), d.p("back.png"), d.p("pyr.png"));
    scene8(97, 64).save(&input).unwrap();
    let before = std::fs::read(&input).unwrap();
    dwt()
        .args([
            "transform",
            s(&input),
            s(&coeffs),
            "--wavelet",
            "LeGall53",
            "--levels",
            "4",
        ])
        .args(["--backend", "cpu", "--preview", s(&preview)])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "LeGall53, 4 levels, 2-D, 8-bit input needs up to",
        ))
        .stderr(predicate::str::contains("i16 holds 16: ok"))
        .stderr(predicate::str::contains("chose cpu"));
    let (c, shape, descr) = read_npy_i64(&coeffs);
    assert_eq!((shape, descr.as_str()), (vec![64, 97], "<i2"));
    assert!(c.iter().any(|&x| x < 0), "detail coefficients are signed");
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.p("c.json")).unwrap()).unwrap();
    assert_eq!(side["wavelet"], "LeGall53");
    assert_eq!(side["levels"], 4);
    assert_eq!(side["layout"], "mallat");
    assert_eq!(side["dtype"], "i16");
    let pv = image::open(&preview).unwrap().to_luma8();
    assert_eq!(pv.dimensions(), (97, 64));

    // The sidecar supplies wavelet, levels and layout.
    dwt()
        .args(["transform", s(&coeffs), s(&back), "--inverse", "--quiet"])
        .assert()
        .success()
        .stderr("");
    assert_eq!(image::open(&back).unwrap().to_luma8(), scene8(97, 64));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn every_integer_wavelet_round_trips_pgm_and_16_bit_tiff() {
    let d = Dir::new();
    let pgm = d.p("in.pgm");
    scene8(40, 33).save(&pgm).unwrap();
    let tif = d.p("in16.tif");
    scene16(40, 33).save(&tif).unwrap();
    for w in [
        "DeslauriersDubuc97",
        "LeGall53",
        "DeslauriersDubuc137",
        "HaarNoShift",
        "HaarWithShift",
        "Fidelity",
        "Daubechies97Integer",
    ] {
        for (input, ext) in [(&pgm, "pgm"), (&tif, "tif")] {
            let c = d.p(&format!("{w}-{ext}.npy"));
            let back = d.p(&format!("{w}-back.{ext}"));
            if (w, ext) == ("Daubechies97Integer", "tif") {
                // Its 6497 * x sums of 16-bit input overflow the 32-bit arithmetic by 3 levels.
                fails(
                    &["transform", s(input), s(&c), "-w", w, "-l", "3"],
                    Some(input),
                    "intermediate sums but lifting computes in 32 bits",
                );
                continue;
            }
            dwt()
                .args(["-q", "transform", s(input), s(&c), "-w", w, "-l", "3"])
                .assert()
                .success();
            inverse(&c, &back).assert().success();
            let (a, b) = (image::open(input).unwrap(), image::open(&back).unwrap());
            assert_eq!(a.as_bytes(), b.as_bytes(), "{w} {ext}");
            assert_eq!(a.color(), b.color(), "{w} {ext}");
        }
    }
}

#[test]
fn float_wavelet_and_interleaved_layout_and_raw_output() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(64, 48).save(&input).unwrap();
    let (raw, back) = (d.p("c.raw"), d.p("back.png"));
    dwt()
        .args([
            "-q",
            "transform",
            s(&input),
            s(&raw),
            "-w",
            "Cdf97",
            "-l",
            "3",
        ])
        .args(["--layout", "interleaved"])
        .assert()
        .success();
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.p("c.json")).unwrap()).unwrap();
    assert_eq!(side["dtype"], "f32");
    assert_eq!(side["layout"], "interleaved");
    assert_eq!(std::fs::metadata(&raw).unwrap().len(), 64 * 48 * 4);
    inverse(&raw, &back).assert().success();
    assert_eq!(image::open(&back).unwrap().to_luma8(), scene8(64, 48));
}

#[test]
fn volumes_npy_and_raw_with_shape() {
    let d = Dir::new();
    let shape = [9usize, 10, 12];
    let v: Vec<i16> = (0..9 * 10 * 12)
        .map(|i| ((i * 37) % 1000) as i16 - 500)
        .collect();
    let npy = d.p("vol.npy");
    write_npy_i16(&npy, &shape, &v);
    let (c, back) = (d.p("c.npy"), d.p("back.npy"));
    dwt()
        .args([
            "transform",
            s(&npy),
            s(&c),
            "-w",
            "LeGall53",
            "-l",
            "2",
            "--dtype",
            "i32",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("10-bit signed input"));
    inverse(&c, &back).assert().success();
    let (b, bshape, descr) = read_npy_i64(&back);
    assert_eq!(
        (bshape, descr.as_str()),
        (shape.to_vec(), "<i2"),
        "back in the input's dtype"
    );
    assert_eq!(b, v.iter().map(|&x| x as i64).collect::<Vec<_>>());

    // Raw input with --shape and --dtype; raw output with a sidecar; inverse from the sidecar.
    let raw = d.file(
        "vol.raw",
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>(),
    );
    let (craw, back2) = (d.p("c2.bin"), d.p("back2.npy"));
    dwt()
        .args([
            "-q",
            "transform",
            s(&raw),
            s(&craw),
            "-w",
            "LeGall53",
            "-l",
            "1",
        ])
        .args(["--shape", "9,10,12", "--dtype", "i16"])
        .assert()
        .success();
    inverse(&craw, &back2).assert().success();
    assert_eq!(read_npy_i64(&back2).0, b);
}

#[test]
fn wavelet_files_and_their_errors() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(32, 32).save(&input).unwrap();
    let good = d.file("mine.wav", "/// A user's LeGall.\nwavelet Mine {\n    shift = 1;\n    odd  -= (even[0] + even[1] + 1) >> 1;\n    even += (odd[-1] + odd[0] + 2) >> 2;\n}\n");
    let (c, back) = (d.p("c.npy"), d.p("back.png"));
    forward_ok(&input, &c, s(&good), "2");
    // The sidecar carries the wavelet's text: no file needed to invert.
    std::fs::remove_file(&good).unwrap();
    inverse(&c, &back).assert().success();
    assert_eq!(image::open(&back).unwrap().to_luma8(), scene8(32, 32));

    let bad = d.file(
        "bad.wav",
        "wavelet Bad {\n    odd -= (even[0] + frob[1]) >> 1;\n}\n",
    );
    let out = d.p("x.npy");
    fails(
        &["transform", s(&input), s(&out), "-w", s(&bad), "-l", "1"],
        Some(&input),
        &format!("{}:2:", bad.display()),
    );
    fails(&["info", "-w", s(&bad)], None, "bad.wav:2:");

    // A file of two wavelets is not silently the first of them.
    let two = d.file(
        "two.wav",
        "wavelet A { odd -= even[0]; }\nwavelet B { odd -= even[1]; }\n",
    );
    fails(
        &["transform", s(&input), s(&out), "-w", s(&two), "-l", "1"],
        Some(&input),
        "declares 2 wavelets (A, B)",
    );
    assert!(!out.exists());
}

/// `dwt info` on a program that reads 64 samples away: its any-shape bit growth would take
/// minutes from 2 levels on, so it shows 1 level and says why the rest is not there.
#[test]
fn info_on_a_far_reaching_program_returns() {
    let d = Dir::new();
    let far = d.file(
        "far.wav",
        "wavelet Far { odd -= (even[-64] + even[64] + 1) >> 1; }\n",
    );
    let out = dwt()
        .args(["info", "-w", s(&far)])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().find(|l| l.contains("8-bit  1-D")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[2..], ["9", "-", "-", "-"], "{row}");
    assert!(text.contains("- = not analysed for every shape"), "{text}");
}

/// `dwt info` on a periodic program gives the window the GPU kernels slide over its wrapped lines:
/// the same steps' window under the clamp rule.
#[test]
fn info_on_a_periodic_program_gives_the_wrapped_window() {
    let d = Dir::new();
    let steps = "odd -= (9*(even[0] + even[1]) - (even[-1] + even[2]) + 8) >> 4; even += (odd[-1] + odd[0] + 2) >> 2;";
    let windows = |boundary: &str| {
        let file = d.file(
            &format!("{boundary}.wav"),
            format!("wavelet W {{ boundary = {boundary}; {steps} }}\n"),
        );
        let out = dwt().args(["info", "-w", s(&file)]).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let lines: Vec<String> = (text.lines())
            .filter(|l| l.starts_with("sliding window, "))
            .map(String::from)
            .collect();
        (text, lines)
    };
    let (text, periodic) = windows("periodic");
    assert!(text.contains("lines read modulo their length"), "{text}");
    assert_eq!(periodic.len(), 2, "{text}");
    assert_eq!(periodic, windows("clamp").1);
}

#[test]
fn error_paths_say_one_line_and_leave_the_input_alone() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(32, 16).save(&input).unwrap();
    let out = d.p("out.npy");
    let (i, o) = (s(&input), s(&out));
    let missing = d.p("missing.png");
    fails(
        &["transform", s(&missing), o, "-w", "LeGall53", "-l", "1"],
        None,
        "no such file",
    );
    let garbage = d.file("garbage.png", b"this is not a png");
    fails(
        &["transform", s(&garbage), o, "-w", "LeGall53", "-l", "1"],
        Some(&garbage),
        "cannot read image",
    );
    let rgb = d.p("rgb.png");
    ImageBuffer::from_pixel(8, 8, Rgb([1u8, 2, 3]))
        .save(&rgb)
        .unwrap();
    fails(
        &["transform", s(&rgb), o, "-w", "LeGall53", "-l", "1"],
        Some(&rgb),
        "grayscale",
    );
    fails(
        &["transform", i, o, "-w", "NoSuchWavelet", "-l", "1"],
        Some(&input),
        "unknown wavelet `NoSuchWavelet`",
    );
    fails(
        &["transform", i, o, "-w", "LeGall53", "-l", "9"],
        Some(&input),
        "9 levels is too many for shape [16, 32]: it supports at most 5",
    );
    fails(
        &[
            "transform",
            i,
            o,
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--backend",
            "vulkan",
        ],
        Some(&input),
        "unknown backend `vulkan`; available: cpu",
    );
    #[cfg(not(feature = "opencl"))]
    fails(
        &[
            "transform",
            i,
            o,
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--backend",
            "opencl",
        ],
        Some(&input),
        "unknown backend `opencl`",
    );
    fails(
        &[
            "transform",
            i,
            o,
            "-w",
            "Fidelity",
            "-l",
            "4",
            "--dtype",
            "i16",
        ],
        Some(&input),
        "needs 18 bits but i16 holds 16: use i32, at most 3 levels, or allow overflow (`PlanBuilder::allow_overflow`, `dwt --allow-overflow`)",
    );
    fails(
        &[
            "transform",
            i,
            o,
            "-w",
            "Cdf97",
            "-l",
            "1",
            "--dtype",
            "i16",
        ],
        Some(&input),
        "is float but --dtype i16 is integer",
    );
    fails(
        &["transform", i, i, "-w", "LeGall53", "-l", "1"],
        Some(&input),
        "is the input file",
    );
    fails(
        &[
            "transform",
            i,
            s(&d.p("c.png")),
            "-w",
            "LeGall53",
            "-l",
            "1",
        ],
        Some(&input),
        "use --preview",
    );
    fails(
        &["transform", i, o, "-l", "1"],
        Some(&input),
        "--wavelet is required",
    );

    // DWT_BACKEND is read, and a bad value is named as coming from it.
    let err = dwt()
        .env("DWT_BACKEND", "nonsense")
        .args(["transform", i, o, "-w", "LeGall53", "-l", "1"])
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8(err)
        .unwrap()
        .contains("dwt: unknown backend `nonsense` (from DWT_BACKEND)"));
    dwt()
        .env("DWT_BACKEND", "cpu")
        .args(["transform", i, o, "-w", "LeGall53", "-l", "1"])
        .assert()
        .success()
        .stderr(predicate::str::contains("DWT_BACKEND=cpu: chose cpu"));

    // --allow-overflow lets it through, saying so.
    dwt()
        .args([
            "transform",
            i,
            o,
            "-w",
            "Fidelity",
            "-l",
            "4",
            "--dtype",
            "i16",
            "--allow-overflow",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("overflow allowed"));

    // Raw input: shape required, shape must match the bytes.
    let raw = d.file("in.raw", vec![0u8; 100]);
    fails(
        &["transform", s(&raw), o, "-w", "LeGall53", "-l", "1"],
        Some(&raw),
        "pass --shape and --dtype",
    );
    fails(
        &[
            "transform",
            s(&raw),
            o,
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--shape",
            "7,7",
            "--dtype",
            "i16",
        ],
        Some(&raw),
        "has 100 bytes but shape [7, 7] of i16 needs 98",
    );
    fails(
        &[
            "transform",
            s(&raw),
            o,
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--shape",
            "7,x",
            "--dtype",
            "i16",
        ],
        Some(&raw),
        "bad --shape",
    );
    let bad_npy = d.file("bad.npy", b"\x93NUMPY\x01\x00garbage");
    fails(
        &["transform", s(&bad_npy), o, "-w", "LeGall53", "-l", "1"],
        Some(&bad_npy),
        "bad.npy",
    );

    // Inverse errors: a raw file without sidecar, an image given as coefficients, a
    // reconstruction that is no image.
    fails(
        &[
            "transform",
            s(&raw),
            s(&d.p("b.png")),
            "--inverse",
            "-w",
            "LeGall53",
            "-l",
            "1",
        ],
        Some(&raw),
        "no sidecar",
    );
    fails(
        &[
            "transform",
            i,
            s(&d.p("b.png")),
            "--inverse",
            "-w",
            "LeGall53",
            "-l",
            "1",
        ],
        Some(&input),
        "--inverse reads coefficients",
    );
    let vol = d.p("vol.npy");
    write_npy_i16(&vol, &[4, 4, 4], &[3; 64]);
    let cv = d.p("cv.npy");
    forward_ok(&vol, &cv, "LeGall53", "1");
    fails(
        &["transform", s(&cv), s(&d.p("b.png")), "--inverse"],
        Some(&cv),
        "an image needs 2-D data",
    );
    fails(
        &[
            "transform",
            s(&vol),
            o,
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--preview",
            s(&d.p("p.png")),
        ],
        Some(&vol),
        "--preview needs 2-D data",
    );
}

#[test]
fn readme_main_job_sample_transform_preview_inverse() {
    let d = Dir::new();
    let (scene, c, pyr, back) = (
        d.p("scene.png"),
        d.p("c.npy"),
        d.p("pyr.png"),
        d.p("back.png"),
    );
    dwt()
        .args(["sample", s(&scene), "--width", "480", "--height", "270"])
        .assert()
        .success();
    let original = image::open(&scene).unwrap().to_luma8();
    assert_eq!(original.dimensions(), (480, 270));
    dwt()
        .args([
            "-q",
            "transform",
            s(&scene),
            s(&c),
            "-w",
            "DeslauriersDubuc137",
            "-l",
            "4",
        ])
        .args(["--preview", s(&pyr)])
        .assert()
        .success();
    inverse(&c, &back).assert().success();
    assert_eq!(image::open(&back).unwrap().to_luma8(), original);
    fails(&["sample", s(&d.p("x.npy"))], None, "write the sample as");
}

#[test]
fn emit_info_list() {
    dwt()
        .args(["emit", "--wavelet", "LeGall53", "--target", "opencl"])
        .assert()
        .success()
        .stdout(predicate::str::contains("__kernel"))
        .stdout(predicate::str::contains("short"));
    dwt()
        .args([
            "emit",
            "-w",
            "Cdf97",
            "--inverse",
            "--dtype",
            "f64",
            "--layout",
            "interleaved",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("double"));
    dwt()
        .args([
            "emit", "-w", "LeGall53", "--target", "cuda", "--dtype", "i32",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("extern \"C\" __global__"))
        .stdout(predicate::str::contains("legall53_forward_i32_columns"));
    fails(
        &["emit", "-w", "LeGall53", "--dtype", "f32"],
        None,
        "LeGall53",
    );
    // `--shape`: the kernels that transform runs; a 3840x2160 inverse of a long filter takes
    // the wider tiles, a 1920x1080 one the configured tiles, as without the option, and both a
    // second fused kernel on 16x8 tiles for their small bands.
    let inverse = |shape: Option<&str>| {
        let mut args = vec![
            "emit",
            "-w",
            "DeslauriersDubuc97",
            "--target",
            "cuda",
            "--inverse",
        ];
        args.extend(shape.map(|s| ["--shape", s]).into_iter().flatten());
        let out = dwt().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let (configured, small, large) = (
        inverse(None),
        inverse(Some("1080,1920")),
        inverse(Some("2160,3840")),
    );
    assert!(configured.contains("per tile of 32x16 polyphase indices"));
    assert!(!configured.contains("_small_tile("));
    assert!(small.starts_with(&configured), "{small}");
    assert!(small.contains("deslauriersdubuc97_inverse_i16_small_tile("));
    assert!(small.contains("per tile of 16x8 polyphase indices"));
    assert!(
        large.contains("per tile of 64x16 polyphase indices"),
        "{large}"
    );
    assert!(large.contains("per tile of 16x8 polyphase indices"));
    fails(
        &["emit", "-w", "LeGall53", "--shape", "0,4"],
        None,
        "bad --shape",
    );

    dwt()
        .args(["info", "--wavelet", "DeslauriersDubuc137"])
        .assert()
        .success()
        .stdout(predicate::str::contains("wavelet DeslauriersDubuc137"))
        .stdout(predicate::str::contains("inverse (synthesis) program"))
        .stdout(predicate::str::contains(
            "equivalent filters: low-pass 13 taps",
        ))
        .stdout(predicate::str::contains(
            "sliding window, forward: top 3, overlap 2, bottom 3",
        ))
        .stdout(predicate::str::contains("16-bit  3-D"));
    dwt()
        .args(["info", "-w", "Cdf97"])
        .assert()
        .success()
        .stdout(predicate::str::contains("float wavelet"));

    dwt()
        .arg("list")
        .assert()
        .success()
        .stdout(predicate::str::contains("Daubechies97Integer"))
        .stdout(predicate::str::contains(
            "cpu: host CPU (reference interpreter)",
        ));
}

/// A reader that closes the pipe early (`dwt emit ... | head`) ends `dwt` quietly: success, no
/// panic (`print!` panicked on the broken pipe). The module is larger than a pipe's buffer, so
/// `dwt` is still writing when the reader goes.
#[test]
fn a_reader_closing_the_pipe_early_is_not_a_panic() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // (`info` and `list` write through the same function; their reports fit the buffer.)
    let args = [
        "emit", "-w", "Fidelity", "--target", "cuda", "--dtype", "i32",
    ];
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("dwt"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 64];
    (child.stdout.take().unwrap())
        .read_exact(&mut head)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?} {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The names in a directory, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn no_output_sidecar_or_preview_overwrites_the_input() {
    let d = Dir::new();
    let input = d.p("v.png");
    scene8(40, 24).save(&input).unwrap();
    let out = d.p("out.npy");
    // The preview named as the input, directly or by another path.
    for preview in [
        s(&input).to_string(),
        format!("{}/./v.png", d.0.path().display()),
    ] {
        fails(
            &[
                "transform",
                s(&input),
                s(&out),
                "-w",
                "LeGall53",
                "-l",
                "2",
                "--preview",
                &preview,
            ],
            Some(&input),
            "is the input file",
        );
    }
    assert_eq!(listing(d.0.path()), ["v.png"], "nothing written");

    // An output hard-linked or symbolically linked to the input.
    let npy = d.p("same.npy");
    write_npy_i16(&npy, &[8, 8], &(0..64).collect::<Vec<i16>>());
    let hard = d.p("hard.npy");
    std::fs::hard_link(&npy, &hard).unwrap();
    fails(
        &["transform", s(&npy), s(&hard), "-w", "LeGall53", "-l", "1"],
        Some(&npy),
        "is the input file",
    );
    #[cfg(unix)]
    {
        let sym = d.p("sym.npy");
        std::os::unix::fs::symlink(&npy, &sym).unwrap();
        fails(
            &["transform", s(&npy), s(&sym), "-w", "LeGall53", "-l", "1"],
            Some(&npy),
            "is the input file",
        );
    }
    // The preview hard-linked to the output's sidecar or the output.
    let (c, cj, pv) = (d.p("c.npy"), d.p("c.json"), d.p("pv.png"));
    std::fs::write(&cj, b"{}").unwrap();
    std::fs::hard_link(&cj, &pv).unwrap();
    fails(
        &[
            "transform",
            s(&npy),
            s(&c),
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--preview",
            s(&pv),
        ],
        Some(&npy),
        "is also the sidecar",
    );
    assert!(!c.exists());
    assert_eq!(std::fs::read(&cj).unwrap(), b"{}");

    // Raw input named like the output's sidecar.
    let raw = d.file("data.json", [1u8; 128]);
    fails(
        &[
            "transform",
            s(&raw),
            s(&d.p("data.npy")),
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--shape",
            "8,8",
            "--dtype",
            "i16",
        ],
        Some(&raw),
        "the sidecar",
    );
    assert!(!d.p("data.npy").exists());

    // On --inverse, the reconstruction must not replace the input's sidecar either.
    let (k, kj) = (d.p("k.npy"), d.p("k.json"));
    forward_ok(&npy, &k, "LeGall53", "1");
    let kimg = d.p("k-link.npy");
    std::fs::hard_link(&kj, &kimg).unwrap();
    fails(
        &["transform", s(&k), s(&kimg), "--inverse"],
        Some(&kj),
        "is the input's sidecar",
    );
}

#[test]
fn a_failed_run_leaves_no_new_file_and_the_previous_output_intact() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(40, 24).save(&input).unwrap();
    let (c, cj) = (d.p("c.npy"), d.p("c.json"));
    forward_ok(&input, &c, "LeGall53", "2");
    let (before, before_side) = (std::fs::read(&c).unwrap(), std::fs::read(&cj).unwrap());
    let names = listing(d.0.path());
    // A different transform into the same output fails on its preview: nothing is replaced.
    for (preview, needle) in [
        (s(&d.p("nodir/p.png")).to_string(), "does not exist"),
        (s(&d.p("x.npy")).to_string(), "name it .png"),
        (s(&d.p("adir.png")).to_string(), "is a directory"),
    ] {
        std::fs::create_dir_all(d.p("adir.png")).unwrap();
        fails(
            &[
                "transform",
                s(&input),
                s(&c),
                "-w",
                "Fidelity",
                "-l",
                "1",
                "--preview",
                &preview,
            ],
            Some(&input),
            needle,
        );
        assert_eq!(std::fs::read(&c).unwrap(), before, "{preview}");
        assert_eq!(std::fs::read(&cj).unwrap(), before_side, "{preview}");
        std::fs::remove_dir(d.p("adir.png")).unwrap();
        assert_eq!(listing(d.0.path()), names, "no file left behind");
    }
    // A sidecar path that is a directory: no coefficients written without it.
    std::fs::create_dir(d.p("sc.json")).unwrap();
    fails(
        &[
            "transform",
            s(&input),
            s(&d.p("sc.npy")),
            "-w",
            "LeGall53",
            "-l",
            "1",
        ],
        Some(&input),
        "the sidecar",
    );
    assert!(!d.p("sc.npy").exists());
    // An output that is a directory, and one in a directory that does not exist.
    std::fs::create_dir(d.p("od.npy")).unwrap();
    fails(
        &[
            "transform",
            s(&input),
            s(&d.p("od.npy")),
            "-w",
            "LeGall53",
            "-l",
            "1",
        ],
        Some(&input),
        "is a directory",
    );
    assert!(!d.p("od.json").exists());
    fails(
        &["transform", s(&c), s(&d.p("no/back.png")), "--inverse"],
        Some(&c),
        "does not exist",
    );
    // --preview on --inverse would be ignored: refused.
    fails(
        &[
            "transform",
            s(&c),
            s(&d.p("back.png")),
            "--inverse",
            "--preview",
            s(&d.p("p.png")),
        ],
        Some(&c),
        "forward transform",
    );
    assert!(!d.p("back.png").exists());
}

fn edit_json(path: &Path, edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(v.as_object_mut().unwrap());
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

#[test]
fn inverse_flags_that_contradict_the_sidecar_are_refused() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(40, 24).save(&input).unwrap();
    let (c, back) = (d.p("c.npy"), d.p("back.png"));
    forward_ok(&input, &c, "LeGall53", "3");
    for (flags, needle) in [
        (
            &["-w", "Fidelity", "-l", "3"][..],
            "--wavelet Fidelity contradicts the sidecar",
        ),
        (&["-w", "LeGall53", "-l", "2"][..], "--levels 2 contradicts"),
        (
            &["--layout", "interleaved"][..],
            "--layout interleaved contradicts",
        ),
        (&["--dtype", "i32"][..], "--dtype i32 contradicts"),
        (&["--shape", "24,41"][..], "--shape [24, 41] contradicts"),
    ] {
        let mut args = vec!["transform", s(&c), s(&back), "--inverse"];
        args.extend(flags);
        fails(&args, Some(&c), needle);
        assert!(!back.exists());
    }
    // The message names both values.
    fails(
        &["transform", s(&c), s(&back), "--inverse", "-w", "Fidelity"],
        Some(&c),
        "which says LeGall53",
    );
    // Agreeing flags are fine.
    inverse(&c, &back)
        .args([
            "-w", "LeGall53", "-l", "3", "--layout", "mallat", "--dtype", "i16",
        ])
        .assert()
        .success();
    assert_eq!(image::open(&back).unwrap().to_luma8(), scene8(40, 24));
    // -l 0 is no transform.
    fails(
        &[
            "transform",
            s(&input),
            s(&d.p("z.npy")),
            "-w",
            "LeGall53",
            "-l",
            "0",
        ],
        Some(&input),
        "at least 1 level",
    );
}

#[test]
fn a_sidecar_names_its_data_file_and_every_field_is_checked() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(40, 24).save(&input).unwrap();
    let (c, cj, back) = (d.p("stem.npy"), d.p("stem.json"), d.p("back.png"));
    forward_ok(&input, &c, "LeGall53", "3");
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cj).unwrap()).unwrap();
    assert_eq!(side["data"], "stem.npy");
    // A second output with the same stem would take the sidecar: refused, the sidecar kept.
    fails(
        &[
            "transform",
            s(&input),
            s(&d.p("stem.raw")),
            "-w",
            "Fidelity",
            "-l",
            "1",
        ],
        Some(&input),
        "is the sidecar of stem.npy",
    );
    assert!(!d.p("stem.raw").exists());
    inverse(&c, &back).assert().success();
    // A sidecar naming another data file (as one written by a version that let a second output
    // take it) does not invert the first.
    edit_json(&cj, |m| {
        m.insert("data".into(), "stem.raw".into());
    });
    fails(
        &["transform", s(&c), s(&back), "--inverse"],
        Some(&c),
        "stem.json describes stem.raw, not stem.npy",
    );
    forward_ok(&input, &c, "LeGall53", "3");
    let good = std::fs::read(&cj).unwrap();
    // A sidecar without `data` (older versions) is accepted.
    edit_json(&cj, |m| {
        m.remove("data");
    });
    inverse(&c, &back).assert().success();
    assert_eq!(image::open(&back).unwrap().to_luma8(), scene8(40, 24));
    std::fs::remove_file(&back).unwrap();

    use serde_json::json;
    for (field, value, needle) in [
        (
            "levels",
            json!(0),
            "`levels` is 0; shape [24, 40] allows 1 to 6",
        ),
        ("levels", json!(7), "`levels` is 7"),
        (
            "layout",
            json!("foo"),
            "`layout` is \"foo\"; allowed: \"mallat\" or \"interleaved\"",
        ),
        ("dtype", json!("u8"), "`dtype` is \"u8\"; allowed"),
        ("dtype", json!("i32"), "holds i16 but its sidecar"),
        (
            "dtype",
            json!("f32"),
            "`dtype` is \"f32\" (float) but wavelet LeGall53 is integer",
        ),
        ("direction", json!("inverse"), "`direction` is \"inverse\""),
        (
            "wavelet",
            json!("Fidelity"),
            "`wavelet` is \"Fidelity\" but `wavelet_source`",
        ),
        (
            "wavelet_source",
            json!("wavelet {"),
            "`wavelet_source` does not parse",
        ),
        ("shape", json!([24, 0]), "`shape` is [24, 0]"),
        ("input_bits", json!(99), "`input_bits` is 99"),
        ("input_dtype", json!("u64"), "`input_dtype` is \"u64\""),
        (
            "data_sha256",
            json!("xyz"),
            "`data_sha256` is \"xyz\"; it must be 64 hexadecimal digits",
        ),
        ("typo", json!(1), "unknown field `typo`"),
    ] {
        std::fs::write(&cj, &good).unwrap();
        edit_json(&cj, |m| {
            m.insert(field.into(), value.clone());
        });
        fails(
            &["transform", s(&c), s(&back), "--inverse"],
            Some(&c),
            needle,
        );
        assert!(!back.exists(), "{field}");
    }
}

/// The sidecar records the SHA-256 of its data file: coefficients other than the ones it was
/// written for (another run's copied over them, or a run stopped between renaming its two files)
/// are refused, not inverted into garbage; a sidecar of an older version, without it, still
/// inverts.
#[test]
fn a_sidecar_refuses_coefficients_it_was_not_written_for() {
    use sha2::{Digest, Sha256};
    let d = Dir::new();
    let shape = [24usize, 40];
    let v: Vec<i16> = (0..24 * 40)
        .map(|i| ((i * 37) % 1000) as i16 - 500)
        .collect();
    let input = d.p("in.npy");
    write_npy_i16(&input, &shape, &v);
    let expected = (
        v.iter().map(|&x| i64::from(x)).collect::<Vec<_>>(),
        shape.to_vec(),
        "<i2".to_string(),
    );
    let back = d.p("back.npy");
    for ext in ["raw", "npy"] {
        let (a, aj, b) = (
            d.p(&format!("a.{ext}")),
            d.p("a.json"),
            d.p(&format!("b.{ext}")),
        );
        // The sidecars of the other extension's files, which these outputs may not replace.
        for side in [&aj, &d.p("b.json")] {
            let _ = std::fs::remove_file(side);
        }
        // The same input, shape and dtype: only the levels differ, so the old sidecar's fields
        // all fit the other coefficients.
        let forward = |out: &Path, levels: &str| {
            dwt()
                .args(["-q", "transform", s(&input), s(out), "-w", "LeGall53"])
                .args(["-l", levels, "--dtype", "i32"])
                .assert()
                .success();
        };
        forward(&a, "3");
        forward(&b, "1");
        let side: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&aj).unwrap()).unwrap();
        let hex: String = Sha256::digest(std::fs::read(&a).unwrap())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(side["data_sha256"], hex.as_str(), "{ext}: the whole file");

        // The round trip gives back the input exactly.
        inverse(&a, &back).assert().success();
        assert_eq!(read_npy_i64(&back), expected, "{ext}");
        std::fs::remove_file(&back).unwrap();

        // B's coefficients copied over A's. `--dtype i32` writes the reconstruction in the
        // coefficients' type, so that without the fingerprint this wrong inverse would succeed.
        let mismatch = format!(
            "{} was written for other coefficients than {} (the file was replaced, or a transform was interrupted between writing the two): transform the input again",
            aj.display(),
            a.display()
        );
        std::fs::copy(&b, &a).unwrap();
        let refused = ["transform", s(&a), s(&back), "--inverse", "--dtype", "i32"];
        fails(&refused, Some(&a), &mismatch);
        assert!(!back.exists(), "{ext}");

        // A run stopped after renaming its coefficients into place, before its sidecar: the
        // folder holds the new coefficients beside the previous sidecar.
        forward(&a, "3");
        let old_side = std::fs::read(&aj).unwrap();
        forward(&a, "1");
        std::fs::write(&aj, &old_side).unwrap();
        fails(&refused, Some(&a), &mismatch);
        assert!(!back.exists(), "{ext}");

        // A sidecar of an older version, without the fingerprint, is taken on trust.
        forward(&a, "3");
        edit_json(&aj, |m| {
            assert!(m.remove("data_sha256").is_some());
        });
        inverse(&a, &back).assert().success();
        assert_eq!(read_npy_i64(&back), expected, "{ext}");
        std::fs::remove_file(&back).unwrap();
    }
}

#[test]
fn allow_overflow_is_recorded_and_the_inverse_warns() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(40, 24).save(&input).unwrap();
    let (c, back) = (d.p("c.npy"), d.p("back.npy"));
    dwt()
        .args([
            "-q",
            "transform",
            s(&input),
            s(&c),
            "-w",
            "Fidelity",
            "-l",
            "4",
        ])
        .args(["--dtype", "i16", "--allow-overflow"])
        .assert()
        .success();
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.p("c.json")).unwrap()).unwrap();
    assert_eq!(side["allow_overflow"], true);
    // Here coefficients did wrap: the reconstruction leaves the picture's uint8, an error after
    // the warning; in the coefficients' type it is written, with the warning.
    inverse(&c, &back).assert().failure().stderr(
        predicate::str::contains("warning: ")
            .and(predicate::str::contains("--allow-overflow"))
            .and(predicate::str::contains(
                "does not fit the input's dtype u8",
            )),
    );
    inverse(&c, &back)
        .args(["--dtype", "i16"])
        .assert()
        .success()
        .stderr(
            predicate::str::contains("warning: ").and(predicate::str::contains("--allow-overflow")),
        );
    // Where the worst case fits anyway, the flag changed nothing: not recorded, no warning.
    dwt()
        .args([
            "-q",
            "transform",
            s(&input),
            s(&c),
            "-w",
            "LeGall53",
            "-l",
            "2",
        ])
        .arg("--allow-overflow")
        .assert()
        .success();
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.p("c.json")).unwrap()).unwrap();
    assert!(side.get("allow_overflow").is_none());
    inverse(&c, &back).assert().success().stderr("");
}

#[test]
fn pgm_is_read_and_written_exactly_with_its_maxval() {
    let d = Dir::new();
    // `dwt sample x.pgm` writes binary PGM (P5), not PAM.
    let sample = d.p("s.pgm");
    dwt()
        .args(["sample", s(&sample), "--width", "23", "--height", "7"])
        .assert()
        .success();
    let b = std::fs::read(&sample).unwrap();
    assert!(b.starts_with(b"P5\n23 7\n255\n"), "{:?}", &b[..12]);
    assert_eq!(b.len(), 12 + 23 * 7);
    // Reconstructed as .npy, an 8-bit picture is uint8 with its samples.
    let (c8, back8) = (d.p("s8.npy"), d.p("s8back.npy"));
    forward_ok(&sample, &c8, "LeGall53", "2");
    inverse(&c8, &back8).assert().success();
    assert_eq!(npy_parts(&back8), ("|u1".to_string(), b[12..].to_vec()));

    // A 12-bit PGM: samples as stored (not scaled to 16 bits), and back with maxval 4095.
    let samples: Vec<u16> = (0..6 * 5).map(|i| (i * 137 % 4096) as u16).collect();
    let mut pgm = b"P5\n# twelve bits\n6 5\n4095\n".to_vec();
    pgm.extend(samples.iter().flat_map(|v| v.to_be_bytes()));
    let input = d.file("m.pgm", &pgm);
    let (c, back, backnpy) = (d.p("m.npy"), d.p("back.pgm"), d.p("back.npy"));
    dwt()
        .args(["transform", s(&input), s(&c), "-w", "LeGall53", "-l", "2"])
        .assert()
        .success()
        .stderr(predicate::str::contains("12-bit input"));
    inverse(&c, &backnpy).assert().success();
    assert_eq!(
        read_npy_i64(&backnpy).0,
        samples.iter().map(|&v| v as i64).collect::<Vec<_>>()
    );
    assert_eq!(
        npy_parts(&backnpy).0,
        "<u2",
        "a 12-bit picture's samples are uint16"
    );
    inverse(&c, &back).assert().success();
    let mut expected = b"P5\n6 5\n4095\n".to_vec();
    expected.extend(samples.iter().flat_map(|v| v.to_be_bytes()));
    assert_eq!(std::fs::read(&back).unwrap(), expected);

    // Plain P2 with a small maxval.
    let p2 = d.file("p2.pgm", "P2\n# c\n3 2\n7\n1 2 3\n4 5 6\n");
    let (c2, b2) = (d.p("p2.npy"), d.p("p2b.pgm"));
    forward_ok(&p2, &c2, "LeGall53", "1");
    inverse(&c2, &b2).assert().success();
    assert_eq!(
        std::fs::read(&b2).unwrap(),
        b"P5\n3 2\n7\n\x01\x02\x03\x04\x05\x06"
    );

    // Samples above the maxval, truncated and malformed files: errors, no output.
    let out = d.p("x.npy");
    for (bytes, needle) in [
        (
            &b"P5 3 2 4095\n\x1f\xff\x00\x01\x01\x00\x00\x10\x08\x00\x00\x00"[..],
            "sample 8191 at row 0, column 0 is above the PGM's maxval 4095",
        ),
        (
            &b"P2 2 1 7\n3 9\n"[..],
            "sample 9 at row 0, column 1 is above the PGM's maxval 7",
        ),
        (
            &b"P5 3 2 255\n\x01\x02"[..],
            "needs 6 bytes of samples but has 2",
        ),
        (&b"P5 3 2 70000\n"[..], "maxval 70000"),
        (&b"P5 3 x 255\n"[..], "expected the height"),
    ] {
        let bad = d.file("bad.pgm", bytes);
        fails(
            &["transform", s(&bad), s(&out), "-w", "LeGall53", "-l", "1"],
            Some(&bad),
            needle,
        );
        assert!(!out.exists());
    }
}

#[test]
fn unsupported_formats_and_raw_dtype_advice() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(16, 16).save(&input).unwrap();
    let out = d.p("x.npy");
    // --shape describes raw input; given for a picture it must not be silently dropped.
    fails(
        &[
            "transform",
            s(&input),
            s(&out),
            "-w",
            "LeGall53",
            "-l",
            "1",
            "--shape",
            "8,32",
        ],
        Some(&input),
        "--shape 8,32 contradicts",
    );
    assert!(!out.exists());
    for ext in ["jpg", "bmp"] {
        let f = d.file(&format!("a.{ext}"), [0u8; 512]);
        fails(
            &["transform", s(&f), s(&out), "-w", "LeGall53", "-l", "1"],
            Some(&f),
            &format!(".{ext} is not supported; convert it to one of: 8/16-bit grayscale PNG, PGM"),
        );
        fails(
            &[
                "transform",
                s(&input),
                s(&d.p(&format!("c.{ext}"))),
                "-w",
                "LeGall53",
                "-l",
                "1",
            ],
            Some(&input),
            &format!(".{ext} is not written"),
        );
    }
    assert_eq!(listing(d.0.path()), ["a.bmp", "a.jpg", "in.png"]);
    // Raw i16 samples whose transform needs i32: --dtype i32 would read the file as i32.
    let raw = d.file("r.raw", [0x30u8, 0x75].repeat(256));
    fails(
        &[
            "transform",
            s(&raw),
            s(&out),
            "-w",
            "Fidelity",
            "-l",
            "2",
            "--shape",
            "16,16",
            "--dtype",
            "i16",
        ],
        Some(&raw),
        "--dtype is also the file's element type",
    );
    assert!(!out.exists());
}

/// A float transform that leaves the element type's range, or input that is not finite, is an
/// error before anything is written, not a file of infinities with exit 0.
#[test]
fn non_finite_values_are_refused() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(16, 16).save(&input).unwrap();
    let huge = d.file(
        "huge.wav",
        "wavelet Huge { kind = float; odd -= 0.5*even[0]; even += 0.25*odd[0]; scale 1e30; }\n",
    );
    let out = d.p("c.npy");
    // Each level multiplies the low band by 1e30 per axis: level 2's four 4x4 bands pass f32's
    // 3.4e38 (its HH one lifted from infinite values).
    fails(
        &["transform", s(&input), s(&out), "-w", s(&huge), "-l", "2"],
        Some(&input),
        "Huge overflowed f32: 64 values are not finite; use --dtype f64",
    );
    assert!(!out.exists());
    dwt()
        .args([
            "-q",
            "transform",
            s(&input),
            s(&out),
            "-w",
            s(&huge),
            "-l",
            "2",
        ])
        .args(["--dtype", "f64"])
        .assert()
        .success();

    // Float input with a NaN and an infinity.
    let nan = d.p("nan.npy");
    let body: Vec<u8> = [1.0f32, f32::NAN, 2.0, 3.0, f32::INFINITY, 0.0, 1.0, 1.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    write_npy(&nan, "<f4", &[2, 4], &body);
    let out2 = d.p("n.npy");
    fails(
        &["transform", s(&nan), s(&out2), "-w", "Cdf97", "-l", "1"],
        Some(&nan),
        "has 2 samples that are not finite (NaN or infinite)",
    );
    assert!(!out2.exists());
    // Finite f64 samples beyond f32's range: the advice is f64, which then transforms them.
    let big = d.p("big.npy");
    let body: Vec<u8> = [1e300f64, 2.0, -1e300, 4.0, 5.0, 6.0, 7.0, 8.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    write_npy(&big, "<f8", &[2, 4], &body);
    fails(
        &["transform", s(&big), s(&out2), "-w", "Cdf97", "-l", "1"],
        Some(&big),
        "has 2 samples beyond the range of f32; transform it with --dtype f64",
    );
    dwt()
        .args([
            "-q",
            "transform",
            s(&big),
            s(&out2),
            "-w",
            "Cdf97",
            "-l",
            "1",
        ])
        .args(["--dtype", "f64"])
        .assert()
        .success();
    // Overflowing f64 itself, the advice is not the --dtype given.
    let out3 = d.p("n3.npy");
    let huge = [1.7e308f64; 8]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect::<Vec<u8>>();
    let huge_path = d.p("huge.npy");
    write_npy(&huge_path, "<f8", &[2, 4], &huge);
    let out = dwt()
        .args([
            "transform",
            s(&huge_path),
            s(&out3),
            "-w",
            "Cdf97",
            "-l",
            "1",
        ])
        .args(["--dtype", "f64"])
        .assert()
        .failure()
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("overflowed f64") && !err.contains("use --dtype f64"),
        "{err}"
    );
}

/// A .npy file's `descr` and data bytes.
fn npy_parts(path: &Path) -> (String, Vec<u8>) {
    let b = std::fs::read(path).unwrap();
    let hl = u16::from_le_bytes([b[8], b[9]]) as usize;
    let header = std::str::from_utf8(&b[10..10 + hl]).unwrap();
    let descr = header.split("'descr': '").nth(1).unwrap();
    let descr = descr.split('\'').next().unwrap().to_string();
    (descr, b[10 + hl..].to_vec())
}

#[test]
fn an_inverse_gives_back_the_input_dtype() {
    let d = Dir::new();
    let shape = [6usize, 10];
    let n = shape[0] * shape[1];
    // Each stored type with samples spanning its range, transformed by an integer wavelet (or a
    // float one for the float types) and reconstructed to the same type and bytes.
    let ramp = |lo: i64, hi: i64| -> Vec<i64> {
        (0..n as i64)
            .map(|i| lo + (i * 7919) % (hi - lo + 1))
            .collect()
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "|b1",
            ramp(0, 1).iter().map(|&x| x as u8).collect(),
            "LeGall53",
        ),
        (
            "|u1",
            ramp(0, 255).iter().map(|&x| x as u8).collect(),
            "LeGall53",
        ),
        (
            "|i1",
            ramp(-128, 127).iter().map(|&x| x as u8).collect(),
            "HaarWithShift",
        ),
        (
            "<u2",
            ramp(0, 65535)
                .iter()
                .flat_map(|&x| (x as u16).to_le_bytes())
                .collect(),
            "LeGall53",
        ),
        (
            "<u4",
            ramp(0, 1 << 20)
                .iter()
                .flat_map(|&x| (x as u32).to_le_bytes())
                .collect(),
            "LeGall53",
        ),
        // numpy's default integers, with values a transform in i32 holds.
        (
            "<i8",
            ramp(-(1 << 20), 1 << 20)
                .iter()
                .flat_map(|&x| x.to_le_bytes())
                .collect(),
            "LeGall53",
        ),
        (
            "<i2",
            ramp(-1000, 1000)
                .iter()
                .flat_map(|&x| (x as i16).to_le_bytes())
                .collect(),
            "LeGall53",
        ),
        (
            "<f8",
            ramp(-50, 50)
                .iter()
                .flat_map(|&x| (x as f64 / 4.0).to_le_bytes())
                .collect(),
            "Cdf97",
        ),
    ];
    for (descr, body, wavelet) in cases {
        let (input, c, back) = (d.p("in.npy"), d.p("c.npy"), d.p("back.npy"));
        write_npy(&input, descr, &shape, &body);
        forward_ok(&input, &c, wavelet, "2");
        inverse(&c, &back).assert().success();
        let (got, got_body) = npy_parts(&back);
        assert_eq!(got, descr, "{descr}: the reconstruction's dtype");
        if descr == "<f8" {
            // CDF 9/7 ran in f32: the reconstruction is the input to f32's precision.
            for (a, b) in got_body.chunks(8).zip(body.chunks(8)) {
                let (a, b) = (
                    f64::from_le_bytes(a.try_into().unwrap()),
                    f64::from_le_bytes(b.try_into().unwrap()),
                );
                assert!((a - b).abs() < 1e-4, "{a} vs {b}");
            }
        } else {
            assert_eq!(got_body, body, "{descr}: the reconstruction");
        }
    }

    // int64 values beyond int32's range are refused, saying so.
    let wide = d.p("wide.npy");
    let mut values = vec![0i64; n];
    values[3] = 1 << 40;
    let body: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
    write_npy(&wide, "<i8", &shape, &body);
    fails(
        &[
            "transform",
            s(&wide),
            s(&d.p("w.npy")),
            "-w",
            "LeGall53",
            "-l",
            "1",
        ],
        Some(&wide),
        "int64 value 1099511627776 does not fit i32",
    );

    // Coefficients edited so that the reconstruction leaves uint8's range: an error naming it
    // (never wrapped), and --dtype i16 writes the coefficients' type instead.
    let (input, c, back) = (d.p("u8.npy"), d.p("cu8.npy"), d.p("backu8.npy"));
    write_npy(&input, "|u1", &shape, &vec![200u8; n]);
    forward_ok(&input, &c, "LeGall53", "1");
    let (_, cbody) = npy_parts(&c);
    let mut coeffs: Vec<i16> = cbody
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    coeffs[0] = 1000;
    write_npy_i16(&c, &shape, &coeffs);
    // The sidecar's fingerprint no longer matches: as its message says, an edit on purpose
    // removes it.
    fails(
        &["transform", s(&c), s(&back), "--inverse"],
        Some(&c),
        "delete `data_sha256` from the sidecar",
    );
    edit_json(&d.p("cu8.json"), |m| {
        m.remove("data_sha256");
    });
    fails(
        &["transform", s(&c), s(&back), "--inverse"],
        Some(&c),
        "does not fit the input's dtype u8: the values are in [",
    );
    assert!(!back.exists());
    inverse(&c, &back)
        .args(["--dtype", "i16"])
        .assert()
        .success();
    assert_eq!(npy_parts(&back).0, "<i2");
}

/// The OpenCL backend's disk cache under what a cache folder can hold: every entry a FIFO (a
/// read of one waited for a writer forever), the folder a file, a folder nobody may write, a
/// name that is not UTF-8. The transform must succeed with the same coefficients each time,
/// warning where the cache cannot be written (it said nothing, and every run compiled).
#[cfg(feature = "opencl")]
#[test]
fn opencl_transforms_survive_any_cache_folder() {
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(64, 48).save(&input).unwrap();
    let run = |cache: &std::ffi::OsStr, out: &Path| {
        dwt()
            .args([
                "-q",
                "transform",
                s(&input),
                s(out),
                "-w",
                "LeGall53",
                "-l",
                "2",
            ])
            .args(["--backend", "opencl"])
            .env("DWT_CACHE_DIR", cache)
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .success()
    };
    // The coefficients, checked against the first run's, and whether the run warned that the
    // cache could not be written, against `warns`.
    let mut want = None;
    let mut check = |cache: &std::ffi::OsStr, out: &Path, warns: bool, what: &str| {
        let stderr = String::from_utf8(run(cache, out).get_output().stderr.clone()).unwrap();
        let warned = stderr.contains("dwt: warning: the disk cache could not write")
            && stderr.contains("DWT_CACHE_DIR");
        assert_eq!(warned, warns, "{what}: {stderr}");
        let got = std::fs::read(out).unwrap();
        assert!(*want.get_or_insert_with(|| got.clone()) == got, "{what}");
    };
    let cache = d.p("cache");
    check(cache.as_os_str(), &d.p("a.npy"), false, "a new cache");
    let entries: Vec<PathBuf> = std::fs::read_dir(cache.join("opencl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!entries.is_empty());
    for e in &entries {
        std::fs::remove_file(e).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(e)
            .status()
            .unwrap();
        assert!(made.success());
    }
    check(cache.as_os_str(), &d.p("b.npy"), false, "FIFO entries");
    for e in &entries {
        assert!(e.is_file(), "{} was not rebuilt", e.display());
    }
    check(cache.as_os_str(), &d.p("c.npy"), false, "rebuilt entries");
    // Where nothing can be written, the same coefficients and a warning saying so.
    let file = d.p("in.png");
    check(file.as_os_str(), &d.p("d.npy"), true, "a file");
    check(
        "/proc/self/lifting".as_ref(),
        &d.p("e.npy"),
        true,
        "an unwritable place",
    );
    let odd = d.0.path().join(std::ffi::OsStr::from_bytes(b"cache-\xff"));
    check(odd.as_os_str(), &d.p("f.npy"), false, "a non-UTF-8 name");
    assert!(odd.join("opencl").is_dir(), "the cache went elsewhere");
}

/// Outputs that are not regular files (a pipe, a link; `/dev/null` was replaced by a file as
/// root) and sidecars that describe another data file or are not dwt's are refused before any
/// work, and left as they were; a transform run again replaces its own sidecar.
#[test]
fn outputs_never_replace_devices_links_or_other_files_sidecars() {
    let d = Dir::new();
    let input = d.p("v.png");
    scene8(40, 24).save(&input).unwrap();
    let args = |out: &Path| -> Vec<String> {
        ["transform", s(&input), s(out), "-w", "LeGall53", "-l", "1"]
            .map(String::from)
            .to_vec()
    };
    #[cfg(unix)]
    {
        let pipe = d.p("pipe.npy");
        assert!(std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap()
            .success());
        let link = d.p("link.npy");
        std::os::unix::fs::symlink(d.p("elsewhere.npy"), &link).unwrap();
        for out in [&pipe, &link] {
            let a = args(out);
            fails(
                &a.iter().map(String::as_str).collect::<Vec<_>>(),
                Some(&input),
                "is not a regular file",
            );
            let meta = std::fs::symlink_metadata(out).unwrap();
            assert!(
                !meta.file_type().is_file(),
                "{} was replaced",
                out.display()
            );
        }
    }
    // k.npy's sidecar k.json is not replaced by writing k.raw (from the picture or from k.npy).
    let k = d.p("k.npy");
    forward_ok(&input, &k, "LeGall53", "2");
    let side = std::fs::read(d.p("k.json")).unwrap();
    let raw = d.p("k.raw");
    for from in [&input, &k] {
        let a = ["transform", s(from), s(&raw), "-w", "Cdf97", "-l", "1"];
        fails(&a, Some(from), "is the sidecar of k.npy");
        assert_eq!(std::fs::read(d.p("k.json")).unwrap(), side);
        assert!(!d.p("k.raw").exists());
    }
    // Run again, the transform replaces its own sidecar; k.npy still inverts.
    forward_ok(&input, &k, "HaarNoShift", "1");
    inverse(&k, &d.p("back.png")).assert().success();
    // A name ending in a separator names a directory: refused before any work.
    let a = args(&d.p("dir.npy/"));
    fails(
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        Some(&input),
        "is not a file name",
    );
    // A JSON file of the user's is not a sidecar to replace.
    std::fs::write(d.p("r.json"), "{\"a\": 1}\n").unwrap();
    let a = args(&d.p("r.npy"));
    fails(
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        Some(&input),
        "is not a dwt sidecar",
    );
    assert_eq!(
        std::fs::read_to_string(d.p("r.json")).unwrap(),
        "{\"a\": 1}\n"
    );
}

/// A plain PGM whose header claims more samples than its few bytes hold is an error, not an
/// allocation of the header's size (18 bytes claiming 10^10 samples aborted the tool); so is a
/// `dwt emit --shape` whose samples overflow.
#[test]
fn claimed_sizes_are_checked_against_what_is_there() {
    let d = Dir::new();
    for (name, header) in [
        ("big.pgm", "100000 100000"),
        ("huge.pgm", "4294967295 4294967295"),
    ] {
        let p = d.p(name);
        std::fs::write(&p, format!("P2\n{header}\n255\n1\n")).unwrap();
        let out = d.p("o.npy");
        fails(
            &["transform", s(&p), s(&out), "-w", "LeGall53", "-l", "1"],
            Some(&p),
            "the plain PGM has 1 samples",
        );
    }
    fails(
        &[
            "emit",
            "--wavelet",
            "LeGall53",
            "--shape",
            "18446744073709551615,18446744073709551615",
        ],
        None,
        "more samples than this machine can address",
    );
}

/// A sidecar of the wrong shape (`[]`, a field of the wrong type, not JSON at all) names the
/// file, says what it holds and what a sidecar is, and how to regenerate it; the forward
/// transform does not replace it.
#[test]
fn a_sidecar_of_the_wrong_shape_says_what_is_wrong_and_what_to_do() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(40, 24).save(&input).unwrap();
    let (c, cj, back) = (d.p("c.npy"), d.p("c.json"), d.p("back.png"));
    forward_ok(&input, &c, "LeGall53", "2");
    for (text, what) in [
        (
            "[]\n",
            "it holds an array, where a sidecar is a JSON object",
        ),
        (
            "\"x\"\n",
            "it holds a string, where a sidecar is a JSON object",
        ),
        ("not json\n", "it is not valid JSON"),
        (
            "{\"shape\": \"24,40\"}\n",
            "its `shape` is wrong (invalid type: string \"24,40\", expected a sequence)",
        ),
    ] {
        std::fs::write(&cj, text).unwrap();
        let needle = format!("{} is not a dwt sidecar: {what}", cj.display());
        fails(
            &["transform", s(&c), s(&back), "--inverse"],
            Some(&c),
            &needle,
        );
        fails(
            &["transform", s(&c), s(&back), "--inverse"],
            Some(&c),
            "regenerate it by transforming the input again, or delete it and invert with --wavelet and --levels",
        );
        assert!(!back.exists());
        fails(
            &["transform", s(&input), s(&c), "-w", "LeGall53", "-l", "2"],
            Some(&input),
            "exists and is not a dwt sidecar",
        );
        assert_eq!(std::fs::read_to_string(&cj).unwrap(), text);
    }
    // Deleted, it is regenerated by the forward transform, and the inverse works again.
    std::fs::remove_file(&cj).unwrap();
    forward_ok(&input, &c, "LeGall53", "2");
    inverse(&c, &back).assert().success();
    assert_eq!(image::open(&back).unwrap().to_luma8(), scene8(40, 24));
}

/// A TIFF of float (or signed, or 32-bit) samples is refused saying what its samples are and
/// what to use instead, not in the decoder's words ("color type Unknown(32)").
#[test]
fn float_and_signed_tiffs_are_refused_saying_what_to_use() {
    use tiff::encoder::{colortype, TiffEncoder};
    let d = Dir::new();
    let tiff_of = |name: &str, write: &dyn Fn(&mut TiffEncoder<&mut std::fs::File>)| {
        let p = d.p(name);
        let mut f = std::fs::File::create(&p).unwrap();
        write(&mut TiffEncoder::new(&mut f).unwrap());
        p
    };
    let gray_f32 = tiff_of("f32.tif", &|e| {
        e.write_image::<colortype::Gray32Float>(8, 4, &[0.5f32; 32])
            .unwrap()
    });
    let rgb_f32 = tiff_of("rgbf.tif", &|e| {
        e.write_image::<colortype::RGB32Float>(8, 4, &[0.5f32; 96])
            .unwrap()
    });
    let gray_i16 = tiff_of("i16.tif", &|e| {
        e.write_image::<colortype::GrayI16>(8, 4, &[-3i16; 32])
            .unwrap()
    });
    let gray_u32 = tiff_of("u32.tif", &|e| {
        e.write_image::<colortype::Gray32>(8, 4, &[7u32; 32])
            .unwrap()
    });
    let out = d.p("o.npy");
    for (input, needle) in [
        (
            &gray_f32,
            "f32.tif has 32-bit float samples: float TIFFs are not read; save the samples as .npy",
        ),
        (&rgb_f32, "rgbf.tif has 32-bit float samples"),
        (&gray_i16, "i16.tif has 16-bit signed integer samples"),
        (&gray_u32, "u32.tif has 32-bit unsigned integer samples"),
    ] {
        fails(
            &["transform", s(input), s(&out), "-w", "LeGall53", "-l", "1"],
            Some(input),
            needle,
        );
        fails(
            &["transform", s(input), s(&out), "-w", "LeGall53", "-l", "1"],
            Some(input),
            "or convert the TIFF to 8- or 16-bit unsigned integers",
        );
        assert!(!out.exists());
    }
    // 8- and 16-bit unsigned TIFFs are still read.
    let ok = tiff_of("u16.tif", &|e| {
        e.write_image::<colortype::Gray16>(8, 4, &[300u16; 32])
            .unwrap()
    });
    forward_ok(&ok, &out, "LeGall53", "1");
}

/// A grayscale PNG of `bits` (1, 2 or 4) bits a sample holding `values` (row-major, w x h).
fn packed_png(path: &Path, w: u32, h: u32, bits: u8, values: &[u8]) {
    let depth = match bits {
        1 => png::BitDepth::One,
        2 => png::BitDepth::Two,
        _ => png::BitDepth::Four,
    };
    let per_byte = (8 / bits) as usize;
    let mut packed = Vec::new();
    for row in values.chunks(w as usize) {
        for group in row.chunks(per_byte) {
            let mut byte = 0u8;
            for (i, &v) in group.iter().enumerate() {
                byte |= v << (8 - bits as usize * (i + 1));
            }
            packed.push(byte);
        }
    }
    let mut e = png::Encoder::new(std::fs::File::create(path).unwrap(), w, h);
    e.set_color(png::ColorType::Grayscale);
    e.set_depth(depth);
    e.write_header().unwrap().write_image_data(&packed).unwrap();
}

/// A 1- or 4-bit PNG is read as its stored values (not as the 0 to 255 the decoder widens them
/// to), saying so; its reconstruction holds the same values, in an 8-bit PNG (saying so) or a PGM
/// of the input's maxval.
#[test]
fn sub_8_bit_pngs_keep_their_values_and_say_so() {
    let d = Dir::new();
    let (w, h) = (40u32, 24u32);
    for bits in [1u8, 4] {
        let max = (1u8 << bits) - 1;
        let values: Vec<u8> = (0..w * h)
            .map(|i| ((i * 7 + i / w) % (max as u32 + 1)) as u8)
            .collect();
        let input = d.p(&format!("in{bits}.png"));
        packed_png(&input, w, h, bits, &values);
        let c = d.p(&format!("c{bits}.npy"));
        dwt()
            .args(["transform", s(&input), s(&c), "-w", "LeGall53", "-l", "2"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "note: {} is a {bits}-bit image: its samples are read as stored, 0 to {max} (not widened to 0 to 255)",
                input.display()
            )));
        let side: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.p(&format!("c{bits}.json"))).unwrap())
                .unwrap();
        assert_eq!(side["input_bits"], bits as u64);

        let back = d.p(&format!("back{bits}.png"));
        dwt()
            .args(["transform", s(&c), s(&back), "--inverse"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "note: {} is written as an 8-bit image holding the {bits}-bit input's values 0 to {max} as they are",
                back.display()
            )));
        let got = image::open(&back).unwrap();
        assert_eq!(got.color(), image::ColorType::L8);
        assert_eq!(got.to_luma8().into_raw(), values, "{bits}-bit");

        let pgm = d.p(&format!("back{bits}.pgm"));
        inverse(&c, &pgm)
            .assert()
            .success()
            .stderr(predicate::str::is_empty());
        let mut want = format!("P5\n{w} {h}\n{max}\n").into_bytes();
        want.extend(&values);
        assert_eq!(std::fs::read(&pgm).unwrap(), want);
    }
    // --quiet: no notice.
    dwt()
        .args([
            "-q",
            "transform",
            s(&d.p("in1.png")),
            s(&d.p("q.npy")),
            "-w",
            "LeGall53",
            "-l",
            "1",
        ])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

/// An uncompressed grayscale TIFF of `bits` bits a sample (which the encoders here do not write
/// below 8), `rows` already packed, each row starting on a byte.
fn packed_tiff(path: &Path, w: u16, h: u16, bits: u16, rows: &[u8]) {
    let data_at = 8 + 2 + 8 * 12 + 4;
    let mut out = b"II*\0".to_vec();
    out.extend(8u32.to_le_bytes());
    out.extend(8u16.to_le_bytes());
    for (tag, value) in [
        (256u16, u32::from(w)),
        (257, u32::from(h)),
        (258, u32::from(bits)),
        (259, 1),
        (262, 1),
        (273, data_at),
        (278, u32::from(h)),
        (279, rows.len() as u32),
    ] {
        out.extend(tag.to_le_bytes());
        out.extend(4u16.to_le_bytes()); // LONG
        out.extend(1u32.to_le_bytes());
        out.extend(value.to_le_bytes());
    }
    out.extend(0u32.to_le_bytes());
    out.extend(rows);
    std::fs::write(path, out).unwrap();
}

/// A 1-bit TIFF is read as its stored values too; one of 2 to 7 bits, which the decoder does not
/// read, is refused saying what its samples are.
#[test]
fn sub_8_bit_tiffs_keep_their_values_or_are_refused_saying_so() {
    let d = Dir::new();
    let one = d.p("one.tif");
    // 16 x 2: rows 0b1010_0000_1111_0001 and its complement.
    packed_tiff(&one, 16, 2, 1, &[0xa0, 0xf1, 0x5f, 0x0e]);
    let c = d.p("c.npy");
    dwt()
        .args(["transform", s(&one), s(&c), "-w", "LeGall53", "-l", "1"])
        .assert()
        .success()
        .stderr(predicate::str::contains("is a 1-bit image"));
    let back = d.p("back.png");
    inverse(&c, &back).assert().success();
    let bit = |byte: u8, i: usize| (byte >> (7 - i)) & 1;
    let want: Vec<u8> = [0xa0u8, 0xf1, 0x5f, 0x0e]
        .iter()
        .flat_map(|&b| (0..8).map(move |i| bit(b, i)))
        .collect();
    assert_eq!(image::open(&back).unwrap().to_luma8().into_raw(), want);

    let four = d.p("four.tif");
    packed_tiff(&four, 8, 2, 4, &[0x12; 8]);
    fails(
        &["transform", s(&four), s(&d.p("f.npy")), "-w", "LeGall53", "-l", "1"],
        Some(&four),
        "four.tif has 4-bit unsigned integer samples: only 8- and 16-bit unsigned integer TIFFs are read (and 1-bit ones)",
    );
}

/// `dwt sample` refuses a size whose memory would pass its cap, saying how much it needs and the
/// cap, before allocating anything or writing a file.
#[test]
fn a_sample_too_large_for_memory_is_refused_saying_how_much() {
    let d = Dir::new();
    let out = d.p("big.png");
    for (bits, needs) in [("8", "14 bytes a sample"), ("16", "20 bytes a sample")] {
        let args = [
            "sample",
            s(&out),
            "--width",
            "32768",
            "--height",
            "32768",
            "--bits",
            bits,
        ];
        let needed = format!("a 32768 x 32768 {bits}-bit sample needs about");
        for says in [
            needed.as_str(),
            needs,
            "choose a smaller --width or --height",
        ] {
            fails(&args, None, says);
        }
        assert!(!out.exists());
    }
    // A small one is still written.
    dwt()
        .args(["sample", s(&out), "--width", "40", "--height", "24"])
        .assert()
        .success();
    assert_eq!(image::open(&out).unwrap().to_luma8().dimensions(), (40, 24));
}

/// An empty `--backend` (an unset shell variable) is refused before any work, listing the
/// backends; an empty `DWT_BACKEND` still means auto, as documented.
#[test]
fn an_empty_backend_flag_is_refused_and_an_empty_env_means_auto() {
    let d = Dir::new();
    let input = d.p("in.png");
    scene8(40, 24).save(&input).unwrap();
    let c = d.p("c.npy");
    for empty in ["", " "] {
        let args = [
            "transform",
            s(&input),
            s(&c),
            "-w",
            "LeGall53",
            "-l",
            "1",
            "-b",
            empty,
        ];
        fails(
            &args,
            Some(&input),
            "--backend is empty (an unset shell variable?); name a backend: cpu",
        );
        fails(
            &args,
            Some(&input),
            "auto (`--backend auto`, or leaving --backend out, picks one)",
        );
        assert!(!c.exists());
    }
    forward_ok(&input, &c, "LeGall53", "1");
    fails(
        &[
            "transform",
            s(&c),
            s(&d.p("back.png")),
            "--inverse",
            "--backend=",
        ],
        Some(&c),
        "--backend is empty",
    );
    dwt()
        .env("DWT_BACKEND", "")
        .args(["transform", s(&c), s(&d.p("back.png")), "--inverse"])
        .assert()
        .success()
        .stderr(predicate::str::contains("auto: chose"));
    dwt()
        .args([
            "transform",
            s(&c),
            s(&d.p("back2.png")),
            "--inverse",
            "-b",
            "auto",
        ])
        .assert()
        .success();
}

/// `dwt list` shows the OpenCL devices with their selectors and marks the one the backend runs
/// on; `DWT_OPENCL_DEVICE` naming none marks none, and a transform on OpenCL then fails saying
/// which devices there are, before writing anything.
#[cfg(feature = "opencl")]
#[test]
fn opencl_devices_are_listed_and_a_device_matching_none_is_refused() {
    let listed = dwt()
        .arg("list")
        .env_remove("DWT_OPENCL_DEVICE")
        .output()
        .unwrap();
    assert!(listed.status.success());
    let text = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(
        text.contains("opencl devices (select with DWT_OPENCL_DEVICE: a platform:device index"),
        "{text}"
    );
    // Exactly one device is the backend's.
    assert_eq!(text.matches("\n  * ").count(), 1, "{text}");
    let listed = dwt()
        .arg("list")
        .env("DWT_OPENCL_DEVICE", "no-such-device-anywhere")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&listed.stdout).to_string();
    assert_eq!(text.matches("\n  * ").count(), 0, "{text}");
    assert!(
        text.contains("opencl: unavailable (no OpenCL device matches `no-such-device-anywhere` (DWT_OPENCL_DEVICE); the devices: 0:0 "),
        "{text}"
    );

    let d = Dir::new();
    let input = d.p("in.png");
    scene8(32, 24).save(&input).unwrap();
    let out = d.p("out.npy");
    dwt()
        .args(["transform", s(&input), s(&out), "-w", "LeGall53", "-l", "1", "--backend", "opencl"])
        .env("DWT_OPENCL_DEVICE", "no-such-device-anywhere")
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "backend `opencl` is not available: no OpenCL device matches `no-such-device-anywhere` (DWT_OPENCL_DEVICE)",
        ));
    assert!(!out.exists());
}
