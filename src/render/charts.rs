//! Chart frames and line charts drawn with plotters on any backend: the browser passes a canvas,
//! tests pass an SVG string. Heatmap frames (axes and colour bar) are in `heatmap.rs`.
//!
//! Longer than most files here: one line chart is drawn by the functions below together (its
//! frame, series, bands and legend share one layout), and its tests follow them.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::envelope::{polyline, Column};
use super::spans::{band_polygon, PixelAxis};

/// Colours and scale of a chart. `scale` is the device pixel ratio: every length is multiplied
/// by it, so charts are sharp on HiDPI screens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    pub axis: RGBColor,
    pub scale: f64,
}

impl Theme {
    pub fn light(scale: f64) -> Theme {
        Theme {
            background: RGBColor(255, 255, 255),
            text: RGBColor(28, 30, 36),
            grid: RGBColor(226, 228, 234),
            axis: RGBColor(90, 94, 104),
            scale,
        }
    }

    pub fn dark(scale: f64) -> Theme {
        Theme {
            background: RGBColor(22, 24, 30),
            text: RGBColor(228, 230, 236),
            grid: RGBColor(52, 56, 66),
            axis: RGBColor(160, 164, 176),
            scale,
        }
    }

    /// A length in CSS pixels, in device pixels.
    pub fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }

    /// Sans-serif text of `css_px` CSS pixels in the text colour.
    pub fn font(&self, css_px: f64) -> TextStyle<'static> {
        // The enum, not the string "sans-serif": plotters' `From<&str>` lower-cases with the
        // Unicode tables, which would ship in the wasm for nothing.
        FontDesc::new(
            FontFamily::SansSerif,
            css_px * self.scale,
            FontStyle::Normal,
        )
        .color(&self.text)
    }
}

/// Okabe–Ito colours, distinguishable with the common colour-vision deficiencies.
pub const SERIES_COLOURS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
];

/// Reference lines and bands: a grey that reads on light and dark backgrounds, drawn dotted
/// (lines) or as a faint fill (bands), styles no data series uses.
pub const REFERENCE_COLOUR: RGBColor = RGBColor(128, 128, 128);

/// The colour of the `n`-th series.
pub fn series_colour(n: usize) -> RGBColor {
    SERIES_COLOURS[n % SERIES_COLOURS.len()]
}

/// The plotting area of a chart, in device pixels of the whole drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PlotRect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    /// What the chart had to cut to fit its canvas.
    pub cramped: Cramped,
}

/// What a chart cut to fit a canvas too small for it: a legend name or row, an axis title
/// longer than its axis. The canvas says so (`data-cramped`), and the presenter-fit specs
/// require none at the sizes a classroom projects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cramped {
    pub legend: bool,
    pub x_title: bool,
    pub y_title: bool,
}

impl Cramped {
    /// The cuts in words ("legend y-title"), empty when nothing was cut.
    pub fn words(&self) -> String {
        [
            (self.legend, "legend"),
            (self.x_title, "x-title"),
            (self.y_title, "y-title"),
        ]
        .iter()
        .filter(|(cut, _)| *cut)
        .map(|(_, w)| *w)
        .collect::<Vec<_>>()
        .join(" ")
    }
}

impl PlotRect {
    pub fn width(&self) -> usize {
        (self.x1 - self.x0).max(0) as usize
    }

    pub fn height(&self) -> usize {
        (self.y1 - self.y0).max(0) as usize
    }

    /// The point as a fraction `(fx, fy)` of the area, if inside it.
    pub fn fraction(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let fx = (x - self.x0 as f64) / self.width().max(1) as f64;
        let fy = (y - self.y0 as f64) / self.height().max(1) as f64;
        ((0.0..1.0).contains(&fx) && (0.0..1.0).contains(&fy)).then_some((fx, fy))
    }
}

