//! The footprints of models without a base (`HullSizes(...)`, `scenes/datasheets/hull-sizes.ron`):
//! measured hulls by datasheet name, and the bases assumed by keyword for datasheets that
//! still have none, so that every datasheet can be fielded (Core Rules: a model without a
//! base is measured to its hull; seeds/002 "hull").

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::geometry::Base;
use crate::rules::Datasheet;

/// Millimetres per inch, for the table's hull sizes.
const MM_PER_INCH: f32 = 25.4;

/// The hull table's file among the files built into the binary.
pub const HULL_TABLE: &str = "scenes/datasheets/hull-sizes.ron";

/// The hull table: measured hulls and the assumed bases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "HullSizes", deny_unknown_fields)]
pub struct HullSizes {
    /// Measured hulls, each serving the datasheets it names.
    pub hulls: Vec<Hull>,
    /// Bases assumed by keyword, first match first; the last row should match every datasheet
    /// (no keywords).
    pub defaults: Vec<Assumed>,
}

/// One measured hull.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Hull", deny_unknown_fields)]
pub struct Hull {
    /// The kit ("Rhino chassis").
    pub kit: String,
    /// The datasheets it serves, by name (compared without case, apostrophes or dashes).
    pub names: Vec<String>,
    /// Length along the facing, millimetres.
    pub length_mm: f32,
    /// Width across the facing, millimetres.
    pub width_mm: f32,
    /// Where the measurement comes from.
    pub from: String,
}

/// A base assumed for datasheets with all of `keywords`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Assumed", deny_unknown_fields)]
pub struct Assumed {
    /// The keywords a datasheet must all have (none: every datasheet).
    pub keywords: Vec<String>,
    /// The base (round or oval in millimetres, hull in inches).
    pub base: Base,
}

impl Hull {
    /// The footprint as a [`Base::Hull`] in inches.
    pub fn base(&self) -> Base {
        Base::Hull {
            length: self.length_mm / MM_PER_INCH,
            width: self.width_mm / MM_PER_INCH,
        }
    }
}

pub use crate::rules::datasheet::BaseSource;

/// The built-in hull table, parsed once. The table is part of the binary and checked by a
/// test, so it always parses.
pub fn table() -> &'static HullSizes {
    static TABLE: LazyLock<HullSizes> = LazyLock::new(|| {
        let text = crate::data::source::embedded(std::path::Path::new(HULL_TABLE))
            .expect("the hull table is built into the binary");
        crate::data::source::parse(std::path::Path::new(HULL_TABLE), text)
            .expect("the built-in hull table parses")
    });
    &TABLE
}

impl HullSizes {
    /// The base for a datasheet called `name` with `keywords` that gives none: a measured hull
    /// naming it, else the first assumed row whose keywords it has.
    pub fn base_for(&self, name: &str, keywords: &[String]) -> Option<(Base, BaseSource)> {
        let n = crate::data::bsdata::normalise_name(name);
        if let Some(h) = self.hulls.iter().find(|h| {
            h.names
                .iter()
                .any(|x| crate::data::bsdata::normalise_name(x) == n)
        }) {
            return Some((h.base(), BaseSource::Measured(h.kit.clone())));
        }
        self.defaults
            .iter()
            .find(|d| {
                d.keywords
                    .iter()
                    .all(|k| keywords.iter().any(|x| x.eq_ignore_ascii_case(k)))
            })
            .map(|d| (d.base, BaseSource::Assumed(d.keywords.clone())))
    }
}

/// Gives `sheet` a base when its file gives none (see [`HullSizes::base_for`]), recording
/// where it came from in [`Datasheet::base_source`].
pub fn fill_missing_base(sheet: &mut Datasheet) {
    if sheet.base.is_some() {
        return;
    }
    if let Some((base, from)) = table().base_for(&sheet.name, &sheet.keywords) {
        sheet.base = Some(base);
        sheet.base_source = Some(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_every_datasheet_finds_a_base() {
        let t = table();
        assert!(t.hulls.len() >= 20);
        assert!(t.defaults.last().is_some_and(|d| d.keywords.is_empty()));
        let (b, from) = t.base_for("Chaos Rhino", &["VEHICLE".to_string()]).unwrap();
        assert_eq!(from, BaseSource::Measured("Rhino chassis".into()));
        let Base::Hull { length, width } = b else {
            panic!("{b:?}")
        };
        assert!((length - 115.0 / 25.4).abs() < 1e-4 && (width - 75.0 / 25.4).abs() < 1e-4);
        let (b, from) = t
            .base_for("Some Tank", &["VEHICLE".into(), "TITANIC".into()])
            .unwrap();
        assert!(matches!(b, Base::Hull { .. }), "{b:?}");
        assert_eq!(
            from,
            BaseSource::Assumed(vec!["VEHICLE".into(), "TITANIC".into()])
        );
        let (b, _) = t.base_for("Somebody", &["INFANTRY".into()]).unwrap();
        assert_eq!(b, Base::Round(32.0));
    }
}
