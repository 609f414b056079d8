//! Plots of the sampling experiment, after the paper's Figures 2 and 3:
//! per-state mean RMSD against log10(consistent deals), with LOESS curves.

use super::{register_fonts, write_svg_png};
use anyhow::anyhow;
use plotters::prelude::*;
use sleuth_sim::experiment::{loess, state_means, Method, Results, StateMean, PAPER_THRESHOLD, SPAN};
use std::path::{Path, PathBuf};

/// Points of the LOESS curves.
const CURVE_POINTS: usize = 120;

fn color(method: Method) -> RGBColor {
    match method {
        Method::Alg1 => RGBColor(0x22, 0x22, 0x22),
        Method::A => RGBColor(0xd6, 0x27, 0x28),
        Method::B => RGBColor(0xff, 0x7f, 0x0e),
        Method::C => RGBColor(0x94, 0x67, 0xbd),
        Method::D => RGBColor(0x2c, 0xa0, 0x2c),
        Method::Alg2 => RGBColor(0x1f, 0x77, 0xb4),
        Method::UniformSamples => RGBColor(0x8c, 0x56, 0x4b),
        Method::UniformTime => RGBColor(0xe3, 0x77, 0xc2),
    }
}

/// Writes `rmsd_variants.{svg,png}` (Figure 2: each variation against its
/// baseline, and Algorithm 2 against the uniform sampler) and
/// `rmsd_curves.{svg,png}` (Figure 3: every method's LOESS curve) into
/// `dir`, and returns the files written.
///
/// # Errors
/// When drawing or writing fails.
pub fn write_plots(dir: &Path, results: &Results) -> anyhow::Result<Vec<PathBuf>> {
    register_fonts();
    let means = state_means(results);
    let mut files = Vec::new();
    for (name, svg) in [("rmsd_variants", variants_svg(&means)?), ("rmsd_curves", curves_svg(&means)?)] {
        files.extend(write_svg_png(dir, name, &svg)?);
    }
    Ok(files)
}

/// The x range of the plots: every state, with a margin.
fn x_range(means: &[StateMean]) -> std::ops::Range<f64> {
    let lo = means.iter().map(|m| m.log10_models).fold(f64::INFINITY, f64::min);
    let hi = means.iter().map(|m| m.log10_models).fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return 0.0..8.0;
    }
    (lo.floor().max(0.0))..(hi.ceil().max(lo.floor() + 1.0))
}

fn points(means: &[StateMean], method: Method) -> Vec<(f64, f64)> {
    means.iter().filter(|m| m.method == method).map(|m| (m.log10_models, m.rmsd)).collect()
}

/// The LOESS curve of a method's points, clamped at 0 as in the paper.
fn curve(pts: &[(f64, f64)], x: &std::ops::Range<f64>) -> Vec<(f64, f64)> {
    if pts.len() < 2 {
        return Vec::new();
    }
    let lo = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min).max(x.start);
    let hi = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max).min(x.end);
    let at: Vec<f64> = (0..CURVE_POINTS).map(|i| lo + (hi - lo) * i as f64 / (CURVE_POINTS - 1) as f64).collect();
    let xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
    at.iter().copied().zip(loess(&xs, &ys, SPAN, &at)).map(|(x, y)| (x, y.max(0.0))).collect()
}

