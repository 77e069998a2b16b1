//! The shared chart functions, drawn natively on plotters' SVG backend: axes, tick labels,
//! series, bands, legend and heatmap frames are checked without a browser.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::render::charts::{
    draw_line_chart, draw_line_parts, series_colour, Band, LineChart, LineParts, PlotRect, Series,
    SeriesStyle, Theme,
};
use pe_lab::render::colormap::ColorMap;
use pe_lab::render::envelope::envelope;
use pe_lab::render::heatmap::{draw_heatmap_frame, ColourBar, HeatmapFrame};
use plotters::prelude::*;

const W: u32 = 640;
const H: u32 = 400;

fn svg_of(
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> PlotRect,
) -> (String, PlotRect) {
    let mut out = String::new();
    let rect;
    {
        let area = SVGBackend::with_string(&mut out, (W, H)).into_drawing_area();
        rect = draw(&area);
        area.present().expect("present");
    }
    (out, rect)
}

/// The text of every `<text>` element, in drawing order.
/// The texts from the first that starts with `first` up to (not including) the text `stop`:
/// a wrapped legend name's or axis title's lines, in drawing order.
fn lines_from<'a>(shown: &'a [String], first: &str, stop: &str) -> Vec<&'a String> {
    let at = shown
        .iter()
        .position(|t| t.starts_with(first))
        .unwrap_or_else(|| panic!("no text starting {first:?} in {shown:?}"));
    shown[at..].iter().take_while(|t| *t != stop).collect()
}

fn texts(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        let after = &rest[start..];
        let open_end = after.find('>').expect("text tag closes");
        let close = after.find("</text>").expect("text element ends");
        out.push(after[open_end + 1..close].trim().to_string());
        rest = &after[close..];
    }
    out
}

fn wave(name: &str, n: usize, f: impl Fn(f64) -> f64, style: SeriesStyle) -> Series {
    let ys: Vec<f64> = (0..100).map(|x| f(x as f64)).collect();
    Series {
        name: name.to_string(),
        colour: series_colour(n),
        columns: envelope(&ys, |x| x as f64, 200),
        style,
    }
}

fn chart(series: Vec<Series>, y_log: bool) -> LineChart {
    LineChart::fitted("position pos", "PE[pos, col]", (0.0, 99.0), series, y_log)
}

#[test]
fn line_chart_has_axes_ticks_series_and_legend() {
    let c = chart(
        vec![
            wave("col 4 (sin)", 0, |x| (x / 10.0).sin(), SeriesStyle::Line),
            wave("col 5 (cos)", 1, |x| (x / 10.0).cos(), SeriesStyle::Line),
        ],
        false,
    );
    let (svg, rect) = svg_of(|a| draw_line_chart(a, &c, &Theme::light(1.0)).expect("draws"));
    let t = texts(&svg);
    for label in ["position pos", "PE[pos, col]", "col 4 (sin)", "col 5 (cos)"] {
        assert!(t.iter().any(|s| s == label), "no {label:?} in {t:?}");
    }
    // Integer x ticks across the range, and the y ticks span [−1, 1].
    let numbers: Vec<f64> = t.iter().filter_map(|s| s.parse::<f64>().ok()).collect();
    assert!(
        numbers.contains(&0.0) && numbers.iter().any(|&v| v >= 80.0),
        "{numbers:?}"
    );
    assert!(numbers.iter().any(|&v| v < 0.0) && numbers.iter().any(|&v| (0.0..=1.0).contains(&v)));
    // One polyline per series, in the series' colours.
    for n in 0..2 {
        let RGBColor(r, g, b) = series_colour(n);
        let colour = format!("#{r:02X}{g:02X}{b:02X}");
        assert!(
            svg.matches("<polyline").count() >= 2 && svg.contains(&colour),
            "series {n} colour {colour} missing"
        );
    }
    // The plotting area is inside the canvas and leaves room for the axis labels.
    assert!(rect.x0 > 30 && rect.y1 < H as i32 - 20 && rect.x1 <= W as i32 && rect.y0 >= 0);
}

#[test]
fn log_axis_labels_are_powers_of_ten_and_points_are_circles() {
    let c = chart(
        vec![wave(
            "wavelength",
            0,
            |x| 2f64.powf(x / 5.0),
            SeriesStyle::Points,
        )],
        true,
    );
    let (svg, _) = svg_of(|a| draw_line_chart(a, &c, &Theme::dark(1.0)).expect("draws"));
    let t = texts(&svg);
    assert!(t.iter().any(|s| s == "1e3"), "{t:?}");
    assert!(!t.iter().any(|s| s.contains("e-") && s.starts_with('-')));
    assert!(svg.matches("<circle").count() >= 100);
    // Dark theme: the background is the dark colour.
    assert!(svg.contains("#16181E"));
}

