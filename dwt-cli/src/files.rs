//! Reading and writing what `dwt transform` takes and gives: images, .npy arrays, raw samples
//! with a JSON sidecar, the pyramid preview; and the progress bar.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use image::{ImageBuffer, Luma};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lifting::ir::{ElementType, Wavelet};
use lifting::runtime::cpu::band_shape;
use lifting::runtime::growth::InputRange;
use serde::{Deserialize, Serialize};

use crate::data::{byte_count, npy_bytes, npy_bytes_as, parse_dtype, read_npy, Data, NpyType};
use crate::Result;

/// What kind of file a path names, by extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Image,
    Npy,
    Raw,
}

pub fn kind(path: &Path) -> Kind {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "png" | "pgm" | "pnm" | "tif" | "tiff" => Kind::Image,
        "npy" => Kind::Npy,
        _ => Kind::Raw,
    }
}

/// The image formats this build reads and writes, for messages.
pub const FORMATS: &str =
    "8/16-bit grayscale PNG, PGM (P5 or P2), TIFF, .npy, or raw samples (with --shape and --dtype)";

/// An image format named by `path`'s extension that `dwt` does not read or write (it would
/// otherwise be taken for raw samples), with the extension.
pub fn unsupported_image(path: &Path) -> Option<String> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    [
        "jpg", "jpeg", "bmp", "gif", "webp", "ico", "tga", "exr", "hdr", "avif", "qoi", "dds",
        "jxl", "heic", "heif", "jp2", "ppm", "pbm", "pam",
    ]
    .contains(&ext.as_str())
    .then_some(ext)
}

/// What `--inverse` needs to know about coefficients besides their values, written next to them
/// as `OUT.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    /// The name of the data file it describes (absent in sidecars of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// The fingerprint of the data file: the hex SHA-256 of all its bytes as written (for a .npy,
    /// the whole file, header included), so that `--inverse` refuses coefficients other than the
    /// ones described (a file replaced, or a run interrupted between renaming the two). Absent in
    /// sidecars of older versions: then nothing is checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_sha256: Option<String>,
    pub shape: Vec<usize>,
    pub dtype: String,
    pub wavelet: String,
    /// The wavelet in the `lifting!` language, so that a file wavelet needs no file to invert.
    pub wavelet_source: String,
    pub levels: u32,
    pub layout: String,
    pub direction: String,
    /// The bit depth of the image the coefficients came from, if they came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_bits: Option<u32>,
    /// The maxval of the PGM the coefficients came from; a .pgm reconstruction is written with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_maxval: Option<u32>,
    /// The type the array the coefficients came from was stored in (an element type, or also
    /// "bool", "u8", "i8", "u16" or "u32": a .npy's own, "u8" or "u16" for a picture);
    /// `--inverse` writes .npy back in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_dtype: Option<String>,
    /// The forward transform ran with `--allow-overflow` where the worst case did not fit: the
    /// coefficients may have wrapped and the reconstruction may not be the input.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_overflow: bool,
}

/// What to do with a file at a sidecar's path that is not a readable sidecar, for messages.
const REGENERATE: &str = "regenerate it by transforming the input again, or delete it and invert with --wavelet and --levels (raw coefficients also need --shape and --dtype)";

/// Parses the text of a sidecar. Where it is not one, says what it holds instead of serde's
/// words alone ("invalid length 2, expected struct Sidecar with 13 elements" for `[]`), and
/// names the field at fault where one is.
pub fn parse_sidecar(text: &str) -> std::result::Result<Sidecar, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("it is not valid JSON ({e})"))?;
    let serde_json::Value::Object(fields) = &value else {
        let what = match &value {
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::Bool(_) => "a boolean",
            _ => "null",
        };
        return Err(format!(
            "it holds {what}, where a sidecar is a JSON object of the fields dwt writes (shape, dtype, wavelet, wavelet_source, levels, layout, direction, ...)"
        ));
    };
    serde_json::from_value::<Sidecar>(value.clone()).map_err(|e| {
        // serde says which type it expected but not where: put each field in turn into a
        // sidecar that parses, and the first that breaks it is the one at fault.
        let template = serde_json::to_value(Sidecar::template()).expect("a sidecar serialises");
        let culprit = fields.iter().find(|(k, v)| {
            let mut t = template.clone();
            t[k.as_str()] = (*v).clone();
            serde_json::from_value::<Sidecar>(t).is_err()
        });
        match culprit {
            Some((k, _)) if template.get(k).is_some() => format!("its `{k}` is wrong ({e})"),
            _ => e.to_string(),
        }
    })
}

/// The element types a sidecar may name, for its messages.
const DTYPES: &str = "\"i16\", \"i32\", \"f32\" or \"f64\"";

/// The stored types `input_dtype` may name, for its messages.
const INPUT_DTYPES: &str =
    "\"bool\", \"u8\", \"i8\", \"u16\", \"i16\", \"u32\", \"i32\", \"f32\" or \"f64\"";

impl Sidecar {
    /// A sidecar with every field present (none skipped when written), of the right type.
    fn template() -> Sidecar {
        Sidecar {
            data: Some(String::new()),
            data_sha256: Some(String::new()),
            shape: vec![1],
            dtype: String::new(),
            wavelet: String::new(),
            wavelet_source: String::new(),
            levels: 1,
            layout: String::new(),
            direction: String::new(),
            input_bits: Some(8),
            input_maxval: Some(1),
            input_dtype: Some(String::new()),
            allow_overflow: true,
        }
    }

