//! Which plans take the fused 2-D pass (for images, and the x-y planes of volumes), and how they
//! move data between levels. That the fused
//! kernels compute the right thing is the execution suites' business (PoCL in CI, CUDA on the GPU
//! machine); these tests make sure those suites really run the fused kernels.

use dwt_emit_c::{
    emit_module, plan, Buffer, Cuda, EdgeTiles, LaunchConfig, OpenCl, Step, Strategy,
};
use dwt_ir::{Direction, ElementType, Layout};

fn module(name: &str, direction: Direction, config: &LaunchConfig) -> dwt_emit_c::KernelModule {
    module_in(name, direction, Layout::Mallat, config)
}

/// `integer` for an integer program, `float` for a float one: the element type a test runs `w` in.
fn of_kind(w: &dwt_ir::Wavelet, integer: ElementType, float: ElementType) -> ElementType {
    match w.kind {
        dwt_ir::ElementKind::Integer => integer,
        dwt_ir::ElementKind::Float => float,
    }
}

/// The OpenCL module of catalogue wavelet `name` in `layout`, in i32 (integer programs) or f32.
fn module_in(
    name: &str,
    direction: Direction,
    layout: Layout,
    config: &LaunchConfig,
) -> dwt_emit_c::KernelModule {
    let w = dwt_catalogue::by_name(name).unwrap();
    let elem = of_kind(w, ElementType::I32, ElementType::F32);
    emit_module(&OpenCl, w, direction, elem, layout, config).unwrap()
}

#[test]
fn every_catalogue_wavelet_takes_the_fused_pass_in_2d() {
    let config = LaunchConfig::default();
    for w in dwt_catalogue::all() {
        for direction in [Direction::Forward, Direction::Inverse] {
            let m = module(&w.name, direction, &config);
            assert!(m.tile.is_ok(), "{} {direction:?}: {:?}", w.name, m.tile);
            for (shape, levels) in [
                (&[1080usize, 1920][..], 3u32),
                (&[8192, 8192][..], 1),
                (&[17, 33][..], 2),
                (&[2, 2][..], 1),
            ] {
                let p = plan(&m, shape, levels).unwrap();
                assert!(p.is_fused(), "{} {direction:?} {shape:?}", w.name);
                let launched: Vec<&str> = p
                    .steps
                    .iter()
                    .filter_map(|s| match s {
                        Step::Launch(l) => Some(l.kernel.as_str()),
                        Step::Copy(_) => None,
                    })
                    .collect();
                // Haar's three levels of 1920x1080 (sides multiples of 8) take one pyramid
                // launch; every other case a tile launch per level.
                let pyramid = w.name.starts_with("Haar") && levels == 3;
                if pyramid {
                    assert_eq!(launched.len(), 1, "{} {direction:?}", w.name);
                    assert!(launched[0].ends_with("_pyramid3"), "{launched:?}");
                } else {
                    assert_eq!(launched.len(), levels as usize, "one launch per level");
                    assert!(launched.iter().all(|k| k.ends_with("tile")), "{launched:?}");
                }
            }
        }
    }
}

/// Edge tiles lift in registers with reflected halos exactly for the programs whose reflection
/// the IR proves (`dwt-catalogue/tests/facts.rs` pins which), in both dialects and every element
/// type (f64 too); in registers under the clamp rule itself for the other clamp programs but
/// Haar's forward (whose segments hold no odd index before their own, which an even index at
/// the end of an odd-length line reads), and on the general path for it by default; with
/// `clamped_edges_reach_back` its segments hold that index and it lifts them in registers too.
/// So the execution suites, which run the catalogue on small and odd sizes (every tile at an
/// edge) with every candidate configuration, run all three kinds of edge tiles.
#[test]
fn edge_tiles_take_reflected_halos_where_the_ir_proves_them_else_the_clamp_rule() {
    let reach_back = LaunchConfig {
        clamped_edges_reach_back: Some(true),
        ..LaunchConfig::default()
    };
    for (config, reaching) in [(LaunchConfig::default(), false), (reach_back, true)] {
        for w in dwt_catalogue::all() {
            for direction in [Direction::Forward, Direction::Inverse] {
                let program = w.program_for(direction);
                let reflected =
                    (2..=200).all(|n| program.reflected_segments_exact(w.boundary, w.kind, n, 8));
                let elems = match w.kind {
                    dwt_ir::ElementKind::Integer => &[ElementType::I32][..],
                    dwt_ir::ElementKind::Float => &[ElementType::F32, ElementType::F64][..],
                };
                let dialects = [
                    (&OpenCl as &dyn dwt_emit_c::Dialect, "OpenCL"),
                    (&Cuda, "CUDA"),
                ];
                for (&elem, (dialect, name)) in elems
                    .iter()
                    .flat_map(|e| dialects.iter().map(move |d| (e, *d)))
                {
                    let m =
                        emit_module(dialect, w, direction, elem, Layout::Mallat, &config).unwrap();
                    let tile = m.tile.as_ref().unwrap();
                    assert_eq!(
                        matches!(tile.edges, EdgeTiles::Reflected { segments: [8, 8] }),
                        reflected,
                        "{} {direction:?} {elem:?} {name}: {:?}",
                        w.name,
                        tile.edges
                    );
                    let haar_forward =
                        w.name.starts_with("Haar") && direction == Direction::Forward;
                    let clamped = !reflected && (reaching || !haar_forward);
                    assert_eq!(
                        matches!(tile.edges, EdgeTiles::Clamped),
                        clamped,
                        "{} {direction:?} {elem:?} {name}: {:?}",
                        w.name,
                        tile.edges
                    );
                    let source = m.source();
                    assert_eq!(
                        source.contains("reflect(rows"),
                        reflected,
                        "{} {elem:?} {name}",
                        w.name
                    );
                    assert_eq!(
                        source.contains("Clamp rule: the "),
                        clamped,
                        "{} {elem:?} {name}",
                        w.name
                    );
                    // Every band of these shapes, odd and tiny ones included, is proven, so the
                    // plans stay fused.
                    for shape in [[17usize, 33], [3, 5], [1080, 1920]] {
                        assert!(
                            plan(&m, &shape, 1).unwrap().is_fused(),
                            "{} {elem:?} {shape:?}",
                            w.name
                        );
                    }
                }
            }
        }
    }
}

/// The general edge path (one step at a time, every read through the boundary rule) is what a
/// program takes whose reflection is not proven under a rule other than the clamp: the random
/// programs of the execution suites under the symmetric rule run it.
#[test]
fn an_unproven_symmetric_program_takes_the_general_edge_path() {
    let w = dwt_ir::parse_wavelet(
        "wavelet S { kind = integer; boundary = symmetric; odd -= (even[0] + 3*even[1] + 2) >> 2; even += (odd[-1] + odd[0] + 2) >> 2; }",
    )
    .unwrap();
    let program = w.program_for(Direction::Forward);
    assert!(!(2..=200).all(|n| program.reflected_segments_exact(w.boundary, w.kind, n, 8)));
    let config = LaunchConfig::default();
    let m = emit_module(
        &Cuda,
        &w,
        Direction::Forward,
        ElementType::I32,
        Layout::Mallat,
        &config,
    )
    .unwrap();
    assert_eq!(m.tile.as_ref().unwrap().edges, EdgeTiles::BoundaryRule);
    assert!(plan(&m, &[17, 33], 1).unwrap().is_fused());
}

#[test]
fn the_two_pass_strategy_and_other_shapes_take_the_passes() {
    let two_pass = LaunchConfig {
        strategy: Strategy::TwoPass,
        ..Default::default()
    };
    let m = module("Cdf97", Direction::Forward, &two_pass);
    // Its modules carry no fused kernel at all (nothing to compile that never runs).
    assert!(m.tile.is_err());
    assert!(!two_pass.for_axes(3).planes);
    assert!(!plan(&m, &[64, 64], 2).unwrap().is_fused());
    assert!(!plan(&m, &[8, 8, 8], 1).unwrap().is_fused());
    let m = module("Cdf97", Direction::Forward, &LaunchConfig::default());
    for (shape, levels) in [(&[64usize][..], 2u32), (&[1, 64][..], 1)] {
        assert!(!plan(&m, shape, levels).unwrap().is_fused(), "{shape:?}");
    }
    // A level whose band has a single row (64 x 3, 2 levels: the second level is 32 x 2, the
    // third would be 16 x 1) keeps the whole transform on the passes.
    assert!(plan(&m, &[3, 64], 2).unwrap().is_fused());
    assert!(!plan(&m, &[3, 64], 3).unwrap().is_fused());
}

/// The window launches' `margin` argument (the columns kernel's tenth, after the buffers).
fn window_margins(p: &dwt_emit_c::LaunchPlan) -> Vec<i32> {
    use dwt_emit_c::Pass;
    (p.steps.iter())
        .filter_map(|s| match s {
            Step::Launch(l) if matches!(l.pass, Pass::Window(_)) => Some(l.ints[7]),
            _ => None,
        })
        .collect()
}

#[test]
fn a_periodic_wavelet_wraps_its_edge_tiles_and_its_windows() {
    use Buffer::{Data, Scratch, Source};
    let w = dwt_ir::parse_str(
        "wavelet P { kind = integer; boundary = periodic; odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
    )
    .unwrap()
    .remove(0);
    let emit = |direction, layout, config: &LaunchConfig| {
        emit_module(&OpenCl, &w, direction, ElementType::I32, layout, config).unwrap()
    };
    for layout in [Layout::Mallat, Layout::Interleaved] {
        // The fused pass, its edge tiles loading their halo modulo the band's sides.
        let fused = emit(Direction::Forward, layout, &LaunchConfig::default());
        let tile = fused.tile.as_ref().expect("a fused pass");
        assert_eq!(tile.edges, dwt_emit_c::EdgeTiles::Wrapped);
        assert!(fused.pyramids.is_empty());
        assert!(plan(&fused, &[64, 64], 2).unwrap().is_fused());
        assert!(
            plan(&fused, &[6, 10], 1).unwrap().is_fused(),
            "every even band"
        );
        // The two passes: the rows kernel and the sliding window, which reads its lines modulo
        // their length.
        let two_pass = LaunchConfig::two_pass();
        let (forward, inverse) = (
            emit(Direction::Forward, layout, &two_pass),
            emit(Direction::Inverse, layout, &two_pass),
        );
        let v = &forward.vertical;
        assert!(v.wraps && v.margin > 0);
        // Every window crosses to the other buffer (a wrapped line reads rows it also stores)
        // and lifts its margins, one segment per line or not.
        let p = plan(&forward, &[64, 64], 2).unwrap();
        assert_eq!(
            flow(&p),
            [
                ("rows", [Source, Scratch]),
                ("window y", [Scratch, Data]),
                ("rows", [Data, Scratch]),
                ("window y", [Scratch, Data])
            ],
            "{layout:?}"
        );
        assert!(!p.is_fused() && p.reads_source);
        assert_eq!(window_margins(&p), [v.margin as i32; 2]);
        assert_eq!(
            flow(&plan(&forward, &[8, 64, 64], 1).unwrap()),
            [
                ("rows", [Source, Data]),
                ("window y", [Data, Scratch]),
                ("window z", [Scratch, Data])
            ],
            "{layout:?}"
        );
        // The inverse's first window reads the source (the low quadrant from the data).
        let p = plan(&inverse, &[64, 64], 2).unwrap();
        assert_eq!(
            flow(&p),
            [
                ("window y", [Source, Scratch]),
                ("rows", [Scratch, Data]),
                ("window y", [Source, Scratch]),
                ("rows", [Scratch, Data])
            ],
            "{layout:?}"
        );
        assert!(p.reads_source);
        // Rows longer than the rows kernel holds slide too, in segments with their margins.
        let long = forward.config.row_limit(ElementType::I32) + 8;
        let p = plan(&forward, &[2, long], 1).unwrap();
        assert_eq!(
            flow(&p),
            [("window x", [Data, Scratch]), ("window y", [Scratch, Data])],
            "{layout:?}"
        );
        assert_eq!(window_margins(&p), [v.margin as i32; 2]);
    }
}

/// A float program scaling between its steps runs with its scales moved last (the window and
/// the tiles apply scales only as samples enter or leave them): the module's program is that
/// form and says so, its plans are fused, and its columns of any length take the window. A scale
/// between integer steps cannot move and is refused.
#[test]
fn a_scale_between_steps_runs_with_its_scales_moved_last() {
    let w = dwt_runtime::conformance::scale_between_steps();
    let emit = |direction, config: &LaunchConfig| {
        emit_module(
            &OpenCl,
            &w,
            direction,
            ElementType::F32,
            Layout::Mallat,
            config,
        )
    };
    let config = LaunchConfig::default();
    let moved = w.program.with_scales_moved_last().unwrap();
    assert!(w.program.scales_between_steps() && !moved.scales_between_steps());
    let forward = emit(Direction::Forward, &config).unwrap();
    assert_eq!(forward.program, moved);
    assert_eq!(
        emit(Direction::Inverse, &config).unwrap().program,
        moved.inverse()
    );
    assert!(forward
        .source()
        .contains("scales between steps moved after the last"));
    assert!(forward.tile.is_ok());
    assert!(plan(&forward, &[64, 64], 2).unwrap().is_fused());
    let volume = emit(Direction::Forward, &config.for_axes(3)).unwrap();
    assert!(plan(&volume, &[8, 64, 64], 1).unwrap().is_fused());
    // Columns longer than the rows kernel holds slide through the window.
    let limit = config.row_limit(ElementType::F32);
    let two_pass = emit(Direction::Forward, &LaunchConfig::two_pass()).unwrap();
    let p = plan(&two_pass, &[limit + 2, 64], 1).unwrap();
    assert!(
        flow(&p).iter().any(|(pass, _)| *pass == "window y"),
        "{:?}",
        flow(&p)
    );

    let integer = dwt_ir::Wavelet {
        kind: dwt_ir::ElementKind::Integer,
        program: dwt_ir::parse_wavelet(
            "wavelet S { odd -= (even[0] + even[1]) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
        )
        .unwrap()
        .program,
        ..w.clone()
    };
    let mut ops = integer.program.ops.clone();
    ops.insert(1, w.program.ops[1].clone());
    let integer = dwt_ir::Wavelet {
        program: dwt_ir::Program { ops },
        ..integer
    };
    let config = LaunchConfig::default();
    let e = emit_module(
        &OpenCl,
        &integer,
        Direction::Forward,
        ElementType::I32,
        Layout::Mallat,
        &config,
    )
    .unwrap_err();
    assert!(
        matches!(e, dwt_emit_c::EmitError::ScaleBetweenSteps(_)),
        "{e}"
    );
}

#[test]
fn fused_levels_hand_the_low_band_on_through_scratch() {
    let m = module("LeGall53", Direction::Forward, &LaunchConfig::default());
    let p = plan(&m, &[100, 60], 3).unwrap();
    // Level 0 reads the source, later levels the previous low band; subbands go to the data,
    // the last level's low band too.
    let buffers: Vec<&[Buffer]> = p
        .steps
        .iter()
        .map(|s| match s {
            Step::Launch(l) => &l.buffers[..],
            Step::Copy(_) => panic!("fused plans copy nothing"),
        })
        .collect();
    assert_eq!(buffers[0], [Buffer::Source, Buffer::Scratch, Buffer::Data]);
    assert_eq!(buffers[1], [Buffer::Scratch, Buffer::Scratch, Buffer::Data]);
    assert_eq!(buffers[2], [Buffer::Scratch, Buffer::Data, Buffer::Data]);
    // Level 0 writes subbands to the data it would read in place: the source must be a copy.
    assert!(!p.source_may_be_data);
    // Two regions: the 50 x 30 band of level 1, then the 25 x 15 band of level 2.
    assert_eq!(p.scratch, 50 * 30 + 25 * 15);
    let inverse = module("LeGall53", Direction::Inverse, &LaunchConfig::default());
    let p = plan(&inverse, &[100, 60], 1).unwrap();
    assert_eq!(p.scratch, 0);
    match &p.steps[0] {
        Step::Launch(l) => assert_eq!(l.buffers, [Buffer::Data, Buffer::Source, Buffer::Source]),
        Step::Copy(_) => panic!("fused plans copy nothing"),
    }
}

fn launches(p: &dwt_emit_c::LaunchPlan) -> Vec<&dwt_emit_c::Launch> {
    p.steps
        .iter()
        .map(|s| match s {
            Step::Launch(l) => l,
            Step::Copy(_) => panic!("fused plans copy nothing"),
        })
        .collect()
}