#[test]
fn bands_are_labelled_and_scale_with_the_device_pixel_ratio() {
    let mut c = chart(
        vec![wave("score", 0, |x| x.cos(), SeriesStyle::Line)],
        false,
    );
    c.bands.push(Band {
        x0: 20.0,
        x1: 40.0,
        label: "trained".into(),
    });
    let (svg1, r1) = svg_of(|a| draw_line_chart(a, &c, &Theme::light(1.0)).expect("draws"));
    assert!(texts(&svg1).iter().any(|s| s == "trained"));
    let (_, r2) = svg_of(|a| draw_line_chart(a, &c, &Theme::light(2.0)).expect("draws"));
    // Twice the label room at twice the pixel ratio.
    assert!(r2.x0 > r1.x0 && r2.y1 < r1.y1);
}

#[test]
fn heatmap_frame_labels_integers_and_the_colour_bar() {
    let cmap = ColorMap::diverging();
    let frame = HeatmapFrame {
        x_label: "column col".into(),
        y_label: "position pos".into(),
        n_cols: 8,
        n_rows: 50,
        colour_bar: ColourBar {
            cmap: &cmap,
            lo: -1.0,
            hi: 1.0,
            label: "PE value".into(),
        },
    };
    let (svg, rect) = svg_of(|a| draw_heatmap_frame(a, &frame, &Theme::light(1.0)).expect("draws"));
    let t = texts(&svg);
    for label in ["column col", "position pos", "PE value", "-1", "1"] {
        assert!(t.iter().any(|s| s == label), "no {label:?} in {t:?}");
    }
    // Tick labels are whole numbers within the matrix (rows 0..50, columns 0..8).
    for s in &t {
        if let Ok(v) = s.parse::<f64>() {
            assert!(v.fract() == 0.0 || (-1.0..=1.0).contains(&v), "{s}");
            assert!((-1.0..=50.0).contains(&v), "{s}");
        }
    }
    assert!(!t.iter().any(|s| s == "-0"), "{t:?}");
    // The image area is left of the colour bar, which has its 96 steps.
    assert!(rect.x1 < W as i32 - 60);
    assert!(svg.matches("<rect").count() >= 96);
}

/// The anchor `(x, y)` of the `<text>` element whose text is `label`.
fn text_at(svg: &str, label: &str) -> Option<(f64, f64)> {
    texts_at(svg, label).first().copied()
}

/// The anchors `(x, y)` of every `<text>` element whose text is `label`.
fn texts_at(svg: &str, label: &str) -> Vec<(f64, f64)> {
    let needle = format!(">\n{label}\n</text>");
    let mut out = Vec::new();
    for (end, _) in svg.match_indices(&needle) {
        let Some(start) = svg[..end].rfind("<text") else {
            continue;
        };
        let tag = &svg[start..end];
        let attr = |name: &str| -> Option<f64> {
            let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            tag[at..].split('"').next()?.parse().ok()
        };
        if let (Some(x), Some(y)) = (attr("x"), attr("y")) {
            out.push((x, y));
        }
    }
    out
}

fn legend_chart() -> LineChart {
    chart(
        (0..7)
            .map(|n| {
                wave(
                    &format!("method {n} long name"),
                    n,
                    move |x| (x / (n as f64 + 2.0)).cos(),
                    if n == 3 {
                        SeriesStyle::Dashed
                    } else {
                        SeriesStyle::Line
                    },
                )
            })
            .collect(),
        false,
    )
}

/// Fails when any legend entry's text starts inside the plotting area.
fn assert_legend_outside(svg: &str, rect: PlotRect, names: &[String]) {
    for name in names {
        let (x, y) = text_at(svg, name).unwrap_or_else(|| panic!("no legend entry {name:?}"));
        let inside = x >= rect.x0 as f64
            && x <= rect.x1 as f64
            && y >= rect.y0 as f64
            && y <= rect.y1 as f64;
        assert!(
            !inside,
            "legend entry {name:?} at ({x}, {y}) overlaps the plot {rect:?}"
        );
    }
}

