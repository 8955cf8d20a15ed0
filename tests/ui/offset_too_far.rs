use lifting::lifting;

lifting! {
    pub wavelet OffsetTooFar {
        odd -= (even[0] + even[100] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