    /// Checks every field of a sidecar read from `side` for the data file `data_path`, and returns
    /// its wavelet. Errors name the field, what it holds and what is allowed.
    pub fn validate(&self, side: &Path, data_path: &Path) -> Result<Wavelet> {
        let bad = |field: &str, what: String| -> String {
            format!(
                "{}: the sidecar's `{field}` {what}; fix the sidecar or transform the input again",
                side.display()
            )
        };
        if let Some(name) = &self.data {
            let own = data_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if *name != own {
                return Err(format!(
                    "{} describes {name}, not {own} (two outputs with the same stem share one sidecar); transform the input to {own} again, or if the files were renamed set `data` to \"{own}\"",
                    side.display()
                ));
            }
        }
        if let Some(h) = &self.data_sha256 {
            if h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad(
                    "data_sha256",
                    format!("is \"{h}\"; it must be 64 hexadecimal digits (a SHA-256)"),
                ));
            }
        }
        if self.direction != "forward" {
            return Err(bad(
                "direction",
                format!(
                    "is \"{}\"; the only allowed value is \"forward\"",
                    self.direction
                ),
            ));
        }
        if self.shape.is_empty() || self.shape.len() > 3 || self.shape.contains(&0) {
            return Err(bad(
                "shape",
                format!("is {:?}; it must have 1 to 3 positive sizes", self.shape),
            ));
        }
        if byte_count(&self.shape, 8).is_none() {
            return Err(bad(
                "shape",
                format!("{:?} is larger than this machine can address", self.shape),
            ));
        }
        let dtype = parse_dtype(&self.dtype)
            .map_err(|_| bad("dtype", format!("is \"{}\"; allowed: {DTYPES}", self.dtype)))?;
        if !["mallat", "interleaved"].contains(&self.layout.as_str()) {
            return Err(bad(
                "layout",
                format!(
                    "is \"{}\"; allowed: \"mallat\" or \"interleaved\"",
                    self.layout
                ),
            ));
        }
        let max = lifting::runtime::cpu::max_levels(&self.shape);
        if self.levels < 1 || self.levels > max {
            return Err(bad(
                "levels",
                format!(
                    "is {}; shape {:?} allows 1 to {max}",
                    self.levels, self.shape
                ),
            ));
        }
        if let Some(b) = self.input_bits {
            if !(1..=16).contains(&b) {
                return Err(bad("input_bits", format!("is {b}; allowed: 1 to 16")));
            }
        }
        if let Some(m) = self.input_maxval {
            let bits = self.input_bits.unwrap_or(16);
            if m < 1 || u64::from(m) >= 1u64 << bits {
                return Err(bad(
                    "input_maxval",
                    format!(
                        "is {m}; allowed: 1 to {} (input_bits {bits})",
                        (1u64 << bits) - 1
                    ),
                ));
            }
        }
        if let Some(t) = &self.input_dtype {
            NpyType::parse(t).ok_or_else(|| {
                bad(
                    "input_dtype",
                    format!("is \"{t}\"; allowed: {INPUT_DTYPES}"),
                )
            })?;
        }
        // Exactly one wavelet, as a wavelet file.
        let wavelet = lifting::ir::parse_wavelet(&self.wavelet_source).map_err(|e| {
            bad(
                "wavelet_source",
                format!(
                    "does not parse (line {}, column {}: {})",
                    e.line, e.column, e.message
                ),
            )
        })?;
        if wavelet.name != self.wavelet {
            return Err(bad(
                "wavelet",
                format!(
                    "is \"{}\" but `wavelet_source` declares {}",
                    self.wavelet, wavelet.name
                ),
            ));
        }
        if wavelet.kind != dtype.kind() {
            return Err(bad(
                "dtype",
                format!(
                    "is \"{}\" ({}) but wavelet {} is {}",
                    self.dtype,
                    dtype.kind().name(),
                    wavelet.name,
                    wavelet.kind.name()
                ),
            ));
        }
        Ok(wavelet)
    }
}

/// Two wavelets compute the same, whatever their doc comments.
pub fn same_wavelet(a: &Wavelet, b: &Wavelet) -> bool {
    let strip = |w: &Wavelet| {
        let mut w = w.clone();
        w.doc.clear();
        w.to_string()
    };
    strip(a) == strip(b)
}

