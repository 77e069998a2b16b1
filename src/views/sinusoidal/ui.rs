//! The Sinusoidal view (`view=sinusoidal`): its controls, and the panels in the first download,
//! the PE matrix and its columns as waves. The panels below the fold are in their own chunk:
//! the spectrum and position similarity (`below.rs`), the relative-offset property and the
//! pair-index table (`offset.rs`).

use std::sync::atomic::AtomicBool;

use leptos::prelude::*;

use super::shared::{Shared, PanelExports, column_label, column_name};

use crate::encoding::sinusoidal::{column_of, column_role, ColumnKind};
use crate::encoding::{Layout, Sinusoid};
use crate::export::csv;
use crate::format::{sig, sinusoidal_cell, sinusoidal_definition};
use crate::render::charts::{LineChart, Series, SeriesStyle};
use crate::render::raster::{AxisSamples, SampledGrid};
use super::state::{BASE, D_MODEL, SEQ_LEN, SinusoidalState};
use crate::ui::context::{select, select_state, AppCtx, Computed};
use crate::ui::export::{self, NPY_THRESHOLD_CELLS};
use crate::ui::lazy::{loading, on_demand, BelowTheFold};
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, Mark, MarkStyle, Painter, Panel, StateChoice,
    StateRange,
};
use crate::views::common::{
    heatmap_frame, highlight_marks_mapped, line_series, paint_lines,
};

on_demand!(sinusoidal_below, super::below::BelowPanels);

/// The panels below the fold on the full page, in their own chunk (`below.rs`).
const BELOW: [&str; 4] = ["pe-spectrum", "pe-similarity", "pe-offset", "pe-index"];

/// Whether the panels below the fold have been fetched.
static FETCHED: AtomicBool = AtomicBool::new(false);

/// The Sinusoidal view.
#[component]
pub fn SinusoidalView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let sinusoidal_state = select_state(state, |s| s.sinusoidal.clone());
    let seq_len = select(sinusoidal_state, |s| s.seq_len);
    let d_model = select(sinusoidal_state, |s| s.d_model);
    let base = select(sinusoidal_state, |s| s.base);
    let layout = select(sinusoidal_state, |s| s.layout);
    let pe = Computed::fresh(move || Sinusoid::new(d_model.get(), base.get(), layout.get()));
    let show_controls = state.with_untracked(|s| s.show_controls);
    let focus_col = RwSignal::new(None::<usize>);

    view! {
        <div class="view view-sinusoidal">
            <div class="view-intro">
                <p>{crate::captions::SINUSOIDAL_INTRO}</p>
                <div class="formula" inner_html=sinusoidal_definition()></div>
                {move || (layout.get() == Layout::Concat).then_some(view! {
                    <p>"In the concatenated layout these are columns i and ⌈d_model/2⌉ + i, not 2i and 2i + 1."</p>
                })}
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
                <HeatmapPanel pe=pe seq_len=seq_len sinusoidal_state=sinusoidal_state focus_col=focus_col/>
                <CurvesPanel pe=pe seq_len=seq_len sinusoidal_state=sinusoidal_state/>
                {provide_context(Shared { pe, seq_len, sinusoidal_state, focus_col })}
                <BelowTheFold panels=&BELOW fetched=&FETCHED load=|| loading!(sinusoidal_below)/>
            </div>
        </div>
    }
}

#[component]
fn HeatmapPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sinusoidal_state: Memo<SinusoidalState>,
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
    let colours = select(sinusoidal_state, |s| s.cmap);
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
        let s = sinusoidal_state.get_untracked();
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
            if colours.get() == super::state::HeatmapColours::Viridis { "dark purple" } else { "blue" },
            if colours.get() == super::state::HeatmapColours::Viridis { "yellow" } else { "red" },
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
            <PanelExports panel=ID canvas=canvas sinusoidal_state=sinusoidal_state csv=csv_cb npy=Some((big, npy_cb))/>
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
    sinusoidal_state: Memo<SinusoidalState>,
) -> impl IntoView {
    const ID: &str = "pe-curves";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let heatmap_shown = panel_visible("pe-heatmap");
    let canvas = ChartRef::new();
    let cols = select(sinusoidal_state, |s| s.curve_columns());
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
                            column_label(pe, *col),
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
            x_label: "position pos".into(),
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
                .map(|c| {
                    let (i, kind) = pe.role(c);
                    format!("column {c} ({}, pair {i}): {}", kind.name(), sig(pe.value(pos, c), 6))
                })
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
            "Line chart of PE columns {} against position pos.",
            crate::format::words_list(&cols.get())
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
            <PanelExports panel=ID canvas=canvas sinusoidal_state=sinusoidal_state csv=csv_cb/>
        </Panel>
    }
    .into_any()
}
