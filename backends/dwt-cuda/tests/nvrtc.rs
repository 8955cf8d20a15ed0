//! Needs NVRTC but no GPU (runs in CI): every emitted CUDA module of every catalogue wavelet,
//! direction and element type compiles with NVRTC for sm_90 (the H100), has its fused 2-D
//! kernel (and its one-pass volume kernel where it has one), and ptxas reports no register
//! spills in any kernel (the interleaved forwards'
//! even-rows tile on the tiles of the requests it runs on by default). Fails, never skips, when
//! NVRTC cannot be loaded.

use dwt_cuda::{compile, function_usage, nvrtc_version, LaunchConfig};
use dwt_emit_c::{emit_module, Cuda, EVEN_ROWS_MIN_SAMPLES};
use dwt_ir::{Direction, ElementType, Layout};

#[test]
fn every_catalogue_module_compiles_for_sm_90_without_spills() {
    let (major, minor) = nvrtc_version()
        .unwrap_or_else(|e| panic!("NVRTC is needed for this test (it does not skip): {e}"));
    eprintln!("NVRTC {major}.{minor}");
    // Every catalogue wavelet, direction and element type of its kind: the 2-D modules in both
    // layouts, and the 3-D one (the fused kernel over planes).
    let mut cases = Vec::new();
    for w in dwt_catalogue::all() {
        for direction in [Direction::Forward, Direction::Inverse] {
            for elem in ElementType::ALL.into_iter().filter(|e| e.kind() == w.kind) {
                for (layout, axes) in [
                    (Layout::Mallat, 2),
                    (Layout::Interleaved, 2),
                    (Layout::Mallat, 3),
                ] {
                    cases.push((w, direction, elem, layout, axes, false));
                }
                // A large volume's module: the volumes' settings (Fidelity's tallest tiles, the
                // depth pass's window), for the programs whose volumes take the two passes.
                if dwt_runtime::conformance::TWO_PASS_VOLUME_PROGRAMS.contains(&w.name.as_str()) {
                    cases.push((w, direction, elem, Layout::Mallat, 3, true));
                }
            }
        }
    }
    let kernels: usize = on_two_threads(&cases, |&(w, direction, elem, layout, axes, large)| {
        check_module(w, direction, elem, layout, axes, large)
    })
    .into_iter()
    .sum();
    let modules = cases.len();
    eprintln!("{modules} modules, {kernels} kernels: 0 bytes spill stores, 0 bytes spill loads");
    assert!(modules >= 36);
}

/// The pair-local volume kernels and pyramids of Haar's 3-D modules (both layouts, directions and integer
/// types, and a float Haar's), each compiled alone, as the CUDA backend builds a plan's
/// kernels: no warning (an unused helper of the prelude, say) and no spill.
#[test]
fn pair_local_volume_kernels_compile_alone_for_sm_90() {
    nvrtc_version()
        .unwrap_or_else(|e| panic!("NVRTC is needed for this test (it does not skip): {e}"));
    let float_haar = dwt_ir::parse_str(
        "wavelet FloatHaar {\n    kind = float;\n    odd -= even[0];\n    even += 1/2*odd[0];\n    scale 1.4142135623730951;\n}",
    )
    .unwrap()
    .remove(0);
    let mut compiled = 0;
    for w in [
        dwt_catalogue::by_name("HaarNoShift").unwrap(),
        dwt_catalogue::by_name("HaarWithShift").unwrap(),
        &float_haar,
    ] {
        for direction in [Direction::Forward, Direction::Inverse] {
            for elem in ElementType::ALL.into_iter().filter(|e| e.kind() == w.kind) {
                for layout in [Layout::Mallat, Layout::Interleaved] {
                    let config = LaunchConfig::default().for_axes(3);
                    let module = emit_module(&Cuda, w, direction, elem, layout, &config).unwrap();
                    let what =
                        format!("{} {direction:?} {} {}", w.name, elem.name(), layout.name());
                    let kernels = [&module.volume_pairs, &module.volume_pyramid]
                        .map(|k| k.as_ref().expect("a pair-local volume kernel and pyramid"));
                    for kernel in kernels {
                        let source = module.kernel_source(kernel).expect("its source");
                        let out =
                            compile(&source, "sm_90").unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert!(!out.log.contains("warning"), "{what}: warned:\n{}", out.log);
                        let usage = function_usage(&out.log);
                        assert!(
                            usage.len() == 1
                                && &usage[0].function == kernel
                                && usage[0].spill_stores == 0
                                && usage[0].spill_loads == 0,
                            "{what}: {usage:?}"
                        );
                        compiled += 1;
                    }
                }
            }
        }
    }
    assert_eq!(compiled, 48);
}

