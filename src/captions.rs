//! What the views say: every fixed explanatory sentence of the view introductions and of the
//! panels' "what you are seeing" paragraphs, as data. The views show these; `tests/claims.rs`
//! reads [`ALL`] and checks every number in them against the core, and fails when a number
//! appears that no claim covers. Sentences whose numbers follow the state are built in the
//! views from the core at render time, not here.
//!
//! The symbols are those of the Notation table (`assets/notation.json`): `pos`, `col`,
//! `d_model`, pair `i`, `base`, `ω_i`, `λ_i`, offset `Δ`, query and key `q`, `k` at positions
//! `m`, `n`, `D` rotated dimensions, `L₀`, `s`, `α`.

/// One fixed text: where it is shown (a panel ID, or `view:<name>` for a view's
/// introduction), and the text.
#[derive(Clone, Copy, Debug)]
pub struct Caption {
    pub place: &'static str,
    pub text: &'static str,
}

// Why position?
pub const ATTENTION_INTRO: &str = "Self-attention compares every token with every other one, but nothing in that comparison says where a token stands. Shuffle the sentence: without a positional encoding (and without a causal mask) each word gets exactly the same output as before, only in a new place, so “the dog bit the man” and “the man bit the dog” look alike. With positions, the outputs change.";
pub const PERMUTATION_DEMO: &str = "One attention head, 8-dimensional toy embeddings and weights (fixed, seeded), no causal mask. A token's change is the largest difference between its output now and in the original sentence. Without positions every change is zero: attention is permutation-equivariant. Reordering the tokens reorders their outputs and changes none of them (only the set of outputs is permutation-invariant). The two “the” tokens even get identical outputs. Choose the causal mask to see what a decoder does.";
pub const PERMUTATION_DEMO_CAUSAL: &str = "One attention head, 8-dimensional toy embeddings and weights (fixed, seeded), with a causal mask: each token attends only to itself and the tokens before it. Without positions a token's output then depends on its word and on which words come before it, counting repeats, not on their order: a shuffle changes the output of each token whose preceding words (with repeats) changed, and the token in front attends only to itself. So a decoder without a positional encoding (NoPE; Kazemnejad et al., 2023) still sees order, and can learn positions from it.";

// Sinusoidal
pub const SINUSOIDAL_INTRO: &str = "Without a causal mask, attention on its own treats a sentence as a bag of words. Vaswani et al. (2017) add to each token a vector that depends only on its position: pairs of columns hold the sine and cosine of the position at one frequency ω_i, and the frequencies fall geometrically from one pair i to the next.";
pub const PE_HEATMAP_INTERLEAVED: &str = "Each row is one position pos, each column col one dimension. In this interleaved layout pair i fills columns 2i and 2i + 1, so left columns oscillate fast (short wavelengths) and right columns slowly: together they give every position its own pattern. ";
pub const PE_HEATMAP_CONCAT: &str = "Each row is one position pos, each column col one dimension. In this concatenated layout the sines come first (pair i in column i), then the cosines in the same order: each half runs from fast on its left to slow on its right. ";
pub const PE_CURVES: &str = "Each column of PE is a sine or cosine wave over positions. The wave of pair i has wavelength λ_i = 2π/ω_i = 2π·base^(2i/d_model): ";
pub const PE_SPECTRUM: &str = "The frequencies ω_i = base^(−2i/d_model) fall geometrically, so on a log axis they form a straight line. Pairs whose wavelength λ_i exceeds seq_len − 1 (the dotted grey line is at seq_len) never complete a turn inside the sequence. ";
pub const PE_SPECTRUM_RISE: &str = "A sine column rises over the whole sequence only if its angle at the last position is at most a quarter turn (π/2), like a clock hand that moves no more than a quarter of the dial: that is, λ_i ≥ 4·(seq_len − 1). ";
pub const PE_SIMILARITY: &str = "Each pair adds sin(p0·ω_i)·sin(pos·ω_i) + cos(p0·ω_i)·cos(pos·ω_i) = cos((pos − p0)·ω_i), so for an even d_model PE[p0]·PE[pos] depends only on the offset pos − p0: the matrix is constant along its diagonals, largest on the diagonal (d_model/2) and, at the default base and width, falling with ripples as positions move apart.";
pub const PE_OFFSET: &str = "For an even d_model and every offset Δ there is one matrix M(Δ), the same at every position, with PE[pos + Δ] = M(Δ)·PE[pos]: it turns each (sin, cos) pair by the angle Δ·ω_i. The residual is the largest entry of |M(Δ)·PE[pos] − PE[pos + Δ]| over the positions sampled (counted under the chart). Vaswani et al. (2017) chose sinusoids expecting this to let attention use relative positions. ";
pub const PE_OFFSET_ODD: &str = "With an odd d_model the last pair has a sine column but no cosine, so no rotation M(Δ) can advance it: for Δ > 0 the residual is not zero.";
pub const PE_INDEX_PAIRS: &str = "The pair index i counts frequencies, not columns: with d_model columns there are ⌈d_model/2⌉ pairs. ";
pub const PE_INDEX_LAYOUTS: &str = "The interleaved layout puts pair i in columns 2i and 2i + 1; the concatenated layout puts all sines first, then all cosines. Both hold the same numbers, in different columns.";

