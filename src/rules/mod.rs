//! Pure game rules: characteristics, datasheets, dice, missions. No Bevy here.

pub mod abilities;
pub mod attack;
pub mod coherency;
pub mod constants;
pub mod cover;
pub mod datasheet;
pub mod deployment;
pub mod dice;
pub mod effect;
pub mod engagement;
pub mod mission;
pub mod modifiers;
pub mod movement;
pub mod phase;
pub mod rng;
pub mod roll_table;
pub mod ruleset;
pub mod secondary;
pub mod stratagem;
pub mod weapon;

pub use abilities::{CoreAbility, TimedAbility};
pub use datasheet::{Ability, Characteristics, Datasheet, ModelProfile};
pub use dice::DiceExpr;
pub use ruleset::{Edition, Ruleset};
pub use weapon::{WeaponAbility, WeaponProfile};
