//! Base-to-base contact "if possible" in Charge, Pile-in and Consolidation moves: a model that
//! does not end in base contact with an enemy model, but could have while the rest of the move
//! stays legal, makes the move illegal. Whether it could is tried on copies of the game: the
//! model goes straight to a spot touching one of the closest enemy models it can reach (facing
//! it, or a little to either side), the rest of the move as given, and the engine's other move
//! rules decide.
//!
//! Core Rules: Charge phase (Charge move: base-to-base contact if possible), Fight phase (Pile
//! In, Consolidate: in base contact if possible). shared/RULES.md: Fight phase.

use super::command::{Command, ModelPath};
use super::rejection::{Rejection, Rule, reject};
use super::state::Game;
use crate::game::sight::ModelRef;
use crate::geometry::measure::{bases_overlap, horizontal_distance};
use crate::geometry::{ModelSolid, Vec2, Vec3};
use crate::rules::constants::{
    BASE_CONTACT_INCHES, CONSOLIDATE_INCHES, MEASURE_TOLERANCE_INCHES, PILE_IN_INCHES,
};

/// Gap left between two bases placed in contact (inches): within [`BASE_CONTACT_INCHES`].
pub(crate) const CONTACT_GAP_INCHES: f32 = 0.02;

/// Closest enemy models tried per model.
const ENEMIES_TRIED: usize = 3;

/// Directions tried around each enemy model: straight from where the model starts, then this
/// many degrees to either side.
const SIDE_STEPS_DEGREES: [f32; 5] = [0.0, 25.0, -25.0, 50.0, -50.0];

/// A model that could have ended in base-to-base contact with an enemy model and did not.
#[derive(Debug, Clone, PartialEq)]
pub struct MissedContact {
    /// The model.
    pub model: ModelRef,
    /// The enemy model it could touch.
    pub enemy: ModelRef,
    /// Where it would stand (inches).
    pub at: Vec3,
}

impl Game {
    /// The Charge, Pile-in or Consolidation move `command` with the contact rule left out:
    /// the engine's other rules for it, applied to this game.
    fn move_without_contact_rule(&mut self, command: &Command) -> Result<(), Rejection> {
        let mut ev = Vec::new();
        match command {
            Command::ChargeMove {
                player,
                unit,
                paths,
                targets,
            } => self.charge_move(*player, unit, paths, targets, &mut ev),
            Command::PileIn {
                player,
                unit,
                paths,
            } => self.pile_in(*player, unit, paths, &mut ev),
            Command::Consolidate {
                player,
                unit,
                paths,
            } => self.consolidate(*player, unit, paths, &mut ev),
            _ => Ok(()),
        }
    }

    /// The first model that the Charge, Pile-in or Consolidation move `command` leaves out of
    /// base-to-base contact when it could have been in contact (the rest of the move as given
    /// staying legal); None when there is none, when `command` is another command, or when it
    /// is illegal for another reason. In a charge every model counts and only models of the
    /// charge's targets are touched; in a Pile-in or Consolidation only the models that move.
    pub fn missed_base_contact(&self, command: &Command) -> Option<MissedContact> {
        let (player, unit, paths) = match command {
            Command::ChargeMove {
                player,
                unit,
                paths,
                ..
            }
            | Command::PileIn {
                player,
                unit,
                paths,
            }
            | Command::Consolidate {
                player,
                unit,
                paths,
            } => (*player, unit.as_str(), paths),
            _ => return None,
        };
        if paths.is_empty() {
            return None;
        }
        let (army, root) = self.own_root(player, unit).ok()?;
        let edition = self.scene.edition();
        let mut contact = edition.fight_move_contact_inches;
        let (allowance, targets, every_model) = match command {
            Command::ChargeMove { targets, .. } => {
                let charge = self.charge.as_ref()?;
                contact = edition.charge_contact_inches;
                // 11th: the targets the charge move names (chosen after the roll).
                let chosen = if targets.is_empty() {
                    charge.targets.clone()
                } else {
                    let mut chosen = Vec::new();
                    for t in targets {
                        let (tarmy, tunit) = self.enemy_unit(player, t).ok()?;
                        chosen.push(self.combined(tarmy, tunit)[0]);
                    }
                    chosen
                };
                (charge.distance(), Some(chosen), true)
            }
            Command::PileIn { .. } => (
                self.fight_move_inches(army, root, PILE_IN_INCHES),
                None,
                false,
            ),
            _ => (
                self.fight_move_inches(army, root, CONSOLIDATE_INCHES),
                None,
                false,
            ),
        };
        let mut after = self.clone();
        after.move_without_contact_rule(command).ok()?;
        let enemies: Vec<ModelRef> = self
            .enemy_models(army)
            .into_iter()
            .filter(|e| targets.as_ref().is_none_or(|t| t.contains(&e.unit)))
            .collect();
        // Every solid made once (not once per model and spot tried).
        let everyone: Vec<(ModelRef, ModelSolid)> = after
            .all_live_models()
            .into_iter()
            .map(|o| (o, after.solid(o)))
            .collect();
        let enemies_after: Vec<ModelSolid> = after
            .enemy_models(army)
            .iter()
            .map(|e| after.solid(*e))
            .collect();
        let enemies_now: Vec<(ModelRef, ModelSolid)> =
            enemies.iter().map(|e| (*e, self.solid(*e))).collect();
        for r in self.live_models(army, root) {
            let moved = paths
                .iter()
                .any(|p| self.model_of(army, root, p.unit.as_deref(), p.model).ok() == Some(r));
            if !every_model && !moved {
                continue;
            }
            let end = after.solid(r);
            let touching = enemies_after
                .iter()
                .any(|e| horizontal_distance(&end, e) <= contact.max(BASE_CONTACT_INCHES));
            if touching {
                continue;
            }
            let start = self.solid(r);
            let mut near: Vec<(f32, ModelRef)> = enemies_now
                .iter()
                .filter(|(_, s)| (s.z - start.z).abs() < 0.5)
                .map(|(e, s)| (horizontal_distance(&start, s), *e))
                .filter(|(d, _)| *d <= allowance + MEASURE_TOLERANCE_INCHES)
                .collect();
            near.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (_, e) in near.into_iter().take(ENEMIES_TRIED) {
                let target = self.solid(e);
                for side in SIDE_STEPS_DEGREES {
                    let Some(at) = contact_spot(&start, &target, side) else {
                        continue;
                    };
                    if (at - start.centre).length() > allowance + MEASURE_TOLERANCE_INCHES {
                        continue;
                    }
                    let mut placed = start;
                    placed.centre = at;
                    let blocked = everyone.iter().any(|(o, s)| {
                        *o != r && (placed.z - s.z).abs() < 0.5 && bases_overlap(&placed, s)
                    });
                    if blocked {
                        continue;
                    }
                    let spot = Vec3::new(at.x, at.y, start.z);
                    let tried = with_path(self, command, army, root, r, spot);
                    if self.clone().move_without_contact_rule(&tried).is_ok() {
                        return Some(MissedContact {
                            model: r,
                            enemy: e,
                            at: spot,
                        });
                    }
                }
            }
        }
        None
    }

