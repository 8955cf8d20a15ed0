//! Executors' per-request memo: what a backend prepared for a request (emitted module, launch
//! plan, built program or loaded functions), kept so that the next call with an equal request
//! only launches. Keyed by everything that changes the kernels or the plan.
//!
//! The lookup is on every call's path (a few microseconds of host time matter for small
//! images): entries are found by a hash of the request's cheap fields (the wavelet's name, not
//! its text) and told apart by comparing the wavelet's structure, so no call formats or hashes
//! the wavelet's program.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

use dwt_ir::{Direction, ElementType, Layout, Wavelet};

use crate::{DwtError, Request};

/// A request kept with its prepared work, or with the preparation under way.
struct Entry<P> {
    wavelet: Wavelet,
    direction: Direction,
    element: ElementType,
    layout: Layout,
    shape: Vec<usize>,
    levels: u32,
    state: State<P>,
}

enum State<P> {
    Ready(Arc<P>),
    /// A thread is preparing: it holds this lock until the entry is `Ready` or gone.
    Preparing(Arc<Flight>),
}

/// Held by the thread preparing an entry; waiters lock it to learn that it has finished.
type Flight = Mutex<()>;

impl<P> Entry<P> {
    fn new(request: &Request, element: ElementType, state: State<P>) -> Self {
        Entry {
            wavelet: request.wavelet.clone(),
            direction: request.direction,
            element,
            layout: request.layout,
            shape: request.shape.clone(),
            levels: request.levels,
            state,
        }
    }

    fn is_for(&self, request: &Request, element: ElementType) -> bool {
        self.element == element
            && self.direction == request.direction
            && self.layout == request.layout
            && self.levels == request.levels
            && self.shape == request.shape
            && lifts_alike(&self.wavelet, request.wavelet)
    }
}

/// Everything of a wavelet that changes its kernels (not its doc comment).
fn lifts_alike(a: &Wavelet, b: &Wavelet) -> bool {
    a.name == b.name
        && a.kind == b.kind
        && a.boundary == b.boundary
        && a.shift == b.shift
        && a.program == b.program
}

/// The bucket of a request: its fields but the wavelet's program.
fn bucket(request: &Request, element: ElementType) -> u64 {
    let mut h = DefaultHasher::new();
    request.wavelet.name.hash(&mut h);
    request.direction.hash(&mut h);
    element.hash(&mut h);
    request.layout.hash(&mut h);
    request.shape.hash(&mut h);
    request.levels.hash(&mut h);
    h.finish()
}

type Buckets<P> = HashMap<u64, Vec<Entry<P>>>;

/// Prepared work per request, shared by clones (a backend and the transforms it prepared).
pub struct PreparedCache<P> {
    map: Arc<Mutex<Buckets<P>>>,
}

impl<P> Default for PreparedCache<P> {
    fn default() -> Self {
        PreparedCache {
            map: Arc::default(),
        }
    }
}

impl<P> Clone for PreparedCache<P> {
    fn clone(&self) -> Self {
        PreparedCache {
            map: self.map.clone(),
        }
    }
}