#[test]
fn volumes_take_the_fused_pass_on_their_planes_then_the_depth_pass() {
    // Two passes a level: the finest level in one pass and the pair-local volume kernel have
    // their own tests below.
    let volume = LaunchConfig {
        one_pass_volumes: Some(false),
        pair_volumes: false,
        ..LaunchConfig::default().for_axes(3)
    };
    for w in dwt_catalogue::all() {
        for direction in [Direction::Forward, Direction::Inverse] {
            let m = module(&w.name, direction, &volume);
            let tile = &m.tile.as_ref().unwrap().kernel;
            let depth = &m.vertical.columns_kernel;
            let p = plan(&m, &[512, 512, 512], 3).unwrap();
            assert!(p.is_fused(), "{} {direction:?}", w.name);
            let kernels: Vec<&str> = launches(&p).iter().map(|l| l.kernel.as_str()).collect();
            let expected = match direction {
                Direction::Forward => [
                    dwt_emit_c::Pass::Fused,
                    dwt_emit_c::Pass::Window(dwt_emit_c::Axis::Z),
                ],
                Direction::Inverse => [
                    dwt_emit_c::Pass::Window(dwt_emit_c::Axis::Z),
                    dwt_emit_c::Pass::Fused,
                ],
            };
            assert_eq!(p.passes(), expected.repeat(3), "{} {direction:?}", w.name);
            let level = match direction {
                Direction::Forward => [tile, depth],
                Direction::Inverse => [depth, tile],
            };
            assert_eq!(kernels, level.repeat(3), "{} {direction:?}", w.name);
            // Both read the source and may read the data as their source in place: the
            // forward's first kernel alone reads it and writes the scratch; the inverse's depth
            // passes read the high octants no step writes before level 0's tiles.
            assert!(p.reads_source);
            assert!(p.source_may_be_data);
            assert_eq!(p.scratch, 512 * 512 * 512);
            // 16 slabs of 512 planes (2048 groups at level 2): whole lines along z.
            assert!(windows(&p).iter().all(|w| w.0[2] == 1), "{}", w.name);
        }
    }
}

#[test]
fn fused_volume_levels_alternate_between_data_and_scratch() {
    // Two passes a level (the one-pass kernel's plan is tested below).
    let volume = LaunchConfig {
        one_pass_volumes: Some(false),
        ..LaunchConfig::default().for_axes(3)
    };
    let m = module("LeGall53", Direction::Forward, &volume);
    let p = plan(&m, &[20, 30, 40], 2).unwrap();
    let l = launches(&p);
    let buffers: Vec<&[Buffer]> = l.iter().map(|l| &l.buffers[..]).collect();
    assert_eq!(
        buffers,
        [
            &[Buffer::Source, Buffer::Scratch, Buffer::Scratch][..],
            &[Buffer::Scratch, Buffer::Data],
            &[Buffer::Data, Buffer::Scratch, Buffer::Scratch],
            &[Buffer::Scratch, Buffer::Data],
        ]
    );
    // One group per plane of the level's band along z; the planes 30 * 40 samples apart.
    assert_eq!(l[0].groups[2], 20);
    assert_eq!(l[2].groups[2], 10);
    assert_eq!(*l[0].ints.last().unwrap(), 30 * 40);
    // The depth pass slides along z (20, then 10 samples) over the band's columns (40, 20)
    // and rows (30, 15), whole lines (one segment of them, no margins).
    assert_eq!(l[1].ints[4..], [20, 40, 20, 0]);
    assert_eq!(l[3].ints[4..], [10, 20, 10, 0]);
    assert_eq!(l[3].groups[1], 15);
    let inverse = module("LeGall53", Direction::Inverse, &volume);
    let p = plan(&inverse, &[20, 30, 40], 2).unwrap();
    let l = launches(&p);
    let buffers: Vec<Vec<Buffer>> = l.iter().map(|l| l.buffers.clone()).collect();
    // The depth pass (src, lows, dst): the coarsest level's band all from the source, level
    // 0's low octant from the data, where level 1's tiles wrote it, its highs from the source.
    assert_eq!(
        buffers,
        [
            vec![Buffer::Source, Buffer::Source, Buffer::Scratch],
            vec![Buffer::Data, Buffer::Scratch, Buffer::Scratch],
            vec![Buffer::Source, Buffer::Data, Buffer::Scratch],
            vec![Buffer::Data, Buffer::Scratch, Buffer::Scratch],
        ]
    );
    // The low quadrant of lines (x) and planes (y): none at level 1, level 0's first
    // ceil(40 / 2) columns of its first ceil(30 / 2) rows in the Mallat layout, all of them
    // (the kernel keeps the even ones) in the interleaved layout.
    assert_eq!(inverse.layout, Layout::Mallat);
    assert_eq!(l[0].ints[8..], [0, 0]);
    assert_eq!(l[2].ints[8..], [20, 15]);
    let interleaved = module_in("LeGall53", Direction::Inverse, Layout::Interleaved, &volume);
    let l = plan(&interleaved, &[20, 30, 40], 2).unwrap();
    assert_eq!(launches(&l)[2].ints[8..], [40, 30]);
}

/// A 3-D module of a pair-local program (Haar) lifts every level of a volume whose bands
/// stay even in one launch a level, in both dialects (here without the volume pyramid, which
/// `pyramids` switches: the next test): the forward from the source, each level's low octant
/// through the scratch (compact, alternately in its first and second eighth of the volume, so
/// that no level writes where it reads) and the last into the data; the inverse the other way
/// about,
/// reading the high octants from the source; in place, the same after a copy. The interleaved
/// layout lifts in place. Odd bands and the switch off take the two passes.
#[test]
fn pair_local_volumes_lift_every_level_in_one_pass() {
    use dwt_emit_c::{Pass, VOLUME_PAIRS_THREADS};
    use Buffer::{Data, Scratch, Source};
    let volume = LaunchConfig {
        pyramids: false,
        ..LaunchConfig::default().for_axes(3)
    };
    let [d, h, w] = [16usize, 8, 24];
    let plane = (h * w) as i32;
    for name in ["HaarNoShift", "HaarWithShift"] {
        let wavelet = dwt_catalogue::by_name(name).unwrap();
        for direction in [Direction::Forward, Direction::Inverse] {
            let cuda = emit_module(
                &Cuda,
                wavelet,
                direction,
                ElementType::I16,
                Layout::Mallat,
                &volume,
            )
            .unwrap();
            let opencl = module(name, direction, &volume);
            for m in [&cuda, &opencl] {
                let kernel = m
                    .volume_pairs
                    .as_ref()
                    .expect("the pair-local volume kernel");
                assert!(m.source().contains(kernel.as_str()));
                let p = plan(m, &[d, h, w], 3).unwrap();
                assert!(
                    p.is_fused() && p.reads_source && !p.runs_in_place(),
                    "{p:?}"
                );
                assert_eq!(p.passes(), [Pass::VolumePairs; 3], "{name}");
                // Two compact bands of level 1's size at most.
                assert_eq!(p.scratch, 2 * (d / 2) * (h / 2) * (w / 2));
                let l = launches(&p);
                // Per level (finest first): the buffers of nat, low, high, where nat and low
                // start, and the groups: a block of 2x2x2 samples a work-item.
                let mut levels: Vec<_> = l
                    .iter()
                    .map(|l| (l.buffers.clone(), [l.ints[3], l.ints[6]], l.groups))
                    .collect();
                if direction == Direction::Inverse {
                    levels.reverse();
                }
                let eighth = ((d / 2) * (h / 2) * (w / 2)) as i32;
                let (nat, low) = match direction {
                    Direction::Forward => ([Source, Scratch, Scratch], [Scratch, Scratch, Data]),
                    Direction::Inverse => ([Data, Scratch, Scratch], [Scratch, Scratch, Source]),
                };
                let high = match direction {
                    Direction::Forward => Data,
                    Direction::Inverse => Source,
                };
                assert_eq!(
                    levels,
                    [
                        (vec![nat[0], low[0], high], [0, 0], [1, 4, 8]),
                        (vec![nat[1], low[1], high], [0, eighth], [1, 2, 4]),
                        (vec![nat[2], low[2], high], [eighth, 0], [1, 1, 2]),
                    ],
                    "{name} {direction:?}"
                );
                assert!(l
                    .iter()
                    .all(|l| l.block == [VOLUME_PAIRS_THREADS, 1] && &l.kernel == kernel));
                // Level 1 (the middle launch both ways): blocks of the band of 8x4x12 samples,
                // compact in the scratch (the level-2 band too), the volume's pitches for the
                // high octants, and their seven bases ([z, y, x] parity, x fastest).
                let (nat_base, low_base) = (l[1].ints[3], l[1].ints[6]);
                let z = 4 * plane;
                #[rustfmt::skip]
                let want = [
                    6, 2, 4, nat_base, 12, 48, low_base, 6, 12, 24, plane,
                    6, 48, 54, z, z + 6, z + 48, z + 54,
                ];
                assert_eq!(l[1].ints, want);
                // One level: no scratch.
                let one = plan(m, &[d, h, w], 1).unwrap();
                assert_eq!((one.passes(), one.scratch), (vec![Pass::VolumePairs], 0));
                // In place too, after a copy of the data (which with it moves the volume
                // through memory less than the two passes): no other plan.
                assert_eq!(dwt_emit_c::plan_in_place(m, &[d, h, w], 3), Ok(None));
                // A band with an odd side at a level: the two passes at every level.
                for shape in [[d, h, w + 1], [d, 6, w], [9, h, w]] {
                    let p = plan(m, &shape, 2).unwrap();
                    assert!(!p.passes().contains(&Pass::VolumePairs), "{shape:?}");
                }
            }
        }
    }
    // Not for programs with a halo, images, or where switched off.
    assert!(module("LeGall53", Direction::Forward, &volume)
        .volume_pairs
        .is_none());
    let image = LaunchConfig::default().for_axes(2);
    assert!(module("HaarNoShift", Direction::Forward, &image)
        .volume_pairs
        .is_none());
    // The interleaved layout: each level from the source (the inverse's lows from the data,
    // where the coarser level left them) to the data, in place, the samples 2^level apart.
    for direction in [Direction::Forward, Direction::Inverse] {
        let m = module_in("HaarNoShift", direction, Layout::Interleaved, &volume);
        assert!(m.volume_pairs.is_some());
        let p = plan(&m, &[16, 8, 24], 3).unwrap();
        assert!(p.reads_source && p.runs_in_place() && p.scratch == 0);
        let mut levels: Vec<_> = launches(&p)
            .iter()
            .map(|l| (l.pass, l.buffers.clone(), l.ints.clone(), l.groups))
            .collect();
        if direction == Direction::Inverse {
            levels.reverse();
        }
        let from = |level: usize| match (direction, level) {
            (Direction::Forward, 0) => vec![Source, Data],
            (Direction::Forward, _) => vec![Data, Data],
            (Direction::Inverse, 2) => vec![Source, Source, Data],
            (Direction::Inverse, _) => vec![Source, Data, Data],
        };
        let plane = 8 * 24;
        assert_eq!(
            levels,
            [
                (
                    Pass::VolumePairs,
                    from(0),
                    vec![12, 4, 8, 1, 24, plane],
                    [1, 4, 8]
                ),
                (
                    Pass::VolumePairs,
                    from(1),
                    vec![6, 2, 4, 2, 48, 2 * plane],
                    [1, 2, 4]
                ),
                (
                    Pass::VolumePairs,
                    from(2),
                    vec![3, 1, 2, 4, 96, 4 * plane],
                    [1, 1, 2]
                ),
            ],
            "{direction:?}"
        );
        assert_eq!(dwt_emit_c::plan_in_place(&m, &[16, 8, 24], 3), Ok(None));
        let odd = plan(&m, &[16, 8, 20], 3).unwrap();
        assert!(!odd.passes().contains(&Pass::VolumePairs));
    }
    // Its own switch, not the two-tap kernels' (which OpenCL on a CPU turns off).
    let others_off = LaunchConfig {
        one_pass_volumes: Some(false),
        ..volume
    };
    let haar = module("HaarNoShift", Direction::Inverse, &others_off);
    assert!(haar.volume_pairs.is_some());
    let off = LaunchConfig {
        pair_volumes: false,
        ..volume
    };
    let haar = module("HaarNoShift", Direction::Inverse, &off);
    assert!(haar.volume_pairs.is_none());
}

/// The volume pyramid (on with `pyramids`, the default): a pair-local program's volume lifts
/// two levels a launch where a level follows (the first band's sides are then multiples of
/// four, the next one's being even), the last of an odd count alone, in both dialects and
/// layouts. Mallat: each launch's low octant through the scratch (compact, alternating launch
/// by launch between its first and second eighth of the volume), the high octants
/// of both its levels into the data (the inverse: from the source), the blocks 4x4x4 samples.
/// Interleaved: in place, the pyramid's samples `2^level` apart as the one level's.
#[test]
fn pair_local_volumes_lift_two_levels_a_launch_in_the_pyramid() {
    use dwt_emit_c::Pass::{VolumePairs as One, VolumePyramid as Two};
    use Buffer::{Data, Scratch, Source};
    let volume = LaunchConfig::default().for_axes(3);
    assert!(volume.pyramids);
    let [d, h, w] = [16usize, 8, 24];
    let plane = (h * w) as i32;
    for direction in [Direction::Forward, Direction::Inverse] {
        let cuda = emit_module(
            &Cuda,
            dwt_catalogue::by_name("HaarWithShift").unwrap(),
            direction,
            ElementType::I16,
            Layout::Mallat,
            &volume,
        )
        .unwrap();
        let opencl = module("HaarNoShift", direction, &volume);
        for m in [&cuda, &opencl] {
            let pyramid = m.volume_pyramid.as_ref().expect("the volume pyramid");
            assert!(m.source().contains(pyramid.as_str()));
            let finest_first = |p: &dwt_emit_c::LaunchPlan| {
                let mut passes = p.passes();
                if direction == Direction::Inverse {
                    passes.reverse();
                }
                passes
            };
            // Which levels go together, by the bands' sides.
            for (shape, levels, want) in [
                ([d, h, w], 3, vec![Two, One]),
                ([16, 16, 16], 4, vec![Two, Two]),
                ([4, 8, 12], 2, vec![Two]),
                ([d, h, w], 1, vec![One]),
                ([2, 2, 2], 1, vec![One]),
                ([4, 4, 520], 2, vec![Two]),
            ] {
                let p = plan(m, &shape, levels).unwrap();
                assert_eq!(finest_first(&p), want, "{shape:?} {levels}");
                assert_eq!(
                    p.scratch,
                    if want.len() > 1 {
                        shape.iter().product::<usize>() / 4
                    } else {
                        0
                    }
                );
            }
            let p = plan(m, &[d, h, w], 3).unwrap();
            let mut l: Vec<_> = launches(&p).into_iter().cloned().collect();
            if direction == Direction::Inverse {
                l.reverse();
            }
            let (nat, low, high) = match direction {
                Direction::Forward => ([Source, Scratch], [Scratch, Data], Data),
                Direction::Inverse => ([Data, Scratch], [Scratch, Source], Source),
            };
            // The pyramid: levels 0 and 1 in blocks of 4x4x4, the level-2 band compact at the
            // scratch's start; then level 2 from there.
            assert_eq!(
                (&l[0].kernel, l[0].buffers.clone(), l[0].groups),
                (pyramid, vec![nat[0], low[0], high], [1, 2, 4])
            );
            assert_eq!(
                (l[1].buffers.clone(), l[1].groups),
                (vec![nat[1], low[1], high], [1, 1, 2])
            );
            let z0 = 8 * plane;
            let z1 = 4 * plane;
            #[rustfmt::skip]
            let want = [
                6, 2, 4, 0, 24, plane, 0, 6, 12, 24, plane,
                12, 96, 108, z0, z0 + 12, z0 + 96, z0 + 108,
                6, 48, 54, z1, z1 + 6, z1 + 48, z1 + 54,
            ];
            assert_eq!(l[0].ints, want);
            assert_eq!(l[1].ints[..7], [3, 1, 2, 0, 6, 12, 0]);
        }
        // Interleaved: in place, blocks of 4x4x4 with the samples one apart, then of 2x2x2
        // with them four apart.
        let m = module_in("HaarNoShift", direction, Layout::Interleaved, &volume);
        let p = plan(&m, &[d, h, w], 3).unwrap();
        assert!(p.reads_source && p.runs_in_place() && p.scratch == 0);
        let mut l: Vec<_> = launches(&p)
            .iter()
            .map(|l| (l.pass, l.buffers.clone(), l.ints.clone(), l.groups))
            .collect();
        if direction == Direction::Inverse {
            l.reverse();
        }
        let (first, second) = match direction {
            Direction::Forward => (vec![Source, Data], vec![Data, Data]),
            Direction::Inverse => (vec![Source, Data, Data], vec![Source, Source, Data]),
        };
        assert_eq!(
            l,
            [
                (Two, first, vec![6, 2, 4, 1, 24, plane], [1, 2, 4]),
                (One, second, vec![3, 1, 2, 4, 96, 4 * plane], [1, 1, 2]),
            ],
            "{direction:?}"
        );
    }
    // `pyramids` off: no pyramid, a launch a level.
    let off = LaunchConfig {
        pyramids: false,
        ..volume
    };
    let m = module("HaarNoShift", Direction::Forward, &off);
    assert!(m.volume_pairs.is_some() && m.volume_pyramid.is_none());
    assert_eq!(plan(&m, &[d, h, w], 3).unwrap().passes(), [One, One, One]);
}

