//! The relative-bias view (`view=bias`): ALiBi slopes and bias matrix, T5 buckets.

use leptos::prelude::*;

use crate::encoding::bias::{alibi_bias, alibi_slopes, t5_bucket};
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{fit_y_range, LineChart, SeriesStyle};
use crate::render::colormap::ColorMap;
use crate::render::raster::{AxisSamples, SampledGrid};
use super::state::{BiasState, BIAS_LEN, BUCKETS, HEAD, HEADS, MAX_DISTANCE};
use crate::ui::context::{select_state, AppCtx, Computed};
use crate::ui::export;
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, Painter, Panel, StateChoice, StateRange,
};
use crate::views::common::{copier, heatmap_frame, line_series, paint_lines, ExportButtons};

/// The relative-bias view.
#[component]
pub fn BiasView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let bias_state = select_state(state, |s| s.bias.clone());
    let slopes = Computed::new(move || alibi_slopes(bias_state.with(|b| b.heads)));
    let show_controls = state.with_untracked(|s| s.show_controls);
    view! {
        <div class="view view-bias">
            <div class="view-intro">
                <p>{crate::captions::BIAS_INTRO}</p>
            </div>
            {show_controls.then(|| view! {
                <div class="controls" role="group" aria-label="Relative bias controls">
                    <StateRange spec=HEADS get=|s| s.bias.heads as f64 put=|s, v| s.bias.heads = v as usize/>
                    <StateRange spec=HEAD get=|s| s.bias.head_in_range() as f64
                        max=|s| s.bias.heads as f64 - 1.0 put=|s, v| s.bias.head = v as usize/>
                    <StateRange spec=BIAS_LEN get=|s| s.bias.seq_len as f64 put=|s, v| s.bias.seq_len = v as usize/>
                    <StateRange spec=BUCKETS get=|s| s.bias.buckets as f64 put=|s, v| s.bias.buckets = v as u32/>
                    <StateRange spec=MAX_DISTANCE get=|s| s.bias.max_distance as f64 put=|s, v| s.bias.max_distance = v as u32/>
                    <StateChoice name="bidirectional" label="T5 attention" options=vec![("true", "Bidirectional (encoder)"), ("false", "Causal (decoder)")]
                        get=|s| if s.bias.bidirectional { "true" } else { "false" } put=|s, v| s.bias.bidirectional = v == "true"/>
                </div>
            })}
            <div class="panels">
                <SlopesPanel bias_state=bias_state slopes=slopes/>
                <AlibiBiasPanel bias_state=bias_state slopes=slopes/>
                <T5Panel bias_state=bias_state/>
            </div>
        </div>
    }
}

#[component]
fn SlopesPanel(bias_state: Memo<BiasState>, slopes: Computed<Vec<f64>>) -> impl IntoView {
    const ID: &str = "alibi-slopes";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        slopes.with(|s| {
            let series = vec![line_series(
                "slope_h".into(),
                0,
                s,
                |h| h as f64,
                px,
                SeriesStyle::Bars,
            )];
            let (_, hi) = fit_y_range(&series, false);
            let chart = LineChart {
                x_label: "head h".into(),
                y_label: "slope".into(),
                x_range: (-0.6, s.len() as f64 - 0.4),
                y_range: (0.0, hi),
                y_log: false,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = slopes.with_untracked(|s| {
            let h: Vec<f64> = (0..s.len()).map(|h| h as f64).collect();
            csv::columns_csv(&["head", "slope"], &[&h, s])
        });
        export::csv_text(
            text,
            &format!("alibi-slopes_heads{}.csv", bias_state.with_untracked(|b| b.heads)),
        );
    });
    let snippet = copier(move || {
        format!(
            "import numpy as np\n\ndef slopes(n):\n    c = 2 ** int(np.floor(np.log2(n)))\n    s = 2.0 ** (-8.0 / c * np.arange(1, c + 1))\n    if c < n:\n        extra = 2.0 ** (-4.0 / c * np.arange(1, 2 * c + 1))\n        s = np.concatenate([s, extra[0::2][: n - c]])\n    return s\n\nprint(slopes({}))\n",
            bias_state.with_untracked(|b| b.heads)
        )
    });
    let note = move || {
        let n = bias_state.with(|b| b.heads);
        if n.is_power_of_two() {
            if n == 1 {
                "1 head: slope_h = 2^(−8(h+1)/1) = 2^(−8) for h = 0.".to_string()
            } else {
                format!(
                    "{n} heads: slope_h = 2^(−8(h+1)/{n}) for h = 0 … {}, a geometric sequence.",
                    n - 1
                )
            }
        } else {
            let c = 1usize << (usize::BITS - 1 - n.leading_zeros());
            // Press et al.'s get_slopes: the 2c-head sequence's slopes 0, 2, 4, …, the first
            // n − c of them, appended.
            let rest = match n - c {
                1 => "the last one is the first slope".to_string(),
                r => format!("the last {r} are the 1st, 3rd, 5th, … slopes (the first {r} of those)"),
            };
            format!("{n} is not a power of two: the first {c} slopes come from the {c}-head sequence; {rest} of the {}-head one.", 2 * c)
        }
    };
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Bar chart of the ALiBi slopes of {}.", crate::format::count(bias_state.with(|b| b.heads), "head", "heads"))) paint=paint height=240.0/>
            <p class="readout">{note}</p>
            <p class="about">{crate::captions::ALIBI_SLOPES}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || format!("{ID}_heads{}", bias_state.with(|b| b.heads))) csv=csv_cb snippet=snippet/>
        </Panel>
    }
    .into_any()
}

