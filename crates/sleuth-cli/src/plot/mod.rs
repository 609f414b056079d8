//! Plots: the sampling experiment's ([`sampling`]) and the tournament's
//! ([`tournament`]).
//!
//! Each plot is drawn once as SVG with plotters and rasterised to PNG with
//! resvg. Text is laid out and rendered with DejaVu Sans embedded in the
//! binary (the `dejavu` crate), so no system font is needed; the SVG names
//! the generic `sans-serif` family, which viewers draw with their own font.

pub mod sampling;
pub mod tournament;

pub use sampling::write_plots;

use anyhow::{anyhow, Context as _};
use plotters::style::{register_font, FontStyle};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Once};

/// Registers DejaVu Sans as plotters' `sans-serif` (once per process).
fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // DejaVu Sans is a valid font; registration cannot fail.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Writes `svg` as `dir/name.svg` and, rasterised, as `dir/name.png`, and
/// returns both paths.
///
/// # Errors
/// When the SVG cannot be rasterised or a file cannot be written.
fn write_svg_png(dir: &Path, name: &str, svg: &str) -> anyhow::Result<Vec<PathBuf>> {
    let svg_path = dir.join(format!("{name}.svg"));
    std::fs::write(&svg_path, svg).with_context(|| format!("cannot write {}", svg_path.display()))?;
    let png_path = dir.join(format!("{name}.png"));
    std::fs::write(&png_path, rasterise(svg)?).with_context(|| format!("cannot write {}", png_path.display()))?;
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
