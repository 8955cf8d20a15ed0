//! Sample arrays in the four element types, and the .npy format (versions 1 to 3, little-endian,
//! C order) for reading and writing them.

use lifting::runtime::{ElementType, Samples};

/// An array of samples of one element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    I16(Vec<i16>),
    I32(Vec<i32>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

impl Data {
    pub fn element_type(&self) -> ElementType {
        match self {
            Data::I16(_) => ElementType::I16,
            Data::I32(_) => ElementType::I32,
            Data::F32(_) => ElementType::F32,
            Data::F64(_) => ElementType::F64,
        }
    }

    pub fn samples(&mut self) -> Samples<'_> {
        match self {
            Data::I16(v) => Samples::I16(v),
            Data::I32(v) => Samples::I32(v),
            Data::F32(v) => Samples::F32(v),
            Data::F64(v) => Samples::F64(v),
        }
    }

    pub fn to_f64(&self) -> Vec<f64> {
        match self {
            Data::I16(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::F32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::F64(v) => v.clone(),
        }
    }

    /// How many samples are NaN or infinite (none for integer data).
    pub fn non_finite(&self) -> usize {
        match self {
            Data::F32(v) => v.iter().filter(|x| !x.is_finite()).count(),
            Data::F64(v) => v.iter().filter(|x| !x.is_finite()).count(),
            Data::I16(_) | Data::I32(_) => 0,
        }
    }

    /// The integer values, when the data is integer.
    pub fn to_i64(&self) -> Option<Vec<i64>> {
        match self {
            Data::I16(v) => Some(v.iter().map(|&x| x as i64).collect()),
            Data::I32(v) => Some(v.iter().map(|&x| x as i64).collect()),
            _ => None,
        }
    }

    /// Converts to `t`; integer targets take integer data only, and refuse values that do not fit.
    pub fn convert(self, t: ElementType) -> Result<Data, String> {
        if t == self.element_type() {
            return Ok(self);
        }
        match t {
            ElementType::F32 => Ok(Data::F32(self.to_f64().iter().map(|&x| x as f32).collect())),
            ElementType::F64 => Ok(Data::F64(self.to_f64())),
            ElementType::I16 | ElementType::I32 => {
                let from = self.element_type().name();
                let v = self.to_i64().ok_or_else(|| {
                    format!("the data is {from}; an integer element type needs integer data")
                })?;
                let (lo, hi) = if t == ElementType::I16 {
                    (i16::MIN as i64, i16::MAX as i64)
                } else {
                    (i32::MIN as i64, i32::MAX as i64)
                };
                if let Some(x) = v.iter().find(|&&x| x < lo || x > hi) {
                    let wider = match t {
                        ElementType::I16 => "--dtype i32",
                        _ => "--dtype f64 (a float wavelet) or fewer bits",
                    };
                    return Err(format!(
                        "value {x} does not fit {} ({lo} to {hi}); use {wider}",
                        t.name()
                    ));
                }
                Ok(if t == ElementType::I16 {
                    Data::I16(v.iter().map(|&x| x as i16).collect())
                } else {
                    Data::I32(v.iter().map(|&x| x as i32).collect())
                })
            }
        }
    }

    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            Data::I16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::I32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Data::F64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// Little-endian bytes of element type `t`.
    pub fn from_le_bytes(t: ElementType, bytes: &[u8]) -> Result<Data, String> {
        if bytes.len() % t.size() != 0 {
            return Err(format!(
                "{} bytes is not a whole number of {} elements",
                bytes.len(),
                t.name()
            ));
        }
        Ok(match t {
            ElementType::I16 => Data::I16(
                bytes
                    .chunks_exact(2)
                    .map(|c| i16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            ),
            ElementType::I32 => Data::I32(
                bytes
                    .chunks_exact(4)
                    .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            ),
            ElementType::F32 => Data::F32(
                bytes
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            ),
            ElementType::F64 => Data::F64(
                bytes
                    .chunks_exact(8)
                    .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect(),
            ),
        })
    }
}

pub fn parse_dtype(s: &str) -> Result<ElementType, String> {
    ElementType::ALL
        .into_iter()
        .find(|t| t.name() == s)
        .ok_or_else(|| format!("unknown dtype `{s}`; use i16, i32, f32 or f64"))
}

/// The element type of a .npy array as stored. Transforms compute in an [`ElementType`]: bool and
/// the narrower or unsigned integer types are read into the narrowest one that holds them, and a
/// reconstruction is written back in the stored type, so that a round trip gives the dtype given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NpyType {
    Bool,
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    /// numpy's default integer type: read where every value fits i32.
    I64,
    F32,
    F64,
}

impl NpyType {
    pub const ALL: [NpyType; 10] = [
        NpyType::Bool,
        NpyType::U8,
        NpyType::I8,
        NpyType::U16,
        NpyType::I16,
        NpyType::U32,
        NpyType::I32,
        NpyType::I64,
        NpyType::F32,
        NpyType::F64,
    ];

    /// The name a sidecar records, in the style of the element types' names.
    pub fn name(self) -> &'static str {
        match self {
            NpyType::Bool => "bool",
            NpyType::U8 => "u8",
            NpyType::I8 => "i8",
            NpyType::U16 => "u16",
            NpyType::I16 => "i16",
            NpyType::U32 => "u32",
            NpyType::I32 => "i32",
            NpyType::I64 => "i64",
            NpyType::F32 => "f32",
            NpyType::F64 => "f64",
        }
    }

    pub fn parse(s: &str) -> Option<NpyType> {
        NpyType::ALL.into_iter().find(|t| t.name() == s)
    }

    /// numpy's name, for messages.
    fn numpy_name(self) -> &'static str {
        match self {
            NpyType::Bool => "bool",
            NpyType::U8 => "uint8",
            NpyType::I8 => "int8",
            NpyType::U16 => "uint16",
            NpyType::I16 => "int16",
            NpyType::U32 => "uint32",
            NpyType::I32 => "int32",
            NpyType::I64 => "int64",
            NpyType::F32 => "float32",
            NpyType::F64 => "float64",
        }
    }

    fn descr(self) -> &'static str {
        match self {
            NpyType::Bool => "|b1",
            NpyType::U8 => "|u1",
            NpyType::I8 => "|i1",
            NpyType::U16 => "<u2",
            NpyType::I16 => "<i2",
            NpyType::U32 => "<u4",
            NpyType::I32 => "<i4",
            NpyType::I64 => "<i8",
            NpyType::F32 => "<f4",
            NpyType::F64 => "<f8",
        }
    }

    /// The type from a .npy `descr` without its byte-order character.
    fn from_descr(code: &str) -> Option<NpyType> {
        NpyType::ALL.into_iter().find(|t| &t.descr()[1..] == code)
    }

    fn size(self) -> usize {
        match self {
            NpyType::Bool | NpyType::U8 | NpyType::I8 => 1,
            NpyType::U16 | NpyType::I16 => 2,
            NpyType::U32 | NpyType::I32 | NpyType::F32 => 4,
            NpyType::I64 | NpyType::F64 => 8,
        }
    }

    /// The element type the array is read into.
    pub fn element_type(self) -> ElementType {
        match self {
            NpyType::Bool | NpyType::U8 | NpyType::I8 | NpyType::I16 => ElementType::I16,
            NpyType::U16 | NpyType::U32 | NpyType::I32 | NpyType::I64 => ElementType::I32,
            NpyType::F32 => ElementType::F32,
            NpyType::F64 => ElementType::F64,
        }
    }

    /// The values an integer type holds; `None` for the float types.
    fn range(self) -> Option<(i64, i64)> {
        Some(match self {
            NpyType::Bool => (0, 1),
            NpyType::U8 => (0, u8::MAX.into()),
            NpyType::I8 => (i8::MIN.into(), i8::MAX.into()),
            NpyType::U16 => (0, u16::MAX.into()),
            NpyType::I16 => (i16::MIN.into(), i16::MAX.into()),
            NpyType::U32 => (0, u32::MAX.into()),
            NpyType::I32 => (i32::MIN.into(), i32::MAX.into()),
            NpyType::I64 => (i64::MIN, i64::MAX),
            NpyType::F32 | NpyType::F64 => return None,
        })
    }
}

