//! The terrain layout designer's model, with no drawing: a [`Design`] (a layout with its
//! deployment map), edits with a 180° mirror mode ([`edit`], [`mirror`]), validation
//! ([`validate`]), sight analysis with heatmaps ([`analysis`]) and the heatmap picture
//! ([`picture`]). The desktop app's layout editor and `wartable analyze` use it.

pub mod analysis;
pub mod edit;
pub mod mirror;
pub mod picture;
pub mod validate;

use std::path::{Path, PathBuf};

use crate::data::layout::LayoutFile;
use crate::data::resolve::{Layout, load_deployment, load_mission};
use crate::data::scene::{SceneArmy, SceneFile, SceneOptions};
use crate::data::source::{load, relative_path, sibling};
use crate::data::write::{Overwrite, WriteError, check_target, write_file};
use crate::data::{DataError, DataErrors, Scene, check};
use crate::rules::deployment::DeploymentMap;
use crate::rules::mission::{Mission, ObjectiveMarker};
use analysis::AnalysisInput;

/// The editor's position grid (inches).
pub const GRID_SNAP_INCHES: f32 = 0.5;
/// The editor's rotation steps (degrees).
pub const ROTATION_SNAP_DEGREES: f32 = 15.0;
/// Two points closer than this are the same point when matching a piece with its 180° image.
pub const MIRROR_TOLERANCE_INCHES: f32 = 0.05;
/// Mission written into scenes saved by the editor, relative to the scenes folder.
pub const DESIGN_MISSION: &str = "missions/only-war.ron";
/// Armies written into scenes saved by the editor (players 1 and 2), relative to the scenes
/// folder.
pub const DESIGN_ARMIES: [&str; 2] = ["armies/ultramarines.ron", "armies/orks.ron"];

/// `degrees` in 0..360.
pub fn normalize_degrees(degrees: f32) -> f32 {
    let d = degrees.rem_euclid(360.0);
    if (360.0 - d).abs() < 1e-4 { 0.0 } else { d }
}

/// A layout being designed, with the deployment map and mission it is shown with.
#[derive(Debug, Clone, PartialEq)]
pub struct Design {
    /// The layout as it will be written.
    pub layout: LayoutFile,
    /// The deployment map file.
    pub deployment_file: PathBuf,
    /// The deployment map.
    pub deployment: DeploymentMap,
    /// The mission (for showing the table).
    pub mission: Mission,
    /// Table conventions.
    pub options: SceneOptions,
}

impl Design {
    /// A design of the layout file `layout` shown with the deployment map `deployment` (and
    /// the mission in [`DESIGN_MISSION`] beside it).
    ///
    /// # Errors
    /// Syntax or semantic problems of either file, each naming its file.
    pub fn open(layout: &Path, deployment: &Path) -> Result<Design, DataErrors> {
        let data: LayoutFile = load(layout).map_err(|e| DataErrors(vec![e]))?;
        let problems = check::layout(layout, &data);
        if !problems.is_empty() {
            return Err(DataErrors(problems));
        }
        let mission_file = sibling(deployment, &format!("../{DESIGN_MISSION}"));
        Ok(Design {
            layout: data,
            deployment: load_deployment(deployment)?,
            deployment_file: deployment.to_path_buf(),
            mission: load_mission(&mission_file)?,
            options: SceneOptions {
                ground_floor_windows_closed: true,
                ruleset: Default::default(),
            },
        })
    }

    /// The design of a scene file: its layout, deployment map and options.
    ///
    /// # Errors
    /// Syntax or semantic problems, each naming its file.
    pub fn open_scene(scene: &Path) -> Result<Design, DataErrors> {
        let data: SceneFile = load(scene).map_err(|e| DataErrors(vec![e]))?;
        let mut d = Design::open(
            &sibling(scene, &data.layout),
            &sibling(scene, &data.deployment),
        )?;
        d.mission = load_mission(&sibling(scene, &data.mission))?;
        d.options = data.options;
        Ok(d)
    }

    /// Switches to the deployment map in `file`.
    ///
    /// # Errors
    /// The map does not load.
    pub fn set_deployment(&mut self, file: &Path) -> Result<(), DataErrors> {
        self.deployment = load_deployment(file)?;
        self.deployment_file = file.to_path_buf();
        Ok(())
    }

    /// The objective markers in play: the layout's own, else the mission's, else the
    /// deployment map's (as [`crate::data::load_scene`] chooses).
    pub fn objectives(&self) -> Vec<ObjectiveMarker> {
        [
            &self.layout.objectives,
            &self.mission.objectives,
            &self.deployment.objectives,
        ]
        .into_iter()
        .find(|l| !l.is_empty())
        .cloned()
        .unwrap_or_default()
    }

