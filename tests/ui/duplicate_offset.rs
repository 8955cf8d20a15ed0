use lifting::lifting;

lifting! {
    pub wavelet DuplicateOffset {
        odd -= (even[0] + 2 * even[0] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
