//! Plots: the sampling experiment's ([`sampling`]), the tournament's
//! ([`tournament`]), and timings of states ([`scatter`]: the benchmark's,
//! and the side-by-side example's).
//!
//! Each plot is drawn once as SVG with plotters and rasterised to PNG with
//! resvg. Text is laid out and rendered with DejaVu Sans embedded in the
//! binary (the `dejavu` crate), so no system font is needed; the SVG names
//! the generic `sans-serif` family, which viewers draw with their own font.

pub mod sampling;
pub mod scatter;
pub mod tournament;

pub use sampling::write_plots;

use crate::input::write_atomic;
use anyhow::{anyhow, Context as _};
use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::coord::CoordTranslate;
use plotters::prelude::{DrawingBackend, RGBColor, BLACK, WHITE};
use plotters::style::{register_font, Color as _, FontStyle};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Once};

/// Colours of series in order (the tab10 palette): agents and player counts
/// in the tournament plot, groups of states in the timing plots.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// Registers DejaVu Sans as plotters' `sans-serif` (once per process).
fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // DejaVu Sans is a valid font; registration cannot fail.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Draws the legend of `chart`'s labelled series, in the style every plot
/// shares: a translucent white box with a thin border.
fn draw_legend<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
    font_size: u32,
) -> anyhow::Result<()>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(position)
        .label_font(("sans-serif", font_size))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(|e| anyhow!("{e}"))
}

/// Writes `svg` as `dir/name.svg` and, rasterised, as `dir/name.png` (each
/// atomically), and returns both paths.
///
/// # Errors
/// When the SVG cannot be rasterised or a file cannot be written.
fn write_svg_png(dir: &Path, name: &str, svg: &str) -> anyhow::Result<Vec<PathBuf>> {
    let svg_path = dir.join(format!("{name}.svg"));
    write_atomic(&svg_path, svg.as_bytes())?;
    let png_path = dir.join(format!("{name}.png"));
    write_atomic(&png_path, &rasterise(svg)?)?;
    Ok(vec![svg_path, png_path])
}

/// Renders an SVG to PNG with the embedded DejaVu fonts.
fn rasterise(svg: &str) -> anyhow::Result<Vec<u8>> {
    let mut fontdb = resvg::usvg::fontdb::Database::new();
    fontdb.load_font_data(dejavu::sans::regular().to_vec());
    fontdb.load_font_data(dejavu::sans::bold().to_vec());
    fontdb.set_sans_serif_family("DejaVu Sans");
    let options = resvg::usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: Arc::new(fontdb),
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &options).context("the plot is not valid SVG")?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| anyhow!("cannot rasterise a plot of {}×{} pixels", size.width(), size.height()))?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut pixmap.as_mut());
    pixmap.encode_png().context("cannot encode the plot as PNG")
}
