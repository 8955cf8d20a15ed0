use lifting::lifting;

lifting! {
    pub wavelet ConstantWithoutShift {
        odd -= even[0] + 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
