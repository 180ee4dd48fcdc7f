//! `wartable simulate --report out.png`: the batch's results drawn with plotters: each
//! computer player's share of decided games won with its 95% interval, and its mean victory
//! points at the end of each battle round. Text is set in the Ubuntu Light typeface egui
//! ships (epaint_default_fonts, Ubuntu Font Licence).

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;

use super::simulate_cmd::Summary;

/// Width and height of the report, pixels.
pub const REPORT_SIZE: (u32, u32) = (1200, 520);

/// The font family name the report registers its typeface under.
const FAMILY: &str = "sans-serif";

/// Colours of computer players A and B.
const COLOURS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];

fn register_font() -> Result<(), String> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = plotters::style::register_font(
            FAMILY,
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        )
        .map_err(|_| "the report's typeface cannot be read".to_string());
    });
    result
}

/// Draws `summary` as a PNG at `png` ([`REPORT_SIZE`]).
///
/// # Errors
/// The drawing fails or the file cannot be written.
pub fn draw(summary: &Summary, png: &Path) -> Result<(), String> {
    register_font()?;
    let (w, h) = REPORT_SIZE;
    let mut buf = vec![0u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled(
                &format!(
                    "{}: {} games{}",
                    summary.scene,
                    summary.games,
                    if summary.alternate {
                        ", seats alternating"
                    } else {
                        ""
                    }
                ),
                (FAMILY, 24),
            )
            .map_err(|e| e.to_string())?;
        let (left, right) = root.split_horizontally(w / 2);
        wins(summary, &left).map_err(|e| e.to_string())?;
        vp(summary, &right).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    crate::data::write::write_png(png, w, h, &buf).map_err(|e| e.to_string())
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
type Failure<'a> = DrawingAreaErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

/// Decided games won by A and B, as bars with their 95% intervals.
fn wins<'a>(summary: &Summary, area: &Area<'a>) -> Result<(), Failure<'a>> {
    let mut chart = ChartBuilder::on(area)
        .caption("decided games won, with 95% interval", (FAMILY, 20))
        .margin(20)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0f64..2.0, 0.0f64..100.0)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("%")
        .label_style((FAMILY, 16))
        .draw()?;
    for (i, p) in summary.players.iter().enumerate() {
        let x = i as f64;
        let rate = p.decided_win_rate * 100.0;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x + 0.25, 0.0), (x + 0.75, rate)],
            COLOURS[i].filled(),
        )))?;
        let [lo, hi] = p.decided_win_rate_95.map(|v| v * 100.0);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x + 0.5, lo), (x + 0.5, hi)],
            BLACK.stroke_width(2),
        )))?;
        for y in [lo, hi] {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x + 0.42, y), (x + 0.58, y)],
                BLACK.stroke_width(2),
            )))?;
        }
        let who = if i == 0 { "A" } else { "B" };
        chart.draw_series(std::iter::once(Text::new(
            format!("{who} {} {rate:.0}%", p.level),
            (x + 0.27, (hi + 6.0).min(96.0)),
            (FAMILY, 18),
        )))?;
    }
    Ok(())
}

/// Mean victory points of A and B at the end of each battle round.
fn vp<'a>(summary: &Summary, area: &Area<'a>) -> Result<(), Failure<'a>> {
    let rounds = summary
        .players
        .iter()
        .map(|p| p.mean_vp_per_round.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let top = summary
        .players
        .iter()
        .flat_map(|p| p.mean_vp_per_round.iter().copied())
        .fold(10.0f64, f64::max)
        * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption("mean VP at the end of each battle round", (FAMILY, 20))
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.5f64..rounds as f64 + 0.5, 0.0f64..top)?;
    chart
        .configure_mesh()
        .x_desc("battle round")
        .y_desc("VP")
        .x_labels(rounds)
        .label_style((FAMILY, 16))
        .draw()?;
    for (i, p) in summary.players.iter().enumerate() {
        let points: Vec<(f64, f64)> = p
            .mean_vp_per_round
            .iter()
            .enumerate()
            .map(|(r, v)| (r as f64 + 1.0, *v))
            .collect();
        let colour = COLOURS[i];
        let who = if i == 0 { "A" } else { "B" };
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(3)))?
            .label(format!("{who} ({})", p.level))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        chart.draw_series(
            points
                .into_iter()
                .map(|c| Circle::new(c, 5, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font((FAMILY, 16))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}