/// The fingerprint a sidecar records of its data file's `bytes`: their SHA-256, in lowercase hex.
/// One linear pass over bytes already in memory, on each write and each `--inverse`.
pub fn fingerprint(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Refuses a data file whose bytes are not the ones its sidecar (read from `side`) was written
/// for. A sidecar without a fingerprint (an older version's) is taken on trust.
fn check_fingerprint(sidecar: &Sidecar, side: &Path, path: &Path, bytes: &[u8]) -> Result<()> {
    let Some(want) = &sidecar.data_sha256 else {
        return Ok(());
    };
    if !fingerprint(bytes).eq_ignore_ascii_case(want) {
        return Err(format!(
            "{} was written for other coefficients than {} (the file was replaced, or a transform was interrupted between writing the two): transform the input again (if you changed the coefficients on purpose, delete `data_sha256` from the sidecar)",
            side.display(),
            path.display()
        ));
    }
    Ok(())
}

pub fn sidecar_path(data: &Path) -> PathBuf {
    data.with_extension("json")
}

/// Checks, before a forward transform writes `side` as the sidecar of `data`, that no other
/// file is lost by it: `side` does not exist, or is a dwt sidecar of `data` itself (a transform
/// run again), of an older version (which names no data file) or of a data file no longer
/// there. A sidecar of another data file (`k.npy`'s, when writing `k.raw`) or any other JSON
/// file is refused.
pub fn check_sidecar_replaceable(side: &Path, data: &Path) -> Result<()> {
    let Ok(text) = std::fs::read_to_string(side) else {
        return Ok(());
    };
    let name = data.file_name().map(|n| n.to_string_lossy().into_owned());
    match parse_sidecar(&text) {
        Ok(Sidecar { data: None, .. }) => Ok(()),
        Ok(Sidecar { data: Some(other), .. }) if Some(&other) == name.as_ref() => Ok(()),
        // The file it describes is gone: nothing is left without its sidecar.
        Ok(Sidecar { data: Some(other), .. }) if !side.with_file_name(&other).exists() => Ok(()),
        Ok(Sidecar { data: Some(other), .. }) => Err(format!(
            "{} is the sidecar of {other}: writing {} would replace it and leave {other} without one; name the output differently, or remove {} first",
            side.display(),
            data.display(),
            side.display()
        )),
        Err(_) => Err(format!(
            "{} exists and is not a dwt sidecar: writing {} would replace it with its sidecar; name the output differently, or remove {} first",
            side.display(),
            data.display(),
            side.display()
        )),
    }
}

/// An input read for a forward transform.
pub struct Input {
    pub data: Data,
    pub shape: Vec<usize>,
    /// The value range the format promises (an image's bit depth); `None`: take the data's own.
    pub range: Option<InputRange>,
    pub image_bits: Option<u32>,
    /// A PGM's maxval, kept so that a reconstruction is written with it.
    pub maxval: Option<u32>,
    /// The type the samples were stored in: a .npy's own, a picture's unsigned type, else the
    /// element type read.
    pub stored: NpyType,
}

pub fn read_input(
    path: &Path,
    shape: Option<&[usize]>,
    dtype: Option<ElementType>,
) -> Result<Input> {
    if let Some(ext) = unsupported_image(path) {
        return Err(format!(
            "{}: .{ext} is not supported; convert it to one of: {FORMATS}",
            path.display()
        ));
    }
    match kind(path) {
        Kind::Image => {
            let bytes = read_file(path)?;
            if bytes.starts_with(b"P5") || bytes.starts_with(b"P2") {
                let (data, h, w, maxval) = read_pgm(&bytes, path)?;
                let bits = bits_for(maxval);
                return Ok(Input {
                    stored: picture_type(bits),
                    data,
                    shape: vec![h, w],
                    range: Some(InputRange::unsigned(bits).map_err(|e| e.to_string())?),
                    image_bits: Some(bits),
                    maxval: Some(maxval),
                });
            }
            if bytes.starts_with(b"P7") {
                check_pam_maxval(&bytes, path)?;
            }
            check_tiff_samples(&bytes, path)?;
            let packed = packed_gray_bits(&bytes);
            let img = image::ImageReader::new(std::io::Cursor::new(bytes))
                .with_guessed_format()
                .map_err(|e| format!("cannot read image {}: {e}", path.display()))?
                .decode()
                .map_err(|e| format!("cannot read image {}: {e}", path.display()))?;
            let (w, h) = (img.width() as usize, img.height() as usize);
            let (data, bits) = match img {
                image::DynamicImage::ImageLuma8(b) => match packed {
                    Some(bits) => (Data::I16(unwiden(b.into_raw(), bits, path)?), bits),
                    None => (Data::I16(b.into_raw().into_iter().map(i16::from).collect()), 8),
                },
                image::DynamicImage::ImageLuma16(b) => {
                    (Data::I32(b.into_raw().into_iter().map(i32::from).collect()), 16)
                }
                other => {
                    return Err(format!(
                        "{} is a {:?} image; only 8- and 16-bit grayscale images are supported (convert it to grayscale)",
                        path.display(),
                        other.color()
                    ))
                }
            };
            Ok(Input {
                stored: picture_type(bits),
                data,
                shape: vec![h, w],
                range: Some(InputRange::unsigned(bits).map_err(|e| e.to_string())?),
                image_bits: Some(bits),
                maxval: None,
            })
        }
        Kind::Npy => {
            let bytes = read_file(path)?;
            let (data, npy_shape, stored) =
                read_npy(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(s) = shape {
                if s != npy_shape.as_slice() {
                    return Err(format!(
                        "--shape {s:?} does not match the shape {npy_shape:?} in {}",
                        path.display()
                    ));
                }
            }
            check_dims(&npy_shape, path)?;
            Ok(Input {
                data,
                shape: npy_shape,
                range: None,
                image_bits: None,
                maxval: None,
                stored,
            })
        }
        Kind::Raw => {
            let (Some(shape), Some(dtype)) = (shape, dtype) else {
                return Err(format!(
                    "{} is raw samples: pass --shape and --dtype (or use .npy or an image)",
                    path.display()
                ));
            };
            let bytes = read_file(path)?;
            let data = raw(&bytes, shape, dtype, path)?;
            Ok(Input {
                stored: data.element_type().into(),
                data,
                shape: shape.to_vec(),
                range: None,
                image_bits: None,
                maxval: None,
            })
        }
    }
}

fn check_dims(shape: &[usize], path: &Path) -> Result<()> {
    if shape.is_empty() || shape.len() > 3 || shape.contains(&0) {
        return Err(format!(
            "{} has shape {shape:?}; transforms take 1-D to 3-D arrays with non-empty axes",
            path.display()
        ));
    }
    Ok(())
}

fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn raw(bytes: &[u8], shape: &[usize], dtype: ElementType, path: &Path) -> Result<Data> {
    let needed = byte_count(shape, dtype.size())
        .ok_or_else(|| format!("shape {shape:?} is larger than this machine can address"))?;
    if bytes.len() != needed {
        return Err(format!(
            "{} has {} bytes but shape {shape:?} of {} needs {needed}",
            path.display(),
            bytes.len(),
            dtype.name(),
        ));
    }
    Data::from_le_bytes(dtype, bytes)
}

/// Coefficients as the bytes of `path`'s format: .npy or raw.
pub fn coefficient_bytes(path: &Path, data: &Data, shape: &[usize]) -> Result<Vec<u8>> {
    match kind(path) {
        Kind::Npy => Ok(npy_bytes(data, shape)),
        Kind::Raw => Ok(data.to_le_bytes()),
        Kind::Image => Err(format!(
            "{}: coefficients are written as .npy or raw; use --preview FILE.png for a picture",
            path.display()
        )),
    }
}

/// The sidecar as the text of its file.
pub fn sidecar_bytes(sidecar: &Sidecar) -> Vec<u8> {
    let json = serde_json::to_string_pretty(sidecar).expect("a sidecar serialises");
    (json + "\n").into_bytes()
}

/// Coefficients read for `--inverse`.
pub struct Coefficients {
    pub data: Data,
    pub shape: Vec<usize>,
    /// The sidecar, checked, with the wavelet it declares.
    pub sidecar: Option<(Sidecar, Wavelet)>,
}

/// Reads coefficients: .npy (with its sidecar if there is one) or raw (with its sidecar, or
/// `--shape` and `--dtype`). A `--shape` or `--dtype` contradicting the sidecar is an error.
pub fn read_coefficients(
    path: &Path,
    shape: Option<&str>,
    dtype: Option<&str>,
) -> Result<Coefficients> {
    let side = sidecar_path(path);
    let sidecar = if side.exists() && side != path {
        let text = std::fs::read_to_string(&side)
            .map_err(|e| format!("cannot read {}: {e}", side.display()))?;
        let s = parse_sidecar(&text)
            .map_err(|e| format!("{} is not a dwt sidecar: {e}; {REGENERATE}", side.display()))?;
        let w = s.validate(&side, path)?;
        Some((s, w))
    } else {
        None
    };
    if let Some(ext) = unsupported_image(path) {
        return Err(format!(
            "{} is a .{ext} image; --inverse reads coefficients (.npy, or raw with a .json sidecar)",
            path.display()
        ));
    }
    let shape = shape.map(crate::parse_shape).transpose()?;
    let dtype = dtype.map(parse_dtype).transpose()?;
    if let Some((s, _)) = &sidecar {
        if let Some(shape) = &shape {
            if *shape != s.shape {
                return Err(format!(
                    "--shape {shape:?} contradicts the sidecar {}, which says {:?}; leave --shape out",
                    side.display(),
                    s.shape
                ));
            }
        }
        if let Some(t) = dtype {
            if t.name() != s.dtype {
                return Err(format!(
                    "--dtype {} contradicts the sidecar {}, which says {}; leave --dtype out",
                    t.name(),
                    side.display(),
                    s.dtype
                ));
            }
        }
    }
    match kind(path) {
        Kind::Image => Err(format!(
            "{} is an image; --inverse reads coefficients (.npy, or raw with a .json sidecar)",
            path.display()
        )),
        Kind::Npy => {
            let bytes = read_file(path)?;
            if let Some((s, _)) = &sidecar {
                check_fingerprint(s, &side, path, &bytes)?;
            }
            let (data, npy_shape, _) =
                read_npy(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            check_dims(&npy_shape, path)?;
            if let Some((s, _)) = &sidecar {
                if s.shape != npy_shape {
                    return Err(format!(
                        "{} has shape {npy_shape:?} but its sidecar says {:?}",
                        path.display(),
                        s.shape
                    ));
                }
                if data.element_type().name() != s.dtype {
                    return Err(format!(
                        "{} holds {} but its sidecar {} says `dtype` {}; fix the sidecar or transform the input again",
                        path.display(),
                        data.element_type().name(),
                        side.display(),
                        s.dtype
                    ));
                }
            }
            if let Some(s) = &shape {
                if *s != npy_shape {
                    return Err(format!(
                        "--shape {s:?} does not match the shape {npy_shape:?} in {}",
                        path.display()
                    ));
                }
            }
            let data = match dtype {
                Some(t) => data.convert(t)?,
                None => data,
            };
            Ok(Coefficients {
                data,
                shape: npy_shape,
                sidecar,
            })
        }
        Kind::Raw => {
            let shape = shape
                .or(sidecar.as_ref().map(|(s, _)| s.shape.clone()))
                .ok_or_else(|| {
                    format!(
                        "{} is raw and has no sidecar {}: pass --shape and --dtype",
                        path.display(),
                        side.display()
                    )
                })?;
            let dtype = match (dtype, &sidecar) {
                (Some(t), _) => t,
                (None, Some((s, _))) => parse_dtype(&s.dtype)?,
                (None, None) => return Err("raw coefficients need --dtype".into()),
            };
            let bytes = read_file(path)?;
            if let Some((s, _)) = &sidecar {
                check_fingerprint(s, &side, path, &bytes)?;
            }
            let data = raw(&bytes, &shape, dtype, path)?;
            Ok(Coefficients {
                data,
                shape,
                sidecar,
            })
        }
    }
}

/// A reconstruction as the bytes of `path`'s format: an image (8-bit, or 16-bit when the values
/// need it or the original was; a PGM with the original's maxval where it is known) or .npy (of
/// type `npy_type` where given, else the data's own). Samples are written as they are, never
/// rescaled, wrapped or saturated: values that do not fit are an error.
pub fn output_bytes(
    path: &Path,
    data: &Data,
    shape: &[usize],
    bits: Option<u32>,
    maxval: Option<u32>,
    npy_type: Option<NpyType>,
) -> Result<Vec<u8>> {
    match kind(path) {
        Kind::Npy => match npy_type {
            Some(t) => npy_bytes_as(data, shape, t).map_err(|e| {
                format!(
                    "the reconstruction does not fit the input's dtype {}: {e}; pass --dtype {} to write it in the coefficients' type",
                    t.name(),
                    data.element_type().name()
                )
            }),
            None => Ok(npy_bytes(data, shape)),
        },
        Kind::Raw => Err(format!(
            "{}: write the reconstruction as .png, .pgm, .tif or .npy",
            path.display()
        )),
        Kind::Image => {
            let (h, w) = match shape {
                [h, w] => (*h, *w),
                [1, h, w] => (*h, *w),
                _ => {
                    return Err(format!(
                        "an image needs 2-D data but the shape is {shape:?}; write .npy instead"
                    ))
                }
            };
            let values: Vec<i64> = data
                .to_i64()
                .unwrap_or_else(|| data.to_f64().iter().map(|x| x.round() as i64).collect());
            let (lo, hi) = (
                values.iter().copied().min().unwrap_or(0),
                values.iter().copied().max().unwrap_or(0),
            );
            let bits = match (bits, maxval) {
                (Some(b), _) => b,
                (None, Some(m)) => bits_for(m),
                (None, None) if hi <= 255 => 8,
                (None, None) => 16,
            };
            let pgm = is_pnm(path);
            let maxval = match maxval {
                Some(m) if pgm => m,
                _ => (1u32 << bits) - 1,
            };
            if lo < 0 || hi > i64::from(maxval) {
                let what = if pgm {
                    format!("a PGM's [0, {maxval}] (maxval {maxval})")
                } else {
                    format!("a {bits}-bit image's [0, {maxval}]")
                };
                return Err(format!(
                    "the reconstruction has values in [{lo}, {hi}], outside {what}; write .npy instead"
                ));
            }
            image_bytes(path, w, h, &values, bits, maxval)
        }
    }
}

fn is_pnm(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pgm") || e.eq_ignore_ascii_case("pnm"))
}

/// The bits a sample up to `maxval` takes.
fn bits_for(maxval: u32) -> u32 {
    (32 - maxval.leading_zeros()).max(1)
}

/// Grayscale samples (already checked to fit `bits` and `maxval`) encoded in the format of
/// `path`'s extension: PGM as binary P5 with `maxval`, PNG and TIFF at 8 or 16 bits.
fn image_bytes(
    path: &Path,
    w: usize,
    h: usize,
    values: &[i64],
    bits: u32,
    maxval: u32,
) -> Result<Vec<u8>> {
    if is_pnm(path) {
        let mut out = format!("P5\n{w} {h}\n{maxval}\n").into_bytes();
        if maxval < 256 {
            out.extend(values.iter().map(|&v| v as u8));
        } else {
            out.extend(values.iter().flat_map(|&v| (v as u16).to_be_bytes()));
        }
        return Ok(out);
    }
    let format =
        image::ImageFormat::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::Cursor::new(Vec::new());
    let result = if bits <= 8 {
        ImageBuffer::<Luma<u8>, _>::from_raw(
            w as u32,
            h as u32,
            values.iter().map(|&v| v as u8).collect::<Vec<_>>(),
        )
        .expect("the buffer matches the shape")
        .write_to(&mut out, format)
    } else {
        ImageBuffer::<Luma<u16>, _>::from_raw(
            w as u32,
            h as u32,
            values.iter().map(|&v| v as u16).collect::<Vec<_>>(),
        )
        .expect("the buffer matches the shape")
        .write_to(&mut out, format)
    };
    result.map_err(|e| format!("cannot encode {}: {e}", path.display()))?;
    Ok(out.into_inner())
}

/// The unsigned type a picture's samples of `bits` bits are stored in, which a reconstruction
/// written as `.npy` takes (an 8-bit picture's is uint8).
fn picture_type(bits: u32) -> NpyType {
    if bits <= 8 {
        NpyType::U8
    } else {
        NpyType::U16
    }
}

/// Reads a PGM (binary P5 or plain P2) exactly: samples as stored, with the file's maxval.
fn read_pgm(bytes: &[u8], path: &Path) -> Result<(Data, usize, usize, u32)> {
    let plain = bytes[1] == b'2';
    let err = |what: String| format!("{}: {what}", path.display());
    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let mut pos = 2;
    // The next decimal number, after whitespace and `#` comments.
    let number = |pos: &mut usize| -> Option<u64> {
        loop {
            match bytes.get(*pos) {
                Some(&b) if is_space(b) => *pos += 1,
                Some(b'#') => {
                    while bytes.get(*pos).is_some_and(|&b| b != b'\n' && b != b'\r') {
                        *pos += 1;
                    }
                }
                _ => break,
            }
        }
        let start = *pos;
        while bytes.get(*pos).is_some_and(u8::is_ascii_digit) {
            *pos += 1;
        }
        let digits = std::str::from_utf8(&bytes[start..*pos]).ok()?;
        if digits.is_empty() {
            return None;
        }
        Some(digits.parse::<u64>().unwrap_or(u64::MAX))
    };
    let mut header = |what: &str| {
        number(&mut pos).ok_or_else(|| err(format!("malformed PGM header: expected the {what}")))
    };
    let (w, h, maxval) = (header("width")?, header("height")?, header("maxval")?);
    if w == 0 || h == 0 || w > u32::MAX as u64 || h > u32::MAX as u64 {
        return Err(err(format!(
            "a PGM of {w} x {h} samples: width and height must be 1 to {}",
            u32::MAX
        )));
    }
    if !(1..=65535).contains(&maxval) {
        return Err(err(format!("PGM maxval {maxval}: it must be 1 to 65535")));
    }
    let (w, h, maxval) = (w as usize, h as usize, maxval as u32);
    let count = w.checked_mul(h).ok_or_else(|| {
        err(format!(
            "a PGM of {w} x {h} is larger than this machine can address"
        ))
    })?;
    let samples: Vec<u32> = if plain {
        // Reserved for what the file can hold (a sample and a space take two bytes at least),
        // not for what its header claims: 18 bytes may claim 10^10 samples.
        let mut v = Vec::with_capacity(count.min((bytes.len() - pos).div_ceil(2)));
        for _ in 0..count {
            match number(&mut pos) {
                Some(x) => v.push(x.min(u32::MAX as u64) as u32),
                None => {
                    return Err(err(format!(
                    "the plain PGM has {} samples where {w} x {h} needs {count} (or a non-number)",
                    v.len()
                )))
                }
            }
        }
        if bytes[pos..].iter().any(|&b| !is_space(b)) {
            return Err(err(format!(
                "more than {w} x {h} samples in the plain PGM; only single-image files are read"
            )));
        }
        v
    } else {
        if !bytes.get(pos).is_some_and(|&b| is_space(b)) {
            return Err(err(
                "malformed PGM header: no whitespace after the maxval".into()
            ));
        }
        pos += 1;
        let size = if maxval < 256 { 1 } else { 2 };
        let body = &bytes[pos..];
        let needed = count.checked_mul(size).ok_or_else(|| {
            err(format!(
                "a PGM of {w} x {h} is larger than this machine can address"
            ))
        })?;
        if body.len() != needed {
            return Err(err(format!(
                "a {w} x {h} PGM with maxval {maxval} needs {needed} bytes of samples but has {}{}",
                body.len(),
                if body.len() > needed {
                    " (several images in one file are not read)"
                } else {
                    " (truncated)"
                }
            )));
        }
        if size == 1 {
            body.iter().map(|&b| u32::from(b)).collect()
        } else {
            body.chunks_exact(2)
                .map(|c| u32::from(u16::from_be_bytes([c[0], c[1]])))
                .collect()
        }
    };
    if let Some(i) = samples.iter().position(|&v| v > maxval) {
        return Err(err(format!(
            "sample {} at row {}, column {} is above the PGM's maxval {maxval}; the file is corrupt (fix its maxval or samples)",
            samples[i],
            i / w,
            i % w
        )));
    }
    let data = if maxval < 256 {
        Data::I16(samples.into_iter().map(|v| v as i16).collect())
    } else {
        Data::I32(samples.into_iter().map(|v| v as i32).collect())
    };
    Ok((data, h, w, maxval))
}

/// The PAM decoder rescales samples of a MAXVAL other than 255 and 65535: refuse those.
fn check_pam_maxval(bytes: &[u8], path: &Path) -> Result<()> {
    let end = bytes
        .windows(6)
        .position(|w| w == b"ENDHDR")
        .unwrap_or(bytes.len().min(1024));
    let header = String::from_utf8_lossy(&bytes[..end]);
    let mut words = header.split_ascii_whitespace();
    while let Some(word) = words.next() {
        if word == "MAXVAL" {
            let m = words.next().unwrap_or("");
            if m != "255" && m != "65535" {
                return Err(format!(
                    "{}: a PAM (P7) image with MAXVAL {m} would be rescaled; convert it to PGM (P5), whose samples are read as stored",
                    path.display()
                ));
            }
        }
    }
    Ok(())
}

/// The bit depth of a grayscale PNG or TIFF of fewer than 8 bits a sample, which `image` widens
/// to 8 bits by scaling (a 1-bit 1 becomes 255, a 4-bit 1 becomes 17).
fn packed_gray_bits(bytes: &[u8]) -> Option<u32> {
    // The signature, then the IHDR chunk: length, "IHDR", width, height, bit depth, colour type.
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.get(12..16) == Some(b"IHDR") {
        let (depth, colour) = (*bytes.get(24)?, *bytes.get(25)?);
        return (colour == 0 && depth < 8).then_some(u32::from(depth));
    }
    if bytes.starts_with(b"II") || bytes.starts_with(b"MM") {
        let mut decoder = tiff::decoder::Decoder::new(std::io::Cursor::new(bytes)).ok()?;
        if let Ok(tiff::ColorType::Gray(b @ 1..=7)) = decoder.colortype() {
            return Some(u32::from(b));
        }
    }
    None
}

/// The samples of a `bits`-bit picture as stored, from the 8-bit ones `image` scaled them to:
/// transforms and reconstructions keep the file's values, as for a PGM of a small maxval.
fn unwiden(widened: Vec<u8>, bits: u32, path: &Path) -> Result<Vec<i16>> {
    let factor = 255 / ((1u8 << bits) - 1);
    if let Some(v) = widened.iter().find(|&&v| v % factor != 0) {
        return Err(format!(
            "{}: a {bits}-bit image decoded to the 8-bit value {v}, not a multiple of {factor}: its samples cannot be recovered as stored; convert it to an 8-bit grayscale PNG",
            path.display()
        ));
    }
    Ok(widened.into_iter().map(|v| i16::from(v / factor)).collect())
}

/// What to tell of a picture of `bits` bits a sample (fewer than 8, from the input) written to
/// `path`: PNG and TIFF are written with 8 bits, holding the small values as they are (dark),
/// where a PGM keeps their maxval.
pub fn narrow_picture_note(path: &Path, bits: Option<u32>) -> Option<String> {
    let bits = bits.filter(|&b| b < 8)?;
    if kind(path) != Kind::Image || is_pnm(path) {
        return None;
    }
    let max = (1u32 << bits) - 1;
    Some(format!(
        "note: {} is written as an 8-bit image holding the {bits}-bit input's values 0 to {max} as they are (not scaled to 0 to 255, so it looks dark); write .pgm to keep maxval {max}",
        path.display()
    ))
}

/// Refuses a TIFF whose samples are not 8- or 16-bit unsigned integers (1-bit too, which `image`
/// reads) by what they are: `image` says "color type Unknown(32)" for a float TIFF and "sample
/// format 2 for 32 bits" for a signed one. A TIFF the `tiff` crate cannot parse either is left to
/// `image` to report.
fn check_tiff_samples(bytes: &[u8], path: &Path) -> Result<()> {
    use tiff::tags::SampleFormat;
    use tiff::ColorType;
    if !(bytes.starts_with(b"II") || bytes.starts_with(b"MM")) {
        return Ok(());
    }
    let Ok(mut decoder) = tiff::decoder::Decoder::new(std::io::Cursor::new(bytes)) else {
        return Ok(());
    };
    let bits = match decoder.colortype() {
        Ok(
            ColorType::Gray(b)
            | ColorType::GrayA(b)
            | ColorType::RGB(b)
            | ColorType::RGBA(b)
            | ColorType::CMYK(b)
            | ColorType::Palette(b)
            | ColorType::YCbCr(b),
        ) => b,
        Ok(ColorType::Multiband { bit_depth, .. }) => bit_depth,
        _ => return Ok(()),
    };
    // Absent, the samples are unsigned integers (the TIFF default).
    let format = decoder
        .find_tag_unsigned_vec::<u16>(tiff::tags::Tag::SampleFormat)
        .ok()
        .flatten()
        .and_then(|f| f.first().copied())
        .map_or(SampleFormat::Uint, SampleFormat::from_u16_exhaustive);
    let only = "only 8- and 16-bit unsigned integer TIFFs are read";
    let convert = "or convert the TIFF to 8- or 16-bit unsigned integers";
    let what = match format {
        SampleFormat::IEEEFP => format!(
            "has {bits}-bit float samples: float TIFFs are not read; save the samples as .npy (float32 and float64 are read, for a float wavelet such as Cdf97), {convert}"
        ),
        SampleFormat::Int => format!(
            "has {bits}-bit signed integer samples: {only}; save the samples as .npy (int8, int16 and int32 are read), {convert}"
        ),
        SampleFormat::Uint if bits > 16 => format!(
            "has {bits}-bit unsigned integer samples: {only}; save the samples as .npy (uint32 is read), {convert}"
        ),
        // `image` reads 1-bit samples, not 2 to 7.
        SampleFormat::Uint if (2..8).contains(&bits) => format!(
            "has {bits}-bit unsigned integer samples: {only} (and 1-bit ones); save the samples as .npy, {convert}"
        ),
        SampleFormat::Uint => return Ok(()),
        _ => format!("has samples of TIFF sample format {format:?}: {only}; {convert}"),
    };
    Err(format!("{} {what}", path.display()))
}

/// The Mallat pyramid as an 8-bit picture, each band contrast-stretched on its own so that small
/// detail coefficients stay visible next to the large low band (as examples/transform_image.rs),
/// encoded in the image format of `path`.
pub fn preview_bytes(path: &Path, coeffs: &[f64], shape: &[usize], levels: u32) -> Result<Vec<u8>> {
    let (height, width) = (shape[0], shape[1]);
    let mut bands = Vec::new();
    for level in 0..levels {
        let s = band_shape(shape, level);
        let (h, w, lh, lw) = (s[0], s[1], s[0].div_ceil(2), s[1].div_ceil(2));
        bands.extend([(0, h, lw, w), (lh, h, 0, lw), (lh, h, lw, w)]);
    }
    let last = band_shape(shape, levels);
    bands.push((0, last[0], 0, last[1]));
    let mut pixels = vec![0u8; height * width];
    for (i, &(y0, y1, x0, x1)) in bands.iter().enumerate() {
        if y0 >= y1 || x0 >= x1 {
            continue;
        }
        let is_low = i == bands.len() - 1;
        let values = || (y0..y1).flat_map(move |y| (x0..x1).map(move |x| y * width + x));
        let (lo, hi) = values().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
            (lo.min(coeffs[p]), hi.max(coeffs[p]))
        });
        let peak = values()
            .map(|p| coeffs[p].abs())
            .fold(0.0, f64::max)
            .max(1e-9);
        for p in values() {
            let v = if is_low {
                (coeffs[p] - lo) / (hi - lo).max(1e-9)
            } else {
                (coeffs[p].abs() / peak).sqrt()
            };
            pixels[p] = (v * 255.0).round().clamp(0.0, 255.0) as u8;
        }
    }
    let values: Vec<i64> = pixels.into_iter().map(i64::from).collect();
    image_bytes(path, width, height, &values, 8, 255)
}

/// A progress bar over the stages of volume work (3-D), on stderr, unless `--quiet`.
pub struct Progress {
    quiet: bool,
    bar: std::cell::RefCell<Option<ProgressBar>>,
}

impl Progress {
    pub fn new(quiet: bool) -> Self {
        Progress {
            quiet,
            bar: std::cell::RefCell::new(None),
        }
    }

    /// Starts the bar once the data turns out to be a volume.
    pub fn volume(&self, shape: &[usize]) {
        if self.quiet || shape.len() < 3 {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(3), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:24}] {pos}/{len} {msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.set_prefix(format!("volume {shape:?}"));
        *self.bar.borrow_mut() = Some(bar);
    }

    pub fn stage(&self, what: &str) {
        if let Some(b) = self.bar.borrow().as_ref() {
            if what != "reading" {
                b.inc(1);
            }
            b.set_message(what.to_string());
        }
    }

    pub fn finish(&self) {
        if let Some(b) = self.bar.borrow_mut().take() {
            b.inc(1);
            b.finish_and_clear();
        }
    }
}

/// Whether two paths name the same file: the same path, the same file by identity (device and
/// inode on unix: a hard link or a symbolic link to it), or the same place once resolved (for a
/// path that does not exist yet: its resolved directory and its name).
pub fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return (x.dev(), x.ino()) == (y.dev(), y.ino());
        }
    }
    match (resolved(a), resolved(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn resolved(p: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(p).ok().or_else(|| {
        let dir = parent_dir(p);
        Some(std::fs::canonicalize(dir).ok()?.join(p.file_name()?))
    })
}

/// The directory a file is written in (`.` for a bare name).
fn parent_dir(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Checks, before any work, that `path` can be written as a file: it is not a directory and its
/// directory exists. `what` names it in the error ("the output", "the sidecar", "the preview").
pub fn check_writable(path: &Path, what: &str) -> Result<()> {
    // `out.npy/` names a directory to the file system, whatever `file_name` says.
    let ends_in_separator = path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::MAIN_SEPARATOR);
    if path.file_name().is_none() || ends_in_separator {
        return Err(format!(
            "{what} {} is not a file name; name a file",
            path.display()
        ));
    }
    if path.is_dir() {
        return Err(format!(
            "{what} {} is a directory; remove it or choose another name",
            path.display()
        ));
    }
    // Outputs are written beside their destination and renamed over it: that would replace a
    // device (/dev/null), a pipe or a link itself rather than write through it.
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            return Err(format!(
                "{what} {} exists and is not a regular file (a device, a pipe or a link): outputs are written to a new file and renamed into place, which would replace it; name a regular file",
                path.display()
            ));
        }
    }
    let dir = parent_dir(path);
    if !dir.is_dir() {
        return Err(format!(
            "cannot write {what} {}: the directory {} does not exist; create it first",
            path.display(),
            dir.display()
        ));
    }
    Ok(())
}

