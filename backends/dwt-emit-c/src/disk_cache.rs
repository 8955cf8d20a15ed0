//! The on-disk cache of compiled kernels the executors share (OpenCL program binaries, CUDA
//! cubins), so a new process skips the compiler.
//!
//! - An entry is keyed by a stable hash (SHA-256) of the generated source, the device's name, the
//!   driver's version and anything else that changes the binary (the compiler options), each part
//!   length-prefixed so no two different part lists collide: [`key`].
//! - Entries live in `$DWT_CACHE_DIR`, else `$XDG_CACHE_HOME/lifting`, else `~/.cache/lifting`
//!   ([`cache_dir`]), one folder per backend, one file per key.
//! - A file holds a magic line, the SHA-256 of the payload and the payload: a truncated, corrupt
//!   or unreadable entry reads as a miss ([`load`] returns `None`), and the caller rebuilds and
//!   overwrites it. So does anything but a regular file of at most [`MAX_ENTRY`] bytes in an
//!   entry's place (a FIFO would block the read forever, `/dev/zero` fill memory).
//! - A cache that cannot be written never fails a build, but it is not silent either: [`store`]
//!   returns the error, and [`store_or_warn`] turns it into the warning the backends put in their
//!   prepare report (`PrepareReport::cache_warnings`), which names the entry, the error and the
//!   remedy (every process compiles again until `$DWT_CACHE_DIR` names a writable folder).
//! - Writes are atomic: a temporary file of its own in the same folder (unique per process and
//!   call, created exclusively), then a rename over the entry. A process killed between the two
//!   leaves its temporary behind: every store first removes the folder's temporaries older than
//!   [`STALE_TEMPORARY`] (only regular files named as this module names its temporaries; a live
//!   writer holds one for milliseconds).

use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

/// The environment variable naming the cache folder.
pub const CACHE_DIR_ENV: &str = "DWT_CACHE_DIR";

const MAGIC: &[u8; 16] = b"lifting-kernel1\n";

/// The largest entry [`load`] reads (a CUBIN or program binary is a few MiB at most).
pub const MAX_ENTRY: u64 = 256 << 20;

/// The cache folder given the environment (`get` reads a variable): `$DWT_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/lifting`, else `$HOME/.cache/lifting`; `None` when none is set. Empty values
/// count as unset, and so does a relative `XDG_CACHE_HOME` (the XDG specification says to ignore
/// it). Values are paths, not text: a folder whose name is not UTF-8 is used as given.
pub fn cache_dir_from(get: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let var = |name: &str| get(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(d) = var(CACHE_DIR_ENV) {
        return Some(d);
    }
    if let Some(d) = var("XDG_CACHE_HOME").filter(|d| d.is_absolute()) {
        return Some(d.join("lifting"));
    }
    var("HOME").map(|h| h.join(".cache").join("lifting"))
}

/// The cache folder of this process's environment (see [`cache_dir_from`]).
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_from(|name| std::env::var_os(name))
}

/// The hex SHA-256 of `parts` (e.g. the source, the device name, the driver version, the
/// compiler options), each length-prefixed.
pub fn key(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The file of `key` for `backend` under `dir`: `dir/backend/key.ext`.
pub fn entry_path(dir: &Path, backend: &str, key: &str, ext: &str) -> PathBuf {
    dir.join(backend).join(format!("{key}.{ext}"))
}

/// The payload of the entry at `path`, or `None` when it is missing, unreadable, corrupt, or not
/// a regular file of at most [`MAX_ENTRY`] bytes.
pub fn load(path: &Path) -> Option<Vec<u8>> {
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    let regular = |m: fs::Metadata| m.is_file() && m.len() <= MAX_ENTRY;
    if !regular(fs::metadata(path).ok()?) {
        return None;
    }
    let file = fs::File::open(path).ok()?;
    // Again on what was opened, in case the path changed in between.
    if !regular(file.metadata().ok()?) {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_ENTRY + 1).read_to_end(&mut bytes).ok()?;
    decode(&bytes)
}

fn decode(bytes: &[u8]) -> Option<Vec<u8>> {
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    if rest.len() < 32 {
        return None;
    }
    let (sum, payload) = rest.split_at(32);
    (Sha256::digest(payload).as_slice() == sum && !payload.is_empty()).then(|| payload.to_vec())
}

fn encode(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 32 + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&Sha256::digest(payload));
    out.extend_from_slice(payload);
    out
}

/// How many taken temporary names [`store`] passes over before it gives up.
const TEMPORARY_TRIES: u32 = 1000;

/// How old a temporary of [`store`] must be before another store removes it as the leftover of a
/// killed process (a live writer renames its own within milliseconds).
pub const STALE_TEMPORARY: Duration = Duration::from_secs(60 * 60);

