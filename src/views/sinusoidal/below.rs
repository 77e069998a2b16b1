//! The Sinusoidal panels below the fold, in their own chunk (fetched by `BelowTheFold` as they
//! near the viewport): the spectrum and the position similarity, and (`offset.rs`) the
//! relative-offset property and the pair-index table.

use leptos::prelude::*;

use crate::encoding::similarity::PositionSimilarity;
use crate::encoding::Sinusoid;
use crate::export::csv;
use crate::render::charts::{fit_y_range, Band, LineChart, SeriesStyle};
use crate::render::colormap::ColorMap;
use crate::render::envelope::{display_stride, TERMS_PER_FRAME};
use crate::render::raster::{AxisSamples, SampledGrid};
use super::state::{P0, SinusoidalState};
use crate::ui::context::{select, AppCtx, Computed};
use crate::ui::export::{self, NPY_THRESHOLD_CELLS};
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, ExportBar, Painter, Panel,
    StateRange,
};
use crate::views::common::{
    heatmap_frame, line_series, paint_lines, reference_line, DataTable,
};

use super::offset::{IndexPanel, OffsetPanel};
use super::shared::{PanelExports, Shared};

/// The panels below the fold (see `BelowTheFold`).
#[component]
pub fn BelowPanels() -> impl IntoView {
    let Shared {
        pe,
        seq_len,
        sinusoidal_state,
        focus_col,
    } = use_context::<Shared>().expect("Shared");
    view! {
        <style>{BELOW_CSS}</style>
        <SpectrumPanel pe=pe seq_len=seq_len sinusoidal_state=sinusoidal_state/>
        <SimilarityPanel pe=pe seq_len=seq_len sinusoidal_state=sinusoidal_state/>
        <OffsetPanel pe=pe seq_len=seq_len sinusoidal_state=sinusoidal_state/>
        <IndexPanel pe=pe sinusoidal_state=sinusoidal_state focus_col=focus_col/>
    }
}

