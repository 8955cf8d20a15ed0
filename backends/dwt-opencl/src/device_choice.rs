//! Which OpenCL device the backend runs on: the devices the ICD loader knows, numbered
//! `platform:device` as `dwt list` shows them, and the [`DeviceSelector`] that picks one
//! ([`DEVICE_ENV`], [`OpenClBackend::on_device`](crate::OpenClBackend::on_device)).
//!
//! Unset, the selector takes the first GPU, then the first accelerator, then the first device:
//! the ICD loader lists platforms in no promised order, and on a machine with PoCL beside a GPU
//! driver the first platform's CPU device would run every transform many times slower.

use std::fmt;
use std::str::FromStr;

/// The environment variable that picks the OpenCL device: a `platform:device` index (`0:1`), a
/// kind (`gpu`, `accelerator`, `cpu`) or a part of the device's or platform's name (any case).
pub const DEVICE_ENV: &str = "DWT_OPENCL_DEVICE";

/// What an OpenCL device is, as it reports its `CL_DEVICE_TYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    Gpu,
    Accelerator,
    Cpu,
    /// A custom or otherwise unlisted type.
    Other,
}

impl DeviceKind {
    pub fn name(self) -> &'static str {
        match self {
            DeviceKind::Gpu => "gpu",
            DeviceKind::Accelerator => "accelerator",
            DeviceKind::Cpu => "cpu",
            DeviceKind::Other => "other",
        }
    }
}

/// One OpenCL device the ICD loader lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceEntry {
    /// The platform's place in the loader's list.
    pub platform: usize,
    /// The device's place in its platform's list.
    pub device: usize,
    pub platform_name: String,
    pub device_name: String,
    pub kind: DeviceKind,
}

impl fmt::Display for DeviceEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{} {} / {} ({})",
            self.platform,
            self.device,
            self.platform_name,
            self.device_name,
            self.kind.name()
        )
    }
}

/// Which device to run on.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum DeviceSelector {
    /// The first GPU, else the first accelerator, else the first device.
    #[default]
    Preferred,
    /// Device `device` of platform `platform`, as [`DeviceEntry`] numbers them.
    Index { platform: usize, device: usize },
    /// The first device of this kind.
    Kind(DeviceKind),
    /// The first device whose platform or device name contains this text, in any case.
    Name(String),
}

/// What a selector may be, for the messages that refuse one.
const SELECTOR_FORMS: &str = "a `platform:device` index as `dwt list` shows them (e.g. 0:1), a kind (gpu, accelerator, cpu) or a part of the device's name";

impl FromStr for DeviceSelector {
    type Err = String;

    /// Empty (or only white space) is [`DeviceSelector::Preferred`]. A bare number is refused
    /// rather than taken as a part of a name, which would match "NVIDIA H100" for `1`.
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(DeviceSelector::Preferred);
        }
        let number = |s: &str| -> Option<usize> {
            let s = s.trim();
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        if let Some((p, d)) = text.split_once(':') {
            if let (Some(platform), Some(device)) = (number(p), number(d)) {
                return Ok(DeviceSelector::Index { platform, device });
            }
        }
        if text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "`{text}` is not an OpenCL device selector: name a device by {SELECTOR_FORMS}"
            ));
        }
        Ok(match text.to_ascii_lowercase().as_str() {
            "gpu" => DeviceSelector::Kind(DeviceKind::Gpu),
            "accelerator" => DeviceSelector::Kind(DeviceKind::Accelerator),
            "cpu" => DeviceSelector::Kind(DeviceKind::Cpu),
            _ => DeviceSelector::Name(text.to_string()),
        })
    }
}

impl fmt::Display for DeviceSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceSelector::Preferred => write!(f, "the first GPU, accelerator or device"),
            DeviceSelector::Index { platform, device } => write!(f, "{platform}:{device}"),
            DeviceSelector::Kind(k) => write!(f, "{}", k.name()),
            DeviceSelector::Name(n) => write!(f, "{n}"),
        }
    }
}