/// A CUDA module of a program of one or two pairs of two-tap symmetric steps (LeGall 5/3, CDF
/// 5/3, the integer Daubechies 9/7, CDF 9/7) in 4-byte samples lifts each level of a volume
/// forward in one launch in the Mallat layout: level 0 from the source, each later one whose
/// launch has 128 groups or more (every one where asked for) from the low octant the launch
/// before left in the scratch (alternately at its origin and below level 1's band), the high
/// octants into their places in the data, the last low octant too, all with the volume's
/// pitches (so the source may not be the data), the planes split among groups of 32, 16 or 8
/// towards 256 groups; in the interleaved layout level 0 alone; the later levels as before. OpenCL, i16 or f64, other programs, a
/// periodic boundary, images and the switch off take the two passes.
#[test]
fn cuda_volumes_of_two_tap_programs_lift_each_level_in_one_pass() {
    use dwt_emit_c::{Axis, Pass, VOLUME_SEGMENT, VOLUME_THREADS};
    use Direction::Forward;
    use ElementType::{F32, F64, I16, I32};
    let volume = LaunchConfig::default().for_axes(3);
    let cuda = |w: &dwt_ir::Wavelet, direction, elem, config: &LaunchConfig| {
        emit_module(&Cuda, w, direction, elem, Layout::Mallat, config).unwrap()
    };
    let by_name = |name| dwt_catalogue::by_name(name).unwrap();
    for (name, elem) in [
        ("LeGall53", I32),
        ("Cdf53", F32),
        ("Daubechies97Integer", I32),
        ("Cdf97", F32),
    ] {
        let m = cuda(by_name(name), Forward, elem, &volume);
        let kernel = &m.volume.as_ref().expect("the one-pass kernel").kernel;
        assert!(m.source().contains(kernel.as_str()));
        let seg = VOLUME_SEGMENT as i32;
        // 512^3, three levels: a launch a level. Groups of 64x32 tiles and 32 planes but at level
        // 2 (128^3, 2x4 tiles), whose planes go 8 to a group for 128 groups. The band's base, the
        // low octant's, the volume's pitches (a row, a plane): band 1 at the scratch's origin,
        // band 2 below its 256 rows.
        let (row, plane) = (512, 512 * 512);
        let p = plan(&m, &[512, 512, 512], 3).unwrap();
        assert!(p.is_fused());
        assert_eq!(p.passes(), [Pass::Volume; 3], "{name}");
        let l = launches(&p);
        assert!(l.iter().all(|l| &l.kernel == kernel));
        assert_eq!(
            l[0].buffers,
            [Buffer::Source, Buffer::Data, Buffer::Scratch]
        );
        assert_eq!(l[0].ints, [512, 512, 512, seg, 0, 0, row, plane]);
        assert_eq!(
            (l[0].groups, l[0].block),
            ([8, 16, 16], [VOLUME_THREADS, 1])
        );
        assert_eq!(
            l[1].buffers,
            [Buffer::Scratch, Buffer::Data, Buffer::Scratch]
        );
        assert_eq!(l[1].ints, [256, 256, 256, seg, 0, 256 * row, row, plane]);
        assert_eq!(l[1].groups, [4, 8, 8]);
        assert_eq!(l[2].buffers, [Buffer::Scratch, Buffer::Data, Buffer::Data]);
        assert_eq!(l[2].ints, [128, 128, 128, 8, 256 * row, 0, row, plane]);
        assert_eq!(l[2].groups, [2, 4, 16]);
        assert!(p.reads_source && !p.source_may_be_data && !p.runs_in_place());
        // Band 1's 256 planes.
        assert_eq!(p.scratch, 256 * 512 * 512);
        // 256^3: level 2 (64^3, 16 groups of 8 planes) by the two passes, from the low octant
        // level 1's launch left in the data.
        let p = plan(&m, &[256, 256, 256], 3).unwrap();
        assert_eq!(
            p.passes(),
            [
                Pass::Volume,
                Pass::Volume,
                Pass::Fused,
                Pass::Window(Axis::Z)
            ],
            "{name}"
        );
        let l = launches(&p);
        assert_eq!(l[1].buffers, [Buffer::Scratch, Buffer::Data, Buffer::Data]);
        assert_eq!(l[1].ints, [128, 128, 128, 8, 0, 0, 256, 256 * 256]);
        assert_eq!(l[2].buffers[0], Buffer::Data);
        assert_eq!(p.scratch, 256 * 256 * 256);
        // A small volume: level 0 in one pass (8 planes a group), the later levels by the two
        // passes; asked for everywhere (`Some(true)`), a launch a level.
        let p = plan(&m, &[20, 30, 40], 3).unwrap();
        assert_eq!(p.passes()[..2], [Pass::Volume, Pass::Fused], "{name}");
        assert_eq!(launches(&p)[0].ints, [20, 30, 40, 8, 0, 0, 40, 1200]);
        assert_eq!(launches(&p)[0].groups, [1, 1, 3]);
        let every = LaunchConfig {
            one_pass_volumes: Some(true),
            ..volume
        };
        let p = plan(
            &cuda(by_name(name), Forward, elem, &every),
            &[20, 30, 40],
            3,
        )
        .unwrap();
        assert_eq!(p.passes(), [Pass::Volume; 3], "{name}");
        let l = launches(&p);
        assert_eq!(l[0].ints, [20, 30, 40, 8, 0, 0, 40, 1200]);
        assert_eq!(l[1].ints, [10, 15, 20, 8, 0, 15 * 40, 40, 1200]);
        assert_eq!(l[2].ints, [5, 8, 10, 8, 15 * 40, 0, 40, 1200]);
        assert_eq!(
            l.iter().map(|l| l.buffers[2]).collect::<Vec<_>>(),
            [Buffer::Scratch, Buffer::Scratch, Buffer::Data]
        );
        assert_eq!(p.scratch, 10 * 30 * 40);
        // The interleaved layout: level 0 in one pass, the source to the data, the later
        // levels by the tile kernel and the depth pass.
        let interleaved = emit_module(
            &Cuda,
            by_name(name),
            Forward,
            elem,
            Layout::Interleaved,
            &volume,
        )
        .unwrap();
        let p = plan(&interleaved, &[20, 30, 40], 2).unwrap();
        assert_eq!(
            p.passes(),
            [Pass::Volume, Pass::Fused, Pass::Window(Axis::Z)],
            "{name}"
        );
        let l = launches(&p);
        assert_eq!(l[0].buffers, [Buffer::Source, Buffer::Data]);
        assert_eq!(l[0].ints, [20, 30, 40, 8]);
        // Level 1 reads the low octant level 0 left in the data, through the scratch.
        assert_eq!(
            l[1].buffers,
            [Buffer::Data, Buffer::Scratch, Buffer::Scratch]
        );
        assert_eq!(l[2].buffers, [Buffer::Scratch, Buffer::Data]);
        assert!(!p.source_may_be_data);
        assert_eq!(p.scratch, 20 * 30 * 40);
        // In place, the plan without the kernel: the tile kernel and the depth pass per level,
        // the data lifted where it lies.
        let in_place = dwt_emit_c::plan_in_place(&m, &[20, 30, 40], 2)
            .unwrap()
            .expect("an in-place plan");
        assert!(in_place.runs_in_place());
        assert_eq!(
            in_place.passes(),
            [Pass::Fused, Pass::Window(Axis::Z)].repeat(2),
            "{name}"
        );
        // One level: one launch, no scratch.
        let p = plan(&m, &[512, 512, 512], 1).unwrap();
        assert_eq!(p.passes(), [Pass::Volume]);
        assert_eq!(launches(&p)[0].groups, [8, 16, 16]);
        assert_eq!(p.scratch, 0);
        assert_eq!(plan(&m, &[2, 2, 2], 1).unwrap().passes(), [Pass::Volume]);
        // Switched off, the tile kernel and the depth pass.
        let off = LaunchConfig {
            one_pass_volumes: Some(false),
            ..volume
        };
        let m = cuda(by_name(name), Forward, elem, &off);
        assert!(m.volume.is_none());
        let p = plan(&m, &[20, 30, 40], 1).unwrap();
        assert_eq!(p.passes(), [Pass::Fused, Pass::Window(Axis::Z)]);
        assert!(p.source_may_be_data);
        // A plan that runs in place needs no other.
        assert_eq!(dwt_emit_c::plan_in_place(&m, &[20, 30, 40], 1), Ok(None));
    }
    // OpenCL modules have it where asked for (each work-item lifting its own samples'
    // neighbours along x), not by default, where it was no faster; not inverses, i16 or f64,
    // images, or programs of other steps.
    assert!(module("LeGall53", Forward, &volume).volume.is_none());
    let everywhere = LaunchConfig {
        one_pass_volumes: Some(true),
        ..volume
    };
    let opencl = module("LeGall53", Forward, &everywhere);
    let kernel = &opencl
        .volume
        .as_ref()
        .expect("OpenCL's one-pass kernel")
        .kernel;
    assert_eq!(
        plan(&opencl, &[20, 30, 40], 2).unwrap().passes(),
        [Pass::Volume; 2]
    );
    assert!(!opencl.source().contains("__shfl") && opencl.source().contains(kernel.as_str()));
    let in_place = dwt_emit_c::plan_in_place(&opencl, &[20, 30, 40], 2)
        .unwrap()
        .expect("an in-place plan");
    assert_eq!(
        in_place.passes(),
        [Pass::Fused, Pass::Window(Axis::Z)].repeat(2)
    );
    assert!(cuda(by_name("LeGall53"), Forward, I16, &volume)
        .volume
        .is_none());
    assert!(cuda(by_name("Cdf53"), Forward, F64, &volume)
        .volume
        .is_none());
    let image = LaunchConfig::default().for_axes(2);
    assert!(cuda(by_name("LeGall53"), Forward, I32, &image)
        .volume
        .is_none());
    for name in [
        "DeslauriersDubuc97",
        "DeslauriersDubuc137",
        "HaarNoShift",
        "HaarWithShift",
        "Fidelity",
    ] {
        let w = by_name(name);
        let elem = of_kind(w, I32, F32);
        assert!(cuda(w, Forward, elem, &volume).volume.is_none(), "{name}");
    }
    // LeGall's steps on a periodic line: the kernel's reflected halo would be wrong there.
    let periodic = dwt_ir::parse_wavelet(
        "wavelet P { boundary = periodic; odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
    )
    .unwrap();
    assert!(cuda(&periodic, Forward, I32, &volume).volume.is_none());
    // Unequal taps: the reflection is the clamp rule only for symmetric steps.
    let lopsided = dwt_ir::parse_wavelet(
        "wavelet L { odd -= (even[0] + 3*even[1] + 2) >> 2; even += (odd[-1] + odd[0] + 2) >> 2; }",
    )
    .unwrap();
    assert!(cuda(&lopsided, Forward, I32, &volume).volume.is_none());
    let clamped = dwt_ir::parse_wavelet(
        "wavelet C { odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
    )
    .unwrap();
    assert!(cuda(&clamped, Forward, I32, &volume).volume.is_some());
    // One-tap steps (Haar's, above, and these), a step reaching two samples away, three
    // steps, an update first, or three pairs (a halo wider than the kernel loads along x), are
    // not the kernel's.
    for text in [
        "wavelet F { odd -= even[1]; even += (odd[-1] + 1) >> 1; }",
        "wavelet R { odd -= (even[-1] + even[2] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
        "wavelet S { odd -= even[0]; even += (odd[0] + 1) >> 1; odd -= even[0]; }",
        "wavelet T { odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; odd -= (even[0] + even[1] + 1) >> 1; }",
        "wavelet U { even += (odd[-1] + odd[0] + 2) >> 2; odd -= (even[0] + even[1] + 1) >> 1; }",
        "wavelet V { odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
    ] {
        let w = dwt_ir::parse_wavelet(text).unwrap();
        assert!(cuda(&w, Forward, I32, &volume).volume.is_none(), "{text}");
    }
}

/// A CUDA module of an inverse of one or two pairs of two-tap symmetric steps (LeGall 5/3, CDF
/// 5/3, the integer Daubechies 9/7, CDF 9/7) in 4-byte samples lifts a volume's levels in one
/// launch each in the Mallat layout, coarsest first: level 0 and each finer level whose launch
/// has 128 groups or more (every one where asked for), reading the band's high octants from
/// the source and its low octant where the coarser level left it (the source at the coarsest;
/// the scratch, alternately at its origin and below level 1's rows, where the tiles of the
/// levels the two passes lift leave it last), writing the band there, level 0's to the data.
/// In place and the switch off take the passes; OpenCL by default has the kernel for one pair
/// only.
#[test]
fn cuda_volume_inverses_of_two_tap_programs_lift_their_levels_in_one_pass() {
    use dwt_emit_c::{Axis, Pass, VOLUME_INVERSE_TILE, VOLUME_SEGMENT, VOLUME_THREADS};
    use Buffer::{Data, Scratch, Source};
    use Direction::{Forward, Inverse};
    use ElementType::{F32, I32};
    let volume = LaunchConfig::default().for_axes(3);
    let cuda = |name: &str, elem, config: &LaunchConfig| {
        let w = dwt_catalogue::by_name(name).unwrap();
        emit_module(&Cuda, w, Inverse, elem, Layout::Mallat, config).unwrap()
    };
    assert_eq!(VOLUME_INVERSE_TILE, [56, 32]);
    let seg = VOLUME_SEGMENT as i32;
    for (name, elem) in [
        ("LeGall53", I32),
        ("Cdf53", F32),
        ("Daubechies97Integer", I32),
        ("Cdf97", F32),
    ] {
        let m = cuda(name, elem, &volume);
        let kernel = &m.volume.as_ref().expect("the one-pass kernel").kernel;
        assert!(m.source().contains(kernel.as_str()), "{name}");
        // One level: one launch, the low octant in the source, no scratch; 3 tiles of 56x32,
        // the planes 8 to a group (towards 512 groups).
        let p = plan(&m, &[20, 30, 120], 1).unwrap();
        assert_eq!(p.passes(), [Pass::Volume], "{name}");
        let l = launches(&p);
        assert_eq!(&l[0].kernel, kernel);
        assert_eq!(l[0].buffers, [Source, Source, Data]);
        // (the low octant's base, the band's, the volume's pitches)
        assert_eq!(l[0].ints, [20, 30, 120, 8, 0, 0, 120, 3600]);
        assert_eq!((l[0].groups, l[0].block), ([3, 1, 3], [VOLUME_THREADS, 1]));
        assert_eq!(p.scratch, 0);
        assert!(p.reads_source && !p.source_may_be_data && !p.runs_in_place());
        // 256^3: 16 planes a group (640 groups); 512^3: 32 (2560).
        let ints = |n: usize| launches(&plan(&m, &[n, n, n], 1).unwrap())[0].ints[..4].to_vec();
        assert_eq!(ints(256), [256, 256, 256, 16]);
        assert_eq!(ints(512), [512, 512, 512, VOLUME_SEGMENT as i32]);
        // 512^3, three levels: a launch a level (level 2's 128^3 band 8 planes a group, 3x4
        // tiles, 192 groups), band 2 below band 1's 256 rows in the scratch, band 1 at its
        // origin.
        let (row, plane) = (512, 512 * 512);
        let p = plan(&m, &[512, 512, 512], 3).unwrap();
        assert_eq!(p.passes(), [Pass::Volume; 3], "{name}");
        let l = launches(&p);
        assert_eq!(l[0].buffers, [Source, Source, Scratch]);
        assert_eq!(l[0].ints, [128, 128, 128, 8, 0, 256 * row, row, plane]);
        assert_eq!(l[0].groups, [3, 4, 16]);
        assert_eq!(l[1].buffers, [Source, Scratch, Scratch]);
        assert_eq!(l[1].ints, [256, 256, 256, 16, 256 * row, 0, row, plane]);
        assert_eq!(l[2].buffers, [Source, Scratch, Data]);
        assert_eq!(l[2].ints, [512, 512, 512, seg, 0, 0, row, plane]);
        assert_eq!(p.scratch, 256 * 512 * 512);
        assert!(!p.source_may_be_data);
        // 256^3: level 2 (64^3, 32 groups) by the two passes, whose tiles leave band 2 below
        // band 1's 128 rows, where level 1's launch reads it.
        let p = plan(&m, &[256, 256, 256], 3).unwrap();
        let z = Pass::Window(Axis::Z);
        assert_eq!(
            p.passes(),
            [z, Pass::Fused, Pass::Volume, Pass::Volume],
            "{name}"
        );
        let l = launches(&p);
        assert_eq!(l[2].buffers, [Source, Scratch, Scratch]);
        assert_eq!(l[2].ints[4..], [128 * 256, 0, 256, 256 * 256]);
        assert_eq!(p.scratch, 256 * 256 * 256);
        // Three levels of a small volume: the coarser two by the depth pass (the source and the
        // lows to the data) and the tiles (the data to the scratch), then the kernel.
        let p = plan(&m, &[20, 30, 40], 3).unwrap();
        assert_eq!(
            p.passes(),
            [z, Pass::Fused, z, Pass::Fused, Pass::Volume],
            "{name}"
        );
        let l = launches(&p);
        let buffers: Vec<&[Buffer]> = l.iter().map(|l| &l.buffers[..]).collect();
        assert_eq!(
            buffers,
            [
                // (source, lows, out): the coarsest level's lows in the source
                &[Source, Source, Data][..],
                // (natural samples, low subband, high subbands)
                &[Scratch, Data, Data],
                &[Source, Scratch, Data],
                &[Scratch, Data, Data],
                // (source, low octant, out)
                &[Source, Scratch, Data],
            ],
            "{name}"
        );
        assert_eq!(p.scratch, 20 * 30 * 40);
        assert!(!p.source_may_be_data);
        // Asked for everywhere, a launch a level.
        let every = LaunchConfig {
            one_pass_volumes: Some(true),
            ..volume
        };
        let p = plan(&cuda(name, elem, &every), &[20, 30, 40], 3).unwrap();
        assert_eq!(p.passes(), [Pass::Volume; 3], "{name}");
        let l = launches(&p);
        assert_eq!(l[0].ints, [5, 8, 10, 8, 0, 15 * 40, 40, 1200]);
        assert_eq!(l[1].ints, [10, 15, 20, 8, 15 * 40, 0, 40, 1200]);
        assert_eq!(l[2].ints, [20, 30, 40, 8, 0, 0, 40, 1200]);
        assert_eq!(p.scratch, 10 * 30 * 40);
        // In place, or switched off: the depth pass and the tiles per level.
        let in_place = dwt_emit_c::plan_in_place(&m, &[20, 30, 40], 2)
            .unwrap()
            .expect("an in-place plan");
        assert_eq!(in_place.passes(), [z, Pass::Fused].repeat(2), "{name}");
        let off = LaunchConfig {
            one_pass_volumes: Some(false),
            ..volume
        };
        let m = cuda(name, elem, &off);
        assert!(m.volume.is_none());
        assert_eq!(
            plan(&m, &[20, 30, 40], 1).unwrap().passes(),
            [z, Pass::Fused]
        );
    }
    // OpenCL by default: the inverse of one pair, which was faster there than the two passes
    // (its forwards and the inverse of two pairs were not).
    assert!(module("LeGall53", Inverse, &volume).volume.is_some());
    assert!(module("Cdf97", Inverse, &volume).volume.is_none());
    assert!(module("LeGall53", Forward, &volume).volume.is_none());
}

