//! The Sinusoidal view (`view=sinusoidal`): the PE matrix, its columns, spectrum, position
//! similarity, the relative-offset property and the pair-index table.

use std::sync::atomic::{AtomicBool, Ordering};

use leptos::prelude::*;

use crate::encoding::similarity::{OffsetMap, PositionSimilarity};
use crate::encoding::sinusoidal::{column_of, column_role, ColumnKind};
use crate::encoding::{Layout, Sinusoid};
use crate::export::csv;
use crate::format::{sig, sinusoidal_cell, sinusoidal_definition};
use crate::render::charts::{fit_y_range, Band, LineChart, Series, SeriesStyle};
use crate::render::colormap::ColorMap;
use crate::render::envelope::{display_stride, TERMS_PER_FRAME};
use crate::render::raster::{AxisSamples, SampledGrid};
use crate::state::app::{BASE, D_MODEL, OFFSET, P0, SEQ_LEN};
use crate::state::SinusoidalState;
use crate::ui::context::{select, select_state, AppCtx, Computed};
use crate::ui::export::{self, NPY_THRESHOLD_CELLS};
use crate::ui::lazy::{call, on_demand, LoadFailed};
use crate::ui::schedule;
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, ExportBar, Mark, MarkStyle, Painter, Panel, StateChoice,
    StateRange,
};
use crate::views::common::{
    heatmap_frame, highlight_marks_mapped, line_series, paint_lines, reference_line, DataTable,
    ExportButtons,
};

on_demand!(sinusoidal_below, BelowPanels);

/// The panels below the fold, fetched when they near the viewport.
async fn load_below() -> Result<AnyView, LoadFailed> {
    call!(sinusoidal_below)
}

/// Positions sampled for the offset residual (bounded work at any size).
const RESIDUAL_POSITIONS: usize = 24;
/// Columns of M(k) drawn: the top-left corner, where its 2×2 blocks can be seen.
const OFFSET_ZOOM: usize = 16;
/// Rows of the pair-index table shown before eliding the middle.
const INDEX_ROWS_SHOWN: usize = 32;

/// The name of a column for legends and CSV headers: `col4_sin_i2`.
fn column_name(pe: &Sinusoid, col: usize) -> String {
    let (i, kind) = pe.role(col);
    format!("col{col}_{}_i{i}", kind.name())
}

/// The Sinusoidal view.
#[component]
pub fn SinusoidalView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let sv = select_state(state, |s| s.sinusoidal.clone());
    let seq_len = select(sv, |s| s.seq_len);
    let d_model = select(sv, |s| s.d_model);
    let base = select(sv, |s| s.base);
    let layout = select(sv, |s| s.layout);
    let pe = Computed::fresh(move || Sinusoid::new(d_model.get(), base.get(), layout.get()));
    let show_controls = state.with_untracked(|s| s.show_controls);
    let focus_col = RwSignal::new(None::<usize>);

    view! {
        <div class="view view-sinusoidal">
            <div class="view-intro">
                <p>{crate::captions::SINUSOIDAL_INTRO}</p>
                <div class="formula" inner_html=sinusoidal_definition()></div>
            </div>
            {show_controls
                .then(|| {
                    view! {
                        <div class="controls" role="group" aria-label="Sinusoidal encoding controls">
                            <StateRange spec=SEQ_LEN get=|s| s.sinusoidal.seq_len as f64 put=|s, v| s.sinusoidal.seq_len = v as usize/>
                            <StateRange spec=D_MODEL get=|s| s.sinusoidal.d_model as f64 put=|s, v| s.sinusoidal.d_model = v as usize/>
                            <StateRange spec=BASE get=|s| s.sinusoidal.base put=|s, v| s.sinusoidal.base = v/>
                            <StateChoice
                                name="layout"
                                label="Layout"
                                options=vec![("interleaved", "Interleaved (sin, cos, sin, …)"), ("concat", "Concatenated [sin … | cos …]")]
                                get=|s| s.sinusoidal.layout.name()
                                put=|s, v| s.sinusoidal.layout = Layout::from_name(v).unwrap_or_default()
                            />
                        </div>
                    }
                })}
            <div class="panels">
                <HeatmapPanel pe=pe seq_len=seq_len sv=sv focus_col=focus_col/>
                <CurvesPanel pe=pe seq_len=seq_len sv=sv/>
                <Below shared=Shared { pe, seq_len, sv, focus_col }/>
            </div>
        </div>
    }
}

/// What the view's panels share, handed to the panels below the fold by context (a split
/// point takes no arguments).
#[derive(Clone, Copy)]
struct Shared {
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sv: Memo<SinusoidalState>,
    /// The column under the pointer, shared by the heatmap and the column loop of `pe-index`.
    focus_col: RwSignal<Option<usize>>,
}

/// The panels below the fold on the full page.
const BELOW: [&str; 4] = ["pe-spectrum", "pe-similarity", "pe-offset", "pe-index"];

