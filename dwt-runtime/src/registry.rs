//! The backend registry: which backends exist in this program, on which devices, and which one a
//! run uses.
//!
//! [`Registry::with_builtins`] knows the CPU reference. Whoever links another backend registers it:
//! the facade or the `dwt` command line registers `opencl` when its feature is on, a user crate its
//! own [`Backend`]. A backend is registered either ready-made ([`Registry::register`]) or as a
//! constructor that may fail, for example when the machine has no device
//! ([`Registry::register_with`]); the constructor runs at most once, on first use, and a failure is
//! recorded, never a panic.
//!
//! Selection ([`Registry::select`]) takes a name, or `auto`: the first available of
//! [`AUTO_ORDER`] (`cuda`, then `opencl`, then `cpu`). [`Registry::select_from_env`] reads the
//! choice from `DWT_BACKEND` (default `auto`). Every selection comes with a one-line notice of what
//! was chosen and why anything else was skipped.
//!
//! ```
//! use dwt_runtime::{Registry, CpuBackend};
//!
//! let registry = Registry::with_builtins();
//! let chosen = registry.select("auto").unwrap();
//! assert_eq!(chosen.backend.name(), "cpu");
//! assert!(chosen.notice.starts_with("auto: chose cpu"));
//! assert!(registry.select("nope").unwrap_err().to_string().contains("available: cpu"));
//! ```

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::{Backend, CpuBackend, DwtError};

/// The environment variable [`Registry::select_from_env`] reads.
pub const BACKEND_ENV: &str = "DWT_BACKEND";

/// The order `auto` tries backends in, fastest first. Backends registered under other names are
/// only chosen by name (see [`Registry::set_auto_order`]).
pub const AUTO_ORDER: [&str; 3] = ["cuda", "opencl", "cpu"];

/// A constructor of a backend that may fail (no device, no driver).
pub type Constructor = Box<dyn Fn() -> Result<Box<dyn Backend>, DwtError> + Send + Sync>;

struct Entry {
    name: String,
    constructor: Option<Constructor>,
    built: OnceLock<Result<Arc<dyn Backend>, String>>,
}

/// Why `name` cannot name a backend, if it cannot: selection trims the choice and takes `auto`
/// and the empty string for automatic selection, so such a backend could never be chosen.
fn unusable_name(name: &str) -> Option<String> {
    if name.trim().is_empty() {
        Some("a backend needs a name: the empty name selects none".into())
    } else if name.trim().eq_ignore_ascii_case("auto") {
        Some(format!("`{name}` selects automatically and cannot name a backend; register it under another name"))
    } else if name != name.trim() {
        Some(format!(
            "`{name}` begins or ends with white space, which selection trims; register it as `{}`",
            name.trim()
        ))
    } else {
        None
    }
}

impl Entry {
    /// An entry that can never be built, saying why.
    fn failed(name: String, reason: String) -> Self {
        let built = OnceLock::new();
        let _ = built.set(Err(reason));
        Entry {
            name,
            constructor: None,
            built,
        }
    }

    fn get(&self) -> Result<Arc<dyn Backend>, String> {
        self.built
            .get_or_init(|| {
                let make = self
                    .constructor
                    .as_ref()
                    .expect("entries without a constructor are built at registration");
                // A constructor that panics is reported like one that fails.
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(make)) {
                    Ok(Ok(b)) => Ok(Arc::from(b)),
                    Ok(Err(e)) => Err(unavailable_reason(e)),
                    Err(p) => Err(format!("its constructor panicked: {}", panic_message(&*p))),
                }
            })
            .clone()
    }
}

/// What a caught panic said.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

/// The reason inside an `Unavailable` error, or the whole message of any other.
fn unavailable_reason(e: DwtError) -> String {
    match e {
        DwtError::Unavailable { reason, .. } => reason,
        other => other.to_string(),
    }
}

/// One registered backend as [`Registry::list`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendInfo {
    pub name: String,
    /// The device in words, or why the backend is not available.
    pub device: Result<String, String>,
}

impl fmt::Display for BackendInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.device {
            Ok(d) => write!(f, "{}: {d}", self.name),
            Err(r) => write!(f, "{}: unavailable ({r})", self.name),
        }
    }
}

/// The outcome of a selection: the backend, and a one-line notice saying what was chosen and why
/// anything was skipped, e.g. `auto: chose opencl (Portable Computing Language / pthread-...);
/// skipped cuda: not registered`.
#[derive(Clone)]
pub struct Selection {
    pub backend: Arc<dyn Backend>,
    pub notice: String,
}