#[test]
fn a_volume_level_of_one_plane_takes_the_passes() {
    let m = module(
        "LeGall53",
        Direction::Forward,
        &LaunchConfig::default().for_axes(3),
    );
    // 3 planes: level 1 has 2, level 2 one.
    assert!(plan(&m, &[3, 32, 32], 2).unwrap().is_fused());
    assert!(!plan(&m, &[3, 32, 32], 3).unwrap().is_fused());
    assert!(!plan(&m, &[1, 32, 32], 1).unwrap().is_fused());
    assert!(!plan(&m, &[8, 1, 32], 1).unwrap().is_fused());
    // A module emitted for images has no fused kernel over planes: volumes take the passes.
    let image = module("LeGall53", Direction::Forward, &LaunchConfig::default());
    assert!(!plan(&image, &[8, 32, 32], 1).unwrap().is_fused());
    // A module for volumes runs an image's fused pass too (one plane).
    assert!(plan(&m, &[32, 32], 1).unwrap().is_fused());
}

#[test]
fn every_launch_says_what_it_lifts() {
    use dwt_emit_c::{Axis, Pass};
    let two_pass = LaunchConfig {
        max_row_len: 64,
        ..LaunchConfig::two_pass()
    };
    let m = module("LeGall53", Direction::Forward, &two_pass);
    // Short rows: the rows kernel, then the columns' window; 3-D adds the depth window.
    assert_eq!(
        plan(&m, &[16, 48], 1).unwrap().passes(),
        [Pass::Rows, Pass::Window(Axis::Y)]
    );
    assert_eq!(
        plan(&m, &[4, 16, 48], 1).unwrap().passes(),
        [Pass::Rows, Pass::Window(Axis::Y), Pass::Window(Axis::Z)]
    );
    // Rows over the limit take the row-segments kernel (the pre-shift fused into it) ...
    assert_eq!(
        plan(&m, &[16, 100], 1).unwrap().passes(),
        [Pass::RowSegments, Pass::Window(Axis::Y)]
    );
    let cdf97 = module("Cdf97", Direction::Forward, &two_pass);
    assert_eq!(
        plan(&cdf97, &[16, 100], 1).unwrap().passes(),
        [Pass::RowSegments, Pass::Window(Axis::Y)]
    );
    // ... where its margins leave a segment at least half its group (32 polyphase indices per
    // phase at this limit): Fidelity's reach 10 on either side leaves 12, so its long rows
    // slide along x.
    let fidelity = module("Fidelity", Direction::Forward, &two_pass);
    assert!(fidelity.row_segments.is_none());
    assert_eq!(
        plan(&fidelity, &[16, 100], 1).unwrap().passes(),
        [Pass::Window(Axis::X), Pass::Window(Axis::Y)]
    );
    let segments = m.row_segments.as_ref().unwrap();
    assert_eq!((segments.segment, segments.margin), (24, 4));
    let fused = module("LeGall53", Direction::Forward, &LaunchConfig::default());
    assert_eq!(
        plan(&fused, &[16, 48], 2).unwrap().passes(),
        [Pass::Fused; 2]
    );
}

#[test]
fn rows_of_up_to_32_kib_take_the_rows_kernel() {
    use dwt_emit_c::{Axis, Pass};
    let two_pass = LaunchConfig::two_pass();
    let legall = module("LeGall53", Direction::Forward, &two_pass);
    assert_eq!(
        plan(&legall, &[2, 8192], 1).unwrap().passes(),
        [Pass::Rows, Pass::Window(Axis::Y)]
    );
    assert_eq!(
        plan(&legall, &[2, 8193], 1).unwrap().passes(),
        [Pass::RowSegments, Pass::Window(Axis::Y)]
    );
    // f64 works in 8-byte values: half as many fit the same local memory.
    let w = dwt_catalogue::by_name("Cdf97").unwrap();
    let f64s = emit_module(
        &OpenCl,
        w,
        Direction::Forward,
        ElementType::F64,
        Layout::Mallat,
        &two_pass,
    )
    .unwrap();
    assert_eq!(two_pass.row_limit(ElementType::F64), 4096);
    assert_eq!(
        plan(&f64s, &[2, 4096], 1).unwrap().passes(),
        [Pass::Rows, Pass::Window(Axis::Y)]
    );
    assert_eq!(
        plan(&f64s, &[2, 4097], 1).unwrap().passes(),
        [Pass::RowSegments, Pass::Window(Axis::Y)]
    );
    // The rows kernel holds exactly the row limit's samples, whatever the type.
    for (m, limit) in [(&legall, 8192), (&f64s, 4096)] {
        let half = limit / 2;
        let arrays = m.source().matches(&format!("even[{half}];")).count()
            + m.source().matches(&format!("odd[{half}];")).count();
        assert_eq!(arrays, 2, "{limit}");
    }
}

