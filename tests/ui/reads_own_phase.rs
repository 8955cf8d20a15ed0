use lifting::lifting;

lifting! {
    pub wavelet ReadsOwnPhase {
        odd -= odd[1];
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

fn main() {}
