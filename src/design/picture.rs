//! The heatmap picture: the table seen from above with each cell coloured by which zones see
//! it, the terrain, zones and objectives drawn over it, and a legend, as a PNG (image crate;
//! text in the public-domain 8x8 font of the font8x8 crate).

use std::path::Path;

use font8x8::UnicodeFonts;
use image::{Rgb, RgbImage};

use super::analysis::{Analysis, AnalysisInput};
use crate::geometry::{Vec2, polygon};
use crate::rules::constants::{
    BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, OBJECTIVE_MARKER_RADIUS_INCHES,
};

/// Pixels per inch of the table in the picture.
pub const PIXELS_PER_INCH: u32 = 12;

/// Cell colours: seen by neither zone, player 1 only, player 2 only, both.
pub const SEEN_COLOURS: [[u8; 3]; 4] =
    [[48, 48, 52], [70, 110, 220], [215, 70, 60], [170, 90, 190]];

const LEGEND_HEIGHT: u32 = 110;
const MARGIN: u32 = 8;

/// Which colour of [`SEEN_COLOURS`] a cell gets: bit 0 seen by the first zone, bit 1 by the
/// second.
pub fn seen_class(first: bool, second: bool) -> usize {
    usize::from(first) | (usize::from(second) << 1)
}

/// Draws the heatmap of probe kind `kind` (0 infantry, 1 vehicle) of `analysis` over the
/// terrain of `input`.
pub fn render(input: &AnalysisInput, analysis: &Analysis, kind: usize) -> RgbImage {
    let s = PIXELS_PER_INCH;
    let (w, h) = (
        (BOARD_WIDTH_INCHES * s as f32) as u32,
        (BOARD_DEPTH_INCHES * s as f32) as u32,
    );
    let mut img = RgbImage::from_pixel(
        w + 2 * MARGIN,
        h + 2 * MARGIN + LEGEND_HEIGHT,
        Rgb([24, 24, 28]),
    );
    // Table y grows upwards; the picture's downwards.
    let to_px = |p: Vec2| {
        (
            MARGIN as f32 + p.x * s as f32,
            MARGIN as f32 + (BOARD_DEPTH_INCHES - p.y) * s as f32,
        )
    };
    if let Some(m) = analysis.maps.first() {
        let (cols, rows, cell) = (m[kind].cols, m[kind].rows, m[kind].cell);
        for y in 0..h {
            for x in 0..w {
                let tx = (x as f32 + 0.5) / s as f32;
                let ty = BOARD_DEPTH_INCHES - (y as f32 + 0.5) / s as f32;
                let (c, r) = (
                    ((tx / cell) as usize).min(cols - 1),
                    ((ty / cell) as usize).min(rows - 1),
                );
                let i = r * cols + c;
                let seen = |z: usize| analysis.maps.get(z).is_some_and(|m| m[kind].visible[i]);
                img.put_pixel(
                    x + MARGIN,
                    y + MARGIN,
                    Rgb(SEEN_COLOURS[seen_class(seen(0), seen(1))]),
                );
            }
        }
    }
    // Under 11th: the cells where an INFANTRY model may be Hidden, hatched in green.
    if let Some(hidden) = &analysis.hidden {
        for y in 0..h {
            for x in 0..w {
                if (x + y) % 6 != 0 {
                    continue;
                }
                let tx = (x as f32 + 0.5) / s as f32;
                let ty = BOARD_DEPTH_INCHES - (y as f32 + 0.5) / s as f32;
                let (c, r) = (
                    ((tx / hidden.cell) as usize).min(hidden.cols - 1),
                    ((ty / hidden.cell) as usize).min(hidden.rows - 1),
                );
                if hidden.visible[r * hidden.cols + c] {
                    img.put_pixel(x + MARGIN, y + MARGIN, Rgb([90, 220, 120]));
                }
            }
        }
    }
    for (player, _, area) in &input.zones {
        let colour = if *player == 1 {
            [140, 170, 255]
        } else {
            [255, 150, 140]
        };
        outline(&mut img, area, to_px, colour);
    }
    for p in &input.pieces {
        outline(&mut img, &p.footprint, to_px, [235, 235, 225]);
        for wall in &p.walls {
            let dir = (wall.end - wall.start).normalize_or_zero();
            let side = Vec2::new(-dir.y, dir.x) * wall.thickness.max(0.25) / 2.0;
            let quad = [
                wall.start - side,
                wall.end - side,
                wall.end + side,
                wall.start + side,
            ];
            fill(&mut img, &quad, to_px, [250, 250, 250]);
        }
    }
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES;
    for o in &input.objectives {
        let disc: Vec<Vec2> = (0..24)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / 24.0;
                o.at.vec() + Vec2::new(a.cos(), a.sin()) * radius
            })
            .collect();
        fill(&mut img, &disc, to_px, [250, 205, 50]);
    }
    // Legend.
    let top = h + 2 * MARGIN + 4;
    let probe = if kind == 0 {
        "infantry (32mm, 1.6in)"
    } else {
        "vehicle (4.7x3.6in hull, 3.5in)"
    };
    text(
        &mut img,
        MARGIN,
        top,
        &format!("{} / {}", analysis.layout, analysis.deployment),
        [230, 230, 230],
    );
    text(
        &mut img,
        MARGIN,
        top + 12,
        &format!("probe: {probe}, {}in cells", analysis.cell_inches),
        [200, 200, 200],
    );
    let top = top + 12;
    let share = |z: usize| {
        analysis.zones.get(z).map_or(0.0, |r| {
            if kind == 0 {
                r.infantry_visible_share
            } else {
                r.vehicle_visible_share
            }
        }) * 100.0
    };
    let labels = [
        "seen from neither zone".to_string(),
        format!("seen from P1's zone only (P1 sees {:.0}%)", share(0)),
        format!("seen from P2's zone only (P2 sees {:.0}%)", share(1)),
        "seen from both zones".to_string(),
    ];
    for (k, label) in labels.iter().enumerate() {
        let (x, y) = (
            MARGIN + (k as u32 % 2) * (w / 2),
            top + 16 + (k as u32 / 2) * 18,
        );
        for dy in 0..12 {
            for dx in 0..12 {
                img.put_pixel(x + dx, y + dy, Rgb(SEEN_COLOURS[k]));
            }
        }
        text(&mut img, x + 18, y + 2, label, [220, 220, 220]);
    }
    text(
        &mut img,
        MARGIN,
        top + 56,
        &format!(
            "white: terrain footprints and walls; yellow: objectives; {} open lanes; asymmetry {:.3}",
            analysis.lanes.count, analysis.asymmetry.score
        ),
        [200, 200, 200],
    );
    if let Some(h) = analysis.hidden_share {
        text(
            &mut img,
            MARGIN,
            top + 74,
            &format!(
                "11th edition: green hatch: an INFANTRY model may be Hidden ({:.1}% of the table)",
                h * 100.0
            ),
            [90, 220, 120],
        );
    }
    img
}

