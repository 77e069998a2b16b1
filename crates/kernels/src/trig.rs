//! Sines of many angles at once, for pictures of sinusoidal tables: the same values as `sin`
//! and `cos` to about one part in 10¹⁵ (fdlibm's polynomials after a reduction by π/2), at a
//! fraction of the cost of a library call per cell.

// The constants as fdlibm publishes them (their extra digits round to the same doubles).
#![allow(clippy::excessive_precision)]

/// π/2 in three parts: the first two have trailing zero bits, so that `n · part` is exact for
/// the quadrant counts `n` (below 2²⁰) of the angles the tables reach.
const PIO2_1: f64 = 1.570_796_326_734_125_614_17e+00;
const PIO2_2: f64 = 6.077_100_506_303_965_976_6e-11;
const PIO2_3: f64 = 2.022_266_248_795_950_732_4e-21;
const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;

/// sin(r) for |r| ≤ π/4.
#[inline]
fn sin_kernel(r: f64) -> f64 {
    const S1: f64 = -1.666_666_666_666_663_243_48e-01;
    const S2: f64 = 8.333_333_333_322_489_461_24e-03;
    const S3: f64 = -1.984_126_982_985_794_931_34e-04;
    const S4: f64 = 2.755_731_370_707_006_767_89e-06;
    const S5: f64 = -2.505_076_025_340_686_341_95e-08;
    const S6: f64 = 1.589_690_995_211_550_102_21e-10;
    let z = r * r;
    let p = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    r + r * z * (S1 + z * p)
}

/// cos(r) for |r| ≤ π/4.
#[inline]
fn cos_kernel(r: f64) -> f64 {
    const C1: f64 = 4.166_666_666_666_660_190_37e-02;
    const C2: f64 = -1.388_888_888_887_410_957_49e-03;
    const C3: f64 = 2.480_158_728_947_672_941_78e-05;
    const C4: f64 = -2.755_731_435_139_066_330_35e-07;
    const C5: f64 = 2.087_572_321_298_174_827_90e-09;
    const C6: f64 = -1.135_964_755_778_819_482_65e-11;
    let z = r * r;
    let p = C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6))));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + z * z * p)
}

/// `sin(x + quarter · π/2)`: the sine (`quarter` 0) or the cosine (1) of `x`, to about 1e-15
/// for |x| < 2²⁰ (beyond, the reduction loses about a bit for every doubling of |x|).
#[inline(never)]
pub fn sin_quarter(x: f64, quarter: u32) -> f64 {
    let n = (x * TWO_OVER_PI).round();
    let r = ((x - n * PIO2_1) - n * PIO2_2) - n * PIO2_3;
    let q = (n as i64 as u64).wrapping_add(u64::from(quarter)) & 3;
    match q {
        0 => sin_kernel(r),
        1 => cos_kernel(r),
        2 => -sin_kernel(r),
        _ => -cos_kernel(r),
    }
}

/// `out[r · omegas.len() + c] = sin(positions[r] · omegas[c] + quarters[c] · π/2)`: a grid
/// of a sinusoidal table's cells, row-major, for pictures (see [`sin_quarter`]).
pub fn sinusoid_grid(positions: &[f64], omegas: &[f64], quarters: &[u32], out: &mut [f64]) {
    let cols = omegas.len();
    if cols == 0 {
        return;
    }
    for (row, &p) in out.chunks_exact_mut(cols).zip(positions) {
        for ((cell, &w), &q) in row.iter_mut().zip(omegas).zip(quarters) {
            *cell = sin_quarter(p * w, q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_library_sine_and_cosine() {
        let mut worst = 0.0f64;
        let mut x = 0.001;
        while x < 1_000_000.0 {
            worst = worst.max((sin_quarter(x, 0) - x.sin()).abs());
            worst = worst.max((sin_quarter(x, 1) - x.cos()).abs());
            worst = worst.max((sin_quarter(x, 2) + x.sin()).abs());
            worst = worst.max((sin_quarter(-x, 0) + x.sin()).abs());
            x = x * 1.000_37 + 0.731;
        }
        assert!(worst < 1e-14, "worst {worst}");
        for &x in &[
            0.0,
            1e-300,
            std::f64::consts::FRAC_PI_4,
            8191.0 * 0.999,
            1e5 + 0.5,
        ] {
            assert!((sin_quarter(x, 0) - x.sin()).abs() < 1e-14);
            assert!((sin_quarter(x, 1) - x.cos()).abs() < 1e-14);
        }
    }

    #[test]
    fn grid_is_row_major() {
        let positions = [0.0, 3.0, 5e5];
        let omegas = [1.0, 0.5];
        let mut out = [0.0; 6];
        sinusoid_grid(&positions, &omegas, &[0, 1], &mut out);
        assert_eq!(out[0], 0.0);
        assert_eq!(out[1], 1.0);
        assert!((out[2] - 3f64.sin()).abs() < 1e-15);
        assert!((out[3] - 1.5f64.cos()).abs() < 1e-15);
        assert!((out[4] - 5e5f64.sin()).abs() < 1e-14);
        assert!((out[5] - 2.5e5f64.cos()).abs() < 1e-14);
    }
}
