use lifting::lifting;

lifting! {
    pub wavelet ShiftOnFloat {
        kind = float;
        odd -= (even[0] + even[1]) >> 1;
        even += 0.25 * (odd[-1] + odd[0]);
    }
}

fn main() {}
