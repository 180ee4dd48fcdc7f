//! The sight index as a resource: brought in step when the scene changes, and kept up to date
//! when models move (their `Transform` changes). Its terrain part is the one every index of the
//! same layout shares (the game's included), built once per layout.

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

/// A new scene: the index is brought in step with it, keeping the terrain part when the layout
/// is the same (and sharing an equal layout's terrain part when it is not).
fn rebuild(scene: Res<ActiveScene>, mut sight: ResMut<Sight>) {
    match (&scene.0, &mut sight.0) {
        (Some(scene), Some(sight)) => {
            sight.update(scene, |_| true);
        }
        (Some(scene), None) => sight.0 = Some(SceneSight::new(scene)),
        (None, _) => sight.0 = None,
    }
}

fn follow_moves(
    mut sight: ResMut<Sight>,
    moved: Query<(&Model, &ModelOf, &ModelBody, &Transform), Changed<Transform>>,
    units: Query<&Unit>,
) {
    let Some(current) = sight.0.as_ref() else {
        return;
    };
    let mut moves = Vec::new();
    for (model, of, body, transform) in &moved {
        let Ok(unit) = units.get(of.0) else { continue };
        let r = ModelRef {
            army: unit.army,
            unit: unit.index,
            model: model.index,
        };
        let Some(i) = current.models.iter().position(|m| *m == r) else {
            continue;
        };
        let (_, _, yaw) = transform.rotation.to_euler(EulerRot::XYZ);
        let solid = ModelSolid::new(
            body.base,
            transform.translation,
            yaw.to_degrees(),
            body.height,
        );
        if current.index.models()[i].solid != solid {
            moves.push((i, solid));
        }
    }
    // One update (one model BVH rebuild) for every model that moved this frame; the resource
    // is only marked changed when something moved.
    if !moves.is_empty()
        && let Some(sight) = sight.0.as_mut()
    {
        sight.index.move_models(moves);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use bevy::state::app::StatesPlugin;

    use super::*;
    use crate::game::Game;

    fn app(scene: crate::data::Scene) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin))
            .add_plugins(crate::sim::plugin)
            .insert_resource(ActiveScene(Some(scene)));
        app.finish();
        app.cleanup();
        app.update();
        app
    }

    #[test]
    fn the_sight_resource_shares_the_games_terrain_and_follows_moves() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let scene = crate::data::load_scene(&root.join("scenes/default.ron")).unwrap();
        let (game, _) = Game::start(scene.clone(), 1);
        let terrain = game.sight().index.terrain().clone();
        let mut app = app(scene.clone());
        let sight = |app: &App| {
            app.world()
                .resource::<Sight>()
                .0
                .clone()
                .expect("index built")
        };
        assert!(Arc::ptr_eq(sight(&app).index.terrain(), &terrain));
        // A model entity moves: the resource follows, on the same terrain.
        let moved = {
            let mut q = app
                .world_mut()
                .query::<(&Model, &ModelOf, &mut Transform)>();
            let (m, of, mut t) = q.iter_mut(app.world_mut()).next().unwrap();
            t.translation += Vec3::new(3.0, 1.0, 0.0);
            (m.index, of.0, t.translation)
        };
        app.update();
        let unit = app.world().get::<Unit>(moved.1).unwrap();
        let r = ModelRef {
            army: unit.army,
            unit: unit.index,
            model: moved.0,
        };
        let after = sight(&app);
        let e = after.models.iter().position(|x| *x == r).unwrap();
        assert_eq!(after.index.models()[e].solid.centre, moved.2.truncate());
        assert!(Arc::ptr_eq(after.index.terrain(), &terrain));
        // The same scene again keeps the terrain and puts the model back where the scene has it.
        app.insert_resource(ActiveScene(Some(scene.clone())));
        app.update();
        let again = sight(&app);
        assert!(Arc::ptr_eq(again.index.terrain(), &terrain));
        assert_eq!(
            again.index.models(),
            crate::game::sight::SceneSight::new(&scene).index.models()
        );
    }
}