#[test]
fn legends_never_overlap_the_plot_area() {
    let c = legend_chart();
    let names: Vec<String> = c.series.iter().map(|s| s.name.clone()).collect();
    // Wide: a column at the right of the plot.
    let mut out = String::new();
    let rect = {
        let area = SVGBackend::with_string(&mut out, (1200, 400)).into_drawing_area();
        draw_line_chart(&area, &c, &Theme::light(1.0)).expect("draws")
    };
    assert_legend_outside(&out, rect, &names);
    let (x, _) = text_at(&out, &names[0]).unwrap();
    assert!(x > rect.x1 as f64, "wide: legend at the right");
    // Phone width: rows below the plot, and the plot keeps most of the height.
    let mut out = String::new();
    let rect = {
        let area = SVGBackend::with_string(&mut out, (360, 400)).into_drawing_area();
        draw_line_chart(&area, &c, &Theme::light(1.0)).expect("draws")
    };
    assert_legend_outside(&out, rect, &names);
    let (_, y) = text_at(&out, &names[6]).unwrap();
    assert!(y > rect.y1 as f64, "narrow: legend below");
    assert!(rect.height() >= 150, "plot height {}", rect.height());
    // The dashed series is drawn dashed (many short segments, not one polyline).
    assert!(out.matches("<polyline").count() >= 6 + 10);
}

#[test]
fn heatmap_ticks_sit_on_cell_centres() {
    let cmap = ColorMap::diverging();
    for (n_cols, n_rows) in [(8usize, 10usize), (4, 3), (128, 50), (4096, 8192)] {
        let frame = HeatmapFrame {
            x_label: "column".into(),
            y_label: "position".into(),
            n_cols,
            n_rows,
            colour_bar: ColourBar {
                cmap: &cmap,
                lo: -1.0,
                hi: 1.0,
                label: "PE value".into(),
            },
        };
        let (svg, rect) =
            svg_of(|a| draw_heatmap_frame(a, &frame, &Theme::light(1.0)).expect("draws"));
        let cell_w = (rect.x1 - rect.x0) as f64 / n_cols as f64;
        let mut seen = 0;
        for k in 0..n_cols {
            for (x, y) in texts_at(&svg, &k.to_string()) {
                // An x tick label (below the plot) centred on column k's cell.
                if y > rect.y1 as f64 {
                    let centre = rect.x0 as f64 + (k as f64 + 0.5) * cell_w;
                    assert!(
                        (x - centre).abs() <= 2.0 + 0.02 * cell_w,
                        "{n_cols}: label {k} at {x}, cell centre {centre}"
                    );
                    seen += 1;
                }
            }
        }
        assert!(
            seen >= 2.min(n_cols),
            "{n_cols} columns: {seen} tick labels"
        );
        // No label names a column past the last one.
        assert!(texts_at(&svg, &n_cols.to_string())
            .iter()
            .all(|&(_, y)| y <= rect.y1 as f64));
    }
}

#[test]
fn index_axes_label_whole_numbers_only() {
    // Four pairs (d_model 8): the pair axis reads 0, 1, 2, 3 and nothing in between.
    let ys = [1.0, 10.0, 100.0, 1000.0];
    let c = LineChart::fitted(
        "pair index i",
        "wavelength",
        (0.0, 3.0),
        vec![Series {
            name: "wavelength".into(),
            colour: series_colour(0),
            columns: envelope(&ys, |i| i as f64, 200),
            style: SeriesStyle::Points,
        }],
        true,
    );
    let (svg, rect) = svg_of(|a| draw_line_chart(a, &c, &Theme::light(1.0)).expect("draws"));
    let below: Vec<String> = texts(&svg)
        .into_iter()
        .zip(0..)
        .filter(|(t, _)| !t.is_empty() && t.parse::<f64>().is_ok())
        .map(|(t, _)| t)
        .filter(|t| texts_at(&svg, t).iter().any(|&(_, y)| y > rect.y1 as f64))
        .collect();
    assert_eq!(below, ["0", "1", "2", "3"]);
}

