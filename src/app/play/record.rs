//! The dice log: every event of the game as a line, rejections and failed autosaves, and the
//! hand-over screen when the acting player changes.

use bevy::prelude::*;

use super::{DiceLog, Drafting, HandOver, SightTools};
use crate::rules::phase::Stage;
use crate::sim::battle::{ActiveGame, AutosaveFailed, BattleEvent, CommandRejected, Undone};

/// Lines kept in the dice log.
pub const DICE_LOG_LINES: usize = 400;

/// Writes the battle's events, rejections, undos and autosave failures into the log.
pub(super) fn record_events(
    mut log: ResMut<DiceLog>,
    mut drafting: ResMut<Drafting>,
    mut events: MessageReader<BattleEvent>,
    mut rejected: MessageReader<CommandRejected>,
    mut autosave_failed: MessageReader<AutosaveFailed>,
    mut undone: MessageReader<Undone>,
) {
    let mut any = false;
    for BattleEvent(e) in events.read() {
        log.lines.push(e.to_string());
        any = true;
    }
    let mut failed = None;
    for f in autosave_failed.read() {
        failed = Some(format!("{}: {}", f.file.display(), f.reason));
    }
    if let Some(f) = failed {
        log.lines.push(format!("AUTOSAVE FAILED {f}"));
        log.autosave_error = Some(f);
    } else if any && log.autosave_error.is_some() {
        // An accepted command whose autosave did not fail: the save is whole again.
        log.autosave_error = None;
    }
    if any {
        log.rejection = None;
    }
    for r in rejected.read() {
        log.lines
            .push(format!("REJECTED {}: {}", r.command.kind(), r.rejection));
        log.rejection = Some((r.command.kind().to_string(), r.rejection.clone()));
    }
    for Undone(r) in undone.read() {
        log.lines.push(match r {
            Ok(c) => format!("UNDONE {}", c.kind()),
            Err(e) => format!("cannot undo: {e}"),
        });
        drafting.draft = None;
    }
    // Only touch the log when it is over the limit: a mutable borrow marks it changed.
    let excess = log.lines.len().saturating_sub(DICE_LOG_LINES);
    if excess > 0 {
        log.lines.drain(..excess);
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
            && handover.hotseat
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
