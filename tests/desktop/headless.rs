//! The simulation plugins run headless (MinimalPlugins + StatesPlugin): a loaded scene becomes
//! unit, model and terrain entities with colliders, and a new scene replaces the old one.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_rapier3d::prelude::Collider;
use wartable::data::load_scene;
use wartable::sim::ActiveScene;
use wartable::sim::components::{
    DeploymentZone, Model, ModelOf, ObjectiveMarker, TerrainFeature, Unit, UnitModels, WallSolid,
};

fn scene(name: &str) -> wartable::data::Scene {
    load_scene(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(name),
    )
    .unwrap()
}

fn headless_app(scene: wartable::data::Scene) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .add_plugins(wartable::sim::plugin)
        .insert_resource(ActiveScene(Some(scene)));
    app.finish();
    app.cleanup();
    app.update();
    app
}

fn count<F: bevy::ecs::query::QueryFilter>(app: &mut App) -> usize {
    app.world_mut()
        .query_filtered::<Entity, F>()
        .iter(app.world())
        .count()
}

#[test]
fn default_scene_spawns_units_models_and_terrain_with_colliders() {
    let data = scene("default.ron");
    let units: usize = data.armies.iter().map(|a| a.units.len()).sum();
    let models: usize = data
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .map(|u| u.models.len())
        .sum();
    let walls: usize = data
        .layout
        .pieces
        .iter()
        .map(|p| {
            p.wall_solids(data.options.ground_floor_windows_closed)
                .len()
        })
        .sum();
    let mut app = headless_app(data);
    assert_eq!(units, 17);
    assert_eq!(models, 82);
    assert_eq!(count::<With<Unit>>(&mut app), units);
    assert_eq!(
        count::<(With<Model>, With<Collider>, With<ModelOf>)>(&mut app),
        models
    );
    assert_eq!(
        count::<(With<TerrainFeature>, With<Collider>)>(&mut app),
        16
    );
    assert_eq!(count::<(With<WallSolid>, With<Collider>)>(&mut app), walls);
    assert!(walls > 16, "ruin walls are split around their windows");
    assert_eq!(
        count::<(With<ObjectiveMarker>, With<Collider>)>(&mut app),
        5
    );
    assert_eq!(count::<With<DeploymentZone>>(&mut app), 2);
    // Every unit knows its models.
    let mut q = app.world_mut().query::<(&Unit, &UnitModels)>();
    let total: usize = q.iter(app.world()).map(|(_, m)| m.entities().len()).sum();
    assert_eq!(total, models);
}

#[test]
fn models_stand_where_the_scene_put_them() {
    let data = scene("default.ron");
    let expected = data.armies[0].units[0].models[0].position;
    let mut app = headless_app(data);
    let mut q = app.world_mut().query::<(&Model, &ModelOf, &Transform)>();
    let mut units = app.world_mut().query::<&Unit>();
    let found = q.iter(app.world()).find(|(m, of, _)| {
        m.index == 0
            && units
                .get(app.world(), of.0)
                .is_ok_and(|u| u.army == 0 && u.index == 0)
    });
    let (_, _, transform) = found.expect("first model of the first unit");
    assert_eq!(transform.translation, expected);
}

#[test]
fn a_new_scene_replaces_the_old_entities() {
    let mut app = headless_app(scene("default.ron"));
    assert_eq!(count::<With<TerrainFeature>>(&mut app), 16);
    app.insert_resource(ActiveScene(Some(scene("layout-7.ron"))));
    app.update();
    assert_eq!(count::<With<TerrainFeature>>(&mut app), 20);
    assert_eq!(count::<With<Unit>>(&mut app), 17);
    app.insert_resource(ActiveScene(None));
    app.update();
    assert_eq!(count::<With<Model>>(&mut app), 0);
    assert_eq!(count::<With<WallSolid>>(&mut app), 0);
}

/// A game on `data` (seed 7) with everything deployed where the scene stands.
fn deployed(data: wartable::data::Scene) -> wartable::game::Game {
    use wartable::game::{Command, Game};
    let (mut game, _) = Game::start(data, 7);
    while game.stage != wartable::rules::phase::Stage::Battle {
        let p = game.active_player;
        let a = game.army_of(p).unwrap();
        let u = game.next_to_deploy(p).unwrap();
        let id = game.unit_id(a, u).to_string();
        game.apply(&Command::Deploy {
            player: p,
            unit: id,
            models: vec![],
            transport: None,
        })
        .unwrap();
    }
    game
}

