//! Plots of the sampling experiment, after the paper's Figures 2 and 3:
//! per-state mean RMSD against log10(consistent deals), with LOESS curves.

use super::{register_fonts, write_svg_png};
use anyhow::anyhow;
use plotters::prelude::*;
use sleuth_sim::experiment::{
    loess, methods_run, state_means, Method, Range, Results, StateMean, PAPER_THRESHOLD, SPAN,
};
use std::path::{Path, PathBuf};

/// Points of the LOESS curves.
const CURVE_POINTS: usize = 120;

fn color(method: Method) -> RGBColor {
    match method {
        Method::Alg1 => RGBColor(0x22, 0x22, 0x22),
        Method::A => RGBColor(0xd6, 0x27, 0x28),
        Method::B => RGBColor(0xff, 0x7f, 0x0e),
        Method::B20 => RGBColor(0xbc, 0xbd, 0x22),
        Method::C => RGBColor(0x94, 0x67, 0xbd),
        Method::D => RGBColor(0x2c, 0xa0, 0x2c),
        Method::Alg2 => RGBColor(0x1f, 0x77, 0xb4),
        Method::Tenure(1) => RGBColor(0x17, 0xbe, 0xcf),
        Method::Tenure(3) => RGBColor(0x7f, 0x7f, 0x7f),
        Method::Tenure(4) => RGBColor(0x39, 0x3b, 0x79),
        Method::Tenure(_) => RGBColor(0xad, 0x49, 0x4a),
        Method::UniformSamples => RGBColor(0x8c, 0x56, 0x4b),
        Method::UniformTime => RGBColor(0xe3, 0x77, 0xc2),
    }
}

/// Writes `rmsd_variants.{svg,png}` (Figure 2: each variation against its
/// baseline, and Algorithm 2 against the uniform sampler),
/// `rmsd_curves.{svg,png}` (Figure 3: every method's LOESS curve) and, when
/// the tenure sweep ran, `rmsd_tenure.{svg,png}` (mean RMSD per tabu
/// tenure) into `dir`, and returns the files written.
///
/// # Errors
/// When drawing or writing fails.
pub fn write_plots(dir: &Path, results: &Results) -> anyhow::Result<Vec<PathBuf>> {
    register_fonts();
    let means = state_means(results);
    let methods = methods_run(results);
    let mut files = Vec::new();
    for (name, svg) in [("rmsd_variants", variants_svg(&means)?), ("rmsd_curves", curves_svg(&means, &methods)?)] {
        files.extend(write_svg_png(dir, name, &svg)?);
    }
    let tenures: Vec<(u64, Method)> = Method::TENURES.into_iter().filter(|(_, m)| methods.contains(m)).collect();
    if tenures.len() >= 2 {
        files.extend(write_svg_png(dir, "rmsd_tenure", &tenure_svg(&means, &tenures)?)?);
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
        let specs: [(&str, &[Method]); 6] = [
            ("(a) random restart vs Algorithm 1", &[Method::Alg1, Method::A]),
            ("(b) flip or restart (p = 0.8 and 0.2) vs Algorithm 1", &[Method::Alg1, Method::B, Method::B20][..]),
            ("(c) mixed random/heuristic flips vs Algorithm 1", &[Method::Alg1, Method::C]),
            ("(d) duplicates eliminated vs Algorithm 1", &[Method::Alg1, Method::D]),
            ("(e) Algorithm 2 vs (d)", &[Method::D, Method::Alg2]),
            ("uniform sampler, Algorithm 2's time, vs Algorithm 2", &[Method::Alg2, Method::UniformTime]),
        ];
        for (area, (title, methods)) in panels.iter().zip(specs) {
            let present: Vec<Method> = methods.iter().copied().filter(|&m| !points(means, m).is_empty()).collect();
            panel(area, title, means, &present, true)?;
        }
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}

fn curves_svg(means: &[StateMean], methods: &[Method]) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 650)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let x = x_range(means);
        let curves: Vec<(Method, Vec<(f64, f64)>)> =
            methods.iter().map(|&m| (m, curve(&points(means, m), &x))).collect();
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

/// Section 4.2.5's sweep: mean RMSD over the states within the threshold
/// against the tabu tenure, with ± 2 standard errors over states, and the
/// same beyond the threshold when there are such states.
fn tenure_svg(means: &[StateMean], tenures: &[(u64, Method)]) -> anyhow::Result<String> {
    let stats = |m: Method, range: Range| -> Option<(f64, f64)> {
        let xs: Vec<f64> = means.iter().filter(|s| s.method == m && s.range == range).map(|s| s.rmsd).collect();
        if xs.is_empty() {
            return None;
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
        Some((mean, (var / n).sqrt()))
    };
    // (label, colour, points of (tenure, mean, standard error)).
    type Series<'a> = (&'a str, RGBColor, Vec<(f64, f64, f64)>);
    let series: Vec<Series> = [
        ("states ≤ 10^7 deals (the paper's range)", RGBColor(0x1f, 0x77, 0xb4), Range::Paper),
        ("states > 10^7 deals", RGBColor(0xd6, 0x27, 0x28), Range::Beyond),
    ]
    .into_iter()
    .map(|(label, col, range)| {
        let pts = tenures
            .iter()
            .filter_map(|&(t, m)| stats(m, range).map(|(mean, se)| (t as f64, mean, se)))
            .collect::<Vec<_>>();
        (label, col, pts)
    })
    .filter(|(_, _, pts)| !pts.is_empty())
    .collect();
    let y = series.iter().flat_map(|(_, _, p)| p.iter().map(|q| q.1 + 2.0 * q.2)).fold(0.0, f64::max).max(1e-3) * 1.15;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Tabu tenure sweep (duplicates eliminated): mean RMSD over states, ± 2 standard errors",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(62)
            .build_cartesian_2d(0.0..11.0, 0.0..y)
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_desc("tabu tenure (2: Algorithm 2; 10: variation (d))")
            .y_desc("mean RMSD")
            .y_label_formatter(&|v| format!("{v:.4}"))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        for (label, col, pts) in series {
            chart
                .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), col.stroke_width(2)))
                .map_err(|e| anyhow!("{e}"))?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], col.stroke_width(3)));
            chart
                .draw_series(pts.iter().map(|&(x, m, se)| {
                    PathElement::new(vec![(x, (m - 2.0 * se).max(0.0)), (x, m + 2.0 * se)], col.stroke_width(1))
                }))
                .map_err(|e| anyhow!("{e}"))?;
            chart
                .draw_series(pts.iter().map(|&(x, m, _)| Circle::new((x, m), 4, col.filled())))
                .map_err(|e| anyhow!("{e}"))?;
        }
        super::draw_legend(&mut chart, SeriesLabelPosition::UpperRight, 14)?;
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}
