//! Where the kernels write an integer lifting step in which form: the register passes of inner
//! tiles sum each coefficient's taps and multiply once (`9 * (e1 + e2)`), but for kernels held
//! to full occupancy (under that register cap the sums spilled); edge tiles keep a product per
//! tap (grouped there, the inverses' edge code took more registers, and so did the kernel), but
//! in Fidelity's i32 inverse on its 48x32 tiles of large planes, which ran faster grouped.
//! Both forms are exact; the execution suites compare both with the CPU reference.

use dwt_emit_c::{emit_module, Cuda, LaunchConfig};
use dwt_ir::{Direction, ElementType, Layout};

/// Products by `c` in `code`: (of a sum of taps, of one tap).
fn products(code: &str, c: i32) -> (usize, usize) {
    let of = format!("wrap_mul({c}, ");
    let all = code.matches(&of).count();
    let grouped = code.matches(&format!("{of}wrap_add(")).count();
    (grouped, all - grouped)
}

/// `wavelet`'s fused kernel in `direction` for `elem` under `config`: whether it is held to full
/// occupancy, and the products by `c` of its inner tiles and of its edge tiles.
fn products_of(
    wavelet: &str,
    c: i32,
    direction: Direction,
    elem: ElementType,
    config: &LaunchConfig,
) -> (bool, (usize, usize), (usize, usize)) {
    let w = dwt_catalogue::by_name(wavelet).unwrap();
    let m = emit_module(&Cuda, w, direction, elem, Layout::Mallat, config).unwrap();
    let tile = m.tile.as_ref().unwrap();
    let source = m.kernel_source(&tile.kernel).unwrap();
    let body = &source[source.find(&format!("{}(", tile.kernel)).unwrap()..];
    let (inner, edge) = body
        .split_once("\n    else {\n")
        .expect("the tile kernel's inner tiles, then its edge tiles");
    assert!(inner.contains("if (inner_x && inner_y)"), "{direction:?}");
    (tile.full_occupancy, products(inner, c), products(edge, c))
}

#[test]
fn inner_tiles_multiply_each_coefficient_once_but_under_the_register_cap() {
    let default = LaunchConfig::default();
    let uncapped = LaunchConfig {
        register_cap: Some(false),
        ..LaunchConfig::default()
    };
    for (direction, config, capped) in [
        (Direction::Inverse, &default, false),
        (Direction::Forward, &uncapped, false),
        (Direction::Forward, &default, true),
    ] {
        // Deslauriers-Dubuc (9,7)'s predict: (-e0 + 9 e1 + 9 e2 - e3 + 8) >> 4.
        let (full_occupancy, (grouped, single), edge) =
            products_of("DeslauriersDubuc97", 9, direction, ElementType::I32, config);
        let case = format!("{direction:?}, held to full occupancy: {full_occupancy}");
        assert_eq!(full_occupancy, capped, "{case}");
        if capped {
            assert!(
                grouped == 0 && single > 0,
                "{case}: inner tiles {grouped} grouped, {single} single"
            );
        } else {
            assert!(
                grouped > 0 && single == 0,
                "{case}: inner tiles {grouped} grouped, {single} single"
            );
        }
        assert!(
            edge.0 == 0 && edge.1 > 0,
            "{case}: edge tiles {edge:?} (grouped, single)"
        );
    }
}

#[test]
fn fidelity_inverse_groups_its_edge_tiles_on_the_large_planes_tiles_only() {
    let default = LaunchConfig::default();
    let large = |direction, elem| {
        let w = dwt_catalogue::by_name("Fidelity").unwrap();
        default.for_request(w, direction, elem, &[8192, 8192])
    };
    use ElementType::{I16, I32};
    let (inverse, forward) = (
        large(Direction::Inverse, I32),
        large(Direction::Forward, I32),
    );
    let inverse_i16 = large(Direction::Inverse, I16);
    assert_eq!(
        (inverse.tile, forward.tile, inverse_i16.tile),
        ([48, 32], [48, 32], [48, 32])
    );
    // Fidelity's update: (... + 161 o[-1] + 161 o[0] ...) >> 8, in both directions.
    for (direction, elem, config, edge_grouped) in [
        (Direction::Inverse, I32, &inverse, true),
        (Direction::Inverse, I32, &default, false),
        (Direction::Forward, I32, &forward, false),
        // In i16 grouped edge tiles took 96 registers instead of 80.
        (Direction::Inverse, I16, &inverse_i16, false),
    ] {
        let (_, (grouped, single), edge) = products_of("Fidelity", 161, direction, elem, config);
        let case = format!("{direction:?} {elem:?} on {:?}", config.tile);
        assert!(
            grouped > 0 && single == 0,
            "{case}: inner tiles {grouped} grouped, {single} single"
        );
        let expected = if edge_grouped {
            edge.0 > 0 && edge.1 == 0
        } else {
            edge.0 == 0 && edge.1 > 0
        };
        assert!(expected, "{case}: edge tiles {edge:?} (grouped, single)");
    }
}