/// The copy kernel recorded graphs launch instead of large memcpy nodes compiles without
/// warnings or spills, one function of the name the backend loads.
#[test]
fn the_copy_kernel_compiles_for_sm_90() {
    nvrtc_version()
        .unwrap_or_else(|e| panic!("NVRTC is needed for this test (it does not skip): {e}"));
    let out = compile(dwt_cuda::COPY_KERNEL_SOURCE, "sm_90").unwrap();
    assert!(!out.log.contains("warning"), "warned:\n{}", out.log);
    let usage = function_usage(&out.log);
    assert!(
        usage.len() == 1
            && usage[0].function == dwt_cuda::COPY_KERNEL
            && usage[0].spill_stores == 0
            && usage[0].spill_loads == 0,
        "{usage:?}"
    );
}

/// `f` of every case, the cases split between two threads (CI has two cores), in no
/// particular order; a panic in either is this test's.
fn on_two_threads<C: Sync, R: Send>(cases: &[C], f: impl Fn(&C) -> R + Sync) -> Vec<R> {
    let f = &f;
    std::thread::scope(|s| {
        let parts: Vec<_> = (0..2)
            .map(|p| s.spawn(move || cases.iter().skip(p).step_by(2).map(f).collect::<Vec<R>>()))
            .collect();
        (parts.into_iter())
            .flat_map(|h| h.join().expect("a part failed (its panic is above)"))
            .collect()
    })
}

/// Compiles one module and checks that ptxas reports every kernel it should, none spilling, and
/// that neither NVRTC nor ptxas warns (an unused helper or variable, say);
/// returns how many kernels it checked.
fn check_module(
    w: &dwt_ir::Wavelet,
    direction: Direction,
    elem: ElementType,
    layout: Layout,
    axes: usize,
    large_volume: bool,
) -> usize {
    let config = match large_volume {
        true => LaunchConfig::default().for_request(w, direction, elem, &[512, 512, 512]),
        false => LaunchConfig::default().for_axes(axes),
    };
    let module =
        emit_module(&Cuda, w, direction, elem, layout, &config).expect("catalogue wavelets emit");
    let what = format!(
        "{} {direction:?} {} {} {axes}-D{}",
        w.name,
        elem.name(),
        layout.name(),
        if large_volume { " 512^3" } else { "" }
    );
    let compiled = compile(&module.source(), "sm_90").unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(!compiled.cubin.is_empty(), "{what}: empty CUBIN");
    assert!(
        !compiled.log.contains("warning"),
        "{what}: NVRTC or ptxas warned:\n{}",
        compiled.log
    );
    let usage = function_usage(&compiled.log);
    let mut expected = vec![module.rows_kernel.clone()];
    expected.extend(module.shift_kernel.clone());
    expected.extend(module.row_segments.as_ref().map(|s| s.kernel.clone()));
    expected.push(module.vertical.columns_kernel.clone());
    let tile = (module.tile.as_ref()).unwrap_or_else(|e| panic!("{what}: {e}"));
    expected.push(tile.kernel.clone());
    // Haar's pyramids (two and three levels), in 2-D and 3-D modules alike.
    expected.extend(module.pyramids.iter().map(|p| p.kernel.clone()));
    // The interleaved 2-D forwards' even rows.
    expected.extend(module.even_rows.clone());
    expected.extend(module.level_pair.as_ref().map(|p| p.kernel.clone()));
    // The one-pass volume kernel of the 3-D forwards of two-tap pairs of steps: LeGall 5/3 and
    // the integer Daubechies 9/7 (i32), CDF 5/3 and CDF 9/7 (f32).
    expected.extend(module.volume.as_ref().map(|v| v.kernel.clone()));
    // The pair-local volume kernel of Haar's 3-D modules.
    expected.extend(module.volume_pairs.clone());
    expected.extend(module.volume_pyramid.clone());
    // Their first level's tile kernel runs by default on images of EVEN_ROWS_MIN_SAMPLES or
    // more, on those requests' tiles: checked there (below). Here it need only compile (on
    // the default tiles Fidelity's i32 one spills 8 bytes under the register cap).
    let even_rows_tile = module.even_rows_tile.as_ref().map(|t| t.kernel.clone());
    let compiled_apart = usize::from(even_rows_tile.is_some());
    if let Some(k) = &even_rows_tile {
        assert!(
            usage.iter().any(|u| &u.function == k),
            "{what}: ptxas reported nothing for {k}"
        );
        let [height, width] = [2160, EVEN_ROWS_MIN_SAMPLES / 2160];
        let config = config.for_request(w, direction, elem, &[height, width]);
        let large = emit_module(&Cuda, w, direction, elem, layout, &config)
            .expect("catalogue wavelets emit");
        let tile =
            (large.even_rows_tile.as_ref()).expect("an interleaved forward's even-rows tile");
        let compiled = compile(&large.source(), "sm_90").unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            !compiled.log.contains("warning"),
            "{what} at {height}x{width}: NVRTC or ptxas warned:\n{}",
            compiled.log
        );
        let usage = function_usage(&compiled.log);
        let u = (usage.iter().find(|u| u.function == tile.kernel))
            .unwrap_or_else(|| panic!("{what}: ptxas reported nothing for {}", tile.kernel));
        assert!(
            u.spill_stores == 0 && u.spill_loads == 0,
            "{what} at {height}x{width}: {} spills; log:\n{}",
            tile.kernel,
            compiled.log
        );
    }
    for k in &expected {
        let u = usage.iter().find(|u| &u.function == k).unwrap_or_else(|| {
            panic!(
                "{what}: ptxas reported nothing for {k}; log:\n{}",
                compiled.log
            )
        });
        assert!(
            u.spill_stores == 0 && u.spill_loads == 0,
            "{what}: {k} spills ({} bytes stores, {} bytes loads); log:\n{}",
            u.spill_stores,
            u.spill_loads,
            compiled.log
        );
        if k == &tile.kernel && layout == Layout::Mallat {
            eprintln!("{what}: fused kernel {:?} registers", u.registers);
        }
    }
    assert_eq!(
        usage.len(),
        expected.len() + compiled_apart,
        "{what}: {usage:?}"
    );
    expected.len() + compiled_apart
}