/// The panels below the fold, fetched on demand (their own chunk in release builds): on the
/// full page when they come within 100 px of the viewport, at once when shown alone (an embed
/// or a lesson step) or fetched already. Until then each is a placeholder with its ID and
/// heading, as tall as a panel; `__peLab.pending` counts a fetch under way.
#[component]
fn Below(shared: Shared) -> impl IntoView {
    let shown = BELOW.map(panel_visible);
    if !shown.contains(&true) {
        return ().into_any();
    }
    provide_context(shared);
    let full_page = !shown.contains(&false);
    // Once fetched, the panels are made at once whenever the view is (nothing to wait for).
    let wanted = RwSignal::new(!full_page || FETCHED.load(Ordering::Relaxed));
    let retries = RwSignal::new(0u32);
    // Any placeholder near the viewport fetches them all (a jump to the end of the page shows
    // only the last ones).
    let watch = move |section: NodeRef<leptos::html::Section>| {
        Effect::new(move |_| {
            if let Some(el) = section.get() {
                schedule::on_visibility(&el, Some("100px"), move |near| {
                    if near && !wanted.get_untracked() {
                        wanted.set(true);
                    }
                });
            }
        });
    };
    let placeholders = move |failed: Option<RwSignal<u32>>| {
        BELOW
            .into_iter()
            .zip(shown)
            .filter(|&(_, shown)| shown)
            .map(|(id, _)| {
                let title = crate::state::registry::panel_title(id).unwrap_or(id);
                let status = match failed {
                    Some(retries) => view! {
                        <p class="panel-status" role="alert">
                            "This panel could not be loaded: its code did not arrive. "
                            <button on:click=move |_| retries.update(|n| *n += 1)>"Try again"</button>
                        </p>
                    }
                    .into_any(),
                    None => view! { <p class="panel-status" role="status">"Loading…"</p> }.into_any(),
                };
                let watched = NodeRef::new();
                if full_page && failed.is_none() {
                    watch(watched);
                }
                view! {
                    <section class="panel panel-loading" data-panel=id aria-busy="true" node_ref=watched>
                        <h2>{title}</h2>
                        {status}
                    </section>
                }
            })
            .collect_view()
    };
    view! {
        {move || {
            if !wanted.get() {
                return placeholders(None).into_any();
            }
            retries.track();
            let fetching = Fetching::start();
            view! {
                <Suspense fallback=move || placeholders(None)>
                    {Suspend::new(async move {
                        let loaded = load_below().await;
                        drop(fetching);
                        match loaded {
                            Ok(panels) => {
                                FETCHED.store(true, Ordering::Relaxed);
                                panels
                            }
                            Err(_) => placeholders(Some(retries)).into_any(),
                        }
                    })}
                </Suspense>
            }
            .into_any()
        }}
    }
    .into_any()
}

/// Whether the panels below the fold have been fetched.
static FETCHED: AtomicBool = AtomicBool::new(false);

/// A fetch of the panels below the fold, counted in `__peLab.pending` until it ends or is
/// dropped.
struct Fetching;

impl Fetching {
    fn start() -> Fetching {
        schedule::other_pending(1);
        Fetching
    }
}

impl Drop for Fetching {
    fn drop(&mut self) {
        schedule::other_pending(-1);
    }
}

/// The panels below the fold (see [`Below`]).
#[component]
pub fn BelowPanels() -> impl IntoView {
    let Shared {
        pe,
        seq_len,
        sv,
        focus_col,
    } = use_context::<Shared>().expect("Shared");
    view! {
        <style>{BELOW_CSS}</style>
        <SpectrumPanel pe=pe seq_len=seq_len sv=sv/>
        <SimilarityPanel pe=pe seq_len=seq_len sv=sv/>
        <OffsetPanel pe=pe seq_len=seq_len sv=sv/>
        <IndexPanel pe=pe sv=sv focus_col=focus_col/>
    }
}

/// The export buttons of a Sinusoidal panel.
#[component]
fn PanelExports(
    panel: &'static str,
    canvas: ChartRef,
    sv: Memo<SinusoidalState>,
    csv: Callback<()>,
    #[prop(default = None)] npy: Option<(Signal<bool>, Callback<()>)>,
) -> impl IntoView {
    let stem = Signal::derive(move || {
        sv.with(|s| format!("{panel}_seq{}_d{}_base{}", s.seq_len, s.d_model, s.base))
    });
    // The Python is fetched with the exports' code the first time (the first page does not
    // carry it), then copied.
    let snippet = Callback::new(move |_| {
        crate::ui::lazy::run(crate::ui::lazy::Job::Snippet(sv.get_untracked(), panel));
    });
    view! { <ExportButtons chart=canvas stem=stem csv=csv npy=npy snippet=snippet/> }
}