/// The window launches of a plan: its groups and its segment and margin arguments.
fn windows(p: &dwt_emit_c::LaunchPlan) -> Vec<([usize; 3], i32, i32)> {
    p.steps
        .iter()
        .filter_map(|s| match s {
            Step::Launch(l) if matches!(l.pass, dwt_emit_c::Pass::Window(_)) => {
                Some((l.groups, l.ints[6], l.ints[7]))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn columns_of_too_few_slabs_split_into_segments_read_from_a_copy() {
    use dwt_emit_c::column_segment_rows;
    let two_pass = LaunchConfig::two_pass();
    // LeGall 5/3 reaches 4 polyphase indices by its two steps (1 + 1 each): margins of 8 rows.
    let m = module("LeGall53", Direction::Forward, &two_pass);
    assert_eq!(m.vertical.margin, 8);
    let fidelity = module("Fidelity", Direction::Forward, &two_pass);
    assert_eq!(fidelity.vertical.margin, 20);
    // 8192 columns are 256 slabs: 8 segments of 1024 rows make 2048 groups.
    assert_eq!(
        windows(&plan(&m, &[8192, 8192], 1).unwrap()),
        [([256, 1, 8], 1024, 8)]
    );
    // 64 columns of 3000 rows are 2 slabs: the segments stop at 128 rows (23 of 132) ...
    assert_eq!(
        windows(&plan(&m, &[3000, 64], 1).unwrap()),
        [([2, 1, 23], 132, 8)]
    );
    // ... or at 8 margins, for a program that reaches far (Fidelity: 160 rows, 18 of 168).
    assert_eq!(column_segment_rows(3000, 2, 20, 64, None), 168);
    // Enough slabs, short columns or `Some(0)`: whole columns, no margins.
    assert_eq!(
        windows(&plan(&m, &[1000, 65536], 1).unwrap()),
        [([2048, 1, 1], 1000, 0)]
    );
    assert_eq!(
        windows(&plan(&m, &[200, 64], 1).unwrap()),
        [([2, 1, 1], 200, 0)]
    );
    let whole = module(
        "LeGall53",
        Direction::Forward,
        &LaunchConfig {
            column_segment: Some(0),
            ..two_pass
        },
    );
    assert_eq!(
        windows(&plan(&whole, &[3000, 64], 1).unwrap()),
        [([2, 1, 1], 3000, 0)]
    );
    // A set length is rounded up to even, and to at most 65535 segments per launch.
    assert_eq!(column_segment_rows(3000, 2, 8, 64, Some(7)), 8);
    assert_eq!(column_segment_rows(300_000, 2, 8, 64, Some(2)), 6);
}

/// A set column segment longer than the columns is whole columns, however long: the plan took
/// it as the kernels' `int` argument and refused it ("1099511627776 does not fit the kernels'
/// int indices"), and `usize::MAX` overflowed rounding it up to even.
#[test]
fn column_segments_longer_than_the_columns_are_whole_columns() {
    use dwt_emit_c::column_segment_rows;
    let with = |column_segment| {
        let config = LaunchConfig {
            column_segment,
            ..LaunchConfig::two_pass()
        };
        plan(
            &module("LeGall53", Direction::Forward, &config),
            &[3000, 64],
            2,
        )
        .unwrap()
    };
    let whole = with(Some(0));
    for setting in [3000, 3001, 1 << 31, 1 << 40, usize::MAX] {
        assert_eq!(with(Some(setting)), whole, "{setting}");
        assert_eq!(column_segment_rows(3000, 2, 8, 64, Some(setting)), 3000);
    }
}

/// A plan's steps as the buffers they read and write: `(pass, [from, to])` for a launch (`to`
/// the same for a kernel in place), `copy` for a band copy from the data to the scratch.
fn flow(p: &dwt_emit_c::LaunchPlan) -> Vec<(&'static str, [Buffer; 2])> {
    use dwt_emit_c::{Axis, Pass};
    p.steps
        .iter()
        .map(|s| match s {
            Step::Copy(_) => ("copy", [Buffer::Data, Buffer::Scratch]),
            Step::Launch(l) => {
                let name = match l.pass {
                    Pass::Rows => "rows",
                    Pass::Shift => "shift",
                    Pass::RowSegments => "row segments",
                    Pass::Window(Axis::X) => "window x",
                    Pass::Window(Axis::Y) => "window y",
                    Pass::Window(Axis::Z) => "window z",
                    Pass::Fused => "fused",
                    Pass::Pyramid => "pyramid",
                    Pass::EvenRows => "even rows",
                    Pass::LevelPair => "level pair",
                    Pass::Volume => "volume",
                    Pass::VolumePairs => "volume pairs",
                    Pass::VolumePyramid => "volume pyramid",
                };
                (name, [l.buffers[0], *l.buffers.last().unwrap()])
            }
        })
        .collect()
}

#[test]
fn two_pass_levels_move_the_band_between_data_and_scratch_without_copies() {
    use Buffer::{Data, Scratch, Source};
    let two_pass = LaunchConfig {
        max_row_len: 64,
        ..LaunchConfig::two_pass()
    };
    let emit = |name: &str, layout: Layout| module_in(name, Direction::Forward, layout, &two_pass);
    let mallat = emit("LeGall53", Layout::Mallat);
    let interleaved = emit("LeGall53", Layout::Interleaved);
    // Mallat: the window reads one buffer and writes the other, so the rows kernel writes the
    // scratch for it (the band copy each level took before is gone); level 0's rows kernel
    // reads the source (no copy of the input out of place) ...
    let p = plan(&mallat, &[40, 48], 2).unwrap();
    assert_eq!(
        flow(&p),
        [
            ("rows", [Source, Scratch]),
            ("window y", [Scratch, Data]),
            ("rows", [Data, Scratch]),
            ("window y", [Scratch, Data])
        ]
    );
    assert!(p.reads_source && p.source_may_be_data);
    // ... and in 3-D, where two windows cross, the rows write the data (in place when the
    // source is the data).
    assert_eq!(
        flow(&plan(&mallat, &[6, 40, 48], 1).unwrap()),
        [
            ("rows", [Source, Data]),
            ("window y", [Data, Scratch]),
            ("window z", [Scratch, Data])
        ]
    );
    // Interleaved whole columns lift in place; split ones (3000 rows) like Mallat's.
    assert_eq!(
        flow(&plan(&interleaved, &[200, 48], 1).unwrap()),
        [("rows", [Source, Data]), ("window y", [Data, Data])]
    );
    assert_eq!(
        flow(&plan(&interleaved, &[3000, 48], 1).unwrap()),
        [("rows", [Source, Scratch]), ("window y", [Scratch, Data])]
    );
    // Row segments cross too: with whole columns in place the level starts from a copy, and
    // the plan works on the data (a copy of the source, out of place).
    let p = plan(&interleaved, &[40, 100], 1).unwrap();
    assert!(!p.reads_source);
    assert_eq!(
        flow(&p),
        [
            ("copy", [Data, Scratch]),
            ("row segments", [Scratch, Data]),
            ("window y", [Data, Data])
        ]
    );
    assert_eq!(
        flow(&plan(&mallat, &[40, 100], 1).unwrap()),
        [
            ("row segments", [Data, Scratch]),
            ("window y", [Scratch, Data])
        ]
    );
    // The inverse lifts its rows last: they bring the band back to the data. Each level's
    // first window reads the source, its low quadrant (`lows`, the second buffer) from the data
    // below the coarsest level.
    let inverse = module("LeGall53", Direction::Inverse, &two_pass);
    let p = plan(&inverse, &[40, 48], 2).unwrap();
    assert_eq!(
        flow(&p),
        [("window y", [Source, Scratch]), ("rows", [Scratch, Data])].repeat(2)
    );
    assert!(p.reads_source && p.source_may_be_data);
    let lows: Vec<Buffer> = launches(&p)
        .iter()
        .filter(|l| matches!(l.pass, dwt_emit_c::Pass::Window(_)))
        .map(|l| l.buffers[1])
        .collect();
    assert_eq!(lows, [Source, Data]);
    // A 2-D band of one row opens its level with the rows kernel, which has no `lows`: that
    // inverse works on the data (a copy of the source, out of place).
    assert!(!plan(&inverse, &[1, 48], 1).unwrap().reads_source);
    // Fidelity's long rows slide along x (no row segments at this limit).
    let fidelity = emit("Fidelity", Layout::Mallat);
    assert_eq!(
        flow(&plan(&fidelity, &[40, 100], 1).unwrap()),
        [("window x", [Data, Scratch]), ("window y", [Scratch, Data])]
    );
}

/// The kernels defined in `source`, by the emitted `__kernel void NAME(` / `void NAME(` lines.
fn defined_kernels(source: &str, module: &dwt_emit_c::KernelModule) -> Vec<String> {
    let mut names = vec![module.rows_kernel.clone()];
    names.extend(module.shift_kernel.clone());
    names.extend(module.row_segments.as_ref().map(|s| s.kernel.clone()));
    names.push(module.vertical.columns_kernel.clone());
    names.extend(module.tile.as_ref().map(|t| t.kernel.clone()));
    names
        .into_iter()
        .filter(|n| source.contains(&format!("void {n}(")))
        .collect()
}

#[test]
fn executors_build_only_the_kernels_a_plan_launches() {
    // The whole module defines all five kernels of a shifting wavelet ...
    let m = module("LeGall53", Direction::Forward, &LaunchConfig::default());
    let whole = m.source();
    assert_eq!(defined_kernels(&whole, &m).len(), 5, "{whole}");
    for (shape, levels, expect) in [
        // ... a 1-D transform launches its rows kernel, a long row the row segments,
        (&[64usize][..], 2u32, vec![m.rows_kernel.clone()]),
        (
            &[10_000][..],
            1,
            vec![m.row_segments.as_ref().unwrap().kernel.clone()],
        ),
        // ... a fused 2-D transform its tile.
        (
            &[64, 64][..],
            3,
            vec![m.tile.as_ref().unwrap().kernel.clone()],
        ),
    ] {
        let p = plan(&m, shape, levels).unwrap();
        let source = m.source_for(&p);
        let mut built = defined_kernels(&source, &m);
        let mut launched: Vec<String> = p.kernels().iter().map(|k| k.to_string()).collect();
        built.sort();
        launched.sort();
        let mut expect = expect.clone();
        expect.sort();
        assert_eq!(built, launched, "{shape:?}");
        assert_eq!(built, expect, "{shape:?}");
        // The pruned source is the module's own text with the other kernels left out: after
        // its first line (which names the layout, or none for the fused kernel alone), its lines
        // are a subsequence of the module's.
        let mut module_lines = whole.lines();
        for line in source.lines().skip(1) {
            assert!(
                module_lines.any(|l| l == line),
                "{shape:?}: `{line}` is not the module's, in order"
            );
        }
        assert!(source.len() < whole.len());
        let tile_only = shape.len() == 2;
        assert_eq!(!source.contains("mallat"), tile_only, "{shape:?}");
    }
    // Each kernel alone, for an executor that builds one program per kernel.
    for name in defined_kernels(&whole, &m) {
        let source = m.kernel_source(&name).unwrap();
        assert_eq!(defined_kernels(&source, &m), vec![name.clone()]);
    }
    assert!(m.kernel_source("no_such_kernel").is_none());
    // The fused kernel takes every subband's base and steps: one program for both layouts.
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let per_layout = |config: &LaunchConfig, shape: &[usize], levels: u32| {
        [Layout::Mallat, Layout::Interleaved].map(|layout| {
            let m = emit_module(
                &OpenCl,
                w,
                Direction::Forward,
                ElementType::I32,
                layout,
                config,
            );
            let m = m.unwrap();
            m.source_for(&plan(&m, shape, levels).unwrap())
        })
    };
    let [mallat, interleaved] = per_layout(&LaunchConfig::default(), &[64, 64], 1);
    assert_eq!(mallat, interleaved);
    assert!(mallat.contains("any layout"));
    // Over two levels the interleaved forward (where the image is large enough) launches the
    // tile kernel's variant for its first level and the even-rows kernel last, both written for
    // any layout too: the Mallat source (level 1's kernel) and those two.
    let always = LaunchConfig {
        even_rows_from: Some(0),
        ..LaunchConfig::default()
    };
    let [mallat, interleaved] = per_layout(&always, &[64, 64], 2);
    let (head, even_rows) = interleaved.split_at(mallat.len());
    assert_eq!(head, mallat);
    assert!(even_rows.contains("void legall53_forward_even_rows_tile("));
    assert!(even_rows.contains("void legall53_forward_even_rows("));
    // Not so where the sliding window (which stores per layout) runs too.
    let [mallat, interleaved] = per_layout(&LaunchConfig::default().for_axes(3), &[8, 64, 64], 2);
    assert_ne!(mallat, interleaved);
}

/// The measuring planner's candidates: the configuration given first, distinct names, the two
/// passes among them, and the access-form knobs really change the emitted inner tiles: a short
/// program (LeGall 5/3, 4 taps) takes the plain forms by rule and the lean ones when asked, a
/// long one (CDF 9/7) the other way round.
#[test]
fn candidates_start_with_the_given_config_and_change_the_kernels() {
    let given = LaunchConfig {
        window_height: 32,
        ..LaunchConfig::default()
    };
    let c = given.candidates();
    assert_eq!(c[0].config, given);
    let mut names: Vec<_> = c.iter().map(|c| c.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), c.len(), "names are distinct");
    assert!(c.iter().any(|c| c.config.strategy == Strategy::TwoPass));
    assert!(
        c.iter().all(|c| c.config.window_height == 32),
        "built on the given config"
    );
    let source =
        |name: &str, config: &LaunchConfig| module(name, Direction::Forward, config).source();
    let with = |lean: Option<bool>| LaunchConfig {
        lean_access: lean,
        ..LaunchConfig::default()
    };
    for (name, rule) in [("LeGall53", false), ("Cdf97", true)] {
        let default = source(name, &with(None));
        assert_eq!(default, source(name, &with(Some(rule))), "{name}: the rule");
        assert_ne!(
            default,
            source(name, &with(Some(!rule))),
            "{name}: the other form"
        );
    }
    // The row load's unroll: integer programs whole by rule; by 4 when asked.
    let whole = |w: Option<bool>| LaunchConfig {
        whole_row_load: w,
        ..LaunchConfig::default()
    };
    let dd = source("DeslauriersDubuc137", &whole(None));
    assert_eq!(dd, source("DeslauriersDubuc137", &whole(Some(true))));
    assert_ne!(dd, source("DeslauriersDubuc137", &whole(Some(false))));
}

/// The CUDA forward is held to full occupancy (`__launch_bounds__(256, 8)`, 32 registers) only
/// where its first register pass keeps at most 16 values per work-item across its barriers:
/// the default tiles do; two rounds (tiles of 32x32 of 256) or segments of 16 keep 32, which
/// spilled under the cap (the NVRTC test checks that none spills). Under the clamp rule only
/// where the inner tiles copy asynchronously, and groups of 512 copying so not where they
/// pre-shift or clamp. The inverse is never capped.
#[test]
fn the_forward_is_capped_only_where_its_kept_registers_fit() {
    let bounds_of = |name: &str, elem, direction: Direction, config: &LaunchConfig| -> String {
        let w = dwt_catalogue::by_name(name).unwrap();
        let m = emit_module(&Cuda, w, direction, elem, Layout::Mallat, config).unwrap();
        let tile = m.tile.as_ref().expect("a fused kernel").kernel.clone();
        let source = m.source();
        let at = source.find(&format!("\n{tile}(")).expect("the tile kernel");
        let line = source[..at].lines().last().unwrap();
        line.trim_start_matches("extern \"C\" __global__ void ")
            .to_string()
    };
    let bounds =
        |direction, config: &LaunchConfig| bounds_of("Cdf97", ElementType::F32, direction, config);
    let default = LaunchConfig::default();
    let shape = |tile, segment| LaunchConfig {
        tile,
        segment,
        ..default
    };
    assert_eq!(
        bounds(Direction::Forward, &default),
        "__launch_bounds__(256, 8)"
    );
    assert_eq!(
        bounds(Direction::Forward, &shape([32, 32], 8)),
        "__launch_bounds__(256)",
        "two rounds"
    );
    assert_eq!(
        bounds(Direction::Forward, &shape([64, 16], 16)),
        "__launch_bounds__(256)",
        "segments of 16"
    );
    assert_eq!(
        bounds(Direction::Inverse, &default),
        "__launch_bounds__(256)"
    );
    // Under the clamp rule only where the inner tiles copy asynchronously, in groups of up to
    // 256 work-items.
    let copies = |async_load, tile_threads| LaunchConfig {
        async_load: Some(async_load),
        tile_threads,
        ..default
    };
    let clamped = |config: &LaunchConfig| {
        bounds_of(
            "DeslauriersDubuc137",
            ElementType::I32,
            Direction::Forward,
            config,
        )
    };
    assert_eq!(clamped(&copies(true, 256)), "__launch_bounds__(256, 8)");
    assert_eq!(clamped(&copies(false, 256)), "__launch_bounds__(256)");
    assert_eq!(clamped(&copies(true, 512)), "__launch_bounds__(512)");
    // Groups of 512 copying are capped only where nothing is pre-shifted (those spilled).
    let in_512 = |name: &str, elem| bounds_of(name, elem, Direction::Forward, &copies(true, 512));
    assert_eq!(
        in_512("Daubechies97Integer", ElementType::I32),
        "__launch_bounds__(512)"
    );
    assert_eq!(
        in_512("Cdf97", ElementType::F32),
        "__launch_bounds__(512, 4)"
    );
    assert_eq!(
        bounds_of(
            "DeslauriersDubuc137",
            ElementType::I16,
            Direction::Forward,
            &default
        ),
        "__launch_bounds__(256)",
        "i16 never copies so"
    );
}

/// `LaunchConfig::long_filter_tiles`: by default the inverses of the programs with a step
/// reading four neighbouring indices or more (Deslauriers-Dubuc, Fidelity) and the forward of
/// the one reading eight (Fidelity) take the wider tiles with segments of 16 on planes of at
/// least 3840x2160 samples, every other integer and f32 inverse but Daubechies 9/7's on planes
/// larger than 4096x4096 (none in f64); from 4096x4096 Fidelity takes 48x32 both ways (not its
/// forward in i16), the forwards loading six halo indices or more per line (CDF 9/7, Daubechies
/// 9/7, Deslauriers-Dubuc (13,7)) and Daubechies 9/7's inverse 32x24 with segments of 8 (not in
/// f64);
/// nothing else changes; the option turns it off, or on for every size. Where it applies the
/// request keeps the fused pass and its kind of edge tiles.
#[test]
fn long_filters_take_wider_tiles_on_large_planes() {
    let default = LaunchConfig::default();
    let configured = |c: &LaunchConfig| (c.tile, c.tile_threads, c.segment);
    let (inverse_tiles, forward_tiles) = (([64, 16], 256, 16), ([32, 32], 256, 16));
    let (widest, taller) = (([48, 32], 256, 16), ([32, 24], 256, 8));
    let tall = |plane: usize| plane >= 4096 * 4096;
    let widened_plane =
        |name: &str, direction: Direction, plane: usize, volume: bool| match (name, direction) {
            ("Fidelity", _) if tall(plane) || volume => Some(widest),
            ("DeslauriersDubuc97" | "DeslauriersDubuc137" | "Fidelity", Direction::Inverse) => {
                Some(inverse_tiles)
            }
            ("Daubechies97Integer", Direction::Inverse) if tall(plane) => Some(taller),
            ("Daubechies97Integer", Direction::Inverse) => None,
            (_, Direction::Inverse) if plane > 4096 * 4096 => Some(inverse_tiles),
            ("Fidelity", Direction::Forward) => Some(forward_tiles),
            ("Cdf97" | "Daubechies97Integer" | "DeslauriersDubuc137", Direction::Forward)
                if tall(plane) =>
            {
                Some(taller)
            }
            _ => None,
        };
    // A volume of 256^3 samples or more: Fidelity's tallest tiles whatever its planes (the next
    // test).
    let widened = |name: &str, direction: Direction, shape: &[usize]| {
        let plane: usize = shape[shape.len() - 2..].iter().product();
        let volume = shape.len() == 3 && shape.iter().product::<usize>() >= 256 * 256 * 256;
        widened_plane(name, direction, plane, volume)
    };
    let off = LaunchConfig {
        long_filter_tiles: Some(false),
        ..default
    };
    let always = LaunchConfig {
        long_filter_tiles: Some(true),
        ..default
    };
    let mut widened_requests = 0;
    for w in dwt_catalogue::all() {
        let elem = of_kind(w, ElementType::I32, ElementType::F32);
        for direction in [Direction::Forward, Direction::Inverse] {
            let resolve =
                |c: &LaunchConfig, shape: &[usize]| c.for_request(w, direction, elem, shape);
            for shape in [&[2160, 3840][..], &[8192, 8192], &[8, 2160, 3840]] {
                let expected = widened(&w.name, direction, shape);
                let c = resolve(&default, shape);
                let what = format!("{} {direction:?} {shape:?}", w.name);
                assert_eq!(
                    configured(&c),
                    expected.unwrap_or(configured(&default)),
                    "{what}"
                );
                assert_eq!(c.planes, shape.len() == 3, "{what}");
                assert_eq!(
                    configured(&resolve(&off, shape)),
                    configured(&default),
                    "{what}"
                );
                widened_requests += expected.is_some() as usize;
                // The wider tiles keep the fused pass and the kind of edge tiles the request has
                // on the configured tiles.
                let m = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &c).unwrap();
                let d = module(&w.name, direction, &resolve(&off, shape));
                let edges = |m: &dwt_emit_c::KernelModule| {
                    std::mem::discriminant(&m.tile.as_ref().unwrap().edges)
                };
                assert_eq!(edges(&m), edges(&d), "{what}");
                assert!(plan(&m, shape, 3).unwrap().is_fused(), "{what}");
            }
            // Smaller planes (the last one sample short of 3840x2160), 1-D and two-pass
            // requests keep the configured tiles, but for the first level of a small forward
            // (`FIRST_LEVEL_TILE`, its own test); `Some(true)` widens at every size.
            let expected = widened_plane(&w.name, direction, usize::MAX, false);
            for shape in [&[1080, 1920][..], &[2048, 2048], &[2159, 3840], &[17, 33]] {
                let what = format!("{} {direction:?} {shape:?}", w.name);
                let first_level = direction == Direction::Forward
                    && shape == [1080, 1920]
                    && ["DeslauriersDubuc97", "DeslauriersDubuc137", "Fidelity"]
                        .contains(&w.name.as_str());
                assert_eq!(
                    configured(&resolve(&default, shape)),
                    match first_level {
                        true => dwt_emit_c::FIRST_LEVEL_TILE,
                        false => configured(&default),
                    },
                    "{what}"
                );
                let small = expected.unwrap_or(configured(&default));
                assert_eq!(configured(&resolve(&always, shape)), small, "{what}");
            }
            let line = resolve(&always, &[1 << 24]);
            assert_eq!(configured(&line), configured(&default), "{} 1-D", w.name);
            let two_pass = resolve(
                &LaunchConfig {
                    long_filter_tiles: Some(true),
                    ..LaunchConfig::two_pass()
                },
                &[8192, 8192],
            );
            assert_eq!(
                configured(&two_pass),
                configured(&default),
                "{} two passes",
                w.name
            );
        }
    }
    // The programs the conformance suites run with the option forced on are those it gives
    // tiles of their own: widened at 3840x2160, or at 8192^2 other than as every short
    // program's inverse is.
    let mut own_tiles: Vec<&str> = (dwt_catalogue::all().into_iter())
        .filter(|w| {
            let elem = of_kind(w, ElementType::I32, ElementType::F32);
            [Direction::Forward, Direction::Inverse]
                .into_iter()
                .any(|d| {
                    let at = |shape: &[usize]| configured(&default.for_request(w, d, elem, shape));
                    let large = at(&[8192, 8192]);
                    at(&[2160, 3840]) != configured(&default)
                        || (large != configured(&default) && large != inverse_tiles)
                })
        })
        .map(|w| w.name.as_str())
        .collect();
    let mut listed = dwt_runtime::conformance::LONG_FILTER_PROGRAMS.to_vec();
    own_tiles.sort();
    listed.sort();
    assert_eq!(own_tiles, listed);
    assert_eq!(
        widened_requests,
        3 * 4 + 5 + 4,
        "four widened programs, three shapes each, five more inverses and four more forwards at \
         8192^2"
    );
    // The short programs' inverses: not at 4096^2, nor in f64 (CDF 9/7 lost there at every
    // size); in i16 as in i32. The taller tiles: from 4096^2 (not one row short of it), in i16
    // as in i32 but for Fidelity's forward, not in f64 (where the first shapes stay).
    let (i16, f32, f64) = (ElementType::I16, ElementType::F32, ElementType::F64);
    let (inverse, forward) = (Direction::Inverse, Direction::Forward);
    for (name, direction, elem, shape, expected) in [
        ("Cdf97", inverse, f32, [4096, 4096], None),
        ("Cdf97", inverse, f64, [8192, 8192], None),
        ("Cdf53", inverse, f64, [8192, 8192], None),
        ("LeGall53", inverse, i16, [8192, 8192], Some(inverse_tiles)),
        (
            "Daubechies97Integer",
            inverse,
            i16,
            [8192, 8192],
            Some(taller),
        ),
        (
            "Daubechies97Integer",
            inverse,
            i16,
            [4096, 4096],
            Some(taller),
        ),
        ("Daubechies97Integer", inverse, i16, [4095, 4096], None),
        ("Cdf97", forward, f32, [4096, 4096], Some(taller)),
        ("Cdf97", forward, f64, [8192, 8192], None),
        // 32x32 in f64 would not fit Fidelity's halo: the configured tiles.
        ("Fidelity", forward, f64, [8192, 8192], None),
        ("Fidelity", inverse, i16, [4096, 4096], Some(widest)),
        // Fidelity's forward in i16 lost on 48x32 (its tiles load through registers).
        ("Fidelity", forward, i16, [8192, 8192], Some(forward_tiles)),
        ("Fidelity", inverse, i16, [4095, 4096], Some(inverse_tiles)),
    ] {
        let w = dwt_catalogue::by_name(name).unwrap();
        let c = default.for_request(w, direction, elem, &shape);
        let expected = expected.unwrap_or(configured(&default));
        let what = format!("{name} {direction:?} {elem:?} {shape:?}");
        assert_eq!(configured(&c), expected, "{what}");
    }
    // An integer program of more than two steps with one spanning four indices: its inverse
    // keeps the wider tiles (32x24 is for programs of short steps, as Daubechies 9/7).
    let w = dwt_ir::parse_wavelet(
        "wavelet ThreeSteps {
            kind = integer;
            odd -= (-even[-1] + 9*even[0] + 9*even[1] - even[2] + 8) >> 4;
            even += (odd[-1] + odd[0] + 2) >> 2;
            odd -= (even[0] + even[1] + 1) >> 1;
        }",
    )
    .unwrap();
    let c = default.for_request(&w, inverse, ElementType::I32, &[8192, 8192]);
    assert_eq!(configured(&c), inverse_tiles, "ThreeSteps");
}

/// Where the wider tiles of `LaunchConfig::long_filter_tiles` would not hold a program's halo in
/// local memory (a fourteen-tap step in f64) but the configured ones do, the request keeps the
/// configured tiles rather than losing the fused pass; where the first shape of the rule would
/// not (48x32 in f32) but the next one does, it takes the next one.
#[test]
fn long_filter_tiles_keep_the_configured_ones_where_their_halo_does_not_fit() {
    let w = dwt_ir::parse_wavelet(
        "wavelet LongStep {
            kind = float;
            odd -= 0.01*even[-6] + 0.01*even[-5] + 0.02*even[-4] + 0.03*even[-3] + 0.04*even[-2] + 0.1*even[-1]
                 + 0.29*even[0] + 0.29*even[1] + 0.1*even[2] + 0.04*even[3] + 0.03*even[4] + 0.02*even[5]
                 + 0.01*even[6] + 0.01*even[7];
            even += 0.25*odd[-1] + 0.25*odd[0];
        }",
    )
    .unwrap();
    let default = LaunchConfig::default();
    // At 3840x2160 in f32 the wider tiles fit, in f64 they would not: the test's premise,
    // checked.
    let resolve = |elem, shape: &[usize]| default.for_request(&w, Direction::Inverse, elem, shape);
    let wide = resolve(ElementType::F32, &[2160, 3840]);
    assert_eq!((wide.tile, wide.segment), ([64, 16], 16));
    let m = |elem, c: &LaunchConfig| {
        emit_module(&Cuda, &w, Direction::Inverse, elem, Layout::Mallat, c).unwrap()
    };
    assert!(
        m(ElementType::F64, &wide).tile.is_err(),
        "the wide f64 tile fits after all"
    );
    // At 8192^2 the 48x32 tiles come first, but in f32 they would not hold the halo either: the
    // next shape, the wider tiles, which do.
    let tallest = LaunchConfig {
        tile: [48, 32],
        ..wide
    };
    assert!(m(ElementType::F32, &tallest).tile.is_err(), "48x32 fits");
    let large = resolve(ElementType::F32, &[8192, 8192]);
    assert_eq!((large.tile, large.segment), ([64, 16], 16));
    for shape in [&[2160, 3840][..], &[8192, 8192]] {
        let kept = resolve(ElementType::F64, shape);
        assert_eq!(
            (kept.tile, kept.tile_threads, kept.segment),
            (default.tile, default.tile_threads, default.segment),
            "{shape:?}"
        );
        assert!(plan(&m(ElementType::F64, &kept), shape, 1)
            .unwrap()
            .is_fused());
    }
}