impl fmt::Debug for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selection")
            .field("backend", &self.backend.name())
            .field("notice", &self.notice)
            .finish()
    }
}

/// The backends this program can run on.
pub struct Registry {
    entries: Vec<Entry>,
    auto_order: Vec<String>,
}

impl Default for Registry {
    fn default() -> Self {
        Self::with_builtins()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("backends", &self.names())
            .field("auto_order", &self.auto_order)
            .finish()
    }
}

impl Registry {
    /// A registry with no backend at all.
    pub fn empty() -> Self {
        Registry {
            entries: Vec::new(),
            auto_order: AUTO_ORDER.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A registry with the backends this crate always has: `cpu`, the exact reference.
    pub fn with_builtins() -> Self {
        let mut r = Self::empty();
        r.register(Box::new(CpuBackend));
        r
    }

    /// Registers a ready backend under its own [`Backend::name`], replacing one of the same name
    /// (names are case-insensitive, as selection is). A name selection could never choose (empty,
    /// `auto`, or with white space at either end) is recorded as an unavailable backend saying so
    /// ([`Registry::list`], and selecting it), never a panic.
    pub fn register(&mut self, backend: Box<dyn Backend>) -> &mut Self {
        let name = backend.name().to_string();
        if let Some(why) = unusable_name(&name) {
            return self.insert(Entry::failed(name, why));
        }
        let built = OnceLock::new();
        let _ = built.set(Ok(Arc::from(backend)));
        self.insert(Entry {
            name,
            constructor: None,
            built,
        })
    }

    /// Registers a backend by a constructor that may fail (no device): it runs at most once, the
    /// first time the backend is listed or selected. A failure makes `auto` skip the backend and
    /// selecting it by name an [`DwtError::Unavailable`] error carrying the reason. Names are as
    /// for [`Registry::register`].
    pub fn register_with(
        &mut self,
        name: &str,
        constructor: impl Fn() -> Result<Box<dyn Backend>, DwtError> + Send + Sync + 'static,
    ) -> &mut Self {
        if let Some(why) = unusable_name(name) {
            return self.insert(Entry::failed(name.to_string(), why));
        }
        self.insert(Entry {
            name: name.to_string(),
            constructor: Some(Box::new(constructor)),
            built: OnceLock::new(),
        })
    }

    fn insert(&mut self, entry: Entry) -> &mut Self {
        // Case-insensitively, as `get` finds them: `CPU` beside `cpu` could never be selected.
        match self
            .entries
            .iter_mut()
            .find(|e| e.name.eq_ignore_ascii_case(&entry.name))
        {
            Some(old) => *old = entry,
            None => self.entries.push(entry),
        }
        self
    }

    /// Which names `auto` tries, in order (default [`AUTO_ORDER`]).
    pub fn set_auto_order(&mut self, order: &[&str]) -> &mut Self {
        // Trimmed, as every name is found.
        self.auto_order = order.iter().map(|s| s.trim().to_string()).collect();
        self
    }

    pub fn auto_order(&self) -> Vec<&str> {
        self.auto_order.iter().map(String::as_str).collect()
    }

    /// Registered names, in registration order.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// Whether a backend is registered as `name` (case-insensitive).
    pub fn contains(&self, name: &str) -> bool {
        self.entries
            .iter()
            .any(|e| e.name.eq_ignore_ascii_case(name))
    }

    /// Every registered backend with its device, or why it is unavailable (this constructs the
    /// backends registered by constructor).
    pub fn list(&self) -> Vec<BackendInfo> {
        self.entries
            .iter()
            .map(|e| BackendInfo {
                name: e.name.clone(),
                device: e.get().map(|b| b.device()),
            })
            .collect()
    }

    /// The backend registered as `name` (case-insensitive, white space around it trimmed as
    /// [`select`](Self::select) does); `auto` names none.
    pub fn get(&self, name: &str) -> Result<Arc<dyn Backend>, DwtError> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("auto") {
            return Err(DwtError::UnknownBackend {
                name: name.to_string(),
                from: " (`auto` is how `select` picks a backend, not one)".into(),
                available: self.available_text(false),
            });
        }
        let entry = self
            .entries
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| self.unknown(name))?;
        entry.get().map_err(|reason| DwtError::Unavailable {
            backend: entry.name.clone(),
            reason,
        })
    }

    fn unknown(&self, name: &str) -> DwtError {
        DwtError::UnknownBackend {
            name: name.to_string(),
            from: String::new(),
            available: self.available_text(true),
        }
    }