#[component]
fn HeatmapPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sv: Memo<SinusoidalState>,
    /// The column under the pointer, shared with the column loop of `pe-index`.
    focus_col: RwSignal<Option<usize>>,
) -> impl IntoView {
    const ID: &str = "pe-heatmap";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let curves_shown = panel_visible("pe-curves");
    let canvas = ChartRef::new();
    let hover = RwSignal::new(None::<(usize, usize)>);
    let colours = select(sv, |s| s.cmap);
    let paint = move |p: &Painter| {
        let n = seq_len.get();
        let cmap = colours.get().map();
        pe.with(|pe| {
            let frame = heatmap_frame(
                &cmap,
                pe.d_model,
                n,
                "column (embedding dimension)",
                "position",
                -1.0,
                1.0,
                "PE value",
            );
            let rect = p.heatmap_frame(&frame)?;
            let grid = SampledGrid::waves(
                AxisSamples::centred(n, p.raster(rect).1),
                AxisSamples::centred(pe.d_model, p.raster(rect).0),
                |col| pe.wave(col),
            );
            p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, -1.0, 1.0));
            Some(rect)
        })
    };
    let cell_at = move |(fx, fy): (f64, f64)| {
        let d = pe.with_untracked(|pe| pe.d_model);
        let n = seq_len.get_untracked();
        let pos = ((fy * n as f64) as usize).min(n - 1);
        let col = ((fx * d as f64) as usize).min(d - 1);
        (pos, col)
    };
    let on_hover = Callback::new(move |f: Option<(f64, f64)>| {
        let cell = f.map(cell_at);
        hover.set(cell);
        focus_col.set(cell.map(|(_, col)| col));
    });
    // Outlines name (pair, sin or cos) as interleaved columns, and follow the layout.
    let highlighted = highlight_marks_mapped(
        move || (pe.with(|pe| pe.d_model), seq_len.get()),
        move |col| {
            pe.with(|pe| {
                let (i, kind) = column_role(col, pe.d_model, Layout::Interleaved);
                column_of(i, kind, pe.d_model, pe.layout)
            })
        },
    );
    let marks = Signal::derive(move || {
        let n = seq_len.get().max(1) as f64;
        pe.with(|pe| {
            let d = pe.d_model.max(1) as f64;
            let column = |col: usize, style| Mark {
                x0: col as f64 / d,
                x1: (col + 1) as f64 / d,
                y0: 0.0,
                y1: 1.0,
                style,
            };
            let mut out = highlighted.get();
            if let Some((pos, col)) = hover.get().filter(|&(_, c)| c < pe.d_model) {
                // The hovered column and its partner: the two columns of one pair.
                let (i, kind) = pe.role(col);
                let other = match kind {
                    ColumnKind::Sin => ColumnKind::Cos,
                    ColumnKind::Cos => ColumnKind::Sin,
                };
                out.push(column(col, MarkStyle::Related));
                if let Some(partner) = column_of(i, other, pe.d_model, pe.layout) {
                    out.push(column(partner, MarkStyle::Related));
                }
                out.push(Mark {
                    x0: col as f64 / d,
                    x1: (col + 1) as f64 / d,
                    y0: pos as f64 / n,
                    y1: (pos + 1) as f64 / n,
                    style: MarkStyle::Crosshair,
                });
            }
            out
        })
    });
    let on_click = Callback::new(move |f: (f64, f64)| {
        let (_, col) = cell_at(f);
        ctx.state.update(|s| s.sinusoidal.toggle_column(col));
    });
    let readout = move || {
        let (pos, col) = hover.get()?;
        pe.with(|pe| {
            if col >= pe.d_model {
                return None;
            }
            let (i, kind) = pe.role(col);
            let w = pe.omegas[i];
            let value = pe.value(pos, col);
            Some(view! {
                <dl class="readout-grid">
                    <div><dt>"pos"</dt><dd>{pos}</dd></div>
                    <div><dt>"col"</dt><dd>{col}</dd></div>
                    <div><dt>"pair i"</dt><dd>{i}</dd></div>
                    <div><dt>"function"</dt><dd>{kind.name()}</dd></div>
                    <div><dt>"ω_i"</dt><dd>{format!("{} rad/pos", sig(w, 5))}</dd></div>
                    <div><dt>"wavelength"</dt><dd>{format!("{} positions", sig(pe.wavelength(i), 5))}</dd></div>
                    <div><dt>"value"</dt><dd>{sig(value, 8)}</dd></div>
                </dl>
                <div class="formula" inner_html=sinusoidal_cell(pos, col, i, kind.name(), pe.base, pe.d_model, value)></div>
            })
        })
    };
    let csv_cb = Callback::new(move |_| {
        let n = seq_len.get_untracked();
        let s = sv.get_untracked();
        pe.with_untracked(|pe| {
            let names: Vec<String> = (0..pe.d_model).map(|c| column_name(pe, c)).collect();
            export::csv_matrix(
                &names,
                n,
                |pos, row| pe.fill_row(pos, row),
                &format!("pe-heatmap_seq{}_d{}_base{}.csv", n, pe.d_model, s.base),
            );
        })
    });
    let big =
        Signal::derive(move || seq_len.get() * pe.with(|pe| pe.d_model) > NPY_THRESHOLD_CELLS);
    let npy_cb = Callback::new(move |_| {
        let n = seq_len.get_untracked();
        pe.with_untracked(|pe| {
            export::npy_matrix(
                n,
                pe.d_model,
                |pos, row| pe.fill_row(pos, row),
                &format!("pe-heatmap_seq{}_d{}_base{}.npy", n, pe.d_model, pe.base),
            );
        })
    });
    let label = Signal::derive(move || {
        format!(
            "Heatmap of the sinusoidal encoding: {} positions down, {} columns across, values from −1 ({}) to +1 ({}).",
            seq_len.get(),
            pe.with(|pe| pe.d_model),
            if colours.get() == crate::state::app::HeatmapColours::Viridis { "dark purple" } else { "blue" },
            if colours.get() == crate::state::app::HeatmapColours::Viridis { "yellow" } else { "red" },
        )
    });
    // Once the controls rest (see the curves' sentence).
    let note =
        crate::ui::schedule::at_rest(move || sampled_note(seq_len.get(), pe.with(|pe| pe.d_model)));
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=label paint=paint on_hover=on_hover on_click=on_click marks=marks/>
            <div class="readout" aria-live="off">
                {move || readout().map(|v| v.into_any()).unwrap_or_else(|| view! { <p class="hint">{if curves_shown { "Hover a cell for its numbers; click a column to add its curve below." } else { "Hover a cell for its numbers." }}</p> }.into_any())}
            </div>
            <p class="about">
                {move || match pe.with(|pe| pe.layout) {
                    Layout::Interleaved => crate::captions::PE_HEATMAP_INTERLEAVED,
                    Layout::Concat => crate::captions::PE_HEATMAP_CONCAT,
                }}
                {note}
            </p>
            <PanelExports panel=ID canvas=canvas sv=sv csv=csv_cb npy=Some((big, npy_cb))/>
        </Panel>
    }
    .into_any()
}