// Learned
pub const LEARNED_INTRO: &str = "BERT and GPT-2 do not compute positions: they learn one vector per position, like a word embedding, and add it to the token. Here is a real trained table, the 512 × 384 position embeddings of all-MiniLM-L6-v2; switch Table to a random initialisation (what training starts from; N(0, 0.02²) as in BERT, GPT-2 used 0.01) or a table of your own.";
pub const LEARNED_HEATMAP_TRAINED: &str = "Each row is the vector learned for one position. Unlike the sinusoidal table no formula makes it: training found it. ";
pub const LEARNED_HEATMAP_RANDOM: &str = "Each row is one position's vector, drawn at random from N(0, 0.02²): a table before any training, as a model starts. No formula and no training has given it order yet. ";
pub const LEARNED_HEATMAP_MINILM: &str = "In MiniLM, row 0, always the slot of BERT's [CLS] token, has about five times the norm of the others (2.36 against a median of 0.48). Grey rows past the end are the wall: positions the model never had.";
pub const LEARNED_SIMILARITY_TRAINED: &str = "Training discovered order: neighbouring positions got similar vectors, so the matrix is dark red (similar) along its diagonal. ";
pub const LEARNED_SIMILARITY_RANDOM: &str = "A random table has no structure: each position is similar only to itself (the one-cell diagonal); to every other, near or far, its similarity is noise around zero, about 1/√width wide for a table of that width (narrow for a wide table). Nothing in it tells neighbours from strangers. ";
pub const LEARNED_HEATMAP_FILE: &str = "Each row is the vector your file gives one position. ";
pub const LEARNED_SIMILARITY_FILE: &str = "Cosine similarity of your file's position vectors: where neighbouring positions have similar vectors, the matrix is dark red along its diagonal. ";
pub const LEARNED_SIMILARITY_MINILM: &str = "In the trained MiniLM table the order is only partly relative: the band changes along the diagonal (not a Toeplitz matrix), unlike the sinusoidal PE·PEᵀ.";
pub const LEARNED_PCA: &str = "Each dot is one position, coloured from dark (the first position) to yellow (the last); the grey line joins neighbours. In MiniLM's two directions of largest variance its positions wind around a ring, a trace of the periodic structure training found, while random vectors form a shapeless cloud. The axis labels say how much of the variance the plane holds.";
pub const LEARNED_OFFSET: &str = "In MiniLM, averaged over every pos, the similarity of pos and pos + Δ is 0.85 at Δ = 1, then falls while it oscillates, with a peak every 5 to 7 offsets (Δ = 6, 12, 17, …), first below zero at Δ = 74, as if training had half-discovered sinusoids; at larger offsets, averaged over fewer and fewer pairs, it swings above and below zero. For the random table it stays near zero at every offset.";

