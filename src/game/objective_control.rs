//! A model's Objective Control in play: its datasheet OC with the modifiers the battle gives
//! it, combined in the core order.
//!
//! Core Rules: Objective Markers (Level of Control), Battle-shock (a Battle-shocked unit's OC
//! is 0); Rules Commentary: Modifiers (change first, then halve, then add; fractions rounded
//! up at the end; OC never below 0), the worked example of an Intercessor led by an Ancient and
//! engaged with Ripper Swarms.

use super::state::{Game, Location};
use crate::game::sight::ModelRef;
use crate::geometry::Vec3;
use crate::rules::abilities::ObjectiveControlEffect;
use crate::rules::engagement::{Control, in_objective_range, level_of_control};
use crate::rules::modifiers::{Characteristic, Modifiers};

impl Game {
    /// The Objective Control of model `r` as it counts towards a Level of Control now (Core
    /// Rules: Objective Markers; Rules Commentary: Modifiers).
    ///
    /// From its OC (its model profile's): set to 0 when its unit is Battle-shocked; halved when its unit
    /// is within Engagement Range of an enemy unit with
    /// [`ObjectiveControlEffect::HalveEngagedEnemies`]; +X for each living Leader of its
    /// Attached unit with [`ObjectiveControlEffect::WhileLeadingPlus`]. The modifiers apply in
    /// that order whatever the order they arose in, so an Intercessor (OC 2) led by an Ancient
    /// (+1) and engaged with Rippers has OC 2/2 + 1 = 2, and 0/2 + 1 = 1 when Battle-shocked.
    pub fn objective_control(&self, r: ModelRef) -> u32 {
        let base = i32::from(
            self.scene.armies[r.army].units[r.unit].models[r.model]
                .characteristics
                .objective_control,
        );
        let combined = self.combined(r.army, r.unit);
        let mut m = Modifiers::new();
        if self.units[r.army][r.unit].battle_shocked {
            m = m.set(0);
        }
        if self.oc_halved_by_engaged_enemy(r.army, combined[0]) {
            m = m.divide(2);
        }
        m = m.plus(self.oc_bonus_of_leaders(r.army, &combined));
        m = m.plus(self.unit_bonus(
            r.army,
            r.unit,
            &crate::rules::effect::Modifier::ObjectiveControl(0),
        ));
        let oc = m.apply(Characteristic::ObjectiveControl, base);
        // A rule that worsens OC only down to 1 (Scabrous Soulrot).
        let down = self.unit_bonus(
            r.army,
            r.unit,
            &crate::rules::effect::Modifier::ObjectiveControlDown(0),
        );
        let oc = if down > 0 && oc > 1 {
            (oc - down).max(1)
        } else {
            oc
        };
        u32::try_from(oc).unwrap_or(0)
    }

    /// Players 1 and 2's Levels of Control of objective marker `i` now (the summed OC, with
    /// its modifiers, of their models in range), and who controls it (Core Rules: Objective
    /// Markers). [`Game::update_objectives`](Game) records this at the end of each phase.
    pub fn levels_of_control(&self, i: usize) -> ([u32; 2], Control) {
        level_of_control(self.all_live_models().into_iter().map(|r| {
            let in_range = self.in_range_of_objective(r, i);
            let oc = if in_range {
                self.objective_control(r)
            } else {
                0
            };
            (self.player_of(r.army), oc, in_range)
        }))
    }

    /// True when model `r` is in range of objective marker `i`: within 3" horizontally and 5"
    /// vertically of the marker (Core Rules: Objective Markers), or, under 11th edition where
    /// the layout makes a terrain area that objective, (partly) within the area (11th Core
    /// Rules 14.01).
    pub fn in_range_of_objective(&self, r: crate::game::sight::ModelRef, i: usize) -> bool {
        let obj = &self.scene.objectives[i];
        let solid = self.solid(r);
        if self.scene.edition().terrain_area_objectives
            && let Some(area) = self
                .scene
                .layout
                .areas
                .iter()
                .find(|a| a.objective.as_deref() == Some(obj.id.as_str()))
        {
            return crate::geometry::measure::within_footprint(&solid, &area.outline);
        }
        in_objective_range(&solid, Vec3::new(obj.at.0, obj.at.1, obj.z))
    }

    /// True if the combined unit (`army`, `root`) is within Engagement Range of an enemy unit
    /// whose datasheet (or one of whose Attached units' datasheets, while it has a model on
    /// the battlefield) halves the OC of engaged enemies. Several such units still halve once.
    fn oc_halved_by_engaged_enemy(&self, army: usize, root: usize) -> bool {
        (0..self.units.len()).filter(|&a| a != army).any(|ea| {
            self.unit_roots(ea).into_iter().any(|eu| {
                let halves = self.combined(ea, eu).into_iter().any(|u| {
                    self.unit_on_table(ea, u)
                        && self.scene.armies[ea].units[u]
                            .datasheet
                            .objective_control_effects
                            .contains(&ObjectiveControlEffect::HalveEngagedEnemies)
                });
                halves && self.units_engaged((army, root), (ea, eu))
            })
        })
    }

    /// The OC the living Leaders of an Attached unit (`combined`, Bodyguard first) add to
    /// every model of it while they lead it.
    fn oc_bonus_of_leaders(&self, army: usize, combined: &[usize]) -> i32 {
        combined
            .iter()
            .skip(1)
            .filter(|&&u| self.unit_on_table(army, u))
            .flat_map(|&u| {
                self.scene.armies[army].units[u]
                    .datasheet
                    .objective_control_effects
                    .iter()
            })
            .map(|e| match e {
                ObjectiveControlEffect::WhileLeadingPlus(x) => *x,
                ObjectiveControlEffect::HalveEngagedEnemies => 0,
            })
            .sum()
    }

    /// True if the unit (not its combined unit) has a living model on the battlefield.
    fn unit_on_table(&self, army: usize, unit: usize) -> bool {
        let u = &self.units[army][unit];
        u.location == Location::OnTable && u.models.iter().any(|m| m.alive)
    }
}