/// Where model 0 of `player`'s `unit` stands on the table (its Transform).
fn model_zero_at(app: &mut App, player: u8, unit: &str) -> Vec3 {
    let mut q = app.world_mut().query::<(&Model, &ModelOf, &Transform)>();
    q.iter(app.world())
        .filter(|(m, of, _)| {
            m.index == 0
                && app
                    .world()
                    .get::<Unit>(of.0)
                    .is_some_and(|u| u.id == unit && u.player == player)
        })
        .map(|(_, _, t)| t.translation)
        .next()
        .unwrap()
}

#[test]
fn with_model_glide_a_moved_model_slides_to_its_new_place() {
    use bevy::time::TimeUpdateStrategy;
    use std::time::Duration;
    use wartable::game::{Command, ModelPath};
    use wartable::sim::battle::{ActiveGame, GameCommand, Gliding, ModelGlide};
    let data = scene("default.ron");
    let mut app = headless_app(data.clone());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        100,
    )))
    .insert_resource(ModelGlide { seconds: 0.4 });
    let mut game = deployed(data);
    let first = game.active_player;
    game.apply(&Command::EndPhase { player: first }).unwrap();
    let unit = if first == 1 {
        "redemptor"
    } else {
        "battlewagon"
    };
    let a = game.army_of(first).unwrap();
    let u = game.find_unit(a, unit).unwrap();
    let from = game.scene.armies[a].units[u].models[0].position;
    // A 3" move the engine accepts (the first of four directions).
    let mv = |dx: f32, dy: f32| Command::Move {
        player: first,
        unit: unit.into(),
        mode: wartable::rules::movement::MoveMode::Normal,
        paths: vec![ModelPath {
            model: 0,
            unit: None,
            path: vec![(from.x + dx, from.y + dy, 0.0)],
            facing: None,
        }],
    };
    let (dx, dy) = [(0.0, 3.0), (0.0, -3.0), (3.0, 0.0), (-3.0, 0.0)]
        .into_iter()
        .find(|&(dx, dy)| game.check(&mv(dx, dy)).is_ok())
        .expect("some 3in move is legal");
    app.world_mut().resource_mut::<ActiveGame>().game = Some(game);
    app.update();
    assert_eq!(model_zero_at(&mut app, first, unit), from);
    app.world_mut().write_message(GameCommand(mv(dx, dy)));
    app.update();
    app.update();
    // Part of the way there after 0.1-0.2 s of a 0.4 s slide...
    let part = model_zero_at(&mut app, first, unit);
    let done = (part - from).truncate().length() / 3.0;
    assert!(done > 0.0 && done < 1.0, "{done} {part} {from}");
    // ...and there, with the slide over, after the rest of it.
    for _ in 0..5 {
        app.update();
    }
    let end = model_zero_at(&mut app, first, unit);
    assert_eq!((end.x, end.y), (from.x + dx, from.y + dy));
    let sliding = app
        .world_mut()
        .query::<&Gliding>()
        .iter(app.world())
        .count();
    assert_eq!(sliding, 0);
}

