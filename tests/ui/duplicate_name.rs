use lifting::lifting;

lifting! {
    pub wavelet Twice {
        odd -= (even[0] + even[1] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }

    pub wavelet Twice {
        odd -= even[0];
        even += (odd[0] + 1) >> 1;
    }
}

fn main() {}
