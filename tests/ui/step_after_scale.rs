use lifting::lifting;

lifting! {
    pub wavelet StepAfterScale {
        kind = float;
        odd -= 1/2 * (even[0] + even[1]);
        scale 1.5;
        even += 1/4 * (odd[-1] + odd[0]);
    }
}

fn main() {}
