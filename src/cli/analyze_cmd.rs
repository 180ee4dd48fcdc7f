//! `wartable analyze`: the layout analysis of a scene as a table or JSON, with an optional
//! heatmap PNG and a progress bar (indicatif, on standard error).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::data::load_scene_under;
use crate::design::analysis::{DEFAULT_CELL_INCHES, analyze_under, work};
use crate::design::{input_of, mirror, picture};

/// Smallest heatmap cell `--cell` accepts (inches).
pub const MIN_CELL_INCHES: f32 = 0.1;

/// Largest heatmap cell `--cell` accepts (inches).
pub const MAX_CELL_INCHES: f32 = 6.0;

/// Arguments of `analyze`.
#[derive(Debug, Clone, clap::Args)]
pub struct AnalyzeArgs {
    /// Scene file ("default" for the built-in default scene).
    pub scene: PathBuf,
    /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
    #[arg(long)]
    pub ruleset: Option<crate::rules::Ruleset>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the heatmap picture to this PNG.
    #[arg(long)]
    pub heatmap: Option<PathBuf>,
    /// Heatmap cell (inches, from 0.1 to 6).
    #[arg(long, default_value_t = DEFAULT_CELL_INCHES,
          value_parser = super::finite_f32_in(MIN_CELL_INCHES, MAX_CELL_INCHES))]
    pub cell: f32,
    /// Probe drawn in the heatmap picture: infantry or vehicle.
    #[arg(long, default_value = "infantry", value_parser = ["infantry", "vehicle"])]
    pub probe: String,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `analyze`.
pub fn run(scene: &Path, args: &AnalyzeArgs) -> ExitCode {
    // The parser checks the command line; this guards callers that build the arguments.
    if !(args.cell.is_finite() && (MIN_CELL_INCHES..=MAX_CELL_INCHES).contains(&args.cell)) {
        stderr_line!(
            "--cell must be between {MIN_CELL_INCHES} and {MAX_CELL_INCHES} inches, got {}",
            args.cell
        );
        return ExitCode::FAILURE;
    }
    let kind = match args.probe.as_str() {
        "infantry" => 0,
        "vehicle" => 1,
        other => {
            stderr_line!("--probe must be infantry or vehicle, got '{other}'");
            return ExitCode::FAILURE;
        }
    };
    let loaded = match load_scene_under(scene, args.ruleset) {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let input = input_of(&loaded);
    let total = work(&input, args.cell);
    let done = AtomicUsize::new(0);
    let started = Instant::now();
    let bar = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(total as u64).with_style(
            indicatif::ProgressStyle::with_template("analysing {bar:40} {percent}% {elapsed}")
                .expect("valid template"),
        )
    };
    let mut analysis = std::thread::scope(|s| {
        let job = s.spawn(|| analyze_under(&input, &loaded.terrain_rules(), args.cell, &done));
        while !job.is_finished() {
            bar.set_position(done.load(Ordering::Relaxed) as u64);
            std::thread::sleep(Duration::from_millis(50));
        }
        job.join().expect("the analysis does not panic")
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if let Ok(text) =
        crate::data::source::read(&crate::data::source::sibling(scene, &layout_ref(scene)))
        && let Ok(file) =
            crate::data::source::parse::<crate::data::layout::LayoutFile>(scene, &text)
    {
        analysis.asymmetry.unmatched = mirror::unmatched(&file);
    }
    if let Some(png) = &args.heatmap
        && let Err(e) = picture::write_png(png, &input, &analysis, kind)
    {
        stderr_line!("{e}");
        return ExitCode::FAILURE;
    }
    let out = if args.json {
        let mut v = serde_json::to_value(&analysis).expect("plain data serializes");
        v["ruleset"] = serde_json::json!(loaded.ruleset());
        serde_json::to_string_pretty(&v).expect("plain data serializes")
    } else {
        let mut lines = vec![format!(
            "{} / {} at {}\" cells",
            analysis.layout, analysis.deployment, args.cell
        )];
        for z in &analysis.zones {
            lines.push(format!(
                "  zone P{} {}: infantry sees {:.1}% of the table, vehicles {:.1}%",
                z.player,
                z.name,
                z.infantry_visible_share * 100.0,
                z.vehicle_visible_share * 100.0
            ));
        }
        lines.push(format!(
            "  open lanes: {} ({} of {} lines clear, widest lane {} lines)",
            analysis.lanes.count,
            analysis.lanes.clear_lines,
            analysis.lanes.lines,
            analysis.lanes.widest
        ));
        for o in &analysis.objectives {
            let seen: Vec<String> = o
                .seen_from
                .iter()
                .map(|(p, s)| format!("P{p} {:.0}%", s * 100.0))
                .collect();
            lines.push(format!(
                "  objective {}: seen from {}",
                o.id,
                seen.join(", ")
            ));
        }
        lines.push(format!(
            "  asymmetry: {:.3} (infantry {:.3}, vehicle {:.3}); pieces without a 180-degree image: {}",
            analysis.asymmetry.score,
            analysis.asymmetry.infantry,
            analysis.asymmetry.vehicle,
            if analysis.asymmetry.unmatched.is_empty() {
                "none".to_string()
            } else {
                analysis.asymmetry.unmatched.join(", ")
            }
        ));
        for p in &analysis.problems {
            lines.push(format!("  problem: {}", p.message));
        }
        lines.join("\n")
    };
    if let Err(e) = super::write_stdout(&out) {
        return super::output_failed(&e);
    }
    stderr_line!("analysed in {seconds:.2} s");
    ExitCode::SUCCESS
}

/// The layout path a scene file names ("" when it cannot be read).
fn layout_ref(scene: &Path) -> String {
    crate::data::source::load::<crate::data::scene::SceneFile>(scene)
        .map(|s| s.layout)
        .unwrap_or_default()
}