impl DeviceSelector {
    /// The selector [`DEVICE_ENV`] sets ([`DeviceSelector::Preferred`] where unset or empty).
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(DEVICE_ENV) {
            Ok(text) => text.parse().map_err(|e| format!("{e} ({DEVICE_ENV})")),
            Err(std::env::VarError::NotPresent) => Ok(DeviceSelector::Preferred),
            Err(std::env::VarError::NotUnicode(raw)) => Err(format!(
                "{DEVICE_ENV} is not valid UTF-8 ({raw:?}): name a device by {SELECTOR_FORMS}"
            )),
        }
    }

    /// The place in `devices` of the one this selector picks, or why none: the message lists
    /// the devices there are and how to name one; `origin` says where the selector came from.
    pub fn choose(&self, devices: &[DeviceEntry], origin: &str) -> Result<usize, String> {
        let first = |f: &dyn Fn(&DeviceEntry) -> bool| devices.iter().position(f);
        let found = match self {
            DeviceSelector::Preferred => first(&|e| e.kind == DeviceKind::Gpu)
                .or_else(|| first(&|e| e.kind == DeviceKind::Accelerator))
                .or_else(|| (!devices.is_empty()).then_some(0)),
            DeviceSelector::Index { platform, device } => {
                first(&|e| e.platform == *platform && e.device == *device)
            }
            DeviceSelector::Kind(kind) => first(&|e| e.kind == *kind),
            DeviceSelector::Name(name) => {
                let name = name.to_lowercase();
                first(&|e| {
                    e.device_name.to_lowercase().contains(&name)
                        || e.platform_name.to_lowercase().contains(&name)
                })
            }
        };
        found.ok_or_else(|| {
            let listed = match devices {
                [] => "there are none".to_string(),
                _ => format!(
                    "the devices: {}",
                    devices
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            };
            format!(
                "no OpenCL device matches `{self}` ({origin}); {listed}. Name one by {SELECTOR_FORMS}, or leave {DEVICE_ENV} unset for the first GPU"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(platform: usize, device: usize, names: (&str, &str), kind: DeviceKind) -> DeviceEntry {
        DeviceEntry {
            platform,
            device,
            platform_name: names.0.into(),
            device_name: names.1.into(),
            kind,
        }
    }

    /// PoCL's CPU first, then a GPU platform with a GPU and an accelerator.
    fn machine() -> Vec<DeviceEntry> {
        vec![
            entry(
                0,
                0,
                ("Portable Computing Language", "cpu-haswell"),
                DeviceKind::Cpu,
            ),
            entry(1, 0, ("Vendor", "Accel One"), DeviceKind::Accelerator),
            entry(
                1,
                1,
                ("NVIDIA CUDA", "NVIDIA H100 80GB HBM3"),
                DeviceKind::Gpu,
            ),
        ]
    }

    fn pick(text: &str, devices: &[DeviceEntry]) -> Result<usize, String> {
        text.parse::<DeviceSelector>()?.choose(devices, "test")
    }

    #[test]
    fn the_preferred_device_is_a_gpu_over_an_earlier_platform_s_cpu() {
        let m = machine();
        assert_eq!(pick("", &m), Ok(2));
        assert_eq!(pick("  ", &m), Ok(2));
        // Without a GPU the accelerator, without either the first device.
        assert_eq!(pick("", &m[..2]), Ok(1));
        assert_eq!(pick("", &m[..1]), Ok(0));
    }

    #[test]
    fn selectors_by_index_kind_and_name() {
        let m = machine();
        assert_eq!(pick("0:0", &m), Ok(0));
        assert_eq!(pick(" 1 : 0 ", &m), Ok(1));
        assert_eq!(pick("1:1", &m), Ok(2));
        assert_eq!(pick("CPU", &m), Ok(0));
        assert_eq!(pick("accelerator", &m), Ok(1));
        assert_eq!(pick("gpu", &m), Ok(2));
        assert_eq!(pick("h100", &m), Ok(2));
        assert_eq!(pick("portable", &m), Ok(0));
        assert_eq!(pick("nvidia cuda", &m), Ok(2));
    }

    #[test]
    fn an_unmatched_selector_lists_the_devices_and_how_to_name_one() {
        let m = machine();
        let e = pick("2:0", &m).unwrap_err();
        assert!(e.starts_with("no OpenCL device matches `2:0` (test); the devices: 0:0 Portable Computing Language / cpu-haswell (cpu); 1:0 Vendor / Accel One (accelerator); 1:1 NVIDIA CUDA / NVIDIA H100 80GB HBM3 (gpu). Name one by a `platform:device` index"), "{e}");
        assert!(
            e.ends_with("or leave DWT_OPENCL_DEVICE unset for the first GPU"),
            "{e}"
        );
        assert!(pick("gpu", &m[..2]).unwrap_err().contains("matches `gpu`"));
        assert!(pick("radeon", &m).unwrap_err().contains("matches `radeon`"));
        assert!(pick("", &[]).unwrap_err().contains("there are none"));
    }

    #[test]
    fn a_bare_number_is_refused_rather_than_matched_inside_a_name() {
        // `1` is inside "NVIDIA H100": taken as a name it would pick that GPU silently.
        let e = pick("1", &machine()).unwrap_err();
        assert!(
            e.starts_with(
                "`1` is not an OpenCL device selector: name a device by a `platform:device` index"
            ),
            "{e}"
        );
        // A colon with something other than two numbers is a name (and matches nothing here).
        assert_eq!(
            "0:x".parse::<DeviceSelector>(),
            Ok(DeviceSelector::Name("0:x".into()))
        );
        assert!(pick("0:x", &machine()).is_err());
        // An index too large for usize is not a number either.
        assert!(pick("99999999999999999999999:0", &machine()).is_err());
    }
}
