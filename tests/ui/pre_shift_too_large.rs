use lifting::lifting;

lifting! {
    pub wavelet PreShiftTooLarge {
        shift = 16;
        odd -= (even[0] + even[1] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
