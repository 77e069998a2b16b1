//! Times filling three dense bands of fast oscillations (as the Sinusoidal view's curves at a
//! long sequence draw them) and reading the layer back:
//! `cargo run --release --example bandbench` in `crates/kernels`.
use pe_kernels::bands::BandLayer;
use std::time::{Duration, Instant};

fn main() {
    let (w, h) = (575, 420);
    let n: i32 = 575;
    let band = |period: f64| {
        let (mut upper, mut lower) = (Vec::new(), Vec::new());
        for k in 0..n {
            let x = 60 + k * 380 / n;
            let (a, b) = (
                (f64::from(k) * period).sin(),
                ((f64::from(k) + 1.0) * period).sin(),
            );
            upper.push((x, (200.0 - a.max(b) * 180.0) as i32 - 1));
            lower.push((x, (200.0 - a.min(b) * 180.0) as i32 + 1));
        }
        (upper, lower)
    };
    let bands = [band(0.7), band(0.3), band(0.05)];
    let (mut fill, mut read) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..100 {
        let t = Instant::now();
        let mut layer = BandLayer::new(w, h);
        for (c, (upper, lower)) in bands.iter().enumerate() {
            layer.fill_band(upper, lower, (c as u8 * 50, 100, 200), 1.0);
        }
        fill += t.elapsed();
        let t = Instant::now();
        std::hint::black_box(layer.drawn());
        read += t.elapsed();
    }
    println!("fill {:?}, read {:?} per frame", fill / 100, read / 100);
}