pub(super) fn rect_of<DB: DrawingBackend, C: plotters::coord::CoordTranslate>(
    chart: &ChartContext<'_, DB, C>,
) -> PlotRect {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    PlotRect {
        x0: xs.start,
        y0: ys.start,
        x1: xs.end,
        y1: ys.end,
        cramped: Cramped::default(),
    }
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesStyle {
    Line,
    /// A dashed line: a series that can lie exactly on another one stays visible.
    Dashed,
    /// A thin dotted line for reference values (context lengths), never used for data.
    Reference,
    Points,
    /// A bar from 0 to each value, one per column.
    Bars,
}

/// One named series, already reduced to display columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub colour: RGBColor,
    pub columns: Vec<Column>,
    pub style: SeriesStyle,
}

/// A shaded vertical band with a label (a trained range, a correction range, a marker).
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub x0: f64,
    pub x1: f64,
    pub label: String,
}

/// A line chart: axes, optional log-scaled y, series, bands and a legend.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// Draw y on a log10 axis (values and range must be positive).
    pub y_log: bool,
    /// The x values and range are already log10 of the data: ticks are labelled as powers of
    /// ten (a distance or a context length over many decades).
    pub x_log: bool,
    pub series: Vec<Series>,
    pub bands: Vec<Band>,
}

impl LineChart {
    /// What the chart's frame shows (see [`LineParts::Frame`]): the chart without its data or
    /// bands, each series kept for its legend entry (name, colour, style) with no columns. Two
    /// charts whose frames are equal draw the same frame.
    pub fn frame(&self) -> LineChart {
        self.frame_with(0)
    }

    /// As [`LineChart::frame`], with the first `k` series whole: what `LineParts::Frame(k)`
    /// draws.
    pub fn frame_with(&self, k: usize) -> LineChart {
        LineChart {
            x_label: self.x_label.clone(),
            y_label: self.y_label.clone(),
            x_range: self.x_range,
            y_range: self.y_range,
            y_log: self.y_log,
            x_log: self.x_log,
            series: self
                .series
                .iter()
                .enumerate()
                .map(|(j, s)| Series {
                    name: s.name.clone(),
                    colour: s.colour,
                    columns: if j < k { s.columns.clone() } else { Vec::new() },
                    style: s.style,
                })
                .collect(),
            bands: Vec::new(),
        }
    }

    /// A chart whose y range encloses every series, with no bands.
    pub fn fitted(
        x_label: &str,
        y_label: &str,
        x_range: (f64, f64),
        series: Vec<Series>,
        y_log: bool,
    ) -> LineChart {
        LineChart {
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            x_range,
            y_range: fit_y_range(&series, y_log),
            y_log,
            x_log: false,
            series,
            bands: Vec::new(),
        }
    }

    /// Maps a y value onto the drawn axis.
    pub fn y_axis_value(&self, y: f64) -> f64 {
        if self.y_log {
            y.max(f64::MIN_POSITIVE).log10()
        } else {
            y
        }
    }

    /// The data x at a horizontal fraction of the plotting area.
    pub fn x_at_fraction(&self, fx: f64) -> f64 {
        self.x_range.0 + fx * (self.x_range.1 - self.x_range.0)
    }
}

/// A `(lo, hi)` range that plotters can draw (finite, non-empty).
pub fn usable_range(lo: f64, hi: f64) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo > f64::EPSILON * hi.abs().max(1.0) {
        (lo, hi)
    } else {
        (lo - 0.5, hi + 0.5)
    }
}

/// The smallest 1, 2 or 5 × 10^k at least `x` (positive and finite).
fn round_step(x: f64) -> f64 {
    let magnitude = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= x)
        .unwrap_or(10.0 * magnitude)
}

/// A y range that encloses every column of every series with a little headroom. A linear
/// range ends on whole steps of about 2–5 % of the data's span: while a slider nudges the
/// data, the axes (and their labels) hold still unless the data crosses a step.
pub fn fit_y_range(series: &[Series], log: bool) -> (f64, f64) {
    let (lo, hi) = series
        .iter()
        .flat_map(|s| s.columns.iter())
        .filter(|c| !log || c.lo > 0.0)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
            (lo.min(c.lo), hi.max(c.hi))
        });
    if log {
        usable_range(lo, hi)
    } else {
        let span = hi - lo;
        if !(span.is_finite() && span > f64::EPSILON * hi.abs().max(lo.abs()).max(1.0)) {
            return usable_range(lo, hi);
        }
        let step = round_step(span / 50.0);
        let pad = span * 0.02;
        usable_range(
            ((lo - pad) / step).floor() * step,
            ((hi + pad) / step).ceil() * step,
        )
    }
}