impl From<ElementType> for NpyType {
    fn from(t: ElementType) -> NpyType {
        match t {
            ElementType::I16 => NpyType::I16,
            ElementType::I32 => NpyType::I32,
            ElementType::F32 => NpyType::F32,
            ElementType::F64 => NpyType::F64,
        }
    }
}

/// `data` of `shape` as the bytes of a version 1.0 .npy file.
pub fn npy_bytes(data: &Data, shape: &[usize]) -> Vec<u8> {
    npy_file(
        NpyType::from(data.element_type()),
        shape,
        data.to_le_bytes(),
    )
}

/// `data` of `shape` as the bytes of a version 1.0 .npy file of type `t`; an error naming the
/// values where they do not fit `t` (never wrapped or saturated), or where `t` is integer and the
/// data is not.
pub fn npy_bytes_as(data: &Data, shape: &[usize], t: NpyType) -> Result<Vec<u8>, String> {
    if t == NpyType::from(data.element_type()) {
        return Ok(npy_bytes(data, shape));
    }
    let body = match t.range() {
        Some((lo, hi)) => {
            let v = data.to_i64().ok_or_else(|| {
                format!(
                    "the data is {}; {} needs integer data",
                    data.element_type().name(),
                    t.numpy_name()
                )
            })?;
            let (min, max) = (
                v.iter().copied().min().unwrap_or(0),
                v.iter().copied().max().unwrap_or(0),
            );
            if min < lo || max > hi {
                return Err(format!(
                    "the values are in [{min}, {max}], outside {}'s [{lo}, {hi}]",
                    t.numpy_name()
                ));
            }
            // In range, so every cast below is exact.
            let mut body = Vec::with_capacity(v.len() * t.size());
            for x in v {
                match t.size() {
                    1 => body.push(x as u8),
                    2 => body.extend_from_slice(&(x as u16).to_le_bytes()),
                    4 => body.extend_from_slice(&(x as u32).to_le_bytes()),
                    _ => body.extend_from_slice(&x.to_le_bytes()),
                }
            }
            body
        }
        None => {
            let v = match data {
                Data::F32(_) | Data::F64(_) => data.to_f64(),
                _ => {
                    return Err(format!(
                        "the data is {}; {} needs float data",
                        data.element_type().name(),
                        t.numpy_name()
                    ))
                }
            };
            match t {
                NpyType::F32 => {
                    if let Some(x) = v
                        .iter()
                        .find(|x| x.is_finite() && !(**x as f32).is_finite())
                    {
                        return Err(format!("value {x} is outside float32's range"));
                    }
                    v.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect()
                }
                _ => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            }
        }
    };
    Ok(npy_file(t, shape, body))
}

