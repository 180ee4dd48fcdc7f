//! Selecting a unit: clicking a model (mesh picking) or a unit in the side panel; the selected
//! unit's models are highlighted.

use bevy::prelude::*;

use super::play::{PlayState, SightStatus};
use super::table::{Board, BodyMesh, Palette};
use crate::sim::battle::ActiveGame;
use crate::sim::components::{Model, ModelOf};

/// The unit whose card is shown, if any.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected unit entity.
    pub unit: Option<Entity>,
}

/// A unit to select as soon as it is on the table (`play --select`).
#[derive(Resource, Debug, Clone)]
pub struct SelectAtStart(pub crate::game::sight::UnitSelector);

/// Registers selection, picking observers and the highlight.
pub fn plugin(app: &mut App) {
    app.init_resource::<Selection>().add_systems(
        Update,
        (
            select_at_start.run_if(resource_exists::<SelectAtStart>),
            observe_new_models,
            observe_board,
            hide_off_table,
            highlight_selection.run_if(
                resource_changed::<Selection>
                    .or_else(resource_changed::<PlayState>)
                    .or_else(resource_changed::<ActiveGame>),
            ),
        ),
    );
}

/// The unit `model` belongs to.
pub fn unit_of(model: Entity, models: &Query<&ModelOf>) -> Option<Entity> {
    models.get(model).ok().map(|m| m.0)
}

fn select_at_start(
    mut commands: Commands,
    wanted: Res<SelectAtStart>,
    units: Query<(Entity, &crate::sim::components::Unit)>,
    mut selection: ResMut<Selection>,
) {
    let found = units
        .iter()
        .find(|(_, u)| u.id == wanted.0.unit && wanted.0.player.is_none_or(|p| p == u.player));
    if let Some((entity, _)) = found {
        selection.unit = Some(entity);
        commands.remove_resource::<SelectAtStart>();
    }
}

fn observe_new_models(mut commands: Commands, added: Query<Entity, Added<Model>>) {
    for model in &added {
        commands.entity(model).observe(
            move |mut click: On<Pointer<Click>>,
                  models: Query<&ModelOf>,
                  refs: Query<(&Model, &ModelOf)>,
                  units: Query<&crate::sim::components::Unit>,
                  mut play: ResMut<PlayState>,
                  mut selection: ResMut<Selection>| {
                if click.button != PointerButton::Primary {
                    return;
                }
                click.propagate(false);
                if let Some(tape) = play.tape.as_mut() {
                    if let Some(r) = super::overlay::model_ref(model, &refs, &units) {
                        if tape.picks.len() >= 2 {
                            tape.picks.clear();
                        }
                        tape.picks.push(r);
                    }
                    return;
                }
                selection.unit = unit_of(model, &models);
            },
        );
    }
}

fn observe_board(mut commands: Commands, added: Query<Entity, Added<Board>>) {
    for board in &added {
        commands.entity(board).observe(
            |click: On<Pointer<Click>>,
             mut selection: ResMut<Selection>,
             mut play: ResMut<PlayState>| {
                if click.button == PointerButton::Primary && play.draft.is_none() {
                    selection.unit = None;
                    play.eye = None;
                }
            },
        );
    }
}

fn highlight_selection(
    selection: Res<Selection>,
    palette: Option<Res<Palette>>,
    play: Res<PlayState>,
    models: Query<&ModelOf>,
    refs: Query<(&Model, &ModelOf)>,
    units: Query<&crate::sim::components::Unit>,
    mut bodies: Query<(&BodyMesh, &ChildOf, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    let Some(palette) = palette else { return };
    for (body, parent, mut material) in &mut bodies {
        let model = parent.parent();
        let selected = selection.unit.is_some() && unit_of(model, &models) == selection.unit;
        let sight = play
            .los
            .then(|| super::overlay::model_ref(model, &refs, &units))
            .flatten()
            .and_then(|r| play.report.of(r))
            .map(|t| t.status);
        let wanted = if selected {
            &palette.selected
        } else if let Some(status) = sight {
            &palette.sight[match status {
                SightStatus::FullyVisible => 0,
                SightStatus::Visible => 1,
                SightStatus::NotVisible => 2,
            }]
        } else {
            &palette.bodies[usize::from(body.player.clamp(1, 2) - 1)]
        };
        if material.0 != *wanted {
            material.0 = wanted.clone();
        }
    }
}

/// Destroyed, embarked and Reserves models leave the table; units not yet deployed stay
/// where the scene put them, ready to be deployed.
fn hide_off_table(
    active: Res<ActiveGame>,
    units: Query<&crate::sim::components::Unit>,
    mut models: Query<(&Model, &ModelOf, &mut Visibility)>,
) {
    for (m, of, mut v) in &mut models {
        let shown = match (&active.game, units.get(of.0)) {
            (Some(game), Ok(u)) => {
                let r = crate::game::sight::ModelRef {
                    army: u.army,
                    unit: u.index,
                    model: m.index,
                };
                let state = &game.units[r.army][r.unit];
                game.on_table(r)
                    || (state.location == crate::game::Location::NotDeployed
                        && state.models[r.model].alive)
            }
            _ => true,
        };
        let want = if shown {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *v != want {
            *v = want;
        }
    }
}
