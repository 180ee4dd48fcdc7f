//! Selecting a unit: clicking a model (mesh picking) or a unit in the side panel; the selected
//! unit's models are highlighted.

use bevy::prelude::*;

use super::play::{self, Drafting, SightStatus, SightTools, TableTools, TapeEnd};
use super::screens::Screen;
use super::table::{Board, BodyMesh, Palette, SightRing};
use crate::sim::battle::ActiveGame;
use crate::sim::components::{ModelOf, ObjectiveMarker, TableModel, TerrainFeature, Unit};

/// The unit whose card is shown, if any.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected unit entity.
    pub unit: Option<Entity>,
}

/// A unit to select as soon as it is on the table (`play --select`).
#[derive(Resource, Debug, Clone)]
pub struct SelectAtStart(pub crate::game::sight::UnitSelector);

/// Registers selection, picking observers and the highlight (its systems run while a game is on
/// the table, [`Screen::Table`]).
pub fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .add_observer(observe_model)
        .add_observer(observe_board)
        .add_observer(observe_terrain)
        .add_observer(observe_objective)
        .add_systems(
            Update,
            (
                select_at_start
                    .run_if(in_state(Screen::Table).and_then(resource_exists::<SelectAtStart>)),
                hide_off_table.run_if(in_state(Screen::Table)),
                // `and_then` short-circuits: changes made on another screen are seen on the
                // first frame on the table.
                highlight_selection.run_if(
                    in_state(Screen::Table).and_then(
                        resource_changed::<Selection>
                            .or_eager(resource_changed::<SightTools>)
                            .or_eager(resource_changed::<ActiveGame>),
                    ),
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
    units: Query<(Entity, &Unit)>,
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

/// A model entity just spawned gets its click observer: a primary click picks it for the tape
/// when the tape is on, else selects its unit.
fn observe_model(add: On<Add, TableModel>, mut commands: Commands, models: Query<&TableModel>) {
    let Ok(&TableModel(r)) = models.get(add.entity) else {
        return;
    };
    let model = add.entity;
    commands.entity(model).observe(
        move |mut click: On<Pointer<Click>>,
              models: Query<&ModelOf>,
              mut tools: ResMut<TableTools>,
              mut selection: ResMut<Selection>| {
            if click.button != PointerButton::Primary {
                return;
            }
            click.propagate(false);
            if let Some(tape) = tools.tape.as_mut() {
                tape.pick(TapeEnd::Model(r));
                return;
            }
            selection.unit = unit_of(model, &models);
        },
    );
}

/// A terrain piece or objective marker just spawned gets its click observer: while the tape
/// is on, a primary click picks it as an end (a click anywhere on a piece's walls or floors
/// reaches the piece).
fn observe_terrain(
    add: On<Add, TerrainFeature>,
    mut commands: Commands,
    pieces: Query<&TerrainFeature>,
) {
    if let Ok(piece) = pieces.get(add.entity) {
        pick_on_click(&mut commands, add.entity, TapeEnd::Terrain(piece.index));
    }
}

/// See [`observe_terrain`]: the same for an objective marker.
fn observe_objective(
    add: On<Add, ObjectiveMarker>,
    mut commands: Commands,
    markers: Query<&ObjectiveMarker>,
) {
    if let Ok(marker) = markers.get(add.entity) {
        pick_on_click(
            &mut commands,
            add.entity,
            TapeEnd::Objective(marker.id.clone()),
        );
    }
}

/// Observes primary clicks on `entity`: while the tape is on, each picks `end` as one of the
/// tape's ends (and goes no further up the hierarchy).
fn pick_on_click(commands: &mut Commands, entity: Entity, end: TapeEnd) {
    commands.entity(entity).observe(
        move |mut click: On<Pointer<Click>>, mut tools: ResMut<TableTools>| {
            if click.button == PointerButton::Primary
                && let Some(tape) = tools.tape.as_mut()
            {
                click.propagate(false);
                tape.pick(end.clone());
            }
        },
    );
}

/// The board gets its click observer: while the tape is on, a primary click picks the point
/// clicked; otherwise a click on the bare table clears the selection and closes the eye view
/// (not while a move is drafted).
fn observe_board(add: On<Add, Board>, mut commands: Commands) {
    commands.entity(add.entity).observe(
        |click: On<Pointer<Click>>,
         mut selection: ResMut<Selection>,
         mut drafting: ResMut<Drafting>,
         active: Res<ActiveGame>,
         mut tools: ResMut<TableTools>,
         mut sight: ResMut<SightTools>| {
            if click.button == PointerButton::Primary
                && let Some(tape) = tools.tape.as_mut()
            {
                if let Some(p) = click.hit.position {
                    tape.pick(TapeEnd::Point(p));
                }
                return;
            }
            // A unit being placed (arriving, disembarking) follows the cursor; a click drops it
            // there (Enter then confirms; "Place" picks it up again).
            if click.button == PointerButton::Primary
                && let Some((army, unit)) = drafting.placing
                && let (Some(game), Some(p)) = (&active.game, click.hit.position)
            {
                let draft = play::placement_draft(game, army, unit, Vec3::new(p.x, p.y, 0.0));
                drafting.draft = Some(draft);
                drafting.placing = None;
                return;
            }
            if click.button == PointerButton::Primary && drafting.draft.is_none() {
                selection.unit = None;
                sight.eye = None;
            }
        },
    );
}

fn highlight_selection(
    selection: Res<Selection>,
    palette: Option<Res<Palette>>,
    sight_tools: Res<SightTools>,
    models: Query<&ModelOf>,
    refs: Query<&TableModel>,
    mut bodies: Query<
        (&BodyMesh, &ChildOf, &mut MeshMaterial3d<StandardMaterial>),
        Without<SightRing>,
    >,
    mut rings: Query<
        (
            &ChildOf,
            &mut MeshMaterial3d<StandardMaterial>,
            &mut Visibility,
        ),
        With<SightRing>,
    >,
) {
    let Some(palette) = palette else { return };
    // Bodies keep their player's colour (yellow while selected).
    for (body, parent, mut material) in &mut bodies {
        let model = parent.parent();
        let selected = selection.unit.is_some() && unit_of(model, &models) == selection.unit;
        let wanted = if selected {
            &palette.selected
        } else {
            &palette.bodies[usize::from(body.player.clamp(1, 2) - 1)]
        };
        if material.0 != *wanted {
            material.0 = wanted.clone();
        }
    }
    // The line-of-sight state shows as a ring round the base.
    for (parent, mut material, mut visibility) in &mut rings {
        let sight = sight_tools
            .los
            .then(|| refs.get(parent.parent()).ok().map(|t| t.0))
            .flatten()
            .and_then(|r| sight_tools.report.of(r))
            .map(|t| t.status);
        let shown = if sight.is_some() {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *visibility != shown {
            *visibility = shown;
        }
        if let Some(status) = sight {
            let wanted = &palette.sight[match status {
                SightStatus::FullyVisible => 0,
                SightStatus::Visible => 1,
                SightStatus::NotVisible => 2,
            }];
            if material.0 != *wanted {
                material.0 = wanted.clone();
            }
        }
    }
}

/// Destroyed, embarked and Reserves models leave the table; units not yet deployed stay
/// where the scene put them, ready to be deployed.
fn hide_off_table(active: Res<ActiveGame>, mut models: Query<(&TableModel, &mut Visibility)>) {
    for (&TableModel(r), mut v) in &mut models {
        let shown = match &active.game {
            Some(game) => {
                let state = &game.units[r.army][r.unit];
                game.on_table(r)
                    || (state.location == crate::game::Location::NotDeployed
                        && state.models[r.model].alive)
            }
            None => true,
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
