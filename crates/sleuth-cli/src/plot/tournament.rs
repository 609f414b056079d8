//! The tournament plot: each agent's win rate with its 95 % interval by
//! player count (left), and the win rate of each seat (right).

use super::{register_fonts, write_svg_png, PALETTE};
use anyhow::anyhow;
use plotters::prelude::*;
use sleuth_sim::tournament::Summary;
use std::path::{Path, PathBuf};

/// Writes `win_rates.{svg,png}` into `dir` and returns the files.
///
/// # Errors
/// When drawing or writing fails.
pub fn write_tournament_plot(dir: &Path, summary: &Summary) -> anyhow::Result<Vec<PathBuf>> {
    register_fonts();
    write_svg_png(dir, "win_rates", &svg(summary)?)
}

/// Whole numbers as labels, nothing in between.
fn integer_label(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{}", v.round())
    } else {
        String::new()
    }
}

fn svg(summary: &Summary) -> anyhow::Result<String> {
    let counts: Vec<usize> = summary.lengths.iter().map(|l| l.players).collect();
    let (lo, hi) = (counts.iter().copied().min().unwrap_or(3) as f64, counts.iter().copied().max().unwrap_or(6) as f64);
    let top = summary.by_agent.iter().map(|r| r.high).fold(0.0, f64::max).max(0.05) * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1400, 620)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let (left, right) = root.split_horizontally(760);

        // Left: win rate per agent and player count, with 95 % intervals,
        // and each player count's fair share (1/n) dashed.
        let mut chart = ChartBuilder::on(&left)
            .caption(format!("Win rate per seat, 95 % Wilson intervals ({} deck)", summary.deck), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(58)
            .build_cartesian_2d((lo - 0.5)..(hi + 0.5), 0.0..top.min(1.0))
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("players")
            .y_desc("win rate")
            .x_labels(counts.len() * 4 + 1)
            .x_label_formatter(&integer_label)
            .y_label_formatter(&|v| format!("{:.0} %", 100.0 * v))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        for &n in &counts {
            let x = n as f64;
            let fair = 1.0 / n as f64;
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(x - 0.42, fair), (x + 0.42, fair)],
                    5,
                    4,
                    BLACK.mix(0.4).stroke_width(1),
                ))
                .map_err(|e| anyhow!("{e}"))?;
        }
        let k = summary.agents.len().max(1);
        for (i, agent) in summary.agents.iter().enumerate() {
            let c = PALETTE[i % PALETTE.len()];
            let offset = if k == 1 { 0.0 } else { -0.3 + 0.6 * i as f64 / (k - 1) as f64 };
            let rows: Vec<_> = summary
                .by_agent
                .iter()
                .filter(|r| &r.agent == agent && r.seats > 0)
                .filter_map(|r| r.players.map(|n| (n as f64 + offset, r)))
                .collect();
            chart
                .draw_series(
                    rows.iter().map(|(x, r)| PathElement::new(vec![(*x, r.low), (*x, r.high)], c.stroke_width(2))),
                )
                .map_err(|e| anyhow!("{e}"))?;
            chart
                .draw_series(rows.iter().map(|(x, r)| Circle::new((*x, r.rate), 4, c.filled())))
                .map_err(|e| anyhow!("{e}"))?
                .label(agent.as_str())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
        }
        super::draw_legend(&mut chart, SeriesLabelPosition::UpperRight, 14)?;

        // Right: the win rate of each seat, every agent together.
        let seats = counts.iter().copied().max().unwrap_or(1);
        let top =
            summary.by_seat.iter().filter(|r| r.agent.is_none()).map(|r| r.high).fold(0.0, f64::max).max(0.05) * 1.1;
        let mut chart = ChartBuilder::on(&right)
            .caption("Win rate by seat (every agent; seat 0 moves first)", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(58)
            .build_cartesian_2d(-0.5..(seats as f64 - 0.5), 0.0..top.min(1.0))
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("seat")
            .y_desc("win rate")
            .x_labels(seats * 4 + 1)
            .x_label_formatter(&integer_label)
            .y_label_formatter(&|v| format!("{:.0} %", 100.0 * v))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        for (i, &n) in counts.iter().enumerate() {
            let c = PALETTE[i % PALETTE.len()];
            let offset = -0.15 + 0.3 * i as f64 / counts.len().max(2).saturating_sub(1) as f64;
            let rows: Vec<_> = summary
                .by_seat
                .iter()
                .filter(|r| r.players == n && r.agent.is_none() && r.seats > 0)
                .map(|r| (r.seat as f64 + offset, r))
                .collect();
            chart
                .draw_series(
                    rows.iter()
                        .map(|(x, r)| PathElement::new(vec![(*x, r.low), (*x, r.high)], c.mix(0.6).stroke_width(2))),
                )
                .map_err(|e| anyhow!("{e}"))?;
            chart
                .draw_series(LineSeries::new(rows.iter().map(|(x, r)| (*x, r.rate)), c.stroke_width(2)))
                .map_err(|e| anyhow!("{e}"))?
                .label(format!("{n} players"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(3)));
        }
        super::draw_legend(&mut chart, SeriesLabelPosition::UpperRight, 14)?;
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}
