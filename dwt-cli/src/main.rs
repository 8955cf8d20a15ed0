//! `dwt`: the lifting command line. Transforms images and volumes with any catalogue wavelet or a
//! wavelet file, emits the generated kernels, and shows what the compiler derives for a wavelet.
//!
//! Every failure ends with one line `dwt: ...` on stderr and exit code 1 (2 for bad usage).

mod data;
mod files;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use lifting::ir::{Direction, ElementKind, ElementType, Layout, Wavelet};
use lifting::runtime::growth::{bit_growth_for_shape, GrowthAnalysis, InputRange};
use lifting::runtime::{cpu, Request, BACKEND_ENV};

use data::parse_dtype;
use files::Sidecar;

#[derive(Parser)]
#[command(
    name = "dwt",
    version,
    about = "Wavelet lifting transforms, kernels and facts"
)]
struct Cli {
    /// No progress bar and no notices on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Transform an image (PNG, PGM, TIFF), a .npy array or a raw volume; or, with --inverse,
    /// reconstruct from coefficients.
    Transform(TransformArgs),
    /// Print the generated kernel module of a wavelet.
    Emit(EmitArgs),
    /// What the compiler derives for a wavelet: inverse, supports, filters, op counts, sliding
    /// windows and worst-case bit growth.
    Info(InfoArgs),
    /// The catalogue's wavelets and the backends with their devices.
    List,
    /// Write a synthetic grayscale test scene (gradients, a disc, stripes, a little noise), as the
    /// README's main job uses. Sizes whose memory (14 bytes a sample at 8 bits, 20 at 16) would
    /// pass 8 GiB, or the memory available, are refused.
    Sample(SampleArgs),
}

#[derive(Args)]
struct SampleArgs {
    /// .png, .pgm or .tif.
    output: PathBuf,
    #[arg(long, default_value_t = 1920)]
    width: usize,
    #[arg(long, default_value_t = 1080)]
    height: usize,
    /// 8 or 16.
    #[arg(long, default_value_t = 8)]
    bits: u32,
}

