//! The dice log in words: the game's events grouped into one entry per action (a move, a
//! unit's attacks at one target, a charge, a Stratagem, a Battle-shock test), each with its
//! dice, distances to 0.1", and unit names as the unit card shows them; the full event list
//! stays in the entry for the expanded view. Built the same way from a live game's events and
//! from a loaded save's replay, so the log comes back whole with the game.

use crate::game::event::SetUpHow;
use crate::game::{Game, GameEvent};
use crate::rules::attack::events::AttackEvent;
use crate::rules::attack::{RollResult, SaveKind};
use crate::rules::movement::MoveMode;
use crate::rules::phase::{Phase, opponent};

/// Unicode die faces ⚀ to ⚅ for 1 to 6 (for the text form; the log panel draws its dice).
pub const DIE_FACES: [char; 6] = [
    '\u{2680}', '\u{2681}', '\u{2682}', '\u{2683}', '\u{2684}', '\u{2685}',
];

/// One group of dice in an entry: what they were rolled for and each die with whether it
/// succeeded (a hit, a wound, a save made, a test passed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceGroup {
    /// What the dice were for: "hit", "wound", "save", "damage", "2D6".
    pub label: String,
    /// Each die (1 to 6, or more for a D3-free total) and whether it succeeded.
    pub dice: Vec<(u8, bool)>,
}

/// One action in the log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// Battle round (0 before the first).
    pub round: u8,
    /// The phase it happened in (None before the battle and after it ends).
    pub phase: Option<Phase>,
    /// The player whose action it is (None for the game's own steps: a new phase, an
    /// objective changing hands, the end).
    pub player: Option<u8>,
    /// What happened, in words.
    pub headline: String,
    /// The dice, in the order rolled.
    pub dice: Vec<DiceGroup>,
    /// The result ("3 wounds lost, 1 model destroyed"), if any.
    pub outcome: Vec<String>,
    /// Every event of the action as the engine reports it (the expanded view).
    pub events: Vec<String>,
    /// An action, a heading or a note.
    pub kind: EntryKind,
}

/// What a log entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A player's action or the game's own step, with its events.
    Action,
    /// A new phase, Fight step or the end of the game.
    Heading,
    /// Something the desktop says (a refused command, an undo), not a game event: not saved.
    Note,
    /// A refused command (not saved: nothing happened).
    Refused,
}

impl LogEntry {
    /// The entry as one line of text, dice as die faces: `headline: hit ⚄⚅⚁ · wound ⚃ — 1
    /// model destroyed`.
    pub fn line(&self) -> String {
        let mut s = self.headline.clone();
        for (i, g) in self.dice.iter().enumerate() {
            s.push_str(if i == 0 { ": " } else { " · " });
            s.push_str(&g.label);
            s.push(' ');
            s.extend(g.dice.iter().map(|&(d, _)| face(d)));
        }
        if !self.outcome.is_empty() {
            s.push_str(" — ");
            s.push_str(&self.outcome.join(", "));
        }
        s
    }
}

/// The die face character for `d` (1 to 6); other values as digits in brackets.
pub fn face(d: u8) -> String {
    match d {
        1..=6 => DIE_FACES[usize::from(d - 1)].to_string(),
        _ => format!("[{d}]"),
    }
}

/// The log's filter: one player's actions, one phase's, or all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LogFilter {
    /// Only this player's actions (headings always show).
    pub player: Option<u8>,
    /// Only this phase (`Some(None)`: before and after the battle).
    pub phase: Option<Option<Phase>>,
}

impl LogFilter {
    /// Whether `entry` passes the filter. A heading passes the phase filter only.
    pub fn shows(&self, entry: &LogEntry) -> bool {
        let phase_ok = self.phase.is_none_or(|p| p == entry.phase);
        let player_ok =
            entry.kind != EntryKind::Action || self.player.is_none_or(|p| entry.player == Some(p));
        phase_ok && player_ok
    }
}

/// The action log: entries built from the game's events in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionLog {
    /// The entries, oldest first.
    pub entries: Vec<LogEntry>,
    /// VP totals of players 1 and 2 at the end of each battle round so far (index 0: round
    /// 1; the current round's as it stands).
    pub vp_by_round: Vec<[u32; 2]>,
    round: u8,
    phase: Option<Phase>,
}

impl ActionLog {
    /// The log of `events` (a whole game's, e.g. a replay), with names from `game`.
    pub fn of(game: &Game, events: &[GameEvent]) -> ActionLog {
        let mut log = ActionLog::default();
        for e in events {
            log.push(game, e);
        }
        log
    }