    /// The names an error offers, `auto` among them where `with_auto` (what `select` takes).
    fn available_text(&self, with_auto: bool) -> String {
        if self.entries.is_empty() {
            // `auto` would choose nothing either.
            return "none, the registry is empty (`Registry::with_builtins()` has the CPU reference)"
                .into();
        }
        let mut names = self.names();
        if with_auto {
            names.push("auto");
        }
        names.join(", ")
    }

    /// Selects by name, or `auto`: the first available of the auto order. An empty name is
    /// refused ([`DwtError::EmptyBackendName`]): it is most often a setting that was never
    /// filled in, not a choice ([`choose`](Self::choose) reads an empty `DWT_BACKEND` as unset).
    pub fn select(&self, choice: &str) -> Result<Selection, DwtError> {
        let choice = choice.trim();
        if choice.is_empty() {
            return Err(DwtError::EmptyBackendName {
                available: self.available_text(true),
            });
        }
        if choice.eq_ignore_ascii_case("auto") {
            return self.select_auto("auto");
        }
        let backend = self.get(choice)?;
        let notice = format!("chose {} ({}) by name", backend.name(), backend.device());
        Ok(Selection { backend, notice })
    }

    /// Selects by the `DWT_BACKEND` environment variable, `auto` when it is unset or empty.
    pub fn select_from_env(&self) -> Result<Selection, DwtError> {
        self.choose(None, std::env::var(BACKEND_ENV).ok().as_deref())
    }

    /// Selects by an explicit choice if there is one (a command-line flag), else by the value of
    /// `DWT_BACKEND` if set and non-empty, else `auto`. The notice says where the choice came from.
    pub fn choose(&self, explicit: Option<&str>, env: Option<&str>) -> Result<Selection, DwtError> {
        let env = env.map(str::trim).filter(|v| !v.is_empty());
        match (explicit, env) {
            (Some(c), _) => self.select(c),
            (None, Some(v)) if v.eq_ignore_ascii_case("auto") => {
                self.select_auto(&format!("{BACKEND_ENV}=auto"))
            }
            (None, Some(v)) => {
                let mut s = self.select(v).map_err(|e| match e {
                    DwtError::UnknownBackend {
                        name, available, ..
                    } => DwtError::UnknownBackend {
                        name,
                        from: format!(" (from {BACKEND_ENV})"),
                        available,
                    },
                    other => other,
                })?;
                s.notice = format!(
                    "{BACKEND_ENV}={v}: chose {} ({})",
                    s.backend.name(),
                    s.backend.device()
                );
                Ok(s)
            }
            (None, None) => self.select_auto("auto"),
        }
    }