#[derive(Args)]
struct TransformArgs {
    /// Input: an image (.png, .pgm, .tif), a .npy array, or raw samples (needs --shape and
    /// --dtype); with --inverse, coefficients (.npy, or raw with its .json sidecar).
    input: PathBuf,
    /// Output: coefficients as .npy, or raw with a .json sidecar; with --inverse, the
    /// reconstruction as .png, .pgm, .tif or .npy.
    output: PathBuf,
    /// A catalogue wavelet (see `dwt list`) or a wavelet file in the `lifting!` language.
    #[arg(long, short)]
    wavelet: Option<String>,
    /// Decomposition levels.
    #[arg(long, short)]
    levels: Option<u32>,
    /// Reconstruct from coefficients instead.
    #[arg(long)]
    inverse: bool,
    /// cpu, opencl, cuda, auto, or any registered backend (default: $DWT_BACKEND if set and not
    /// empty, else auto). An empty --backend is refused: give auto, or leave it out.
    #[arg(long, short)]
    backend: Option<String>,
    #[arg(long, value_enum)]
    layout: Option<LayoutArg>,
    /// Shape of raw input: N, H,W or D,H,W.
    #[arg(long)]
    shape: Option<String>,
    /// Element type: i16, i32, f32 or f64 (default: i16 or i32 for integer wavelets, whichever the
    /// worst-case bit growth fits; f32 for float ones). With --inverse, the coefficients' type,
    /// also for a .npy reconstruction (by default written in the input's own dtype, e.g. uint8).
    #[arg(long)]
    dtype: Option<String>,
    /// Also write an 8-bit PNG picture of the subband pyramid (2-D, Mallat layout).
    #[arg(long)]
    preview: Option<PathBuf>,
    /// Transform even when the worst case of the wavelet does not fit the element type.
    #[arg(long)]
    allow_overflow: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutArg {
    Mallat,
    Interleaved,
}

impl From<LayoutArg> for Layout {
    fn from(l: LayoutArg) -> Layout {
        match l {
            LayoutArg::Mallat => Layout::Mallat,
            LayoutArg::Interleaved => Layout::Interleaved,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Target {
    Opencl,
    Cuda,
}

#[derive(Args)]
struct EmitArgs {
    #[arg(long, short)]
    wavelet: String,
    #[arg(long, value_enum, default_value = "opencl")]
    target: Target,
    #[arg(long)]
    inverse: bool,
    /// i16, i32, f32 or f64 (default: i16 for integer wavelets, f32 for float ones).
    #[arg(long)]
    dtype: Option<String>,
    #[arg(long, value_enum, default_value = "mallat")]
    layout: LayoutArg,
    /// The kernels a transform of this shape runs (N, H,W or D,H,W): the long filters take wider
    /// tiles on large planes, and 2-D bands of at most 960x540 samples a second fused kernel on
    /// smaller tiles. Default: the configured tiles, whatever the shape.
    #[arg(long)]
    shape: Option<String>,
}

#[derive(Args)]
struct InfoArgs {
    #[arg(long, short)]
    wavelet: String,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let quiet = cli.quiet;
    let result = match cli.command {
        Command::Transform(a) => transform(a, quiet),
        Command::Emit(a) => emit(a),
        Command::Info(a) => info(a),
        Command::List => list(),
        Command::Sample(a) => sample(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dwt: {}", e.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

type Result<T> = std::result::Result<T, String>;

/// A catalogue wavelet by name, or the one wavelet of a file in the `lifting!` language.
fn load_wavelet(spec: &str) -> Result<Wavelet> {
    let wavelets = lifting::catalogue::by_name_or_file(spec).map_err(|e| e.to_string())?;
    match <[Wavelet; 1]>::try_from(wavelets) {
        Ok([w]) => Ok(w),
        Err(v) => Err(format!(
            "{spec}: the file declares {} wavelets ({}); a wavelet file holds one: put each in its own file",
            v.len(),
            v.iter().map(|w| w.name.as_str()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// A shape as `--shape` writes it: `1080,1920`.
fn dims_text(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    dims.join(",")
}

fn parse_shape(s: &str) -> Result<Vec<usize>> {
    let shape = s
        .split(',')
        .map(|d| {
            d.trim()
                .parse::<usize>()
                .map_err(|_| format!("bad --shape `{s}`: use N, H,W or D,H,W"))
        })
        .collect::<Result<Vec<_>>>()?;
    if shape.is_empty() || shape.len() > 3 || shape.contains(&0) {
        return Err(format!(
            "bad --shape `{s}`: use N, H,W or D,H,W with positive sizes"
        ));
    }
    lifting::runtime::cpu::sample_count(&shape).map_err(|e| format!("--shape `{s}`: {e}"))?;
    Ok(shape)
}

/// The smallest input range holding every value of integer data.
fn input_range(values: &[i64]) -> InputRange {
    let lo = values.iter().copied().min().unwrap_or(0);
    let hi = values.iter().copied().max().unwrap_or(0);
    let signed = lo < 0;
    (1..=InputRange::MAX_BITS)
        .filter_map(|bits| InputRange::new(bits, signed).ok())
        .find(|r| r.interval().contains(lo as i128) && r.interval().contains(hi as i128))
        .expect("64 bits hold every i64")
}

/// Runs `request` on `backend` through its preparation, so that what the preparation warns of
/// is printed: a disk cache that cannot be written costs a compile in every run.
fn run_reporting(
    backend: &dyn lifting::runtime::Backend,
    request: &Request,
    samples: lifting::runtime::Samples,
) -> Result<()> {
    let prepared = backend
        .prepare(request, samples.element_type())
        .map_err(|e| e.to_string())?;
    // One line: with measured tuning every candidate's entry fails alike.
    if let Some((first, rest)) = prepared.report.cache_warnings.split_first() {
        match rest.len() {
            0 => eprintln!("dwt: warning: {first}"),
            n => eprintln!("dwt: warning: {first} (and {n} more entries could not be written)"),
        }
    }
    match &prepared.transform {
        Some(t) => t.run(samples),
        None => backend.run(request, samples),
    }
    .map_err(|e| e.to_string())
}

fn transform(a: TransformArgs, quiet: bool) -> Result<()> {
    if files::same_file(&a.input, &a.output) {
        return Err(format!(
            "the output {} is the input file; choose another output",
            a.output.display()
        ));
    }
    if !a.input.exists() {
        return Err(format!("{}: no such file", a.input.display()));
    }
    check_backend_flag(a.backend.as_deref())?;
    check_outputs(&a)?;
    let progress = files::Progress::new(quiet);
    if a.inverse {
        inverse(a, quiet, &progress)
    } else {
        forward(a, quiet, &progress)
    }
}

/// Checks every file the transform would write before any work: its format, that it is not the
/// input (nor, on --inverse, the input's sidecar), not another output, not a directory, and that
/// its directory exists. Nothing is written unless all of them can be.
fn check_outputs(a: &TransformArgs) -> Result<()> {
    let mut outputs: Vec<(&str, PathBuf)> = vec![("the output", a.output.clone())];
    if a.inverse {
        if let Some(p) = &a.preview {
            return Err(format!(
                "--preview {} pictures coefficients: give it to the forward transform",
                p.display()
            ));
        }
        if files::kind(&a.output) == files::Kind::Raw {
            return Err(format!(
                "{}: write the reconstruction as .png, .pgm, .tif or .npy",
                a.output.display()
            ));
        }
    } else {
        if files::kind(&a.output) == files::Kind::Image {
            return Err(format!(
                "{}: coefficients are written as .npy or raw; use --preview FILE.png for a picture",
                a.output.display()
            ));
        }
        let side = files::sidecar_path(&a.output);
        if side == a.output {
            return Err(format!(
                "{} would be overwritten by its own sidecar; name the output .npy or .raw",
                a.output.display()
            ));
        }
        outputs.push(("the sidecar", side));
        if let Some(p) = &a.preview {
            if files::kind(p) != files::Kind::Image {
                return Err(format!(
                    "--preview {}: the preview is a picture; name it .png, .pgm or .tif",
                    p.display()
                ));
            }
            outputs.push(("the preview", p.clone()));
        }
    }
    for (what, path) in &outputs {
        if let Some(ext) = files::unsupported_image(path) {
            return Err(format!(
                "{what} {}: .{ext} is not written; use {}",
                path.display(),
                match *what {
                    "the preview" => ".png, .pgm or .tif",
                    _ if a.inverse => ".png, .pgm, .tif or .npy",
                    _ => ".npy or raw (e.g. .raw)",
                }
            ));
        }
    }
    let input_side = files::sidecar_path(&a.input);
    for (i, (what, path)) in outputs.iter().enumerate() {
        if files::same_file(path, &a.input) {
            return Err(format!(
                "{what} {} is the input file {}; choose another name",
                path.display(),
                a.input.display()
            ));
        }
        if a.inverse && input_side != a.input && files::same_file(path, &input_side) {
            return Err(format!(
                "{what} {} is the input's sidecar {}; choose another name",
                path.display(),
                input_side.display()
            ));
        }
        for (other, other_path) in &outputs[..i] {
            if files::same_file(path, other_path) {
                return Err(format!(
                    "{what} {} is also {other} {}; choose another name",
                    path.display(),
                    other_path.display()
                ));
            }
        }
        files::check_writable(path, what)?;
    }
    if !a.inverse {
        files::check_sidecar_replaceable(&files::sidecar_path(&a.output), &a.output)?;
    }
    Ok(())
}

/// Refuses an empty `--backend` in the command line's words, before any input is read (the
/// registry refuses an empty name too): here it is almost always a shell variable that was not
/// set (`-b "$BACKEND"`). An empty `DWT_BACKEND` still means auto, as the registry documents: an
/// exported empty variable is the usual way to leave it unset.
fn check_backend_flag(choice: Option<&str>) -> Result<()> {
    if choice.is_some_and(|c| c.trim().is_empty()) {
        let mut names = lifting::registry()
            .names()
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
        names.push("auto".into());
        return Err(format!(
            "--backend is empty (an unset shell variable?); name a backend: {} (`--backend auto`, or leaving --backend out, picks one)",
            names.join(", ")
        ));
    }
    Ok(())
}

fn select_backend(
    choice: Option<&str>,
    quiet: bool,
) -> Result<std::sync::Arc<dyn lifting::runtime::Backend>> {
    let env = std::env::var(BACKEND_ENV).ok();
    let s = lifting::registry()
        .choose(choice, env.as_deref())
        .map_err(|e| e.to_string())?;
    if !quiet {
        eprintln!("{}", s.notice);
    }
    Ok(s.backend)
}

/// An error, saying `what` of their count, where `data` holds NaN or infinite samples.
fn finite(data: &data::Data, what: impl FnOnce(usize) -> String) -> Result<()> {
    match data.non_finite() {
        0 => Ok(()),
        n => Err(what(n)),
    }
}

/// What a float transform whose values left the element type's range says of `n` of them.
fn overflowed(wavelet: &Wavelet, element: ElementType, n: usize) -> String {
    let advice = match element {
        ElementType::F64 => "use a wavelet with smaller coefficients, or scale the data down",
        _ => "use --dtype f64, or a wavelet with smaller coefficients",
    };
    format!(
        "{} overflowed {}: {n} values are not finite; {advice}",
        wavelet.name,
        element.name()
    )
}

fn check_level_count(levels: u32) -> Result<()> {
    if levels == 0 {
        return Err("--levels 0: a transform takes at least 1 level".into());
    }
    Ok(())
}

fn check_levels(shape: &[usize], levels: u32) -> Result<()> {
    let max = cpu::max_levels(shape);
    if levels > max {
        let e = lifting::runtime::DwtError::TooManyLevels {
            shape: shape.to_vec(),
            levels,
            max,
        };
        return Err(e.to_string());
    }
    Ok(())
}

fn forward(a: TransformArgs, quiet: bool, progress: &files::Progress) -> Result<()> {
    let wavelet = load_wavelet(
        a.wavelet
            .as_deref()
            .ok_or("--wavelet is required for a forward transform")?,
    )?;
    let levels = a
        .levels
        .ok_or("--levels is required for a forward transform")?;
    check_level_count(levels)?;
    let layout: Layout = a.layout.map_or(Layout::Mallat, Into::into);
    let dtype = a.dtype.as_deref().map(parse_dtype).transpose()?;
    let shape_arg = a.shape.as_deref().map(parse_shape).transpose()?;

    progress.stage("reading");
    let input = files::read_input(&a.input, shape_arg.as_deref(), dtype)?;
    // A PNG or TIFF of fewer than 8 bits is read as its stored values, not as `image` widens
    // them: say so, and what a reconstruction will be (a PGM's samples are read as stored anyway).
    if let Some(bits) = input
        .image_bits
        .filter(|&b| b < 8 && input.maxval.is_none())
    {
        if !quiet {
            eprintln!(
                "note: {} is a {bits}-bit image: its samples are read as stored, 0 to {} (not widened to 0 to 255); a PNG or TIFF reconstruction is 8-bit with the same values (.pgm keeps maxval {})",
                a.input.display(),
                (1u32 << bits) - 1,
                (1u32 << bits) - 1
            );
        }
    }
    let shape = input.shape.clone();
    if let Some(given) = shape_arg.filter(|given| *given != shape) {
        return Err(format!(
            "--shape {} contradicts {}'s own shape {}; --shape is for raw input: leave it out",
            dims_text(&given),
            a.input.display(),
            dims_text(&shape)
        ));
    }
    check_levels(&shape, levels)?;
    if a.preview.is_some() && (shape.len() != 2 || layout != Layout::Mallat) {
        return Err("--preview needs 2-D data in the Mallat layout".into());
    }
    progress.volume(&shape);

    if let Some(t) = dtype.filter(|t| t.kind() != wavelet.kind) {
        return Err(format!(
            "wavelet `{}` is {} but --dtype {} is {}; use {} data",
            wavelet.name,
            wavelet.kind.name(),
            t.name(),
            t.kind().name(),
            if wavelet.kind == ElementKind::Integer {
                "i16 or i32"
            } else {
                "f32 or f64"
            }
        ));
    }
    // An integer wavelet's worst case on this input's range and shape, analysed once.
    let growth = match wavelet.kind {
        ElementKind::Float => None,
        ElementKind::Integer => {
            let v = input.data.to_i64().ok_or_else(|| {
                format!(
                    "{} holds {} samples but wavelet `{}` is integer; pass integer data",
                    a.input.display(),
                    input.data.element_type().name(),
                    wavelet.name
                )
            })?;
            let range = input.range.unwrap_or_else(|| input_range(&v));
            let growth = bit_growth_for_shape(&wavelet, levels, &shape, range)
                .expect("an integer wavelet has a bound");
            Some((range, growth))
        }
    };
    // The element type: as asked, or the narrowest integer type the worst case fits.
    let element = match (&growth, dtype) {
        (_, Some(t)) => t,
        (None, None) => ElementType::F32,
        (Some((range, g)), None)
            if g.check(ElementType::I16, false).is_ok() && range.interval().bits() <= 16 =>
        {
            ElementType::I16
        }
        (Some(_), None) => ElementType::I32,
    };
    let mut overflow_allowed = false;
    if let Some((_, g)) = &growth {
        let verdict = g.check(element, a.allow_overflow).map_err(|e| {
            if files::kind(&a.input) == files::Kind::Raw {
                // --dtype is also the raw file's element type: "use i32" alone would mean
                // reading the file as i32.
                format!(
                    "{e} (for raw input --dtype is also the file's element type: to transform in a wider type, convert {} to that type, or save it as .npy, whose header gives its type, and pass --dtype)",
                    a.input.display()
                )
            } else {
                e.to_string()
            }
        })?;
        overflow_allowed = a.allow_overflow && g.check(element, false).is_err();
        if !quiet {
            eprintln!("{verdict}");
        }
    }
    let input_dtype = input.stored;
    finite(&input.data, |n| {
        format!(
            "{} has {n} samples that are not finite (NaN or infinite); lifting would spread them to their neighbours: replace them first",
            a.input.display(),
        )
    })?;
    let mut data =
        (input.data.convert(element)).map_err(|e| format!("{}: {e}", a.input.display()))?;
    // Finite in the file, beyond the element type's range once narrowed (1e300 in f32).
    finite(&data, |n| {
        format!(
            "{} has {n} samples beyond the range of {}; transform it with --dtype f64",
            a.input.display(),
            element.name()
        )
    })?;
    let backend = select_backend(a.backend.as_deref(), quiet)?;

    progress.stage("transforming");
    let request = Request {
        wavelet: &wavelet,
        direction: Direction::Forward,
        shape: shape.clone(),
        levels,
        layout,
    };
    run_reporting(backend.as_ref(), &request, data.samples())?;
    finite(&data, |n| overflowed(&wavelet, element, n))?;

    progress.stage("writing");
    let coefficients = files::coefficient_bytes(&a.output, &data, &shape)?;
    let sidecar = Sidecar {
        data: a
            .output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned()),
        data_sha256: Some(files::fingerprint(&coefficients)),
        shape: shape.clone(),
        dtype: element.name().into(),
        wavelet: wavelet.name.clone(),
        wavelet_source: wavelet.to_string(),
        levels,
        layout: layout.name().into(),
        direction: "forward".into(),
        input_bits: input.image_bits,
        input_maxval: input.maxval,
        input_dtype: Some(input_dtype.name().into()),
        allow_overflow: overflow_allowed,
    };
    // Every file is encoded and written to a temporary before any is renamed into place. The
    // sidecar goes first: a run stopped between the renames leaves the new fingerprint beside
    // the old coefficients, which an inverse refuses, never new coefficients beside an older
    // sidecar that may have no fingerprint to check.
    let mut staged = files::Staged::default();
    staged.write(
        &files::sidecar_path(&a.output),
        &files::sidecar_bytes(&sidecar),
    )?;
    staged.write(&a.output, &coefficients)?;
    if let Some(p) = &a.preview {
        staged.write(p, &files::preview_bytes(p, &data.to_f64(), &shape, levels)?)?;
    }
    staged.commit()?;
    progress.finish();
    if !quiet {
        eprintln!(
            "wrote {} ({} {:?}, {} levels of {}, {} layout, backend {})",
            a.output.display(),
            element.name(),
            shape,
            levels,
            wavelet.name,
            layout.name(),
            backend.name()
        );
    }
    Ok(())
}

fn inverse(a: TransformArgs, quiet: bool, progress: &files::Progress) -> Result<()> {
    progress.stage("reading");
    let files::Coefficients {
        data,
        shape,
        sidecar,
    } = files::read_coefficients(&a.input, a.shape.as_deref(), a.dtype.as_deref())?;
    let side = files::sidecar_path(&a.input);
    let contradiction = |flag: &str,
                         given: &dyn std::fmt::Display,
                         says: &dyn std::fmt::Display| {
        format!(
            "{flag} {given} contradicts the sidecar {}, which says {says}; leave {flag} out to use the sidecar's",
            side.display()
        )
    };
    let wavelet = match (&a.wavelet, &sidecar) {
        (Some(w), Some((s, sw))) => {
            let w = load_wavelet(w)?;
            if w.name != sw.name {
                return Err(contradiction("--wavelet", &w.name, &s.wavelet));
            }
            if !files::same_wavelet(&w, sw) {
                return Err(format!(
                    "--wavelet {} is not the program the sidecar {} records under that name; leave --wavelet out to use the sidecar's",
                    w.name,
                    side.display()
                ));
            }
            w
        }
        (Some(w), None) => load_wavelet(w)?,
        (None, Some((_, sw))) => sw.clone(),
        (None, None) => return Err("--wavelet is required (no sidecar says which)".into()),
    };
    let levels = match (a.levels, &sidecar) {
        (Some(l), Some((s, _))) if l != s.levels => {
            return Err(contradiction("--levels", &l, &s.levels))
        }
        (Some(l), _) => l,
        (None, Some((s, _))) => s.levels,
        (None, None) => return Err("--levels is required (no sidecar says how many)".into()),
    };
    check_level_count(levels)?;
    let layout: Layout = match (a.layout, &sidecar) {
        (Some(l), Some((s, _))) if Layout::from(l).name() != s.layout => {
            return Err(contradiction(
                "--layout",
                &Layout::from(l).name(),
                &s.layout,
            ))
        }
        (Some(l), _) => l.into(),
        (None, Some((s, _))) if s.layout == "interleaved" => Layout::Interleaved,
        _ => Layout::Mallat,
    };
    let sidecar = sidecar.map(|(s, _)| s);
    check_levels(&shape, levels)?;
    if sidecar.as_ref().is_some_and(|s| s.allow_overflow) {
        eprintln!(
            "warning: {} says the forward transform ran with --allow-overflow past the worst case of the element type: if a coefficient wrapped, this reconstruction is not the input",
            side.display()
        );
    }
    let mut data = data;
    progress.volume(&shape);
    let backend = select_backend(a.backend.as_deref(), quiet)?;
    progress.stage("transforming");
    let request = Request {
        wavelet: &wavelet,
        direction: Direction::Inverse,
        shape: shape.clone(),
        levels,
        layout,
    };
    finite(&data, |n| {
        format!(
            "{} has {n} coefficients that are not finite (NaN or infinite); they cannot be inverted",
            a.input.display()
        )
    })?;
    run_reporting(backend.as_ref(), &request, data.samples())?;
    finite(&data, |n| overflowed(&wavelet, data.element_type(), n))?;
    progress.stage("writing");
    let bits = sidecar.as_ref().and_then(|s| s.input_bits);
    if let Some(note) = files::narrow_picture_note(&a.output, bits).filter(|_| !quiet) {
        eprintln!("{note}");
    }
    // Back in the type the input was stored in (uint8 stays uint8), unless --dtype asks for the
    // coefficients' type; values that do not fit it are an error, never wrapped. Across element
    // kinds (a float wavelet on integer input) the reconstruction is not the input's values, so
    // it keeps its own type.
    let npy_type = sidecar
        .as_ref()
        .and_then(|s| s.input_dtype.as_deref())
        .and_then(data::NpyType::parse)
        .filter(|t| a.dtype.is_none() && t.element_type().kind() == data.element_type().kind());
    let mut staged = files::Staged::default();
    staged.write(
        &a.output,
        &files::output_bytes(
            &a.output,
            &data,
            &shape,
            bits,
            sidecar.as_ref().and_then(|s| s.input_maxval),
            npy_type,
        )?,
    )?;
    staged.commit()?;
    progress.finish();
    if !quiet {
        eprintln!(
            "wrote {} ({:?}, inverse of {} levels of {}, backend {})",
            a.output.display(),
            shape,
            levels,
            wavelet.name,
            backend.name()
        );
    }
    Ok(())
}

fn default_dtype(w: &Wavelet, dtype: Option<&str>) -> Result<ElementType> {
    match dtype {
        Some(d) => parse_dtype(d),
        None if w.kind == ElementKind::Integer => Ok(ElementType::I16),
        None => Ok(ElementType::F32),
    }
}

fn emit(a: EmitArgs) -> Result<()> {
    let wavelet = load_wavelet(&a.wavelet)?;
    let element = default_dtype(&wavelet, a.dtype.as_deref())?;
    let dialect: &dyn dwt_emit_c::Dialect = match a.target {
        Target::Cuda => &dwt_emit_c::Cuda,
        Target::Opencl => &dwt_emit_c::OpenCl,
    };
    let direction = if a.inverse {
        Direction::Inverse
    } else {
        Direction::Forward
    };
    let mut config = dwt_emit_c::LaunchConfig::default();
    if let Some(shape) = a.shape.as_deref().map(parse_shape).transpose()? {
        config = config.for_request(&wavelet, direction, element, &shape);
    }
    let module = dwt_emit_c::emit_module(
        dialect,
        &wavelet,
        direction,
        element,
        a.layout.into(),
        &config,
    )
    .map_err(|e| e.to_string())?;
    write_stdout(&module.source())
}

/// Writes a command's report to stdout. A reader that closed the pipe before the end (`dwt emit
/// ... | head`) does not want the rest: not an error (`print!` panicked there).
fn write_stdout(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("could not write to stdout: {e}"))
        }
        _ => Ok(()),
    }
}

fn info(a: InfoArgs) -> Result<()> {
    let w = load_wavelet(&a.wavelet)?;
    let mut o = String::new();
    let _ = writeln!(o, "{w}\n");
    let inverse = w.inverse();
    let _ = writeln!(o, "inverse (synthesis) program:");
    for line in inverse.to_string().lines() {
        let _ = writeln!(o, "    {line}");
    }
    let _ = writeln!(o);
    let supports: Vec<String> = w
        .program
        .step_supports()
        .iter()
        .map(|(a, b)| format!("[{a}, {b}]"))
        .collect();
    let _ = writeln!(
        o,
        "step supports (samples read relative to the target): {}",
        supports.join(", ")
    );
    let [low, high] = w.program.equivalent_filters();
    let _ = writeln!(
        o,
        "equivalent filters: low-pass {} taps {:?}, high-pass {} taps {:?} (named ({}, {}))",
        low.len(),
        low.support(),
        high.len(),
        high.support(),
        low.len(),
        high.len()
    );
    let _ = writeln!(o, "total support: {:?}", w.program.total_support());
    let _ = writeln!(
        o,
        "op counts, forward: {}; inverse: {}",
        w.program.op_counts(),
        inverse.op_counts()
    );
    if w.boundary == lifting::ir::Boundary::Periodic {
        let _ = writeln!(
            o,
            "sliding window: lines read modulo their length, the clamp rule's window at its own ends"
        );
    }
    // The window the GPU kernels slide (`Boundary::window_rule`: a periodic line's is the clamp
    // rule's).
    for (name, direction) in [
        ("forward", Direction::Forward),
        ("inverse", Direction::Inverse),
    ] {
        let window = (w.program_for(direction)).sliding_window(w.boundary.window_rule());
        let _ = writeln!(o, "sliding window, {name}: {}", window.geometry());
    }
    // The any-shape analysis grows with the cube of the program's reach: as many levels as take
    // a few seconds (a transform checks its own shape, which is cheap, whatever the reach).
    let analysed = GrowthAnalysis::affordable_levels(&w, 4);
    // `analysed` levels are affordable, far under the analysis's own limit.
    match GrowthAnalysis::new(&w, analysed).map_err(|e| e.to_string())? {
        None => {
            let _ = writeln!(o, "bit growth: none to bound (float wavelet)");
        }
        Some(g) => {
            let _ = writeln!(
                o,
                "\nworst-case bits per stored coefficient (any shape; unsigned input):"
            );
            let _ = writeln!(o, "    input  dims  1 level  2 levels  3 levels  4 levels");
            for bits in [8, 10, 12, 16] {
                for dims in 1..=3 {
                    let cells: Vec<String> = (1..=4)
                        .map(|l| {
                            if l > analysed {
                                return format!("{:>8}", "-");
                            }
                            let r = g.growth(
                                l,
                                dims,
                                InputRange::unsigned(bits).expect("the table's bit depths"),
                            );
                            let mark = if r.working_bits() > 32 { "!" } else { "" };
                            format!("{:>8}", format!("{}{mark}", r.bits()))
                        })
                        .collect();
                    let _ = writeln!(o, "    {bits:>2}-bit  {dims}-D {}", cells.join("  "));
                }
            }
            let _ = writeln!(
                o,
                "    (! = intermediate sums exceed the 32-bit arithmetic)"
            );
            if analysed < 4 {
                let _ = writeln!(
                    o,
                    "    (- = not analysed for every shape: this program reads so far that it would take minutes; `dwt transform` checks its own shape)"
                );
            }
        }
    }
    write_stdout(&o)
}

fn list() -> Result<()> {
    let mut o = String::new();
    let _ = writeln!(o, "wavelets:");
    for w in lifting::catalogue::all() {
        let _ = writeln!(
            o,
            "    {:<22} {:<8} {}",
            w.name,
            w.kind.name(),
            w.doc.first().map(String::as_str).unwrap_or("")
        );
    }
    let _ = writeln!(
        o,
        "backends (select with --backend or {BACKEND_ENV}; auto tries cuda, opencl, cpu):"
    );
    for b in lifting::registry().list() {
        let _ = writeln!(o, "    {b}");
    }
    #[cfg(feature = "opencl")]
    opencl_devices(&mut o);
    #[cfg(feature = "cuda")]
    cuda_devices(&mut o);
    write_stdout(&o)
}

/// The CUDA devices, the one the backend runs on marked `*`.
#[cfg(feature = "cuda")]
fn cuda_devices(o: &mut String) {
    use lifting::cuda::{ordinal_from_env, CudaBackend, DEVICE_ENV};
    let listed = CudaBackend::devices().ok().map(|names| {
        let chosen = ordinal_from_env().ok().map(|o| o.unwrap_or(0));
        let lines = names.iter().enumerate().map(|(i, n)| format!("{i} {n}"));
        (lines.collect(), chosen)
    });
    device_lines(
        o,
        format!("cuda devices (select with {DEVICE_ENV}: an ordinal; unset, 0):"),
        listed,
    );
}

/// The OpenCL devices, the one the backend runs on marked `*`.
#[cfg(feature = "opencl")]
fn opencl_devices(o: &mut String) {
    use lifting::opencl::{DeviceSelector, OpenClBackend, DEVICE_ENV};
    let listed = OpenClBackend::devices().ok().map(|devices| {
        let chosen = DeviceSelector::from_env()
            .and_then(|s| s.choose(&devices, DEVICE_ENV))
            .ok();
        (devices.iter().map(ToString::to_string).collect(), chosen)
    });
    device_lines(
        o,
        format!("opencl devices (select with {DEVICE_ENV}: a platform:device index, gpu, accelerator, cpu or a part of a name; unset, the first GPU):"),
        listed,
    );
}

/// A backend's devices under `header`, the one it runs on marked `*`; `none` where it lists
/// none (the backend's line above says why).
#[cfg(any(feature = "opencl", feature = "cuda"))]
fn device_lines(o: &mut String, header: String, listed: Option<(Vec<String>, Option<usize>)>) {
    let _ = writeln!(o, "{header}");
    let Some((devices, chosen)) = listed else {
        let _ = writeln!(o, "    none");
        return;
    };
    for (i, d) in devices.iter().enumerate() {
        let mark = if chosen == Some(i) { '*' } else { ' ' };
        let _ = writeln!(o, "  {mark} {d}");
    }
}

/// The most memory `dwt sample` takes: the scene is synthetic, so a size needing more is a
/// typo, not data to process; and the memory available now, where less, since an allocation
/// beyond it aborts rather than fails.
const SAMPLE_MEMORY_CAP: u64 = 8 << 30;

/// The memory available now (Linux's MemAvailable), if known.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// The scene of examples/transform_image.rs at any size: smooth gradients, a disc with a hard
/// edge, fine stripes and deterministic noise, so every band has something in it.
fn sample(a: SampleArgs) -> Result<()> {
    if a.width == 0 || a.height == 0 || a.width > 1 << 15 || a.height > 1 << 15 {
        return Err("--width and --height must be 1 to 32768".into());
    }
    if a.bits != 8 && a.bits != 16 {
        return Err("--bits must be 8 or 16".into());
    }
    if files::kind(&a.output) != files::Kind::Image {
        return Err(format!(
            "{}: write the sample as .png, .pgm or .tif",
            a.output.display()
        ));
    }
    files::check_writable(&a.output, "the sample")?;
    // At the peak a sample is held as the element type (2 or 4 bytes), the i64 copy the range
    // is checked on (8), the pixels, the encoder's copy of them and the encoded file (a pixel's
    // size each, 1 or 2), and a pixel's size of slack: measured, 12 bytes at 8 bits and 18 at 16.
    let pixel = u64::from(a.bits / 8);
    let per_sample = 2 * pixel + 8 + 4 * pixel;
    let samples = a.width as u64 * a.height as u64;
    let needed = samples * per_sample;
    let (cap, why) = match available_memory() {
        Some(m) if m < SAMPLE_MEMORY_CAP => (m, "the memory available now"),
        _ => (SAMPLE_MEMORY_CAP, "the most `dwt sample` takes"),
    };
    if needed > cap {
        return Err(format!(
            "a {} x {} {}-bit sample needs about {} of memory ({per_sample} bytes a sample), more than {why} ({}); choose a smaller --width or --height",
            a.width,
            a.height,
            a.bits,
            gib(needed),
            gib(cap)
        ));
    }
    let (w, h) = (a.width as f64, a.height as f64);
    let mut noise = 0x2545_f491_4f6c_dd1du64;
    let values = (0..a.width * a.height).map(|i| {
        let (y, x) = ((i / a.width) as f64, (i % a.width) as f64);
        let gradient = 60.0 + 80.0 * (x / w) + 40.0 * (y / h);
        let (dy, dx) = (y - 0.5 * h, x - 0.365 * w);
        let r = 0.28 * h;
        let disc = if dx * dx + dy * dy < r * r { 70.0 } else { 0.0 };
        let stripes = if x > 0.68 * w && y > 0.185 * h && y < 0.74 * h {
            30.0 * ((x / 3.0).sin() > 0.0) as i32 as f64
        } else {
            0.0
        };
        noise ^= noise << 13;
        noise ^= noise >> 7;
        noise ^= noise << 17;
        (gradient + disc + stripes + (noise % 5) as f64).clamp(0.0, 255.0)
    });
    let data = if a.bits == 16 {
        data::Data::I32(values.map(|v| (v * 257.0) as i32).collect())
    } else {
        data::Data::I16(values.map(|v| v as i16).collect())
    };
    let mut staged = files::Staged::default();
    staged.write(
        &a.output,
        &files::output_bytes(
            &a.output,
            &data,
            &[a.height, a.width],
            Some(a.bits),
            None,
            None,
        )?,
    )?;
    staged.commit()
}