/// Writes `payload` as the entry at `path` atomically (a temporary file, then a rename), creating
/// the folder, after removing its stale temporaries ([`STALE_TEMPORARY`]). Failures are returned
/// for the caller to report ([`store_or_warn`]); the cache is best effort, never a reason to fail
/// a build.
pub fn store(path: &Path, payload: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    // First, so that a full disk gets the leftovers' space back before this write.
    remove_stale_temporaries(dir, SystemTime::now());
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("entry");
    // Two threads storing one entry at once (two preparations of one request) must not share a
    // temporary: the pid tells processes apart, the counter calls within one. create_new makes
    // a clash fail instead of two writers sharing a file (processes of one pid in two PID
    // namespaces sharing the folder, a leftover of a crashed process).
    // A name taken (a killed process of this pid left it, as a container's job that gets the
    // same pid every run does) moves on to the next.
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut tries = 0;
    let (tmp, mut file) = loop {
        let call = CALLS.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{call}.tmp", std::process::id()));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => break (tmp, file),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < TEMPORARY_TRIES => {
                tries += 1
            }
            // Before the clean-up below: a file this call did not create is not its to remove.
            Err(e) => return Err(e),
        }
    };
    let result = (|| {
        file.write_all(&encode(payload))?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// [`store`], its failure as a warning for a prepare report: which entry could not be written,
/// the error, and what follows from it: `then` (e.g. "the kernel will be compiled again") in
/// every new process until the cache is writable.
pub fn store_or_warn(path: &Path, payload: &[u8], then: &str) -> Option<String> {
    let e = store(path, payload).err()?;
    // ENOSPC and EDQUOT (Linux): the folder is writable, its disk or quota full.
    let remedy = match e.raw_os_error() {
        Some(28 | 122) => format!("free space there, or set {CACHE_DIR_ENV} to another disk"),
        _ => format!("set {CACHE_DIR_ENV} to a writable folder"),
    };
    Some(format!(
        "the disk cache could not write {}: {e}; {then} in every new process until it can \
         ({remedy})",
        path.display()
    ))
}

/// Whether `name` is one of [`store`]'s temporaries: `.{entry}.{pid}.{call}.tmp`.
fn is_temporary(name: &str) -> bool {
    let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    let mut parts = inner.rsplitn(3, '.');
    let digits =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_some_and(|e| !e.is_empty())
}

/// Removes the temporaries of [`store`] in `dir` last modified at least [`STALE_TEMPORARY`]
/// before `now`: regular files only (a symbolic link is neither followed nor removed), nothing
/// whose name is not a temporary's. Errors are ignored (a leftover stays until a later store).
fn remove_stale_temporaries(dir: &Path, now: SystemTime) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_str().is_some_and(is_temporary) {
            continue;
        }
        let path = entry.path();
        // symlink_metadata: of the link itself, never its target.
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let stale = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age >= STALE_TEMPORARY);
        if meta.is_file() && stale {
            let _ = fs::remove_file(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn dir_precedence() {
        let all = [
            ("DWT_CACHE_DIR", "/d"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ];
        assert_eq!(cache_dir_from(env(&all)), Some(PathBuf::from("/d")));
        assert_eq!(
            cache_dir_from(env(&all[1..])),
            Some(PathBuf::from("/x/lifting"))
        );
        assert_eq!(
            cache_dir_from(env(&[("DWT_CACHE_DIR", ""), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/lifting"))
        );
        assert_eq!(cache_dir_from(env(&[])), None);
        // A relative XDG_CACHE_HOME is invalid (XDG Base Directory specification): it would put
        // the cache under whatever folder the process runs in.
        assert_eq!(
            cache_dir_from(env(&[("XDG_CACHE_HOME", "rel"), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/lifting"))
        );
    }

    #[test]
    fn key_is_stable_and_separates_parts() {
        // A fixed value: the key must not change between builds, processes or Rust versions.
        assert_eq!(
            key(&[b"src", b"dev"]),
            key(&[b"src".as_slice(), b"dev".as_slice()])
        );
        assert_eq!(key(&[]), hex(&Sha256::digest([])));
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_eq!(key(&[b"x"]).len(), 64);
        assert_eq!(
            entry_path(Path::new("/c"), "cuda", "ab", "cubin"),
            PathBuf::from("/c/cuda/ab.cubin")
        );
    }

    #[test]
    fn round_trip_and_corruption() {
        let dir = std::env::temp_dir().join(format!("dwt-disk-cache-{}", std::process::id()));
        let path = entry_path(&dir, "test", "k", "bin");
        assert_eq!(load(&path), None);
        store(&path, b"binary").unwrap();
        assert_eq!(load(&path).as_deref(), Some(b"binary".as_slice()));
        // Truncated, flipped, or foreign files are misses.
        let good = fs::read(&path).unwrap();
        fs::write(&path, &good[..good.len() - 1]).unwrap();
        assert_eq!(load(&path), None);
        let mut bad = good.clone();
        *bad.last_mut().unwrap() ^= 1;
        fs::write(&path, &bad).unwrap();
        assert_eq!(load(&path), None);
        fs::write(&path, b"garbage").unwrap();
        assert_eq!(load(&path), None);
        // Overwriting repairs it.
        store(&path, b"again").unwrap();
        assert_eq!(load(&path).as_deref(), Some(b"again".as_slice()));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn temporary_names() {
        for t in [
            ".k.bin.12.0.tmp",
            ".ab.cubin.4294967295.18.tmp",
            ".entry.1.2.tmp",
        ] {
            assert!(is_temporary(t), "{t}");
        }
        for other in [
            "k.bin",
            "k.bin.12.0.tmp",
            ".k.bin.tmp",
            ".k.bin.12.tmp",
            "..12.0.tmp",
            ".k.bin.12.x.tmp",
            ".k.bin.-1.0.tmp",
            ".k.bin.12..tmp",
            ".k.bin.12.0.tmp~",
            ".k.bin.12.0.TMP",
        ] {
            assert!(!is_temporary(other), "{other}");
        }
    }
}