    /// Keeps the VP totals per round: a new round starts from the last one's totals; a
    /// scored VP sets its player's total in the current round (VP scored before round 1, or
    /// at the end of the battle, count in the nearest round).
    fn count_vp(&mut self, event: &GameEvent) {
        let round = usize::from(self.round.max(1));
        while self.vp_by_round.len() < round {
            let last = self.vp_by_round.last().copied().unwrap_or([0, 0]);
            self.vp_by_round.push(last);
        }
        match event {
            GameEvent::VictoryPoints { player, total, .. } => {
                if let Some(row) = self.vp_by_round.last_mut() {
                    row[usize::from(player.clamp(&1, &2) - 1)] = *total;
                }
            }
            GameEvent::GameOver { vp, .. } => {
                if let Some(row) = self.vp_by_round.last_mut() {
                    *row = *vp;
                }
            }
            _ => {}
        }
    }

    /// Adds a note or refusal (`kind`) in the current round and phase.
    pub fn note_as(&mut self, kind: EntryKind, text: impl Into<String>) {
        self.entries.push(LogEntry {
            round: self.round,
            phase: self.phase,
            player: None,
            headline: text.into(),
            dice: Vec::new(),
            outcome: Vec::new(),
            events: Vec::new(),
            kind,
        });
    }

    /// Adds a note (an undo, a failed autosave) in the current round and phase.
    pub fn note(&mut self, text: impl Into<String>) {
        self.note_as(EntryKind::Note, text);
    }

    /// The entries that are game events (no notes or refusals): the part a replay rebuilds.
    pub fn game_entries(&self) -> impl Iterator<Item = &LogEntry> {
        self.entries
            .iter()
            .filter(|e| matches!(e.kind, EntryKind::Action | EntryKind::Heading))
    }

    /// Adds `event`: a new entry for an action, or a detail of the current one (an attack's
    /// dice, a model destroyed).
    pub fn push(&mut self, game: &Game, event: &GameEvent) {
        let text = event.to_string();
        if let GameEvent::PhaseStarted {
            battle_round,
            phase,
            ..
        } = event
        {
            self.round = *battle_round;
            self.phase = Some(*phase);
        }
        if matches!(event, GameEvent::GameOver { .. }) {
            self.phase = None;
        }
        self.count_vp(event);
        let last_action = self
            .entries
            .iter()
            .rposition(|e| e.kind == EntryKind::Action);
        if is_detail(event)
            && let Some(last) = last_action
        {
            let entry = &mut self.entries[last];
            entry.events.push(text);
            add_detail(game, entry, event);
            return;
        }
        let (player, headline, heading) = headline(game, event, self.phase);
        let kind = if heading {
            EntryKind::Heading
        } else {
            EntryKind::Action
        };
        let mut entry = LogEntry {
            round: self.round,
            phase: self.phase,
            player,
            headline,
            dice: Vec::new(),
            outcome: Vec::new(),
            events: vec![text],
            kind,
        };
        first_dice(game, &mut entry, event);
        self.entries.push(entry);
    }
}

/// Events that belong to the action before them.
fn is_detail(e: &GameEvent) -> bool {
    matches!(
        e,
        GameEvent::Attack(_)
            | GameEvent::ModelDestroyed { .. }
            | GameEvent::UnitDestroyed { .. }
            | GameEvent::LeaderDetached { .. }
            | GameEvent::HazardousLoss { .. }
            | GameEvent::DestroyedTransportRolls { .. }
            | GameEvent::TransportPassengersLost { .. }
            | GameEvent::DeadlyDemise { .. }
            | GameEvent::MortalWoundsRolled { .. }
            | GameEvent::ShootBeforeRemoval { .. }
    )
}

/// The unit's name as its card shows it (its id if the player or unit is unknown).
pub fn unit_name(game: &Game, player: u8, id: &str) -> String {
    game.army_of(player)
        .and_then(|a| game.find_unit(a, id).map(|u| (a, u)))
        .map(|(a, u)| game.scene.armies[a].units[u].name.clone())
        .unwrap_or_else(|| id.to_string())
}

/// A model (`unit#N`, as the engine names it) as the card shows it: "Boyz 2: Boss Nob",
/// "Blood Claws 3: Blood Claw 7", or the unit's name for a model alone in its unit.
pub fn model_name(game: &Game, player: u8, model: &str) -> String {
    let Some((id, n)) = model.split_once('#') else {
        return unit_name(game, player, model);
    };
    let found = game.army_of(player).and_then(|a| {
        let u = game.find_unit(a, id)?;
        let n: usize = n.parse().ok()?;
        Some(&game.scene.armies[a].units[u]).map(|unit| (unit, n))
    });
    match found {
        Some((unit, n)) if unit.models.len() == 1 => unit.model_label(n),
        Some((unit, n)) => format!("{}: {}", unit.name, unit.model_label(n)),
        None => format!("{} #{n}", unit_name(game, player, id)),
    }
}

