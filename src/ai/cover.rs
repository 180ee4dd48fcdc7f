//! Where enemy shooters could see a unit in the open: the exposure [`super::Ai`] weighs when
//! it chooses where a move ends, so that it prefers ends behind or in terrain.
//!
//! Sight is the geometry module's, terrain only ([`SightIndex::visibility`] with the game's
//! [`Sampling::FAST`] points): each enemy unit is one observer, its model closest to its
//! centre, and the moving unit is one target, its model closest to its centre where the move
//! would put it. The target counts as in the open for an observer that sees it fully, or sees
//! it with nothing of the terrain hiding part of it (an approximation of the Benefit of Cover
//! that leaves out "wholly within a ruin or woods" and the barricade and crater clauses). Core
//! Rules: Determining Visibility, Benefit of Cover; the ruins, woods and low-footprint rules of
//! Terrain Features.

use crate::game::Game;
use crate::game::sight::{ModelRef, model_solid};
use crate::geometry::sight::{Probe, Sampling, SeeThrough, SightIndex, SightModel};
use crate::geometry::{ModelSolid, Vec2, Vec3};
use crate::rules::phase::opponent;

/// Inches an enemy unit is given on top of its longest ranged weapon's range when it counts as
/// a threat: it may move before it shoots (its Move characteristic is added as well).
pub const THREAT_MARGIN_INCHES: f32 = 1.0;

/// One enemy unit that could shoot: where it looks from and how far it reaches.
struct Threat {
    probe: Probe,
    at: Vec2,
    /// Longest ranged weapon + Move + [`THREAT_MARGIN_INCHES`], in inches.
    reach: f32,
}

/// The enemy shooters of one player, seen from the terrain of the table.
pub struct Exposure {
    index: SightIndex,
    threats: Vec<Threat>,
}

impl std::fmt::Debug for Exposure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exposure")
            .field("threats", &self.threats.len())
            .finish_non_exhaustive()
    }
}

/// The live model of the unit closest to the unit's centre.
fn central_model(game: &Game, army: usize, unit: usize) -> Option<ModelRef> {
    let position = |r: &ModelRef| game.scene.armies[army].units[r.unit].models[r.model].position;
    let centre = super::centre(game, army, unit);
    game.live_models(army, unit).into_iter().min_by(|a, b| {
        position(a)
            .distance(centre)
            .total_cmp(&position(b).distance(centre))
    })
}

/// The sight model of `r` moved by `shift` (inches), with unit number `unit_number`.
fn sight_model(game: &Game, r: ModelRef, shift: Vec3, unit_number: usize) -> SightModel {
    let d = &game.scene.armies[r.army].units[r.unit].datasheet;
    let here = model_solid(&game.scene, r);
    let m = &game.scene.armies[r.army].units[r.unit].models[r.model];
    // A move ends on the ground (moves are planned at table level).
    let mut at = m.position + shift;
    if shift != Vec3::ZERO {
        at.z = 0.0;
    }
    SightModel {
        unit: unit_number,
        solid: ModelSolid::new(m.characteristics.base, at, m.facing, here.height),
        towering: d.has_keyword("TOWERING"),
        aircraft: d.has_keyword("AIRCRAFT"),
        infantry: d.has_keyword("INFANTRY"),
    }
}

impl Exposure {
    /// The enemy units of `player` that have a ranged weapon, each as an observer.
    pub fn new(game: &Game, player: u8) -> Self {
        let index = SightIndex::new_under(&game.scene.layout.pieces, &game.scene.terrain_rules());
        let mut threats = Vec::new();
        if let Some(earmy) = game.army_of(opponent(player)) {
            for u in game.unit_roots(earmy) {
                let mut longest: Option<f32> = None;
                for r in game.live_models(earmy, u) {
                    let s = &game.scene.armies[earmy].units[r.unit];
                    for w in s.models[r.model].weapons.iter() {
                        if let Some(range) = s.datasheet.weapon(w).and_then(|p| p.range) {
                            longest = Some(longest.map_or(range, |l: f32| l.max(range)));
                        }
                    }
                }
                let (Some(range), Some(r)) = (longest, central_model(game, earmy, u)) else {
                    continue;
                };
                let model = sight_model(game, r, Vec3::ZERO, 1);
                let movement = game.unit_move_inches(earmy, u);
                threats.push(Threat {
                    at: model.solid.centre,
                    reach: range + movement + THREAT_MARGIN_INCHES,
                    probe: index.probe(model),
                });
            }
        }
        Exposure { index, threats }
    }

    /// How many enemy units with a ranged weapon there are (observers).
    pub fn shooters(&self) -> usize {
        self.threats.len()
    }

    /// How many enemy shooters could see the unit (`army`, `unit`) in the open if every
    /// model moved by `shift` (inches): those within reach whose observer sees the unit's
    /// central model there and sees it fully (no terrain hides part of it, so it would not
    /// have the Benefit of Cover against them), terrain only.
    pub fn seen_by(&self, game: &Game, army: usize, unit: usize, shift: Vec3) -> usize {
        let Some(r) = central_model(game, army, unit) else {
            return 0;
        };
        let target = sight_model(game, r, shift, 0);
        let at = target.solid.centre;
        self.threats
            .iter()
            .filter(|t| t.at.distance(at) <= t.reach)
            .filter(|t| {
                let v = self.index.visibility(
                    &t.probe.model,
                    None,
                    &target,
                    None,
                    SeeThrough::AllModels,
                    &Sampling::FAST,
                );
                v.visible && (v.fully_visible || v.not_fully_because.is_none())
            })
            .count()
    }
}