fn sampled_note(rows: usize, cols: usize) -> String {
    if rows * cols > 200_000 {
        format!("At {rows} × {cols} the picture shows one sample per screen pixel; the exports hold every cell.")
    } else {
        String::new()
    }
}

#[component]
fn CurvesPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sv: Memo<SinusoidalState>,
) -> impl IntoView {
    const ID: &str = "pe-curves";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let heatmap_shown = panel_visible("pe-heatmap");
    let canvas = ChartRef::new();
    let cols = select(sv, |s| s.curve_columns());
    let hover_pos = RwSignal::new(None::<usize>);
    let curves = Computed::fresh(move || {
        let n = seq_len.get();
        pe.with(|pe| {
            cols.get()
                .into_iter()
                .map(|col| (col, pe.column(col, n)))
                .collect::<Vec<_>>()
        })
    });
    let paint = move |p: &Painter| {
        let n = seq_len.get();
        let px = p.canvas.width() as usize;
        let series: Vec<Series> = pe.with(|pe| {
            curves.with(|cs| {
                cs.iter()
                    .enumerate()
                    .map(|(k, (col, ys))| {
                        line_series(
                            column_name(pe, *col),
                            k,
                            ys,
                            |x| x as f64,
                            px,
                            SeriesStyle::Line,
                        )
                    })
                    .collect()
            })
        });
        let chart = LineChart {
            x_label: "position".into(),
            y_label: "PE[pos, col]".into(),
            x_range: (0.0, n.saturating_sub(1).max(1) as f64),
            y_range: (-1.15, 1.15),
            y_log: false,
            x_log: false,
            series,
            bands: vec![],
        };
        paint_lines(p, &chart)
    };
    let on_hover = Callback::new(move |f: Option<(f64, f64)>| {
        let n = seq_len.get_untracked();
        hover_pos.set(
            f.map(|(fx, _)| ((fx * (n.saturating_sub(1)) as f64).round() as usize).min(n - 1)),
        );
    });
    let readout = move || {
        let pos = hover_pos.get()?;
        let items = pe.with(|pe| {
            cols.get()
                .into_iter()
                .map(|c| format!("{}: {}", column_name(pe, c), sig(pe.value(pos, c), 6)))
                .collect::<Vec<_>>()
                .join(" · ")
        });
        Some(format!("pos {pos} — {items}"))
    };
    let csv_cb = Callback::new(move |_| {
        let n = seq_len.get_untracked();
        let x: Vec<f64> = (0..n).map(|p| p as f64).collect();
        let text = pe.with_untracked(|pe| {
            curves.with_untracked(|cs| {
                let mut names = vec!["pos".to_string()];
                names.extend(cs.iter().map(|(c, _)| column_name(pe, *c)));
                let mut columns: Vec<&[f64]> = vec![&x];
                columns.extend(cs.iter().map(|(_, ys)| ys.as_slice()));
                csv::columns_csv(&names, &columns)
            })
        });
        export::csv_text(text, &format!("pe-curves_seq{n}.csv"));
    });
    let reset = move |_| ctx.state.update(|s| s.sinusoidal.cols = None);
    let label = Signal::derive(move || {
        format!(
            "Line chart of PE columns {:?} against position.",
            cols.get()
        )
    });
    // A sentence follows the controls once they rest: relaid out on every move it would cost
    // the charts part of their frame.
    let wavelengths = crate::ui::schedule::at_rest(move || {
        pe.with(|pe| {
            let last = pe.omegas.len().saturating_sub(1);
            format!(
                "from 2π ≈ 6.3 positions for the first pair (i = 0) up to 2π·base^({}/{}) ≈ {} positions for the last (i = {last}). ",
                2 * last,
                pe.d_model,
                sig(pe.wavelength(last), 5)
            )
        })
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=label paint=paint on_hover=on_hover height=280.0/>
            <p class="readout">{move || readout().unwrap_or_else(|| "Hover for values.".to_string())}</p>
            <p class="about">
                {crate::captions::PE_CURVES}
                {wavelengths}
                {heatmap_shown.then_some("Click columns in the heatmap to add or remove curves. ")}
                <button class="link" on:click=reset>"Reset to the default columns"</button>
            </p>
            <PanelExports panel=ID canvas=canvas sv=sv csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

#[component]
fn SpectrumPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sv: Memo<SinusoidalState>,
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
                    format!("here λ_i ≥ {quarter}, {rising} of the {} pairs. Shorter waves peak inside the sequence.", pe.omegas.len())
                })}
            </p>
            <PanelExports panel=ID canvas=canvas sv=sv csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