// RoPE
pub const ROPE_INTRO: &str = "RoPE (Su et al., 2021, RoFormer) adds nothing to the token vectors. It rotates each pair i of query and key dimensions, (u, v), by an angle proportional to the position, pos·ω_i with ω_i = base^(−2i/D), D being the rotated dimensions. The score of a query at m and a key at n then depends only on m − n.";
pub const ROPE_ROTATION: &str = "Every clock is one pair i of the query, its hand the pair's 2-D vector (grey: at position 0; blue: rotated to this position). The first clock's hand turns fastest (ω_0 = 1 radian per position), the last ones barely move. No one clock tells the position: the first hand comes back near the same place every 2π ≈ 6.3 positions, a slow one barely moves from one position to the next; all of them together do.";
pub const ROPE_ANGLES: &str = "Like the sinusoidal table, but one cos column per pair i: RoPE uses the same frequency rule, ω_i = base^(−2i/D) with D the rotated dimensions, as rotation speeds instead of adding sines and cosines to the embedding.";
pub const ROPE_SCORE_DISTANCE: &str = "The line is the score computed from the distance Δ = m − n alone. The markers rotate q to an absolute position m and k to n = m − Δ and take the dot product: for every m they land on the same line, because R(m)ᵀR(n) = R(n − m). RoPE is defined for any integer position, negative ones included.";
pub const ROPE_SCORE_MATRIX: &str = "Score of the query at position m with the key at position n. Every diagonal (fixed m − n) has one colour: a Toeplitz matrix, the picture of “relative only”.";
pub const ROPE_DECAY: &str = "RoFormer (Su et al., 2021) bounds the score by the largest change between neighbouring pairs' query-key products (counting a zero after the last pair) times Σ_i |S_i|, where the partial sum S_i is the sum of the unit vectors at angles Δ·ω_j over the pairs j < i. Its Figure 2 plots the “relative upper bound”, the mean of |S_i| for i = 1 … D/2 (blue), which falls with the distance Δ. It is the bound divided by that largest change and by D/2, so it is not on the score's scale: for q = k = 1 the bound on the rotating dimensions is D times the blue curve (the head_dim − D others add a constant). For q = k = 1 the score itself falls, with ripples (orange). For random q and k, independent with mean zero, the expected score is zero at every Δ (green: the mean of 64 draws, which wobbles around zero) and the spread of one draw's score (√head_dim for unit-variance entries) does not shrink with Δ: the decay belongs to aligned q and k (q = k, or pair products that vary slowly with i), not a guarantee.";
pub const ROPE_WAVELENGTH: &str = "Pairs above the dotted grey line turn less than once within the max distance (slider Max distance): over that distance they carry only coarse position. Read with the max distance at a model's training length L₀, these are the pairs that YaRN with β_slow = 1 and Llama 3 with low_freq_factor = 1 divide fully by their scaling factor s.";

