//! Selecting a unit: clicking a model (mesh picking) or a unit in the side panel; the selected
//! unit's models are highlighted.

use bevy::prelude::*;

use super::table::{Board, BodyMesh, Palette};
use crate::sim::components::{Model, ModelOf};

/// The unit whose card is shown, if any.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected unit entity.
    pub unit: Option<Entity>,
}

/// A unit to select as soon as it is on the table (`play --select`).
#[derive(Resource, Debug, Clone)]
pub struct SelectAtStart(pub crate::data::sight::UnitSelector);

/// Registers selection, picking observers and the highlight.
pub fn plugin(app: &mut App) {
    app.init_resource::<Selection>().add_systems(
        Update,
        (
            select_at_start.run_if(resource_exists::<SelectAtStart>),
            observe_new_models,
            observe_board,
            highlight_selection.run_if(resource_changed::<Selection>),
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
                  mut selection: ResMut<Selection>| {
                if click.button == PointerButton::Primary {
                    selection.unit = unit_of(model, &models);
                    click.propagate(false);
                }
            },
        );
    }
}

fn observe_board(mut commands: Commands, added: Query<Entity, Added<Board>>) {
    for board in &added {
        commands.entity(board).observe(
            |click: On<Pointer<Click>>, mut selection: ResMut<Selection>| {
                if click.button == PointerButton::Primary {
                    selection.unit = None;
                }
            },
        );
    }
}

fn highlight_selection(
    selection: Res<Selection>,
    palette: Option<Res<Palette>>,
    models: Query<&ModelOf>,
    mut bodies: Query<(&BodyMesh, &ChildOf, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    let Some(palette) = palette else { return };
    for (body, parent, mut material) in &mut bodies {
        let selected =
            selection.unit.is_some() && unit_of(parent.parent(), &models) == selection.unit;
        material.0 = if selected {
            palette.selected.clone()
        } else {
            palette.bodies[usize::from(body.player.clamp(1, 2) - 1)].clone()
        };
    }
}