#[component]
fn SimilarityPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sv: Memo<SinusoidalState>,
) -> impl IntoView {
    const ID: &str = "pe-similarity";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let matrix_canvas = ChartRef::new();
    let curve_canvas = ChartRef::new();
    let sim = Computed::fresh(move || pe.with(PositionSimilarity::new));
    let p0 = select(sv, |s| s.p0_in_range());
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
                "position q",
                "position p",
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
                x_label: "position p".into(),
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
        Signal::derive(move || format!("Heatmap of PE·PEᵀ over {} positions.", seq_len.get()));
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
            <PanelExports panel=ID canvas=matrix_canvas sv=sv csv=csv_matrix npy=Some((big, npy_cb))/>
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

#[component]
fn OffsetPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sv: Memo<SinusoidalState>,
) -> impl IntoView {
    const ID: &str = "pe-offset";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let matrix_canvas = ChartRef::new();
    let row_canvas = ChartRef::new();
    let k = select(sv, |s| s.offset);
    let p0 = select(sv, |s| s.p0_in_range());
    // (PE[p0 + k], M(k)·PE[p0]) over columns.
    let rows = Computed::fresh(move || {
        let (k, p0) = (k.get(), p0.get());
        pe.with(|pe| {
            let d = pe.d_model;
            let map = OffsetMap::new(pe, k);
            let mut here = vec![0.0; d];
            let mut there = vec![0.0; d];
            let mut mapped = vec![0.0; d];
            pe.fill_row(p0, &mut here);
            pe.fill_row(p0 + k, &mut there);
            map.apply(&here, &mut mapped);
            (there, mapped)
        })
    });
    let residual = Computed::fresh(move || {
        let (k, n) = (k.get(), seq_len.get());
        let step = n.div_ceil(RESIDUAL_POSITIONS).max(1);
        pe.with(|pe| OffsetMap::new(pe, k).residual(k, (0..n).step_by(step)))
    });
    let paint_matrix = move |p: &Painter| {
        let k = k.get();
        pe.with(|pe| {
            let d = pe.d_model;
            let map = OffsetMap::new(pe, k);
            let cmap = ColorMap::diverging();
            // Zoomed on the top-left corner: at d_model 128 the whole matrix is a thin
            // diagonal; its first eight 2×2 rotation blocks show the structure.
            let shown = d.min(OFFSET_ZOOM);
            let frame = heatmap_frame(
                &cmap,
                shown,
                shown,
                "input column",
                "output column",
                -1.0,
                1.0,
                "M(Δ) entry",
            );
            let rect = p.heatmap_frame(&frame)?;
            let grid = SampledGrid::compute(
                AxisSamples::centred(shown, p.raster(rect).1),
                AxisSamples::centred(shown, p.raster(rect).0),
                |r, c| map.entry(r, c),
            );
            p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, -1.0, 1.0));
            Some(rect)
        })
    };
    let paint_rows = move |p: &Painter| {
        let (k, p0) = (k.get(), p0.get());
        let px = p.canvas.width() as usize;
        rows.with(|(there, mapped)| {
            let d = there.len();
            let points = if d <= 128 {
                SeriesStyle::Points
            } else {
                SeriesStyle::Line
            };
            let series = vec![
                line_series(
                    format!("PE[{}] (computed)", p0 + k),
                    0,
                    there,
                    |x| x as f64,
                    px,
                    SeriesStyle::Line,
                ),
                line_series(
                    format!("M({k})·PE[{p0}], Δ = {k}"),
                    1,
                    mapped,
                    |x| x as f64,
                    px,
                    points,
                ),
            ];
            let chart = LineChart {
                x_label: "column".into(),
                y_label: "value".into(),
                x_range: (0.0, d.saturating_sub(1).max(1) as f64),
                y_range: (-1.15, 1.15),
                y_log: false,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let (k, p0) = (k.get_untracked(), p0.get_untracked());
        let text = rows.with_untracked(|(there, mapped)| {
            let x: Vec<f64> = (0..there.len()).map(|c| c as f64).collect();
            csv::columns_csv(
                &[
                    "col".to_string(),
                    format!("pe_{}", p0 + k),
                    format!("m{k}_times_pe_{p0}"),
                ],
                &[&x, there, mapped],
            )
        });
        export::csv_text(text, &format!("pe-offset_k{k}_p0_{p0}.csv"));
    });
    let odd = move || {
        pe.with(|pe| {
            column_of(pe.omegas.len() - 1, ColumnKind::Cos, pe.d_model, pe.layout).is_none()
        })
    };
    let show_controls = ctx.state.with_untracked(|s| s.show_controls);
    // The residual follows the controls once they rest: computed in a slider's frame (this
    // panel is below the fold), it cost the charts on screen about 2 ms of it.
    let residual_value = crate::ui::schedule::at_rest(move || residual.get().to_string());
    let residual_text = crate::ui::schedule::at_rest(move || {
        format!(
            "Residual, Δ = {}: max |PE[pos + {}] − M({})·PE[pos]| over {} positions spread over 0…{}: {}",
            k.get(),
            k.get(),
            k.get(),
            (0..seq_len.get())
                .step_by(seq_len.get().div_ceil(RESIDUAL_POSITIONS).max(1))
                .count(),
            seq_len.get().saturating_sub(1),
            sig(residual.get(), 3)
        )
    });
    let csv_map = Callback::new(move |_| {
        let k = k.get_untracked();
        pe.with_untracked(|pe| {
            let map = OffsetMap::new(pe, k);
            let names: Vec<String> = (0..pe.d_model).map(|c| format!("in{c}")).collect();
            export::csv_matrix(
                &names,
                pe.d_model,
                |r, row| {
                    for (c, cell) in row.iter_mut().enumerate() {
                        *cell = map.entry(r, c);
                    }
                },
                &format!("pe-offset_matrix_k{k}.csv"),
            );
        })
    });
    view! {
        <Panel id=ID>
            {show_controls.then(|| view! {
                <StateRange spec=OFFSET get=|s| s.sinusoidal.offset as f64 put=|s, v| s.sinusoidal.offset = v as usize/>
            })}
            <ChartCanvas chart=matrix_canvas label=Signal::derive(move || {
                let d = pe.with(|pe| pe.d_model);
                let zoom = if d > OFFSET_ZOOM { format!(" Shown: its first {OFFSET_ZOOM} of {d} columns and rows (the rest continues the diagonal; the Matrix CSV holds all).") } else { String::new() };
                format!("Block-diagonal matrix M({}) that maps PE[pos] to PE[pos+{}].{zoom}", k.get(), k.get())
            }) paint=paint_matrix height=300.0/>
            <ChartCanvas chart=row_canvas label=Signal::derive(move || format!("PE[{}] beside M({})·PE[{}].", p0.get() + k.get(), k.get(), p0.get())) paint=paint_rows height=220.0/>
            <p class="residual" data-residual=residual_value>{residual_text}</p>
            <p class="about">
                {crate::captions::PE_OFFSET}
                {move || odd().then_some(crate::captions::PE_OFFSET_ODD)}
            </p>
            <PanelExports panel=ID canvas=row_canvas sv=sv csv=csv_cb/>
            <DataTable csv=csv_map/>
            <ExportBar>
                <button on:click=move |_| export::png(matrix_canvas, "pe-offset_matrix.png")>"Matrix PNG"</button>
                <button on:click=move |_| export::svg(matrix_canvas, "pe-offset_matrix.svg".into())>"Matrix SVG"</button>
                <button on:click=move |_| csv_map.run(())>"Matrix CSV"</button>
            </ExportBar>
        </Panel>
    }
    .into_any()
}

#[component]
fn IndexPanel(
    pe: Computed<Sinusoid>,
    sv: Memo<SinusoidalState>,
    focus_col: RwSignal<Option<usize>>,
) -> impl IntoView {
    const ID: &str = "pe-index";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let highlight = select_state(state, |s| s.highlight.cols.clone());
    // The column the loop shows: the one under the pointer in the heatmap, else the first
    // highlighted one, else column 5 (odd, so that `col - 1` shows).
    let loop_col = Memo::new(move |_| {
        let d = pe.with(|pe| pe.d_model);
        focus_col
            .get()
            .or_else(|| highlight.with(|h| h.first().copied()))
            .filter(|&c| c < d)
            .unwrap_or(5.min(d.saturating_sub(1)))
    });
    let canvas = ChartRef::new();
    let p0 = select(sv, |s| s.p0_in_range());
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        pe.with(|pe| {
            let d = pe.d_model;
            let style = if d <= 256 {
                SeriesStyle::Points
            } else {
                SeriesStyle::Line
            };
            let mut series = Vec::new();
            for (n, kind) in [ColumnKind::Sin, ColumnKind::Cos].into_iter().enumerate() {
                let cols: Vec<usize> = (0..d).filter(|&c| pe.role(c).1 == kind).collect();
                let ys: Vec<f64> = cols.iter().map(|&c| pe.wavelength(pe.role(c).0)).collect();
                let xs = cols.clone();
                series.push(line_series(
                    format!("{} columns", kind.name()),
                    n,
                    &ys,
                    |m| xs[m] as f64,
                    px,
                    style,
                ));
            }
            let chart = LineChart::fitted(
                "column",
                "wavelength (positions, log)",
                (0.0, d.saturating_sub(1).max(1) as f64),
                series,
                true,
            );
            paint_lines(p, &chart)
        })
    };
    // The table as one HTML string (numbers only, nothing to escape): far less wasm than a
    // typed view per row. Rebuilt once the controls rest, not in a slider's frame.
    let table = crate::ui::schedule::at_rest(move || {
        let p0 = p0.get();
        let focus = loop_col.get();
        pe.with(|pe| {
            let pairs = pe.omegas.len();
            let focus_pair = pe.role(focus).0;
            let hl_pairs: Vec<usize> = highlight.with(|h| {
                h.iter()
                    .filter(|&&c| c < pe.d_model)
                    .map(|&c| pe.role(c).0)
                    .collect()
            });
            let mut html = format!(
                "<table class=\"index-table\"><caption>{pairs} pairs for d_model = {} ({} layout); values at pos = {p0}</caption><thead><tr><th scope=\"col\">i</th><th scope=\"col\">sin col</th><th scope=\"col\">cos col</th><th scope=\"col\">ω_i</th><th scope=\"col\">wavelength</th><th scope=\"col\">sin</th><th scope=\"col\">cos</th></tr></thead><tbody>",
                pe.d_model,
                pe.layout.name()
            );
            let half = INDEX_ROWS_SHOWN / 2;
            for i in 0..pairs {
                if pairs > INDEX_ROWS_SHOWN && i == half {
                    html += &format!(
                        "<tr class=\"elided\"><td colspan=\"7\">… {} more pairs (all are in the CSV) …</td></tr>",
                        pairs - INDEX_ROWS_SHOWN
                    );
                }
                if pairs > INDEX_ROWS_SHOWN && (half..pairs - half).contains(&i) {
                    continue;
                }
                let sin_col = column_of(i, ColumnKind::Sin, pe.d_model, pe.layout);
                let cos_col = column_of(i, ColumnKind::Cos, pe.d_model, pe.layout);
                let col = |c: Option<usize>| c.map_or("—".to_string(), |c| c.to_string());
                let at = |c: Option<usize>| c.map_or("—".to_string(), |c| sig(pe.value(p0, c), 5));
                let marked = i == focus_pair || hl_pairs.contains(&i);
                html += &format!(
                    "<tr data-pair=\"{i}\"{}><td>{i}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    if marked { " class=\"hl\"" } else { "" },
                    col(sin_col),
                    col(cos_col),
                    sig(pe.omegas[i], 5),
                    sig(pe.wavelength(i), 5),
                    at(sin_col),
                    at(cos_col)
                );
            }
            html + "</tbody></table>"
        })
    });
    let code = move || {
        let s = sv.get();
        let pe_cols = match s.layout {
            Layout::Interleaved => ("2 * i", "2 * i + 1"),
            Layout::Concat => ("i", "(d_model + 1) // 2 + i"),
        };
        let p0 = s.p0_in_range();
        let focus = loop_col.get();
        pe.with(|pe| {
            // The pair of the column the column loop shows.
            let i = pe.role(focus).0.min(pe.omegas.len() - 1);
            let angle = p0 as f64 * pe.omegas[i];
            format!(
                "import math\nseq_len, d_model, base = {}, {}, {:?}\nPE = [[0.0] * d_model for _ in range(seq_len)]\nfor pos in range(seq_len):\n    for i in range((d_model + 1) // 2):\n        angle = pos / base ** (2 * i / d_model)\n        PE[pos][{}] = math.sin(angle)\n        if {} < d_model:\n            PE[pos][{}] = math.cos(angle)\n\n# live values at pos = {p0}, i = {i}:\n#   angle = {p0} / {}^({}/{}) = {}\n#   sin(angle) = {}    cos(angle) = {}\n",
                s.seq_len, s.d_model, s.base, pe_cols.0, pe_cols.1, pe_cols.1,
                sig(s.base, 6), 2 * i, s.d_model, sig(angle, 8), sig(angle.sin(), 8), sig(angle.cos(), 8)
            )
        })
    };
    // The source material's second form: a loop over columns, with the col ↔ i rule.
    let column_loop = move || {
        let s = sv.get();
        let p0 = s.p0_in_range();
        let col = loop_col.get();
        pe.with(|pe| {
            let odd = col % 2 == 1;
            let exponent_col = if odd { col - 1 } else { col };
            let i = exponent_col / 2;
            let angle = p0 as f64 / s.base.powf(exponent_col as f64 / s.d_model as f64);
            let value = if odd { angle.cos() } else { angle.sin() };
            let rule = if odd {
                format!("col = {col} is odd: cos, col - 1 = {exponent_col}, pair i = (col - 1) / 2 = {i}")
            } else {
                format!("col = {col} is even: sin, pair i = col / 2 = {i}")
            };
            let layout_note = match pe.layout {
                Layout::Interleaved => String::new(),
                Layout::Concat => "\n# (this loop is the interleaved layout; the view shows the concatenated one)".to_string(),
            };
            format!(
                "import math\nPE = [[0.0] * d_model for _ in range(seq_len)]\nfor pos in range(seq_len):\n    for col in range(d_model):\n        if col % 2 == 0:\n            PE[pos][col] = math.sin(pos / {base} ** (col / d_model))\n        else:\n            PE[pos][col] = math.cos(pos / {base} ** ((col - 1) / d_model))\n\n# {rule}{layout_note}\n# live values at pos = {p0}:\n#   {p0} / {base} ** ({exponent_col} / {d}) = {}\n#   PE[{p0}][{col}] = {}({}) = {}\n",
                sig(angle, 8),
                if odd { "cos" } else { "sin" },
                sig(angle, 8),
                sig(value, 8),
                base = sig(s.base, 6),
                d = s.d_model,
            )
        })
    };
    // A click on a row of the table shows that pair's columns in the loop (and outlines them).
    let on_table_click = move |ev: web_sys::MouseEvent| {
        let pair = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.closest("tr[data-pair]").ok().flatten())
            .and_then(|tr| tr.get_attribute("data-pair"))
            .and_then(|p| p.parse::<usize>().ok());
        if let Some(i) = pair {
            let cols: Vec<usize> = pe.with_untracked(|pe| {
                [ColumnKind::Sin, ColumnKind::Cos]
                    .into_iter()
                    .filter_map(|k| column_of(i, k, pe.d_model, pe.layout))
                    .collect()
            });
            // Cos first when there is one, so that the loop shows `col - 1`.
            let mut ordered = cols.clone();
            ordered.reverse();
            state.update(|s| s.highlight.cols = ordered);
        }
    };
    let csv_cb = Callback::new(move |_| {
        let text = pe.with_untracked(|pe| {
            let pairs = pe.omegas.len();
            let i: Vec<f64> = (0..pairs).map(|i| i as f64).collect();
            let col = |kind| -> Vec<f64> {
                (0..pairs)
                    .map(|i| {
                        column_of(i, kind, pe.d_model, pe.layout).map_or(f64::NAN, |c| c as f64)
                    })
                    .collect()
            };
            let wl: Vec<f64> = (0..pairs).map(|i| pe.wavelength(i)).collect();
            csv::columns_csv(
                &["pair", "sin_col", "cos_col", "omega", "wavelength"],
                &[
                    &i,
                    &col(ColumnKind::Sin),
                    &col(ColumnKind::Cos),
                    &pe.omegas,
                    &wl,
                ],
            )
        });
        export::csv_text(text, "pe-index.csv");
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "Wavelength of every column, sin and cos columns marked.".to_string()) paint=paint height=220.0/>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Pair-index table" inner_html=table on:click=on_table_click></div>
            <div class="loops">
                <figure>
                    <figcaption>"Loop over pairs i"</figcaption>
                    <pre class="code" tabindex="0" aria-label="Loop over pairs, with live values"><code>{code}</code></pre>
                </figure>
                <figure>
                    <figcaption>"Loop over columns col (col = 2i → i = col/2; col = 2i+1 → i = (col−1)/2)"</figcaption>
                    <pre class="code column-loop" tabindex="0" aria-label="Loop over columns, with live values"><code>{column_loop}</code></pre>
                </figure>
            </div>
            <p class="about">
                {crate::captions::PE_INDEX_PAIRS}
                {if panel_visible("pe-heatmap") {
                    "Hover a column of the heatmap or click a row of the table: the column loop shows that column's live values, and its pair's row is marked. "
                } else {
                    "Click a row of the table: the column loop shows that pair's cos column, and its row is marked. "
                }}
                {crate::captions::PE_INDEX_LAYOUTS}
            </p>
            <PanelExports panel=ID canvas=canvas sv=sv csv=csv_cb/>
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
