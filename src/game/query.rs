//! Questions about the game that change nothing and draw no dice: would the engine accept a
//! command ([`Game::check`]), which unit deploys next ([`Game::next_to_deploy`]) and the
//! weapons a unit can use now with their profiles ([`Game::weapons_of`]).

use super::command::{Command, WeaponTarget};
use super::preview::WeaponOption;
use super::rejection::Rejection;
use super::state::{Game, Location};
use crate::rules::WeaponProfile;
use crate::rules::rng::GameRng;
use crate::rules::stratagem::Stratagem;

/// The dice a [`Game::check`] copy rolls first: sixes, the best Advance roll (and the best
/// re-roll of it), so that the answer never depends on, nor reveals, the dice to come.
pub(super) const CHECK_DICE: [u8; 6] = [6; 6];

/// One weapon of a unit's loadout now ([`Game::weapons_of`]) with its datasheet profiles:
/// what a player chooses from when assigning weapons to targets.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitWeapon {
    /// The loadout entry: the weapon's name, its profile names and the models that use it
    /// (what a [`WeaponTarget`] names).
    pub option: WeaponOption,
    /// Its profiles (characteristics) in datasheet order, as on the datasheet of its first
    /// model: one for most weapons, one per profile for a weapon with several.
    pub profiles: Vec<WeaponProfile>,
    /// A melee weapon without EXTRA ATTACKS: each model uses one such weapon of its own, so
    /// the unit's choose-one weapons are alternatives for the models carrying several
    /// (Core Rules: Fight phase).
    pub choose_one: bool,
    /// The live models on the table that carry it (`unit#N`), whether or not they use it.
    pub carriers: Vec<String>,
}

impl UnitWeapon {
    /// Each way to fire or fight with it: the profile name a [`WeaponTarget`] takes (None for
    /// a weapon with one profile) and that profile's characteristics, in datasheet order.
    pub fn choices(&self) -> Vec<(Option<&str>, &WeaponProfile)> {
        self.option
            .profile_choices()
            .into_iter()
            .filter_map(|choice| {
                let stats = match choice {
                    None => self.profiles.first(),
                    Some(name) => self
                        .profiles
                        .iter()
                        .find(|p| p.profile.as_deref() == Some(name)),
                };
                stats.map(|p| (choice, p))
            })
            .collect()
    }

    /// The assignment of this weapon at the enemy unit `target` with `profile` (one of
    /// [`UnitWeapon::choices`]).
    pub fn at(&self, target: &str, profile: Option<&str>) -> WeaponTarget {
        self.option.at(target, profile)
    }
}

impl Game {
    /// Whether the engine would accept `command` now, and if not the [`Rejection`]
    /// [`Game::apply`] would give, without changing the game or drawing its dice: the command
    /// is carried out on a copy whose next dice are all 6s, and the copy is dropped.
    ///
    /// No rule refuses a command because of a roll made while carrying it out, save one: an
    /// Advance, whose models may move their Move characteristic plus the Advance roll (Core
    /// Rules: Advance moves). Check judges an Advance with the best roll (6), so the answer
    /// does not reveal the roll to come: [`Game::apply`] can still refuse an Advance that
    /// check accepts, when the real roll falls short, and when both refuse a path too long
    /// for any roll, the rule is the same but the reason names the distance a 6 allows.
    /// For every other command, check accepts exactly what apply accepts and refuses the
    /// rest with the same [`Rejection`].
    ///
    /// # Errors
    /// [`Rejection`]: the rule the command breaks and why.
    pub fn check(&self, command: &Command) -> Result<(), Rejection> {
        let mut copy = self.clone();
        copy.rng = GameRng::scripted(&CHECK_DICE);
        copy.execute(command, &mut Vec::new())
    }

