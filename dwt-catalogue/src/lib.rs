//! The built-in wavelets, declared with `lifting!` exactly as Dirac / VC-2 (SMPTE ST 2042-1, section
//! 15.4) and JPEG 2000 define them. Offsets are polyphase: `even[k]` is sample `2(n+k)` and `odd[k]`
//! is sample `2(n+k)+1`, for the target at `2n` (even) or `2n+1` (odd).

use std::path::{Path, PathBuf};

use dwt_ir::{Wavelet, WaveletSpec};
use dwt_macros::lifting;

lifting! {
    /// Deslauriers-Dubuc (9,7), as in Dirac / VC-2 (wavelet index 0).
    pub wavelet DeslauriersDubuc97 {
        boundary = clamp;
        shift = 1;
        odd  -= (-even[-1] + 9*even[0] + 9*even[1] - even[2] + 8) >> 4;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }

    /// LeGall (5,3), as in Dirac / VC-2 (wavelet index 1) and reversible JPEG 2000.
    pub wavelet LeGall53 {
        boundary = clamp;
        shift = 1;
        odd  -= (even[0] + even[1] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }

    /// Deslauriers-Dubuc (13,7), as in Dirac / VC-2 (wavelet index 2).
    pub wavelet DeslauriersDubuc137 {
        boundary = clamp;
        shift = 1;
        odd  -= (-even[-1] + 9*even[0] + 9*even[1] - even[2] + 8) >> 4;
        even += (-odd[-2] + 9*odd[-1] + 9*odd[0] - odd[1] + 16) >> 5;
    }

    /// Haar without the per-level shift, as in Dirac / VC-2 (wavelet index 3).
    pub wavelet HaarNoShift {
        boundary = clamp;
        odd  -= even[0];
        even += (odd[0] + 1) >> 1;
    }

    /// Haar with a per-level shift of one bit, as in Dirac / VC-2 (wavelet index 4).
    pub wavelet HaarWithShift {
        boundary = clamp;
        shift = 1;
        odd  -= even[0];
        even += (odd[0] + 1) >> 1;
    }

    /// Fidelity, as in Dirac / VC-2 (wavelet index 5): the update comes first.
    ///
    /// The second tap of the predict step is +10, as Schroedinger and FFmpeg use it and as symmetry
    /// requires; `vc2_data_tables` 1.0.0 stores -10, a sign typo that makes a constant signal leak into
    /// the high band.
    pub wavelet Fidelity {
        boundary = clamp;
        even += (-8*odd[-4] + 21*odd[-3] - 46*odd[-2] + 161*odd[-1] + 161*odd[0] - 46*odd[1] + 21*odd[2] - 8*odd[3] + 128) >> 8;
        odd  -= (-2*even[-3] + 10*even[-2] - 25*even[-1] + 81*even[0] + 81*even[1] - 25*even[2] + 10*even[3] - 2*even[4] + 128) >> 8;
    }

    /// The integer approximation of Daubechies (9,7), as in Dirac / VC-2 (wavelet index 6).
    pub wavelet Daubechies97Integer {
        boundary = clamp;
        shift = 1;
        odd  -= (6497*(even[0] + even[1]) + 2048) >> 12;
        even -= (217*(odd[-1] + odd[0]) + 2048) >> 12;
        odd  += (3616*(even[0] + even[1]) + 2048) >> 12;
        even += (1817*(odd[-1] + odd[0]) + 2048) >> 12;
    }

    /// The irreversible CDF 9/7 of JPEG 2000 (Daubechies-Sweldens factorisation), with whole-sample
    /// symmetric extension: low *= K, high /= K. PyWavelets' `bior4.4` equals this with the high band
    /// negated.
    pub wavelet Cdf97 {
        kind = float;
        boundary = symmetric;
        odd  += -1.586134342059924*(even[0] + even[1]);
        even += -0.052980118572961*(odd[-1] + odd[0]);
        odd  += 0.882911075530934*(even[0] + even[1]);
        even += 0.443506852043971*(odd[-1] + odd[0]);
        scale 1.149604398860241;
    }

    /// CDF 5/3 (LeGall) with real arithmetic and whole-sample symmetric extension, scaled by sqrt(2)
    /// so that it matches PyWavelets' `bior2.2` up to the sign of the high band.
    pub wavelet Cdf53 {
        kind = float;
        boundary = symmetric;
        odd  -= 1/2*(even[0] + even[1]);
        even += 1/4*(odd[-1] + odd[0]);
        scale 1.4142135623730951;
    }
}

/// Every catalogue wavelet's IR, in catalogue order.
pub fn all() -> Vec<&'static Wavelet> {
    vec![
        DeslauriersDubuc97::wavelet(),
        LeGall53::wavelet(),
        DeslauriersDubuc137::wavelet(),
        HaarNoShift::wavelet(),
        HaarWithShift::wavelet(),
        Fidelity::wavelet(),
        Daubechies97Integer::wavelet(),
        Cdf97::wavelet(),
        Cdf53::wavelet(),
    ]
}

/// A catalogue wavelet by name (case-insensitive).
pub fn by_name(name: &str) -> Option<&'static Wavelet> {
    all()
        .into_iter()
        .find(|w| w.name.eq_ignore_ascii_case(name))
}

/// Why [`by_name_or_file`] found no wavelet.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("unknown wavelet `{spec}`: neither a catalogue wavelet ({names}) nor a file")]
    Unknown { spec: String, names: String },
    #[error("cannot read wavelet file {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{}:{}: {}", .path.display(), .error.line, .error.column, .error.message)]
    Parse {
        path: PathBuf,
        error: dwt_ir::ParseError,
    },
}

/// The wavelets a command line names: a catalogue wavelet by name (case-insensitive), else the
/// path of a wavelet file (the `lifting!` language read at run time) and every wavelet it
/// declares, in order; never none. A name is looked up before the file system, so a file named
/// like a catalogue wavelet is not read.
pub fn by_name_or_file(spec: &str) -> Result<Vec<Wavelet>, LoadError> {
    if let Some(w) = by_name(spec) {
        return Ok(vec![w.clone()]);
    }
    let path = Path::new(spec);
    if !path.exists() {
        let names: Vec<&str> = all().iter().map(|w| w.name.as_str()).collect();
        return Err(LoadError::Unknown {
            spec: spec.to_string(),
            names: names.join(", "),
        });
    }
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    // The parser refuses text that declares none.
    dwt_ir::parse_str(&text).map_err(|error| LoadError::Parse {
        path: path.to_path_buf(),
        error,
    })
}
