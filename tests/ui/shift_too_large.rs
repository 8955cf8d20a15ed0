use lifting::lifting;

lifting! {
    pub wavelet ShiftTooLarge {
        odd -= (even[0] + even[1] + 1) >> 40;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