/// A version 1.0 .npy file: the header for `t` and `shape`, then `body`.
fn npy_file(t: NpyType, shape: &[usize], body: Vec<u8>) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape_text = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape_text}, }}",
        t.descr()
    );
    // Magic (6) + version (2) + length (2) + header, padded with spaces to a multiple of 64, ending
    // in a newline.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + body.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&body);
    out
}

/// Reads a .npy file: its data (bool, u8, i8 and i16 become i16; u16, u32 and i32 become i32),
/// shape, and the type it was stored in.
pub fn read_npy(bytes: &[u8]) -> Result<(Data, Vec<usize>, NpyType), String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    let (header_len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(format!("unsupported .npy version {v}")),
    };
    let header = bytes
        .get(start..start + header_len)
        .ok_or("truncated .npy header")?;
    let header = std::str::from_utf8(header).map_err(|_| "the .npy header is not text")?;
    let field = |key: &str| -> Result<&str, String> {
        let at = header
            .find(&format!("'{key}'"))
            .ok_or_else(|| format!("the .npy header has no '{key}'"))?;
        let rest = header[at + key.len() + 2..].trim_start();
        Ok(rest.strip_prefix(':').unwrap_or(rest).trim_start())
    };
    let descr = field("descr")?;
    let descr = descr
        .strip_prefix('\'')
        .and_then(|d| d.split('\'').next())
        .ok_or("malformed 'descr' in the .npy header")?;
    if field("fortran_order")?.starts_with("True") {
        return Err("Fortran-order .npy arrays are not supported; save with C order".into());
    }
    let shape_text = field("shape")?;
    let shape_text = shape_text
        .strip_prefix('(')
        .and_then(|s| s.split(')').next())
        .ok_or("malformed 'shape' in the .npy header")?;
    let shape = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<usize>()
                .map_err(|_| format!("bad dimension `{s}` in the .npy shape"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let body = &bytes[start + header_len..];
    let Some(stored) = descr.get(1..).and_then(NpyType::from_descr) else {
        return Err(format!(
            "unsupported .npy dtype `{descr}`; use (u)int8/16/32, int64 (values within int32's range), float32 or float64"
        ));
    };
    let size = stored.size();
    if size > 1 && descr.starts_with('>') {
        return Err(format!("big-endian .npy dtype `{descr}` is not supported"));
    }
    let needed = byte_count(&shape, size).ok_or_else(|| {
        format!("the .npy shape {shape:?} is larger than this machine can address")
    })?;
    if body.len() != needed {
        return Err(format!(
            "the .npy shape {shape:?} needs {needed} bytes of data but the file has {}",
            body.len()
        ));
    }
    let data = match stored {
        NpyType::Bool | NpyType::U8 => Data::I16(body.iter().map(|&b| b as i16).collect()),
        NpyType::I8 => Data::I16(body.iter().map(|&b| b as i8 as i16).collect()),
        NpyType::U16 => Data::I32(
            body.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]) as i32)
                .collect(),
        ),
        NpyType::U32 => {
            let v: Vec<u32> = body
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            if v.iter().any(|&x| x > i32::MAX as u32) {
                return Err("uint32 values above 2^31 - 1 do not fit i32".into());
            }
            Data::I32(v.into_iter().map(|x| x as i32).collect())
        }
        NpyType::I64 => {
            let v: Vec<i64> = (body.chunks_exact(8))
                .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect();
            let fits = |x: &i64| i32::try_from(*x).is_ok();
            if let Some(x) = v.iter().find(|x| !fits(x)) {
                return Err(format!(
                    "int64 value {x} does not fit i32, the widest integer type transformed; convert the array to float64 for a float wavelet"
                ));
            }
            Data::I32(v.into_iter().map(|x| x as i32).collect())
        }
        NpyType::I16 | NpyType::I32 | NpyType::F32 | NpyType::F64 => {
            Data::from_le_bytes(stored.element_type(), body)?
        }
    };
    Ok((data, shape, stored))
}