    /// The layout in table coordinates.
    pub fn resolved(&self) -> Layout {
        Layout {
            name: self.layout.name.clone(),
            source: self.layout.source.clone(),
            pieces: self.layout.pieces.iter().map(|p| p.resolve()).collect(),
            objectives: self.layout.objectives.clone(),
            areas: self.layout.resolved_areas(),
        }
    }

    /// A scene with no armies, to show the design on the table.
    pub fn to_scene(&self) -> Scene {
        Scene {
            name: self.layout.name.clone(),
            file: PathBuf::new(),
            layout: self.resolved().into(),
            deployment: self.deployment.clone().into(),
            mission: self.mission.clone().into(),
            objectives: self.objectives(),
            options: self.options,
            armies: Vec::new(),
            secondary_deck: None,
            secondaries: Default::default(),
            battle_ready: [false; 2],
        }
    }

    /// What [`analysis::analyze`] needs.
    pub fn analysis_input(&self) -> AnalysisInput {
        input_of(&self.to_scene())
    }

    /// Writes the layout to `scenes/layouts/<name>.ron` and a scene using it (with this
    /// deployment map, [`DESIGN_MISSION`] and [`DESIGN_ARMIES`]) to `scenes/<name>.ron`, each
    /// written whole through [`crate::data::write::write_file`]. Either file already there is
    /// replaced only with [`Overwrite::Replace`]; both are checked before either is written.
    /// Returns (scene file, layout file).
    ///
    /// # Errors
    /// A file that cannot be written, or is there and may not be replaced, or a layout the
    /// checks refuse (nothing is written then).
    pub fn save(
        &self,
        scenes: &Path,
        name: &str,
        overwrite: Overwrite,
    ) -> Result<(PathBuf, PathBuf), DataErrors> {
        let slug = slug(name);
        let layout_file = scenes.join("layouts").join(format!("{slug}.ron"));
        let scene_file = scenes.join(format!("{slug}.ron"));
        let problems = check::layout(&layout_file, &self.layout);
        if !problems.is_empty() {
            return Err(DataErrors(problems));
        }
        let io = |file: &Path, e: std::io::Error| {
            DataErrors(vec![DataError::Io {
                file: file.to_path_buf(),
                message: e.to_string(),
            }])
        };
        std::fs::create_dir_all(scenes.join("layouts")).map_err(|e| io(scenes, e))?;
        // The layout and its scene carry the name it is saved under, so the menu and the
        // game show that name, not the name of the layout it was designed from.
        let mut layout = self.layout.clone();
        layout.name = name.trim().to_string();
        let scene = SceneFile {
            name: layout.name.clone(),
            layout: format!("layouts/{slug}.ron"),
            deployment: relative_path(&self.deployment_file, scenes),
            mission: DESIGN_MISSION.to_string(),
            armies: DESIGN_ARMIES
                .iter()
                .enumerate()
                .map(|(i, a)| SceneArmy {
                    player: i as u8 + 1,
                    army: a.to_string(),
                    placements: Vec::new(),
                    ..Default::default()
                })
                .collect(),
            options: self.options,
            objectives: Vec::new(),
        };
        let pretty = ron::ser::PrettyConfig::new().struct_names(true);
        let layout_text = format!(
            "// Terrain layout designed in wartable's layout editor (inches; docs/formats.md).\n{}\n",
            ron::ser::to_string_pretty(&layout, pretty.clone()).expect("plain data")
        );
        let scene_text = format!(
            "// Scene written by wartable's layout editor for the layout '{slug}'.\n{}\n",
            ron::ser::to_string_pretty(&scene, pretty).expect("plain data")
        );
        let refused = |file: &Path, e: WriteError| {
            DataErrors(vec![DataError::Io {
                file: file.to_path_buf(),
                message: e.to_string(),
            }])
        };
        for file in [&layout_file, &scene_file] {
            check_target(file, overwrite).map_err(|e| refused(file, e))?;
        }
        for (file, text) in [(&layout_file, layout_text), (&scene_file, scene_text)] {
            write_file(file, &text, overwrite).map_err(|e| refused(file, e))?;
        }
        Ok((scene_file, layout_file))
    }
}

/// What [`analysis::analyze`] needs from a loaded scene.
pub fn input_of(scene: &Scene) -> AnalysisInput {
    AnalysisInput {
        layout: scene.layout.name.clone(),
        deployment: scene.deployment.name.clone(),
        pieces: scene.layout.pieces.clone(),
        zones: scene
            .deployment
            .zones
            .iter()
            .map(|z| (z.player, z.name.clone(), crate::geometry::to_vecs(&z.area)))
            .collect(),
        objectives: scene.objectives.clone(),
        ground_floor_windows_closed: scene.options.ground_floor_windows_closed,
    }
}

/// A file name from a layout name: lower case letters and digits, other runs as `-`.
pub fn slug(name: &str) -> String {
    crate::data::source::slug(name, "layout")
}