// Context extension
pub const SCALING_INTRO: &str = "Pair i of the D rotated dimensions (head_dim × rotary fraction) turns at ω_i = base^(−2i/D) radians per position, a wavelength λ_i = 2π/ω_i. Past the length L₀ a model was trained on, only the slow pairs (wavelength λ_i > L₀) meet angles pos·ω_i they have never seen; fast pairs have already turned through every angle. Context-extension methods change the frequencies (and some apply an attention factor α) so that longer texts stay in familiar territory. Sources: transformers' rope types linear, dynamic, yarn, longrope and llama3 (checked against its code); static NTK is bloc97's NTK-aware rule (2023).";
pub const SCALING_FREQUENCIES: &str = "Position interpolation (Chen et al., 2023) divides every ω_i by s. NTK-aware scaling (bloc97, 2023) raises the base to base·s^(D/(D−2)), which slows the slow pairs most. YaRN (Peng et al., 2023) keeps fast pairs, interpolates slow ones and ramps between (shaded). Llama 3 does the same by wavelength thresholds. Dynamic NTK (emozilla, 2023) and LongRoPE (Ding et al., 2024) depend on the current length seq_len.";
pub const SCALING_SCORE_DISTANCE: &str = "The chart runs out to s·L₀ (at most 131,072). The shaded band holds the distances the model saw in training, 0 to L₀ − 1; the methods try to keep the curve beyond it like the original curve inside it. YaRN and LongRoPE multiply cos and sin by an attention factor α (transformers' attention_factor), so the rotary part of every logit is multiplied by α²: for α > 1, as both defaults are for s > 1, a sharper softmax. That is YaRN's temperature t < 1, with √(1/t) = α = 0.1·ln s + 1 by default (transformers' longrope default, from Phi-3's code, is α = √(1 + ln s / ln L₀)); with partial rotary only the rotary part grows. Dynamic NTK and LongRoPE are drawn at every distance with their frequencies at the slider's seq_len; transformers would compute them again for a longer text.";

// Relative biases
pub const BIAS_INTRO: &str = "Some models add no position to the tokens at all. They add a number to each attention logit that depends only on where the key is relative to the query: ALiBi (Press et al., 2022; BLOOM, MPT) a straight penalty −slope_h·(m − n) with one slope per head h (BLOOM's code adds slope_h·n instead and MPT's slope_h·(n − L + 1), L the sequence length; each differs from −slope_h·(m − n) by a constant per row: the same softmax); T5 (Raffel et al., 2020) a learned scalar per head and bucket of distances, exact for short ones and logarithmic for long ones.";
pub const ALIBI_SLOPES: &str = "Steep heads look mostly at the last few tokens, shallow heads far back. Nothing is learned: the slopes are fixed before training (Press et al., 2022).";
pub const ALIBI_BIAS: &str = "Entry (m, n) is added to the logit of the query at m for the key at n: −slope_h·(m − n), zero on the diagonal and falling linearly with distance. It depends only on m − n, so the same rule is defined at any length; Press et al. (2022) found that it extrapolates past the training length.";
pub const T5_BUCKETS: &str = "Small distances get a bucket each. Past them the bucket number grows with the logarithm of the distance, so the buckets get wider, roughly geometrically, and the last one takes every distance from where the scale reaches it (at or before max_distance) onwards; the line under the chart counts them. Bidirectional attention gives keys after the query their own half of the buckets; causal attention maps every future key to bucket 0.";

// Compare
pub const COMPARE_INTRO: &str = "The ways to tell a transformer where each token is (fixed, learned, rotary and two relative biases) in the terms used throughout PE Lab.";
pub const COMPARE_TABLE: &str = "Two senses of “generalizes”: the sinusoidal and rotary formulas are defined at every position, which is why the sinusoidal encoding is said to generalize to unseen lengths and RoPE, being relative, to generalize better; a model trained with either still meets positions or distances it never saw past its training length, and degrades there, while one trained with ALiBi stays close to its trained-length perplexity well past it (Press et al., 2022). The column “Beyond the trained length” is about trained models.";
pub const COMPARE_SIMILARITY: &str = "Sinusoidal similarity and RoPE's q = k = 1 score are the same curve, Σ_i cos(Δ·ω_i) divided by its value at Δ = 0: at equal width (128 here) both use the same frequencies. ALiBi's bias multiplies each unnormalised attention weight by exp(−slope_h·Δ), which only falls. The learned table's curve comes from training, not a formula. T5 has no fixed curve: its biases are learned scalars, one per bucket of relative distance.";