/// The forward's edge tiles store each segment of the subbands under one condition (does it
/// begin in the band?), indices beyond the band at its last index: no condition per stored index,
/// which made the edge tiles three times slower than the inner ones in their last pass at
/// 1920x1080's small levels. Every program whose forward edge tiles lift in registers, both
/// dialects; groups of 512 work-items keep a condition per index (the other form spilled there).
#[test]
fn forward_edge_tiles_store_each_segment_under_one_condition() {
    let per_index = |source: &str| source.contains("if (i0 + 1 < ny0)");
    let one_per_segment = |source: &str| source.contains("const int last0 = ny0 - 1 - i0;");
    let mut checked = 0;
    for w in dwt_catalogue::all() {
        let default = module(&w.name, Direction::Forward, &LaunchConfig::default());
        let edges = default.tile.as_ref().unwrap().edges;
        if edges == EdgeTiles::BoundaryRule {
            continue;
        }
        for (dialect, name) in [
            (&OpenCl as &dyn dwt_emit_c::Dialect, "OpenCL"),
            (&Cuda, "CUDA"),
        ] {
            let elem = of_kind(w, ElementType::I32, ElementType::F32);
            let source = |config: &LaunchConfig| {
                emit_module(dialect, w, Direction::Forward, elem, Layout::Mallat, config)
                    .unwrap()
                    .source()
            };
            let s = source(&LaunchConfig::default());
            assert!(one_per_segment(&s) && !per_index(&s), "{} {name}", w.name);
            let wide = LaunchConfig {
                tile: [64, 16],
                tile_threads: 512,
                long_filter_tiles: Some(false),
                ..LaunchConfig::default()
            };
            let s = source(&wide);
            assert!(
                per_index(&s) && !one_per_segment(&s),
                "{} {name} 512",
                w.name
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 12,
        "{checked} programs and dialects: the catalogue's register edges"
    );
}

/// `LaunchConfig::clamped_edges_reach_back` by default (`None`): a request of at most 1920x1080
/// samples, or any 2-D forward, takes Haar's forward edge tiles in registers under the clamp
/// rule, a larger volume the general path; `Some(_)` decides whatever the size. Programs whose
/// clamped segments already hold the index are the same either way.
#[test]
fn haars_forward_edge_tiles_in_registers_but_in_large_volumes() {
    let edges = |name: &str, config: &LaunchConfig, shape: &[usize]| {
        let w = dwt_catalogue::by_name(name).unwrap();
        let c = config.for_request(w, Direction::Forward, ElementType::I32, shape);
        let m = emit_module(
            &Cuda,
            w,
            Direction::Forward,
            ElementType::I32,
            Layout::Mallat,
            &c,
        )
        .unwrap();
        (m.tile.as_ref().unwrap().edges, m.source())
    };
    let default = LaunchConfig::default();
    let [on, off] = [Some(true), Some(false)].map(|reach| LaunchConfig {
        clamped_edges_reach_back: reach,
        ..default
    });
    for name in ["HaarNoShift", "HaarWithShift"] {
        let small_or_plane = [
            &[1080, 1920][..],
            &[17, 33],
            &[4, 512, 512],
            &[1081, 1920],
            &[8192, 8192],
        ];
        for shape in small_or_plane {
            assert_eq!(
                edges(name, &default, shape).0,
                EdgeTiles::Clamped,
                "{name} {shape:?}"
            );
            assert_eq!(
                edges(name, &off, shape).0,
                EdgeTiles::BoundaryRule,
                "{name} {shape:?}"
            );
        }
        for shape in [&[9, 512, 512][..], &[64, 512, 512]] {
            assert_eq!(
                edges(name, &default, shape).0,
                EdgeTiles::BoundaryRule,
                "{name} {shape:?}"
            );
            assert_eq!(
                edges(name, &on, shape).0,
                EdgeTiles::Clamped,
                "{name} {shape:?}"
            );
        }
    }
    // Deslauriers-Dubuc (9,7)'s clamped segments reach back already: the same kernel either way.
    let small = [1080, 1920];
    assert_eq!(
        edges("DeslauriersDubuc97", &default, &small),
        edges("DeslauriersDubuc97", &off, &small)
    );
}

/// The inverse's edge tiles with reflected halos and no edge maps (LeGall 5/3, CDF 5/3, Haar)
/// store the band's (even, odd) pairs as the inner tiles do, one vector store under one
/// condition per pair (half a pair only at the end of an odd-width band): one sample at a time
/// under a condition each made their store twice an inner tile's at 1920x1080 (a clock64 probe).
/// The other programs keep one sample at a time (the pairs slowed their whole kernel). Every
/// catalogue program with a fused inverse, both dialects.
#[test]
fn inverse_edge_tiles_store_pairs_where_they_reflect_each_index() {
    let mut pairs = Vec::new();
    for w in dwt_catalogue::all() {
        let elem = of_kind(w, ElementType::I16, ElementType::F32);
        for dialect in [&OpenCl as &dyn dwt_emit_c::Dialect, &Cuda] {
            let m = emit_module(
                dialect,
                w,
                Direction::Inverse,
                elem,
                Layout::Mallat,
                &LaunchConfig::default(),
            )
            .unwrap();
            let Ok(tile) = m.tile.as_ref() else {
                continue;
            };
            let s = m.source();
            let pair = s.find("if (r < rows && 2 * m + 1 < cols)");
            let half = s.find("else if (r < rows && 2 * m < cols)");
            assert_eq!(pair.is_none(), half.is_none(), "{}", w.name);
            assert!(pair.is_none() || pair < half, "{}", w.name);
            let reflected = matches!(tile.edges, EdgeTiles::Reflected { .. });
            let two_steps = w.program_for(Direction::Inverse).steps().count() == 2;
            assert_eq!(
                pair.is_some(),
                reflected && two_steps,
                "{} {}",
                w.name,
                dialect.name()
            );
            if pair.is_some() {
                pairs.push(w.name.clone());
            }
        }
    }
    pairs.dedup();
    assert_eq!(
        pairs,
        ["LeGall53", "HaarNoShift", "HaarWithShift", "Cdf53"],
        "the catalogue's programs with pairs at the edges"
    );
}

/// `LaunchConfig::small_band_tiles`: a fused 2-D plan lifts the bands of at most 960x540 samples
/// with the module's second tile kernel (tiles of 16x8 indices, 128 work-items), the larger ones
/// with its configured tiles; by default (`for_request`) for every inverse and the forwards of
/// programs whose steps span at most three indices, and never in 3-D.
#[test]
fn small_bands_take_the_small_tiles() {
    let request = |name: &str, direction: Direction, shape: &[usize], small: Option<bool>| {
        let w = dwt_catalogue::by_name(name).unwrap();
        let config = LaunchConfig {
            small_band_tiles: small,
            ..LaunchConfig::default()
        }
        .for_request(w, direction, ElementType::I16, shape);
        emit_module(
            &Cuda,
            w,
            direction,
            ElementType::I16,
            Layout::Mallat,
            &config,
        )
        .unwrap()
    };
    // Kernel, groups and work-items of each launch.
    let launches = |m: &dwt_emit_c::KernelModule, shape: &[usize], levels: u32| {
        plan(m, shape, levels)
            .unwrap()
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Launch(l) => Some((l.kernel.clone(), l.groups, l.block[0])),
                Step::Copy(_) => None,
            })
            .collect::<Vec<_>>()
    };
    let hd = [1080, 1920];
    for direction in [Direction::Forward, Direction::Inverse] {
        let m = request("LeGall53", direction, &hd, None);
        let big = m.tile.as_ref().unwrap().kernel.clone();
        let small = m.small_tile.as_ref().unwrap().kernel.clone();
        // 1920x1080, 960x540, 480x270: the first on 32x16 tiles, the others on 16x8.
        let mut expect = vec![
            (big.clone(), [30, 34, 1], 256),
            (small.clone(), [30, 34, 1], 128),
            (small.clone(), [15, 17, 1], 128),
        ];
        if direction == Direction::Inverse {
            expect.reverse();
        }
        assert_eq!(launches(&m, &hd, 3), expect, "{direction:?}");
        // Both kernels in the built source, their shared reflect() once.
        let source = m.source_for(&plan(&m, &hd, 3).unwrap());
        assert!(source.contains(&format!("{big}(")) && source.contains(&format!("{small}(")));
        assert_eq!(
            source.matches("int reflect(int n, int q, int m)").count(),
            1
        );
        let alone = m.kernel_source(&small).unwrap();
        assert_eq!(alone.matches("int reflect(int n, int q, int m)").count(), 1);
        assert!(!alone.contains(&format!("{big}(")));
        // A large image's one level: its own tiles only.
        assert_eq!(
            launches(&m, &[8192, 8192], 1),
            vec![(big.clone(), [128, 256, 1], 256)]
        );
        // Turned off: the configured tiles at every level, and no second kernel.
        let off = request("LeGall53", direction, &hd, Some(false));
        assert!(off.small_tile.is_none());
        assert!(launches(&off, &hd, 3)
            .iter()
            .all(|(k, _, t)| *k == big && *t == 256));
    }
    // The rule: not the forwards of the programs with a step spanning four indices or more,
    // but where their first level takes wider tiles (`FIRST_LEVEL_TILE`) their small bands'
    // kernel is on the configured tiles.
    for (name, forward, inverse) in [
        ("HaarWithShift", true, true),
        ("Daubechies97Integer", true, true),
        ("DeslauriersDubuc137", false, true),
        ("Fidelity", false, true),
    ] {
        for (direction, expect) in [(Direction::Forward, forward), (Direction::Inverse, inverse)] {
            let m = request(name, direction, &hd, None);
            let small = m.small_tile.as_ref().map(|t| (t.tile, t.threads));
            let (tile, threads) = dwt_emit_c::SMALL_BAND_TILE;
            let configured = (LaunchConfig::default().tile, 256);
            assert_eq!(
                small,
                Some(if expect { (tile, threads) } else { configured }),
                "{name} {direction:?}"
            );
            assert_eq!(
                m.config.small_band_tiles,
                Some(true),
                "{name} {direction:?}"
            );
            // Where neither applies (a plane too small for the first level's tiles): none.
            let m = request(name, direction, &[540, 960], None);
            assert_eq!(
                m.small_tile.is_some(),
                expect,
                "{name} {direction:?} 960x540"
            );
        }
    }
    // Every program the rule gives the small kernel runs it on the 1920x1080 transform's two
    // small bands: its edge tiles are proven exact with the small kernel's segments. (Not the
    // pair-local programs, Haar's, whose three levels there take one pyramid launch.)
    for w in dwt_catalogue::all()
        .into_iter()
        .filter(|w| !w.name.starts_with("Haar"))
    {
        let elem = of_kind(w, ElementType::I16, ElementType::F32);
        for direction in [Direction::Forward, Direction::Inverse] {
            let config = LaunchConfig::default().for_request(w, direction, elem, &hd);
            let m = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &config).unwrap();
            if let Some(small) = &m.small_tile {
                let on_small = launches(&m, &hd, 3)
                    .iter()
                    .filter(|(k, _, t)| *k == small.kernel && *t == small.threads)
                    .count();
                assert_eq!(on_small, 2, "{} {direction:?}", w.name);
            }
        }
    }
    // The tuner's tile shapes keep their tiles at every level; one candidate turns the rule off.
    let candidates = LaunchConfig::default().candidates();
    for c in candidates.iter().filter(|c| c.name.starts_with("tiles ")) {
        assert_eq!(c.config.small_band_tiles, Some(false), "{}", c.name);
    }
    assert!(candidates
        .iter()
        .any(|c| c.config.small_band_tiles == Some(false)
            && c.config.tile == LaunchConfig::default().tile));
    // Never over the planes of a volume, whatever is asked.
    let volume = request("LeGall53", Direction::Forward, &[16, 64, 64], Some(true));
    assert!(volume.config.planes && volume.small_tile.is_none());
}

/// `FIRST_LEVEL_TILE`: a small 2-D forward (more than 960x540 samples, at most 1920x1080) by a
/// program with a step spanning four indices or more lifts its first level on 32x32 tiles with
/// segments of 16 and its later ones on the configured tiles (as the small bands' kernel); its
/// inverse, other programs, other sizes, volumes and a configuration that sets the long
/// filters' or the small bands' tiles keep their own.
#[test]
fn small_forwards_of_long_steps_take_wider_tiles_on_their_first_level() {
    let default = LaunchConfig::default();
    let hd = [1080, 1920];
    let kernels = |w: &dwt_ir::Wavelet, direction, shape: &[usize], config: &LaunchConfig| {
        let elem = of_kind(w, ElementType::I16, ElementType::F32);
        let config = config.for_request(w, direction, elem, shape);
        let m = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &config).unwrap();
        let tile_of = |kernel: &str| {
            [m.tile.as_ref().ok(), m.small_tile.as_ref()]
                .into_iter()
                .flatten()
                .find(|t| t.kernel == kernel)
                .map(|t| (t.tile, t.threads))
                .unwrap()
        };
        let launched = plan(&m, shape, 3)
            .unwrap()
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Launch(l) => Some((tile_of(&l.kernel), l.groups)),
                Step::Copy(_) => None,
            })
            .collect::<Vec<_>>();
        (config, launched)
    };
    let (tile, threads, segment) = dwt_emit_c::FIRST_LEVEL_TILE;
    let wide = (tile, threads);
    let configured = (default.tile, default.tile_threads);
    for name in ["DeslauriersDubuc97", "DeslauriersDubuc137", "Fidelity"] {
        let w = dwt_catalogue::by_name(name).unwrap();
        let (config, launched) = kernels(w, Direction::Forward, &hd, &default);
        assert_eq!(config.segment, segment, "{name}");
        assert_eq!(
            config.small_band_shape,
            Some((default.tile, default.tile_threads, default.segment)),
            "{name}"
        );
        // 1920x1080 on 32x32 tiles (30x17 groups), 960x540 and 480x270 on 32x16.
        assert_eq!(
            launched,
            vec![
                (wide, [30, 17, 1]),
                (configured, [15, 17, 1]),
                (configured, [8, 9, 1])
            ],
            "{name}"
        );
        // One sample more than 960x540 takes them; 960x540 itself and the inverse keep the
        // configured tiles at every level (the inverse its small bands' too); from 3840x2160 the
        // long filters' tiles apply instead (Fidelity's forward: 32x32 at every level).
        let (_, launched) = kernels(w, Direction::Forward, &[541, 960], &default);
        assert_eq!(launched[0].0, wide, "{name} 541x960");
        // The interleaved layout's plan likewise starts on them.
        let config = default.for_request(w, Direction::Forward, ElementType::I16, &hd);
        let m = emit_module(
            &Cuda,
            w,
            Direction::Forward,
            ElementType::I16,
            Layout::Interleaved,
            &config,
        )
        .unwrap();
        let p = plan(&m, &hd, 3).unwrap();
        let Some(Step::Launch(first)) = p.steps.first() else {
            panic!("{name} interleaved: {p:?}");
        };
        assert_eq!(
            (first.groups, first.block[0]),
            ([30, 17, 1], threads),
            "{name} interleaved"
        );
        for (direction, shape) in [
            (Direction::Forward, &[540, 960][..]),
            (Direction::Forward, &[2160, 3840]),
            (Direction::Inverse, &hd),
        ] {
            let (config, launched) = kernels(w, direction, shape, &default);
            let what = format!("{name} {direction:?} {shape:?}");
            assert_eq!(config.small_band_shape, None, "{what}");
            if shape != [2160, 3840] {
                assert!(launched.iter().all(|(t, _)| *t != wide), "{what}");
            }
        }
        // Set by hand, the long filters' or the small bands' tiles are what was asked for.
        for config in [
            LaunchConfig {
                long_filter_tiles: Some(false),
                ..default
            },
            LaunchConfig {
                small_band_tiles: Some(false),
                ..default
            },
        ] {
            let (_, launched) = kernels(w, Direction::Forward, &hd, &config);
            assert!(launched.iter().all(|(t, _)| *t == configured), "{name}");
        }
    }
    // The short programs' forwards keep theirs (Haar's, pair-local, on pyramids at 1920x1080).
    for name in ["LeGall53", "Cdf97", "Daubechies97Integer"] {
        let w = dwt_catalogue::by_name(name).unwrap();
        let (config, launched) = kernels(w, Direction::Forward, &hd, &default);
        assert_eq!(config.small_band_shape, None, "{name}");
        assert_eq!(launched[0].0, configured, "{name}");
    }
}

