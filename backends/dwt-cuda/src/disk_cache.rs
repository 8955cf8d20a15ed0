//! The CUDA side of the on-disk kernel cache ([`dwt_emit_c::disk_cache`]): CUBINs keyed by the
//! source, the device's name and architecture, the driver's version, NVRTC's version and its
//! options. A missing, corrupt or unloadable entry is compiled again and rewritten; the cache
//! never makes a build fail.

use std::path::{Path, PathBuf};

use dwt_emit_c::disk_cache;

/// The folder under the cache directory CUDA entries live in.
pub const SUBDIR: &str = "cuda";

/// What identifies a CUBIN besides its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheIdentity {
    pub device_name: String,
    /// `sm_XY`.
    pub arch: String,
    /// `cuDriverGetVersion`, e.g. 13000.
    pub driver_version: i32,
    /// NVRTC's (major, minor).
    pub nvrtc_version: (i32, i32),
    /// The NVRTC options the source is compiled with.
    pub options: Vec<String>,
}

impl CacheIdentity {
    fn text(&self) -> String {
        format!(
            "{} | {} | driver {} | nvrtc {}.{} | {}",
            self.device_name,
            self.arch,
            self.driver_version,
            self.nvrtc_version.0,
            self.nvrtc_version.1,
            self.options.join(" ")
        )
    }

    /// The stable key (hex SHA-256) of `source` compiled for this identity.
    pub fn key(&self, source: &str) -> String {
        disk_cache::key(&[source.as_bytes(), self.text().as_bytes()])
    }

    /// The entry of `source` under the cache directory `dir`.
    pub fn entry(&self, dir: &Path, source: &str) -> PathBuf {
        disk_cache::entry_path(dir, SUBDIR, &self.key(source), "cubin")
    }
}

/// The entry of `source` in this process's cache directory, `None` when there is none.
pub fn entry(identity: &CacheIdentity, source: &str) -> Option<PathBuf> {
    disk_cache::cache_dir().map(|dir| identity.entry(&dir, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> CacheIdentity {
        CacheIdentity {
            device_name: "NVIDIA H200".into(),
            arch: "sm_90".into(),
            driver_version: 13000,
            nvrtc_version: (13, 0),
            options: crate::options("sm_90"),
        }
    }

    #[test]
    fn key_depends_on_everything_that_changes_the_cubin() {
        let base = id();
        let k = base.key("__global__ void f() {}");
        assert_eq!(k.len(), 64);
        assert_eq!(k, id().key("__global__ void f() {}"), "stable");
        assert_ne!(k, base.key("__global__ void g() {}"));
        let variants = [
            CacheIdentity {
                device_name: "NVIDIA H100".into(),
                ..id()
            },
            CacheIdentity {
                arch: "sm_80".into(),
                ..id()
            },
            CacheIdentity {
                driver_version: 12080,
                ..id()
            },
            CacheIdentity {
                nvrtc_version: (13, 1),
                ..id()
            },
            CacheIdentity {
                options: crate::options("sm_80"),
                ..id()
            },
        ];
        for v in variants {
            assert_ne!(k, v.key("__global__ void f() {}"), "{v:?}");
        }
    }

    #[test]
    fn entry_lives_in_the_cuda_folder() {
        let p = id().entry(Path::new("/cache"), "src");
        assert_eq!(p.parent(), Some(Path::new("/cache/cuda")));
        assert_eq!(p.extension().and_then(|e| e.to_str()), Some("cubin"));
        assert_eq!(
            p.file_stem().and_then(|s| s.to_str()),
            Some(id().key("src").as_str())
        );
    }

    #[test]
    fn cubins_round_trip_through_the_store() {
        let dir = std::env::temp_dir().join(format!("dwt-cuda-cache-{}", std::process::id()));
        let p = id().entry(&dir, "src");
        assert_eq!(disk_cache::load(&p), None);
        disk_cache::store(&p, b"\x7fELF cubin").unwrap();
        assert_eq!(
            disk_cache::load(&p).as_deref(),
            Some(b"\x7fELF cubin".as_slice())
        );
        std::fs::write(&p, b"\x7fELF cub").unwrap();
        assert_eq!(disk_cache::load(&p), None, "corrupt entries are misses");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