/// The comparison table: scheme, its view, learned parameters, relative or absolute,
/// extrapolation, used by.
pub const COMPARE_ROWS: [[&str; 6]; 5] = [
    ["Sinusoidal (fixed)", "sinusoidal", "none", "absolute, added to the embeddings; offsets are rotations of (sin, cos) pairs", "the formula is defined at every position, so it extends to unseen lengths; a model trained on short texts still degrades past them", "original Transformer (Vaswani et al. 2017)"],
    ["Learned absolute", "learned", "max positions × d_model (512 × 768 = 393,216 in BERT-base)", "absolute, added to the embeddings", "none: no vector exists past the last trained position (the wall)", "BERT, RoBERTa, GPT-2, all-MiniLM"],
    ["Rotary (RoPE)", "rope", "none", "relative: q and k are rotated, scores depend on m − n only", "defined at every position, yet an unscaled model degrades quickly past its training length L₀, hence PI, NTK, YaRN, LongRoPE and Llama 3 scaling", "GPT-J, GPT-NeoX, LLaMA, Mistral, Qwen"],
    ["ALiBi bias", "bias", "none (slopes fixed per head)", "relative: −slope_h·(m − n) added to the logits", "extrapolates: trained short, usable longer (Press et al., 2022)", "BLOOM, MPT"],
    ["T5 relative bias", "bias", "buckets × heads learned scalars per stack (32 × 12 in each of T5-base's encoder and decoder)", "relative: one learned scalar per head and relative-position bucket", "any length: far distances share the last bucket", "T5, Flan-T5, mT5"],
];

// Precision
pub const PRECISION_INTRO: &str = "RoPE's angles are position × frequency. Kept in a low-precision type, positions stop being distinct at long context: bfloat16 has 8 significant bits, so 257 is stored as 256, and float16 overflows to infinity at 65520. transformers keeps positions and angles in float32 and casts only cos and sin (PR huggingface/transformers#29285); GPT-NeoX (until PR EleutherAI/gpt-neox#1041 fixed its issue #1003) and Megatron-LM (issue NVIDIA/Megatron-LM#535) computed them in 16 bits.";
pub const PRECISION_POSITIONS: &str = "A path that stores positions in a low-precision type maps neighbouring positions to the same value: the staircase. Where a path has fewer distinct positions than the text has tokens, the model cannot tell those tokens' positions apart. ";
pub const PRECISION_FP16_INF: &str = "float16: infinity from position 65520 (its largest finite value is 65504); cos and sin of infinity are NaN, drawn as a gap.";
pub const PRECISION_ANGLES: &str = "The error of each path's angle pos·ω_i against the float64 one, wrapped to (−π, π] (an error of π is a rotation pointing the wrong way). Errors below 1e-12 are drawn at 1e-12. The fast pairs (small i) break first: their ω_i is near 1, so a position stored a few units off (at 100,000, bfloat16's are up to 256 off) turns them by whole radians.";
pub const PRECISION_SCORE: &str = "In exact arithmetic the score of q = k = 1 depends only on m − n: this curve is the same for every query position m. Where a path stores m and its neighbours as one value, keys at different distances get the same rotation, the curve turns into steps or goes flat, and the model's sense of order near m is gone.";
pub const PRECISION_ERROR: &str = "Each dot is the worst pair at one position. float32 stores every whole number up to 2^24 = 16,777,216 exactly, yet computing ω_i in float32 (each of its steps rounded) and rounding the product pos·ω_i add relative errors of a few times 2^−24 ≈ 6e-8, so the fast pairs drift past 0.1 rad after about 1.3 million positions (at D = 128 and base 10,000; the chart samples positions on a log scale, so its first sample past that can come later). The GPT-NeoX bfloat16 cache and Megatron's float16 path break thousands of times earlier, at positions they still store exactly (every whole number up to 256 in bfloat16, 2048 in float16): ω_i and pos·ω_i, rounded to 8 or 11 significant bits, are off by 0.1 rad already; transformers' bfloat16 path keeps its angles in float32 and breaks where float32 does. Gaps are infinity or NaN (float16 from 65520).";

