use lifting::lifting;

lifting! {
    pub wavelet PreShiftOnFloat {
        kind = float;
        shift = 1;
        odd -= 1/2 * (even[0] + even[1]);
        even += 1/4 * (odd[-1] + odd[0]);
    }
}

fn main() {}
