use lifting::lifting;

lifting! {
    pub wavelet DivisionInInteger {
        odd -= (even[0] + even[1]) / 2;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