#[test]
fn battle_plugin_mirrors_the_game_in_states_and_moves_model_entities() {
    use wartable::game::Command;
    use wartable::sim::battle::{
        ActiveGame, BattleEvent, BattleState, CommandRejected, GameCommand,
    };
    let data = scene("default.ron");
    let mut app = headless_app(data.clone());
    let game = deployed(data);
    let first = game.active_player;
    app.world_mut().resource_mut::<ActiveGame>().game = Some(game);
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<BattleState>>().get(),
        BattleState::Battle
    );
    let phase = |app: &App| {
        app.world()
            .resource::<ActiveGame>()
            .game
            .as_ref()
            .map(|g| g.phase)
    };
    assert_eq!(phase(&app), Some(wartable::rules::phase::Phase::Command));
    app.world_mut()
        .write_message(GameCommand(Command::EndPhase { player: first }));
    app.world_mut()
        .write_message(GameCommand(Command::EndPhase { player: 3 - first }));
    app.update();
    app.update();
    assert_eq!(phase(&app), Some(wartable::rules::phase::Phase::Movement));
    let events = app.world().resource::<Messages<BattleEvent>>();
    assert!(!events.is_empty());
    let rejected = app.world().resource::<Messages<CommandRejected>>();
    let mut cursor = rejected.get_cursor();
    let r: Vec<_> = cursor.read(rejected).collect();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].rejection.rule, wartable::game::Rule::Sequencing);
    // A Remain Stationary changes no Transform; a move does.
    let ids: Vec<(u8, String, f32, f32)> = {
        let g = app.world().resource::<ActiveGame>().game.as_ref().unwrap();
        let a = g.army_of(first).unwrap();
        let u = g
            .find_unit(
                a,
                if first == 1 {
                    "redemptor"
                } else {
                    "battlewagon"
                },
            )
            .unwrap();
        let p = g.scene.armies[a].units[u].models[0].position;
        vec![(first, g.unit_id(a, u).to_string(), p.x, p.y)]
    };
    let (player, unit, x, y) = ids[0].clone();
    let dy = if player == 1 { 1.0 } else { -1.0 };
    app.world_mut().write_message(GameCommand(Command::Move {
        player,
        unit: unit.clone(),
        mode: wartable::rules::movement::MoveMode::Normal,
        paths: vec![wartable::game::ModelPath {
            model: 0,
            unit: None,
            path: vec![(x, y + dy, 0.0)],
            facing: None,
        }],
    }));
    app.update();
    let moved = model_zero_at(&mut app, player, &unit);
    assert_eq!((moved.x, moved.y), (x, y + dy));
}

/// Every model entity carries the game's reference to it (army, unit and model index), which
/// matches its unit entity; and a scene spawned while a game is under way stands where the
/// game has its models at once: the spawn observer places each new model, with no change to
/// the game needed.
#[test]
fn model_entities_know_their_game_model_and_respawn_where_the_game_has_them() {
    use wartable::game::sight::ModelRef;
    use wartable::game::{Command, ModelPath};
    use wartable::sim::battle::ActiveGame;
    use wartable::sim::components::TableModel;
    let data = scene("default.ron");
    let mut app = headless_app(data.clone());
    let mut q = app.world_mut().query::<(&Model, &ModelOf, &TableModel)>();
    let mut checked = 0;
    for (m, of, t) in q.iter(app.world()) {
        let u = app.world().get::<Unit>(of.0).unwrap();
        let expected = ModelRef {
            army: u.army,
            unit: u.index,
            model: m.index,
        };
        assert_eq!(t.0, expected);
        checked += 1;
    }
    assert_eq!(checked, 82);
    // A game in its Movement phase with one model moved 3" from where the scene put it.
    let mut game = deployed(data.clone());
    let first = game.active_player;
    game.apply(&Command::EndPhase { player: first }).unwrap();
    let unit = if first == 1 {
        "redemptor"
    } else {
        "battlewagon"
    };
    let a = game.army_of(first).unwrap();
    let u = game.find_unit(a, unit).unwrap();
    let from = game.scene.armies[a].units[u].models[0].position;
    let mv = |dx: f32, dy: f32| Command::Move {
        player: first,
        unit: unit.into(),
        mode: wartable::rules::movement::MoveMode::Normal,
        paths: vec![ModelPath {
            model: 0,
            unit: None,
            path: vec![(from.x + dx, from.y + dy, 0.0)],
            facing: None,
        }],
    };
    let c = [(0.0, 3.0), (0.0, -3.0), (3.0, 0.0), (-3.0, 0.0)]
        .into_iter()
        .map(|(dx, dy)| mv(dx, dy))
        .find(|c| game.check(c).is_ok())
        .expect("some 3in move is legal");
    game.apply(&c).unwrap();
    let to = game.scene.armies[a].units[u].models[0].position;
    assert_ne!(to, from);
    app.world_mut().resource_mut::<ActiveGame>().game = Some(game);
    app.update();
    assert_eq!(model_zero_at(&mut app, first, unit), to);
    // The scene again: every entity is spawned anew at the scene's places, and the new model
    // entity goes where the game has it in the same update.
    app.insert_resource(ActiveScene(Some(data)));
    app.update();
    assert_eq!(model_zero_at(&mut app, first, unit), to);
}

/// The default scene with rapier mirroring its colliders (as the app's picking backend has
/// it; rapier's sync runs Bevy's transform propagation, hence `TransformPlugin`), updated twice
/// so the colliders are in rapier's query tree.
fn pickable_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, TransformPlugin))
        .add_plugins((wartable::sim::plugin, wartable::app::pick::colliders_plugin))
        .insert_resource(ActiveScene(Some(scene("default.ron"))));
    app.finish();
    app.cleanup();
    app.update();
    app.update();
    app
}

