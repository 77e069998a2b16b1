//! Figure presets: published figures as PE Lab states (URL queries) with their sources.

/// One reproducible figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    pub name: &'static str,
    /// Where the figure was published, and what it shows.
    pub source: &'static str,
    /// The PE Lab state that reproduces it.
    pub query: &'static str,
}

pub const FIGURES: [Figure; 7] = [
    Figure {
        name: "The lesson's example: d_model = 8",
        source: "The seed lesson's worked example: d_model = 8, so pairs i = 0..3 fill columns 0–7 (sin on 2i, cos on 2i + 1), over 50 positions.",
        query: "view=sinusoidal&seq_len=50&d_model=8&base=10000&layout=interleaved&cols=0,1,2,3,4,5,6,7&p0=10",
    },
    Figure {
        name: "Annotated Transformer: PE curves",
        source: "The Annotated Transformer (Harvard NLP, 2018): columns 4–7 of a d_model = 20 encoding over positions 0–99.",
        query: "view=sinusoidal&seq_len=100&d_model=20&base=10000&layout=interleaved&cols=4,5,6,7",
    },
    Figure {
        name: "50 × 128 heatmap and PE·PEᵀ",
        source: "Kazemnejad (2019), “Transformer Architecture: The Positional Encoding”: the 128-dimensional encoding of a 50-token sentence, and its dot products.",
        query: "view=sinusoidal&seq_len=50&d_model=128&base=10000&layout=interleaved&p0=25",
    },
    Figure {
        name: "TensorFlow tutorial: 2048 × 512",
        source: "TensorFlow's Transformer tutorial: 2048 positions × 512 depth, sines and cosines concatenated, and the dot product of every position with position 1000.",
        query: "view=sinusoidal&seq_len=2048&d_model=512&base=10000&layout=concat&p0=1000",
    },
    Figure {
        name: "Illustrated Transformer (2020)",
        source: "Jay Alammar, “The Illustrated Transformer” (2020 update): 10 positions × 64 dimensions, interleaved, viridis colours.",
        query: "view=sinusoidal&seq_len=10&d_model=64&base=10000&layout=interleaved&cmap=viridis",
    },
    Figure {
        name: "RoFormer: long-term decay",
        source: "Su et al. (2021), “RoFormer”, Figure 2: the decay bound for head_dim 128, base 10000, distance Δ from 0 to 250 (rope-decay panel).",
        query: "view=rope&head_dim=128&theta=10000&layout=interleaved&partial=1&qk=ones&max_dist=250",
    },
    Figure {
        name: "YaRN on LLaMA-2",
        source: "Peng et al. (2023), “YaRN”: LLaMA-2 (D = 128, base 10000, L₀ = 4096) extended 16× to 65,536 positions; PI and NTK at the same factor for contrast.",
        query: "view=scaling&method=none,linear,ntk,yarn&head_dim=128&theta=10000&factor=16&orig_ctx=4096&seq_len=65536",
    },
];

/// The figures' names, for the menu. Computed at compile time: the first page carries only
/// these; the sources and queries come with the chunk that applies a figure (`ui::lazy::Job::Figure`).
pub const FIGURE_NAMES: [&str; FIGURES.len()] = {
    let mut names = [""; FIGURES.len()];
    let mut i = 0;
    while i < FIGURES.len() {
        names[i] = FIGURES[i].name;
        i += 1;
    }
    names
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::AppState;

    #[test]
    fn every_figure_is_a_clean_state() {
        for f in FIGURES {
            let (state, notices) = AppState::from_query(f.query);
            assert!(notices.is_empty(), "{}: {notices:?}", f.name);
            assert!(
                state
                    .to_query()
                    .starts_with(&f.query[..f.query.find('&').unwrap()]),
                "{}",
                f.name
            );
        }
    }
}
