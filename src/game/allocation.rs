//! The defending player's choices of which models are lost first: the order attacks and mortal
//! wounds are allocated in (Core Rules: Allocate Attack; Rules Commentary: Mortal Wounds), and
//! the models removed when a unit ends a turn out of Unit Coherency (Core Rules: Unit
//! Coherency). A player sets a unit's order with [`Command::AllocationOrder`] at any moment
//! (ahead of time, or in the reaction window once an enemy unit has selected its targets);
//! without one, the default below stands for both the engine and the computer.
//!
//! The default order loses plain models first: models without the CHARACTER keyword before
//! CHARACTER models, fewer Wounds before more, then the unit's usual model before one whose
//! characteristics or weapons differ from the unit's most common loadout (a sergeant, a Boss
//! Nob, a special-weapon model). Models the default ranks equal go with the Benefit of Cover
//! first, then in list order.
//!
//! [`Command::AllocationOrder`]: super::Command::AllocationOrder

use crate::data::resolve::Unit;

/// The default allocation ranks of `unit`'s models (index by model): equal ranks for models
/// the default cannot tell apart, lower ranks lost first (see the module documentation).
pub fn default_ranks(unit: &Unit) -> Vec<u32> {
    let models = &unit.models;
    let alike = |a: &crate::data::resolve::Model, b: &crate::data::resolve::Model| {
        a.weapons == b.weapons && a.characteristics == b.characteristics
    };
    // How many models share each model's loadout; the unit's usual loadout is the most shared.
    let shared: Vec<usize> = models
        .iter()
        .map(|m| models.iter().filter(|o| alike(m, o)).count())
        .collect();
    let most = shared.iter().copied().max().unwrap_or(0);
    let character = unit.datasheet.has_keyword("CHARACTER");
    let keys: Vec<(bool, u8, bool)> = models
        .iter()
        .zip(&shared)
        .map(|(m, &n)| (character, m.characteristics.wounds, n < most))
        .collect();
    let mut distinct = keys.clone();
    distinct.sort();
    distinct.dedup();
    keys.iter()
        .map(|k| distinct.binary_search(k).expect("a key of the list") as u32)
        .collect()
}

/// The order of losses the computer chooses for its own units (model indices, first lost
/// first): like the default (CHARACTER models and more Wounds last) but, among models of equal
/// Wounds, the ones whose loadout differs from the unit's usual one first, so the unit's
/// usual weapons stay in play longest. Measured against the default, it is what wins more
/// games for the computer (docs/computer.md).
pub fn computer_order(unit: &Unit) -> Vec<usize> {
    let ranks = default_ranks(unit);
    let models = &unit.models;
    let character = unit.datasheet.has_keyword("CHARACTER");
    let key = |i: usize| {
        // The default rank grows with Wounds, then special; flip only the special part.
        let wounds = models[i].characteristics.wounds;
        let special = ranks[i]
            > ranks
                .iter()
                .zip(models)
                .filter(|(_, m)| m.characteristics.wounds == wounds)
                .map(|(r, _)| *r)
                .min()
                .unwrap_or(0);
        (character, wounds, !special)
    };
    let mut order: Vec<usize> = (0..models.len()).collect();
    order.sort_by_key(|&i| key(i));
    order
}

/// The allocation ranks of `unit`'s models (index by model) under the owner's chosen order
/// `chosen` (model indices, lost first): the models it names in that order, then the others
/// in the default order.
pub fn ranks(unit: &Unit, chosen: &[usize]) -> Vec<u32> {
    ranks_after(chosen, &default_ranks(unit))
}

/// Allocation ranks under a chosen order: the models `chosen` names (indices into `defaults`)
/// rank 0, 1, ... in that order, every other model after them by its rank in `defaults`.
pub fn ranks_after(chosen: &[usize], defaults: &[u32]) -> Vec<u32> {
    let named = chosen.len() as u32;
    (0..defaults.len())
        .map(|i| match chosen.iter().position(|&c| c == i) {
            Some(p) => p as u32,
            None => named + defaults[i],
        })
        .collect()
}

/// The full order `unit`'s models are lost in (model indices, first lost first) under the
/// owner's chosen order `chosen` (empty: the default), ties in list order.
pub fn order(unit: &Unit, chosen: &[usize]) -> Vec<usize> {
    let r = ranks(unit, chosen);
    let mut order: Vec<usize> = (0..unit.models.len()).collect();
    order.sort_by_key(|&i| r[i]);
    order
}

