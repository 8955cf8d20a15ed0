//! Reading and writing what `dwt transform` takes and gives: images, .npy arrays, raw samples
//! with a JSON sidecar, the pyramid preview; and the progress bar.

use std::path::{Path, PathBuf};

use image::{ImageBuffer, Luma};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lifting::ir::ElementType;
use lifting::runtime::cpu::band_shape;
use lifting::runtime::growth::InputRange;
use serde::{Deserialize, Serialize};

use crate::data::{byte_count, parse_dtype, read_npy, write_npy, Data};
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

/// What `--inverse` needs to know about coefficients besides their values, written next to them
/// as `OUT.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sidecar {
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
    /// The element type of the array the coefficients came from; `--inverse` writes .npy back in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_dtype: Option<String>,
}

pub fn sidecar_path(data: &Path) -> PathBuf {
    data.with_extension("json")
}

/// An input read for a forward transform.
pub struct Input {
    pub data: Data,
    pub shape: Vec<usize>,
    /// The value range the format promises (an image's bit depth); `None`: take the data's own.
    pub range: Option<InputRange>,
    pub image_bits: Option<u32>,
}

pub fn read_input(
    path: &Path,
    shape: Option<&[usize]>,
    dtype: Option<ElementType>,
) -> Result<Input> {
    match kind(path) {
        Kind::Image => {
            let img = image::ImageReader::open(path)
                .and_then(|r| r.with_guessed_format())
                .map_err(|e| format!("cannot read image {}: {e}", path.display()))?
                .decode()
                .map_err(|e| format!("cannot read image {}: {e}", path.display()))?;
            let (w, h) = (img.width() as usize, img.height() as usize);
            let (data, bits) = match img {
                image::DynamicImage::ImageLuma8(b) => {
                    (Data::I16(b.into_raw().into_iter().map(i16::from).collect()), 8)
                }
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
                data,
                shape: vec![h, w],
                range: Some(InputRange::unsigned(bits)),
                image_bits: Some(bits),
            })
        }
        Kind::Npy => {
            let bytes = read_file(path)?;
            let (data, npy_shape) =
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
                data,
                shape: shape.to_vec(),
                range: None,
                image_bits: None,
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

/// Writes coefficients as .npy or raw, with the sidecar beside them.
pub fn write_coefficients(path: &Path, data: &Data, sidecar: &Sidecar) -> Result<()> {
    let side = sidecar_path(path);
    if side == path {
        return Err(format!(
            "{} would be overwritten by its own sidecar; name the output .npy or .raw",
            path.display()
        ));
    }
    match kind(path) {
        Kind::Image => {
            return Err(format!(
                "{}: coefficients are written as .npy or raw; use --preview FILE.png for a picture",
                path.display()
            ))
        }
        Kind::Npy => write_npy(path, data, &sidecar.shape),
        Kind::Raw => std::fs::write(path, data.to_le_bytes()),
    }
    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let json = serde_json::to_string_pretty(sidecar).expect("a sidecar serialises");
    std::fs::write(&side, json + "\n").map_err(|e| format!("cannot write {}: {e}", side.display()))
}

/// Reads coefficients: .npy (with its sidecar if there is one) or raw (with its sidecar, or
/// `--shape` and `--dtype`).
#[allow(clippy::type_complexity)]
pub fn read_coefficients(
    path: &Path,
    shape: Option<&str>,
    dtype: Option<&str>,
) -> Result<((Data, Option<Vec<usize>>), Option<Sidecar>)> {
    let side = sidecar_path(path);
    let sidecar: Option<Sidecar> = if side.exists() && side != path {
        let text = std::fs::read_to_string(&side)
            .map_err(|e| format!("cannot read {}: {e}", side.display()))?;
        Some(
            serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a dwt sidecar: {e}", side.display()))?,
        )
    } else {
        None
    };
    let shape = shape.map(crate::parse_shape).transpose()?;
    match kind(path) {
        Kind::Image => Err(format!(
            "{} is an image; --inverse reads coefficients (.npy, or raw with a .json sidecar)",
            path.display()
        )),
        Kind::Npy => {
            let (data, npy_shape) =
                read_npy(&read_file(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
            check_dims(&npy_shape, path)?;
            if let Some(s) = &sidecar {
                if s.shape != npy_shape {
                    return Err(format!(
                        "{} has shape {npy_shape:?} but its sidecar says {:?}",
                        path.display(),
                        s.shape
                    ));
                }
            }
            let data = match dtype {
                Some(d) => data.convert(parse_dtype(d)?)?,
                None => data,
            };
            Ok(((data, Some(npy_shape)), sidecar))
        }
        Kind::Raw => {
            let shape = shape
                .or(sidecar.as_ref().map(|s| s.shape.clone()))
                .ok_or_else(|| {
                    format!(
                        "{} is raw and has no sidecar {}: pass --shape and --dtype",
                        path.display(),
                        side.display()
                    )
                })?;
            let dtype = match (dtype, &sidecar) {
                (Some(d), _) => parse_dtype(d)?,
                (None, Some(s)) => parse_dtype(&s.dtype)?,
                (None, None) => return Err("raw coefficients need --dtype".into()),
            };
            let data = raw(&read_file(path)?, &shape, dtype, path)?;
            Ok(((data, Some(shape)), sidecar))
        }
    }
}

/// Writes a reconstruction: an image (8-bit, or 16-bit when the values need it or the original
/// was) or .npy.
pub fn write_output(path: &Path, data: &Data, shape: &[usize], bits: Option<u32>) -> Result<()> {
    match kind(path) {
        Kind::Npy => write_npy(path, data, shape)
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
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
            let bits = match bits {
                Some(b) => b,
                None if hi <= 255 => 8,
                None => 16,
            };
            let max = (1i64 << bits) - 1;
            if lo < 0 || hi > max {
                return Err(format!(
                    "the reconstruction has values in [{lo}, {hi}], outside a {bits}-bit image's [0, {max}]; write .npy instead"
                ));
            }
            let result = if bits <= 8 {
                ImageBuffer::<Luma<u8>, _>::from_raw(
                    w as u32,
                    h as u32,
                    values.iter().map(|&v| v as u8).collect::<Vec<_>>(),
                )
                .expect("the buffer matches the shape")
                .save(path)
            } else {
                ImageBuffer::<Luma<u16>, _>::from_raw(
                    w as u32,
                    h as u32,
                    values.iter().map(|&v| v as u16).collect::<Vec<_>>(),
                )
                .expect("the buffer matches the shape")
                .save(path)
            };
            result.map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
    }
}

/// The Mallat pyramid as an 8-bit picture, each band contrast-stretched on its own so that small
/// detail coefficients stay visible next to the large low band (as examples/transform_image.rs).
pub fn write_preview(path: &Path, coeffs: &[f64], shape: &[usize], levels: u32) -> Result<()> {
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
    ImageBuffer::<Luma<u8>, _>::from_raw(width as u32, height as u32, pixels)
        .expect("the buffer matches the shape")
        .save(path)
        .map_err(|e| format!("cannot write preview {}: {e}", path.display()))
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
