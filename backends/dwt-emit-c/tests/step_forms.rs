//! Where the kernels write an integer lifting step in which form: the register passes of inner
//! tiles sum each coefficient's taps and multiply once (`9 * (e1 + e2)`), edge tiles keep a
//! product per tap (grouped there, the inverses' edge code took more registers, and so did the
//! kernel). Both forms are exact; the execution suites compare both with the CPU reference.

use dwt_emit_c::{emit_module, Cuda, LaunchConfig};
use dwt_ir::{Direction, ElementType, Layout};

/// Products by `c` in `code`: (of a sum of taps, of one tap).
fn products(code: &str, c: i32) -> (usize, usize) {
    let of = format!("wrap_mul({c}, ");
    let all = code.matches(&of).count();
    let grouped = code.matches(&format!("{of}wrap_add(")).count();
    (grouped, all - grouped)
}

#[test]
fn inner_tiles_multiply_each_coefficient_once_and_edge_tiles_each_tap() {
    // Deslauriers-Dubuc (9,7)'s predict: (-e0 + 9 e1 + 9 e2 - e3 + 8) >> 4.
    let w = dwt_catalogue::by_name("DeslauriersDubuc97").unwrap();
    for direction in [Direction::Forward, Direction::Inverse] {
        let config = LaunchConfig::default();
        let m = emit_module(
            &Cuda,
            w,
            direction,
            ElementType::I32,
            Layout::Mallat,
            &config,
        )
        .unwrap();
        let tile = m.tile.as_ref().unwrap();
        let source = m.kernel_source(&tile.kernel).unwrap();
        let body = &source[source.find(&format!("{}(", tile.kernel)).unwrap()..];
        let (inner, edge) = body
            .split_once("\n    else {\n")
            .expect("the tile kernel's inner tiles, then its edge tiles");
        assert!(inner.contains("if (inner_x && inner_y)"), "{direction:?}");
        let (grouped, single) = products(inner, 9);
        assert!(
            grouped > 0 && single == 0,
            "{direction:?} inner tiles: {grouped} grouped, {single} single"
        );
        let (grouped, single) = products(edge, 9);
        assert!(
            grouped == 0 && single > 0,
            "{direction:?} edge tiles: {grouped} grouped, {single} single"
        );
    }
}
