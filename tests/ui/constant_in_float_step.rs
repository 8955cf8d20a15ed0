use lifting::lifting;

lifting! {
    pub wavelet ConstantInFloat {
        kind = float;
        odd -= 1/2 * (even[0] + even[1]) + 0.5;
        even += 1/4 * (odd[-1] + odd[0]);
    }
}

fn main() {}