/// What keeping each of `unit`'s models is worth to its owner when models must be removed for
/// Unit Coherency (Core Rules: Unit Coherency, the owner picks), on a points scale so that a
/// Leader's models and its Bodyguard's compare. By default: its share of the unit's points
/// (its Wounds without a points cost), half as much again for a CHARACTER, and a little more
/// the later the default order loses it, so the CHARACTERs, the most points and the special
/// models stay. Under a chosen order: the unit's mean default worth, spread so that each model
/// is worth more than those the order loses before it.
pub fn keep_values(unit: &Unit, chosen: &[usize]) -> Vec<f64> {
    let n = unit.models.len().max(1) as f64;
    let character = unit.datasheet.has_keyword("CHARACTER");
    let defaults = default_ranks(unit);
    let by_default: Vec<f64> = unit
        .models
        .iter()
        .zip(&defaults)
        .map(|(m, &rank)| {
            let share = unit
                .points
                .map_or(f64::from(m.characteristics.wounds), |p| f64::from(p) / n);
            let share = if character { share * 1.5 } else { share };
            share * (1.0 + 0.01 * f64::from(rank))
        })
        .collect();
    if chosen.is_empty() {
        return by_default;
    }
    let mean = by_default.iter().sum::<f64>() / n;
    let mut values = vec![0.0; unit.models.len()];
    for (p, &i) in order(unit, chosen).iter().enumerate() {
        values[i] = mean * 2.0 * (p as f64 + 1.0) / (n + 1.0);
    }
    values
}

/// Reads a chosen order: each entry a model of unit `unit_id` as `unit#N` or `N` (its index in
/// the unit), each at most once, `models` being the unit's model count.
///
/// # Errors
/// An entry names another unit, is not a number, is out of range or repeats (the message
/// names the entry).
pub fn parse_order(unit_id: &str, models: usize, entries: &[String]) -> Result<Vec<usize>, String> {
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let e = e.trim();
        let index = match e.rsplit_once('#') {
            Some((u, n)) if u.eq_ignore_ascii_case(unit_id) => n,
            Some((u, _)) => {
                return Err(format!("'{e}' is a model of '{u}', not of '{unit_id}'"));
            }
            None => e,
        };
        let i: usize = index
            .parse()
            .map_err(|_| format!("'{e}' is not a model of '{unit_id}' (write {unit_id}#N)"))?;
        if i >= models {
            return Err(format!(
                "'{e}': '{unit_id}' has {models} models ({unit_id}#0 to {unit_id}#{})",
                models.saturating_sub(1)
            ));
        }
        if out.contains(&i) {
            return Err(format!("'{e}' is named twice"));
        }
        out.push(i);
    }
    Ok(out)
}

impl super::Game {
    /// [`Command::AllocationOrder`](super::Command::AllocationOrder): sets (or, empty, clears)
    /// the order the owner loses the unit's models in.
    ///
    /// # Errors
    /// The unit is not the player's, or an entry is not one of its models.
    pub(super) fn set_allocation_order(
        &mut self,
        player: u8,
        unit: &str,
        models: &[String],
        ev: &mut Vec<super::GameEvent>,
    ) -> Result<(), super::Rejection> {
        let (army, u) = self.own_unit(player, unit)?;
        let data = &self.scene.armies[army].units[u];
        let chosen = parse_order(&data.id, data.models.len(), models)
            .map_err(|why| super::Rejection::new(super::Rule::AllocateAttack, why))?;
        let full = order(data, &chosen);
        ev.push(super::GameEvent::AllocationOrderSet {
            player,
            unit: data.id.clone(),
            models: full.iter().map(|i| format!("{}#{i}", data.id)).collect(),
            chosen: !chosen.is_empty(),
        });
        self.units[army][u].allocation_order = chosen;
        Ok(())
    }

    /// The order the owner of unit `unit` of army `army` loses its models in (model indices,
    /// first lost first): its chosen order, the rest by default (see the module
    /// documentation). Dead models are included; the engine skips them.
    pub fn allocation_order(&self, army: usize, unit: usize) -> Vec<usize> {
        order(
            &self.scene.armies[army].units[unit],
            &self.units[army][unit].allocation_order,
        )
    }

    /// The defender's allocation ranks of the models of unit `unit` of army `army` (see
    /// [`ranks`]).
    pub(super) fn allocation_ranks(&self, army: usize, unit: usize) -> Vec<u32> {
        ranks(
            &self.scene.armies[army].units[unit],
            &self.units[army][unit].allocation_order,
        )
    }

    /// What keeping each model of unit `unit` of army `army` is worth to its owner in Unit
    /// Coherency removals (see [`keep_values`]).
    pub(super) fn keep_values(&self, army: usize, unit: usize) -> Vec<f64> {
        keep_values(
            &self.scene.armies[army].units[unit],
            &self.units[army][unit].allocation_order,
        )
    }
}