/// Where on the table a point is, in words: "north-west", "centre", "south"... (south is
/// player 1's edge, y = 0; west is x = 0; thirds of the table each way).
pub fn table_region(at: crate::geometry::Vec2) -> &'static str {
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    let col = ((at.x / BOARD_WIDTH_INCHES * 3.0).floor() as i32).clamp(0, 2);
    let row = ((at.y / BOARD_DEPTH_INCHES * 3.0).floor() as i32).clamp(0, 2);
    match (row, col) {
        (0, 0) => "south-west",
        (0, 1) => "south",
        (0, 2) => "south-east",
        (1, 0) => "west",
        (1, 1) => "centre",
        (1, 2) => "east",
        (2, 0) => "north-west",
        (2, 1) => "north",
        _ => "north-east",
    }
}

/// A terrain piece as a player reads it: its category and where it stands, "ruin
/// (north-west)", numbered when several pieces of the category stand in that part of the
/// table ("ruin (north-west) 2", in the layout's order). The id if the piece is unknown.
pub fn piece_name(game: &Game, id: &str) -> String {
    let pieces = &game.scene.layout.pieces;
    let centre =
        |p: &crate::geometry::TerrainPiece| crate::geometry::polygon::centroid(&p.footprint);
    let Some(piece) = pieces.iter().find(|p| p.id == id) else {
        return id.to_string();
    };
    let region = table_region(centre(piece));
    let alike: Vec<&str> = pieces
        .iter()
        .filter(|p| p.category == piece.category && table_region(centre(p)) == region)
        .map(|p| p.id.as_str())
        .collect();
    let base = format!("{} ({region})", piece.category.label());
    if alike.len() > 1 {
        let k = alike.iter().position(|x| *x == id).unwrap_or(0) + 1;
        format!("{base} {k}")
    } else {
        base
    }
}

