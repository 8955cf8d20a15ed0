use lifting::lifting;

lifting! {
    pub wavelet ShiftZero {
        odd -= (even[0] + even[1]) >> 0;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
