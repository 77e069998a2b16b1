//! The registry of views: each view declares itself here once — its URL name, title, panels
//! (stable IDs and headings) and how its state is read from and written to the query string.
//! The shell, the navigation, URL parsing, the Share dialog, the embed `panel=` lookup and the
//! tests all derive from [`VIEWS`]; the browser side adds one component per view
//! (`views::load`, an exhaustive match, so a view cannot be left without one).

use super::app::{AppState, SinusoidalState, View};
use super::more::{AttentionState, BiasState, CompareState, LearnedState};
use super::params::Notices;
use super::precision::PrecisionState;
use super::rope::{RopeState, ScalingState};

/// Reads one query parameter (decoded), if present.
pub type Getter<'a> = &'a dyn Fn(&str) -> Option<String>;

/// One panel: its stable ID (`data-panel`, `panel=`) and its heading.
#[derive(Debug)]
pub struct PanelSpec {
    pub id: &'static str,
    pub title: &'static str,
}

/// One view of PE Lab.
pub struct ViewSpec {
    pub view: View,
    /// `view=` in the URL.
    pub name: &'static str,
    /// The navigation label and page heading.
    pub title: &'static str,
    /// Its panels, in page order.
    pub panels: &'static [PanelSpec],
    /// Its controls' names (`data-control`, `hide=`, `lock=`), space-separated: one string
    /// costs the download less than a list.
    pub controls: &'static str,
    /// Reads the view's parameters into the state (clamping, with notices).
    pub read: fn(Getter, &mut Notices, &mut AppState),
    /// Writes the view's parameters, in a fixed order.
    pub write: fn(&AppState, &mut Vec<(&'static str, String)>),
}

const fn panel(id: &'static str, title: &'static str) -> PanelSpec {
    PanelSpec { id, title }
}

/// Every view, in navigation order (the order of the source material: why, then how).
pub const VIEWS: [ViewSpec; 9] = [
    ViewSpec {
        view: View::Attention,
        name: "attention",
        title: "Why position?",
        panels: &[panel("permutation-demo", "Shuffle the sentence")],
        controls: "pe causal",
        read: |get, n, s| s.attention = AttentionState::read(get, n),
        write: |s, out| s.attention.write(out),
    },
    ViewSpec {
        view: View::Sinusoidal,
        name: "sinusoidal",
        title: "Sinusoidal",
        panels: &[
            panel("pe-heatmap", "The encoding matrix PE"),
            panel("pe-curves", "Columns as waves"),
            panel("pe-spectrum", "Frequencies and wavelengths"),
            panel("pe-similarity", "Position similarity PE·PEᵀ"),
            panel("pe-offset", "Relative offsets are rotations"),
            panel("pe-index", "Pair index i and columns"),
        ],
        controls: "seq_len d_model base layout p0 offset",
        read: |get, n, s| s.sinusoidal = SinusoidalState::read(get, n),
        write: |s, out| s.sinusoidal.write(out),
    },
    ViewSpec {
        view: View::Learned,
        name: "learned",
        title: "Learned",
        panels: &[
            panel("learned-heatmap", "The learned table"),
            panel("learned-similarity", "Cosine similarity between positions"),
            panel(
                "learned-pca",
                "Positions on their top two principal components",
            ),
            panel("learned-offset", "Similarity against offset"),
        ],
        controls: "table seq_len seed rows cols file",
        read: |get, n, s| s.learned = LearnedState::read(get, n),
        write: |s, out| s.learned.write(out),
    },
    ViewSpec {
        view: View::Rope,
        name: "rope",
        title: "RoPE",
        panels: &[
            panel("rope-rotation", "Each pair is a clock"),
            panel("rope-angles", "Rotation angles cos(pos·ω_i)"),
            panel(
                "rope-score-distance",
                "Score against distance: only m − n matters",
            ),
            panel("rope-score-matrix", "The score matrix is Toeplitz"),
            panel("rope-decay", "Long-term decay, and what it depends on"),
            panel(
                "rope-wavelength",
                "Wavelength of each pair against the context",
            ),
        ],
        controls: "head_dim theta partial max_dist layout qk seed q k pos m",
        read: |get, n, s| s.rope = RopeState::read(get, n),
        write: |s, out| s.rope.write(out),
    },
    ViewSpec {
        view: View::Scaling,
        name: "scaling",
        title: "Context extension",
        panels: &[
            panel("scaling-frequencies", "Frequencies after scaling"),
            panel(
                "scaling-score-distance",
                "Score against distance, past the trained context",
            ),
        ],
        controls: "method preset head_dim theta partial factor orig_ctx seq_len beta_fast beta_slow mscale mscale_all_dim truncate attn_factor short_factor long_factor low_freq_factor high_freq_factor config",
        read: |get, n, s| s.scaling = ScalingState::read(get, n),
        write: |s, out| s.scaling.write(out),
    },
    ViewSpec {
        view: View::Bias,
        name: "bias",
        title: "Relative biases",
        panels: &[
            panel("alibi-slopes", "ALiBi slope per head"),
            panel("alibi-bias", "ALiBi bias matrix of one head"),
            panel("t5-buckets", "T5 relative-position buckets"),
        ],
        controls: "heads head seq_len buckets max_distance bidirectional",
        read: |get, n, s| s.bias = BiasState::read(get, n),
        write: |s, out| s.bias.write(out),
    },
    ViewSpec {
        view: View::Compare,
        name: "compare",
        title: "Compare",
        panels: &[
            panel("compare-table", "The schemes at a glance"),
            panel(
                "compare-similarity",
                "How similar is position pos to pos + Δ?",
            ),
        ],
        controls: "k_max",
        read: |get, n, s| s.compare = CompareState::read(get, n),
        write: |s, out| s.compare.write(out),
    },
    ViewSpec {
        view: View::Precision,
        name: "precision",
        title: "Precision",
        panels: &[
            panel(
                "precision-positions",
                "The positions each path can tell apart",
            ),
            panel("precision-angles", "Angle error per pair at one position"),
            panel(
                "precision-score",
                "Does the score still depend only on m − n?",
            ),
            panel("precision-error", "Where each path breaks"),
        ],
        controls: "preset head_dim theta pos m max_dist paths",
        read: |get, n, s| s.precision = PrecisionState::read(get, n),
        write: |s, out| s.precision.write(out),
    },
    ViewSpec {
        view: View::Models,
        name: "models",
        title: "Real models",
        panels: &[
            panel("model-gallery", "How released models place positions"),
            panel("model-wavelengths", "Wavelengths against the context"),
            panel("model-scores", "Score against distance, to the context"),
            panel("base-bound", "B(Δ): how far do similar tokens still score higher?"),
            panel("base-bound-min", "The smallest base for a context length"),
        ],
        controls: "models head_dim theta",
        read: |get, n, s| s.models = super::models::ModelsState::read(get, n),
        write: |s, out| s.models.write(out),
    },
];

/// The registered view named `name` (`view=` in the URL).
pub fn view_named(name: &str) -> Option<&'static ViewSpec> {
    VIEWS.iter().find(|v| v.name == name)
}

/// The view that owns panel `id` (panel IDs are unique across views).
pub fn view_of_panel(id: &str) -> Option<&'static ViewSpec> {
    VIEWS.iter().find(|v| v.panels.iter().any(|p| p.id == id))
}

/// The heading of panel `id`.
pub fn panel_title(id: &str) -> Option<&'static str> {
    VIEWS
        .iter()
        .flat_map(|v| v.panels.iter())
        .find(|p| p.id == id)
        .map(|p| p.title)
}

// `View::spec` indexes the registry by the variant's discriminant: each entry must sit at its
// variant's index, and every variant (the last one is `Models`) must have an entry.
const _: () = {
    assert!(VIEWS.len() == View::Models as usize + 1);
    let mut i = 0;
    while i < VIEWS.len() {
        assert!(VIEWS[i].view as usize == i);
        i += 1;
    }
};

impl View {
    /// This view's registry entry.
    pub fn spec(self) -> &'static ViewSpec {
        &VIEWS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// This view's control named `name`, if it has one.
    pub fn control(self, name: &str) -> Option<&'static str> {
        self.spec().controls.split(' ').find(|c| *c == name)
    }

    /// Whether `id` is one of this view's panels.
    pub fn has_panel(self, id: &str) -> bool {
        self.spec().panels.iter().any(|p| p.id == id)
    }
}
