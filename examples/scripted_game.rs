//! Plays a whole game on a scene with a simple scripted policy for both players, through the
//! battle engine's commands (every command checked like a person's), and writes the accepted
//! command list and its save file. This produced `tests/games/full-game.*`:
//!
//! `cargo run --example scripted_game -- scenes/default.ron 7 tests/games/full-game`
//!
//! The policy: deploy where the scene stands; move each unit towards the closest enemy within
//! 24" (stopping short) or else the closest objective marker, shortening the move until the
//! engine accepts it; shoot with one legal loadout (each model's guns rather than its
//! pistols, a weapon with profiles on its first) at the closest target it can hit; charge the
//! closest enemy within 12"; fight with each model's strongest melee weapon; no reactions
//! (a Pass whenever attacks wait for the defender's answer); a Command
//! Re-roll before the first shot of a
//! turn when CP allow. It is a test driver, not an opponent (that is the AI's job).

use std::path::PathBuf;

use wartable::data::load_scene;
use wartable::game::save::{SaveFile, relative_path, write_save};
use wartable::game::{Command, Game, GameEvent, ModelPath, RerollRoll, WeaponTarget};
use wartable::geometry::Vec3;
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage, opponent};
use wartable::rules::stratagem::Stratagem;

struct Driver {
    game: Game,
    accepted: Vec<Command>,
}

impl Driver {
    fn try_apply(&mut self, c: Command) -> Option<Vec<GameEvent>> {
        match self.game.apply(&c) {
            Ok(mut ev) => {
                self.accepted.push(c);
                // The policy never reacts: when attacks wait for the defender's answer (Go
                // to Ground, Smokescreen), it passes.
                if let Some(p) = &self.game.pending_shot {
                    let pass = Command::Pass {
                        player: opponent(p.player),
                    };
                    ev.extend(self.game.apply(&pass).expect("a pass is always accepted"));
                    self.accepted.push(pass);
                }
                Some(ev)
            }
            Err(_) => None,
        }
    }

    fn works(&self, c: &Command) -> bool {
        self.game.check(c).is_ok()
    }

    fn roots(&self, player: u8) -> Vec<usize> {
        let army = self.game.army_of(player).unwrap();
        self.game
            .unit_roots(army)
            .into_iter()
            .filter(|&u| !self.game.live_models(army, u).is_empty())
            .collect()
    }

    fn centre(&self, army: usize, unit: usize) -> Vec3 {
        let live = self.game.live_models(army, unit);
        let sum: Vec3 = live
            .iter()
            .map(|r| self.game.scene.armies[army].units[r.unit].models[r.model].position)
            .fold(Vec3::ZERO, |a, b| a + b);
        sum / live.len().max(1) as f32
    }

    /// Enemy units by distance from the unit: (unit index, distance).
    fn enemies_by_distance(&self, player: u8, unit: usize) -> Vec<(usize, f32)> {
        let army = self.game.army_of(player).unwrap();
        let earmy = self.game.army_of(opponent(player)).unwrap();
        let mut v: Vec<(usize, f32)> = self
            .roots(opponent(player))
            .into_iter()
            .map(|e| (e, self.game.unit_distance((army, unit), (earmy, e))))
            .collect();
        v.sort_by(|a, b| a.1.total_cmp(&b.1));
        v
    }

    fn translation_paths(&self, army: usize, unit: usize, v: Vec3) -> Vec<ModelPath> {
        self.game
            .live_models(army, unit)
            .iter()
            .map(|r| {
                let p = self.game.scene.armies[army].units[r.unit].models[r.model].position;
                ModelPath {
                    model: r.model,
                    unit: Some(self.game.unit_id(army, r.unit).to_string()),
                    path: vec![(p.x + v.x, p.y + v.y, 0.0)],
                    facing: None,
                }
            })
            .collect()
    }

