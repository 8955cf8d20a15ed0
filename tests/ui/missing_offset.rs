use lifting::lifting;

lifting! {
    pub wavelet MissingOffset {
        odd -= (even + even[1] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