/// Locks `m` whatever a thread that panicked holding it left: the map is whole between
/// statements, and a flight guards no data.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<P> PreparedCache<P> {
    /// The work kept for `request` on `element`, or `prepare`'s, kept for next time.
    ///
    /// An equal request is prepared once at a time: a thread that misses while another prepares
    /// an equal request waits for it and takes its result (two threads compiling the same
    /// kernels would waste the time, and two timing CUDA's candidates on one GPU at once would
    /// disturb each other's timings). Requests that are not equal prepare concurrently: no lock
    /// is held while preparing but the preparing thread's own, which only waiters of an equal
    /// request take.
    ///
    /// A refusal is not kept, nor handed to the threads that waited for it: each of them then
    /// prepares itself, as a later call would (a failure may be a passing one of the device, and
    /// a `prepare` that panics leaves no error to hand on). A `prepare` that panics leaves no
    /// entry behind and wakes its waiters. `prepare` must not ask this cache for an equal
    /// request: it would wait for itself.
    pub fn get_or_prepare(
        &self,
        request: &Request,
        element: ElementType,
        prepare: impl FnOnce() -> Result<P, DwtError>,
    ) -> Result<Arc<P>, DwtError> {
        let key = bucket(request, element);
        let flight: Arc<Flight>;
        let held;
        loop {
            let mut map = lock(&self.map);
            let found = map
                .get(&key)
                .and_then(|b| b.iter().find(|e| e.is_for(request, element)));
            match found.map(|e| &e.state) {
                Some(State::Ready(p)) => return Ok(p.clone()),
                Some(State::Preparing(f)) => {
                    let f = f.clone();
                    drop(map);
                    // Given once the preparing thread has made the entry `Ready` or removed it;
                    // poisoned where its `prepare` panicked, which is finished all the same.
                    drop(f.lock());
                }
                None => {
                    // Taken before the entry shows, so that no waiter finds it free too early.
                    flight = Arc::default();
                    held = lock(&flight);
                    let preparing = State::Preparing(flight.clone());
                    let entry = Entry::new(request, element, preparing);
                    map.entry(key).or_default().push(entry);
                    break;
                }
            }
        }
        let mut preparing = Preparing {
            map: &self.map,
            key,
            flight: &flight,
            prepared: None,
            _held: held,
        };
        let prepared = Arc::new(prepare()?);
        preparing.prepared = Some(prepared.clone());
        Ok(prepared)
    }
}

/// A preparation under way. Dropped, whether `prepare` gave work, a refusal or a panic, it
/// makes its entry `Ready` with the work or removes it, and then (its fields drop after
/// `drop`) releases its flight to the waiters, who look again.
struct Preparing<'a, P> {
    map: &'a Mutex<Buckets<P>>,
    key: u64,
    flight: &'a Flight,
    prepared: Option<Arc<P>>,
    _held: MutexGuard<'a, ()>,
}