/// A tick label: whole numbers plainly, fractions to three decimals, extremes in e-notation;
/// never "-0".
pub fn axis_label(v: f64) -> String {
    let v = if v.abs() < 1e-12 { 0.0 } else { v };
    let a = v.abs();
    // Whole numbers below ten million in full (positions such as 99960 must stay readable);
    // others in e-notation outside [0.001, 100000).
    let s = if v.fract() == 0.0 && a < 1e7 {
        format!("{v:.0}")
    } else if a != 0.0 && !(1e-3..1e5).contains(&a) {
        format!("{v:.0e}")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    // A tick a rounding error below zero is zero, not "-0".
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

fn log_axis_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("1e{}", v.round() as i64)
    } else {
        String::new()
    }
}

/// Draws a line chart and returns its plotting area.
pub fn draw_line_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    theme: &Theme,
) -> Result<PlotRect, DrawingAreaErrorKind<DB::ErrorType>> {
    draw_line_parts(area, chart, theme, LineParts::All)
}

/// The parts of a line chart to draw: all of it; its frame (background, axes, labels, grid and
/// legend: what [`LineChart::frame`] keeps) with its first `k` series (`Frame(k)`, see
/// [`LineChart::frame_with`]); or its bands and the series from the `k`-th on (`Series(k)`),
/// over that frame already on the canvas. `Frame(0)` then `Series(0)` draws the same pixels as
/// all; with `k > 0` the bands come over the first `k` series instead of under them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineParts {
    All,
    Frame(usize),
    Series(usize),
}