// The Real models view.
pub const MODELS_INTRO: &str = "Which positions do the models people use today have? Each row of the table is a released model; each value comes from its config, reference code, model card or documentation, named under the table. Choose RoPE models to draw their frequencies together, as their scaling leaves them; then ask how large a base a context length needs (Men et al., 2024).";
pub const MODEL_GALLERY: &str = "head_dim is the width of one head's query and key. D of its dimensions rotate, in D/2 pairs: pair i joins dimensions 2i and 2i + 1 in the interleaved layout, or i and i + D/2 in the half layout (the two give the same scores once q and k are permuted to match). Pair i turns at ω_i = base^(−2i/D). L₀ is the context its scaling starts from: the config's original_max_position_embeddings; where the config names none, the pre-training length its makers state (Gemma 3 4B), or for a model without scaling its max_position_embeddings. The published context is the longest its makers state; a scaling's factor s times L₀ need not equal it. A scaling changes the frequencies so that the model reaches past L₀ (the Context extension view explains each scaling and its parameters; Open in Context extension loads a model's settings there). Layers without positions (NoPE) add no positional encoding; in Scout they scale each query up as its position grows.";
pub const MODEL_WAVELENGTHS: &str = "Each line is one model: the wavelength λ′_i = 2π/ω′_i of each pair at its scaled frequency ω′_i, divided by the model's published context. Pairs under the dotted line turn at least once within that context; pairs above it never complete a turn there. The llama3 and YaRN scalings keep the fast pairs (left) and divide the slowest pairs' frequencies by the config's factor (which need not equal the published context over L₀), which multiplies their wavelengths by it; linear scaling divides every pair's; LongRoPE divides each pair's by its own factor. Llama 4 Scout's RoPE layers attend only within chunks of 8,192 tokens; its layers without positions see the whole context.";
pub const MODEL_SCORES: &str = "The score of a query and a key of all ones, RoPE-rotated Δ apart, over the rotating dimensions, divided by its value at Δ = 0: the mean of cos(Δ·ω′_i) over the pairs, drawn out to each model's published context. Where a curve is at or below zero, this key, equal to the query, scores no more at that distance than a random zero-mean key independent of the query does on average (zero). Each pixel column shows the lowest and highest of up to 16 distances in it (every one, where it holds no more).";
pub const BASE_BOUND: &str = "Men et al. (2024), “Base of RoPE Bounds Context Length”: when the components of queries and keys are independent with equal variance, a key similar to the query outscores a random key at distance Δ, on average, by an amount proportional to B(Δ) = Σ_i cos(Δ·ω_i), summed over the D/2 pairs. They argue that a model can attend more to similar tokens at distance Δ only while B(Δ) ≥ 0, so a context of L tokens needs a base whose first negative B(Δ) comes at Δ ≥ L. Where B(Δ) < 0 that expected preference is negative; the bound does not say that a larger base makes attention work. In their experiments, models trained or fine-tuned with a base below the bound kept a low perplexity on long texts yet failed to retrieve information placed farther back than the bound allows. This scan checks every whole Δ, so its numbers can differ from the rounded bases of the paper's table. Each pixel column shows the lowest and highest of up to 16 distances in it, the first negative always among them.";
pub const BASE_BOUND_MIN: &str = "The staircase: for each context length L, the smallest base on a grid of ten per decade whose B(Δ) stays ≥ 0 for every Δ < L, at the width D chosen above; the CSV refines it by bisection towards the failing grid base below. The first crossing jumps about as the base grows (grey dots: each grid base at its first crossing), so the true smallest base can be lower: at D = 128, bases from 28,700 to 29,000 keep B(Δ) ≥ 0 for every Δ < 4,096, while 30,000 and 40,000 do not. The coloured dots are released models with this D, at their base and L₀. The table scans every RoPE model at its own D: at its base, and with its scaled frequencies ω′_i.";