/// The bytes of `shape` at `size` bytes a sample; `None` where that overflows (a header or a
/// `--shape` can claim anything).
pub fn byte_count(shape: &[usize], size: usize) -> Option<usize> {
    lifting::runtime::cpu::sample_count(shape)
        .ok()?
        .checked_mul(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_round_trip() {
        for (data, shape) in [
            (Data::I16(vec![1, -2, 3, 4, 5, 6]), vec![2, 3]),
            (Data::I32(vec![1 << 20, -7]), vec![2]),
            (Data::F32(vec![0.5; 8]), vec![2, 2, 2]),
            (Data::F64(vec![-1.25, 3.0]), vec![1, 2]),
        ] {
            let bytes = npy_bytes(&data, &shape);
            let header_end = 10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
            assert_eq!(header_end % 64, 0);
            assert_eq!(bytes[header_end - 1], b'\n');
            let t = NpyType::from(data.element_type());
            assert_eq!(read_npy(&bytes).unwrap(), (data, shape, t));
        }
    }

    #[test]
    fn every_stored_type_is_written_back_exactly_or_refused() {
        for t in NpyType::ALL {
            let values: Vec<i64> = match t.range() {
                // u32's top half does not fit the i32 it is read into (read_npy refuses it).
                Some(_) if t == NpyType::U32 => vec![0, i32::MAX.into(), 12345],
                // Nor does int64's range; its values that fit i32 are read.
                Some(_) if t == NpyType::I64 => vec![i32::MIN.into(), i32::MAX.into(), -12345],
                Some((lo, hi)) => vec![lo, hi, (lo + hi) / 2],
                None => vec![0, -3, 7],
            };
            let data = match t.element_type() {
                ElementType::I16 => Data::I16(values.iter().map(|&x| x as i16).collect()),
                ElementType::I32 => Data::I32(values.iter().map(|&x| x as i32).collect()),
                ElementType::F32 => Data::F32(values.iter().map(|&x| x as f32).collect()),
                ElementType::F64 => Data::F64(values.iter().map(|&x| x as f64).collect()),
            };
            let bytes = npy_bytes_as(&data, &[3], t).unwrap();
            assert_eq!(read_npy(&bytes).unwrap(), (data, vec![3], t), "{t:?}");
            if let Some((lo, hi)) = t.range() {
                if lo > i32::MIN as i64 {
                    let e = npy_bytes_as(&Data::I32(vec![lo as i32 - 1, 0]), &[2], t).unwrap_err();
                    assert!(e.contains("outside") && e.contains(&lo.to_string()), "{e}");
                }
                if hi < i32::MAX as i64 {
                    let e = npy_bytes_as(&Data::I32(vec![hi as i32 + 1]), &[1], t).unwrap_err();
                    assert!(e.contains("outside"), "{e}");
                }
            }
        }
        let e = npy_bytes_as(&Data::F64(vec![1e300]), &[1], NpyType::F32).unwrap_err();
        assert!(e.contains("outside float32's range"), "{e}");
        assert!(npy_bytes_as(&Data::F32(vec![0.5]), &[1], NpyType::U8).is_err());
        assert!(npy_bytes_as(&Data::I16(vec![1]), &[1], NpyType::F32).is_err());
    }

    #[test]
    fn npy_errors() {
        assert!(read_npy(b"hello world").unwrap_err().contains("not a .npy"));
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        let h = "{'descr': '<i2', 'fortran_order': False, 'shape': (3, 3), }\n";
        bytes.extend_from_slice(&(h.len() as u16).to_le_bytes());
        bytes.extend_from_slice(h.as_bytes());
        bytes.extend_from_slice(&[0; 4]);
        assert!(read_npy(&bytes).unwrap_err().contains("needs 18 bytes"));
        // A header whose shape overflows: the product wraps to 0 and would match an empty body.
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        let h = "{'descr': '<i2', 'fortran_order': False, 'shape': (9223372036854775808, 4), }\n";
        bytes.extend_from_slice(&(h.len() as u16).to_le_bytes());
        bytes.extend_from_slice(h.as_bytes());
        let e = read_npy(&bytes).unwrap_err();
        assert!(e.contains("larger than this machine can address"), "{e}");
    }
}