/// Draws `parts` of a line chart filling `area`; returns the plotting area either way.
pub fn draw_line_parts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    theme: &Theme,
    parts: LineParts,
) -> Result<PlotRect, DrawingAreaErrorKind<DB::ErrorType>> {
    let frame = !matches!(parts, LineParts::Series(_));
    let n = chart.series.len();
    let (from, to) = match parts {
        LineParts::All => (0, n),
        LineParts::Frame(k) => (0, k.min(n)),
        LineParts::Series(k) => (k.min(n), n),
    };
    if frame {
        area.fill(&theme.background)?;
    }
    let (x0, x1) = usable_range(chart.x_range.0, chart.x_range.1);
    let (ylo, yhi) = if chart.y_log {
        let (a, b) = usable_range(chart.y_range.0.max(1e-300), chart.y_range.1.max(1e-300));
        usable_range(a.log10(), b.log10())
    } else {
        usable_range(chart.y_range.0, chart.y_range.1)
    };
    // The legend sits outside the plot: at the right when it is narrow enough, else below.
    let margin = theme.px(10.0);
    let y_label_area = theme.px(56.0);
    let legend = LegendLayout::of(area, &chart.series, theme, (margin + y_label_area) as i32)?;
    let (plot_area, legend_area) = match legend.place {
        LegendPlace::None => (area.clone(), None),
        LegendPlace::Right(w) => {
            let (a, b) = area.split_horizontally(area.dim_in_pixel().0 - w);
            (a, Some(b))
        }
        LegendPlace::Below(h) => {
            let (a, b) = area.split_vertically(area.dim_in_pixel().1 - h);
            (a, Some(b))
        }
    };
    // The y axis title: one line when it fits along the axis, else wrapped at spaces onto up
    // to three (its label area widens for them), its last line cut with "…" past that.
    let x_label_area = theme.px(38.0);
    let axis_h = plot_area.dim_in_pixel().1 as i32 - 2 * margin as i32 - x_label_area as i32;
    let y_title = AxisTitle::of(&plot_area, &chart.y_label, theme, axis_h.max(1))?;
    let y_label_area = y_label_area + (y_title.lines.len() as u32 - 1) * theme.px(16.0);
    // The right margin holds half of a tick label centred on the axis's end ("6000", not "600").
    let mut ctx = ChartBuilder::on(&plot_area)
        .margin(margin)
        .margin_right(margin + theme.px(12.0))
        .x_label_area_size(x_label_area)
        .y_label_area_size(y_label_area)
        .build_cartesian_2d(x0..x1, ylo..yhi)?;
    let mut cramped = Cramped::default();
    if frame {
        cramped = draw_line_frame(&mut ctx, chart, &plot_area, (x0, x1), &y_title, theme)?;
    }
    if !matches!(parts, LineParts::Frame(_)) {
        draw_bands(&mut ctx, chart, (x0, x1), (ylo, yhi), theme)?;
    }
    let stroke = theme.px(2.0);
    let radius = theme.px(3.0) as i32;
    for s in &chart.series[from..to] {
        let map = |c: &Column| {
            (
                c.x,
                chart.y_axis_value(c.lo).max(ylo).min(yhi),
                chart.y_axis_value(c.hi).max(ylo).min(yhi),
            )
        };
        let colour = s.colour;
        // The series' columns on the drawn axes, as a polyline (for the line styles).
        let path = || {
            let mapped: Vec<Column> = s
                .columns
                .iter()
                .map(|c| {
                    let (x, lo, hi) = map(c);
                    Column { x, lo, hi }
                })
                .collect();
            polyline(&mapped)
        };
        // More points than pixels: the columns' band, filled, not a stroked zigzag.
        if s.style == SeriesStyle::Line && s.columns.iter().any(|c| c.hi > c.lo) {
            let area = ctx.plotting_area().strip_coord_spec();
            // The axes' pixel ends, as the chart maps values: the band is mapped the same way.
            let (bx0, by0) = ctx.backend_coord(&(x0, ylo));
            let (bx1, by1) = ctx.backend_coord(&(x1, yhi));
            let columns: Vec<(f64, f64, f64)> = s.columns.iter().map(map).collect();
            let points = band_polygon(
                &columns,
                PixelAxis {
                    lo: x0,
                    hi: x1,
                    from: bx0,
                    to: bx1,
                },
                PixelAxis {
                    lo: ylo,
                    hi: yhi,
                    from: by0,
                    to: by1,
                },
                f64::from(stroke),
                // The polygon is drawn in the plotting area's own pixels.
                area.get_base_pixel(),
            );
            area.draw(&Polygon::new(points, colour.filled()))?;
            continue;
        }
        match s.style {
            SeriesStyle::Line => ctx.draw_series(std::iter::once(PathElement::new(
                path(),
                colour.stroke_width(stroke),
            )))?,
            SeriesStyle::Dashed | SeriesStyle::Reference => {
                let (dash, gap, width) = if s.style == SeriesStyle::Reference {
                    (theme.px(2.0), theme.px(4.0), theme.px(1.5))
                } else {
                    (theme.px(7.0), theme.px(5.0), stroke)
                };
                ctx.draw_series(std::iter::once(DashedPathElement::new(
                    path(),
                    dash,
                    gap,
                    colour.stroke_width(width),
                )))?
            }
            SeriesStyle::Points => ctx.draw_series(s.columns.iter().map(|c| {
                let (x, lo, _) = map(c);
                Circle::new((x, lo), radius, colour.stroke_width(theme.px(1.5)))
            }))?,
            SeriesStyle::Bars => {
                let half = s
                    .columns
                    .windows(2)
                    .map(|w| (w[1].x - w[0].x).abs())
                    .fold(1.0f64, f64::min)
                    * 0.38;
                let zero = chart.y_axis_value(0.0).clamp(ylo, yhi);
                ctx.draw_series(s.columns.iter().map(|c| {
                    let (x, _, hi) = map(c);
                    Rectangle::new([(x - half, zero), (x + half, hi)], colour.filled())
                }))?
            }
        };
    }
    let mut rect = rect_of(&ctx);
    rect.cramped = cramped;
    if frame {
        if let Some(legend_area) = legend_area {
            draw_legend(&legend_area, &chart.series, &legend, rect, theme)?;
            rect.cramped.legend = legend.cramped;
        }
    }
    Ok(rect)
}

