//! The learned view (`view=learned`): a real trained position table (all-MiniLM-L6-v2), a
//! random initialisation, or a local file; heatmap, similarity, PCA trajectory, offsets, and
//! the wall past the table's last position.

use std::sync::Arc;

use leptos::prelude::*;

use super::shared::{LearnedShared, stem};

use super::geometry::{OffsetPanel, PcaPanel};
use plotters::prelude::*;

use crate::encoding::learned::{CosineMatrix, Table, MAX_FILE_BYTES};
use crate::render::charts::PlotRect;
use crate::render::colormap::ColorMap;
use crate::render::raster::{AxisSamples, SampledGrid};
use super::state::{LearnedState, TableSource, LEARNED_LEN, LEARNED_SEED, TABLE_COLS, TABLE_ROWS};
use crate::ui::context::{select, select_state, AppCtx, Computed, Keyed};
use crate::ui::export::{self, NPY_THRESHOLD_CELLS};
use crate::ui::tables::{Loaded, TableStore};
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, Choice, Painter, Panel, StateRange,
    CONTROL,
};
use crate::views::common::{
    heatmap_frame, highlight_marks, ExportButtons,
};

/// Rows of a random table drawn for the paints made while a slider moves (a heatmap shows
/// fewer rows than this while it moves).
const QUICK_ROWS: usize = 256;

