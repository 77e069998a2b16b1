//! Two Sinusoidal panels below the fold (in the chunk of `below.rs`): relative offsets are
//! rotations (`pe-offset`), and the pair index i against the columns (`pe-index`).

use leptos::prelude::*;

use crate::encoding::similarity::OffsetMap;
use crate::encoding::sinusoidal::{column_of, column_role, ColumnKind};
use crate::encoding::{Layout, Sinusoid};
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{LineChart, SeriesStyle};
use crate::render::colormap::ColorMap;
use crate::render::raster::{AxisSamples, SampledGrid};
use super::state::{OFFSET, SinusoidalState};
use crate::ui::context::{select, select_state, AppCtx, Computed};
use crate::ui::export::{self};
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, ExportBar, Painter, Panel,
    StateRange,
};
use crate::views::common::{
    heatmap_frame, line_series, paint_lines, DataTable,
};

use super::shared::PanelExports;

/// Positions sampled for the offset residual (bounded work at any size).
const RESIDUAL_POSITIONS: usize = 24;
/// Columns of M(k) drawn: the top-left corner, where its 2×2 blocks can be seen.
const OFFSET_ZOOM: usize = 16;
/// Rows of the pair-index table shown before eliding the middle.
const INDEX_ROWS_SHOWN: usize = 32;