/// An axis title in the lines it is drawn in, and whether it had to be cut.
struct AxisTitle {
    lines: Vec<String>,
    cut: bool,
}

impl AxisTitle {
    const MAX_LINES: usize = 3;

    fn of<DB: DrawingBackend>(
        area: &DrawingArea<DB, Shift>,
        text: &str,
        theme: &Theme,
        room: i32,
    ) -> Result<AxisTitle, DrawingAreaErrorKind<DB::ErrorType>> {
        let font = theme.font(13.0);
        let width = |t: &str| -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
            Ok(area.estimate_text_size(t, &font)?.0 as i32)
        };
        let (mut lines, mut cut) = wrap_words(text, room, &width)?;
        if lines.len() > Self::MAX_LINES {
            lines.truncate(Self::MAX_LINES);
            let last = lines.pop().unwrap_or_default();
            lines.push(fit_text(area, &format!("{last} …"), &font, room)?);
            cut = true;
        }
        Ok(AxisTitle { lines, cut })
    }
}

/// The mesh of a line chart: axes, tick labels, grid lines, axis names. The y title comes in
/// its lines (see [`AxisTitle`]); an x title longer than its axis is cut with "…" (a longer
/// one would run into the next chart). Returns the cuts. The y axis has a label per 24 CSS
/// pixels of height, at most 7.
fn draw_line_frame<DB: DrawingBackend>(
    ctx: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    chart: &LineChart,
    plot_area: &DrawingArea<DB, Shift>,
    (x0, x1): (f64, f64),
    y_title: &AxisTitle,
    theme: &Theme,
) -> Result<Cramped, DrawingAreaErrorKind<DB::ErrorType>> {
    let plot = rect_of(ctx);
    let title_font = theme.font(13.0);
    let x_desc = fit_text(plot_area, &chart.x_label, &title_font, plot.width() as i32)?;
    // One line: plotters places it; more: drawn beside each other below, the first leftmost.
    let y_desc = match y_title.lines.as_slice() {
        [one] => one.clone(),
        _ => String::new(),
    };
    let cramped = Cramped {
        legend: false,
        x_title: x_desc != chart.x_label,
        y_title: y_title.cut,
    };
    let y_fmt = |v: &f64| {
        if chart.y_log {
            log_axis_label(*v)
        } else {
            axis_label(*v)
        }
    };
    // Every x axis of a line chart is an index (position, column, pair, head, offset,
    // distance, token): only whole numbers are labelled, so no axis names pair 0.5.
    let x_fmt = |v: &f64| {
        if chart.x_log {
            log_axis_label(*v)
        } else if v.fract() == 0.0 {
            axis_label(*v)
        } else {
            String::new()
        }
    };
    ctx.configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(theme.font(12.0))
        .axis_desc_style(title_font.clone())
        .bold_line_style(theme.grid)
        .max_light_lines(0)
        .axis_style(theme.axis)
        .x_labels(
            x_label_count(plot_area.dim_in_pixel().0, theme)
                .min((x1 - x0).floor() as usize + 1)
                .max(2),
        )
        .y_labels((plot.height() as u32 / theme.px(24.0).max(1)).clamp(2, 7) as usize)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .draw()?;
    if y_title.lines.len() > 1 {
        let (bx, by) = plot_area.get_base_pixel();
        let line_h = theme.px(16.0) as i32;
        let mid_y = (plot.y0 + plot.y1) / 2 - by;
        let font = title_font
            .transform(plotters::style::FontTransform::Rotate270)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Center,
            ));
        let left = theme.px(10.0) as i32 + line_h / 2 - bx.min(0);
        for (k, line) in y_title.lines.iter().enumerate() {
            let at = (left + k as i32 * line_h, mid_y);
            plot_area.draw(&Text::new(line.as_str(), at, font.clone()))?;
        }
    }
    Ok(cramped)
}