/// The learned view.
#[component]
pub fn LearnedView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let store = use_context::<TableStore>().expect("TableStore");
    let state = ctx.state;
    let learned_state = select_state(state, |s| s.learned.clone());
    let source = select(learned_state, |l| l.table);
    // The MiniLM table is fetched the first time it is chosen: a resource (its value is kept
    // in the store, for the Compare view too).
    let minilm = LocalResource::new(move || {
        let wanted = source.get() == TableSource::MiniLm;
        async move {
            if wanted {
                store.fetch_minilm().await;
            }
        }
    });
    // The table and everything computed from it follow this key: computed when a chart
    // that shows them paints, never merely because a slider moved (a new random table and
    // its statistics cost tens of milliseconds each).
    let table_key = Computed::new(move || match source.get() {
        TableSource::MiniLm => {
            minilm.track();
            [
                0,
                store
                    .minilm
                    .with(|t| t.as_ref().map_or(0, |t| u64::from(t.id) + 1)),
                0,
                0,
            ]
        }
        TableSource::Random => learned_state.with(|l| [1, l.rows as u64, l.cols as u64, l.seed]),
        TableSource::File => [
            2,
            store
                .file
                .with(|t| t.as_ref().map_or(0, |t| u64::from(t.id) + 1)),
            0,
            0,
        ],
    });
    let table = Keyed::new(table_key, move |k: &[u64; 4]| match k[0] {
        0 => store.minilm.get_untracked(),
        1 => {
            let (rows, cols, seed) = (k[1] as usize, k[2] as usize, k[3]);
            Some(Loaded {
                id: (seed as u32) ^ ((rows as u32) << 12) ^ ((cols as u32) << 24) ^ 0x8000_0000,
                label: format!("random N(0, 0.02²), {rows} × {cols}, seed {seed}"),
                table: Arc::new(Table::random(rows, cols, seed)),
            })
        }
        _ => store.file.get_untracked(),
    });
    let shape = Keyed::new(table_key, move |k: &[u64; 4]| match k[0] {
        1 => (k[1] as usize, k[2] as usize),
        _ => table.with_untracked(|t| t.as_ref().map_or((0, 0), |t| (t.table.rows, t.table.cols))),
    });
    let sample = Keyed::new(table_key, move |k: &[u64; 4]| {
        (k[0] == 1).then(|| {
            let (rows, cols, seed) = (k[1] as usize, k[2] as usize, k[3]);
            let stride = rows.div_ceil(QUICK_ROWS).max(1);
            let sampled = Table::random_rows(rows, cols, seed, stride);
            let range = range_of(&sampled);
            (Arc::new(sampled), stride, range)
        })
    });
    let seq_len = select(learned_state, |l| l.seq_len);
    let range = Keyed::new(table_key, move |_| {
        table.with_untracked(|t| t.as_ref().map_or(1.0, |t| range_of(&t.table)))
    });
    let cos = Keyed::new(table_key, move |_| {
        table.with_untracked(|t| t.as_ref().map(|t| CosineMatrix::new(&t.table)))
    });
    let cos_quick = Keyed::new(table_key, move |_| {
        match sample.with_untracked(Clone::clone) {
            Some((rows, stride, _)) => Some(CosineMatrix::quick_from_rows(&rows, stride)),
            None => table.with_untracked(|t| t.as_ref().map(|t| CosineMatrix::quick(&t.table))),
        }
    });
    let shared = LearnedShared {
        learned_state,
        table_key,
        table,
        shape,
        sample,
        seq_len,
        range,
        cos,
        cos_quick,
    };
    let set = move |f: &dyn Fn(&mut LearnedState)| state.update(|s| f(&mut s.learned));
    let show_controls = state.with_untracked(|s| s.show_controls);
    let on_source = Callback::new(move |v: String| {
        let src = TableSource::OPTIONS
            .iter()
            .find(|(n, _)| *n == v)
            .map_or(TableSource::MiniLm, |(_, s)| *s);
        set(&|s| s.table = src)
    });
    let status = move || {
        match source.get() {
        TableSource::MiniLm => {
            let s = store.minilm_status.get();
            if s == "loaded" { String::new() } else { s }
        }
        TableSource::File if store.file.with(Option::is_none) => "Choose a .npy (float32 or float16) or .csv file below: it is read here and never sent anywhere.".into(),
        _ => String::new(),
    }
    };
    let wall = move || {
        let rows = shape.get().0;
        (rows > 0 && seq_len.get() > rows).then(|| format!(
            "The wall: this table has embeddings for positions 0–{} only. Positions {} to {} have no embedding at all — a learned absolute table cannot represent a longer text.",
            rows - 1, rows, seq_len.get() - 1
        ))
    };
    view! {
        <div class="view view-learned">
            <style>{LEARNED_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::LEARNED_INTRO}</p>
            </div>
            {show_controls.then(|| view! {
                <div class="controls" role="group" aria-label="Learned table controls">
                    <Choice name="table" label="Table" options=vec![("minilm", "all-MiniLM-L6-v2 (trained)"), ("random", "Random init N(0, 0.02²)"), ("file", "Local file")]
                        value=Signal::derive(move || source.get().name().to_string()) on_change=on_source/>
                    <StateRange spec=LEARNED_LEN get=|s| s.learned.seq_len as f64 put=|s, v| s.learned.seq_len = v as usize/>
                    <Show when=move || source.get() == TableSource::Random>
                        <StateRange spec=LEARNED_SEED get=|s| s.learned.seed as f64 put=|s, v| s.learned.seed = v as u64/>
                        <StateRange spec=TABLE_ROWS get=|s| s.learned.rows as f64 put=|s, v| s.learned.rows = v as usize/>
                        <StateRange spec=TABLE_COLS get=|s| s.learned.cols as f64 put=|s, v| s.learned.cols = v as usize/>
                    </Show>
                    <Show when=move || source.get() == TableSource::File>
                        <FilePicker store=store/>
                    </Show>
                </div>
            })}
            <p class="status" role="status">{status}</p>
            <p class="wall-notice" role="status">{wall}</p>
            <div class="panels">
                <HeatmapPanel shared=shared/>
                <SimilarityPanel shared=shared/>
                <PcaPanel shared=shared/>
                <OffsetPanel shared=shared/>
            </div>
            <Show when=move || source.get() == TableSource::MiniLm>
                <p class="provenance">
                    "Table: position embeddings (embeddings.position_embeddings.weight) of sentence-transformers/all-MiniLM-L6-v2, converted to float16. "
                    "Licensed under the Apache License 2.0; see "
                    <a href="./MINILM-NOTICE.txt">"the notice"</a>
                    ". Fetched from this site only when this view opens."
                </p>
            </Show>
        </div>
    }
}