/// A legend name longer than a row wraps at spaces onto lines of its own, whole (Firefox's
/// and WebKit's wider text metrics make more names wrap, never cut); only a single word longer
/// than a row is cut with an ellipsis.
#[test]
fn a_legend_name_wider_than_the_chart_wraps_whole() {
    let long =
        "without PE: Δ = 0 for every token (order invisible), a name far too long for a phone";
    let c = chart(
        vec![
            wave(long, 0, |x| x, SeriesStyle::Line),
            wave("short", 1, |x| -x, SeriesStyle::Line),
        ],
        false,
    );
    let mut out = String::new();
    let rect = {
        let area = SVGBackend::with_string(&mut out, (360, 300)).into_drawing_area();
        draw_line_chart(&area, &c, &Theme::light(1.0)).expect("draws")
    };
    let shown = texts(&out);
    let lines = lines_from(&shown, "without PE", "short");
    assert!(lines.len() >= 2, "{shown:?}");
    assert_eq!(
        lines
            .iter()
            .map(|l| l.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        long
    );
    // The lines stack under each other, and the next entry starts below the last.
    let ys: Vec<f64> = lines.iter().map(|l| text_at(&out, l).unwrap().1).collect();
    assert!(ys.windows(2).all(|w| w[1] > w[0]), "{ys:?}");
    assert!(text_at(&out, "short").unwrap().1 > *ys.last().unwrap());
    assert_eq!(rect.cramped.words(), "");
    // One word longer than any row: cut, and the chart says so.
    let word = "a_single_identifier_far_too_long_to_fit_in_any_legend_row_of_this_chart";
    let c = chart(vec![wave(word, 0, |x| x, SeriesStyle::Line)], false);
    let mut out = String::new();
    let rect = {
        let area = SVGBackend::with_string(&mut out, (360, 300)).into_drawing_area();
        draw_line_chart(&area, &c, &Theme::light(1.0)).expect("draws")
    };
    let shown = texts(&out)
        .into_iter()
        .find(|t| t.starts_with("a_single"))
        .expect("entry");
    assert!(shown.ends_with('…') && shown.len() < word.len(), "{shown}");
    assert_eq!(rect.cramped.words(), "legend");
}

/// A chart too small for its text says what it cut (the canvas's `data-cramped`); one with
/// room cuts nothing. A short chart labels fewer y ticks, never overprinting them.
#[test]
fn a_chart_too_small_for_its_text_reports_what_it_cut() {
    let draw = |w: u32, h: u32, names: &[&str]| {
        let series = names
            .iter()
            .enumerate()
            .map(|(n, name)| wave(name, n, |x| 10f64.powf(-x / 20.0), SeriesStyle::Line))
            .collect();
        let mut c = chart(series, true);
        c.y_label = "ω′_i, rad per position (log scale, unscaled and scaled)".into();
        let mut out = String::new();
        let rect = {
            let area = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
            draw_line_chart(&area, &c, &Theme::light(1.0)).expect("draws")
        };
        (out, rect)
    };
    let (_, roomy) = draw(900, 420, &["original", "linear (PI)"]);
    assert_eq!(roomy.cramped.words(), "");
    // 300 × 200: the y title is longer than the axis (a long legend name wraps, whole).
    let long = "sinusoidal: cosine(PE[pos], PE[pos+Δ]), d_model 128";
    let (svg, cramped) = draw(300, 200, &[long, "RoPE: score(Δ)"]);
    assert_eq!(cramped.cramped.words(), "y-title", "{:?}", cramped);
    // Legend rows that would take more than half the chart: some are cut.
    let many: Vec<String> = (0..9).map(|n| format!("method number {n}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert_eq!(draw(300, 200, &many).1.cramped.words(), "legend y-title");
    // The y title wrapped onto three lines, the last cut.
    let shown = texts(&svg);
    let at = shown
        .iter()
        .position(|t| t.starts_with("ω′_i"))
        .expect("y title");
    let lines = &shown[at..at + 3];
    assert!(lines[2].ends_with('…'), "{lines:?}");
    assert!(
        "ω′_i, rad per position (log scale, unscaled and scaled)"
            .starts_with(&lines.join(" ").trim_end_matches('…').trim_end().to_string()),
        "{lines:?}"
    );
    // Taller, the same title wraps whole onto lines beside each other, and nothing is cut.
    let (svg, roomy) = draw(300, 300, &["original"]);
    assert_eq!(roomy.cramped.words(), "", "{:?}", texts(&svg));
    let shown = texts(&svg);
    let lines = lines_from(&shown, "ω′_i", "original");
    assert!(lines.len() == 2, "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .map(|l| l.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        "ω′_i, rad per position (log scale, unscaled and scaled)"
    );
    let xs: Vec<f64> = lines.iter().map(|l| text_at(&svg, l).unwrap().0).collect();
    assert!(
        xs[0] < xs[1] && xs[1] < f64::from(roomy.x0),
        "{xs:?} {roomy:?}"
    );
    // Its y tick labels are at least 12 px apart (one per 24 px of axis, at most 7).
    let mut ys: Vec<f64> = texts(&svg)
        .iter()
        .filter(|t| t.starts_with("1e"))
        .flat_map(|t| texts_at(&svg, t))
        .filter(|(x, _)| *x < f64::from(cramped.x0))
        .map(|(_, y)| y)
        .collect();
    ys.sort_by(f64::total_cmp);
    assert!(ys.len() >= 2, "{ys:?}");
    assert!(ys.windows(2).all(|w| w[1] - w[0] >= 12.0), "{ys:?}");
}

#[test]
fn a_phone_wide_heatmap_keeps_its_tick_labels_apart() {
    let cmap = ColorMap::diverging();
    let frame = HeatmapFrame {
        x_label: "dimension".into(),
        y_label: "position".into(),
        n_cols: 384,
        n_rows: 640,
        colour_bar: ColourBar {
            cmap: &cmap,
            lo: -0.1,
            hi: 0.1,
            label: "value".into(),
        },
    };
    let mut out = String::new();
    let rect = {
        let area = SVGBackend::with_string(&mut out, (310, 300)).into_drawing_area();
        draw_heatmap_frame(&area, &frame, &Theme::light(1.0)).expect("draws")
    };
    let mut xs: Vec<f64> = texts(&out)
        .iter()
        .filter(|t| t.parse::<f64>().is_ok())
        .flat_map(|t| texts_at(&out, t))
        .filter(|&(_, y)| y > rect.y1 as f64 && y < rect.y1 as f64 + 30.0)
        .map(|(x, _)| x)
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    assert!(xs.len() >= 2);
    for w in xs.windows(2) {
        assert!(w[1] - w[0] >= 35.0, "x tick labels {xs:?} run together");
    }
}

/// The SVG's elements, one per line, sorted: what is drawn, whatever the order.
fn elements(svg: &str) -> Vec<String> {
    let mut lines: Vec<String> = svg
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('<') && !l.starts_with("<svg") && !l.starts_with("</svg"))
        .map(String::from)
        .collect();
    lines.sort();
    lines
}

#[test]
fn a_line_charts_frame_then_its_series_draw_what_the_whole_chart_draws() {
    let mut c = chart(
        vec![
            wave("col 4 (sin)", 0, |x| (x / 10.0).sin(), SeriesStyle::Line),
            wave("ref", 1, |x| (x / 7.0).cos(), SeriesStyle::Dashed),
            wave("points", 2, |x| (x / 9.0).sin() * 0.5, SeriesStyle::Points),
        ],
        false,
    );
    c.bands.push(Band {
        x0: 10.0,
        x1: 40.0,
        label: "trained".into(),
    });
    let theme = Theme::light(1.0);
    let (whole, r1) = svg_of(|a| draw_line_chart(a, &c, &theme).expect("draws"));
    let (frame, r2) =
        svg_of(|a| draw_line_parts(a, &c, &theme, LineParts::Frame(0)).expect("draws"));
    let (series, r3) =
        svg_of(|a| draw_line_parts(a, &c, &theme, LineParts::Series(0)).expect("draws"));
    assert_eq!(r1, r2);
    assert_eq!(r1, r3);
    // The frame has every label but the band's, and no series; the series part has the
    // band's label and no other.
    let mut labels = texts(&frame);
    labels.extend(texts(&series));
    let mut all = texts(&whole);
    labels.sort();
    all.sort();
    assert_eq!(labels, all);
    assert_eq!(texts(&series), vec!["trained".to_string()]);
    assert!(elements(&series).len() > 100, "the points are drawn");
    let mut parts = elements(&frame);
    parts.extend(elements(&series));
    parts.sort();
    assert_eq!(parts, elements(&whole));
    // Moving the data keeps the frame; moving the y range does not.
    let mut moved = c.clone();
    moved.series[0].columns.reverse();
    moved.bands[0].x0 += 5.0;
    assert_eq!(moved.frame(), c.frame());
    moved.y_range.1 += 1.0;
    assert_ne!(moved.frame(), c.frame());
}

#[test]
fn a_frame_with_its_first_series_then_the_others_draw_every_element_of_the_whole_chart() {
    let c = chart(
        vec![
            wave(
                "points",
                0,
                |x| (x / 9.0).sin() * 0.5 + 1.0,
                SeriesStyle::Points,
            ),
            wave("ref", 1, |_| 0.5, SeriesStyle::Reference),
        ],
        false,
    );
    let theme = Theme::light(1.0);
    let (whole, r1) = svg_of(|a| draw_line_chart(a, &c, &theme).expect("draws"));
    let (under, r2) =
        svg_of(|a| draw_line_parts(a, &c, &theme, LineParts::Frame(1)).expect("draws"));
    let (over, r3) =
        svg_of(|a| draw_line_parts(a, &c, &theme, LineParts::Series(1)).expect("draws"));
    assert_eq!((r1, r1), (r2, r3));
    let mut parts = elements(&under);
    parts.extend(elements(&over));
    parts.sort();
    assert_eq!(parts, elements(&whole));
    // The points are drawn with the frame; the other part has the reference line alone.
    assert!(elements(&under).len() > elements(&over).len() + 50);
    // A frame with its first series: the series' data is part of it; the others' is not.
    let mut moved = c.clone();
    moved.series[1].columns.reverse();
    assert_eq!(moved.frame_with(1), c.frame_with(1));
    moved.series[0].columns.reverse();
    assert_ne!(moved.frame_with(1), c.frame_with(1));
    assert_eq!(moved.frame(), c.frame());
}

/// The points of every `<polygon>` in the colour `fill` (`#RRGGBB`).
fn polygons(svg: &str, fill: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polygon")
        .skip(1)
        .filter(|p| p.split("/>").next().unwrap_or("").contains(fill))
        .filter_map(|p| {
            let pts = p.split("points=\"").nth(1)?.split('"').next()?;
            Some(
                pts.split_whitespace()
                    .filter_map(|xy| {
                        let (x, y) = xy.split_once(',')?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn a_series_denser_than_the_pixels_is_one_filled_band_over_its_whole_range() {
    // 20,000 points of a fast oscillation in a 640-pixel chart: one column per pixel, each
    // from −1 to 1, filled as one polygon (not a zigzag stroked through every column); a
    // slow wave beside it keeps its polyline.
    let fast: Vec<f64> = (0..20_000).map(|x| (x as f64 * 2.9).sin()).collect();
    let dense = Series {
        name: "fast".to_string(),
        colour: series_colour(0),
        columns: envelope(&fast, |x| x as f64 / 200.0, 600),
        style: SeriesStyle::Line,
    };
    let c = chart(
        vec![
            dense,
            wave("slow", 1, |x| 0.5 * (x / 30.0).sin(), SeriesStyle::Line),
        ],
        false,
    );
    let (svg, rect) = svg_of(|a| draw_line_chart(a, &c, &Theme::light(1.0)).expect("draws"));
    let hex = |n| {
        let RGBColor(r, g, b) = series_colour(n);
        format!("#{r:02X}{g:02X}{b:02X}")
    };
    let bands = polygons(&svg, &hex(0));
    assert_eq!(bands.len(), 1, "one band for the dense series");
    let band = &bands[0];
    assert!(
        rect.width() > 480 && band.len() >= 2 * (rect.width() - 2),
        "a point per column on each edge: {} for {} columns",
        band.len(),
        rect.width()
    );
    // It spans the plot from left to right and (nearly) from the top to the bottom, and stays
    // inside the plot but for half the line's width.
    let (xs, ys): (Vec<f64>, Vec<f64>) = band.iter().copied().unzip();
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(min(&xs) <= f64::from(rect.x0) + 2.0 && max(&xs) >= f64::from(rect.x1) - 3.0);
    assert!(min(&ys) >= f64::from(rect.y0) - 2.0 && max(&ys) <= f64::from(rect.y1) + 2.0);
    assert!(max(&ys) - min(&ys) > 0.8 * f64::from(rect.y1 - rect.y0));
    // The slow wave is still a stroked line; in the dense colour only the legend's short
    // sample is stroked.
    let polylines = |fill: &str| -> Vec<usize> {
        svg.split("<polyline")
            .skip(1)
            .map(|p| p.split("/>").next().unwrap_or(""))
            .filter(|p| p.contains(fill))
            .map(|p| {
                p.split("points=\"")
                    .nth(1)
                    .unwrap_or("")
                    .split_whitespace()
                    .count()
            })
            .collect()
    };
    assert!(polygons(&svg, &hex(1)).is_empty());
    assert!(polylines(&hex(1)).iter().any(|&n| n > 50));
    assert!(
        polylines(&hex(0)).iter().all(|&n| n <= 4),
        "{:?}",
        polylines(&hex(0))
    );
}
