//! The hot-seat game in the window, without the drawing: what a drag would command and whether
//! the engine accepts it (`draft`), which panels show for a unit (`panels`), the line-of-sight
//! report the overlay tints from (`los`), undo (re-exported from the battle plugin), and the
//! dice log (`record`). Everything
//! here works headless; the egui panels (`hud`) and the gizmos (`overlay`) only read and write
//! these resources.

mod deploy;
mod draft;
mod los;
mod narrate;
mod panels;
mod record;
mod summary;
mod tape;
mod threat;

use std::collections::BTreeSet;

use bevy::prelude::*;

use super::screens::Screen;
use crate::game::sight::ModelRef;
use crate::game::{Command, Rejection};
use crate::rules::movement::MoveMode;
use crate::sim::battle::{ActiveGame, BattleSystems, GameCommand};

pub use crate::sim::battle::{GameOrigin, undo};
pub use deploy::{AutoDeploy, auto_deploy_command};
pub use draft::{
    Draft, MoveBudget, Verdict, advance_roll_needed, allowance, check, draft_command,
    draft_distance, draft_to_leg, drag_model, drag_unit, leg_checks, leg_lengths, model_position,
    placement_draft, suggest_placement,
};
pub use los::{LosReport, SightStatus, TargetSight, los_report};
pub use narrate::{
    ActionLog, DIE_FACES, DiceGroup, EntryKind, LogEntry, LogFilter, face, model_name, names_word,
    piece_name, readable, table_region, unit_name,
};
pub use panels::{Panels, dice_log_height, panel_widths, panels, unit_status, unit_strip};
pub use record::DICE_LOG_SHOWN;
pub use summary::{GameSummary, UnitLosses};
pub use tape::{Measure, TapeEnd, end_name, measure, tape_text};
pub use threat::{Reach, ThreatOverlay, reach, threat_outline, threat_units, within_reach};

/// What the measuring tape holds: up to two ends clicked in turn (models, points on the
/// table, terrain pieces, objective markers).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tape {
    /// The ends picked, in order.
    pub picks: Vec<TapeEnd>,
}

impl Tape {
    /// Adds an end; a third click starts a new measurement from it.
    pub fn pick(&mut self, end: TapeEnd) {
        if self.picks.len() >= 2 {
            self.picks.clear();
        }
        self.picks.push(end);
    }
}

/// The move being drawn and the engine's answer to it: the only resource the draft checker
/// reads, so a change to the dice log or a tool does not re-check the draft.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Drafting {
    /// The move being drawn, if any.
    pub draft: Option<Draft>,
    /// The engine's answer to the draft.
    pub verdict: Option<Verdict>,
    /// The kind of move a drag makes in the Movement phase.
    pub move_mode: MoveMode,
    /// The verdict on the move as far as each leg's end, for a move drafted in legs
    /// ([`leg_checks`]; empty for a one-leg move).
    pub leg_verdicts: Vec<Verdict>,
    /// A unit (army, unit) being placed off the table (arriving from Reserves or
    /// disembarking): a click on the table puts it there ([`placement_draft`]).
    pub placing: Option<(usize, usize)>,
    /// The command the draft makes ([`draft_command`]), built when the draft or the game
    /// changes, not every frame.
    pub command: Option<Command>,
    /// The same command with every model that can reach an enemy model sent into base
    /// contact ([`crate::game::Game::with_base_contact`]), when the drafted one misses a
    /// contact the rules require (Charge, Pile In, Consolidate).
    pub base_contact: Option<Command>,
    /// How far the draft goes against how far it may go ([`allowance`]).
    pub budget: Option<MoveBudget>,
}

impl Default for Drafting {
    fn default() -> Self {
        Drafting {
            draft: None,
            verdict: None,
            move_mode: MoveMode::Normal,
            leg_verdicts: Vec::new(),
            placing: None,
            command: None,
            base_contact: None,
            budget: None,
        }
    }
}

/// The sight tools: line of sight for the selected unit, the model under the cursor and the
/// model's-eye view.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct SightTools {
    /// Line-of-sight tool on (tints enemy models for the selected unit).
    pub los: bool,
    /// The line-of-sight report for the selected unit (when the tool is on).
    pub report: LosReport,
    /// The model under the cursor.
    pub hovered: Option<ModelRef>,
    /// The model's-eye view: the observer and target models, and whether it fills the window.
    pub eye: Option<EyeView>,
}

/// The table tools: range rings, the measuring tape and the F1 help.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct TableTools {
    /// Range rings: Move, weapon ranges, Engagement Range, Unit Coherency.
    pub rings: [bool; 4],
    /// The measuring tape, when on.
    pub tape: Option<Tape>,
    /// The F1 help overlay is open.
    pub help: bool,
    /// The end-of-game summary was put away (the phase bar's "Summary" opens it again).
    pub summary_hidden: bool,
    /// The unit card is folded to a one-line strip under the phase bar (C), leaving the
    /// table the full width.
    pub card_strip: bool,
    /// The armies list on the left is hidden (the phase bar's "Armies" shows it again).
    pub armies_hidden: bool,
    /// The unit labels on the table are hidden (N, or the phase bar's "Labels").
    pub labels_hidden: bool,
    /// The legend of the table's colours is open (the phase bar's "Legend").
    pub legend: bool,
    /// The threat overlay (H): off, the selected unit's reach, or the enemy army's.
    pub threat: ThreatOverlay,
}

