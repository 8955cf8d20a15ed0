use lifting::lifting;

lifting! {
    pub wavelet FloatInInteger {
        odd -= 0.5 * (even[0] + even[1]);
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