/// Programs whose lines wrap or whose scales fall between steps: periodic ones (with and without a
/// pre-shift, in integers and floats), whose modules are the rows kernel, the sliding window
/// reading its lines modulo their length (and the shift kernel, for rows too long for the rows
/// kernel) and the fused kernels with wrapped edge tiles, and one scaling between steps, whose
/// module lifts it with its scales moved last, through the sliding window and the fused kernels.
/// Each compiles for sm_90 in both layouts and directions, every element type of its kind,
/// without warnings or spills.
#[test]
fn periodic_and_scaled_modules_compile_for_sm_90() {
    nvrtc_version()
        .unwrap_or_else(|e| panic!("NVRTC is needed for this test (it does not skip): {e}"));
    let mut programs = dwt_ir::parse_str(
        "wavelet PeriodicShifted { boundary = periodic; shift = 1; odd -= (9*(even[0] + even[1]) - (even[-1] + even[2]) + 8) >> 4; even += (odd[-1] + odd[0] + 2) >> 2; }
         wavelet PeriodicFloat { kind = float; boundary = periodic; odd -= 1/2*(even[0] + even[1]); even += 1/4*(odd[-1] + odd[0]); scale 1.2; }",
    )
    .unwrap();
    programs.push(dwt_runtime::conformance::scale_between_steps());
    let mut checked = 0;
    for w in &programs {
        for direction in [Direction::Forward, Direction::Inverse] {
            for elem in ElementType::ALL.into_iter().filter(|e| e.kind() == w.kind) {
                for layout in [Layout::Mallat, Layout::Interleaved] {
                    let what =
                        format!("{} {direction:?} {} {}", w.name, elem.name(), layout.name());
                    let config = LaunchConfig::default();
                    let module = emit_module(&Cuda, w, direction, elem, layout, &config)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    let periodic = w.boundary == dwt_ir::Boundary::Periodic;
                    assert_eq!(module.vertical.wraps, periodic, "{what}");
                    let vertical = &module.vertical.columns_kernel;
                    // Both take the fused pass, a periodic program's edge tiles wrapped.
                    let tile = module
                        .tile
                        .as_ref()
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(
                        tile.edges == dwt_emit_c::EdgeTiles::Wrapped,
                        periodic,
                        "{what}"
                    );
                    assert!(module.pyramids.is_empty(), "{what}");
                    let tiles: Vec<String> = (module.tile.iter().chain(&module.small_tile))
                        .map(|t| t.kernel.clone())
                        .collect();
                    let compiled = compile(&module.source(), "sm_90")
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(
                        !compiled.log.contains("warning"),
                        "{what}: NVRTC or ptxas warned:\n{}",
                        compiled.log
                    );
                    let usage = function_usage(&compiled.log);
                    let shift = module.shift_kernel.iter();
                    let kernels = [&module.rows_kernel, vertical].into_iter().chain(shift);
                    for k in kernels.chain(&tiles) {
                        let u = (usage.iter().find(|u| &u.function == k))
                            .unwrap_or_else(|| panic!("{what}: ptxas reported nothing for {k}"));
                        assert!(
                            u.spill_stores == 0 && u.spill_loads == 0,
                            "{what}: {k} spills"
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 24, "modules checked");
}

/// The fused kernel of every other candidate configuration the measuring planner may time
/// (`LaunchConfig::candidates`: access forms and tile shapes), every catalogue wavelet, direction
/// and element type, 2-D: compiles, and ptxas reports it. Only the fused kernel (a one-level
/// plan of a 1080p image launches nothing else); candidates emitting the default's source are
/// skipped; and the small bands' kernel of each 1920x1080 request that has one
/// (`LaunchConfig::small_band_tiles`), and the fused kernel of each 8192x8192 request whose
/// tiles are not the default's (`LaunchConfig::long_filter_tiles`). None spills: the forward is held to full occupancy only where its first register
/// pass keeps as few values per work-item across its barriers as the default's
/// (`Emitter::kept_values`); with more (two rounds, as in tiles of 32x32 or 64x16 of 256
/// work-items, or segments of 16) 20-40 candidates spilled 88-852 bytes under that cap.
#[test]
fn every_candidate_fused_kernel_compiles_for_sm_90() {
    nvrtc_version()
        .unwrap_or_else(|e| panic!("NVRTC is needed for this test (it does not skip): {e}"));
    let default = LaunchConfig::default();
    let mut cases = Vec::new();
    for w in dwt_catalogue::all() {
        for direction in [Direction::Forward, Direction::Inverse] {
            for elem in ElementType::ALL.into_iter().filter(|e| e.kind() == w.kind) {
                let source = |config: &LaunchConfig| {
                    let module = emit_module(&Cuda, w, direction, elem, Layout::Mallat, config)
                        .expect("catalogue wavelets emit");
                    let plan = dwt_emit_c::plan(&module, &[1080, 1920], 1).expect("plans");
                    (
                        module.source_for(&plan),
                        module.tile.expect("a fused kernel").kernel,
                    )
                };
                // The small bands' kernel of a 1920x1080 request, where the rule gives it one.
                let hd = default.for_request(w, direction, elem, &[1080, 1920]);
                let module = emit_module(&Cuda, w, direction, elem, Layout::Mallat, &hd)
                    .expect("catalogue wavelets emit");
                if let Some(small) = &module.small_tile {
                    // Four levels: Haar's first three take one pyramid launch, its fourth a
                    // small band's tile.
                    let plan = dwt_emit_c::plan(&module, &[1080, 1920], 4).expect("plans");
                    let what = format!("{} {direction:?} {} small bands", w.name, elem.name());
                    cases.push((what, module.source_for(&plan), small.kernel.clone()));
                }
                let mut seen = vec![source(&default).0];
                // The fused kernel of an 8192x8192 request, where the long filters' tiles
                // (`LaunchConfig::long_filter_tiles`) give it others.
                let large = default.for_request(w, direction, elem, &[8192, 8192]);
                let (src, kernel) = source(&large);
                if !seen.contains(&src) {
                    let what = format!("{} {direction:?} {} at 8192^2", w.name, elem.name());
                    cases.push((what, src.clone(), kernel));
                    seen.push(src);
                }
                for c in default.candidates() {
                    if c.config.strategy != dwt_cuda::Strategy::Fused {
                        continue;
                    }
                    let (src, kernel) = source(&c.config);
                    if !seen.contains(&src) {
                        let what = format!("{} {direction:?} {} {}", w.name, elem.name(), c.name);
                        cases.push((what, src.clone(), kernel));
                        seen.push(src);
                    }
                }
            }
        }
    }
    // Every failure, not only the first.
    let check = |(what, src, kernel): &(String, String, String)| -> Option<String> {
        let compiled = match compile(src, "sm_90") {
            Ok(c) => c,
            Err(e) => return Some(format!("{what}: {e}")),
        };
        if compiled.log.contains("warning") {
            return Some(format!("{what}: NVRTC or ptxas warned:\n{}", compiled.log));
        }
        let usage = function_usage(&compiled.log);
        match usage.iter().find(|u| &u.function == kernel) {
            None => return Some(format!("{what}: ptxas reported nothing for {kernel}")),
            Some(u) if u.spill_stores > 0 || u.spill_loads > 0 => {
                return Some(format!(
                    "{what}: {kernel} spills ({} bytes stores, {} bytes loads)",
                    u.spill_stores, u.spill_loads
                ))
            }
            Some(_) => {}
        }
        None
    };
    let failures: Vec<String> = on_two_threads(&cases, check)
        .into_iter()
        .flatten()
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{} candidate fused kernels compiled", cases.len());
    assert!(cases.len() >= 9 * 2 * 2 * 3, "{}", cases.len());
}

#[test]
fn a_compiler_error_is_a_build_error_with_the_offending_line() {
    let source =
        "// line 1\nextern \"C\" __global__ void k(int* x) {\n    x[0] = undeclared_name + 1;\n}\n";
    let e = compile(source, "sm_90").expect_err("does not compile");
    let dwt_runtime::DwtError::Build { backend, log } = &e else {
        panic!("expected Build, got {e:?}");
    };
    assert_eq!(backend, "cuda");
    assert!(log.contains("undeclared_name"), "{log}");
    assert!(
        log.contains("in the emitted source:\n    3 |     x[0] = undeclared_name + 1;"),
        "{log}"
    );
}

/// More static shared memory than a block may have: NVRTC fails with nothing but warnings and
/// ptxas' usage in its log; the error says which kernel and how much.
#[test]
fn too_much_shared_memory_is_a_build_error_naming_the_kernel() {
    let source = "extern \"C\" __global__ void big(int* x) {\n    __shared__ int s[12448];\n    s[threadIdx.x] = x[threadIdx.x];\n    __syncthreads();\n    x[threadIdx.x] = s[(threadIdx.x * 7) % 12448];\n}\n";
    let e = compile(source, "sm_90").expect_err("does not build");
    let dwt_runtime::DwtError::Build { log, .. } = &e else {
        panic!("expected Build, got {e:?}");
    };
    assert!(
        log.contains("big declares 49792 bytes of static shared memory, more than the 49152"),
        "{log}"
    );
}

/// `LaunchConfig::register_cap`: `Some(true)` holds the fused kernels of both directions to
/// full occupancy whatever the rule says, `Some(false)` none. And the premise of the CUDA
/// executor's spill check (`CudaBackend::uncapped_kernels`, run on the GPU in `cuda.rs`): CDF
/// 9/7's forward with register segments of 16, capped, spills under ptxas for sm_90 (the rule
/// would not cap it), while with the default segments it does not, nor uncapped.
#[test]
fn a_capped_kernel_that_keeps_too_much_spills() {
    nvrtc_version()
        .unwrap_or_else(|e| panic!("NVRTC is needed for this test (it does not skip): {e}"));
    let cdf97 = dwt_catalogue::by_name("Cdf97").expect("catalogue wavelet");
    let tile_spills = |direction, segment, register_cap| {
        let config = LaunchConfig {
            segment,
            register_cap,
            ..LaunchConfig::default()
        };
        let module = emit_module(
            &Cuda,
            cdf97,
            direction,
            ElementType::F32,
            Layout::Mallat,
            &config,
        )
        .expect("emits");
        let tile = module.tile.as_ref().expect("a fused kernel");
        // No other kernel of the module asks for a number of groups per multiprocessor.
        assert_eq!(
            module.source().contains("__launch_bounds__(256, 8)"),
            tile.full_occupancy,
            "{direction:?} {segment} {register_cap:?}"
        );
        let compiled = compile(&module.source(), "sm_90").expect("compiles");
        let usage = function_usage(&compiled.log);
        let u = usage
            .iter()
            .find(|u| u.function == tile.kernel)
            .expect("reported");
        (tile.full_occupancy, u.spill_stores + u.spill_loads > 0)
    };
    use Direction::{Forward, Inverse};
    assert_eq!(tile_spills(Forward, 16, Some(true)), (true, true));
    assert_eq!(tile_spills(Forward, 16, None), (false, false));
    assert_eq!(tile_spills(Forward, 16, Some(false)), (false, false));
    assert_eq!(tile_spills(Forward, 8, Some(true)), (true, false));
    assert_eq!(tile_spills(Forward, 8, None), (true, false));
    assert_eq!(tile_spills(Forward, 8, Some(false)), (false, false));
    assert_eq!(tile_spills(Inverse, 8, None), (false, false));
    assert!(tile_spills(Inverse, 8, Some(true)).0);
}
