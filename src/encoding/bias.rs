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
        // A max_distance at or below max_exact makes the ratio infinite, NaN or negative
        // (transformers would index out of its table): saturate and clamp, never overflow.
        let large = max_exact.saturating_add((ratio * (buckets - max_exact) as f32) as i64);
        large.clamp(0, buckets - 1)
    };
    (result + bucket) as u32
}

/// How many whole distances each bucket of keys at or before the query holds (distance
/// `query − key` = 0, 1, 2, …), as [`t5_bucket`] assigns them: `sizes[b]` for buckets `0 ≤ b <
/// last`, and the first distance of the `last` bucket, which holds every distance from it on.
/// Buckets between that no whole distance falls in have size 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketSpans {
    pub sizes: Vec<u64>,
    pub last: u32,
    pub last_from: u64,
}

/// The spans of the buckets of distances `query − key ≥ 0` (the half that causal attention
/// uses; bidirectional attention mirrors it for keys after the query). Scans distances up to
/// `max_distance`, past which every distance is in the last bucket.
pub fn t5_bucket_spans(bidirectional: bool, num_buckets: u32, max_distance: u32) -> BucketSpans {
    let bucket = |d: u64| t5_bucket(-(d as i64), bidirectional, num_buckets, max_distance);
    let far = u64::from(max_distance.max(1)) * 2;
    let mut last = bucket(far);
    let mut sizes = vec![0u64; num_buckets as usize + 1];
    let mut last_from = far;
    for d in 0..=far {
        let b = bucket(d);
        if b >= last {
            (last, last_from) = (b, d);
            break;
        }
        sizes[b as usize] += 1;
    }
    sizes.truncate(last as usize);
    BucketSpans {
        sizes,
        last,
        last_from,
    }
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

    #[test]
    fn bucket_spans_count_the_distances_of_each_bucket() {
        // 32 buckets, max_distance 128, bidirectional: 16 per side, 8 exact, then buckets of
        // 4, 4, 7, 9, 14, 18, 27 distances, and the last from 91 on.
        let s = t5_bucket_spans(true, 32, 128);
        assert_eq!(s.sizes[..8], [1; 8]);
        assert_eq!(s.sizes[8..], [4, 4, 7, 9, 14, 18, 27]);
        assert_eq!((s.last, s.last_from), (15, 91));
        for (b, size) in s.sizes.iter().enumerate() {
            let first: u64 = s.sizes[..b].iter().sum();
            for d in first..first + size {
                assert_eq!(t5_bucket(-(d as i64), true, 32, 128), b as u32);
            }
        }
        // Causal: all 32 buckets for keys at or before the query.
        let c = t5_bucket_spans(false, 32, 128);
        assert_eq!(c.last, 31);
        assert_eq!(c.sizes[..16], [1; 16]);
        // Tiny settings never panic and stay bounded.
        for (bi, n, m) in [
            (true, 2, 1),
            (false, 2, 1),
            (true, 256, 1),
            (false, 3, 4096),
        ] {
            let s = t5_bucket_spans(bi, n, m);
            assert!(s.sizes.len() <= 256);
        }
    }
}