/// Casts `ray` with the picking backend's own [`wartable::app::pick::TablePicker`].
fn pick(app: &mut App, ray: Ray3d) -> Option<wartable::app::pick::TableHit> {
    use bevy::ecs::system::RunSystemOnce;
    use wartable::app::pick::TablePicker;
    app.world_mut()
        .run_system_once(move |picker: TablePicker| picker.cast(ray))
        .unwrap()
}

fn straight_down(x: f32, y: f32) -> Ray3d {
    Ray3d::new(Vec3::new(x, y, 50.0), Dir3::NEG_Z)
}

#[test]
fn picking_rays_meet_model_bases_the_table_and_nothing_off_it() {
    use wartable::sim::components::{ModelBody, TableModel};
    use wartable::sim::scene::TableSurface;
    let mut app = pickable_app();
    let data = scene("default.ron");
    // A model: straight down onto its base's centre meets the model's own entity, on top of it.
    let at = data.armies[1].units[0].models[0].position;
    let hit = pick(&mut app, straight_down(at.x, at.y)).expect("the model is hit");
    let world = app.world();
    let r = world
        .get::<TableModel>(hit.entity)
        .expect("a model entity")
        .0;
    assert_eq!((r.army, r.unit, r.model), (1, 0, 0));
    let height = world.get::<ModelBody>(hit.entity).unwrap().height;
    assert!((hit.point.z - (at.z + height)).abs() < 1e-3, "{hit:?}");
    assert!((hit.distance_inches - (50.0 - at.z - height)).abs() < 1e-3);
    assert!(hit.normal.z > 0.99);
    // A bare spot of the table: the table surface, at z = 0.
    let hit = pick(&mut app, straight_down(0.5, 0.5)).expect("the table is hit");
    assert!(
        app.world().get::<TableSurface>(hit.entity).is_some(),
        "{hit:?}"
    );
    assert!(hit.point.z.abs() < 1e-3);
    // Off the table: nothing.
    assert_eq!(pick(&mut app, straight_down(-5.0, -5.0)), None);
    assert_eq!(
        pick(&mut app, Ray3d::new(Vec3::new(30.0, 22.0, 50.0), Dir3::Z)),
        None
    );
    // With the app's board mesh spawned, table hits are reported on the board.
    let board = app.world_mut().spawn(wartable::app::table::Board).id();
    let hit = pick(&mut app, straight_down(0.5, 0.5)).unwrap();
    assert_eq!(hit.entity, board);
}

#[test]
fn picking_follows_a_moved_model_and_skips_hidden_ones() {
    use wartable::sim::components::TableModel;
    let mut app = pickable_app();
    let data = scene("default.ron");
    let at = data.armies[1].units[0].models[0].position;
    let hit = pick(&mut app, straight_down(at.x, at.y)).unwrap();
    let model = hit.entity;
    assert!(app.world().get::<TableModel>(model).is_some());
    // Hidden (destroyed, embarked, in Reserves): the ray goes through to what is under it.
    app.world_mut().entity_mut(model).insert(Visibility::Hidden);
    let hit = pick(&mut app, straight_down(at.x, at.y)).unwrap();
    assert_ne!(hit.entity, model);
    app.world_mut()
        .entity_mut(model)
        .insert(Visibility::Inherited);
    // Moved: rapier follows its transform after an update.
    let to = Vec3::new(30.0, 0.8, 0.0);
    app.world_mut()
        .get_mut::<Transform>(model)
        .unwrap()
        .translation = to;
    app.update();
    app.update();
    assert_eq!(
        pick(&mut app, straight_down(to.x, to.y)).unwrap().entity,
        model
    );
    assert_ne!(
        pick(&mut app, straight_down(at.x, at.y)).unwrap().entity,
        model
    );
}

