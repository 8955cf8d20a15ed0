//! Executors' per-request memo: what a backend prepared for a request (emitted module, launch
//! plan, built program or loaded functions), kept so that the next call with an equal request
//! only launches. Keyed by everything that changes the kernels or the plan.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use dwt_ir::{Direction, ElementType, Layout};

use crate::{DwtError, Request};

/// What a prepared request is kept under.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    /// The wavelet's canonical text: equal texts lift alike.
    wavelet: String,
    direction: Direction,
    element: ElementType,
    layout: Layout,
    shape: Vec<usize>,
    levels: u32,
}

/// Prepared work per request, shared by clones (a backend and the transforms it prepared).
pub struct PreparedCache<P> {
    map: Arc<Mutex<HashMap<Key, Arc<P>>>>,
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
        let key = Key {
            wavelet: request.wavelet.to_string(),
            direction: request.direction,
            element,
            layout: request.layout,
            shape: request.shape.clone(),
            levels: request.levels,
        };
        let map = || self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = map().get(&key) {
            return Ok(p.clone());
        }
        let prepared = Arc::new(prepare()?);
        Ok(map().entry(key).or_insert(prepared).clone())
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
}
