//! The RoPE panels on scores: against distance (only m − n matters), the score matrix
//! (Toeplitz), long-term decay, and the pairs' wavelengths against the context.

use leptos::prelude::*;

use crate::encoding::rope::{DecayCurves, ScoreWeights};
use crate::export::csv;
use crate::render::charts::{series_colour, LineChart, SeriesStyle};
use crate::render::colormap::ColorMap;
use crate::render::envelope::{display_stride, display_work, QUICK_TERMS, TERMS_PER_FRAME};
use crate::render::raster::{AxisSamples, SampledGrid};
use super::state::POS;
use crate::ui::context::{select, AppCtx, Computed, Keyed};
use crate::ui::export::{self, NPY_THRESHOLD_CELLS};
use crate::ui::schedule;
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, Painter, Panel, CONTROL,
};
use crate::views::common::{
    copier, heatmap_frame, line_series, paint_lines, reference_line, stride_note,
    ExportButtons,
};
use super::shared::{snippet, stem, RopeShared};

/// Points per overlaid query position in `rope-score-distance`.
const OVERLAY_POINTS: usize = 48;

#[component]
pub(super) fn ScoreDistancePanel(shared: RopeShared) -> impl IntoView {
    const ID: &str = "rope-score-distance";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = ChartRef::new();
    let queries = select(shared.rope_state, |s| s.m.clone());
    // Score at every distance, from the relative form.
    let relative_at = move |budget: usize| {
        let n = shared.max_dist.get_untracked() + 1;
        shared.rope.with_untracked(|r| {
            let stride = display_stride(n, r.inv_freq.len(), budget);
            let series = shared
                .weights
                .with_untracked(|w| r.score_series(w, stride as f64, n.div_ceil(stride)));
            (stride, series)
        })
    };
    // Computed when the chart paints; while a slider moves, from a sixteenth of the terms (`QUICK_TERMS`).
    let key = Computed::new(move || shared.rope_state.get());
    let relative = Keyed::new(key, move |_| relative_at(TERMS_PER_FRAME));
    let relative_quick = Keyed::new(key, move |_| relative_at(QUICK_TERMS));
    // For each query position m, scores from explicitly rotated vectors at a few distances.
    let rotated = Computed::fresh(move || {
        let dmax = shared.max_dist.get();
        let points = OVERLAY_POINTS.min(dmax + 1);
        shared.rope.with(|r| {
            shared.vectors.with(|(q, k)| {
                queries
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(n, pos_m)| {
                        (
                            pos_m,
                            (0..points)
                                .map(|i| {
                                    // Stagger per series so the markers do not hide each other.
                                    let d = ((i as f64
                                        + (n as f64 + 1.0) / (MAX_OVERLAYS_F + 1.0))
                                        * dmax as f64
                                        / points as f64)
                                        .round()
                                        .min(dmax as f64);
                                    (d, r.score(q, k, pos_m as f64, pos_m as f64 - d))
                                })
                                .collect::<Vec<_>>(),
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let paint = move |p: &Painter| {
        let dmax = shared.max_dist.get();
        let px = p.canvas.width() as usize;
        let work = shared
            .rope
            .with(|r| display_work(dmax + 1, r.inv_freq.len(), TERMS_PER_FRAME));
        let relative = if p.quick_for(work) {
            relative_quick
        } else {
            relative
        };
        let mut series = vec![relative.with(|(stride, ys)| {
            line_series(
                "score (relative form, any m)".into(),
                0,
                ys,
                |x| (x * stride) as f64,
                px,
                SeriesStyle::Line,
            )
        })];
        rotated.with(|sets| {
            for (n, (pos_m, pts)) in sets.iter().enumerate() {
                series.push(crate::render::charts::Series {
                    name: format!("m = {pos_m}: R(m)q · R(m − Δ)k"),
                    colour: series_colour(n + 1),
                    columns: pts
                        .iter()
                        .map(|&(x, y)| crate::render::envelope::Column { x, lo: y, hi: y })
                        .collect(),
                    style: SeriesStyle::Points,
                });
            }
        });
        let chart = LineChart::fitted(
            "distance Δ = m − n",
            "score q·k after rotation",
            (0.0, dmax.max(1) as f64),
            series,
            false,
        );
        paint_lines(p, &chart)
    };
    let said = RwSignal::new(String::new());
    let on_queries = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        let mut notes = crate::state::Notices::default();
        let list = crate::state::params::read_index_list(
            "m",
            &raw,
            POS.max as usize,
            super::state::MAX_OVERLAYS,
            &mut notes,
        );
        let kept = if list.is_empty() {
            " The positions shown stay."
        } else {
            ""
        };
        said.set(
            notes
                .items
                .first()
                .map(|n| format!("{}{kept}", n.message))
                .unwrap_or_default(),
        );
        if !list.is_empty() {
            ctx.state.update(|s| s.rope.m = list);
        }
    };
    // Row by row (each score is an explicit rotation, O(head_dim)): the file streams, and the
    // data table evaluates only the rows it shows.
    let csv_cb = Callback::new(move |_| {
        let dmax = shared.max_dist.get_untracked();
        let ms = queries.get_untracked();
        let mut names = vec!["distance".to_string()];
        names.extend(ms.iter().map(|pm| format!("m={pm}")));
        let filename = format!(
            "rope-score-distance_{}.csv",
            shared.rope_state.with_untracked(|s| stem(s, ""))
        );
        shared.rope.with_untracked(|r| {
            shared.vectors.with_untracked(|(q, k)| {
                export::csv_matrix(
                    &names,
                    dmax + 1,
                    |d, row| {
                        row[0] = d as f64;
                        for (cell, &pm) in row[1..].iter_mut().zip(&ms) {
                            *cell = r.score(q, k, pm as f64, pm as f64 - d as f64);
                        }
                    },
                    &filename,
                )
            })
        });
    });
    let queries_text = move || {
        let parts: Vec<String> = queries.get().iter().map(|v| v.to_string()).collect();
        parts.join(",")
    };
    let show_controls = ctx.state.with_untracked(|s| s.show_controls);
    let class = control_class("m", CONTROL);
    view! {
        <Panel id=ID>
            {show_controls.then(|| view! {
                <div class=class data-control="m">
                    <label for="ctl-m">"Query positions m (comma-separated, up to 4)"</label>
                    <input id="ctl-m" type="text" prop:value=queries_text on:change=on_queries/>
                    <p class="control-msg" role="status">{move || said.get()}</p>
                </div>
            })}
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Score against distance up to {}, query positions m = {} overlaid.", shared.max_dist.get(), crate::format::words_list(&queries.get()))) paint=paint height=300.0/>
            <p class="about">{crate::captions::ROPE_SCORE_DISTANCE}</p>
            <p class="sampling-note">{schedule::at_rest(move || stride_note(relative.with(|r| r.0)))}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || shared.rope_state.with(|s| stem(s, ID))) csv=csv_cb
                snippet=copier(move || shared.rope_state.with_untracked(|s| snippet(s, ID)))/>
        </Panel>
    }
    .into_any()
}

const MAX_OVERLAYS_F: f64 = super::state::MAX_OVERLAYS as f64;

#[component]
pub(super) fn ScoreMatrixPanel(shared: RopeShared) -> impl IntoView {
    const ID: &str = "rope-score-matrix";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let paint = move |p: &Painter| {
        let n = shared.max_dist.get() + 1;
        shared.rope.with(|r| {
            shared.weights.with(|w| {
                let cmap = ColorMap::diverging();
                // Draw the frame first with a provisional range to learn the plot size.
                let area = p.area()?;
                let (w_px, h_px) = area.dim_in_pixel();
                let side = (w_px.min(h_px) as usize / p.coarse.max(1)).max(1);
                let stride = n.div_ceil(side).max(1);
                let count = n.div_ceil(stride);
                let forward = r.score_series(w, stride as f64, count);
                let backward = r.score_series(
                    &ScoreWeights {
                        a: w.a.clone(),
                        b: w.b.iter().map(|b| -b).collect(),
                        pass_through: w.pass_through,
                    },
                    stride as f64,
                    count,
                );
                let bound = forward
                    .iter()
                    .chain(&backward)
                    .fold(1e-12f64, |acc, v| acc.max(v.abs()));
                let frame = heatmap_frame(
                    &cmap,
                    n,
                    n,
                    "key position n",
                    "query position m",
                    -bound,
                    bound,
                    "score",
                );
                let rect = p.heatmap_frame(&frame)?;
                let rows = AxisSamples::with_stride(n, stride, p.raster(rect).1);
                let cols = AxisSamples::with_stride(n, stride, p.raster(rect).0);
                let grid = SampledGrid::compute(rows, cols, |mq, nk| {
                    if mq >= nk {
                        forward[(mq - nk) / stride]
                    } else {
                        backward[(nk - mq) / stride]
                    }
                });
                p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, -bound, bound));
                Some(rect)
            })
        })
    };
    let fill = move |mq: usize, row: &mut [f64]| {
        shared.rope.with_untracked(|r| {
            shared.weights.with_untracked(|w| {
                for (nk, cell) in row.iter_mut().enumerate() {
                    *cell = r.relative_score(w, mq as f64 - nk as f64);
                }
            })
        })
    };
    let size = Signal::derive(move || shared.max_dist.get() + 1);
    let csv_cb = Callback::new(move |_| {
        let n = size.get_untracked();
        let names: Vec<String> = (0..n).map(|k| format!("n{k}")).collect();
        export::csv_matrix(&names, n, fill, "rope-score-matrix.csv");
    });
    let big = Signal::derive(move || size.get() * size.get() > NPY_THRESHOLD_CELLS);
    let npy_cb = Callback::new(move |_| {
        let n = size.get_untracked();
        export::npy_matrix(n, n, fill, "rope-score-matrix.npy");
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Heatmap of scores for query and key positions 0 to {}.", shared.max_dist.get())) paint=paint height=340.0/>
            <p class="about">{crate::captions::ROPE_SCORE_MATRIX}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || shared.rope_state.with(|s| stem(s, ID))) csv=csv_cb npy=Some((big, npy_cb))
                snippet=copier(move || shared.rope_state.with_untracked(|s| snippet(s, ID)))/>
        </Panel>
    }
    .into_any()
}

#[component]
pub(super) fn DecayPanel(shared: RopeShared) -> impl IntoView {
    const ID: &str = "rope-decay";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let prefix = StoredValue::new(None::<DecayCurves>);
    // The curves of this RoPE and seed (its random weights computed once, not per move).
    let current = move || {
        let seed = shared.rope_state.with_untracked(|s| s.seed);
        shared.rope.with_untracked(|r| {
            let fresh = prefix.with_value(|c| c.as_ref().is_some_and(|c| c.is_for(r, seed)));
            if !fresh {
                prefix.set_value(Some(DecayCurves::new(r.clone(), seed)));
            }
        });
    };
    let curves_at = move |stride: usize, n: usize| {
        current();
        prefix.with_value(|c| c.as_ref().map(|c| c.strided(stride, n)).unwrap_or_default())
    };
    // The curves at a whole stride: within `budget` terms.
    let curves_within = move |budget: usize| {
        let n = shared.max_dist.get_untracked() + 1;
        let stride = shared
            .rope
            .with_untracked(|r| display_stride(n, 3 * r.inv_freq.len(), budget));
        (stride, curves_at(stride, n))
    };
    let key = Computed::new(move || shared.rope_state.get());
    // On ranges too long for a frame, at a stride; while a slider moves, from a sixteenth of
    // the terms (`QUICK_TERMS`) when the distances the curves lack would cost more.
    let full = Keyed::new(key, move |_| curves_within(TERMS_PER_FRAME));
    let quick = Keyed::new(key, move |_| curves_within(QUICK_TERMS));
    // The stride of a full paint: 1 (every distance) unless the range is too long for a frame.
    let full_stride = move || {
        let n = shared.max_dist.get() + 1;
        shared
            .rope
            .with(|r| display_stride(n, 3 * r.inv_freq.len(), TERMS_PER_FRAME))
    };
    const NAMES: [&str; 3] = [
        "RoFormer's relative bound, mean of |S_i|",
        "score, q = k = (1, …, 1)",
        "average score of 64 random (q, k), zero-mean and independent (expectation 0)",
    ];
    let paint = move |p: &Painter| {
        let n = shared.max_dist.get();
        let px = p.canvas.width() as usize;
        let stride = full_stride();
        let terms = shared.rope.with(|r| 3 * r.inv_freq.len());
        // Every distance is kept once computed (`DecayCurves`): a move of the max distance
        // draws a prefix of them, computing only the distances never reached before. When
        // those would not fit in a frame, the quick curves are drawn, and the rest at rest.
        let lacking = if stride == 1 {
            current();
            prefix.with_value(|c| c.as_ref().map_or(n + 1, |c| c.lacking(n + 1)))
        } else {
            n + 1
        };
        let draw = |stride: usize, cs: [&[f64]; 3]| {
            let series: Vec<_> = cs
                .into_iter()
                .zip(NAMES)
                .enumerate()
                .map(|(k, (ys, name))| {
                    line_series(
                        name.into(),
                        k,
                        ys,
                        |x| (x * stride) as f64,
                        px,
                        SeriesStyle::Line,
                    )
                })
                .collect();
            let chart = LineChart::fitted(
                "distance Δ = m − n",
                "value",
                (0.0, n.max(1) as f64),
                series,
                false,
            );
            paint_lines(p, &chart)
        };
        let work = lacking * terms;
        if stride == 1 && (work <= QUICK_TERMS || !p.quick_for(work as f64)) {
            prefix
                .try_update_value(|c| {
                    let c = c.as_mut()?;
                    c.extend_to(n + 1);
                    draw(1, c.ys.each_ref().map(|y| &y[..=n]))
                })
                .flatten()
        } else if stride > 1 && !p.quick_for(display_work(n + 1, terms, TERMS_PER_FRAME)) {
            full.with(|(stride, cs)| draw(*stride, cs.each_ref().map(|y| &y[..])))
        } else {
            quick.with(|(stride, cs)| draw(*stride, cs.each_ref().map(|y| &y[..])))
        }
    };
    let csv_cb = Callback::new(move |_| {
        let n = shared.max_dist.get_untracked() + 1;
        let text = {
            let cs = curves_at(1, n);
            let x: Vec<f64> = (0..n).map(|d| d as f64).collect();
            csv::columns_csv(
                &["distance", "su_bound", "ones_score", "random_mean_score"],
                &[&x, &cs[0], &cs[1], &cs[2]],
            )
        };
        export::csv_text(text, "rope-decay.csv");
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Three decay curves against distance up to {}.", shared.max_dist.get())) paint=paint height=300.0/>
            <p class="about">{crate::captions::ROPE_DECAY}</p>
            <p class="sampling-note">{schedule::at_rest(move || stride_note(full_stride()))}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || shared.rope_state.with(|s| stem(s, ID))) csv=csv_cb
                snippet=copier(move || shared.rope_state.with_untracked(|s| snippet(s, ID)))/>
        </Panel>
    }
    .into_any()
}

#[component]
pub(super) fn WavelengthPanel(shared: RopeShared) -> impl IntoView {
    const ID: &str = "rope-wavelength";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let data = Computed::fresh(move || {
        shared.rope.with(|r| {
            (
                r.inv_freq.clone(),
                (0..r.inv_freq.len())
                    .map(|j| r.wavelength(j))
                    .collect::<Vec<f64>>(),
            )
        })
    });
    let paint = move |p: &Painter| {
        let ctx_len = shared.max_dist.get() as f64;
        let px = p.canvas.width() as usize;
        data.with(|(inv, wl)| {
            let pairs = inv.len();
            let line = vec![ctx_len.max(1.0); pairs.max(1)];
            let series = vec![
                line_series(
                    "wavelength λ_i = 2π/ω_i (positions)".into(),
                    0,
                    wl,
                    |j| j as f64,
                    px,
                    SeriesStyle::Points,
                ),
                reference_line("max distance".into(), &line, |j| j as f64, px),
            ];
            let chart = LineChart::fitted(
                "pair i",
                "positions (log scale)",
                (0.0, pairs.saturating_sub(1).max(1) as f64),
                series,
                true,
            );
            // The wavelengths are drawn with the frame: a move of the max distance draws its
            // line alone.
            p.lines_over(&chart, 1)
        })
    };
    let beyond = move || {
        let ctx_len = shared.max_dist.get() as f64;
        data.with(|(_, wl)| {
            let n = wl.iter().filter(|w| **w > ctx_len).count();
            format!("{n} of {} pairs have λ_i > the max distance, {}: over that distance they never complete a turn.", wl.len(), shared.max_dist.get())
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = data.with_untracked(|(inv, wl)| {
            let j: Vec<f64> = (0..inv.len()).map(|j| j as f64).collect();
            csv::columns_csv(&["pair", "omega_i", "wavelength"], &[&j, inv, wl])
        });
        export::csv_text(text, "rope-wavelength.csv");
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "Wavelength of each rotary pair on a log scale, with the max distance.".to_string()) paint=paint height=260.0/>
            <p class="readout">{beyond}</p>
            <p class="about">{crate::captions::ROPE_WAVELENGTH}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || shared.rope_state.with(|s| stem(s, ID))) csv=csv_cb
                snippet=copier(move || shared.rope_state.with_untracked(|s| snippet(s, ID)))/>
        </Panel>
    }
    .into_any()
}