    fn movement(&mut self, player: u8) {
        let army = self.game.army_of(player).unwrap();
        for u in self.roots(player) {
            let id = self.game.unit_id(army, u).to_string();
            let stay = Command::RemainStationary {
                player,
                unit: id.clone(),
            };
            if self.game.engaged(army, u) {
                self.try_apply(stay);
                continue;
            }
            let from = self.centre(army, u);
            let earmy = self.game.army_of(opponent(player)).unwrap();
            let close = self.enemies_by_distance(player, u);
            let (to, stop_short) = match close.first() {
                Some(&(e, d)) if d < 24.0 => (
                    self.centre(earmy, e),
                    d.min(3.0 + (self.centre(earmy, e) - from).truncate().length() - d),
                ),
                _ => {
                    let objs = &self.game.scene.objectives;
                    let best = objs
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| self.game.objectives[*i] != Some(player))
                        .map(|(_, o)| Vec3::new(o.at.0, o.at.1, 0.0))
                        .min_by(|a, b| (*a - from).length().total_cmp(&(*b - from).length()));
                    match best {
                        Some(p) => (p, 0.0),
                        None => {
                            self.try_apply(stay);
                            continue;
                        }
                    }
                }
            };
            let dir = (to - from).truncate();
            let want = (dir.length() - stop_short).max(0.0);
            let m = self.game.scene.armies[army].units[u].datasheet.movement;
            let max_z = self
                .game
                .live_models(army, u)
                .iter()
                .map(|r| {
                    self.game.scene.armies[army].units[r.unit].models[r.model]
                        .position
                        .z
                })
                .fold(0.0f32, f32::max);
            let reach = (m - max_z - 0.05).min(want);
            let mut moved = false;
            if reach > 0.5 {
                for f in [1.0, 0.75, 0.5, 0.25] {
                    let v = (dir.normalize() * reach * f).extend(0.0);
                    let c = Command::Move {
                        player,
                        unit: id.clone(),
                        mode: MoveMode::Normal,
                        paths: self.translation_paths(army, u, v),
                    };
                    if self.try_apply(c).is_some() {
                        moved = true;
                        break;
                    }
                }
            }
            if !moved {
                self.try_apply(stay);
            }
        }
    }

    /// Assignments each of which works alone; then the largest prefix that works together.
    fn assign(
        &self,
        player: u8,
        unit: usize,
        melee: bool,
        make: impl Fn(Vec<WeaponTarget>) -> Command,
    ) -> Vec<WeaponTarget> {
        let army = self.game.army_of(player).unwrap();
        let earmy = self.game.army_of(opponent(player)).unwrap();
        let mut picked = Vec::new();
        // One legal loadout (the engine's weapon options); a weapon with profiles fires its
        // first profile.
        for o in self.game.weapon_options(army, unit, melee) {
            for (e, _) in self.enemies_by_distance(player, unit) {
                let wt = o.at(
                    self.game.unit_id(earmy, e),
                    o.profiles.first().map(String::as_str),
                );
                if self.works(&make(vec![wt.clone()])) {
                    picked.push(wt);
                    break;
                }
            }
        }
        while !picked.is_empty() && !self.works(&make(picked.clone())) {
            picked.pop();
        }
        picked
    }

    fn shooting(&mut self, player: u8) {
        let army = self.game.army_of(player).unwrap();
        let mut rerolled = false;
        for u in self.roots(player) {
            let id = self.game.unit_id(army, u).to_string();
            let make = |weapons| Command::Shoot {
                player,
                unit: id.clone(),
                weapons,
            };
            let weapons = self.assign(player, u, false, make);
            if weapons.is_empty() {
                continue;
            }
            if !rerolled && self.game.cp_of(player) >= 2 {
                rerolled = self
                    .try_apply(Command::UseStratagem {
                        player,
                        stratagem: Stratagem::CommandReroll,
                        unit: id.clone(),
                        target: None,
                        reroll: Some(RerollRoll::Hit),
                    })
                    .is_some();
            }
            self.try_apply(Command::Shoot {
                player,
                unit: id,
                weapons,
            });
        }
    }

    fn charges(&mut self, player: u8) {
        let army = self.game.army_of(player).unwrap();
        let earmy = self.game.army_of(opponent(player)).unwrap();
        for u in self.roots(player) {
            let Some(&(e, d)) = self.enemies_by_distance(player, u).first() else {
                continue;
            };
            if d > 12.0 || self.game.live_models(army, u).is_empty() {
                continue;
            }
            let id = self.game.unit_id(army, u).to_string();
            let target = self.game.unit_id(earmy, e).to_string();
            let Some(events) = self.try_apply(Command::DeclareCharge {
                player,
                unit: id.clone(),
                targets: vec![target],
            }) else {
                continue;
            };
            let roll = events.iter().find_map(|ev| match ev {
                GameEvent::ChargeDeclared { dice, .. } => Some(f32::from(dice[0] + dice[1])),
                _ => None,
            });
            // Move the closest model's way towards the enemy's closest model.
            let (mine, theirs) = (
                self.game.live_models(army, u),
                self.game.live_models(earmy, e),
            );
            let mut best = None;
            for a in &mine {
                for b in &theirs {
                    let (sa, sb) = (self.game.solid(*a), self.game.solid(*b));
                    let dist = wartable::geometry::measure::model_distance(&sa, &sb).distance;
                    if best.is_none_or(|(bd, _, _)| dist < bd) {
                        best = Some((dist, sa.centre, sb.centre));
                    }
                }
            }
            let mut done = false;
            if let (Some((dist, ca, cb)), Some(roll)) = (best, roll) {
                for gap in [0.5, 0.8, 0.2] {
                    let len = dist - gap;
                    if len <= 0.0 || len > roll {
                        continue;
                    }
                    let v = ((cb - ca).normalize() * len).extend(0.0);
                    let paths = self.translation_paths(army, u, v);
                    // Models that can touch an enemy model go into base contact (a rule).
                    let c = self.game.with_base_contact(&Command::ChargeMove {
                        player,
                        unit: id.clone(),
                        paths,
                        targets: vec![],
                    });
                    if self.try_apply(c).is_some() {
                        done = true;
                        break;
                    }
                }
            }
            if !done {
                self.try_apply(Command::ChargeMove {
                    player,
                    unit: id,
                    paths: vec![],
                    targets: vec![],
                });
            }
        }
    }

    fn fights(&mut self) {
        while let Some((player, ids)) = self.game.next_to_fight() {
            let id = ids[0].clone();
            let army = self.game.army_of(player).unwrap();
            let u = self.game.find_unit(army, &id).unwrap();
            self.try_apply(Command::PileIn {
                player,
                unit: id.clone(),
                paths: vec![],
            });
            let make = |weapons| Command::Fight {
                player,
                unit: id.clone(),
                weapons,
            };
            let weapons = self.assign(player, u, true, make);
            self.try_apply(Command::Fight {
                player,
                unit: id.clone(),
                weapons,
            });
            if self
                .try_apply(Command::Consolidate {
                    player,
                    unit: id.clone(),
                    paths: vec![],
                })
                .is_none()
            {
                panic!("consolidate rejected for {id}");
            }
        }
    }

    fn play(&mut self) {
        while self.game.stage != Stage::GameOver {
            let player = self.game.active_player;
            match self.game.stage {
                Stage::Setup | Stage::Deployment => {
                    let army = self.game.army_of(player).unwrap();
                    let next = self.game.next_to_deploy(player);
                    let id = self
                        .game
                        .unit_id(army, next.expect("a unit to deploy"))
                        .to_string();
                    self.try_apply(Command::Deploy {
                        player,
                        unit: id,
                        models: vec![],
                        transport: None,
                    })
                    .expect("deploy where the scene stands");
                    continue;
                }
                _ => {}
            }
            match self.game.phase {
                Phase::Movement => self.movement(player),
                Phase::Shooting => self.shooting(player),
                Phase::Charge => self.charges(player),
                Phase::Fight => self.fights(),
                Phase::Command => {}
            }
            let before = self.game.state_hash();
            self.try_apply(Command::EndPhase { player })
                .unwrap_or_else(|| {
                    panic!(
                        "EndPhase rejected at {}: {before}",
                        self.game.describe_now()
                    )
                });
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scene_file = PathBuf::from(args.get(1).map_or("scenes/default.ron", |s| s.as_str()));
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let out = PathBuf::from(args.get(3).map_or("tests/games/full-game", |s| s.as_str()));
    let scene = load_scene(&scene_file).unwrap_or_else(|e| panic!("{e}"));
    let (game, _) = Game::start(scene, seed);
    let mut d = Driver {
        game,
        accepted: Vec::new(),
    };
    d.play();
    let commands = out.with_extension("commands.ron");
    let text =
        ron::ser::to_string_pretty(&d.accepted, ron::ser::PrettyConfig::new().depth_limit(2))
            .unwrap();
    std::fs::write(&commands, text).unwrap();
    let save_file = out.with_extension("save.ron");
    let save = SaveFile::new(
        relative_path(&scene_file, save_file.parent().unwrap()),
        seed,
        d.accepted.clone(),
    );
    write_save(&save_file, &save).unwrap();
    println!(
        "{} commands; {}; VP {:?}; winner {:?}; state {}",
        d.accepted.len(),
        d.game.describe_now(),
        d.game.vp,
        d.game.winner,
        d.game.state_hash()
    );
}