/// An engine sentence (a refusal, a reason) in the names a player reads: each model the engine
/// names `unit-id#N` as [`model_name`], each quoted unit id (`'blood-claws-4'`) as the unit's
/// name and each quoted terrain piece id (`'ruin-5'`) as [`piece_name`]. `player` is the side
/// whose units are looked up first (ids may repeat across armies in a mirror match).
pub fn readable(game: &Game, player: u8, text: &str) -> String {
    let other = if player == 1 { 2 } else { 1 };
    let mut units: Vec<(String, u8)> = Vec::new();
    for p in [player, other] {
        if let Some(a) = game.army_of(p) {
            for u in &game.scene.armies[a].units {
                units.push((u.id.clone(), p));
            }
        }
    }
    // Longest ids first, so "boyz-2" is not read as "boyz" followed by "-2".
    units.sort_by_key(|(id, _)| std::cmp::Reverse(id.len()));
    let mut out = text.to_string();
    for (id, p) in &units {
        // Models: `id#N`.
        let marker = format!("{id}#");
        let mut from = 0;
        while let Some(i) = out[from..].find(&marker).map(|i| i + from) {
            let start_ok = i == 0 || !is_id_char(out[..i].chars().next_back().unwrap_or(' '));
            let digits: String = out[i + marker.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !start_ok || digits.is_empty() {
                from = i + marker.len();
                continue;
            }
            let name = model_name(game, *p, &format!("{id}#{digits}"));
            out.replace_range(i..i + marker.len() + digits.len(), &name);
            from = i + name.len();
        }
        out = out.replace(&format!("'{id}'"), &unit_name(game, *p, id));
    }
    // Terrain: the sight report's "the woods ruin-5" and "ruin-5 (LowFootprint)" first, then
    // any quoted or bare piece id.
    let mut pieces: Vec<&crate::geometry::TerrainPiece> = game.scene.layout.pieces.iter().collect();
    pieces.sort_by_key(|p| std::cmp::Reverse(p.id.len()));
    for piece in pieces {
        let name = format!("the {}", piece_name(game, &piece.id));
        for pattern in [
            format!("the woods {}", piece.id),
            format!("{} ({:?})", piece.id, piece.category),
            format!("'{}'", piece.id),
        ] {
            out = out.replace(&pattern, &name);
        }
        out = replace_word(&out, &piece.id, &name);
    }
    out
}

/// `text` with every whole-word `word` (not part of a longer id) replaced by `by`.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let before_ok = rest[..i].chars().next_back().is_none_or(|c| !is_id_char(c));
        let after = &rest[i + word.len()..];
        let after_ok = after.chars().next().is_none_or(|c| !is_id_char(c));
        out.push_str(&rest[..i]);
        out.push_str(if before_ok && after_ok { by } else { word });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// True when `text` names `word` as a whole word (not part of a longer id).
pub fn names_word(text: &str, word: &str) -> bool {
    replace_word(text, word, "\u{0}") != text
}

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

fn names(game: &Game, player: u8, ids: &[String]) -> String {
    ids.iter()
        .map(|t| unit_name(game, player, t))
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Inches to 0.1".
fn inches(x: f32) -> String {
    format!("{x:.1}\"")
}

/// The entry's player, headline and whether it is a heading.
fn headline(game: &Game, e: &GameEvent, phase: Option<Phase>) -> (Option<u8>, String, bool) {
    use GameEvent as G;
    let n = |p: &u8, u: &str| unit_name(game, *p, u);
    let (player, text) = match e {
        G::RollOff { first_turn, .. } => (
            None,
            format!("Roll-off for the first turn: player {first_turn} goes first"),
        ),
        G::DeploymentRollOff { deploys_first, .. } => (
            None,
            format!("Roll-off for deployment: player {deploys_first} sets up first"),
        ),
        G::ScoutMovesStarted { player } => {
            (Some(*player), format!("Player {player} makes Scout moves"))
        }
        G::ReservesDeclared { player, unit, kind } => (
            Some(*player),
            format!("{} is set up in {}", n(player, unit), kind.name()),
        ),
        G::Deployed {
            player,
            unit,
            embarked_in,
        } => (
            Some(*player),
            match embarked_in {
                Some(t) => format!("{} deployed embarked in {}", n(player, unit), n(player, t)),
                None => format!("{} deployed", n(player, unit)),
            },
        ),
        G::PhaseStarted {
            battle_round,
            player,
            phase,
        } => {
            return (
                Some(*player),
                format!("Round {battle_round}, player {player}: {}", phase.name()),
                true,
            );
        }
        G::CommandPointsGained {
            player,
            gained,
            total,
        } => (
            Some(*player),
            format!(
                "Player {player} gains {} (now {total})",
                plural(*gained, "CP", "CP")
            ),
        ),
        G::BattleShockTest {
            player,
            unit,
            leadership,
            passed,
            ..
        } => (
            Some(*player),
            format!(
                "{} takes a Battle-shock test, needing {leadership}+: {}",
                n(player, unit),
                if *passed { "passed" } else { "Battle-shocked" }
            ),
        ),
        G::BattleShockEnded { player, unit } => (
            Some(*player),
            format!("{} is no longer Battle-shocked", n(player, unit)),
        ),
        G::RemainedStationary { player, unit } => (
            Some(*player),
            format!("{} remains stationary", n(player, unit)),
        ),
        G::AdvanceRolled { player, unit, roll } => (
            Some(*player),
            format!(
                "{} declares an Advance: +{roll}\" to its Move",
                n(player, unit)
            ),
        ),
        G::Moved {
            player,
            unit,
            mode,
            advance_roll,
            longest_inches,
        } => (
            Some(*player),
            match mode {
                MoveMode::Normal => format!(
                    "{} makes a Normal move of {}",
                    n(player, unit),
                    inches(*longest_inches)
                ),
                MoveMode::Advance => format!(
                    "{} Advances {}{}",
                    n(player, unit),
                    inches(*longest_inches),
                    advance_roll
                        .map(|r| format!(" (Advance roll {r})"))
                        .unwrap_or_default()
                ),
                MoveMode::FallBack => {
                    format!("{} Falls Back {}", n(player, unit), inches(*longest_inches))
                }
            },
        ),
        G::DesperateEscape {
            player,
            model,
            destroyed,
            ..
        } => (
            Some(*player),
            format!(
                "{} takes a Desperate Escape test: {}",
                model_name(game, *player, model),
                if *destroyed { "destroyed" } else { "escapes" }
            ),
        ),
        G::SetUp { player, unit, how } => (
            Some(*player),
            match how {
                SetUpHow::Disembark | SetUpHow::DisembarkAfterMove => {
                    format!("{} disembarks", n(player, unit))
                }
                SetUpHow::DestroyedTransport => {
                    format!(
                        "{} disembarks from its destroyed TRANSPORT",
                        n(player, unit)
                    )
                }
                SetUpHow::EmergencyDisembarkation => format!(
                    "{} makes an Emergency Disembarkation from its destroyed TRANSPORT",
                    n(player, unit)
                ),
                SetUpHow::CombatDisembark => format!(
                    "{} makes a Combat Disembark (wholly within 6\"; hazard rolls, Battle-shocked)",
                    n(player, unit)
                ),
                SetUpHow::DeepStrike | SetUpHow::StrategicReserves | SetUpHow::RapidIngress => {
                    format!("{} arrives from {}", n(player, unit), how.name())
                }
            },
        ),
        G::Embarked {
            player,
            unit,
            transport,
        } => (
            Some(*player),
            format!("{} embarks in {}", n(player, unit), n(player, transport)),
        ),
        G::Attacked {
            player,
            unit,
            weapon,
            target,
            bearers,
            ..
        } => (
            Some(*player),
            format!(
                "{} {} {} with {weapon} ({})",
                n(player, unit),
                if phase == Some(Phase::Fight) {
                    "fights"
                } else {
                    "shoots"
                },
                n(&opponent(*player), target),
                plural(*bearers as u32, "model", "models")
            ),
        ),
        G::ChargeDeclared {
            player,
            unit,
            targets,
            dice,
        } => (
            Some(*player),
            if targets.is_empty() {
                // 11th: the targets are chosen after the roll.
                format!(
                    "{} declares a charge: {}\" rolled (targets chosen next, within the roll)",
                    n(player, unit),
                    u32::from(dice[0]) + u32::from(dice[1])
                )
            } else {
                format!(
                    "{} declares a charge at {}: {}\" rolled",
                    n(player, unit),
                    names(game, opponent(*player), targets),
                    u32::from(dice[0]) + u32::from(dice[1])
                )
            },
        ),
        G::ChargeMoved {
            player,
            unit,
            targets,
        } => (
            Some(*player),
            if targets.is_empty() {
                format!("{} makes its charge move", n(player, unit))
            } else {
                format!(
                    "{} makes its charge move into {}",
                    n(player, unit),
                    names(game, opponent(*player), targets)
                )
            },
        ),
        G::ChargeFailed { player, unit } => {
            (Some(*player), format!("{}'s charge fails", n(player, unit)))
        }
        G::FightStepStarted { step } => {
            return (None, format!("Fight phase: {}", step.name()), true);
        }
        G::PiledIn {
            player,
            unit,
            models_moved,
        }
        | G::Consolidated {
            player,
            unit,
            models_moved,
        } => (
            Some(*player),
            format!(
                "{} {} ({} moved)",
                n(player, unit),
                if matches!(e, G::PiledIn { .. }) {
                    "is selected to fight and piles in"
                } else {
                    "consolidates"
                },
                plural(*models_moved as u32, "model", "models")
            ),
        ),
        G::TargetsSelected {
            player,
            unit,
            targets,
            reacting,
        } => (
            Some(*player),
            format!(
                "{} targets {}; player {reacting} may react",
                n(player, unit),
                names(game, opponent(*player), targets)
            ),
        ),
        G::StratagemUsed {
            player,
            stratagem,
            unit,
            cost,
            cp_left,
        } => (
            Some(*player),
            format!(
                "Player {player} uses {} on {} ({cost} CP, {cp_left} left)",
                stratagem.name_in(game.scene.edition()),
                n(player, unit)
            ),
        ),
        G::StratagemSet {
            player,
            stratagem,
            unit,
            roll,
        } => (
            Some(*player),
            match roll {
                Some(r) => format!(
                    "Player {player} sets {} for {}'s {} (paid if it is used)",
                    stratagem.name_in(game.scene.edition()),
                    n(player, unit),
                    r.name()
                ),
                None => format!(
                    "Player {player} sets {} for {} (paid if it is used)",
                    stratagem.name_in(game.scene.edition()),
                    n(player, unit)
                ),
            },
        ),
        G::TokensGained {
            player,
            gained,
            total,
        } => (
            Some(*player),
            format!("Player {player} gains {gained} army rule token(s) ({total} in all)"),
        ),
        G::YieldPoints {
            player,
            gained,
            total,
        } => (
            Some(*player),
            format!("Player {player} gains {gained} Yield points ({total} in all)"),
        ),
        G::RuleRerolled {
            player,
            unit,
            roll,
            replaced,
        } => (
            Some(*player),
            format!(
                "{}'s rules re-roll its {} (was {})",
                model_name(game, *player, unit),
                roll.name(),
                replaced.iter().map(|&d| face(d)).collect::<String>()
            ),
        ),
        G::CommandRerolled {
            player,
            unit,
            roll,
            replaced,
        } => (
            Some(*player),
            format!(
                "Player {player} uses a Command Re-roll on {}'s {} (was {})",
                model_name(game, *player, unit),
                roll.name(),
                replaced.iter().map(|&d| face(d)).collect::<String>()
            ),
        ),
        G::RuleChosen {
            player, rule, pick, ..
        } => (
            Some(*player),
            match pick {
                Some(p) => format!(
                    "Player {player} chooses {} for {rule}",
                    game.scene
                        .armies
                        .iter()
                        .flat_map(|a| &a.units)
                        .find(|u| u.id == *p)
                        .map_or(p.clone(), |u| u.name.clone())
                ),
                None => format!("Player {player} calls {rule}"),
            },
        ),
        G::RuleStratagemUsed {
            player,
            stratagem,
            unit,
            cp,
            cp_left,
            tokens,
            tokens_left,
        } => (
            Some(*player),
            if *tokens > 0 {
                format!(
                    "Player {player} uses {stratagem} on {} ({tokens} token, {tokens_left} left)",
                    n(player, unit)
                )
            } else {
                format!(
                    "Player {player} uses {stratagem} on {} ({cp} CP, {cp_left} left)",
                    n(player, unit)
                )
            },
        ),
        G::RefereeOverride { player, what, note } => (
            Some(*player),
            format!("Override by player {player}: {what} ({note})"),
        ),
        G::AllocationOrderSet {
            player,
            unit,
            models,
            chosen,
        } => (
            Some(*player),
            format!(
                "Player {player} {} {}: {}",
                if *chosen {
                    "sets the order of losses for"
                } else {
                    "restores the default order of losses for"
                },
                model_name(game, *player, unit),
                models
                    .iter()
                    .map(|m| model_name(game, *player, m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        G::CoherencyRemoval { player, models } => (
            Some(*player),
            format!(
                "Player {player} removes {} to restore Unit Coherency",
                models
                    .iter()
                    .map(|m| model_name(game, *player, m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        G::ObjectiveControl {
            objective,
            controller,
            levels,
        } => (
            *controller,
            match controller {
                Some(p) => format!(
                    "Objective {objective} is controlled by player {p} (OC {} to {})",
                    levels[0], levels[1]
                ),
                None => format!(
                    "Objective {objective} is controlled by nobody (OC {} to {})",
                    levels[0], levels[1]
                ),
            },
        ),
        G::VictoryPoints {
            player,
            scored,
            total,
            reason,
        } => (
            Some(*player),
            format!(
                "Player {player} scores {} for {reason} (total {total})",
                plural(*scored, "VP", "VP")
            ),
        ),
        G::ObjectiveRemoved { objective, reason } => {
            (None, format!("Objective {objective} is removed ({reason})"))
        }
        G::ObjectiveMoved {
            objective,
            to,
            reason,
        } => (
            None,
            format!(
                "Objective {objective} moves to ({}, {}) ({reason})",
                inches(to.0),
                inches(to.1)
            ),
        ),
        G::ObjectivePlaced {
            objective,
            at,
            reason,
        } => (
            None,
            format!(
                "Objective {objective} is placed at ({}, {}) ({reason})",
                inches(at.0),
                inches(at.1)
            ),
        ),
        G::Guarding {
            player,
            unit,
            objective,
        } => (
            Some(*player),
            format!("{} guards objective {objective}", n(player, unit)),
        ),
        G::TargetsChosen {
            player,
            card,
            alphas,
            gamma,
            objective,
        } => {
            let mut picks = Vec::new();
            if !alphas.is_empty() {
                picks.push(names(game, opponent(*player), alphas));
            }
            if let Some(g) = gamma {
                picks.push(format!("{} (Gamma)", unit_name(game, opponent(*player), g)));
            }
            if let Some(o) = objective {
                picks.push(format!("objective {o}"));
            }
            (
                Some(*player),
                format!("Player {player} chooses for {card}: {}", picks.join(", ")),
            )
        }
        G::SecondaryDrawn { player, card } => {
            (Some(*player), format!("Player {player} draws {card}"))
        }
        G::SecondaryShuffledBack { player, card } => (
            Some(*player),
            format!("Player {player} shuffles {card} back and draws again"),
        ),
        G::SecondaryMarkedForDiscard { player, card } => (
            Some(*player),
            format!("Player {player} will discard {card} at the end of the turn"),
        ),
        G::SecondaryDiscarded {
            player,
            card,
            achieved,
        } => (
            Some(*player),
            format!(
                "Player {player} {} {card}",
                if *achieved { "achieves" } else { "discards" }
            ),
        ),
        G::ActionStarted {
            player,
            unit,
            action,
            objective,
        } => (
            Some(*player),
            format!(
                "{} starts {action}{}",
                n(player, unit),
                objective
                    .as_ref()
                    .map(|o| format!(" on objective {o}"))
                    .unwrap_or_default()
            ),
        ),
        G::ActionCompleted {
            player,
            unit,
            action,
            ..
        } => (
            Some(*player),
            format!("{} completes {action}", n(player, unit)),
        ),
        G::ActionFailed {
            player,
            unit,
            action,
            reason,
        } => (
            Some(*player),
            format!("{}'s {action} fails: {reason}", n(player, unit)),
        ),
        G::DestroyedInReserves { player, unit } => (
            Some(*player),
            format!("{} never arrived and counts as destroyed", n(player, unit)),
        ),
        G::ArmyDestroyed { player } => (
            Some(*player),
            format!(
                "Player {player}'s army is destroyed: the battle goes on and player {player}'s \
                 turns pass"
            ),
        ),
        G::WoundsRegained {
            player,
            model,
            ability,
            regained,
            wounds,
        } => (
            Some(*player),
            format!(
                "{} regains {} ({ability}), {wounds} left",
                model_name(game, *player, model),
                plural(u32::from(*regained), "wound", "wounds")
            ),
        ),
        G::WalkerTerrainRoll {
            player,
            unit,
            roll,
            battle_shocked,
        } => (
            Some(*player),
            format!(
                "{} moved through high terrain and rolls {roll}: {}",
                n(player, unit),
                if *battle_shocked {
                    "Battle-shocked"
                } else {
                    "no effect"
                }
            ),
        ),
        G::ModelReturned {
            player,
            model,
            ability,
            at,
        } => (
            Some(*player),
            format!(
                "{} returns with 1 wound ({ability}) at ({:.1}, {:.1})",
                model_name(game, *player, model),
                at.0,
                at.1
            ),
        ),
        G::GameOver { winner, vp, reason } => {
            return (
                *winner,
                match winner {
                    Some(w) => format!(
                        "Game over: player {w} wins, {} VP to {} ({reason})",
                        vp[0], vp[1]
                    ),
                    None => format!("Game over: a draw, {} VP each ({reason})", vp[0]),
                },
                true,
            );
        }
        // Details with no action before them (never in a real game): their own entry.
        G::Attack(a) => (None, a.to_string().trim().to_string()),
        G::ModelDestroyed { player, model } => (
            Some(*player),
            format!("{} is destroyed", model_name(game, *player, model)),
        ),
        G::UnitDestroyed { player, unit } => {
            (Some(*player), format!("{} is destroyed", n(player, unit)))
        }
        G::LeaderDetached { player, unit } => (
            Some(*player),
            format!("{} is a unit on its own again", n(player, unit)),
        ),
        G::HazardousLoss { player, model, .. } => (
            Some(*player),
            format!(
                "{} fails a Hazardous test",
                model_name(game, *player, model)
            ),
        ),
        G::DestroyedTransportRolls { player, unit, .. } => (
            Some(*player),
            format!("{} rolls for its destroyed Transport", n(player, unit)),
        ),
        G::TransportPassengersLost { player, unit, .. } => (
            Some(*player),
            format!("{} is lost with its Transport", n(player, unit)),
        ),
        G::DeadlyDemise { player, model, .. } => (
            Some(*player),
            format!("Deadly Demise for {}", model_name(game, *player, model)),
        ),
        G::MortalWoundsRolled { player, target, .. } => (
            Some(*player),
            format!("Mortal wounds on {}", n(&opponent(*player), target)),
        ),
        G::ShootBeforeRemoval { player, model, .. } => (
            Some(*player),
            format!(
                "{} may shoot before it is removed",
                model_name(game, *player, model)
            ),
        ),
    };
    (player, text, false)
}

/// The dice and outcome an action's own event carries (a Battle-shock test's 2D6).
fn first_dice(game: &Game, entry: &mut LogEntry, e: &GameEvent) {
    use GameEvent as G;
    match e {
        G::RollOff { dice, first_turn } => entry.dice.push(DiceGroup {
            label: "P1 P2".into(),
            dice: vec![(dice[0], *first_turn == 1), (dice[1], *first_turn == 2)],
        }),
        G::DeploymentRollOff {
            dice,
            deploys_first,
        } => entry.dice.push(DiceGroup {
            label: "P1 P2".into(),
            dice: vec![
                (dice[0], *deploys_first == 2),
                (dice[1], *deploys_first == 1),
            ],
        }),
        G::BattleShockTest {
            dice,
            third,
            passed,
            ..
        } => entry.dice.push(DiceGroup {
            label: if third.is_some() { "3D6" } else { "2D6" }.into(),
            dice: dice.iter().chain(third).map(|&d| (d, *passed)).collect(),
        }),
        G::AdvanceRolled { roll, .. } => entry.dice.push(DiceGroup {
            label: "Advance".into(),
            dice: vec![(*roll, true)],
        }),
        G::Moved {
            mode: MoveMode::Advance,
            advance_roll: Some(r),
            ..
        } => entry.dice.push(DiceGroup {
            label: "Advance".into(),
            dice: vec![(*r, true)],
        }),
        G::DesperateEscape {
            roll, destroyed, ..
        } => entry.dice.push(DiceGroup {
            label: "D6".into(),
            dice: vec![(*roll, !destroyed)],
        }),
        G::ChargeDeclared { dice, .. } => entry.dice.push(DiceGroup {
            label: "2D6".into(),
            dice: dice.iter().map(|&d| (d, true)).collect(),
        }),
        G::Attacked {
            wounds_lost,
            models_destroyed,
            not_attacking,
            ..
        } => {
            entry
                .outcome
                .push(plural(*wounds_lost, "wound lost", "wounds lost"));
            if *models_destroyed > 0 {
                entry.outcome.push(plural(
                    *models_destroyed,
                    "model destroyed",
                    "models destroyed",
                ));
            }
            if !not_attacking.is_empty() {
                entry.outcome.push(format!(
                    "{} could not attack",
                    plural(not_attacking.len() as u32, "model", "models")
                ));
            }
        }
        _ => add_detail(game, entry, e),
    }
}

/// Adds the dice or result of a detail event to `entry`.
fn add_detail(game: &Game, entry: &mut LogEntry, e: &GameEvent) {
    use GameEvent as G;
    let mut push_die = |label: &str, d: u8, ok: bool| match entry.dice.last_mut() {
        Some(g) if g.label == label => g.dice.push((d, ok)),
        _ => entry.dice.push(DiceGroup {
            label: label.to_string(),
            dice: vec![(d, ok)],
        }),
    };
    match e {
        G::Attack(a) => match a {
            AttackEvent::Attacks { dice, .. } => {
                for &d in dice {
                    push_die("attacks", d, true);
                }
            }
            AttackEvent::HitRoll { roll, result, .. } => {
                push_die("hit", *roll, *result != RollResult::Fail);
            }
            AttackEvent::WoundRoll { roll, result, .. } => {
                push_die("wound", *roll, *result != RollResult::Fail);
            }
            AttackEvent::SavingThrow {
                roll, saved, kind, ..
            } => push_die(
                match kind {
                    SaveKind::Armour => "save",
                    SaveKind::Invulnerable => "invulnerable save",
                },
                *roll,
                *saved,
            ),
            AttackEvent::Damage { dice, .. } => {
                for &d in dice {
                    push_die("damage", d, true);
                }
            }
            AttackEvent::FeelNoPain { roll, ignored, .. }
            | AttackEvent::ModelFeelNoPain { roll, ignored, .. } => {
                push_die("Feel No Pain", *roll, *ignored);
            }
            AttackEvent::SustainedHits { dice, .. }
            | AttackEvent::DevastatingWounds { dice, .. } => {
                for &d in dice {
                    push_die("extra", d, true);
                }
            }
            AttackEvent::Hazardous { roll, failure, .. } => {
                push_die("Hazardous", *roll, failure.is_none());
            }
            _ => {}
        },
        G::MortalWoundsRolled {
            dice,
            mortal_wounds,
            player,
            target,
        } => {
            for &d in dice {
                push_die("mortal wounds", d, true);
            }
            entry.outcome.push(format!(
                "{} on {}",
                plural(*mortal_wounds, "mortal wound", "mortal wounds"),
                unit_name(game, opponent(*player), target)
            ));
        }
        G::DeadlyDemise {
            roll, triggered, ..
        } => push_die("Deadly Demise", *roll, *triggered),
        G::ShootBeforeRemoval { roll, shoots, .. } => push_die("D6", *roll, *shoots),
        G::DestroyedTransportRolls {
            dice,
            fails_up_to,
            models_lost,
            player,
            unit,
            ..
        } => {
            for &d in dice {
                push_die("emergency", d, d > *fails_up_to);
            }
            entry.outcome.push(format!(
                "{} loses {}",
                unit_name(game, *player, unit),
                plural(*models_lost, "model", "models")
            ));
        }
        G::UnitDestroyed { player, unit } => entry
            .outcome
            .push(format!("{} destroyed", unit_name(game, *player, unit))),
        G::HazardousLoss {
            player,
            model,
            destroyed,
            mortal_wounds,
        } => entry.outcome.push(if *destroyed {
            format!("{} lost to Hazardous", model_name(game, *player, model))
        } else {
            format!(
                "{} suffers {} from Hazardous",
                model_name(game, *player, model),
                plural(*mortal_wounds, "mortal wound", "mortal wounds")
            )
        }),
        G::TransportPassengersLost { player, unit, .. } => entry.outcome.push(format!(
            "{} lost with its Transport",
            unit_name(game, *player, unit)
        )),
        G::LeaderDetached { player, unit } => entry.outcome.push(format!(
            "{} is on its own again",
            unit_name(game, *player, unit)
        )),
        _ => {}
    }
}
