//! Relative position biases added to attention logits: ALiBi (Press et al. 2022, as BLOOM
//! computes it) and T5's bucketed relative positions (as transformers' `T5Attention` does).
//!
//! Words: `heads` h, head index `k` (0-based), query position `i`, key position `j`,
//! relative position `j − i` (key minus query, T5's convention).

/// ALiBi slopes for `heads` heads: the geometric sequence `2^(−8(k+1)/n)` for the largest
/// power of two `n ≤ heads`, then every other slope of the sequence for `2n`.
pub fn alibi_slopes(heads: usize) -> Vec<f64> {
    if heads == 0 {
        return Vec::new();
    }
    let closest = 1usize << (usize::BITS - 1 - heads.leading_zeros());
    let geometric = |n: usize| -> Vec<f64> {
        let start = 2f64.powf(-8.0 / n as f64);
        (1..=n).map(|k| start.powi(k as i32)).collect()
    };
    let mut slopes = geometric(closest);
    if closest < heads {
        let extra = geometric(2 * closest);
        slopes.extend(extra.iter().step_by(2).take(heads - closest));
    }
    slopes
}

/// The causal ALiBi bias of one head: `−slope·(i − j)` for `j ≤ i`, `None` (masked) above the
/// diagonal.
pub fn alibi_bias(slope: f64, i: usize, j: usize) -> Option<f64> {
    (j <= i).then(|| -slope * (i - j) as f64)
}

/// transformers' `T5Attention._relative_position_bucket`, for `relative = key − query`.
pub fn t5_bucket(relative: i64, bidirectional: bool, num_buckets: u32, max_distance: u32) -> u32 {
    let mut buckets = num_buckets as i64;
    let mut result = 0i64;
    let distance = if bidirectional {
        buckets /= 2;
        if relative > 0 {
            result += buckets;
        }
        relative.unsigned_abs() as i64
    } else {
        (-relative.min(0)).max(0)
    };
    let max_exact = buckets / 2;
    if max_exact == 0 {
        return result as u32;
    }
    let bucket = if distance < max_exact {
        distance
    } else {
        // transformers computes this in float32.
        let ratio = (distance as f32 / max_exact as f32).ln()
            / (max_distance as f32 / max_exact as f32).ln();
        let large = max_exact + (ratio * (buckets - max_exact) as f32) as i64;
        large.min(buckets - 1)
    };
    (result + bucket) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slopes_for_powers_of_two_and_others() {
        assert_eq!(
            alibi_slopes(8),
            (1..=8).map(|k| 0.5f64.powi(k)).collect::<Vec<_>>()
        );
        let s3 = alibi_slopes(3);
        assert_eq!(s3.len(), 3);
        assert_eq!(&s3[..2], &[2f64.powf(-4.0), 2f64.powf(-8.0)]);
        assert!((s3[2] - 0.25).abs() < 1e-15);
        assert!(alibi_slopes(0).is_empty());
        assert_eq!(alibi_slopes(128).len(), 128);
    }

    #[test]
    fn causal_bias_is_masked_above_the_diagonal() {
        assert_eq!(alibi_bias(0.5, 3, 1), Some(-1.0));
        assert_eq!(alibi_bias(0.5, 1, 3), None);
    }
}
