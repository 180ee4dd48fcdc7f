//! "Deploy the rest as placed": a side whose player asks for it sets up each of its remaining
//! units where the scene put them, one whenever it is that side's turn to deploy (players still
//! alternate, Core Rules: Deploy Armies), so one person does not select 17 units by hand.

use bevy::prelude::*;

use super::Drafting;
use crate::game::Command;
use crate::rules::phase::Stage;
use crate::sim::battle::{ActiveGame, GameCommand};

/// The sides (players 1 and 2) that deploy the rest of their units as placed.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AutoDeploy(pub [bool; 2]);

/// The Deploy command for the next unit of the side to deploy, if that side deploys the rest
/// as placed ([`AutoDeploy`]) and has a unit left; None otherwise (the battle has begun, or
/// that player deploys by hand).
pub fn auto_deploy_command(game: &crate::game::Game, auto: AutoDeploy) -> Option<Command> {
    if !matches!(game.stage, Stage::Setup | Stage::Deployment) {
        return None;
    }
    let player = game.active_player;
    if !auto.0.get(usize::from(player).wrapping_sub(1)).copied()? {
        return None;
    }
    game.deploy_next_as_placed(player)
}

/// Sends one Deploy a frame for a side that deploys the rest as placed (the engine applies it
/// in the same frame, so the next frame sees the next turn to deploy).
pub(super) fn auto_deploy(
    auto: Res<AutoDeploy>,
    active: Res<ActiveGame>,
    mut drafting: ResMut<Drafting>,
    mut writer: MessageWriter<GameCommand>,
) {
    if auto.0 == [false, false] {
        return;
    }
    if let Some(game) = &active.game
        && let Some(c) = auto_deploy_command(game, *auto)
    {
        super::issue(&mut writer, &mut drafting, c);
    }
}