/// The dice log: the game's actions in words with their dice (rebuilt from the save when a
/// game is loaded or a command undone), refusals and notes among them, the filter and the
/// entries opened to their full event list, the last refusal and a failed autosave.
#[derive(Resource, Debug, Clone, Default)]
pub struct DiceLog {
    /// Every action of the game, newest last.
    pub actions: ActionLog,
    /// Which entries show.
    pub filter: LogFilter,
    /// Entries opened to their full event list (indices into `actions.entries`).
    pub expanded: BTreeSet<usize>,
    /// The menu's last failure (a game that could not start or load), shown in the menu.
    pub menu_error: Option<String>,
    /// The last rejected command (its kind) and why.
    pub rejection: Option<(String, Rejection)>,
    /// The last autosave that could not be written (file: reason), until one succeeds.
    pub autosave_error: Option<String>,
}

/// Who sits at the table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Seats {
    /// Two people share the window: a hand-over screen covers the table whenever the acting
    /// player changes.
    #[default]
    HotSeat,
    /// One person plays both sides: no hand-over screens; the phase bar shows the acting side
    /// in its colour.
    Solo,
    /// One person against the computer, which plays this player (1 or 2).
    Computer(u8),
}

impl Seats {
    /// The menu's words for it.
    pub fn label(self) -> String {
        match self {
            Seats::HotSeat => "hot-seat (two people)".into(),
            Seats::Solo => "solo (one player, both sides)".into(),
            Seats::Computer(p) => format!("the computer as player {p}"),
        }
    }

    /// The player the computer plays, if any.
    pub fn computer(self) -> Option<u8> {
        match self {
            Seats::Computer(p) if p == 1 || p == 2 => Some(p),
            _ => None,
        }
    }
}

/// The hand-over between hot-seat players.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct HandOver {
    /// The player to hand the table to (a hand-over screen covers the table until they click).
    pub to: Option<u8>,
    /// Who sits at the table: hand-over screens only in a hot-seat game.
    pub seats: Seats,
}

/// What the order panels hold between frames.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct OrderPanels {
    /// Weapon → target choices of the shooting / fight panel.
    pub weapon_targets: Vec<(String, Option<String>)>,
    /// Targets ticked in the charge panel.
    pub charge_targets: BTreeSet<String>,
}

/// The play screen's state as a scripted start leaves it (see [`crate::app::scenario`]): every
/// play resource, and the dice log's filter and opened entries (its entries are the game's).
#[derive(Debug, Clone, Default)]
pub struct PlayView {
    /// The hand-over (a scripted start plays without hand-over screens).
    pub handover: HandOver,
    /// The draft and its verdict.
    pub drafting: Drafting,
    /// The sight tools.
    pub sight: SightTools,
    /// The table tools.
    pub tools: TableTools,
    /// The order panels.
    pub orders: OrderPanels,
    /// The dice log's filter.
    pub log_filter: LogFilter,
    /// The dice log's entries opened to their events.
    pub log_expanded: BTreeSet<usize>,
}

impl PlayView {
    /// Puts this view's resources into `world`.
    pub fn insert(self, world: &mut World) {
        world.insert_resource(self.handover);
        world.insert_resource(self.drafting);
        world.insert_resource(self.sight);
        world.insert_resource(self.tools);
        world.insert_resource(self.orders);
        if let Some(mut log) = world.get_resource_mut::<DiceLog>() {
            log.filter = self.log_filter;
            log.expanded = self.log_expanded;
        }
    }
}

/// Puts a fresh play state into `world`: no draft, tools off, the dice log holding `actions`.
pub fn reset_play(world: &mut World, actions: ActionLog) {
    PlayView::default().insert(world);
    world.insert_resource(AutoDeploy::default());
    world.insert_resource(DiceLog {
        actions,
        ..DiceLog::default()
    });
}

/// The model's-eye camera: from `observer`'s eye towards `target`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EyeView {
    /// The model whose eye the camera is at.
    pub observer: ModelRef,
    /// The model looked at.
    pub target: ModelRef,
    /// Full view instead of picture-in-picture.
    pub full: bool,
}

/// Registers the play state and the systems that keep it in step with the game: the dice log
/// and the draft's verdict only while a game is on the table ([`Screen::Table`]; the screen
/// state is initialised here too, so the plugin runs without the screens). The hand-over runs
/// on every screen: it must see the game close (on entering the editor) to forget the last
/// acting player.
pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<Drafting>()
        .init_resource::<SightTools>()
        .init_resource::<TableTools>()
        .init_resource::<DiceLog>()
        .init_resource::<HandOver>()
        .init_resource::<OrderPanels>()
        .init_resource::<AutoDeploy>()
        .add_systems(
            Update,
            deploy::auto_deploy
                .run_if(in_state(Screen::Table))
                .in_set(crate::sim::battle::InputSystems),
        )
        .add_systems(
            Update,
            (
                record::record_events.run_if(in_state(Screen::Table)),
                record::hand_over,
                // `and_then` short-circuits: a change made on another screen (a game put on the
                // table from the menu) is still seen on the first frame on the table.
                draft::check_draft_system.run_if(in_state(Screen::Table).and_then(
                    resource_changed::<Drafting>.or_eager(resource_changed::<ActiveGame>),
                )),
            )
                .chain()
                .after(BattleSystems),
        );
}

/// Sends `command` to the engine (through the battle plugin's messages).
pub fn issue(writer: &mut MessageWriter<GameCommand>, drafting: &mut Drafting, command: Command) {
    drafting.draft = None;
    drafting.verdict = None;
    drafting.placing = None;
    writer.write(GameCommand(command));
}
