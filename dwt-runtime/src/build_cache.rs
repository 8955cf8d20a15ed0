//! Executors' cache of built kernels (an OpenCL program, a loaded CUDA module) by source: each
//! is built once however many threads ask at once, other sources build in parallel, and a
//! failure is kept only where trying again would fail the same way.
//!
//! A compile error ([`DwtError::Build`]) or a missing compiler recurs, so it is kept and
//! returned to every later caller without a rebuild. A device's failure ([`DwtError::Device`]:
//! out of memory while loading a module, say) may pass, so it goes to the callers that waited
//! on that build and the next caller builds again.
//!
//! [`build_each`] builds a plan's several kernels at once, each on a thread of its own.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

use crate::DwtError;

type Cell<V> = Arc<OnceLock<Result<V, DwtError>>>;

/// Built values of type `V` by key `K` (the device and the source, say).
pub struct BuildCache<K, V> {
    cells: Mutex<HashMap<K, Cell<V>>>,
}

impl<K, V> Default for BuildCache<K, V> {
    fn default() -> Self {
        BuildCache {
            cells: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Eq + Hash + Clone, V: Clone> BuildCache<K, V> {
    /// The value built for `key`, building it with `build` if no call has (or if the last
    /// build failed on the device). `build` runs outside the map's lock, at most once at a time
    /// per key.
    pub fn get_or_build(
        &self,
        key: K,
        build: impl FnOnce() -> Result<V, DwtError>,
    ) -> Result<V, DwtError> {
        let cell = self.lock().entry(key.clone()).or_default().clone();
        let result = cell.get_or_init(build).clone();
        if let Err(DwtError::Device { .. }) = result {
            // Forgotten only if no later caller already replaced it with a new attempt.
            let mut cells = self.lock();
            if cells.get(&key).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                cells.remove(&key);
            }
        }
        result
    }

    /// How many keys hold a value or a kept failure.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, Cell<V>>> {
        // A panic in another caller's `build` happens outside the lock: nothing to repair.
        self.cells.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `build` run on each of `items` at once, each on a scoped thread of its own (one item on the
/// calling thread), the results in the items' order. For a plan's kernels, each a module or
/// program of its own: a compiler runs one source on one thread, so a plan of two kernels
/// compiled apart at once took 0.37-0.97 of the time of one source holding both (BENCHMARKS.md).
/// A build that panics is a [`DwtError::Device`] of `backend` for its item, not a panic here.
pub fn build_each<S: Sync, V: Send>(
    backend: &str,
    items: &[S],
    build: impl Fn(&S) -> Result<V, DwtError> + Sync,
) -> Vec<Result<V, DwtError>> {
    let panicked = || DwtError::Device {
        backend: backend.to_string(),
        message: "a thread building a kernel panicked".into(),
    };
    if let [one] = items {
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| build(one)));
        return vec![caught.unwrap_or_else(|_| Err(panicked()))];
    }
    let build = &build;
    std::thread::scope(|s| {
        let handles: Vec<_> = (items.iter())
            .map(|item| s.spawn(move || build(item)))
            .collect();
        (handles.into_iter())
            .map(|h| h.join().unwrap_or_else(|_| Err(panicked())))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn device_error() -> DwtError {
        DwtError::Device {
            backend: "test".into(),
            message: "out of memory".into(),
        }
    }

    fn build_error() -> DwtError {
        DwtError::Build {
            backend: "test".into(),
            log: "error: undeclared".into(),
        }
    }

    /// A compile error is kept: the next caller gets it without a rebuild.
    #[test]
    fn a_build_error_is_kept() {
        let cache = BuildCache::<&str, u32>::default();
        let builds = AtomicUsize::new(0);
        let build = || {
            builds.fetch_add(1, Ordering::SeqCst);
            Err(build_error())
        };
        assert_eq!(cache.get_or_build("src", build), Err(build_error()));
        assert_eq!(cache.get_or_build("src", build), Err(build_error()));
        assert_eq!(builds.load(Ordering::SeqCst), 1);
    }

    /// A device's failure is returned once and then built again: a passing shortage of memory
    /// must not block the kernel for the rest of the process.
    #[test]
    fn a_device_failure_is_tried_again() {
        let cache = BuildCache::<&str, u32>::default();
        assert_eq!(
            cache.get_or_build("src", || Err(device_error())),
            Err(device_error())
        );
        assert!(cache.is_empty());
        assert_eq!(cache.get_or_build("src", || Ok(7)), Ok(7));
        assert_eq!(cache.get_or_build("src", || Ok(8)), Ok(7));
        assert_eq!(cache.len(), 1);
    }

    /// Threads asking for one key at once build it once; other keys build beside it.
    #[test]
    fn one_build_per_key_under_contention() {
        let cache = BuildCache::<u32, u32>::default();
        let builds = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for t in 0..16u32 {
                let (cache, builds) = (&cache, &builds);
                s.spawn(move || {
                    let key = t % 2;
                    let got = cache.get_or_build(key, || {
                        builds.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        Ok(key * 10)
                    });
                    assert_eq!(got, Ok(key * 10));
                });
            }
        });
        assert_eq!(builds.load(Ordering::SeqCst), 2);
    }

    /// Every item's build runs at the same time as the others, and each result lands at its
    /// item's place.
    #[test]
    fn build_each_builds_at_once_in_order() {
        let running = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let items = [1u32, 2, 3, 4];
        let got = build_each("test", &items, |&i| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            // Waits (bounded) for the others to start: built one after another, none would.
            let start = std::time::Instant::now();
            while most.load(Ordering::SeqCst) < items.len()
                && start.elapsed() < std::time::Duration::from_secs(10)
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            running.fetch_sub(1, Ordering::SeqCst);
            Ok(i * 10)
        });
        assert_eq!(got, vec![Ok(10), Ok(20), Ok(30), Ok(40)]);
        assert_eq!(most.load(Ordering::SeqCst), items.len());
    }

    /// A build that panics is its item's error; the others still build, and one item alone
    /// (built on the calling thread) is caught too.
    #[test]
    fn build_each_turns_a_panic_into_an_error() {
        let build = |&i: &u32| -> Result<u32, DwtError> {
            if i == 2 {
                panic!("the compiler fell over");
            }
            Ok(i)
        };
        let got = build_each("test", &[1u32, 2, 3], build);
        assert_eq!(got[0], Ok(1));
        assert!(
            matches!(&got[1], Err(DwtError::Device { message, .. }) if message.contains("panicked")),
            "{:?}",
            got[1]
        );
        assert_eq!(got[2], Ok(3));
        assert!(build_each("test", &[2u32], build)[0].is_err());
    }
}
