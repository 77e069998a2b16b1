//! A heatmap's frame drawn with plotters on any backend: axes and colour bar. Its cells are not
//! drawn here: the caller paints them as one image into the [`PlotRect`] that
//! [`draw_heatmap_frame`] returns.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::charts::{axis_label, rect_of, usable_range, x_label_count, PlotRect, Theme};
use super::colormap::ColorMap;

/// A colour bar beside a heatmap.
#[derive(Clone, Debug, PartialEq)]
pub struct ColourBar<'a> {
    pub cmap: &'a ColorMap,
    pub lo: f64,
    pub hi: f64,
    pub label: String,
}

/// Axes and colour bar of a heatmap whose rows run top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatmapFrame<'a> {
    pub x_label: String,
    pub y_label: String,
    /// Matrix columns along x, `0..n_cols`.
    pub n_cols: usize,
    /// Matrix rows down y, `0..n_rows`, row 0 at the top.
    pub n_rows: usize,
    pub colour_bar: ColourBar<'a>,
}

/// Draws the frame of a heatmap and returns the area the image must fill: the background,
/// the colour bar ([`draw_colour_bar`]) in its strip at the right, then the axes
/// ([`draw_heatmap_axes`]) over the rest (a tick label may reach into the bar's strip).
pub fn draw_heatmap_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    frame: &HeatmapFrame<'_>,
    theme: &Theme,
) -> Result<PlotRect, DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&theme.background)?;
    let (main, bar) = heatmap_split(area, theme);
    bar.fill(&theme.background)?;
    draw_colour_bar(&bar, &frame.colour_bar, theme)?;
    draw_heatmap_axes(&main, frame, theme)
}

/// The width of a heatmap's colour bar strip in a chart `w` pixels wide.
pub fn colour_bar_width(w: u32, theme: &Theme) -> u32 {
    theme.px(70.0).min(w / 3)
}

/// A heatmap chart's area split into the axes' part and the colour bar's strip.
fn heatmap_split<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, _) = area.dim_in_pixel();
    area.split_horizontally(w - colour_bar_width(w, theme))
}

/// The axes of a heatmap whose rows run top to bottom, filling `main` (the chart's area left
/// of the colour bar); returns the area the image must fill.
pub fn draw_heatmap_axes<DB: DrawingBackend>(
    main: &DrawingArea<DB, Shift>,
    frame: &HeatmapFrame<'_>,
    theme: &Theme,
) -> Result<PlotRect, DrawingAreaErrorKind<DB::ErrorType>> {
    let n_cols = frame.n_cols.max(1) as f64;
    let n_rows = frame.n_rows.max(1) as f64;
    let int_fmt = |v: &f64| {
        if v.fract() == 0.0 && *v >= 0.0 {
            format!("{v:.0}")
        } else {
            String::new()
        }
    };
    let mut ctx = ChartBuilder::on(main)
        .margin(theme.px(10.0))
        .x_label_area_size(theme.px(38.0))
        .y_label_area_size(theme.px(56.0))
        // Cell k spans [k − ½, k + ½]: integer ticks sit on cell centres, so an axis never
        // labels a column or position that does not exist.
        .build_cartesian_2d(-0.5..n_cols - 0.5, n_rows - 0.5..-0.5)?;
    ctx.configure_mesh()
        .disable_mesh()
        .x_desc(frame.x_label.as_str())
        .y_desc(frame.y_label.as_str())
        .label_style(theme.font(12.0))
        .axis_desc_style(theme.font(13.0))
        .axis_style(theme.axis)
        .x_labels(x_label_count(main.dim_in_pixel().0, theme))
        .y_labels(8)
        .x_label_formatter(&int_fmt)
        .y_label_formatter(&int_fmt)
        .draw()?;
    Ok(rect_of(&ctx))
}

/// A heatmap's colour bar with its scale and name, filling `bar` (the strip at the chart's
/// right, as tall as the chart), over a background drawn already.
pub fn draw_colour_bar<DB: DrawingBackend>(
    bar: &DrawingArea<DB, Shift>,
    cb: &ColourBar<'_>,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (lo, hi) = usable_range(cb.lo, cb.hi);
    let mut bar_ctx = ChartBuilder::on(bar)
        .margin_top(theme.px(10.0))
        .margin_bottom(theme.px(48.0))
        .margin_left(theme.px(6.0))
        .margin_right(theme.px(4.0))
        .y_label_area_size(0)
        .right_y_label_area_size(theme.px(44.0))
        .build_cartesian_2d(0.0..1.0, lo..hi)?;
    bar_ctx
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style(theme.font(11.0))
        .axis_style(theme.axis)
        .y_labels(5)
        .y_label_formatter(&|v| axis_label(*v))
        .draw()?;
    const STEPS: usize = 96;
    let step = (hi - lo) / STEPS as f64;
    bar_ctx.draw_series((0..STEPS).map(|n| {
        let v0 = lo + n as f64 * step;
        let rgb = cb.cmap.at((n as f64 + 0.5) / STEPS as f64);
        Rectangle::new(
            [(0.0, v0), (1.0, v0 + step)],
            RGBColor(rgb[0], rgb[1], rgb[2]).filled(),
        )
    }))?;
    bar.draw(&Text::new(
        cb.label.clone(),
        (
            theme.px(4.0) as i32,
            bar.dim_in_pixel().1 as i32 - theme.px(30.0) as i32,
        ),
        theme.font(11.0),
    ))?;
    Ok(())
}
