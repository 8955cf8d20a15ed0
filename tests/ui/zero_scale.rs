use lifting::lifting;

lifting! {
    pub wavelet ZeroScale {
        kind = float;
        odd -= 1/2 * (even[0] + even[1]);
        even += 1/4 * (odd[-1] + odd[0]);
        scale 0.0;
    }
}

fn main() {}
