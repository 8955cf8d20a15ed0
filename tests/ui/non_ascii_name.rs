use lifting::lifting;

lifting! {
    pub wavelet Haarré {
        odd -= even[0];
        even += (odd[0] + 1) >> 1;
    }
}

fn main() {}