#[component]
fn SpectrumPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sinusoidal_state: Memo<SinusoidalState>,
) -> impl IntoView {
    const ID: &str = "pe-spectrum";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let data = Computed::fresh(move || {
        pe.with(|pe| {
            let omega = pe.omegas.clone();
            let wavelength: Vec<f64> = (0..omega.len()).map(|i| pe.wavelength(i)).collect();
            (omega, wavelength)
        })
    });
    let paint = move |p: &Painter| {
        let n = seq_len.get() as f64;
        let px = p.canvas.width() as usize;
        data.with(|(omega, wavelength)| {
            let pairs = omega.len();
            let context = vec![n; pairs];
            let series = vec![
                line_series(
                    "ω_i (rad per position)".into(),
                    0,
                    omega,
                    |i| i as f64,
                    px,
                    SeriesStyle::Line,
                ),
                line_series(
                    "wavelength 2π/ω_i (positions)".into(),
                    1,
                    wavelength,
                    |i| i as f64,
                    px,
                    SeriesStyle::Line,
                ),
                reference_line("sequence length".into(), &context, |i| i as f64, px),
            ];
            let chart = LineChart::fitted(
                "pair index i",
                "value (log scale)",
                (0.0, pairs.saturating_sub(1).max(1) as f64),
                series,
                true,
            );
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = data.with_untracked(|(omega, wavelength)| {
            let i: Vec<f64> = (0..omega.len()).map(|i| i as f64).collect();
            csv::columns_csv(&["pair", "omega", "wavelength"], &[&i, omega, wavelength])
        });
        export::csv_text(text, "pe-spectrum.csv");
    });
    let label = Signal::derive(move || {
        format!(
            "Frequency and wavelength of each of the {} pairs, on a log scale.",
            pe.with(|pe| pe.omegas.len())
        )
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=label paint=paint height=260.0/>
            <p class="about">
                {crate::captions::PE_SPECTRUM}
                {crate::captions::PE_SPECTRUM_RISE}
                {move || pe.with(|pe| {
                    let quarter = 4.0 * seq_len.get().saturating_sub(1) as f64;
                    let rising = (0..pe.omegas.len()).filter(|&i| pe.wavelength(i) >= quarter).count();
                    format!("Here 4·(seq_len − 1) = {quarter}, and {rising} of the {} pairs have λ_i at least that. Shorter waves peak inside the sequence.", pe.omegas.len())
                })}
            </p>
            <PanelExports panel=ID canvas=canvas sinusoidal_state=sinusoidal_state csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

#[component]
fn SimilarityPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sinusoidal_state: Memo<SinusoidalState>,
) -> impl IntoView {
    const ID: &str = "pe-similarity";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let matrix_canvas = ChartRef::new();
    let curve_canvas = ChartRef::new();
    let sim = Computed::fresh(move || pe.with(PositionSimilarity::new));
    let p0 = select(sinusoidal_state, |s| s.p0_in_range());
    // dot(PE[p], PE[q]) minus the lone-column term depends on |p − q| only: one series serves
    // every p0.
    // Drawn from every `stride`-th offset when the full curve would cost too much per frame.
    let relative = Computed::fresh(move || {
        let n = seq_len.get();
        sim.with(|s| {
            let stride = display_stride(n, s.pair_terms(), TERMS_PER_FRAME);
            (stride, s.relative_series(stride, n.div_ceil(stride)))
        })
    });
    // (positions, values): positions whose distance to p0 is a whole number of strides.
    let curve = Computed::fresh(move || {
        let (p0, n) = (p0.get(), seq_len.get());
        sim.with(|s| {
            relative.with(|(stride, g)| {
                (p0 % stride..n)
                    .step_by(*stride)
                    .map(|p| (p as f64, g[p.abs_diff(p0) / stride] + s.lone_term(p0, p)))
                    .unzip::<f64, f64, Vec<f64>, Vec<f64>>()
            })
        })
    });
    // Every offset, for exports.
    let full_relative =
        move || sim.with_untracked(|s| s.relative_series(1, seq_len.get_untracked()));
    let paint_matrix = move |p: &Painter| {
        let n = seq_len.get();
        sim.with(|sim| {
            let bound = sim.self_dot_bound();
            // The dot products span from a little below zero to d/2 on the diagonal: a
            // sequential map over exactly that range uses all of its colours.
            let cmap = ColorMap::sequential();
            // One series of dot products by offset serves the colour range and the picture:
            // sampled at the canvas's resolution (the plot is a little smaller, so at least
            // one sample per pixel).
            let canvas_px =
                (p.canvas.width().min(p.canvas.height()) as usize / p.coarse.max(1)).max(1);
            let stride = n.div_ceil(canvas_px).max(1);
            let g = sim.relative_series(stride, n.div_ceil(stride));
            // An odd width adds a lone sin·sin term in [−1, 1].
            let lone = if sim.has_lone_column() { 1.0 } else { 0.0 };
            let lo = g.iter().copied().fold(bound, f64::min) - lone;
            let frame = heatmap_frame(
                &cmap,
                n,
                n,
                "position pos′",
                "position pos",
                lo,
                bound,
                "PE[pos]·PE[pos′]",
            );
            let rect = p.heatmap_frame(&frame)?;
            let rows = AxisSamples::with_stride(n, stride, p.raster(rect).1);
            let cols = AxisSamples::with_stride(n, stride, p.raster(rect).0);
            let grid = SampledGrid::compute(rows, cols, |r, c| {
                g[r.abs_diff(c) / stride] + sim.lone_term(r, c)
            });
            p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, lo, bound));
            Some(rect)
        })
    };
    let paint_curve = move |p: &Painter| {
        let n = seq_len.get();
        let p0 = p0.get();
        let px = p.canvas.width() as usize;
        curve.with(|(xs, ys)| {
            let series = vec![line_series(
                format!("PE[{p0}]·PE[pos]"),
                0,
                ys,
                |i| xs[i],
                px,
                SeriesStyle::Line,
            )];
            let chart = LineChart {
                x_label: "position pos".into(),
                y_label: "dot product".into(),
                x_range: (0.0, n.saturating_sub(1).max(1) as f64),
                y_range: fit_y_range(&series, false),
                y_log: false,
                x_log: false,
                series,
                bands: vec![Band {
                    x0: p0 as f64 - 0.5,
                    x1: p0 as f64 + 0.5,
                    label: format!("p0 = {p0}"),
                }],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_matrix = Callback::new(move |_| {
        let n = seq_len.get_untracked();
        let g = full_relative();
        sim.with_untracked(|sim| {
            let names: Vec<String> = (0..n).map(|q| format!("q{q}")).collect();
            export::csv_matrix(
                &names,
                n,
                |p, row| {
                    for (q, cell) in row.iter_mut().enumerate() {
                        *cell = g[p.abs_diff(q)] + sim.lone_term(p, q);
                    }
                },
                &format!("pe-similarity_matrix_seq{n}.csv"),
            );
        })
    });
    let csv_curve = Callback::new(move |_| {
        let p0 = p0.get_untracked();
        let g = full_relative();
        let text = sim.with_untracked(|s| {
            let x: Vec<f64> = (0..g.len()).map(|p| p as f64).collect();
            let ys: Vec<f64> = (0..g.len())
                .map(|p| g[p.abs_diff(p0)] + s.lone_term(p0, p))
                .collect();
            csv::columns_csv(&["pos".to_string(), format!("dot_p0_{p0}")], &[&x, &ys])
        });
        export::csv_text(text, &format!("pe-similarity_curve_p0_{p0}.csv"));
    });
    let big = Signal::derive(move || seq_len.get() * seq_len.get() > NPY_THRESHOLD_CELLS);
    let npy_cb = Callback::new(move |_| {
        let n = seq_len.get_untracked();
        let g = full_relative();
        sim.with_untracked(|sim| {
            export::npy_matrix(
                n,
                n,
                |p, row| {
                    for (q, cell) in row.iter_mut().enumerate() {
                        *cell = g[p.abs_diff(q)] + sim.lone_term(p, q);
                    }
                },
                &format!("pe-similarity_matrix_seq{n}.npy"),
            );
        })
    });
    let label_m =
        Signal::derive(move || format!("Heatmap of PE·PEᵀ over {}.", crate::format::count(seq_len.get(), "position", "positions")));
    let label_c =
        Signal::derive(move || format!("Dot product of PE[{}] with every position.", p0.get()));
    let show_controls = ctx.state.with_untracked(|s| s.show_controls);
    view! {
        <Panel id=ID>
            <ChartCanvas chart=matrix_canvas label=label_m paint=paint_matrix height=340.0/>
            {show_controls.then(|| view! {
                <StateRange spec=P0 get=|s| s.sinusoidal.p0_in_range() as f64
                    max=|s| s.sinusoidal.seq_len.saturating_sub(1) as f64 put=|s, v| s.sinusoidal.p0 = v as usize/>
            })}
            <ChartCanvas chart=curve_canvas label=label_c paint=paint_curve height=240.0/>
            <p class="about">{crate::captions::PE_SIMILARITY}</p>
            <PanelExports panel=ID canvas=matrix_canvas sinusoidal_state=sinusoidal_state csv=csv_matrix npy=Some((big, npy_cb))/>
            <DataTable csv=csv_curve/>
            <ExportBar>
                <button on:click=move |_| export::png(curve_canvas, "pe-similarity_curve.png")>"Curve PNG"</button>
                <button on:click=move |_| export::svg(curve_canvas, "pe-similarity_curve.svg".into())>"Curve SVG"</button>
                <button on:click=move |_| csv_curve.run(())>"Curve CSV"</button>
            </ExportBar>
        </Panel>
    }
    .into_any()
}

/// Styles only this chunk's markup uses (the first page does not carry them).
const BELOW_CSS: &str = r#"
.loops { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 12px; }
.loops figure { margin: 0; min-width: 0; }
.loops figcaption { font-weight: 600; font-size: 0.9rem; margin: 8px 0 4px; }
.index-table tr.hl { outline: 3px solid var(--focus); outline-offset: -3px; }
.index-table tbody tr[data-pair] { cursor: pointer; }
.residual { font-variant-numeric: tabular-nums; }
.index-table { border-collapse: collapse; font-size: 0.85rem; font-variant-numeric: tabular-nums; width: 100%; }
.index-table caption { text-align: left; color: var(--muted); padding-bottom: 4px; }
.index-table th, .index-table td { border-bottom: 1px solid var(--border); padding: 2px 8px; text-align: right; }
.index-table tr.elided td { text-align: center; color: var(--muted); }
pre.code { background: var(--code); padding: 8px 12px; border-radius: 6px; overflow-x: auto; font-size: 0.85rem; }
"#;