fn y_max(means: &[StateMean], methods: &[Method]) -> f64 {
    let top = means.iter().filter(|m| methods.contains(&m.method)).map(|m| m.rmsd).fold(0.0, f64::max);
    if top > 0.0 {
        top * 1.08
    } else {
        0.01
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// One panel: dark points and curve for `base`, light for `variant`.
fn panel(
    area: &Area<'_>,
    title: &str,
    means: &[StateMean],
    methods: &[Method],
    show_threshold: bool,
) -> anyhow::Result<()> {
    let x = x_range(means);
    let y = y_max(means, methods);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 17))
        .margin(8)
        .x_label_area_size(38)
        .y_label_area_size(58)
        .build_cartesian_2d(x.clone(), 0.0..y)
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .x_desc("log10(number of consistent deals)")
        .y_desc("RMSD")
        .y_label_formatter(&|v| format!("{v:.3}"))
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 14))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    if show_threshold {
        let t = (PAPER_THRESHOLD as f64).log10();
        if x.contains(&t) {
            chart
                .draw_series(DashedLineSeries::new(vec![(t, 0.0), (t, y)], 6, 4, BLACK.mix(0.45).stroke_width(1)))
                .map_err(|e| anyhow!("{e}"))?;
        }
    }
    for (i, &m) in methods.iter().enumerate() {
        let c = color(m);
        let pts = points(means, m);
        // The first method is the baseline: dark, filled; the others light.
        let alpha = if i == 0 { 0.75 } else { 0.45 };
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.mix(alpha).filled())))
            .map_err(|e| anyhow!("{e}"))?
            .label(m.label())
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
        chart
            .draw_series(LineSeries::new(curve(&pts, &x), c.stroke_width(if i == 0 { 3 } else { 2 })))
            .map_err(|e| anyhow!("{e}"))?;
    }
    super::draw_legend(&mut chart, SeriesLabelPosition::UpperLeft, 13)?;
    Ok(())
}

fn variants_svg(means: &[StateMean]) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1300, 1300)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let (top, body) = root.split_vertically(44);
        top.titled(
            "RMSD per game state (mean over runs) against the number of consistent deals; curves: LOESS, span 0.75",
            ("sans-serif", 18),
        )
        .map_err(|e| anyhow!("{e}"))?;
        let panels = body.split_evenly((3, 2));
        let specs: [(&str, [Method; 2]); 6] = [
            ("(a) random restart vs Algorithm 1", [Method::Alg1, Method::A]),
            ("(b) random flip or restart vs Algorithm 1", [Method::Alg1, Method::B]),
            ("(c) mixed random/heuristic flips vs Algorithm 1", [Method::Alg1, Method::C]),
            ("(d) duplicates eliminated vs Algorithm 1", [Method::Alg1, Method::D]),
            ("(e) Algorithm 2 vs (d)", [Method::D, Method::Alg2]),
            ("uniform sampler, Algorithm 2's time, vs Algorithm 2", [Method::Alg2, Method::UniformTime]),
        ];
        for (area, (title, methods)) in panels.iter().zip(specs) {
            panel(area, title, means, &methods, true)?;
        }
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}

fn curves_svg(means: &[StateMean]) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 650)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let x = x_range(means);
        let curves: Vec<(Method, Vec<(f64, f64)>)> =
            Method::ALL.into_iter().map(|m| (m, curve(&points(means, m), &x))).collect();
        // The uniform sampler at Algorithm 2's sample count is far above the
        // others on small states (Algorithm 2 enumerates them); it is cut off
        // at the top rather than squashing every other curve.
        let y = curves
            .iter()
            .filter(|(m, _)| *m != Method::UniformSamples)
            .flat_map(|(_, c)| c.iter().map(|p| p.1))
            .fold(0.0, f64::max)
            .max(1e-3)
            * 1.35;
        let curves: Vec<(Method, Vec<(f64, f64)>)> =
            curves.into_iter().map(|(m, c)| (m, c.into_iter().filter(|p| p.1 <= y).collect())).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "RMSD regression curves (LOESS, span 0.75) of every sampler; curves above the top are cut off",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(62)
            .build_cartesian_2d(x.clone(), 0.0..y)
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_desc("log10(number of consistent deals)")
            .y_desc("RMSD")
            .y_label_formatter(&|v| format!("{v:.3}"))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        let t = (PAPER_THRESHOLD as f64).log10();
        if x.contains(&t) {
            chart
                .draw_series(DashedLineSeries::new(vec![(t, 0.0), (t, y)], 6, 4, BLACK.mix(0.45).stroke_width(1)))
                .map_err(|e| anyhow!("{e}"))?
                .label("the paper's threshold, 10^7 deals")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.mix(0.45)));
        }
        for (m, c) in curves {
            let col = color(m);
            let width = if matches!(m, Method::Alg1 | Method::Alg2) { 3 } else { 2 };
            chart
                .draw_series(LineSeries::new(c, col.stroke_width(width)))
                .map_err(|e| anyhow!("{e}"))?
                .label(m.label())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], col.stroke_width(3)));
        }
        super::draw_legend(&mut chart, SeriesLabelPosition::UpperRight, 14)?;
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}