/// The bands of a line chart (shaded ranges with their labels), over its mesh and under its
/// series. Not part of the frame: a band that follows a slider (YaRN's ramp, p0) would make
/// every move draw the whole frame again.
fn draw_bands<DB: DrawingBackend>(
    ctx: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    chart: &LineChart,
    (x0, x1): (f64, f64),
    (ylo, yhi): (f64, f64),
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for (n, band) in chart.bands.iter().enumerate() {
        // Bands are neutral grey, a little darker each, so no band looks like a data series.
        let shade = 0.10 + 0.05 * (n % 3) as f64;
        ctx.draw_series(std::iter::once(Rectangle::new(
            [(band.x0.max(x0), ylo), (band.x1.min(x1), yhi)],
            REFERENCE_COLOUR.mix(shade).filled(),
        )))?;
        let label_x = band.x0.max(x0);
        ctx.draw_series(std::iter::once(Text::new(
            band.label.clone(),
            (label_x, yhi),
            theme.font(11.0).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Left,
                plotters::style::text_anchor::VPos::Top,
            )),
        )))?;
    }
    Ok(())
}

/// How many x tick labels fit a chart `width` device pixels wide (at most 8, about one per
/// 70 CSS pixels, so that labels such as "250300" never run together on a phone).
pub(super) fn x_label_count(width: u32, theme: &Theme) -> usize {
    (width / theme.px(70.0)).clamp(2, 8) as usize
}

/// Where the legend goes: nowhere (no series), in a column at the right of the plot, or in
/// rows below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LegendPlace {
    None,
    /// A column this many pixels wide.
    Right(u32),
    /// Rows this many pixels tall.
    Below(u32),
}

/// The legend's entries and where each goes, measured once and used to size the legend's
/// area and to draw it (so the rows drawn are the rows the area was sized for).
struct LegendLayout {
    place: LegendPlace,
    /// Each entry's lines of text and the top left corner of its first line, in the legend
    /// area's pixels (at the right: from the top of the plot).
    entries: Vec<LegendEntry>,
    pad: i32,
    swatch: i32,
    line_h: i32,
    /// Something did not fit: a word longer than a row (cut with "…"), or rows below the plot
    /// that would take more than half the chart (the last are cut).
    cramped: bool,
}

struct LegendEntry {
    x: i32,
    y: i32,
    lines: Vec<String>,
}

impl LegendLayout {
    /// At the right of the plot when the widest entry takes at most 0.3 of the width; else in
    /// rows below it, aligned with the plot's left edge (`plot_left`), entries side by side
    /// while they fit and a name longer than a row wrapped at spaces onto lines of its own.
    fn of<DB: DrawingBackend>(
        area: &DrawingArea<DB, Shift>,
        series: &[Series],
        theme: &Theme,
        plot_left: i32,
    ) -> Result<LegendLayout, DrawingAreaErrorKind<DB::ErrorType>> {
        let font = theme.font(12.0);
        let pad = theme.px(6.0) as i32;
        let swatch = theme.px(18.0) as i32;
        let line_h = theme.px(16.0) as i32;
        let text_w = |t: &str| -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
            Ok(area.estimate_text_size(t, &font)?.0 as i32)
        };
        let mut entry_w = Vec::with_capacity(series.len());
        for s in series {
            entry_w.push(swatch + pad + text_w(&s.name)?);
        }
        let (width, height) = area.dim_in_pixel();
        let (width, height) = (width as i32, height as i32);
        let widest = entry_w.iter().copied().max().unwrap_or(0);
        let mut entries = Vec::with_capacity(series.len());
        let mut cramped = false;
        let place = if series.is_empty() {
            LegendPlace::None
        } else if f64::from(widest + 3 * pad) <= 0.3 * f64::from(width) {
            for (k, s) in series.iter().enumerate() {
                entries.push(LegendEntry {
                    x: pad,
                    y: pad + k as i32 * line_h,
                    lines: vec![s.name.clone()],
                });
            }
            LegendPlace::Right((widest + 3 * pad) as u32)
        } else {
            let left = plot_left.clamp(pad, (width / 4).max(pad));
            let right = width - pad;
            let room = right - left - swatch - pad;
            let (mut x, mut y, mut row_lines) = (left, pad, 1);
            for (s, &w) in series.iter().zip(&entry_w) {
                let lines = if x + w <= right || left + w <= right {
                    vec![s.name.clone()]
                } else {
                    let (lines, cut) = wrap_words(&s.name, room, &text_w)?;
                    cramped |= cut;
                    lines
                };
                // A new row when this entry does not fit after the last, or either has lines of
                // its own.
                if x > left && (x + w > right || lines.len() > 1 || row_lines > 1) {
                    x = left;
                    y += row_lines * line_h;
                    row_lines = 1;
                }
                row_lines = row_lines.max(lines.len() as i32);
                entries.push(LegendEntry { x, y, lines });
                x += w + pad * 3;
            }
            let needed = y + row_lines * line_h + pad;
            cramped |= needed > height / 2;
            LegendPlace::Below(needed.min(height / 2).max(0) as u32)
        };
        Ok(LegendLayout {
            place,
            entries,
            pad,
            swatch,
            line_h,
            cramped,
        })
    }
}

