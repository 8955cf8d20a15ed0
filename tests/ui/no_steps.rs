use lifting::lifting;

lifting! {
    pub wavelet NoSteps {
        boundary = clamp;
        shift = 1;
    }
}

fn main() {}