    /// The Stratagems the defending player may answer the waiting attacks with
    /// ([`Game::pending_shot`]): Go to Ground and Smokescreen on each unit those attacks
    /// target, and the defender's Detachment Stratagems that change attacks at it (Armour of
    /// Contempt), in target order, each kept only when [`Game::check`] accepts it (CP, once per
    /// phase, keywords, Battle-shock). Empty when no attacks wait. Passing
    /// ([`Command::Pass`]) is always possible and is not listed.
    ///
    /// Core Rules: Stratagems (Go to Ground, Smokescreen: used just after an enemy unit has
    /// selected its targets).
    pub fn reaction_options(&self) -> Vec<Command> {
        let Some(pending) = &self.pending_shot else {
            return Vec::new();
        };
        let player = crate::rules::phase::opponent(pending.player);
        let mut out = Vec::new();
        for target in pending.targets() {
            for stratagem in [Stratagem::GoToGround, Stratagem::Smokescreen] {
                let command = Command::UseStratagem {
                    player,
                    stratagem,
                    unit: target.to_string(),
                    target: None,
                    reroll: None,
                };
                if self.check(&command).is_ok() {
                    out.push(command);
                }
            }
            // The defender's Detachment Stratagems that change attacks at the unit (Armour
            // of Contempt, 'Ard as Nails), when the engine would accept them now.
            let Some(army) = self.army_of(player) else {
                continue;
            };
            let rules = self.scene.armies[army].rules.clone();
            for s in rules.detachment.iter().flat_map(|d| &d.stratagems) {
                if !s
                    .effects
                    .iter()
                    .any(|e| matches!(e.when, crate::rules::effect::When::Attacked(_)))
                {
                    continue;
                }
                let command = Command::UseRuleStratagem {
                    player,
                    stratagem: s.name.clone(),
                    unit: target.to_string(),
                };
                if self.check(&command).is_ok() {
                    out.push(command);
                }
            }
        }
        out
    }

    /// The unit `player` deploys next: the first unit in army order, with any Leaders
    /// attached to it (its index is the Bodyguard's, [`Game::unit_roots`]), that waits to be
    /// deployed: not set up, embarked or declared in Reserves. None when every unit is placed
    /// or in Reserves, or `player` has no army. Whether it is the player's turn to deploy is
    /// [`Game::active_player`] during [`Stage::Deployment`](crate::rules::phase::Stage).
    ///
    /// Core Rules: Deploy Armies (players alternate setting up one unit at a time).
    pub fn next_to_deploy(&self, player: u8) -> Option<usize> {
        let army = self.army_of(player)?;
        self.unit_roots(army)
            .into_iter()
            .find(|&u| self.units[army][u].location == Location::NotDeployed)
    }

    /// The Deploy command that sets up `player`'s next unit ([`Game::next_to_deploy`]) where
    /// the scene stands it; None when `player` has no unit left to deploy (or no army).
    /// Whether it is `player`'s turn is the engine's to say.
    pub fn deploy_next_as_placed(&self, player: u8) -> Option<Command> {
        let army = self.army_of(player)?;
        let unit = self.next_to_deploy(player)?;
        Some(Command::Deploy {
            player,
            unit: self.unit_id(army, unit).to_string(),
            models: Vec::new(),
            transport: None,
        })
    }

    /// Deploys every unit still waiting where the scene stands, players alternating as the
    /// engine asks (each one [`Game::next_to_deploy`] of the [`Game::active_player`]), until the
    /// game leaves set-up and deployment. Returns the events of every Deploy in order.
    ///
    /// Errors: the first [`Rejection`] (a scene whose placements break a deployment rule); the
    /// units deployed before it stay deployed.
    ///
    /// Core Rules: Deploy Armies.
    pub fn deploy_as_placed(&mut self) -> Result<Vec<super::GameEvent>, Rejection> {
        use crate::rules::phase::Stage;
        let mut events = Vec::new();
        while matches!(self.stage, Stage::Setup | Stage::Deployment) {
            let Some(deploy) = self.deploy_next_as_placed(self.active_player) else {
                break;
            };
            events.extend(self.apply(&deploy)?);
        }
        Ok(events)
    }