/// `text` in lines at most `room` wide, broken at spaces; a word wider than `room` is cut
/// with "…" (the bool says so).
fn wrap_words<E>(
    text: &str,
    room: i32,
    width: &dyn Fn(&str) -> Result<i32, E>,
) -> Result<(Vec<String>, bool), E> {
    let mut lines: Vec<String> = Vec::new();
    let mut cut = false;
    let mut line = String::new();
    for word in text.split(' ') {
        let joined = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&joined)? <= room {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if width(word)? <= room {
            line = word.to_string();
        } else {
            // The longest prefix that fits, with "…".
            let chars: Vec<char> = word.chars().collect();
            let mut n = chars.len();
            while n > 0 && width(&(chars[..n].iter().collect::<String>() + "…"))? > room {
                n -= 1;
            }
            lines.push(chars[..n].iter().collect::<String>() + "…");
            cut = true;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    Ok((lines, cut))
}

/// The series names with a line of their colour and style, in the legend's own area (outside
/// the plot), where [`LegendLayout`] placed them.
fn draw_legend<DB: DrawingBackend>(
    legend_area: &DrawingArea<DB, Shift>,
    series: &[Series],
    layout: &LegendLayout,
    plot: PlotRect,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let font = theme.font(12.0);
    let (pad, swatch, line_h) = (layout.pad, layout.swatch, layout.line_h);
    let centre = plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Left,
        plotters::style::text_anchor::VPos::Center,
    );
    let (_, offset_y) = legend_area.get_base_pixel();
    let (_, area_h) = legend_area.dim_in_pixel();
    // At the right, entries start level with the plot.
    let top = match layout.place {
        LegendPlace::Right(_) => (plot.y0 - offset_y).max(0),
        _ => 0,
    };
    for (s, e) in series.iter().zip(&layout.entries) {
        let (x, y) = (e.x, top + e.y);
        // Rows past a clamped legend's area are left out (reported as cramped), not overprinted.
        if y + line_h > area_h as i32 {
            break;
        }
        let mid = y + line_h / 2;
        let stroke = s.colour.stroke_width(theme.px(2.0));
        match s.style {
            SeriesStyle::Dashed => legend_area.draw(&DashedPathElement::new(
                vec![(x, mid), (x + swatch, mid)],
                theme.px(5.0),
                theme.px(3.0),
                stroke,
            ))?,
            SeriesStyle::Reference => legend_area.draw(&DashedPathElement::new(
                vec![(x, mid), (x + swatch, mid)],
                theme.px(2.0),
                theme.px(3.0),
                s.colour.stroke_width(theme.px(1.5)),
            ))?,
            SeriesStyle::Points => {
                legend_area.draw(&Circle::new((x + swatch / 2, mid), theme.px(3.0), stroke))?
            }
            SeriesStyle::Bars => legend_area.draw(&Rectangle::new(
                [
                    (x + swatch / 4, mid - line_h / 3),
                    (x + 3 * swatch / 4, mid + line_h / 3),
                ],
                s.colour.filled(),
            ))?,
            SeriesStyle::Line => {
                legend_area.draw(&PathElement::new(vec![(x, mid), (x + swatch, mid)], stroke))?
            }
        }
        for (k, line) in e.lines.iter().enumerate() {
            if y + (k as i32 + 1) * line_h > area_h as i32 {
                break;
            }
            let at = (x + swatch + pad, mid + k as i32 * line_h);
            legend_area.draw(&Text::new(line.as_str(), at, font.pos(centre)))?;
        }
    }
    Ok(())
}

/// `text`, or its longest prefix that fits `room` pixels with "…" after it.
fn fit_text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    font: &TextStyle,
    room: i32,
) -> Result<String, DrawingAreaErrorKind<DB::ErrorType>> {
    if area.estimate_text_size(text, font)?.0 as i32 <= room {
        return Ok(text.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    let (mut lo, mut hi) = (0, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let candidate: String = chars[..mid].iter().collect::<String>() + "…";
        if area.estimate_text_size(&candidate, font)?.0 as i32 <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(chars[..lo].iter().collect::<String>() + "…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_rect_fractions() {
        let r = PlotRect {
            x0: 10,
            y0: 20,
            x1: 110,
            y1: 70,
            ..PlotRect::default()
        };
        assert_eq!(r.fraction(60.0, 45.0), Some((0.5, 0.5)));
        assert_eq!(r.fraction(5.0, 45.0), None);
    }

    #[test]
    fn degenerate_ranges_become_drawable() {
        assert_eq!(usable_range(1.0, 1.0), (0.5, 1.5));
        assert_eq!(usable_range(f64::NAN, 1.0), (0.0, 1.0));
        assert_eq!(axis_label(0.25), "0.25");
        assert_eq!(axis_label(1e6), "1000000");
        assert_eq!(axis_label(1e7), "1e7");
        assert_eq!(axis_label(99_960.0), "99960");
        assert_eq!(log_axis_label(-3.0), "1e-3");
        assert_eq!(axis_label(-0.0), "0");
        assert_eq!(axis_label(-0.0004), "-4e-4");
        // Ticks computed as start + k·step land a rounding error off zero.
        assert_eq!(axis_label(-2.7e-17), "0");
    }

    fn spanning(lo: f64, hi: f64) -> Vec<Series> {
        vec![Series {
            name: "s".into(),
            colour: RGBColor(0, 0, 0),
            columns: vec![Column { x: 0.0, lo, hi }],
            style: SeriesStyle::Line,
        }]
    }

    #[test]
    fn linear_ranges_end_on_steps_that_hold_while_data_nudges() {
        // Span 10: steps of 0.2, at least 0.2 of headroom on each side.
        // A nudge of the data inside a step keeps the range (the chart's frame is reused).
        for (a, b) in [(-3.05, 6.95), (-3.1, 6.9), (-3.02, 6.98)] {
            let (lo, hi) = fit_y_range(&spanning(a, b), false);
            assert!(
                (lo + 3.4).abs() < 1e-12 && (hi - 7.2).abs() < 1e-12,
                "{lo} {hi}"
            );
        }
        for (a, b) in [(0.0, 1.0), (-1e-6, 3e-6), (1e5, 1.2e5), (-7.0, -6.5)] {
            let (lo, hi) = fit_y_range(&spanning(a, b), false);
            let span = b - a;
            assert!(
                lo <= a - 0.02 * span && lo >= a - 0.08 * span,
                "{a} {b}: {lo}"
            );
            assert!(
                hi >= b + 0.02 * span && hi <= b + 0.08 * span,
                "{a} {b}: {hi}"
            );
        }
        // A flat series still gets a drawable range; no data gives the unit range.
        assert_eq!(fit_y_range(&spanning(2.0, 2.0), false), (1.5, 2.5));
        assert_eq!(fit_y_range(&[], false), (0.0, 1.0));
    }
}
