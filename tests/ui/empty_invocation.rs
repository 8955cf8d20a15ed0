use lifting::lifting;

lifting! {}

fn main() {}