    /// The weapons the combined unit (`army`, `unit`, with its attached Leaders) can use now,
    /// one per weapon, with their profiles: melee weapons for the Fight phase (`melee`),
    /// else ranged weapons. In melee every melee weapon of every model is offered: those
    /// without EXTRA ATTACKS are a choose-one group ([`UnitWeapon::choose_one`], each model
    /// uses one of its own), listed with the weapons fewer models carry first, then the EXTRA
    /// ATTACKS weapons every carrier uses as well. Shooting, each model's ranged weapons, its
    /// other guns rather than its Pistols unless it is within Engagement Range (a MONSTER or
    /// VEHICLE fires both). Only live models on the table count. Targets are left to the
    /// caller ([`Game::legal_targets`], [`Game::preview_attacks`]).
    ///
    /// Core Rules: Shooting phase (PISTOL), Fight phase (one melee weapon, EXTRA ATTACKS),
    /// Datasheets (a weapon with several profiles fires one of them each time).
    pub fn weapons_of(&self, army: usize, unit: usize, melee: bool) -> Vec<UnitWeapon> {
        let mut out = self.loadout(army, unit, melee, |_, weapons| weapons);
        if melee {
            // Rarer weapons first (a Boss Nob's power klaw before the mob's choppas), then
            // the EXTRA ATTACKS weapons; stable, so datasheet order breaks ties.
            out.sort_by_key(|w| (!w.choose_one, w.carriers.len()));
        }
        out
    }

    /// The weapons of the combined unit (`army`, `unit`) as [`Game::weapons_of`] finds them,
    /// with each model's choice among its melee weapons left to `choose`: given a model's
    /// datasheet and its melee weapons without EXTRA ATTACKS, it returns those the model
    /// uses (the rules allow one). Its EXTRA ATTACKS weapons are always kept. The computer
    /// chooses its strongest weapon this way; `choose` is not called for ranged weapons.
    ///
    /// Core Rules: Fight phase (one melee weapon, EXTRA ATTACKS).
    pub fn loadout<'a>(
        &'a self,
        army: usize,
        unit: usize,
        melee: bool,
        mut choose: impl FnMut(&'a crate::rules::Datasheet, Vec<&'a str>) -> Vec<&'a str>,
    ) -> Vec<UnitWeapon> {
        use crate::rules::WeaponAbility as A;
        let engaged = self.engaged(army, unit);
        let mut out: Vec<UnitWeapon> = Vec::new();
        let live = self.live_models(army, unit);
        for r in &live {
            let u = &self.scene.armies[army].units[r.unit];
            let sheet = &u.datasheet;
            let big = sheet.has_keyword("MONSTER") || sheet.has_keyword("VEHICLE");
            let profiles = |w: &str| sheet.profiles_of(w);
            let mut chosen: Vec<&str> = u.models[r.model]
                .weapons
                .iter()
                .map(String::as_str)
                .filter(|w| profiles(w).first().is_some_and(|p| p.is_melee() == melee))
                .collect();
            let has = |w: &str, a: &A| profiles(w).iter().any(|p| p.has(a));
            if melee {
                let (extra, one): (Vec<&str>, Vec<&str>) =
                    chosen.iter().partition(|w| has(w, &A::ExtraAttacks));
                let kept = choose(sheet, one);
                chosen.retain(|w| extra.contains(w) || kept.contains(w));
            } else if !big {
                let pistols = chosen.iter().any(|w| has(w, &A::Pistol));
                let others = chosen.iter().any(|w| !has(w, &A::Pistol));
                if pistols && others {
                    chosen.retain(|w| has(w, &A::Pistol) == engaged);
                }
            }
            let name = self.model_name(*r);
            for w in chosen {
                match out
                    .iter_mut()
                    .find(|o| o.option.weapon.eq_ignore_ascii_case(w))
                {
                    Some(o) => o.option.models.push(name.clone()),
                    None => {
                        let stats: Vec<WeaponProfile> = profiles(w).into_iter().cloned().collect();
                        out.push(UnitWeapon {
                            option: WeaponOption {
                                weapon: w.to_string(),
                                profiles: stats.iter().filter_map(|p| p.profile.clone()).collect(),
                                models: vec![name.clone()],
                            },
                            choose_one: melee && !has(w, &A::ExtraAttacks),
                            carriers: Vec::new(),
                            profiles: stats,
                        });
                    }
                }
            }
        }
        // Name the models only where some carrier of the weapon does not use it.
        for o in &mut out {
            o.carriers = live
                .iter()
                .filter(|r| {
                    self.scene.armies[army].units[r.unit].models[r.model]
                        .weapons
                        .iter()
                        .any(|w| w.eq_ignore_ascii_case(&o.option.weapon))
                })
                .map(|&r| self.model_name(r))
                .collect();
            if o.carriers.len() == o.option.models.len() {
                o.option.models.clear();
            }
        }
        out
    }
}
