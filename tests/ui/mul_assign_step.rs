use lifting::lifting;

lifting! {
    pub wavelet MulAssign {
        odd *= even[0];
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