impl<P> Drop for Preparing<'_, P> {
    fn drop(&mut self) {
        let mut map = lock(self.map);
        let Some(entries) = map.get_mut(&self.key) else {
            return;
        };
        let mine = entries.iter().position(|e| match &e.state {
            State::Preparing(f) => std::ptr::eq(Arc::as_ptr(f), self.flight),
            State::Ready(_) => false,
        });
        let Some(at) = mine else {
            return;
        };
        match self.prepared.take() {
            Some(p) => entries[at].state = State::Ready(p),
            None => {
                entries.swap_remove(at);
                if entries.is_empty() {
                    map.remove(&self.key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{mpsc, Barrier};
    use std::time::Duration;

    #[test]
    fn equal_requests_share_one_preparation_and_refusals_are_not_kept() {
        let w = dwt_catalogue::by_name("LeGall53").unwrap();
        let request = |levels| Request {
            wavelet: w,
            direction: Direction::Forward,
            shape: vec![8, 8],
            levels,
            layout: Layout::Mallat,
        };
        let cache = PreparedCache::<u32>::default();
        let mut calls = 0;
        let mut prepare = |v| {
            calls += 1;
            Ok(v)
        };
        assert_eq!(
            *cache
                .get_or_prepare(&request(1), ElementType::I32, || prepare(1))
                .unwrap(),
            1
        );
        assert_eq!(
            *cache
                .get_or_prepare(&request(1), ElementType::I32, || prepare(9))
                .unwrap(),
            1
        );
        assert_eq!(
            *cache
                .get_or_prepare(&request(2), ElementType::I32, || prepare(2))
                .unwrap(),
            2
        );
        assert_eq!(
            *cache
                .clone()
                .get_or_prepare(&request(1), ElementType::I16, || prepare(3))
                .unwrap(),
            3
        );
        assert_eq!(calls, 3);
        let refused = cache.get_or_prepare(&request(3), ElementType::I32, || {
            Err(DwtError::Unsupported {
                backend: "test".into(),
                what: "no".into(),
            })
        });
        assert!(refused.is_err());
        assert_eq!(
            *cache
                .get_or_prepare(&request(3), ElementType::I32, || Ok(4))
                .unwrap(),
            4
        );
    }

    #[test]
    fn wavelets_of_one_name_that_lift_differently_are_kept_apart() {
        let legall = dwt_catalogue::by_name("LeGall53").unwrap();
        let mut other = legall.clone();
        other.boundary = dwt_ir::Boundary::Symmetric;
        let mut documented = legall.clone();
        documented.doc.push("another comment".into());
        let request = |wavelet| Request {
            wavelet,
            direction: Direction::Forward,
            shape: vec![8, 8],
            levels: 1,
            layout: Layout::Mallat,
        };
        let cache = PreparedCache::<u32>::default();
        let get = |w, v| {
            *cache
                .get_or_prepare(&request(w), ElementType::I32, || Ok(v))
                .unwrap()
        };
        assert_eq!(get(legall, 1), 1);
        assert_eq!(get(&other, 2), 2, "another boundary is another preparation");
        assert_eq!(get(legall, 3), 1);
        assert_eq!(get(&other, 4), 2);
        assert_eq!(get(&documented, 5), 1, "a doc comment changes no kernel");
    }

    /// How long a thread that should finish, or meet another, may take before the test fails
    /// (instead of hanging).
    const PATIENCE: Duration = Duration::from_secs(10);

    fn legall(levels: u32) -> Request<'static> {
        Request {
            wavelet: dwt_catalogue::by_name("LeGall53").unwrap(),
            direction: Direction::Forward,
            shape: vec![8, 8],
            levels,
            layout: Layout::Mallat,
        }
    }

    /// A thread whose result is waited for at most `PATIENCE`.
    struct Running<T> {
        finished: mpsc::Receiver<()>,
        thread: std::thread::JoinHandle<T>,
    }

    impl<T: Send + 'static> Running<T> {
        fn spawn(f: impl FnOnce() -> T + Send + 'static) -> Self {
            let (done, finished) = mpsc::channel();
            let thread = std::thread::spawn(move || {
                let t = f();
                let _ = done.send(());
                t
            });
            Running { finished, thread }
        }

        fn join(self) -> T {
            // Disconnected without a message: `f` panicked, which `join` hands on.
            if let Err(mpsc::RecvTimeoutError::Timeout) = self.finished.recv_timeout(PATIENCE) {
                panic!("a thread still runs after {PATIENCE:?}: blocked");
            }
            self.thread
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        }
    }

    #[test]
    fn threads_missing_an_equal_request_at_once_prepare_it_once() {
        let cache = PreparedCache::<usize>::default();
        let calls = Arc::new(AtomicUsize::new(0));
        let start = Arc::new(Barrier::new(8));
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let (cache, calls, start) = (cache.clone(), calls.clone(), start.clone());
                Running::spawn(move || {
                    start.wait();
                    cache.get_or_prepare(&legall(1), ElementType::I32, || {
                        calls.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(50));
                        Ok(i)
                    })
                })
            })
            .collect();
        let got: Vec<Arc<usize>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(calls.load(Ordering::SeqCst), 1, "one preparation");
        assert!(got.iter().all(|p| Arc::ptr_eq(p, &got[0])), "one result");
    }

    /// Whether `a` and `b`, prepared on two threads at once, each met the other while
    /// preparing (a preparation waits for the other's at most half of `PATIENCE`).
    fn prepared_together(a: Request<'static>, b: Request<'static>) -> (bool, bool) {
        let cache = PreparedCache::<bool>::default();
        let (a_came, a_sees) = mpsc::channel();
        let (b_came, b_sees) = mpsc::channel();
        let prepare =
            |request: Request<'static>, came: mpsc::Sender<()>, sees: mpsc::Receiver<()>| {
                let cache = cache.clone();
                Running::spawn(move || {
                    cache.get_or_prepare(&request, ElementType::I32, || {
                        came.send(()).unwrap();
                        Ok(sees.recv_timeout(PATIENCE / 2).is_ok())
                    })
                })
            };
        let a = prepare(a, a_came, b_sees);
        let b = prepare(b, b_came, a_sees);
        (*a.join().unwrap(), *b.join().unwrap())
    }

    #[test]
    fn requests_that_differ_prepare_at_once() {
        assert_eq!(prepared_together(legall(1), legall(2)), (true, true));
        let mut other = legall(1).wavelet.clone();
        other.boundary = dwt_ir::Boundary::Symmetric;
        let other = Request {
            wavelet: Box::leak(Box::new(other)),
            ..legall(1)
        };
        assert_eq!(
            prepared_together(legall(1), other),
            (true, true),
            "one bucket, two requests"
        );
    }

    /// The outcome of a preparation that `fail`s, alone and then while another thread waits
    /// for it; checks that neither the failure nor the waiter is left behind.
    fn after_failures(fail: fn() -> Result<u32, DwtError>) -> Vec<std::thread::Result<bool>> {
        let cache = PreparedCache::<u32>::default();
        let failing =
            |request: Request<'static>, started: mpsc::Sender<()>, go: mpsc::Receiver<()>| {
                let cache = cache.clone();
                Running::spawn(move || {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let got = cache.get_or_prepare(&request, ElementType::I32, || {
                            started.send(()).unwrap();
                            go.recv_timeout(PATIENCE).unwrap();
                            fail()
                        });
                        got.is_err()
                    }))
                })
            };

        // Alone: a later call prepares.
        let (started, _not_waited_for) = mpsc::channel();
        let (go, gone) = mpsc::channel();
        go.send(()).unwrap();
        let alone = failing(legall(1), started, gone).join();
        let later = {
            let cache = cache.clone();
            Running::spawn(move || {
                *cache
                    .get_or_prepare(&legall(1), ElementType::I32, || Ok(1))
                    .unwrap()
            })
        };
        assert_eq!(later.join(), 1, "the failure was not kept");

        // Waited for: the waiter prepares, after the failure.
        let (started, has_started) = mpsc::channel();
        let (go, gone) = mpsc::channel();
        let first = failing(legall(2), started, gone);
        has_started.recv_timeout(PATIENCE).unwrap();
        let failed = Arc::new(AtomicBool::new(false));
        let waiter = {
            let (cache, failed) = (cache.clone(), failed.clone());
            Running::spawn(move || {
                let got = cache.get_or_prepare(&legall(2), ElementType::I32, || {
                    Ok(if failed.load(Ordering::SeqCst) { 2 } else { 0 })
                });
                *got.unwrap()
            })
        };
        // Time for the waiter to find the preparation under way and wait.
        std::thread::sleep(Duration::from_millis(50));
        failed.store(true, Ordering::SeqCst);
        go.send(()).unwrap();
        let waited = first.join();
        assert_eq!(waiter.join(), 2, "the waiter prepared after the failure");
        let kept = cache.get_or_prepare(&legall(2), ElementType::I32, || Ok(3));
        assert_eq!(*kept.unwrap(), 2, "the waiter's work was kept");
        vec![alone, waited]
    }

    #[test]
    fn a_refusal_wakes_its_waiters_and_is_not_kept() {
        let outcomes = after_failures(|| {
            Err(DwtError::Unsupported {
                backend: "test".into(),
                what: "no".into(),
            })
        });
        assert!(outcomes.iter().all(|o| matches!(o, Ok(true))), "refused");
    }

    #[test]
    fn a_panicking_preparation_wakes_its_waiters_and_is_not_kept() {
        let outcomes = after_failures(|| panic!("a preparation that panics"));
        assert!(outcomes.iter().all(|o| o.is_err()), "panicked");
    }
}
