//! Which CUDA device the backend runs on: the ordinal [`DEVICE_ENV`] or
//! [`CudaBackend::on_device`](crate::CudaBackend::on_device) names (device 0 by default, the
//! first `CUDA_VISIBLE_DEVICES` leaves visible), and the message that refuses one there is not.

/// The environment variable that picks the CUDA device by its ordinal (`0`, `1`, ...), counted
/// among the devices `CUDA_VISIBLE_DEVICES` leaves visible.
pub const DEVICE_ENV: &str = "DWT_CUDA_DEVICE";

/// The ordinal `text` names (white space around it ignored; empty is `None`, the default).
pub(crate) fn parse_ordinal(text: &str) -> Result<Option<usize>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<usize>() {
        Ok(n) if text.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
        _ => Err(format!(
            "`{text}` is not a CUDA device ordinal ({DEVICE_ENV}): name a device by its number, 0 for the first (`nvidia-smi -L` lists them; CUDA_VISIBLE_DEVICES renumbers them)"
        )),
    }
}

/// The ordinal [`DEVICE_ENV`] names (`None` where unset or empty: device 0), or why it names
/// none.
pub fn ordinal_from_env() -> Result<Option<usize>, String> {
    match std::env::var(DEVICE_ENV) {
        Ok(text) => parse_ordinal(&text),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(raw)) => Err(format!(
            "{DEVICE_ENV} is not valid UTF-8 ({raw:?}): name a device by its number, 0 for the first"
        )),
    }
}

/// Why device `ordinal` cannot be had: `names` are the devices there are, by ordinal; `origin`
/// says where the ordinal came from.
pub(crate) fn no_such_device(ordinal: usize, names: &[String], origin: &str) -> String {
    let listed = match names {
        [] => "there are none".to_string(),
        _ => format!(
            "the devices: {}",
            names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("{i} {n}"))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    format!(
        "there is no CUDA device {ordinal} ({origin}); {listed}. Name one by its number, or leave {DEVICE_ENV} unset for device 0"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_parse_and_anything_else_is_refused() {
        assert_eq!(parse_ordinal(""), Ok(None));
        assert_eq!(parse_ordinal("  "), Ok(None));
        assert_eq!(parse_ordinal("0"), Ok(Some(0)));
        assert_eq!(parse_ordinal(" 3 "), Ok(Some(3)));
        for bad in ["+1", "-1", "gpu", "0:1", "1.0", "99999999999999999999999"] {
            let e = parse_ordinal(bad).unwrap_err();
            assert!(
                e.starts_with(&format!(
                    "`{bad}` is not a CUDA device ordinal (DWT_CUDA_DEVICE)"
                )),
                "{e}"
            );
        }
    }

    #[test]
    fn a_missing_device_lists_those_there_are() {
        let names = [
            "NVIDIA H100 80GB HBM3".to_string(),
            "NVIDIA H200".to_string(),
        ];
        assert_eq!(
            no_such_device(2, &names, "DWT_CUDA_DEVICE"),
            "there is no CUDA device 2 (DWT_CUDA_DEVICE); the devices: 0 NVIDIA H100 80GB HBM3; 1 NVIDIA H200. Name one by its number, or leave DWT_CUDA_DEVICE unset for device 0"
        );
        assert!(no_such_device(0, &[], "x").contains("there are none"));
    }
}
