//! Where the fused kernels' tile rows are laid out for 16-byte accesses of the register pass
//! along x (a pitch of four more than a multiple of eight, phase 1 from a multiple of four, the
//! array aligned to 16 bytes): the inverses of the long programs (Fidelity), measured faster so;
//! elsewhere rows keep an odd pitch, which gives single-word accesses distinct banks. Both
//! layouts are exact; the execution suites compare them with the CPU reference.

use dwt_emit_c::{emit_module, Cuda, LaunchConfig};
use dwt_ir::{Direction, ElementType, Layout};

/// The declaration of `wavelet`'s tile array in its fused kernel: (row pitch, aligned to 16
/// bytes), and the storage index of phase 1 along x from the kernel's `ox1 = P - sx1`.
fn tile_rows(
    wavelet: &str,
    direction: Direction,
    elem: ElementType,
    shape: &[usize],
) -> (usize, bool, usize) {
    let w = dwt_catalogue::by_name(wavelet).unwrap();
    let config = LaunchConfig::default().for_request(w, direction, elem, shape);
    let m = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &config).unwrap();
    let tile = m.tile.as_ref().unwrap();
    let source = m.kernel_source(&tile.kernel).unwrap();
    let body = &source[source.find(&format!("{}(", tile.kernel)).unwrap()..];
    let decl = body
        .lines()
        .find(|l| l.contains(" tile["))
        .expect("a tile array");
    let pitch = decl
        .rsplit('[')
        .next()
        .unwrap()
        .split(']')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let ox1 = body
        .lines()
        .find_map(|l| l.split_once("ox1 = "))
        .expect("ox1")
        .1;
    let phase1 = ox1.split(" - ").next().unwrap().parse().unwrap();
    (pitch, decl.contains("__align__(16)"), phase1)
}

#[test]
fn long_inverses_lay_rows_out_for_16_byte_accesses_and_the_rest_keep_odd_pitches() {
    for (shape, elem) in [
        ([8192, 8192], ElementType::I32),
        ([1080, 1920], ElementType::I16),
    ] {
        for wavelet in [
            "Fidelity",
            "DeslauriersDubuc137",
            "LeGall53",
            "Daubechies97Integer",
        ] {
            for direction in [Direction::Forward, Direction::Inverse] {
                let (pitch, aligned, phase1) = tile_rows(wavelet, direction, elem, &shape);
                let case = format!("{wavelet} {direction:?} {elem:?} {shape:?}: pitch {pitch}, phase 1 from {phase1}");
                if wavelet == "Fidelity" && direction == Direction::Inverse {
                    assert!(aligned && pitch % 8 == 4 && phase1 % 4 == 0, "{case}");
                } else if direction == Direction::Inverse || elem == ElementType::I16 {
                    // Tiles not interleaved for asynchronous copies: an odd pitch.
                    assert!(pitch % 2 == 1, "{case}");
                }
            }
        }
    }
}