/// Writes [`render`] to `path` as PNG.
///
/// # Errors
/// The image crate's message when the file cannot be written.
pub fn write_png(
    path: &Path,
    input: &AnalysisInput,
    analysis: &Analysis,
    kind: usize,
) -> Result<(), String> {
    let img = render(input, analysis, kind);
    crate::data::write::write_png(path, img.width(), img.height(), img.as_raw())
        .map_err(|e| e.to_string())
}

fn put(img: &mut RgbImage, x: f32, y: f32, colour: [u8; 3]) {
    if x >= 0.0 && y >= 0.0 && (x as u32) < img.width() && (y as u32) < img.height() {
        img.put_pixel(x as u32, y as u32, Rgb(colour));
    }
}

fn outline(img: &mut RgbImage, poly: &[Vec2], to_px: impl Fn(Vec2) -> (f32, f32), colour: [u8; 3]) {
    for (a, b) in polygon::edges(poly) {
        let ((x0, y0), (x1, y1)) = (to_px(a), to_px(b));
        let steps = ((x1 - x0).abs().max((y1 - y0).abs()).ceil() as usize).max(1);
        for k in 0..=steps {
            let t = k as f32 / steps as f32;
            put(img, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, colour);
        }
    }
}

fn fill(img: &mut RgbImage, poly: &[Vec2], to_px: impl Fn(Vec2) -> (f32, f32), colour: [u8; 3]) {
    let px: Vec<Vec2> = poly
        .iter()
        .map(|p| {
            let (x, y) = to_px(*p);
            Vec2::new(x, y)
        })
        .collect();
    let (lo, hi) = polygon::bounds(&px);
    for y in lo.y.floor().max(0.0) as u32..=hi.y.ceil().max(0.0) as u32 {
        for x in lo.x.floor().max(0.0) as u32..=hi.x.ceil().max(0.0) as u32 {
            if polygon::contains(&px, Vec2::new(x as f32 + 0.5, y as f32 + 0.5)) {
                put(img, x as f32, y as f32, colour);
            }
        }
    }
    outline(img, poly, &to_px, colour);
}

/// Draws `s` with its top-left corner at (`x`, `y`), 8 pixels per character.
fn text(img: &mut RgbImage, x: u32, y: u32, s: &str, colour: [u8; 3]) {
    for (k, ch) in s.chars().enumerate() {
        let Some(glyph) = font8x8::BASIC_FONTS.get(ch) else {
            continue;
        };
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) != 0 {
                    put(
                        img,
                        (x + k as u32 * 8 + col) as f32,
                        (y + row as u32) as f32,
                        colour,
                    );
                }
            }
        }
    }
}