    /// The Charge, Pile-in or Consolidation move `command` with each model that could end in
    /// base-to-base contact sent straight into contact, one model at a time (the spots
    /// [`Game::missed_base_contact`] finds); `command` itself when none could.
    pub fn with_base_contact(&self, command: &Command) -> Command {
        let mut c = command.clone();
        let models = self.all_live_models().len();
        for _ in 0..models {
            let Some(miss) = self.missed_base_contact(&c) else {
                break;
            };
            let Ok((army, root)) = self.own_root(c.player(), c.unit().unwrap_or_default()) else {
                break;
            };
            c = with_path(self, &c, army, root, miss.model, miss.at);
        }
        c
    }

    /// Refuses a Charge, Pile-in or Consolidation move that leaves a model out of base contact
    /// when it could have been in contact (this game: before the move).
    pub(super) fn require_base_contact(&self, command: &Command) -> Result<(), Rejection> {
        let Some(miss) = self.missed_base_contact(command) else {
            return Ok(());
        };
        let edition = self.scene.edition();
        let (rule, contact) = match command {
            Command::ChargeMove { .. } => (Rule::ChargePhase, edition.charge_contact_inches),
            Command::PileIn { .. } => (Rule::PileIn, edition.fight_move_contact_inches),
            _ => (Rule::Consolidate, edition.fight_move_contact_inches),
        };
        let how = if contact > BASE_CONTACT_INCHES {
            format!("within {contact}\" of")
        } else {
            "in base-to-base contact with".to_string()
        };
        reject(
            rule,
            format!(
                "{} could end {how} {} (at {:.1}, {:.1}) while the rest of the move stays legal, so it must",
                self.model_name(miss.model),
                self.model_name(miss.enemy),
                miss.at.x,
                miss.at.y
            ),
        )
    }
}

/// `command` with model `r`'s path replaced by a straight move to `at` (added if it had none).
fn with_path(
    game: &Game,
    command: &Command,
    army: usize,
    root: usize,
    r: ModelRef,
    at: Vec3,
) -> Command {
    let mut c = command.clone();
    let paths = match &mut c {
        Command::ChargeMove { paths, .. }
        | Command::PileIn { paths, .. }
        | Command::Consolidate { paths, .. } => paths,
        _ => return c,
    };
    let path = vec![(at.x, at.y, at.z)];
    match paths
        .iter_mut()
        .find(|p| game.model_of(army, root, p.unit.as_deref(), p.model).ok() == Some(r))
    {
        Some(p) => p.path = path,
        None => paths.push(ModelPath {
            model: r.model,
            unit: Some(game.unit_id(r.army, r.unit).to_string()),
            path,
            facing: None,
        }),
    }
    c
}

/// Where a model standing as `mover` would be centred to touch `target` ([`spot_at_gap`] at
/// the gap left between bases placed in contact).
pub(crate) fn contact_spot(
    mover: &ModelSolid,
    target: &ModelSolid,
    side_degrees: f32,
) -> Option<Vec2> {
    spot_at_gap(mover, target, side_degrees, CONTACT_GAP_INCHES)
}

/// Where a model standing as `mover` would be centred `gap` inches (horizontally, base to
/// base) from `target`, approached along the line from `target`'s centre towards `mover`'s
/// turned by `side_degrees`: found by bisection on the base-to-base distance (which grows
/// along the line). None when the two centres coincide or no spot within 64" is that far.
pub fn spot_at_gap(
    mover: &ModelSolid,
    target: &ModelSolid,
    side_degrees: f32,
    gap: f32,
) -> Option<Vec2> {
    let towards = (mover.centre - target.centre).normalize_or_zero();
    if towards == Vec2::ZERO {
        return None;
    }
    let dir = Vec2::from_angle(side_degrees.to_radians()).rotate(towards);
    let gap_at = |t: f32| {
        let mut m = *mover;
        m.centre = target.centre + dir * t;
        horizontal_distance(&m, target)
    };
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    while gap_at(hi) < gap {
        hi *= 2.0;
        if hi > 64.0 {
            return None;
        }
    }
    for _ in 0..32 {
        let mid = 0.5 * (lo + hi);
        if gap_at(mid) < gap {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(target.centre + dir * hi)
}