/// Reads a local file; a malformed one shows an error and the last table stays.
#[component]
fn FilePicker(store: TableStore) -> impl IntoView {
    let message = RwSignal::new(None::<String>);
    let on_change = move |ev: leptos::ev::Event| {
        let Some(file) = crate::ui::dom::picked_file(&ev) else {
            return;
        };
        let name = file.name();
        if file.size() > MAX_FILE_BYTES as f64 {
            message.set(Some(format!(
                "{name} is {:.1} MB; at most {} MB is read. The last table stays.",
                file.size() / 1048576.0,
                MAX_FILE_BYTES >> 20
            )));
            return;
        }
        message.set(Some(format!("Reading {name}…")));
        wasm_bindgen_futures::spawn_local(async move {
            let bytes = match crate::ui::dom::file_bytes(&file).await {
                Some(bytes) => bytes,
                None => {
                    message.set(Some(format!(
                        "{name} could not be read. The last table stays."
                    )));
                    return;
                }
            };
            let parsed = if name.to_ascii_lowercase().ends_with(".csv") {
                std::str::from_utf8(&bytes)
                    .map_err(|_| "the CSV is not UTF-8 text.".to_string())
                    .and_then(Table::from_csv)
            } else {
                Table::from_npy(&bytes)
            };
            match parsed {
                Ok(table) => {
                    let id = store.id();
                    message.set(Some(format!(
                        "{name}: {} positions × {} dims.",
                        table.rows, table.cols
                    )));
                    store.file.set(Some(Loaded {
                        id,
                        label: name,
                        table: Arc::new(table),
                    }));
                }
                Err(e) => message.set(Some(format!(
                    "{name} was not used: {e} The last table stays."
                ))),
            }
        });
    };
    let class = control_class("file", CONTROL);
    view! {
        <div class=class data-control="file">
            <label for="ctl-file">"Position table (.npy float32/float16, or .csv)"</label>
            <input id="ctl-file" type="file" accept=".npy,.csv,text/csv" on:change=on_change/>
            <p class="control-msg" role="status">{move || message.get()}</p>
        </div>
    }
}