#[test]
fn a_model_base_set_on_a_wall_touches_that_wall() {
    use bevy::ecs::system::RunSystemOnce;
    use wartable::app::pick::TablePicker;
    let mut app = pickable_app();
    let mut walls = app
        .world_mut()
        .query_filtered::<(Entity, &GlobalTransform), With<WallSolid>>();
    let (wall, centre) = walls
        .iter(app.world())
        .map(|(e, t)| (e, t.translation()))
        .next()
        .unwrap();
    let mut models = app.world_mut().query_filtered::<&Collider, With<Model>>();
    let base = models.iter(app.world()).next().unwrap().clone();
    let on_wall = Vec3::new(centre.x, centre.y, 0.0);
    let touching = app
        .world_mut()
        .run_system_once(move |picker: TablePicker| {
            picker.walls_touching(&base, on_wall, Quat::IDENTITY)
        })
        .unwrap();
    assert!(touching.contains(&wall), "{touching:?}");
    let base = models.iter(app.world()).next().unwrap().clone();
    let touching = app
        .world_mut()
        .run_system_once(move |picker: TablePicker| {
            picker.walls_touching(&base, Vec3::new(-10.0, -10.0, 0.0), Quat::IDENTITY)
        })
        .unwrap();
    assert!(touching.is_empty());
}

/// The objective marker entities follow the game's markers: Hidden Supplies moves the centre
/// marker and adds a sixth when the game is set up, and a marker the game removes (Supply
/// Drop, Burn Objective) leaves the table.
#[test]
fn objective_marker_entities_follow_the_games_markers() {
    use wartable::sim::battle::ActiveGame;
    let data = scene("chapter-approved/layout-1-hammer-and-anvil.ron");
    assert_eq!(data.mission.name, "Hidden Supplies");
    let mut app = headless_app(data.clone());
    assert_eq!(count::<With<ObjectiveMarker>>(&mut app), 5);
    let mut game = deployed(data);
    let markers = |app: &mut App| {
        let mut out: Vec<(String, Vec2)> = app
            .world_mut()
            .query::<(&ObjectiveMarker, &Transform)>()
            .iter(app.world())
            .map(|(m, t)| (m.id.clone(), t.translation.truncate()))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    };
    let expected = |game: &wartable::game::Game| {
        let mut out: Vec<(String, Vec2)> = game
            .scene
            .objectives
            .iter()
            .map(|o| (o.id.clone(), Vec2::new(o.at.0, o.at.1)))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    };
    assert_eq!(game.scene.objectives.len(), 6);
    let want = expected(&game);
    app.world_mut().resource_mut::<ActiveGame>().game = Some(game.clone());
    app.update();
    app.update();
    assert_eq!(markers(&mut app), want);
    // A marker taken out of play leaves the table.
    game.scene.objectives.retain(|o| o.id != "centre");
    game.objectives.pop();
    let want = expected(&game);
    app.world_mut().resource_mut::<ActiveGame>().game = Some(game);
    app.update();
    app.update();
    assert_eq!(markers(&mut app), want);
    assert_eq!(count::<With<ObjectiveMarker>>(&mut app), 5);
}

/// The Scout moves end by the phase bar's own button: on the Ultramarines Vanguard scene (a
/// Scouts unit), after deployment the bar offers "End Scout moves (player N)" for each
/// player in turn, and pressing it (its command) twice reaches the first battle round. Before,
/// the bar drew an end button only in the battle and the game stalled there.
#[test]
fn the_scout_moves_end_by_the_phase_bars_button() {
    use wartable::app::hud::phase_bar::end_step;
    use wartable::game::{Command, Game};
    use wartable::rules::phase::Stage;
    let (mut game, _) = Game::start(scene("vanguard.ron"), 7);
    while matches!(game.stage, Stage::Setup | Stage::Deployment) {
        assert!(end_step(&game).is_none(), "no end button while deploying");
        let p = game.active_player;
        let a = game.army_of(p).unwrap();
        let u = game.next_to_deploy(p).unwrap();
        let id = game.unit_id(a, u).to_string();
        game.apply(&Command::Deploy {
            player: p,
            unit: id,
            models: vec![],
            transport: None,
        })
        .unwrap();
    }
    assert_eq!(
        game.stage,
        Stage::Scouts,
        "the vanguard army has a Scouts unit"
    );
    let mut presses = 0;
    while game.stage == Stage::Scouts {
        let end = end_step(&game).expect("the bar has a way forward");
        assert_eq!(
            end.label,
            format!("End Scout moves (player {})", game.active_player)
        );
        game.apply(&end.command).unwrap();
        presses += 1;
        assert!(presses <= 2, "one press per player");
    }
    assert_eq!(presses, 2);
    assert_eq!(game.stage, Stage::Battle);
    assert_eq!(game.battle_round, 1);
    assert!(end_step(&game).unwrap().label.starts_with("End "));
}
