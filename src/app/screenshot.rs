//! `play --screenshot out.png --frames N`: render at least N frames, save the window to a PNG,
//! exit. A capture that comes back blank (pipelines still compiling under a software renderer)
//! is retried a few frames later instead of being saved. The brightness statistics that tell a
//! blank image ([`stats_of`]) are also what `wartable png-check` reports.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

/// Brightness statistics of an image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelStats {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Mean brightness, 0-255.
    pub mean: f64,
    /// Standard deviation of brightness, 0-255.
    pub stddev: f64,
}

/// Brightness statistics of an image in memory.
pub fn stats_of(image: &image::DynamicImage) -> PixelStats {
    let img = image.to_luma8();
    let n = f64::from(img.width()) * f64::from(img.height());
    let (sum, sq) = img.pixels().fold((0.0, 0.0), |(s, q), p| {
        let v = f64::from(p.0[0]);
        (s + v, q + v * v)
    });
    let mean = sum / n.max(1.0);
    PixelStats {
        width: img.width(),
        height: img.height(),
        mean,
        stddev: (sq / n.max(1.0) - mean * mean).max(0.0).sqrt(),
    }
}

/// Below this brightness standard deviation an image counts as blank (0-255 scale).
pub const BLANK_STDDEV: f64 = 2.0;

/// Frames waited between a blank capture and the next try.
pub const RETRY_FRAMES: u32 = 10;
/// Captures tried before a blank one is saved anyway.
pub const MAX_ATTEMPTS: u32 = 30;

/// Where and when to take the screenshot.
#[derive(Resource, Debug, Clone)]
pub struct ScreenshotPlan {
    /// PNG path.
    pub path: PathBuf,
    /// Frames to render before the first capture.
    pub frames: u32,
    /// Frames until the next capture.
    pub countdown: u32,
    /// Captures taken so far.
    pub attempts: u32,
    /// Frame times seen so far (milliseconds, wall clock).
    pub frame_ms: Vec<f32>,
}

/// Frames left out of the frame-time figures (pipelines compile during the first ones).
pub const WARM_UP_FRAMES: usize = 10;

impl ScreenshotPlan {
    /// Median and mean frame time (ms) after the warm-up frames, if any were measured.
    pub fn frame_time(&self) -> Option<(f32, f32)> {
        let mut v: Vec<f32> = self.frame_ms.iter().skip(WARM_UP_FRAMES).copied().collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f32::total_cmp);
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        Some((v[v.len() / 2], mean))
    }
}

impl ScreenshotPlan {
    /// A plan to capture to `path` after `frames` frames.
    pub fn new(path: PathBuf, frames: u32) -> Self {
        ScreenshotPlan {
            path,
            frames,
            countdown: frames.max(1),
            attempts: 0,
            frame_ms: Vec::new(),
        }
    }
}

/// Takes the screenshot when a [`ScreenshotPlan`] resource is present.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        count_and_capture.run_if(resource_exists::<ScreenshotPlan>),
    );
}

fn count_and_capture(
    mut commands: Commands,
    mut plan: ResMut<ScreenshotPlan>,
    time: Res<Time<Real>>,
) {
    plan.frame_ms.push(time.delta_secs() * 1000.0);
    if plan.countdown == 0 {
        return; // A capture is in flight.
    }
    plan.countdown -= 1;
    if plan.countdown > 0 {
        return;
    }
    plan.attempts += 1;
    commands
        .spawn(Screenshot::primary_window())
        .observe(on_captured);
}

fn on_captured(
    captured: On<ScreenshotCaptured>,
    mut plan: ResMut<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    let image = match captured.image.clone().try_into_dynamic() {
        Ok(image) => image,
        Err(e) => {
            error!("cannot convert the screenshot: {e}");
            exit.write(AppExit::error());
            return;
        }
    };
    let stats = stats_of(&image);
    if stats.stddev < BLANK_STDDEV && plan.attempts < MAX_ATTEMPTS {
        info!("capture {} is blank, retrying", plan.attempts);
        plan.countdown = RETRY_FRAMES;
        return;
    }
    let rgb = image.to_rgb8();
    match crate::data::write::write_png(&plan.path, rgb.width(), rgb.height(), rgb.as_raw()) {
        Ok(()) => {
            if let Some((median, mean)) = plan.frame_time() {
                info!(
                    "frame time: median {median:.1} ms, mean {mean:.1} ms over {} frames",
                    plan.frame_ms.len().saturating_sub(WARM_UP_FRAMES)
                );
            }
            info!(
                "screenshot saved to {} after {} frames",
                plan.path.display(),
                plan.frames + (plan.attempts - 1) * RETRY_FRAMES
            );
            exit.write(AppExit::Success);
        }
        Err(e) => {
            error!("cannot save {}: {e}", plan.path.display());
            exit.write(AppExit::error());
        }
    }
}