#[component]
fn HeatmapPanel(shared: LearnedShared) -> impl IntoView {
    const ID: &str = "learned-heatmap";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let paint = move |p: &Painter| {
        let n = shared.seq_len.get();
        let cmap = ColorMap::diverging();
        let draw = |t: &Table, stride: usize, rows: usize, r: f64| {
            let frame = heatmap_frame(&cmap, t.cols, n, "dimension", "position", -r, r, "value");
            let rect = p.heatmap_frame(&frame)?;
            let grid = SampledGrid::compute(
                AxisSamples::centred(n, p.raster(rect).1),
                AxisSamples::centred(t.cols, p.raster(rect).0),
                |pos, col| {
                    if pos < rows {
                        t.get((pos / stride).min(t.rows - 1), col) as f64
                    } else {
                        f64::NAN
                    }
                },
            );
            p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, -r, r));
            draw_wall(p, rect, rows, n);
            Some(rect)
        };
        // A new random table while a slider moves: its sampled rows only, when drawing
        // the whole table would not fit in the frame.
        if shared.table_key.get()[0] == 1 && !shared.table.ready() {
            let (rows, cols) = shared.shape.get();
            if p.quick_for(draw_work(rows, cols)) {
                if let Some((sampled, stride, range)) = shared.sample.get() {
                    return draw(&sampled, stride, rows, range);
                }
            }
        }
        let r = shared.range.get();
        shared.table.with(|t| {
            let t = &t.as_ref()?.table;
            draw(t, 1, t.rows, r)
        })
    };
    let fill = move |pos: usize, row: &mut [f64]| {
        shared.table.with_untracked(|t| {
            if let Some(t) = t {
                for (c, cell) in row.iter_mut().enumerate() {
                    *cell = t.table.get(pos, c) as f64;
                }
            }
        })
    };
    let shown_rows = move || {
        shared.table
            .with_untracked(|t| t.as_ref().map_or(0, |t| t.table.rows))
            .min(shared.seq_len.get_untracked())
    };
    let csv_cb = Callback::new(move |_| {
        let cols = shared
            .table
            .with_untracked(|t| t.as_ref().map_or(0, |t| t.table.cols));
        let names: Vec<String> = (0..cols).map(|c| format!("dim{c}")).collect();
        export::csv_matrix(&names, shown_rows(), fill, &format!("{}.csv", stem(&shared, ID)));
    });
    let big = Signal::derive(move || {
        let (rows, cols) = shared.shape.get();
        rows * cols > NPY_THRESHOLD_CELLS
    });
    let npy_cb = Callback::new(move |_| {
        let cols = shared
            .table
            .with_untracked(|t| t.as_ref().map_or(0, |t| t.table.cols));
        export::npy_matrix(shown_rows(), cols, fill, &format!("{}.npy", stem(&shared, ID)));
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || {
                let (rows, n) = (shared.shape.get().0, shared.seq_len.get());
                if rows == 0 {
                    "Heatmap of the learned position table: no table is loaded yet.".to_string()
                } else if n > rows {
                    format!("Heatmap of the learned position table over positions 0 to {}: the table has rows for 0 to {} only.", n - 1, rows.saturating_sub(1))
                } else {
                    format!("Heatmap of the learned position table, positions 0 to {}.", n.saturating_sub(1))
                }
            }) paint=paint height=340.0
                marks=highlight_marks(move || (shared.shape.get().1, shared.seq_len.get()))/>
            <p class="about">
                {move || match shared.learned_state.with(|l| l.table) {
                    TableSource::Random => crate::captions::LEARNED_HEATMAP_RANDOM,
                    TableSource::File => crate::captions::LEARNED_HEATMAP_FILE,
                    TableSource::MiniLm => crate::captions::LEARNED_HEATMAP_TRAINED,
                }}
                // About MiniLM's own table: not said of a random or loaded one.
                {move || (shared.learned_state.with(|l| l.table) == TableSource::MiniLm).then_some(crate::captions::LEARNED_HEATMAP_MINILM)}
            </p>
            <ExportButtons chart=canvas stem=Signal::derive(move || stem(&shared, ID)) csv=csv_cb npy=Some((big, npy_cb))/>
        </Panel>
    }
    .into_any()
}

/// The work of drawing a new random `rows × cols` table, in the cosine matrix's unit (a
/// multiply-add). An estimate: a ziggurat sample (one random integer, one multiply, a
/// conversion) is taken to cost about four; only the prediction of a paint's cost uses it.
fn draw_work(rows: usize, cols: usize) -> f64 {
    const PER_CELL: f64 = 4.0;
    PER_CELL * (rows * cols) as f64
}

/// The heatmap's colour range: `3·rms` of the table's values.
fn range_of(t: &Table) -> f64 {
    let d = &t.data;
    let ms = d.iter().map(|v| (*v as f64).powi(2)).sum::<f64>() / d.len().max(1) as f64;
    (3.0 * ms.sqrt()).max(1e-12)
}

