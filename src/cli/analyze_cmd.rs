//! `wartable analyze`: the layout analysis of a scene as a table or JSON, with an optional
//! heatmap PNG and a progress bar (indicatif, on standard error).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::data::load_scene;
use crate::design::analysis::{DEFAULT_CELL_INCHES, analyze, work};
use crate::design::{input_of, mirror, picture};

/// Arguments of `analyze`.
#[derive(Debug, Clone, clap::Args)]
pub struct AnalyzeArgs {
    /// Scene file ("default" for the built-in default scene).
    pub scene: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the heatmap picture to this PNG.
    #[arg(long)]
    pub heatmap: Option<PathBuf>,
    /// Heatmap cell (inches).
    #[arg(long, default_value_t = DEFAULT_CELL_INCHES)]
    pub cell: f32,
    /// Probe drawn in the heatmap picture: infantry or vehicle.
    #[arg(long, default_value = "infantry")]
    pub probe: String,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `analyze`.
pub fn run(scene: &Path, args: &AnalyzeArgs) -> ExitCode {
    if !(args.cell.is_finite() && (0.1..=6.0).contains(&args.cell)) {
        eprintln!("--cell must be between 0.1 and 6 inches, got {}", args.cell);
        return ExitCode::FAILURE;
    }
    let kind = match args.probe.as_str() {
        "infantry" => 0,
        "vehicle" => 1,
        other => {
            eprintln!("--probe must be infantry or vehicle, got '{other}'");
            return ExitCode::FAILURE;
        }
    };
    let loaded = match load_scene(scene) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
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
        let job = s.spawn(|| analyze(&input, args.cell, &done));
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
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&analysis).expect("plain data serializes")
        );
    } else {
        println!(
            "{} / {} at {}\" cells",
            analysis.layout, analysis.deployment, args.cell
        );
        for z in &analysis.zones {
            println!(
                "  zone P{} {}: infantry sees {:.1}% of the table, vehicles {:.1}%",
                z.player,
                z.name,
                z.infantry_visible_share * 100.0,
                z.vehicle_visible_share * 100.0
            );
        }
        println!(
            "  open lanes: {} ({} of {} lines clear, widest lane {} lines)",
            analysis.lanes.count,
            analysis.lanes.clear_lines,
            analysis.lanes.lines,
            analysis.lanes.widest
        );
        for o in &analysis.objectives {
            let seen: Vec<String> = o
                .seen_from
                .iter()
                .map(|(p, s)| format!("P{p} {:.0}%", s * 100.0))
                .collect();
            println!("  objective {}: seen from {}", o.id, seen.join(", "));
        }
        println!(
            "  asymmetry: {:.3} (infantry {:.3}, vehicle {:.3}); pieces without a 180-degree image: {}",
            analysis.asymmetry.score,
            analysis.asymmetry.infantry,
            analysis.asymmetry.vehicle,
            if analysis.asymmetry.unmatched.is_empty() {
                "none".to_string()
            } else {
                analysis.asymmetry.unmatched.join(", ")
            }
        );
        for p in &analysis.problems {
            println!("  problem: {}", p.message);
        }
    }
    eprintln!("analysed in {seconds:.2} s");
    ExitCode::SUCCESS
}

/// The layout path a scene file names ("" when it cannot be read).
fn layout_ref(scene: &Path) -> String {
    crate::data::source::load::<crate::data::scene::SceneFile>(scene)
        .map(|s| s.layout)
        .unwrap_or_default()
}