#[component]
pub(super) fn OffsetPanel(
    pe: Computed<Sinusoid>,
    seq_len: Memo<usize>,
    sinusoidal_state: Memo<SinusoidalState>,
) -> impl IntoView {
    const ID: &str = "pe-offset";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let matrix_canvas = ChartRef::new();
    let row_canvas = ChartRef::new();
    let k = select(sinusoidal_state, |s| s.offset);
    let p0 = select(sinusoidal_state, |s| s.p0_in_range());
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
                    format!("M_delta{k}_times_pe_{p0}"),
                ],
                &[&x, there, mapped],
            )
        });
        export::csv_text(text, &format!("pe-offset_delta{k}_p0_{p0}.csv"));
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
                &format!("pe-offset_matrix_delta{k}.csv"),
            );
        })
    });
    view! {
        <Panel id=ID>
            {show_controls.then(|| view! {
                <StateRange spec=OFFSET get=|s| s.sinusoidal.offset as f64 put=|s, v| s.sinusoidal.offset = v as usize/>
            })}
            <ChartCanvas chart=matrix_canvas label=Signal::derive(move || {
                let (d, layout) = pe.with(|pe| (pe.d_model, pe.layout));
                let zoom = if d > OFFSET_ZOOM { format!(" Shown: its first {OFFSET_ZOOM} of {d} columns and rows (the Matrix CSV holds all).") } else { String::new() };
                let shape = match layout {
                    Layout::Interleaved => "Block-diagonal matrix",
                    Layout::Concat => "Matrix (pair i couples column i with column ⌈d_model/2⌉ + i in this layout)",
                };
                let apart = if layout == Layout::Concat && d > OFFSET_ZOOM && d.div_ceil(2) >= OFFSET_ZOOM { " (The couplings lie outside this corner.)" } else { "" };
                format!("{shape} M({}) that maps PE[pos] to PE[pos+{}].{zoom}{apart}", k.get(), k.get())
            }) paint=paint_matrix height=300.0/>
            <ChartCanvas chart=row_canvas label=Signal::derive(move || format!("PE[{}] beside M({})·PE[{}].", p0.get() + k.get(), k.get(), p0.get())) paint=paint_rows height=220.0/>
            <p class="residual" data-residual=residual_value>{residual_text}</p>
            <p class="about">
                {crate::captions::PE_OFFSET}
                {move || odd().then_some(crate::captions::PE_OFFSET_ODD)}
            </p>
            <PanelExports panel=ID canvas=row_canvas sinusoidal_state=sinusoidal_state csv=csv_cb/>
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
pub(super) fn IndexPanel(
    pe: Computed<Sinusoid>,
    sinusoidal_state: Memo<SinusoidalState>,
    focus_col: RwSignal<Option<usize>>,
) -> impl IntoView {
    const ID: &str = "pe-index";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let highlight = select_state(state, |s| s.highlight.cols.clone());
    // The column the loop shows: the one under the pointer in the heatmap, else the first
    // highlighted one, else column 5 (odd, so that `col - 1` shows). Highlights name columns
    // of the interleaved layout (`hl_cols`, as the heatmap's outlines read them): here they are
    // moved to where this layout puts them.
    let loop_col = Memo::new(move |_| {
        let (d, layout) = pe.with(|pe| (pe.d_model, pe.layout));
        let shown = |c: usize| {
            let (i, kind) = column_role(c, d, Layout::Interleaved);
            column_of(i, kind, d, layout)
        };
        focus_col
            .get()
            .or_else(|| highlight.with(|h| h.first().filter(|&&c| c < d).and_then(|&c| shown(c))))
            .filter(|&c| c < d)
            .unwrap_or(5.min(d.saturating_sub(1)))
    });
    let canvas = ChartRef::new();
    let p0 = select(sinusoidal_state, |s| s.p0_in_range());
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
                    .map(|&c| column_role(c, pe.d_model, Layout::Interleaved).0)
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
        let s = sinusoidal_state.get();
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
    // The source material's second form: a loop over columns, with the col ↔ i rule of the
    // layout shown (Vaswani et al.'s is the interleaved one).
    let column_loop = move || {
        let s = sinusoidal_state.get();
        let p0 = s.p0_in_range();
        pe.with(|pe| {
            let col = loop_col.get().min(pe.d_model.saturating_sub(1));
            let (i, kind) = pe.role(col);
            let angle = p0 as f64 * pe.omegas[i];
            let (value, f) = match kind {
                ColumnKind::Sin => (angle.sin(), "sin"),
                ColumnKind::Cos => (angle.cos(), "cos"),
            };
            let half = pe.omegas.len();
            let (body, rule, exponent) = match pe.layout {
                Layout::Interleaved => (
                    format!(
                        "    for col in range(d_model):\n        if col % 2 == 0:\n            PE[pos][col] = math.sin(pos / {b} ** (col / d_model))\n        else:\n            PE[pos][col] = math.cos(pos / {b} ** ((col - 1) / d_model))",
                        b = sig(s.base, 6)
                    ),
                    match kind {
                        ColumnKind::Cos => format!("col = {col} is odd: cos, col - 1 = {}, pair i = (col - 1) / 2 = {i}", 2 * i),
                        ColumnKind::Sin => format!("col = {col} is even: sin, pair i = col / 2 = {i}"),
                    },
                    format!("{}", 2 * i),
                ),
                Layout::Concat => (
                    format!(
                        "    half = (d_model + 1) // 2\n    for col in range(d_model):\n        if col < half:\n            PE[pos][col] = math.sin(pos / {b} ** (2 * col / d_model))\n        else:\n            PE[pos][col] = math.cos(pos / {b} ** (2 * (col - half) / d_model))",
                        b = sig(s.base, 6)
                    ),
                    match kind {
                        ColumnKind::Cos => format!("col = {col} ≥ half = {half}: cos, pair i = col - half = {i}"),
                        ColumnKind::Sin => format!("col = {col} < half = {half}: sin, pair i = col = {i}"),
                    },
                    format!("2 * {i}"),
                ),
            };
            format!(
                "import math\nPE = [[0.0] * d_model for _ in range(seq_len)]\nfor pos in range(seq_len):\n{body}\n\n# {rule}\n# live values at pos = {p0}:\n#   {p0} / {base} ** ({exponent} / {d}) = {}\n#   PE[{p0}][{col}] = {f}({}) = {}\n",
                sig(angle, 8),
                sig(angle, 8),
                sig(value, 8),
                base = sig(s.base, 6),
                d = pe.d_model,
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
                    .filter_map(|k| column_of(i, k, pe.d_model, Layout::Interleaved))
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
                    <figcaption>{move || match sinusoidal_state.with(|s| s.layout) {
                        Layout::Interleaved => "Loop over columns col (col = 2i → i = col/2; col = 2i+1 → i = (col−1)/2)",
                        Layout::Concat => "Loop over columns col (col < ⌈d_model/2⌉ → i = col; otherwise i = col − ⌈d_model/2⌉)",
                    }}</figcaption>
                    <pre class="code column-loop" tabindex="0" aria-label="Loop over columns, with live values"><code>{column_loop}</code></pre>
                </figure>
            </div>
            <p class="about">
                {crate::captions::PE_INDEX_PAIRS}
                {if panel_visible("pe-heatmap") {
                    "Hover a column of the heatmap or click a row of the table: the column loop shows that column's live values, and its pair's row is marked. "
                } else {
                    "Click a row of the table: the column loop shows that pair's cos column (sin for a lone last pair), and its row is marked. "
                }}
                {crate::captions::PE_INDEX_LAYOUTS}
            </p>
            <PanelExports panel=ID canvas=canvas sinusoidal_state=sinusoidal_state csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