/// A line and label where the table ends, when the sequence goes past it.
fn draw_wall(p: &Painter, rect: PlotRect, rows: usize, n: usize) {
    if n <= rows {
        return;
    }
    let Some(area) = p.area() else { return };
    let y = rect.y0 + (rows as f64 / n as f64 * rect.height() as f64) as i32;
    let red = RGBColor(200, 30, 30);
    let _ = area.draw(&PathElement::new(
        vec![(rect.x0, y), (rect.x1, y)],
        red.stroke_width(p.theme.px(3.0)),
    ));
    let font = p.theme.font(14.0).color(&red);
    let _ = area.draw(&Text::new(
        format!("no embedding past position {}", rows - 1),
        (rect.x0 + p.theme.px(8.0) as i32, y + p.theme.px(6.0) as i32),
        font,
    ));
}

#[component]
fn SimilarityPanel(shared: LearnedShared) -> impl IntoView {
    const ID: &str = "learned-similarity";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let cos = shared.cos;
    let paint = move |p: &Painter| {
        let n = shared.seq_len.get();
        let rows = Some(shared.shape.get().0).filter(|&r| r > 0)?;
        // While a slider moves, a matrix of fewer positions when the full one is not
        // computed yet (a new table costs it tens of milliseconds); the full one once the
        // controls rest.
        let quick = if cos.ready() {
            p.quick()
        } else {
            let (_, cols) = shared.shape.get();
            let drawn = if shared.table.ready() {
                0.0
            } else {
                draw_work(rows, cols)
            };
            p.quick_for(drawn + CosineMatrix::work(rows, cols))
        };
        let source = if quick { shared.cos_quick } else { cos };
        source.with(|c| {
            let c = c.as_ref()?;
            let cmap = ColorMap::diverging();
            let frame = heatmap_frame(&cmap, n, n, "position", "position", -1.0, 1.0, "cosine");
            let rect = p.heatmap_frame(&frame)?;
            let k = c.positions.len();
            let stride = c.positions.get(1).copied().unwrap_or(1).max(1);
            let grid = SampledGrid::compute(
                AxisSamples::centred(n, p.raster(rect).1),
                AxisSamples::centred(n, p.raster(rect).0),
                |a, b| {
                    if a >= rows || b >= rows {
                        f64::NAN
                    } else {
                        c.values[(a / stride).min(k - 1) * k + (b / stride).min(k - 1)]
                    }
                },
            );
            p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, -1.0, 1.0));
            Some(rect)
        })
    };
    let csv_cb = Callback::new(move |_| {
        cos.with_untracked(|c| {
            let Some(c) = c else { return };
            let n = c.positions.len();
            let names: Vec<String> = c.positions.iter().map(|p| format!("pos{p}")).collect();
            export::csv_matrix(
                &names,
                n,
                |a, row| row.copy_from_slice(&c.values[a * n..(a + 1) * n]),
                &format!("{}.csv", stem(&shared, ID)),
            );
        })
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "Heatmap of cosine similarity between learned position vectors.".to_string()) paint=paint height=340.0/>
            <p class="about">
                {move || match shared.learned_state.with(|l| l.table) {
                    TableSource::Random => crate::captions::LEARNED_SIMILARITY_RANDOM,
                    TableSource::File => crate::captions::LEARNED_SIMILARITY_FILE,
                    TableSource::MiniLm => crate::captions::LEARNED_SIMILARITY_TRAINED,
                }}
                // About MiniLM's own table: not said of a random or loaded one.
                {move || (shared.learned_state.with(|l| l.table) == TableSource::MiniLm).then_some(crate::captions::LEARNED_SIMILARITY_MINILM)}
            </p>
            <ExportButtons chart=canvas stem=Signal::derive(move || stem(&shared, ID)) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// This view's styles, fetched with its code (the first page does not carry them).
const LEARNED_CSS: &str = r#"
.wall-notice:empty { display: none; }
.wall-notice { background: var(--notice); border: 1px solid var(--notice-border); border-radius: 8px; padding: 8px 12px; font-weight: 600; }
.provenance { color: var(--muted); font-size: 0.85rem; }
"#;
