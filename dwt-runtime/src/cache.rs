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
use std::sync::{Arc, Mutex};

use dwt_ir::{Direction, ElementType, Layout, Wavelet};

use crate::{DwtError, Request};

/// A request kept with its prepared work.
struct Entry<P> {
    wavelet: Wavelet,
    direction: Direction,
    element: ElementType,
    layout: Layout,
    shape: Vec<usize>,
    levels: u32,
    prepared: Arc<P>,
}

impl<P> Entry<P> {
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

impl<P> PreparedCache<P> {
    /// The work kept for `request` on `element`, or `prepare`'s, kept for next time. A refusal
    /// is not kept. Two threads missing at once may both prepare; one result is kept.
    pub fn get_or_prepare(
        &self,
        request: &Request,
        element: ElementType,
        prepare: impl FnOnce() -> Result<P, DwtError>,
    ) -> Result<Arc<P>, DwtError> {
        let key = bucket(request, element);
        let map = || self.map.lock().unwrap_or_else(|e| e.into_inner());
        let find = |map: &Buckets<P>| {
            map.get(&key)?
                .iter()
                .find(|e| e.is_for(request, element))
                .map(|e| e.prepared.clone())
        };
        if let Some(p) = find(&map()) {
            return Ok(p);
        }
        let prepared = Arc::new(prepare()?);
        let mut map = map();
        if let Some(p) = find(&map) {
            return Ok(p);
        }
        map.entry(key).or_default().push(Entry {
            wavelet: request.wavelet.clone(),
            direction: request.direction,
            element,
            layout: request.layout,
            shape: request.shape.clone(),
            levels: request.levels,
            prepared: prepared.clone(),
        });
        Ok(prepared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
