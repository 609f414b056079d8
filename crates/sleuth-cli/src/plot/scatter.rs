//! Timings on log scales, one point per state, coloured by group, with
//! reference curves: `sleuth bench --plot` (each state's whole analysis
//! against its count, with issue 20's target) and the side-by-side example
//! (`sleuth analyze --json` against an independent counter, whole process).

use super::{register_fonts, write_svg_png, PALETTE};
use crate::input::describe_io;
use anyhow::anyhow;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// One point: its group (the legend entry) and its coordinates.
pub struct Point {
    pub group: String,
    pub x: f64,
    pub y: f64,
}

/// A reference curve `y = f(x)` with its legend entry, solid black or
/// dashed grey.
pub struct Curve {
    pub label: String,
    pub f: fn(f64) -> f64,
    pub solid: bool,
}

/// A plot: its file name (`name.svg`, `name.png`), title, axis
/// descriptions, points and curves.
pub struct Scatter<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub points: &'a [Point],
    pub curves: &'a [Curve],
}

/// The smallest value drawn, so that a time too short for the clock still
/// has a place on the log scale.
const FLOOR: f64 = 1e-4;

/// Writes `name.svg` and `name.png` into `dir` (created if missing) and
/// returns the files.
///
/// # Errors
/// When there is nothing to draw, or drawing or writing fails.
pub fn write_scatter(dir: &Path, plot: &Scatter) -> anyhow::Result<Vec<PathBuf>> {
    if plot.points.is_empty() {
        return Err(anyhow!("nothing was timed, so there is nothing to plot"));
    }
    std::fs::create_dir_all(dir).map_err(|e| anyhow!("cannot create the directory: {}", describe_io(&e)))?;
    write_svg_png(dir, plot.name, &svg(plot)?)
}

/// The points and curves as SVG.
fn svg(plot: &Scatter) -> anyhow::Result<String> {
    register_fonts();
    let at = |v: f64| v.max(FLOOR);
    let all = plot.points.iter().flat_map(|p| [at(p.x), at(p.y)]);
    let (lo, hi) = all.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    // Both axes alike, whole decades around the points (and the curves at
    // the smallest x).
    let top = plot.curves.iter().map(|c| (c.f)(lo)).fold(hi, f64::max);
    let (lo, hi) = (10f64.powf(lo.log10().floor()), 10f64.powf(top.log10().ceil()));
    // Groups in order of first appearance, drawn largest first so that a
    // small group (a few states of note) is not hidden under a large one.
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for p in plot.points {
        match groups.iter_mut().find(|(g, _)| *g == p.group) {
            Some((_, n)) => *n += 1,
            None => groups.push((&p.group, 1)),
        }
    }
    let colour: Vec<(&str, RGBColor)> =
        groups.iter().enumerate().map(|(i, &(g, _))| (g, PALETTE[i % PALETTE.len()])).collect();
    groups.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 760)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(plot.title, ("sans-serif", 18))
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(70)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_desc(plot.x_desc)
            .y_desc(plot.y_desc)
            .x_label_formatter(&|v| format!("{v}"))
            .y_label_formatter(&|v| format!("{v}"))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        let xs: Vec<f64> = (0..=200).map(|i| lo * (hi / lo).powf(f64::from(i) / 200.0)).collect();
        for curve in plot.curves {
            let line: Vec<(f64, f64)> = xs.iter().map(|&x| (x, (curve.f)(x))).filter(|&(_, y)| y <= hi).collect();
            if curve.solid {
                chart
                    .draw_series(LineSeries::new(line, BLACK.stroke_width(2)))
                    .map_err(|e| anyhow!("{e}"))?
                    .label(&curve.label)
                    .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.stroke_width(2)));
            } else {
                let grey = BLACK.mix(0.4);
                chart
                    .draw_series(DashedLineSeries::new(line, 3, 5, grey.stroke_width(1)))
                    .map_err(|e| anyhow!("{e}"))?
                    .label(&curve.label)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], grey.stroke_width(1)));
            }
        }
        for &(group, _) in &groups {
            let c = colour.iter().find(|(g, _)| *g == group).map_or(BLACK, |&(_, c)| c);
            let mine: Vec<(f64, f64)> =
                plot.points.iter().filter(|p| p.group == group).map(|p| (at(p.x), at(p.y))).collect();
            chart
                .draw_series(mine.iter().map(|&xy| Circle::new(xy, 3, c.mix(0.75).filled())))
                .map_err(|e| anyhow!("{e}"))?
                .label(format!("{group} ({})", mine.len()))
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
        }
        super::draw_legend(&mut chart, legend_corner(plot.points, lo, hi), 14)?;
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}

/// The corner where the legend hides fewer points: the upper left, unless
/// more points lie in the upper left quarter of the plot (`lo..hi` on both
/// log axes) than in the lower right.
fn legend_corner(points: &[Point], lo: f64, hi: f64) -> SeriesLabelPosition {
    let mid = (lo * hi).sqrt();
    let upper_left = points.iter().filter(|p| p.x < mid && p.y > mid).count();
    let lower_right = points.iter().filter(|p| p.x > mid && p.y < mid).count();
    if upper_left > lower_right {
        SeriesLabelPosition::LowerRight
    } else {
        SeriesLabelPosition::UpperLeft
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(group: &str, x: f64, y: f64) -> Point {
        Point { group: group.to_string(), x, y }
    }

    #[test]
    fn draws_every_group_and_curve() {
        let points = [point("a", 0.0, 0.004), point("a", 0.01, 0.02), point("b", 5.0, 13.0)];
        let curves = [
            Curve { label: "y = x".into(), f: |x| x, solid: false },
            Curve { label: "target".into(), f: |x| 2.0 * x + 2.0, solid: true },
        ];
        let plot = Scatter { name: "t", title: "a test", x_desc: "x", y_desc: "y", points: &points, curves: &curves };
        let svg = svg(&plot).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in ["a test", "a (2)", "b (1)", "y = x", "target"] {
            assert!(svg.contains(text), "{text}: {svg}");
        }
    }

    #[test]
    fn the_legend_goes_where_fewer_points_are() {
        let below = [point("a", 10.0, 1.0), point("a", 100.0, 2.0)];
        assert!(matches!(legend_corner(&below, 0.1, 1000.0), SeriesLabelPosition::UpperLeft));
        let above = [point("a", 0.2, 100.0), point("a", 1.0, 30.0)];
        assert!(matches!(legend_corner(&above, 0.1, 1000.0), SeriesLabelPosition::LowerRight));
    }

    #[test]
    fn nothing_to_plot_is_an_error() {
        let plot = Scatter { name: "t", title: "", x_desc: "", y_desc: "", points: &[], curves: &[] };
        assert!(write_scatter(&std::env::temp_dir(), &plot).is_err());
    }
}