/// Files written to temporaries beside their destinations and renamed into place together by
/// [`Staged::commit`], so that a failure (a full disk, a bad path) leaves no partial file and any
/// previous output as it was. Temporaries not committed are removed when this is dropped.
#[derive(Default)]
pub struct Staged {
    /// (temporary, destination)
    files: Vec<(PathBuf, PathBuf)>,
}

impl Staged {
    pub fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        let dir = parent_dir(path);
        let name = path
            .file_name()
            .ok_or_else(|| format!("{} is not a file name", path.display()))?
            .to_string_lossy();
        let mut n = 0;
        let (tmp, mut file) = loop {
            let tmp = dir.join(format!(".{name}.dwt-{}-{n}.tmp", std::process::id()));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
            {
                Ok(f) => break (tmp, f),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                Err(e) => return Err(format!("cannot write {}: {e}", path.display())),
            }
        };
        self.files.push((tmp, path.to_path_buf()));
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Renames every temporary onto its destination, in the order written. The renames are not
    /// atomic as a group: where one fails after others succeeded, those are undone (each
    /// replaced file put back from a second name it was given before its rename, each new one
    /// removed) and the error says so; what could not be undone (a file system without hard
    /// links, a failing rename back) is named as replaced, no longer matching the files left as
    /// they were (a sidecar's fingerprint makes `--inverse` refuse such a pair).
    pub fn commit(mut self) -> Result<()> {
        let files = std::mem::take(&mut self.files);
        let mut replaced: Vec<(&Path, Previous)> = Vec::new();
        for (i, (tmp, path)) in files.iter().enumerate() {
            let previous = Previous::keep(path);
            if let Err(e) = std::fs::rename(tmp, path) {
                for (t, _) in &files[i..] {
                    let _ = std::fs::remove_file(t);
                }
                previous.forget();
                let mut msg = format!("cannot write {}: {e}", path.display());
                let (mut undone, mut left) = (Vec::new(), Vec::new());
                for (done, previous) in replaced.into_iter().rev() {
                    let name = done.display().to_string();
                    if previous.restore(done) {
                        undone.push(name);
                    } else {
                        left.push(name);
                    }
                }
                let was = |n: usize| if n == 1 { "was" } else { "were" };
                if !undone.is_empty() {
                    msg += &format!(
                        "; {} {} put back as {} before this run",
                        undone.join(", "),
                        was(undone.len()),
                        if undone.len() == 1 {
                            "it was"
                        } else {
                            "they were"
                        }
                    );
                }
                if !left.is_empty() {
                    let rest: Vec<String> = files[i..]
                        .iter()
                        .map(|(_, p)| p.display().to_string())
                        .collect();
                    msg += &format!(
                        "; {} {} already replaced by this run's output but {} {} not, so they do not belong together: fix the cause and run the command again",
                        left.join(", "),
                        was(left.len()),
                        rest.join(", "),
                        was(rest.len()),
                    );
                }
                return Err(msg);
            }
            replaced.push((path, previous));
        }
        for (_, previous) in replaced {
            previous.forget();
        }
        Ok(())
    }
}