/// Every fixed text, with where it is shown.
pub const ALL: &[Caption] = &[
    Caption {
        place: "view:attention",
        text: ATTENTION_INTRO,
    },
    Caption {
        place: "permutation-demo",
        text: PERMUTATION_DEMO,
    },
    Caption {
        place: "permutation-demo",
        text: PERMUTATION_DEMO_CAUSAL,
    },
    Caption {
        place: "view:sinusoidal",
        text: SINUSOIDAL_INTRO,
    },
    Caption {
        place: "pe-heatmap",
        text: PE_HEATMAP_INTERLEAVED,
    },
    Caption {
        place: "pe-heatmap",
        text: PE_HEATMAP_CONCAT,
    },
    Caption {
        place: "pe-curves",
        text: PE_CURVES,
    },
    Caption {
        place: "pe-spectrum",
        text: PE_SPECTRUM,
    },
    Caption {
        place: "pe-spectrum",
        text: PE_SPECTRUM_RISE,
    },
    Caption {
        place: "pe-similarity",
        text: PE_SIMILARITY,
    },
    Caption {
        place: "pe-offset",
        text: PE_OFFSET,
    },
    Caption {
        place: "pe-offset",
        text: PE_OFFSET_ODD,
    },
    Caption {
        place: "pe-index",
        text: PE_INDEX_PAIRS,
    },
    Caption {
        place: "pe-index",
        text: PE_INDEX_LAYOUTS,
    },
    Caption {
        place: "view:learned",
        text: LEARNED_INTRO,
    },
    Caption {
        place: "learned-heatmap",
        text: LEARNED_HEATMAP_TRAINED,
    },
    Caption {
        place: "learned-heatmap",
        text: LEARNED_HEATMAP_RANDOM,
    },
    Caption {
        place: "learned-heatmap",
        text: LEARNED_HEATMAP_FILE,
    },
    Caption {
        place: "learned-heatmap",
        text: LEARNED_HEATMAP_MINILM,
    },
    Caption {
        place: "learned-similarity",
        text: LEARNED_SIMILARITY_TRAINED,
    },
    Caption {
        place: "learned-similarity",
        text: LEARNED_SIMILARITY_RANDOM,
    },
    Caption {
        place: "learned-similarity",
        text: LEARNED_SIMILARITY_FILE,
    },
    Caption {
        place: "learned-similarity",
        text: LEARNED_SIMILARITY_MINILM,
    },
    Caption {
        place: "learned-pca",
        text: LEARNED_PCA,
    },
    Caption {
        place: "learned-offset",
        text: LEARNED_OFFSET,
    },
    Caption {
        place: "view:rope",
        text: ROPE_INTRO,
    },
    Caption {
        place: "rope-rotation",
        text: ROPE_ROTATION,
    },
    Caption {
        place: "rope-angles",
        text: ROPE_ANGLES,
    },
    Caption {
        place: "rope-score-distance",
        text: ROPE_SCORE_DISTANCE,
    },
    Caption {
        place: "rope-score-matrix",
        text: ROPE_SCORE_MATRIX,
    },
    Caption {
        place: "rope-decay",
        text: ROPE_DECAY,
    },
    Caption {
        place: "rope-wavelength",
        text: ROPE_WAVELENGTH,
    },
    Caption {
        place: "view:scaling",
        text: SCALING_INTRO,
    },
    Caption {
        place: "scaling-frequencies",
        text: SCALING_FREQUENCIES,
    },
    Caption {
        place: "scaling-score-distance",
        text: SCALING_SCORE_DISTANCE,
    },
    Caption {
        place: "view:bias",
        text: BIAS_INTRO,
    },
    Caption {
        place: "alibi-slopes",
        text: ALIBI_SLOPES,
    },
    Caption {
        place: "alibi-bias",
        text: ALIBI_BIAS,
    },
    Caption {
        place: "t5-buckets",
        text: T5_BUCKETS,
    },
    Caption {
        place: "view:compare",
        text: COMPARE_INTRO,
    },
    Caption {
        place: "compare-table",
        text: COMPARE_TABLE,
    },
    Caption {
        place: "compare-similarity",
        text: COMPARE_SIMILARITY,
    },
    Caption {
        place: "view:precision",
        text: PRECISION_INTRO,
    },
    Caption {
        place: "precision-positions",
        text: PRECISION_POSITIONS,
    },
    Caption {
        place: "precision-positions",
        text: PRECISION_FP16_INF,
    },
    Caption {
        place: "precision-angles",
        text: PRECISION_ANGLES,
    },
    Caption {
        place: "precision-score",
        text: PRECISION_SCORE,
    },
    Caption {
        place: "precision-error",
        text: PRECISION_ERROR,
    },
    Caption {
        place: "view:models",
        text: MODELS_INTRO,
    },
    Caption {
        place: "model-gallery",
        text: MODEL_GALLERY,
    },
    Caption {
        place: "model-wavelengths",
        text: MODEL_WAVELENGTHS,
    },
    Caption {
        place: "model-scores",
        text: MODEL_SCORES,
    },
    Caption {
        place: "base-bound",
        text: BASE_BOUND,
    },
    Caption {
        place: "base-bound-min",
        text: BASE_BOUND_MIN,
    },
    Caption {
        place: "view:train",
        text: TRAIN_INTRO,
    },
    Caption {
        place: "view:train",
        text: TRAIN_SHIPPED,
    },
    Caption {
        place: "train-setup",
        text: TRAIN_SETUP,
    },
    Caption {
        place: "train-loss",
        text: TRAIN_LOSS,
    },
    Caption {
        place: "train-length",
        text: TRAIN_LENGTH,
    },
    Caption {
        place: "train-attention",
        text: TRAIN_ATTENTION,
    },
    Caption {
        place: "train-attention",
        text: TRAIN_ATTENTION_CAUSAL,
    },
];

