//! The on-disk kernel cache against what a cache folder can hold besides good entries: special
//! files, folders, unwritable places, odd paths in the environment, concurrent writers. The rule:
//! never a panic or a hang, a bad entry is a miss (the caller rebuilds it), and a cache that
//! cannot be written only loses the cache.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use dwt_emit_c::disk_cache::{self, entry_path, load, store};

/// A fresh folder of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!(
        "dwt-disk-cache-{name}-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `load(path)` on another thread, `None` if it takes longer than a few seconds (the thread is
/// left behind: a blocked read cannot be cancelled).
fn load_within(path: &Path) -> Option<Option<Vec<u8>>> {
    let (tx, rx) = mpsc::channel();
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(load(&path));
    });
    rx.recv_timeout(Duration::from_secs(5)).ok()
}

#[test]
fn a_fifo_in_an_entry_s_place_is_a_miss_not_a_hang() {
    let dir = scratch("fifo");
    let path = entry_path(&dir, "opencl", "k", "bin");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success());
    assert_eq!(
        load_within(&path),
        Some(None),
        "load blocked on a FIFO (it waits for a writer forever)"
    );
    // Storing replaces it with a regular entry.
    store(&path, b"binary").unwrap();
    assert_eq!(load(&path).as_deref(), Some(b"binary".as_slice()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_device_or_an_oversized_file_is_a_miss_without_reading_it() {
    let dir = scratch("special");
    let path = entry_path(&dir, "cuda", "k", "cubin");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // /dev/zero never ends: read whole, it fills memory.
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    assert_eq!(load_within(&path), Some(None));
    std::fs::remove_file(&path).unwrap();
    // A sparse file past the limit: no disk taken, refused by its size.
    let big = std::fs::File::create(&path).unwrap();
    big.set_len(disk_cache::MAX_ENTRY + 1).unwrap();
    assert_eq!(load_within(&path), Some(None));
    // A symbolic link to a good entry is followed.
    let real = dir.join("real.cubin");
    store(&real, b"cubin").unwrap();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&real, &path).unwrap();
    assert_eq!(load(&path).as_deref(), Some(b"cubin".as_slice()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unusable_places_lose_only_the_cache() {
    let dir = scratch("places");
    // A folder where the entry should be: a miss, and the store fails without touching it.
    let path = entry_path(&dir, "opencl", "k", "bin");
    std::fs::create_dir_all(path.join("inside")).unwrap();
    assert_eq!(load(&path), None);
    assert!(store(&path, b"binary").is_err());
    assert!(path.join("inside").is_dir());
    // A file where the backend's folder should be.
    let file = dir.join("file");
    std::fs::write(&file, b"not a folder").unwrap();
    let under_file = entry_path(&file, "opencl", "k", "bin");
    assert_eq!(load(&under_file), None);
    assert!(store(&under_file, b"binary").is_err());
    assert_eq!(std::fs::read(&file).unwrap(), b"not a folder");
    // Missing folders are created.
    let deep = entry_path(&dir.join("a/b/c"), "cuda", "k", "cubin");
    store(&deep, b"cubin").unwrap();
    assert_eq!(load(&deep).as_deref(), Some(b"cubin".as_slice()));
    // A place nobody may write (not even root): /proc.
    let proc_entry = entry_path(Path::new("/proc/self/lifting"), "cuda", "k", "cubin");
    assert_eq!(load(&proc_entry), None);
    assert!(store(&proc_entry, b"cubin").is_err());
    // A read-only folder (root writes anyway: then the entry must be whole).
    let ro = dir.join("ro");
    let ro_entry = entry_path(&ro, "cuda", "k", "cubin");
    std::fs::create_dir_all(ro_entry.parent().unwrap()).unwrap();
    let mut perm = std::fs::metadata(ro_entry.parent().unwrap())
        .unwrap()
        .permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(ro_entry.parent().unwrap(), perm.clone()).unwrap();
    match store(&ro_entry, b"cubin") {
        Ok(()) => assert_eq!(load(&ro_entry).as_deref(), Some(b"cubin".as_slice())),
        Err(_) => assert_eq!(load(&ro_entry), None),
    }
    #[allow(clippy::permissions_set_readonly_false)]
    perm.set_readonly(false);
    std::fs::set_permissions(ro_entry.parent().unwrap(), perm).unwrap();
    // No temporary is left behind by any failure.
    for entry in walk(&dir) {
        let name = entry.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "left behind: {}", entry.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

#[test]
fn a_cache_folder_whose_name_is_not_utf8_is_used() {
    use std::os::unix::ffi::OsStrExt;
    // Checked in a child process: the environment is the whole process's.
    if std::env::var_os("DWT_DISK_CACHE_CHILD").is_some() {
        let got = disk_cache::cache_dir();
        println!("CACHE_DIR={:?}", got);
        return;
    }
    let odd = std::ffi::OsStr::from_bytes(b"/tmp/lifting-\xff-cache");
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "a_cache_folder_whose_name_is_not_utf8_is_used",
            "--exact",
            "--nocapture",
        ])
        .env("DWT_DISK_CACHE_CHILD", "1")
        .env(disk_cache::CACHE_DIR_ENV, odd)
        .env("HOME", "/home/someone")
        .env_remove("XDG_CACHE_HOME")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let expected = format!("CACHE_DIR={:?}", Some(PathBuf::from(odd)));
    assert!(
        stdout.contains(&expected),
        "{expected} (not the default under $HOME) in:\n{stdout}"
    );
}

#[test]
fn concurrent_writers_of_one_entry_leave_a_whole_entry() {
    let dir = scratch("race");
    let path = entry_path(&dir, "opencl", "k", "bin");
    let payloads: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i; 4096 + i as usize]).collect();
    std::thread::scope(|s| {
        for p in &payloads {
            let path = &path;
            s.spawn(move || {
                for _ in 0..50 {
                    store(path, p).unwrap();
                }
            });
        }
        for _ in 0..2 {
            s.spawn(|| {
                for _ in 0..200 {
                    if let Some(got) = load(&path) {
                        assert!(payloads.contains(&got), "a mixed entry was loaded");
                    }
                }
            });
        }
    });
    assert!(payloads.contains(&load(&path).unwrap()));
    let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "temporaries left behind: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sets the last modification time of the file at `path` to `ago` before now.
fn age(path: &Path, ago: Duration) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(std::time::SystemTime::now() - ago)
        .unwrap();
}

#[test]
fn a_killed_writer_s_temporary_is_removed_by_the_next_store() {
    let dir = scratch("stale");
    let path = entry_path(&dir, "opencl", "k", "bin");
    let folder = path.parent().unwrap();
    std::fs::create_dir_all(folder).unwrap();
    let two_hours = Duration::from_secs(2 * 60 * 60);
    // What a process killed between creating its temporary and renaming it leaves, of this
    // entry and of another.
    let stale = folder.join(".k.bin.4000001.0.tmp");
    let stale_other = folder.join(".other.bin.4000002.7.tmp");
    // A writer at work now.
    let fresh = folder.join(".k.bin.4000003.0.tmp");
    // Old files that are not temporaries of the cache.
    let unrelated = folder.join("notes.txt");
    let unrelated_tmp = folder.join(".k.bin.tmp");
    let other_entry = folder.join("other.bin");
    for f in [
        &stale,
        &stale_other,
        &fresh,
        &unrelated,
        &unrelated_tmp,
        &other_entry,
    ] {
        std::fs::write(f, b"partial").unwrap();
    }
    for f in [
        &stale,
        &stale_other,
        &unrelated,
        &unrelated_tmp,
        &other_entry,
    ] {
        age(f, two_hours);
    }
    // A symbolic link named as a temporary, to an old file elsewhere: neither is removed.
    let target = dir.join("target");
    std::fs::write(&target, b"keep me").unwrap();
    age(&target, two_hours);
    let link = folder.join(".link.bin.4000004.0.tmp");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    // The link itself old too (std sets no link's time: touch -h does).
    let aged = Command::new("touch")
        .args(["-h", "-d", "3 hours ago"])
        .arg(&link)
        .status()
        .unwrap();
    assert!(aged.success());
    // An old folder named as a temporary is not removed either.
    let sub = folder.join(".sub.bin.4000005.0.tmp");
    std::fs::create_dir(&sub).unwrap();

    store(&path, b"binary").unwrap();
    assert_eq!(load(&path).as_deref(), Some(b"binary".as_slice()));
    assert!(!stale.exists(), "a stale temporary of this entry was kept");
    assert!(
        !stale_other.exists(),
        "a stale temporary of another entry was kept"
    );
    for kept in [
        &fresh,
        &unrelated,
        &unrelated_tmp,
        &other_entry,
        &target,
        &sub,
    ] {
        assert!(kept.exists(), "{} was removed", kept.display());
    }
    assert!(
        std::fs::symlink_metadata(&link).is_ok(),
        "the link was removed"
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    assert_eq!(std::fs::read(&fresh).unwrap(), b"partial");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_store_is_a_warning_naming_the_entry_and_the_remedy() {
    let dir = scratch("warn");
    // A file where the cache folder should be: no folder can be made below it, even by root.
    let file = dir.join("file");
    std::fs::write(&file, b"not a folder").unwrap();
    let entry = entry_path(&file, "opencl", "k", "bin");
    let warning = disk_cache::store_or_warn(&entry, b"binary", "the kernel will be compiled again")
        .expect("a warning");
    assert!(warning.contains(&entry.display().to_string()), "{warning}");
    assert!(
        warning.contains("the kernel will be compiled again"),
        "{warning}"
    );
    assert!(warning.contains(disk_cache::CACHE_DIR_ENV), "{warning}");
    // The io error itself.
    let error = store(&entry, b"binary").unwrap_err().to_string();
    assert!(warning.contains(&error), "{warning} lacks {error}");
    // A store that works warns of nothing.
    let good = entry_path(&dir, "opencl", "k", "bin");
    assert_eq!(disk_cache::store_or_warn(&good, b"binary", "again"), None);
    assert_eq!(load(&good).as_deref(), Some(b"binary".as_slice()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A killed process of this pid (a container's job gets the same pid every run) left
/// temporaries under the names this process would take: a store passes over them, where it
/// failed with "File exists" for the hour until they were stale.
#[test]
fn temporary_names_a_killed_process_of_this_pid_left_are_passed_over() {
    let dir = scratch("taken");
    let entry = entry_path(&dir, "opencl", "k", "bin");
    let folder = entry.parent().unwrap();
    std::fs::create_dir_all(folder).unwrap();
    let name = entry.file_name().unwrap().to_str().unwrap();
    let taken: Vec<PathBuf> = (0..300)
        .map(|call| folder.join(format!(".{name}.{}.{call}.tmp", std::process::id())))
        .collect();
    for t in &taken {
        std::fs::write(t, b"partial").unwrap();
    }
    store(&entry, b"binary").unwrap();
    assert_eq!(load(&entry).as_deref(), Some(b"binary".as_slice()));
    // Fresh temporaries are not this store's to remove.
    assert!(taken.iter().all(|t| t.exists()));
    let _ = std::fs::remove_dir_all(&dir);
}