#[component]
fn AlibiBiasPanel(bias_state: Memo<BiasState>, slopes: Computed<Vec<f64>>) -> impl IntoView {
    const ID: &str = "alibi-bias";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let slope = Computed::new(move || {
        let h = bias_state.with(|b| b.head_in_range());
        slopes.with(|s| s.get(h).copied().unwrap_or(0.0))
    });
    let paint = move |p: &Painter| {
        let n = bias_state.with(|b| b.seq_len);
        let m = slope.get();
        let cmap = ColorMap::sequential();
        let lo = -m * (n.saturating_sub(1)) as f64;
        let frame = heatmap_frame(
            &cmap,
            n,
            n,
            "key position n",
            "query position m",
            lo,
            0.0,
            "bias",
        );
        let rect = p.heatmap_frame(&frame)?;
        let grid = SampledGrid::compute(
            AxisSamples::centred(n, p.raster(rect).1),
            AxisSamples::centred(n, p.raster(rect).0),
            |i, j| alibi_bias(m, i, j).unwrap_or(f64::NAN),
        );
        p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, lo, 0.0));
        Some(rect)
    };
    let csv_cb = Callback::new(move |_| {
        let n = bias_state.with_untracked(|b| b.seq_len);
        let m = slope.get_untracked();
        let names: Vec<String> = (0..n).map(|j| format!("key{j}")).collect();
        // Masked entries (j > i) are written as -inf, as attention masks are.
        export::csv_matrix(
            &names,
            n,
            |i, row| {
                for (j, cell) in row.iter_mut().enumerate() {
                    *cell = alibi_bias(m, i, j).unwrap_or(f64::NEG_INFINITY);
                }
            },
            &format!(
                "alibi-bias_head{}.csv",
                bias_state.with_untracked(|b| b.head_in_range())
            ),
        );
    });
    let snippet = copier(move || {
        format!(
            "import numpy as np\n\nslope, seq_len = {}, {}\nm, n = np.arange(seq_len)[:, None], np.arange(seq_len)[None, :]  # query, key\nbias = np.where(n <= m, -slope * (m - n), -np.inf)\n",
            slope.get_untracked(),
            bias_state.with_untracked(|b| b.seq_len)
        )
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Causal ALiBi bias matrix of head {} over {}; grey cells are masked.", bias_state.with(|b| b.head_in_range()), crate::format::count(bias_state.with(|b| b.seq_len), "position", "positions"))) paint=paint height=320.0/>
            <p class="readout">{move || format!("Head {}: slope_h = {}. Grey: future keys, masked in causal attention.", bias_state.with(|b| b.head_in_range()), sig(slope.get(), 6))}</p>
            <p class="about">{crate::captions::ALIBI_BIAS}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || format!("{ID}_head{}", bias_state.with(|b| b.head_in_range()))) csv=csv_cb snippet=snippet/>
        </Panel>
    }
    .into_any()
}

#[component]
fn T5Panel(bias_state: Memo<BiasState>) -> impl IntoView {
    const ID: &str = "t5-buckets";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    // Relative positions −R…R with R = 2·max_distance (at least 64).
    let data = Computed::fresh(move || {
        bias_state.with(|b| {
            let r = (2 * b.max_distance as i64).max(64);
            let rel: Vec<f64> = (-r..=r).map(|x| x as f64).collect();
            let bucket: Vec<f64> = (-r..=r)
                .map(|x| t5_bucket(x, b.bidirectional, b.buckets, b.max_distance) as f64)
                .collect();
            (rel, bucket)
        })
    });
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        data.with(|(rel, bucket)| {
            let series = vec![line_series(
                "bucket".into(),
                0,
                bucket,
                |n| rel[n],
                px,
                SeriesStyle::Line,
            )];
            let chart = LineChart::fitted(
                "relative position n − m (key − query)",
                "bucket",
                (rel[0], rel[rel.len() - 1]),
                series,
                false,
            );
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = data.with_untracked(|(rel, bucket)| {
            csv::columns_csv(&["relative_position", "bucket"], &[rel, bucket])
        });
        export::csv_text(text, "t5-buckets.csv");
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("T5 bucket against relative position, {} buckets, max_distance {}.", bias_state.with(|b| b.buckets), bias_state.with(|b| b.max_distance))) paint=paint height=280.0/>
            <p class="about">{crate::captions::T5_BUCKETS}</p>
            <p class="readout">{move || bias_state.with(BiasState::t5_counts)}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || format!("{ID}_{}_{}", bias_state.with(|b| b.buckets), bias_state.with(|b| b.max_distance))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}
