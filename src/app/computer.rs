//! Playing against the computer: when the computer's player must act, [`crate::ai::Ai`] gives
//! one command at a time through the same [`GameCommand`] messages as the panels, at a
//! readable pace ([`COMPUTER_PACE_SECONDS`] between commands); Space (or the "Skip" button)
//! plays the rest of its turn at once. Its commands and their dice appear in the dice log.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::play::DiceLog;
use super::screens::Screen;
use crate::ai::{Ai, Brain, Level};
use crate::sim::battle::{ActiveGame, CommandRejected, GameCommand, InputSystems, ModelGlide};

/// Seconds between two of the computer's commands.
pub const COMPUTER_PACE_SECONDS: f32 = 0.6;

/// Seconds a model takes to slide to where a command puts it, in a game against the computer.
pub const COMPUTER_GLIDE_SECONDS: f32 = 0.4;

/// The computer player of this game.
#[derive(Resource)]
pub struct Computer {
    /// The player it plays (1 or 2).
    pub player: u8,
    /// Play the rest of this turn without pauses.
    pub skip: bool,
    /// Commands it has sent this game.
    pub sent: usize,
    /// How strongly it plays.
    pub level: Level,
    brain: Ai,
    wait: Timer,
    /// A command was sent and the game has not answered yet.
    waiting: bool,
}

impl Computer {
    /// The computer playing `player` at `level`.
    pub fn new(player: u8, level: Level) -> Self {
        Computer {
            player,
            skip: false,
            sent: 0,
            level,
            brain: Ai::with_level(level),
            wait: Timer::from_seconds(COMPUTER_PACE_SECONDS, TimerMode::Once),
            waiting: false,
        }
    }
}

/// Registers the computer player's system.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            computer_turn
                .run_if(in_state(Screen::Table).and_then(resource_exists::<Computer>))
                .in_set(InputSystems),
            install_glide.run_if(resource_added::<Computer>),
        ),
    )
    .add_systems(
        EguiPrimaryContextPass,
        banner.run_if(in_state(Screen::Table).and_then(resource_exists::<Computer>)),
    );
}

/// While the computer plays: who it is and the Skip button.
fn banner(
    mut contexts: EguiContexts,
    mut computer: ResMut<Computer>,
    active: Res<ActiveGame>,
) -> Result {
    let Some(game) = &active.game else {
        return Ok(());
    };
    if game.acting_player() != Some(computer.player) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    egui::Window::new("computer")
        .title_bar(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
        .resizable(false)
        .show(&ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(format!(
                    "The computer (player {}) is playing: {}",
                    computer.player,
                    game.describe_now()
                ));
                if !computer.skip && ui.button("Skip to the end of its turn (Space)").clicked() {
                    computer.skip = true;
                }
            });
        });
    Ok(())
}

/// Makes models slide to their new places ([`ModelGlide`]) so the computer's moves can be
/// followed. (It answers the person's declared attacks, Go to Ground or Smokescreen, on its
/// own turn to act: [`Game::acting_player`](crate::game::Game::acting_player).)
fn install_glide(mut commands: Commands) {
    commands.insert_resource(ModelGlide {
        seconds: COMPUTER_GLIDE_SECONDS,
    });
}

fn computer_turn(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut computer: ResMut<Computer>,
    active: Res<ActiveGame>,
    mut log: ResMut<DiceLog>,
    mut rejected: MessageReader<CommandRejected>,
    mut writer: MessageWriter<GameCommand>,
) {
    // Every refusal since the last run (read each run, so none is left over for later).
    let refused = rejected.read().count() > 0;
    let Some(game) = &active.game else { return };
    if game.acting_player() != Some(computer.player) {
        computer.skip = false;
        // While the person acts: a reaction when the game has just changed (Fire Overwatch
        // after a move, Heroic Intervention after a charge move...), one per change.
        if computer.waiting && !active.is_changed() && !refused {
            return;
        }
        computer.waiting = false;
        if active.is_changed() && !refused && game.acting_player().is_some() {
            let player = computer.player;
            if let Some(r) = computer.brain.react(game, player) {
                computer.waiting = true;
                computer.sent += 1;
                writer.write(GameCommand(r));
            }
        }
        return;
    }
    if keys.just_pressed(KeyCode::Space) {
        computer.skip = true;
    }
    // Wait until the last command is applied (the game changes) or refused.
    if computer.waiting {
        if !active.is_changed() && !refused {
            return;
        }
        computer.waiting = false;
        if refused {
            // A refused command would come again: end the phase instead, as a player would.
            log.actions
                .note("The computer's command was refused; it ends the phase");
            computer.waiting = true;
            writer.write(GameCommand(crate::ai::unstick(game)));
            return;
        }
    }
    computer.wait.tick(time.delta());
    if !computer.skip && !computer.wait.is_finished() {
        return;
    }
    computer.wait.reset();
    let player = computer.player;
    let command = computer.brain.next(game, player);
    computer.waiting = true;
    computer.sent += 1;
    writer.write(GameCommand(command));
}
