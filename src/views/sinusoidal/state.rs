//! The state of the Sinusoidal view (`view=sinusoidal`), the default one.

use crate::encoding::sinusoidal::{pair_count, Layout};
use crate::state::params::{read_choice, read_index_list, FloatSpec, IntSpec, Notices};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
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
};

pub const SEQ_LEN: IntSpec = IntSpec {
    name: "seq_len",
    label: "Sequence length",
    min: 1,
    max: 8192,
    default: 128,
    unit: "positions",
};
pub const D_MODEL: IntSpec = IntSpec {
    name: "d_model",
    label: "d_model",
    min: 1,
    max: 4096,
    default: 128,
    unit: "dimensions",
};
pub const BASE: FloatSpec = FloatSpec {
    name: "base",
    label: "Base",
    min: 2.0,
    max: 1e7,
    default: 10000.0,
    log: true,
    unit: "",
};
pub const P0: IntSpec = IntSpec {
    name: "p0",
    label: "Reference position p0",
    min: 0,
    max: 8191,
    default: 32,
    unit: "",
};
pub const OFFSET: IntSpec = IntSpec {
    name: "offset",
    label: "Offset Δ",
    min: 0,
    max: 8191,
    default: 4,
    unit: "positions",
};
/// At most this many curves in `pe-curves`.
pub const MAX_CURVES: usize = 12;

/// Controls of the Sinusoidal view.
#[derive(Clone, Debug, PartialEq)]
pub struct SinusoidalState {
    pub seq_len: usize,
    pub d_model: usize,
    pub base: f64,
    pub layout: Layout,
    /// Columns drawn in `pe-curves`; `None` means the default spread for the width.
    pub cols: Option<Vec<usize>>,
    /// Reference position of the similarity curve.
    pub p0: usize,
    /// The offset `k` of the relative-offset panel.
    pub offset: usize,
    /// Colour map of the PE heatmap.
    pub cmap: HeatmapColours,
}

/// Colour map of the PE heatmap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HeatmapColours {
    /// Blue–white–red, zero in the middle.
    #[default]
    Diverging,
    /// Dark purple to yellow (as in the Illustrated Transformer).
    Viridis,
}

impl HeatmapColours {
    pub fn name(self) -> &'static str {
        match self {
            HeatmapColours::Diverging => "diverging",
            HeatmapColours::Viridis => "viridis",
        }
    }

    pub fn map(self) -> crate::render::colormap::ColorMap {
        match self {
            HeatmapColours::Diverging => crate::render::colormap::ColorMap::diverging(),
            HeatmapColours::Viridis => crate::render::colormap::ColorMap::sequential(),
        }
    }
}

impl Default for SinusoidalState {
    fn default() -> Self {
        SinusoidalState {
            seq_len: SEQ_LEN.default as usize,
            d_model: D_MODEL.default as usize,
            base: BASE.default,
            layout: Layout::Interleaved,
            cols: None,
            p0: P0.default as usize,
            offset: OFFSET.default as usize,
            cmap: HeatmapColours::Diverging,
        }
    }
}

/// The lesson's first picture of the columns: one fast pair as sin and cos (same frequency,
/// 90° apart: columns 4 and 5 when the width allows), and the sine of one slow pair.
pub fn default_columns(d_model: usize, layout: Layout) -> Vec<usize> {
    use crate::encoding::sinusoidal::column_of;
    use crate::encoding::ColumnKind::{Cos, Sin};
    let pairs = pair_count(d_model);
    let fast = 2.min(pairs.saturating_sub(1));
    let slow = (pairs / 4).max(fast + 1);
    let mut out = Vec::new();
    for (i, kind) in [(fast, Sin), (fast, Cos), (slow, Sin)] {
        if let Some(col) = column_of(i, kind, d_model, layout) {
            if !out.contains(&col) {
                out.push(col);
            }
        }
    }
    out
}

impl SinusoidalState {
    /// The columns to draw: the chosen ones that exist at this width, or the default spread.
    pub fn curve_columns(&self) -> Vec<usize> {
        match &self.cols {
            Some(cols) => cols.iter().copied().filter(|&c| c < self.d_model).collect(),
            None => default_columns(self.d_model, self.layout),
        }
    }

    /// Adds `col` to the curves, or removes it if drawn (at most [`MAX_CURVES`]).
    pub fn toggle_column(&mut self, col: usize) {
        let mut cols = self.curve_columns();
        if let Some(at) = cols.iter().position(|&c| c == col) {
            cols.remove(at);
        } else if cols.len() < MAX_CURVES {
            cols.push(col);
        }
        self.cols = Some(cols);
    }

    /// `p0` within the current sequence.
    pub fn p0_in_range(&self) -> usize {
        self.p0.min(self.seq_len.saturating_sub(1))
    }

    pub(crate) fn read(
        get: &dyn Fn(&str) -> Option<String>,
        notices: &mut Notices,
    ) -> SinusoidalState {
        let seq_len = SEQ_LEN.read(get("seq_len").as_deref(), notices) as usize;
        let d_model = D_MODEL.read(get("d_model").as_deref(), notices) as usize;
        let base = BASE.read(get("base").as_deref(), notices);
        let layout = read_choice(
            "layout",
            get("layout").as_deref(),
            &[
                ("interleaved", Layout::Interleaved),
                ("concat", Layout::Concat),
            ],
            Layout::Interleaved,
            notices,
        );
        let cols =
            get("cols").map(|raw| read_index_list("cols", &raw, d_model - 1, MAX_CURVES, notices));
        let p0_spec = IntSpec {
            max: seq_len as i64 - 1,
            ..P0
        };
        let p0 = p0_spec.read(get("p0").as_deref(), notices) as usize;
        let offset = OFFSET.read(get("offset").as_deref(), notices) as usize;
        let cmap = read_choice(
            "cmap",
            get("cmap").as_deref(),
            &[
                ("diverging", HeatmapColours::Diverging),
                ("viridis", HeatmapColours::Viridis),
            ],
            HeatmapColours::Diverging,
            notices,
        );
        SinusoidalState {
            cmap,
            seq_len,
            d_model,
            base,
            layout,
            cols,
            p0,
            offset,
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("seq_len", self.seq_len.to_string()));
        out.push(("d_model", self.d_model.to_string()));
        out.push(("base", format!("{}", self.base)));
        out.push(("layout", self.layout.name().to_string()));
        if let Some(cols) = &self.cols {
            let list: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
            out.push(("cols", list.join(",")));
        }
        out.push(("p0", self.p0.to_string()));
        out.push(("offset", self.offset.to_string()));
        out.push(("cmap", self.cmap.name().to_string()));
    }
}
