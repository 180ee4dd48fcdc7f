//! The dice log: every event of the game in words, refusals, undos and failed autosaves, and
//! the hand-over screen when the acting player changes.

use bevy::prelude::*;

use super::{ActionLog, DiceLog, Drafting, EntryKind, HandOver, Seats, SightTools};
use crate::rules::phase::Stage;
use crate::sim::battle::{ActiveGame, AutosaveFailed, BattleEvent, CommandRejected, Undone};

/// Entries the log panel draws at most (the newest that pass the filter; the log keeps all).
pub const DICE_LOG_SHOWN: usize = 300;

/// Writes the battle's events, rejections, undos and autosave failures into the log.
pub(super) fn record_events(
    mut log: ResMut<DiceLog>,
    mut drafting: ResMut<Drafting>,
    active: Res<ActiveGame>,
    mut events: MessageReader<BattleEvent>,
    mut rejected: MessageReader<CommandRejected>,
    mut autosave_failed: MessageReader<AutosaveFailed>,
    mut undone: MessageReader<Undone>,
) {
    let mut any = false;
    if let Some(game) = &active.game {
        for BattleEvent(e) in events.read() {
            log.actions.push(game, e);
            any = true;
        }
    }
    let mut failed = None;
    for f in autosave_failed.read() {
        failed = Some(format!("{}: {}", f.file.display(), f.reason));
    }
    if let Some(f) = failed {
        log.actions.note(format!("The autosave failed: {f}"));
        log.autosave_error = Some(f);
    } else if any && log.autosave_error.is_some() {
        // An accepted command whose autosave did not fail: the save is whole again.
        log.autosave_error = None;
    }
    if any {
        log.rejection = None;
    }
    for r in rejected.read() {
        // In the names the cards show (the engine's sentence names units and pieces by id).
        let said = match &active.game {
            Some(game) => {
                let player = r.command.player();
                super::readable(game, player, &r.rejection.to_string())
            }
            None => r.rejection.to_string(),
        };
        log.actions.note_as(
            EntryKind::Refused,
            format!("Refused {}: {said}", r.command.kind()),
        );
        log.rejection = Some((r.command.kind().to_string(), r.rejection.clone()));
    }
    for Undone(r, events) in undone.read() {
        match r {
            Ok(c) => {
                // The log of the game as it now stands, from the undo's replay.
                if let Some(game) = &active.game {
                    log.actions = ActionLog::of(game, events);
                    log.expanded.clear();
                }
                log.actions.note(format!("Undone: {}", c.kind()));
            }
            Err(e) => log.actions.note(format!("Cannot undo: {e}")),
        }
        drafting.draft = None;
    }
}

/// Asks for a hand-over when the acting player changes in a hot-seat game (closing the draft
/// and the eye view).
pub(super) fn hand_over(
    active: Res<ActiveGame>,
    mut handover: ResMut<HandOver>,
    mut drafting: ResMut<Drafting>,
    mut sight: ResMut<SightTools>,
    mut last_actor: Local<Option<u8>>,
) {
    if let Some(game) = &active.game {
        let actor = game.acting_player().unwrap_or(game.active_player);
        if last_actor.is_some_and(|p| p != actor)
            && handover.seats == Seats::HotSeat
            && game.stage != Stage::GameOver
        {
            handover.to = Some(actor);
            if drafting.draft.is_some() || drafting.verdict.is_some() {
                drafting.draft = None;
                drafting.verdict = None;
            }
            if sight.eye.is_some() {
                sight.eye = None;
            }
        }
        *last_actor = Some(actor);
    } else {
        *last_actor = None;
    }
}
