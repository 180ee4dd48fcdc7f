//! The sight index as a resource: rebuilt when the scene changes, and kept up to date when
//! models move (their `Transform` changes).

use bevy::prelude::*;

use super::ActiveScene;
use super::components::{Model, ModelBody, ModelOf, Unit};
use crate::game::sight::{ModelRef, SceneSight};
use crate::geometry::ModelSolid;

/// The sight index of the active scene.
#[derive(Resource, Default)]
pub struct Sight(pub Option<SceneSight>);

/// The system set that keeps [`Sight`] in step with the table; line-of-sight queries run after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct SightSyncSystems;

/// Registers the sight resource and its upkeep.
pub fn plugin(app: &mut App) {
    app.init_resource::<Sight>().add_systems(
        PostUpdate,
        (
            rebuild.run_if(resource_changed::<ActiveScene>),
            follow_moves,
        )
            .chain()
            .in_set(SightSyncSystems),
    );
}

fn rebuild(scene: Res<ActiveScene>, mut sight: ResMut<Sight>) {
    sight.0 = scene.0.as_ref().map(SceneSight::new);
}

fn follow_moves(
    mut sight: ResMut<Sight>,
    moved: Query<(&Model, &ModelOf, &ModelBody, &Transform), Changed<Transform>>,
    units: Query<&Unit>,
) {
    let Some(sight) = sight.0.as_mut() else {
        return;
    };
    for (model, of, body, transform) in &moved {
        let Ok(unit) = units.get(of.0) else { continue };
        let r = ModelRef {
            army: unit.army,
            unit: unit.index,
            model: model.index,
        };
        let Some(i) = sight.models.iter().position(|m| *m == r) else {
            continue;
        };
        let (_, _, yaw) = transform.rotation.to_euler(EulerRot::XYZ);
        let solid = ModelSolid::new(
            body.base,
            transform.translation,
            yaw.to_degrees(),
            body.height,
        );
        if sight.index.models()[i].solid != solid {
            sight.index.move_model(i, solid);
        }
    }
}