    fn select_auto(&self, label: &str) -> Result<Selection, DwtError> {
        // Else the error said only "no backend is available ()".
        if self.auto_order.is_empty() {
            return Err(DwtError::NoBackend {
                tried: format!(
                    "the auto order is empty, so `{label}` tries nothing; select a backend by name, or give `Registry::set_auto_order` some names (e.g. {AUTO_ORDER:?})"
                ),
            });
        }
        let mut skipped = Vec::new();
        for name in &self.auto_order {
            match self
                .entries
                .iter()
                .find(|e| e.name.eq_ignore_ascii_case(name))
            {
                None => skipped.push(format!("{name}: not registered")),
                Some(e) => match e.get() {
                    Ok(backend) => {
                        let mut notice =
                            format!("{label}: chose {} ({})", backend.name(), backend.device());
                        if !skipped.is_empty() {
                            notice.push_str("; skipped ");
                            notice.push_str(&skipped.join(", "));
                        }
                        return Ok(Selection { backend, notice });
                    }
                    Err(reason) => skipped.push(format!("{name}: {reason}")),
                },
            }
        }
        Err(DwtError::NoBackend {
            tried: skipped.join("; "),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::{Request, Samples};

    struct Fake(&'static str);

    impl Backend for Fake {
        fn name(&self) -> &str {
            self.0
        }
        fn device(&self) -> String {
            format!("fake device of {}", self.0)
        }
        fn run(&self, r: &Request, data: Samples) -> Result<(), DwtError> {
            CpuBackend.run(r, data)
        }
    }

    fn no_device() -> Result<Box<dyn Backend>, DwtError> {
        Err(DwtError::Unavailable {
            backend: "opencl".into(),
            reason: "no OpenCL platform found".into(),
        })
    }

    #[test]
    fn builtins_have_cpu_and_auto_chooses_it() {
        let r = Registry::with_builtins();
        assert_eq!(r.names(), ["cpu"]);
        let s = r.select("auto").unwrap();
        assert_eq!(s.backend.name(), "cpu");
        assert_eq!(
            s.notice,
            "auto: chose cpu (host CPU (reference interpreter)); skipped cuda: not registered, opencl: not registered"
        );
        assert_eq!(
            r.list()[0].to_string(),
            "cpu: host CPU (reference interpreter)"
        );
    }

    /// Probe: `set_auto_order(&[])` then `select("auto")` said "no backend is available ()".
    #[test]
    fn an_empty_auto_order_says_so() {
        let mut r = Registry::with_builtins();
        r.set_auto_order(&[]);
        let e = r.select("auto").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no backend is available (the auto order is empty, so `auto` tries nothing; select a backend by name, or give `Registry::set_auto_order` some names (e.g. [\"cuda\", \"opencl\", \"cpu\"]))"
        );
        assert_eq!(r.select("cpu").unwrap().backend.name(), "cpu");
    }

    #[test]
    fn get_trims_and_auto_is_no_backend() {
        let mut r = Registry::with_builtins();
        assert_eq!(r.get(" cpu ").unwrap().name(), "cpu");
        let e = r.get("auto").err().unwrap();
        assert_eq!(
            e.to_string(),
            "unknown backend `auto` (`auto` is how `select` picks a backend, not one); available: cpu"
        );
        r.register(Box::new(Fake("opencl")));
        r.set_auto_order(&[" opencl ", "cpu"]);
        assert_eq!(r.auto_order(), ["opencl", "cpu"]);
        assert_eq!(r.select("auto").unwrap().backend.name(), "opencl");
    }

    #[test]
    fn auto_prefers_cuda_then_opencl() {
        let mut r = Registry::with_builtins();
        r.register(Box::new(Fake("opencl")));
        let s = r.select("auto").unwrap();
        assert_eq!(s.backend.name(), "opencl");
        assert_eq!(
            s.notice,
            "auto: chose opencl (fake device of opencl); skipped cuda: not registered"
        );
        r.register(Box::new(Fake("cuda")));
        assert_eq!(r.select(" Auto ").unwrap().backend.name(), "cuda");
        for empty in ["", "  "] {
            let e = r.select(empty).unwrap_err();
            assert!(matches!(e, DwtError::EmptyBackendName { .. }), "{e}");
            assert_eq!(
                e.to_string(),
                "the backend name is empty (a setting left unfilled?); name one: cpu, opencl, cuda, auto (`auto` picks the first available)"
            );
        }
        // Only an explicit choice is refused so: an empty DWT_BACKEND is unset.
        assert_eq!(r.choose(None, Some("")).unwrap().backend.name(), "cuda");
        assert_eq!(r.names(), ["cpu", "opencl", "cuda"]);
    }

    #[test]
    fn failing_constructor_is_skipped_by_auto_and_an_error_by_name() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let mut r = Registry::with_builtins();
        r.register_with("opencl", move || {
            counted.fetch_add(1, Ordering::SeqCst);
            no_device()
        });
        let s = r.select("auto").unwrap();
        assert_eq!(s.backend.name(), "cpu");
        assert!(
            s.notice
                .contains("skipped cuda: not registered, opencl: no OpenCL platform found"),
            "{}",
            s.notice
        );
        let e = r.select("opencl").unwrap_err();
        assert_eq!(
            e.to_string(),
            "backend `opencl` is not available: no OpenCL platform found"
        );
        assert_eq!(
            r.list()[1].to_string(),
            "opencl: unavailable (no OpenCL platform found)"
        );
        assert_eq!(calls.load(Ordering::SeqCst), 1, "constructed once");
    }

    #[test]
    fn panicking_constructor_is_recorded_not_propagated() {
        let mut r = Registry::with_builtins();
        r.register_with("cuda", || panic!("driver exploded"));
        let s = r.select("auto").unwrap();
        assert!(
            s.notice
                .contains("cuda: its constructor panicked: driver exploded"),
            "{}",
            s.notice
        );
        assert!(matches!(
            r.select("cuda"),
            Err(DwtError::Unavailable { .. })
        ));
    }

    #[test]
    fn unknown_names_list_the_available_ones() {
        let mut r = Registry::with_builtins();
        r.register(Box::new(Fake("mine")));
        let e = r.select("vulkan").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown backend `vulkan`; available: cpu, mine, auto"
        );
        // Names are case-insensitive; custom backends are selectable by name but not by auto.
        assert_eq!(r.select("MINE").unwrap().backend.name(), "mine");
        assert_eq!(r.select("auto").unwrap().backend.name(), "cpu");
        r.set_auto_order(&["mine", "cpu"]);
        assert_eq!(r.select("auto").unwrap().backend.name(), "mine");
    }

    #[test]
    fn environment_choice() {
        let mut r = Registry::with_builtins();
        r.register(Box::new(Fake("opencl")));
        let s = r.choose(None, Some("cpu")).unwrap();
        assert_eq!(s.backend.name(), "cpu");
        assert_eq!(
            s.notice,
            "DWT_BACKEND=cpu: chose cpu (host CPU (reference interpreter))"
        );
        // An explicit choice wins over the environment.
        assert_eq!(
            r.choose(Some("opencl"), Some("cpu"))
                .unwrap()
                .backend
                .name(),
            "opencl"
        );
        assert!(r
            .choose(None, Some("auto"))
            .unwrap()
            .notice
            .starts_with("DWT_BACKEND=auto: chose opencl"));
        assert_eq!(r.choose(None, Some("  ")).unwrap().backend.name(), "opencl");
        let e = r.choose(None, Some("bogus")).unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown backend `bogus` (from DWT_BACKEND); available: cpu, opencl, auto"
        );
    }

    #[test]
    fn empty_registry_says_what_it_tried() {
        let r = Registry::empty();
        let e = r.select("auto").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no backend is available (cuda: not registered; opencl: not registered; cpu: not registered)"
        );
        // Not `available: auto`, which chooses nothing here.
        assert_eq!(
            r.select("cpu").unwrap_err().to_string(),
            "unknown backend `cpu`; available: none, the registry is empty (`Registry::with_builtins()` has the CPU reference)"
        );
    }

    /// Names are case-insensitive for registration as for selection: `CPU` replaces `cpu`
    /// (beside it, selecting either name gave the first, the built-in), and `auto` finds a
    /// backend registered as `OpenCL`.
    #[test]
    fn names_differing_in_case_are_one_name() {
        let mut r = Registry::with_builtins();
        r.register(Box::new(Fake("CPU")));
        assert_eq!(r.names(), ["CPU"]);
        assert_eq!(
            r.select("cpu").unwrap().backend.device(),
            "fake device of CPU"
        );
        assert!(r.contains("cpu"));
        r.register(Box::new(CpuBackend));
        r.register_with("OpenCL", || Ok(Box::new(Fake("OpenCL"))));
        assert_eq!(r.names(), ["cpu", "OpenCL"]);
        assert_eq!(r.select("auto").unwrap().backend.name(), "OpenCL");
    }

    /// A backend named so that selection could never choose it is recorded as unavailable with
    /// the reason, not silently shadowed by `auto`.
    #[test]
    fn names_selection_cannot_reach_are_reported() {
        let mut r = Registry::with_builtins();
        r.register(Box::new(Fake("auto")));
        r.register_with("", || Ok(Box::new(Fake("x"))));
        r.register_with(" gpu ", || Ok(Box::new(Fake("gpu"))));
        let listed: Vec<String> = r.list().iter().map(|b| b.to_string()).collect();
        assert_eq!(listed[0], "cpu: host CPU (reference interpreter)");
        assert!(
            listed[1].starts_with("auto: unavailable (`auto` selects automatically"),
            "{listed:?}"
        );
        assert!(
            listed[2].contains("unavailable (a backend needs a name"),
            "{listed:?}"
        );
        assert!(listed[3].contains("register it as `gpu`"), "{listed:?}");
        assert_eq!(r.select("auto").unwrap().backend.name(), "cpu");
    }

    #[test]
    fn selected_backend_runs() {
        let r = Registry::with_builtins();
        let s = r.select("cpu").unwrap();
        let w = dwt_catalogue::LeGall53::wavelet();
        let mut data: Vec<i32> = (0..64).collect();
        let orig = data.clone();
        for direction in [dwt_ir::Direction::Forward, dwt_ir::Direction::Inverse] {
            let req = Request {
                wavelet: w,
                direction,
                shape: vec![8, 8],
                levels: 2,
                layout: dwt_ir::Layout::Mallat,
            };
            s.backend.run(&req, Samples::I32(&mut data)).unwrap();
        }
        assert_eq!(data, orig);
    }

    use dwt_ir::WaveletSpec;
}