/// Train it yourself (`view=train`).
pub const TRAIN_INTRO: &str = "Every other view shows what an encoding is; this one shows what it does. A small transformer learns a task that needs word order, once per encoding, here in the page. Before you press Run, predict: which encodings will learn the task, and which will still be right on sequences longer than any they were trained on?";
/// Above the shipped run's sentences (`shipped=1`; the run is `lessons/train-run.npz`).
pub const TRAIN_SHIPPED: &str = "This is the shipped run: the view's default settings, trained beforehand by PE Lab's own code and saved with it, so that a class need not wait. Press Run to train it here; in Chromium the numbers were checked to come out the same, bit for bit.";
pub const TRAIN_SETUP: &str = "Each model: a token embedding; the encoding (sinusoidal and learned are added to the input, RoPE rotates queries and keys, ALiBi adds a fixed bias to the attention scores and T5 a learned one, NoPE has none); pre-LN blocks of multi-head attention and a GELU MLP; cross-entropy, AdamW. A batch is 32 sequences of one length, from the task's shortest to the training length. Every encoding starts from the same weights and sees the same batches, and the same settings give the same run. ALiBi was defined for causal attention: with a bidirectional mask its bias falls off the same way on both sides, so it tells how far a key is, not on which side.";
pub const TRAIN_LOSS: &str = "Loss and accuracy on each training batch, measured before the step that learns from it. Loss is the mean cross-entropy over the batch's answers; accuracy is the share of answers whose most likely token is right.";
pub const TRAIN_LENGTH: &str = "After training, each model answers the same 64 test sequences per length, and every answer counts (copy and offset have several per sequence). The band holds the lengths seen in training; past it, lengths never seen. A learned table has one vector per trained position, so its line stops where the table ends: there is nothing to add to a token further on.";
pub const TRAIN_ATTENTION: &str = "Where one head of one layer looks, for the first test sequence at the training length (left) and at twice it, or at the longest test length if that is shorter (right). Row m is the query at position m, column n the key at position n; a row's weights sum to 1.";
pub const TRAIN_ATTENTION_CAUSAL: &str = " Grey: keys the causal mask hides.";