/// The forward's inner tiles copy asynchronously (`cp.async`) by rule where a program has 6
/// taps or more, in CUDA and where samples are stored in their working type; a pre-shifted
/// program's inner tiles then hold the samples as stored (the copies, and the loads one sample
/// at a time of rows that are not pairs), and the pass along x shifts them as it reads them,
/// while its edge tiles still shift as they load; OpenCL and i16 never copy so.
#[test]
fn asynchronous_copies_follow_their_rule() {
    // The tile kernels' loads, without the level-pair kernel (whose level 2 shifts what it
    // reads from its tile, the level-1 low band).
    let cuda = |name: &str, elem: ElementType, async_load: Option<bool>| {
        let config = LaunchConfig {
            async_load,
            level_pairs_from: None,
            ..LaunchConfig::default()
        };
        let w = dwt_catalogue::by_name(name).unwrap();
        emit_module(&Cuda, w, Direction::Forward, elem, Layout::Mallat, &config)
            .unwrap()
            .source()
    };
    let copies = |source: &str| source.contains("copy_async_pair(&tile[");
    for (name, elem, rule) in [
        ("Cdf97", ElementType::F32, true),
        ("Cdf97", ElementType::F64, true),
        ("Fidelity", ElementType::I32, true),
        ("LeGall53", ElementType::I32, false),
        ("Cdf53", ElementType::F32, false),
        ("Daubechies97Integer", ElementType::I32, true),
        ("DeslauriersDubuc97", ElementType::I32, true),
        ("DeslauriersDubuc137", ElementType::I32, true),
        ("HaarWithShift", ElementType::I32, false),
    ] {
        let default = cuda(name, elem, None);
        assert_eq!(copies(&default), rule, "{name} {elem:?}: the rule");
        assert_eq!(default, cuda(name, elem, Some(rule)), "{name} {elem:?}");
        assert_eq!(
            copies(&cuda(name, elem, Some(!rule))),
            !rule,
            "{name} {elem:?}"
        );
    }
    let shifted = cuda("Daubechies97Integer", ElementType::I32, None);
    let inner = &shifted[shifted.find("if (inner_x && inner_y)").unwrap()..];
    let (inner, edge) = inner.split_at(inner.find("Load (edge tile)").unwrap());
    // Rows interleaved as they lie: a copy per pair, one sample at a time to the same places
    // where rows are not pairs, both phases read from there by the pass along x, on rows of an
    // even pitch (pairs aligned) whose half is odd.
    assert!(
        shifted.contains("__shared__ __align__(16) int tile[39][86];"),
        "an aligned tile of an even pitch"
    );
    assert!(
        inner.contains("copy_async_pair(&tile[l][2 * p], vp);"),
        "a copy per pair"
    );
    assert!(
        inner.contains("tile[l][j] = to_work(nat[nat_base + nr * nat_row_step + (2 * mx0 + j - 4) * nat_col_step]);"),
        "raw scalar loads, interleaved"
    );
    assert!(
        inner.contains("const int c = 2 * (i0 - mx0 + 2);")
            && inner.contains("int e0 = pre_shift(tile[line][c - 4]);")
            && inner.contains("int o0 = pre_shift(tile[line][c - 3]);"),
        "shifted reads of both phases from the interleaved row"
    );
    assert!(
        inner.contains("const int l = t % 39;"),
        "neighbouring work-items on neighbouring rows"
    );
    assert!(
        edge.contains("tile[line][b0 + 1]") && !edge.contains("tile[line][c"),
        "the edge tiles' rows stay in phases"
    );
    assert!(!inner.contains("pre_shift(to_work("), "no shifted load");
    assert!(
        edge.contains("= pre_shift(to_work(nat["),
        "the edge tiles shift as they load"
    );
    assert!(
        !edge[..edge.find("Along y").unwrap()].contains("pre_shift(tile["),
        "the edge tiles' pass along x shifts nothing again (their loads did)"
    );
    let registers = cuda("Daubechies97Integer", ElementType::I32, Some(false));
    assert!(!registers.contains("pre_shift(tile["));
    let cdf97 = cuda("Cdf97", ElementType::F32, Some(true));
    assert!(!cdf97.contains("pre_shift"), "nothing to shift");
    for name in ["Fidelity", "Daubechies97Integer"] {
        let i16 = cuda(name, ElementType::I16, Some(true));
        assert!(
            !copies(&i16),
            "{name} i16: the tile holds ints, the samples are shorts"
        );
        assert_eq!(i16, cuda(name, ElementType::I16, Some(false)));
    }
    let config = LaunchConfig {
        async_load: Some(true),
        ..LaunchConfig::default()
    };
    assert!(
        !copies(&module("Cdf97", Direction::Forward, &config).source()),
        "OpenCL"
    );
}

/// The number after `prefix` up to the next `;` or ` ` in `text` (the first such line).
fn number_after(text: &str, prefix: &str) -> usize {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no `{prefix}` in the kernel"));
    let rest = &text[at + prefix.len()..];
    let end = rest.find([';', ' ']).unwrap_or(rest.len());
    rest[..end].parse().expect("a number")
}

/// The conformance suite's image with inner tiles (`INNER_TILES_2D`) has them: in the plan the
/// executors take for it (the configuration as resolved per request: its small bands' kernel
/// where that rule applies), every catalogue wavelet's first level, both directions, in the
/// types the suite runs it in (i32, f64), launches a fused tile kernel some of whose tiles lie
/// away from the band's edges by the kernel's own test (`inner_x`, `inner_y`). Else the copies
/// and register paths of inner tiles in those types would run in no shared suite.
#[test]
fn the_inner_tiles_image_has_inner_tiles() {
    use dwt_runtime::conformance::INNER_TILES_2D;
    for w in dwt_catalogue::all() {
        let elem = of_kind(w, ElementType::I32, ElementType::F64);
        for direction in [Direction::Forward, Direction::Inverse] {
            let config = LaunchConfig::default().for_request(w, direction, elem, &INNER_TILES_2D);
            let module = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &config).unwrap();
            let source = module.source();
            // One level for Haar's: two would take a pyramid launch (160 and 300 are even
            // twice).
            let levels = if w.name.starts_with("Haar") { 1 } else { 2 };
            let steps = plan(&module, &INNER_TILES_2D, levels).unwrap().steps;
            // The first level's launch: its band is the whole image (an inverse runs it last).
            let first = steps
                .iter()
                .find_map(|s| match s {
                    Step::Launch(l)
                        if l.kernel.ends_with("_tile")
                            && l.ints[..2]
                                == [INNER_TILES_2D[0] as i32, INNER_TILES_2D[1] as i32] =>
                    {
                        Some(l)
                    }
                    _ => None,
                })
                .unwrap_or_else(|| {
                    panic!(
                        "{} {direction:?}: no fused launch of the first level",
                        w.name
                    )
                });
            let start = source.find(&format!("\n{}(", first.kernel)).unwrap();
            let kernel = &source[start..];
            let kernel = &kernel[..kernel.find("extern \"C\"").unwrap_or(kernel.len())];
            let [rows, cols] = INNER_TILES_2D;
            let inner = |v: &str, n1: usize, groups: usize| {
                let step = number_after(kernel, &format!("const int m{v}0 = (int)blockIdx.{v} * "));
                // `const int inner_x = mx0 >= B && mx0 + R <= nx1;`
                let test = kernel
                    .lines()
                    .find(|l| l.trim().starts_with(&format!("const int inner_{v} = ")))
                    .expect("the inner tiles' test");
                let before = number_after(test, &format!("m{v}0 >= "));
                let reach = number_after(test, &format!("&& m{v}0 + "));
                assert!(test.trim().ends_with(&format!("<= n{v}1;")), "{test}");
                (0..groups)
                    .map(|g| g * step)
                    .filter(|&m| m >= before && m + reach <= n1)
                    .count()
            };
            let (x, y) = (
                inner("x", cols / 2, first.groups[0]),
                inner("y", rows / 2, first.groups[1]),
            );
            assert!(
                x > 0 && y > 0,
                "{} {direction:?} {elem:?}: {} has {x} columns and {y} rows of inner tiles on {rows}x{cols}",
                w.name,
                first.kernel
            );
        }
    }
}

/// The inner tiles' global accesses walk rows a warp at a time where that keeps every copy or
/// store as full: the forward's copies where a row's pairs take no more copies a warp than the
/// tile's own pairs by row and the halo's apart (Fidelity's 62 pairs on its 48x32 tiles of
/// 8192^2: two copies a row; CDF 9/7's 36 on 32x16: not), the inverse's pair stores in runs of
/// rows that fill whole warps (48 pairs: two rows, three stores a work-item), and edge tiles as
/// before, each pair under its conditions.
#[test]
fn inner_accesses_walk_rows_where_warps_stay_full() {
    let cuda_8192 = |name: &str, direction: Direction| {
        let w = dwt_catalogue::by_name(name).unwrap();
        let elem = of_kind(w, ElementType::I32, ElementType::F32);
        let config = LaunchConfig::default().for_request(w, direction, elem, &[8192, 8192]);
        let source = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &config)
            .unwrap()
            .source();
        let tile = &source[source.find("_tile(").unwrap()..];
        tile[..tile.find("\n}\n").unwrap()].to_string()
    };
    let by_row = "a row per 32 work-items, no bounds checks.";
    let fidelity = cuda_8192("Fidelity", Direction::Forward);
    assert!(fidelity.contains(by_row), "Fidelity's rows of 62 pairs");
    assert!(
        fidelity.contains("copy_async_pair(&tile[l][2 * lane + 64], vp + 64);")
            && !fidelity.contains(" / 14, h = t % 14;"),
        "two copies a row, no halo walk"
    );
    let cdf97 = cuda_8192("Cdf97", Direction::Forward);
    let inner = &cdf97[cdf97.find("if (inner_x && inner_y)").unwrap()..];
    assert!(
        inner.contains("copy_async_pair(&tile[") && !inner.contains(by_row),
        "CDF 9/7's rows of 36 pairs keep the split walk"
    );
    let inverse = cuda_8192("Fidelity", Direction::Inverse);
    let inner = &inverse[inverse.find("if (inner_x && inner_y)").unwrap()..];
    let (inner, edge) = inner.split_at(inner.find("\n    else {").unwrap());
    assert!(
        inner.contains("// 2 rows of 48 pairs per 32 work-items at a time")
            && inner.contains("const int d2 = (lane + 64) / 48, m2 = mx0 + (lane + 64) % 48;")
            && inner.contains("for (int run = lane_row; run < 32; run += 8)")
            && !inner.contains("const int r = 2 * my0 + t / 48, m = mx0 + t % 48;"),
        "the inner tiles' stores in runs of two rows"
    );
    assert!(
        !edge.contains("per 32 work-items at a time") && edge.contains("if (r < rows && "),
        "edge tiles store under their conditions"
    );
}

/// A 2-D transform by a pair-local program (Haar) lifts its first levels, as many as divide
/// both sides, in pyramid launches of three levels while three remain, then two (a single one
/// left over takes a tile), then a tile launch per level; the inverse runs the same launches
/// coarsest first.
/// Both layouts; other programs and the two passes take no pyramid.
#[test]
fn pair_local_programs_lift_their_first_levels_in_pyramids() {
    let kernels =
        |name: &str, direction, layout, config: &LaunchConfig, shape: &[usize], levels| {
            let m = module_in(name, direction, layout, config);
            let p = plan(&m, shape, levels).unwrap();
            p.steps
                .iter()
                .filter_map(|s| match s {
                    Step::Launch(l) => Some(l.kernel.rsplit('_').next().unwrap().to_string()),
                    Step::Copy(_) => None,
                })
                .collect::<Vec<_>>()
        };
    let default = LaunchConfig::default();
    let mallat = |direction, shape: &[usize], levels| {
        kernels(
            "HaarWithShift",
            direction,
            Layout::Mallat,
            &default,
            shape,
            levels,
        )
    };
    for (shape, levels, want) in [
        (&[1080usize, 1920][..], 3u32, &["pyramid3"][..]),
        (&[1080, 1920], 4, &["pyramid3", "tile"]),
        (&[1080, 1920], 1, &["tile"]),
        (&[8192, 8192], 2, &["pyramid2"]),
        (&[8192, 8192], 4, &["pyramid3", "tile"]),
        (&[8192, 8192], 5, &["pyramid3", "pyramid2"]),
        (&[64, 128], 6, &["pyramid3", "pyramid3"]),
        (&[128, 256], 7, &["pyramid3", "pyramid3", "tile"]),
        (&[16, 24], 4, &["pyramid3", "tile"]),
        (&[6, 24], 3, &["tile", "tile", "tile"]),
        // Too tall for a pyramid's grid (65535 groups along y at 4 rows each): tiles.
        (&[65536 * 4 + 8, 8], 3, &["tile", "tile", "tile"]),
        (&[65535 * 4, 8], 2, &["pyramid2"]),
    ] {
        assert_eq!(
            mallat(Direction::Forward, shape, levels),
            want,
            "{shape:?} {levels}"
        );
        let mut inverse = want.to_vec();
        inverse.reverse();
        assert_eq!(
            mallat(Direction::Inverse, shape, levels),
            inverse,
            "{shape:?} {levels}"
        );
    }
    let hd = [1080, 1920];
    for (levels, want) in [(3, &["pyramid3"][..]), (5, &["pyramid3", "tile", "tile"])] {
        let interleaved = kernels(
            "HaarNoShift",
            Direction::Forward,
            Layout::Interleaved,
            &default,
            &hd,
            levels,
        );
        assert_eq!(interleaved, want, "interleaved, {levels} levels");
    }
    let legall = kernels(
        "LeGall53",
        Direction::Forward,
        Layout::Mallat,
        &default,
        &hd,
        3,
    );
    assert!(legall.iter().all(|k| k.ends_with("tile")), "{legall:?}");
    let two_pass = module_in(
        "HaarNoShift",
        Direction::Forward,
        Layout::Mallat,
        &LaunchConfig::two_pass(),
    );
    assert!(two_pass.pyramids.is_empty());
    // The hand-off between launches: the pyramid's low band, compact in the scratch, is the
    // next launch's natural band; the last writes the low band at the data's origin.
    let m = module_in("HaarNoShift", Direction::Forward, Layout::Mallat, &default);
    let p = plan(&m, &[64, 128], 5).unwrap();
    let launches: Vec<_> = p
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Launch(l) => Some(l),
            Step::Copy(_) => None,
        })
        .collect();
    assert_eq!(launches.len(), 2);
    assert_eq!(
        launches[0].buffers,
        [Buffer::Source, Buffer::Scratch, Buffer::Data]
    );
    assert_eq!(
        launches[1].buffers,
        [Buffer::Scratch, Buffer::Data, Buffer::Data]
    );
    // pyramid3 on 64x128 (its 64 rows the grid's 8 groups of 8): 8x16 low band, rows 16 apart.
    assert_eq!(launches[0].groups, [1, 8, 1]);
    assert_eq!(&launches[0].ints[..6], &[128, 0, 128, 0, 16, 128]);
    // pyramid2 on 8x16 from the scratch: its low band (2x4) at the origin, rows 128 apart.
    assert_eq!(&launches[1].ints[..6], &[16, 0, 16, 0, 128, 128]);
    assert_eq!(p.scratch, 32 * 64);
    // Interleaved: the second launch's coefficients in place with samples 8 apart (the band of
    // level 3), its low band where level 5's samples are (32 apart).
    let m = module_in(
        "HaarNoShift",
        Direction::Forward,
        Layout::Interleaved,
        &default,
    );
    let p = plan(&m, &[64, 128], 5).unwrap();
    let Some(Step::Launch(second)) = p.steps.get(1) else {
        panic!("{p:?}");
    };
    assert_eq!(
        second.buffers,
        [Buffer::Scratch, Buffer::Data, Buffer::Data]
    );
    assert_eq!(&second.ints, &[16, 0, 16, 0, 32, 32 * 128, 0, 8, 8 * 128]);
}