/// What a destination held before [`Staged::commit`] renamed onto it.
enum Previous {
    /// Nothing: undone by removing the new file.
    Nothing,
    /// A file, also reachable by this second name (a hard link) until the commit ends.
    File(PathBuf),
    /// A file that could not be given a second name (a file system without hard links): the
    /// rename cannot be undone.
    Unkept,
}

impl Previous {
    fn keep(path: &Path) -> Previous {
        if std::fs::symlink_metadata(path).is_err() {
            return Previous::Nothing;
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        for n in 0..100 {
            let link = parent_dir(path).join(format!(".{name}.dwt-{}-{n}.bak", std::process::id()));
            match std::fs::hard_link(path, &link) {
                Ok(()) => return Previous::File(link),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(_) => break,
            }
        }
        Previous::Unkept
    }

    /// Puts back what `path` held; whether it could.
    fn restore(self, path: &Path) -> bool {
        match self {
            Previous::Nothing => std::fs::remove_file(path).is_ok(),
            Previous::File(link) => std::fs::rename(&link, path).is_ok(),
            Previous::Unkept => false,
        }
    }

    /// Drops the second name: the commit went through, or this rename never happened.
    fn forget(self) {
        if let Previous::File(link) = self {
            let _ = std::fs::remove_file(link);
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (tmp, _) in &self.files {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Turns a staged destination into a directory with a file in it: its rename fails.
    fn block_rename_onto(path: &Path) {
        std::fs::create_dir(path).unwrap();
        std::fs::write(path.join("x"), b"").unwrap();
    }

    /// `c.raw` (holding "old" before) and `c.json` staged in `dir`, the second's rename blocked:
    /// their paths and the commit's error.
    fn commit_with_the_sidecar_blocked(dir: &Path) -> (PathBuf, PathBuf, String) {
        let (data, side) = (dir.join("c.raw"), dir.join("c.json"));
        let mut staged = Staged::default();
        staged.write(&data, b"new").unwrap();
        staged.write(&side, b"{}").unwrap();
        block_rename_onto(&side);
        (data, side, staged.commit().unwrap_err())
    }

    /// The names in `dir`, sorted.
    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A rename failing after another succeeded undoes that one: the file it replaced is back,
    /// and the error says so.
    #[test]
    fn a_commit_failing_part_way_puts_back_what_it_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("c.raw"), b"old").unwrap();
        let (data, side, err) = commit_with_the_sidecar_blocked(dir.path());
        assert!(
            err.starts_with(&format!("cannot write {}: ", side.display()))
                && err.ends_with(&format!(
                    "; {} was put back as it was before this run",
                    data.display()
                )),
            "{err}"
        );
        assert_eq!(std::fs::read(&data).unwrap(), b"old");
        // No temporary or second name is left behind.
        assert_eq!(names_in(dir.path()), ["c.json", "c.raw"]);
    }

    /// Undoing a rename onto a destination that did not exist removes the new file; a commit that
    /// goes through leaves no second name of a replaced file.
    #[test]
    fn a_commit_undone_removes_new_files_and_one_done_leaves_no_second_names() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            dir.path().join("a.raw"),
            dir.path().join("b.raw"),
            dir.path().join("c.json"),
        );
        std::fs::write(&b, b"old b").unwrap();
        let mut staged = Staged::default();
        staged.write(&a, b"new a").unwrap();
        staged.write(&b, b"new b").unwrap();
        staged.write(&c, b"{}").unwrap();
        block_rename_onto(&c);
        let err = staged.commit().unwrap_err();
        assert!(
            err.ends_with(&format!(
                "; {}, {} were put back as they were before this run",
                b.display(),
                a.display()
            )),
            "{err}"
        );
        assert!(!a.exists());
        assert_eq!(std::fs::read(&b).unwrap(), b"old b");

        std::fs::remove_dir_all(&c).unwrap();
        let mut staged = Staged::default();
        staged.write(&a, b"new a").unwrap();
        staged.write(&b, b"new b").unwrap();
        staged.commit().unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), b"new b");
        assert_eq!(names_in(dir.path()), ["a.raw", "b.raw"]);
    }

    /// A replaced file that could not be given a second name (here: every name it would take is
    /// taken) cannot be put back: the error names it as replaced, beside what was not.
    #[test]
    fn a_commit_that_cannot_undo_names_what_it_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("c.raw"), b"old").unwrap();
        for n in 0..100 {
            let taken = dir
                .path()
                .join(format!(".c.raw.dwt-{}-{n}.bak", std::process::id()));
            std::fs::write(taken, b"").unwrap();
        }
        let (data, side, err) = commit_with_the_sidecar_blocked(dir.path());
        assert!(
            err.contains(&format!(
                "; {} was already replaced by this run's output but {} was not",
                data.display(),
                side.display()
            )) && !err.contains("put back"),
            "{err}"
        );
        assert_eq!(std::fs::read(&data).unwrap(), b"new");
    }

    /// A single file failing to rename gets the plain message.
    #[test]
    fn a_commit_failing_first_says_only_that() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o.png");
        let mut staged = Staged::default();
        staged.write(&out, b"x").unwrap();
        block_rename_onto(&out);
        let err = staged.commit().unwrap_err();
        assert!(!err.contains("already replaced"), "{err}");
    }

    #[test]
    fn the_fingerprint_is_sha256_in_hex() {
        assert_eq!(
            fingerprint(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
