//! The computer player's use of the mission: the actions its primary and secondary cards
//! offer, and discarding Tactical cards for Command points.
//!
//! Chapter Approved 2025-26 Mission Deck: Actions, Tactical secondary missions.

use crate::game::{Command, Game, GameEvent};
use crate::rules::mission::MissionAction;
use crate::rules::secondary::SecondaryMode;

/// The actions `player` may perform now: the primary's and those of their active cards.
fn offered(game: &Game, player: u8) -> Vec<MissionAction> {
    let mut out = game.scene.mission.actions.clone();
    if let Some(deck) = &game.scene.secondary_deck {
        for c in &game.mission.active[usize::from(player - 1)] {
            if let Some(a) = deck.cards[c.card].kind.action()
                && !out.contains(&a)
            {
                out.push(a);
            }
        }
    }
    out
}

/// In `player`'s Shooting phase: an action for `unit` (a unit with nothing to shoot at) that
/// the engine accepts, on the first objective it may be performed on; None when no action is
/// offered or none is possible.
pub fn action_for(game: &Game, player: u8, unit: &str) -> Option<Command> {
    for action in offered(game, player) {
        let objectives: Vec<Option<String>> = if action.needs_objective() {
            game.scene
                .objectives
                .iter()
                .map(|o| Some(o.id.clone()))
                .collect()
        } else {
            vec![None]
        };
        for objective in objectives {
            let c = Command::StartAction {
                player,
                unit: unit.to_string(),
                action,
                objective,
            };
            if game.check(&c).is_ok() {
                return Some(c);
            }
        }
    }
    None
}

/// Just before `player` ends their turn (the last EndPhase of the Fight phase): one Tactical
/// card that would not score at the end of this turn, to discard for a Command point, when
/// none is marked yet and the CP would be gained (the 1 extra CP per round not yet had).
pub fn discard_for_cp(game: &Game, player: u8) -> Option<Command> {
    let i = usize::from(player - 1);
    let deck = game.scene.secondary_deck.as_ref()?;
    if game.scene.secondaries[i] != SecondaryMode::Tactical
        || game.cp_other_gain[i] > 0
        || game.mission.active[i].iter().any(|c| c.discard)
    {
        return None;
    }
    // The end of the turn, tried on a copy: which cards score.
    let mut trial = game.clone();
    let events = trial.apply(&Command::EndPhase { player }).ok()?;
    let scoring: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            GameEvent::VictoryPoints {
                player: p, reason, ..
            } if *p == player => reason.split(" (secondary)").next(),
            _ => None,
        })
        .collect();
    let card = game.mission.active[i]
        .iter()
        .map(|c| deck.cards[c.card].name.clone())
        .find(|name| !scoring.contains(&name.as_str()))?;
    let c = Command::DiscardSecondary { player, card };
    game.check(&c).is_ok().then_some(c)
}