/// An interleaved forward of two or more levels on tile launches, on an image of at least
/// `LaunchConfig::even_rows_from` samples: level 0 (the configured kernel's variant that stores
/// subband (0, 1) with the low band) writes the odd rows in place and its low band and subband
/// (0, 1) compact in the scratch, the later levels store theirs in a Mallat form of level 1's
/// band in the scratch (after the two hand-off regions), and the even-rows kernel writes the
/// image's even rows at the end. Not for smaller images, one level, the inverse, the Mallat
/// layout, a first pyramid launch, or with `even_rows_from` off.
#[test]
fn interleaved_forwards_write_their_even_rows_last() {
    let default = LaunchConfig::default();
    let names = |p: &dwt_emit_c::LaunchPlan| -> Vec<String> {
        launches(p)
            .iter()
            .map(|l| l.kernel.split("forward_").last().unwrap().to_string())
            .collect()
    };
    // By default from a 3840x2160 frame's samples.
    let m = module_in("Cdf53", Direction::Forward, Layout::Interleaved, &default);
    let tiles = ["tile", "tile", "tile"];
    let even_rows = ["even_rows_tile", "tile", "tile", "even_rows"];
    assert_eq!(names(&plan(&m, &[2160, 3840], 3).unwrap()), even_rows);
    assert_eq!(names(&plan(&m, &[2880, 2880], 3).unwrap()), even_rows);
    assert_eq!(names(&plan(&m, &[2159, 3840], 3).unwrap()), tiles);
    assert_eq!(names(&plan(&m, &[1080, 1920], 3).unwrap()), tiles);
    let always = LaunchConfig {
        even_rows_from: Some(0),
        ..default
    };
    let interleaved = module_in("LeGall53", Direction::Forward, Layout::Interleaved, &always);
    let variant = interleaved.even_rows_tile.as_ref().unwrap();
    assert!(variant.band01_with_low);
    assert!(!interleaved.tile.as_ref().unwrap().band01_with_low);
    // 37 x 70: level 1's band 19 x 35, level 2's 10 x 18, level 3's 5 x 9.
    let p = plan(&interleaved, &[37, 70], 3).unwrap();
    assert_eq!(names(&p), ["even_rows_tile", "tile", "tile", "even_rows"]);
    let l = launches(&p);
    // The two hand-off regions (level 1's band, level 2's), the coarse band, level 0's subband
    // (0, 1).
    let hand_off = 19 * 35 + 10 * 18;
    let coarse = hand_off;
    let band01 = coarse + 19 * 35;
    assert_eq!(p.scratch, band01 + 19 * 35);
    // Level 0: the source to the odd rows' subbands in the data (every other sample of every
    // other row), its low band to the scratch's origin (rows 35 apart), subband (0, 1) with the
    // same steps after the coarse band.
    assert_eq!(
        l[0].buffers,
        [Buffer::Source, Buffer::Scratch, Buffer::Data]
    );
    assert_eq!(&l[0].ints[5..], &[0, 1, 35, band01 as i32, 70, 71, 2, 140]);
    // Level 1: its band from there, its subbands to the coarse band's Mallat quadrants (rows 35
    // apart, the low half 10 rows and 18 columns), its low band to the second region.
    assert_eq!(
        l[1].buffers,
        [Buffer::Scratch, Buffer::Scratch, Buffer::Scratch]
    );
    assert_eq!(&l[1].ints[2..5], &[0, 1, 35]);
    assert_eq!(&l[1].ints[5..8], &[19 * 35, 1, 18]);
    assert_eq!(
        &l[1].ints[8..],
        &[coarse + 18, coarse + 10 * 35, coarse + 10 * 35 + 18, 1, 35].map(|v| v as i32)
    );
    // Level 2: its low band at the coarse band's origin, its subbands past the 5 x 9 low half.
    assert_eq!(
        l[2].buffers,
        [Buffer::Scratch, Buffer::Scratch, Buffer::Scratch]
    );
    assert_eq!(&l[2].ints[2..5], &[19 * 35, 1, 18]);
    assert_eq!(&l[2].ints[5..8], &[coarse as i32, 1, 35]);
    assert_eq!(
        &l[2].ints[8..],
        &[coarse + 9, coarse + 5 * 35, coarse + 5 * 35 + 9, 1, 35].map(|v| v as i32)
    );
    // The even rows: 19 of them, 70 columns in one group each.
    assert_eq!(l[3].buffers, [Buffer::Data, Buffer::Scratch]);
    assert_eq!(l[3].groups, [1, 19, 1]);
    assert_eq!(&l[3].ints, &[19, 35, 70, coarse as i32, band01 as i32, 2]);
    // Four levels: level 3's band (5 x 9) back in the first region.
    let p = plan(&interleaved, &[37, 70], 4).unwrap();
    let l = launches(&p);
    assert_eq!(p.scratch, band01 + 19 * 35);
    assert_eq!(&l[2].ints[5..8], &[0, 1, 9]);
    assert_eq!(&l[3].ints[2..5], &[0, 1, 9]);
    assert_eq!(&l[4].ints[3..], &[coarse as i32, band01 as i32, 3]);
    // One level, the inverse, the Mallat layout, the switch off: no even-rows launch.
    assert_eq!(names(&plan(&interleaved, &[37, 70], 1).unwrap()), ["tile"]);
    let inverse = module_in("LeGall53", Direction::Inverse, Layout::Interleaved, &always);
    assert!(inverse.even_rows.is_none());
    let mallat = module_in("LeGall53", Direction::Forward, Layout::Mallat, &always);
    assert!(mallat.even_rows.is_none());
    let off = LaunchConfig {
        even_rows_from: None,
        ..default
    };
    let m = module_in("LeGall53", Direction::Forward, Layout::Interleaved, &off);
    assert!(m.even_rows.is_none());
    let p = plan(&m, &[2048, 4096], 3).unwrap();
    assert_eq!(names(&p), tiles);
    // Haar's first levels in a pyramid launch keep their tile launches in place.
    let haar = module_in(
        "HaarNoShift",
        Direction::Forward,
        Layout::Interleaved,
        &always,
    );
    let p = plan(&haar, &[1080, 1920], 5).unwrap();
    assert_eq!(names(&p), ["pyramid3", "tile", "tile"]);
    // Not pyramid-sized: Haar's tile launches end in the even rows too.
    let p = plan(&haar, &[37, 70], 2).unwrap();
    assert_eq!(names(&p), ["even_rows_tile", "tile", "even_rows"]);
}

/// Where the level-pair kernel lifts a forward's first two levels: images of at least
/// `level_pairs_from` samples whose sides are multiples of 64, two or more levels, a module that
/// has the kernel (2-D forward, Mallat layout, stored in its working type, register segments of
/// at most 11 words) and edge segments the IR proves exact; and where its launch writes.
#[test]
fn large_forwards_lift_their_first_two_levels_in_one_launch() {
    let default = LaunchConfig::default();
    let names = |name: &str, layout, config: &LaunchConfig, shape: &[usize], levels| {
        let m = module_in(name, Direction::Forward, layout, config);
        let p = plan(&m, shape, levels).unwrap();
        (p.steps.iter())
            .filter_map(|s| match s {
                Step::Launch(l) => Some(l.kernel.split_once("forward_").unwrap().1.to_string()),
                Step::Copy(_) => None,
            })
            .collect::<Vec<_>>()
    };
    let tile = dwt_emit_c::LEVEL_PAIR_TILE;
    assert_eq!(4 * tile, 64);
    for (name, shape, levels, want) in [
        (
            "Cdf53",
            &[4096usize, 4096][..],
            3u32,
            &["level_pair", "tile"][..],
        ),
        ("Cdf53", &[8192, 8192], 2, &["level_pair"]),
        ("Cdf53", &[8192, 8192], 1, &["tile"]),
        ("Cdf53", &[4096, 8192], 4, &["level_pair", "tile", "tile"]),
        ("LeGall53", &[8192, 4096], 3, &["level_pair", "tile"]),
        // Longer register segments: no level-pair kernel.
        ("Cdf97", &[4096, 4096], 3, &["tile", "tile", "tile"]),
        (
            "Daubechies97Integer",
            &[4096, 4096],
            3,
            &["tile", "tile", "tile"],
        ),
        // Below the threshold, or sides the tiles do not divide: a tile launch per level.
        ("Cdf53", &[2048, 4096], 3, &["tile", "tile", "tile"]),
        ("Cdf53", &[4096, 4000], 3, &["tile", "tile", "tile"]),
        ("Cdf53", &[4100, 4096], 3, &["tile", "tile", "tile"]),
        // Longer register segments, and edges not proven exact under reflection.
        (
            "DeslauriersDubuc97",
            &[4096, 4096],
            3,
            &["tile", "tile", "tile"],
        ),
        ("Fidelity", &[4096, 4096], 3, &["tile", "tile", "tile"]),
        // Pair-local: the pyramids.
        ("HaarNoShift", &[4096, 4096], 3, &["pyramid3"]),
    ] {
        let got = names(name, Layout::Mallat, &default, shape, levels);
        assert_eq!(got, want, "{name} {shape:?} {levels}");
    }
    let never = LaunchConfig {
        level_pairs_from: None,
        ..default
    };
    assert!(
        module_in("Cdf53", Direction::Forward, Layout::Mallat, &never)
            .level_pair
            .is_none()
    );
    let cdf53 = dwt_catalogue::by_name("Cdf53").unwrap();
    let cdf53_module = |elem, config: &LaunchConfig| {
        emit_module(
            &Cuda,
            cdf53,
            Direction::Forward,
            elem,
            Layout::Mallat,
            config,
        )
        .unwrap()
    };
    // A pair-local program's module has one only where the pyramids do not take its levels.
    let haar = |pyramids| {
        let config = LaunchConfig {
            pyramids,
            ..default
        };
        module_in("HaarNoShift", Direction::Forward, Layout::Mallat, &config)
            .level_pair
            .is_some()
    };
    assert!(!haar(true) && haar(false));
    // f64's segments hold 22 words: no level-pair kernel.
    assert!(cdf53_module(ElementType::F64, &default)
        .level_pair
        .is_none());
    // Full occupancy asked for but with the register cap off (the CUDA executor's rebuild of a
    // kernel that spilled under it).
    for (cap, bounds) in [
        (None, "__launch_bounds__(256, 8)"),
        (Some(false), "__launch_bounds__(256)"),
    ] {
        let config = LaunchConfig {
            register_cap: cap,
            ..default
        };
        let m = cdf53_module(ElementType::F32, &config);
        let pair = m.level_pair.as_ref().unwrap();
        assert_eq!(pair.full_occupancy, cap.is_none());
        let source = m.kernel_source(&pair.kernel).unwrap();
        assert!(
            source.contains(&format!("{bounds}\n{}(", pair.kernel)),
            "{cap:?}"
        );
    }
    let always = LaunchConfig {
        level_pairs_from: Some(0),
        ..default
    };
    assert_eq!(
        names("Cdf53", Layout::Mallat, &always, &[64, 128], 3),
        ["level_pair", "tile"]
    );
    for layout in [Layout::Mallat, Layout::Interleaved] {
        let m = module_in("Cdf53", Direction::Inverse, layout, &always);
        assert!(m.level_pair.is_none());
    }
    let m = module_in("Cdf53", Direction::Forward, Layout::Interleaved, &always);
    assert!(m.level_pair.is_none());
    // The launch: a group per 64x64 samples; level 0's highs in the data's quadrants, level 1's
    // in the next ones, level 1's low band handed on compact in the scratch (rows 32 apart),
    // from which the last level writes the data's origin.
    let m = module_in("Cdf53", Direction::Forward, Layout::Mallat, &always);
    let p = plan(&m, &[64, 128], 3).unwrap();
    let launches: Vec<_> = (p.steps.iter())
        .filter_map(|s| match s {
            Step::Launch(l) => Some(l),
            Step::Copy(_) => None,
        })
        .collect();
    assert_eq!(launches[0].groups, [2, 1, 1]);
    assert_eq!(launches[0].block, [dwt_emit_c::LEVEL_PAIR_THREADS, 1]);
    assert_eq!(
        launches[0].buffers,
        [Buffer::Source, Buffer::Scratch, Buffer::Data]
    );
    let (h0_01, h0_10, h0_11) = (64, 32 * 128, 32 * 128 + 64);
    let (h1_01, h1_10, h1_11) = (32, 16 * 128, 16 * 128 + 32);
    assert_eq!(
        launches[0].ints,
        [64, 128, 0, 128, 0, 32, 128, h0_01, h0_10, h0_11, h1_01, h1_10, h1_11]
    );
    assert_eq!(
        launches[1].buffers,
        [Buffer::Scratch, Buffer::Data, Buffer::Data]
    );
}

/// From 256^3 samples a volume's fused plan takes the volumes' measured settings: its depth pass
/// a window of 96 rows in slabs of 32x4 work-items (every program whose volume takes the two
/// passes), and Fidelity (the program of eight-tap steps) 48x32 tiles with segments of 16 on its
/// x-y planes both ways, however small they are (not in f64, nor its forward in i16). Smaller
/// volumes, images and two-pass plans keep the configured window and tiles; each option turns
/// its rule off, or on for every volume. The plans stay fused with the same kind of edge tiles.
#[test]
fn large_volumes_take_the_volumes_settings() {
    let default = LaunchConfig::default();
    let configured = |c: &LaunchConfig| (c.tile, c.tile_threads, c.segment);
    let window = |c: &LaunchConfig| (c.window_height, c.slab_width, c.slab_rows);
    let (volume_window, configured_window) = ((96, 32, 4), (64, 32, 8));
    assert_eq!(window(&default), configured_window);
    let tallest = ([48, 32], 256, 16);
    let (depth_off, depth_on, tiles_off) = (
        LaunchConfig {
            volume_depth_window: Some(false),
            ..default
        },
        LaunchConfig {
            volume_depth_window: Some(true),
            ..default
        },
        LaunchConfig {
            long_filter_tiles: Some(false),
            ..default
        },
    );
    let mut depth_passes = 0;
    for w in dwt_catalogue::all() {
        let elems = match w.kind {
            dwt_ir::ElementKind::Integer => &[ElementType::I16, ElementType::I32][..],
            dwt_ir::ElementKind::Float => &[ElementType::F32, ElementType::F64],
        };
        for &elem in elems {
            for direction in [Direction::Forward, Direction::Inverse] {
                let fidelity = w.name == "Fidelity"
                    && !(direction == Direction::Forward && elem == ElementType::I16)
                    && elem != ElementType::F64;
                for shape in [&[512, 512, 512][..], &[256, 256, 256], &[64, 512, 512]] {
                    let what = format!("{} {direction:?} {elem:?} {shape:?}", w.name);
                    let large = shape.iter().product::<usize>() >= 256 * 256 * 256;
                    let c = default.for_request(w, direction, elem, shape);
                    let want = if large {
                        volume_window
                    } else {
                        configured_window
                    };
                    assert_eq!(window(&c), want, "{what}");
                    let want = match fidelity && large {
                        true => tallest,
                        false => configured(&default),
                    };
                    assert_eq!(configured(&c), want, "{what}");
                    let off = depth_off.for_request(w, direction, elem, shape);
                    assert_eq!(window(&off), configured_window, "{what}");
                    let on = depth_on.for_request(w, direction, elem, shape);
                    assert_eq!(window(&on), volume_window, "{what}");
                    let kept = tiles_off.for_request(w, direction, elem, shape);
                    assert_eq!(configured(&kept), configured(&default), "{what}");
                    // The plan launches the depth pass on the window's slabs where it has one,
                    // and stays fused on the same kind of edge tiles.
                    let m = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &c).unwrap();
                    let p = plan(&m, shape, 3).unwrap();
                    assert!(p.is_fused(), "{what}");
                    let k = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &kept);
                    let edges = |m: &dwt_emit_c::KernelModule| {
                        std::mem::discriminant(&m.tile.as_ref().unwrap().edges)
                    };
                    assert_eq!(edges(&m), edges(&k.unwrap()), "{what}");
                    for step in &p.steps {
                        if let Step::Launch(l) = step {
                            if l.kernel == m.vertical.columns_kernel {
                                let slab = if large { [32, 4] } else { [32, 8] };
                                assert_eq!(l.block, slab, "{what}");
                                depth_passes += 1;
                            }
                        }
                    }
                    if large {
                        assert_eq!(m.vertical.geometry.height, 96, "{what}");
                    }
                }
            }
        }
        // Images and two-pass volumes keep the configured window, even where asked.
        for shape in [&[8192, 8192][..], &[512, 512, 512]] {
            let elem = of_kind(w, ElementType::I32, ElementType::F32);
            let two_pass = LaunchConfig {
                strategy: Strategy::TwoPass,
                ..depth_on
            };
            let c = match shape.len() {
                2 => depth_on.for_request(w, Direction::Forward, elem, shape),
                _ => two_pass.for_request(w, Direction::Forward, elem, shape),
            };
            assert_eq!(window(&c), configured_window, "{} {shape:?}", w.name);
        }
    }
    // The Deslauriers-Dubuc programs and Fidelity take the two passes at every level, both ways.
    assert!(depth_passes >= 3 * 2 * 2 * 3, "{depth_passes} depth passes");
}
