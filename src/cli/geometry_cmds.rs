//! `los`, `measure` and `coherency`: the geometry questions asked of a scene, answered as JSON
//! (or a line of text).

use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::data::{Scene, load_scene_under};
use crate::game::sight::{SceneSight, UnitSelector, model_solid};
use crate::geometry::measure::model_distance;
use crate::geometry::sight::{Sampling, SeeThrough};
use crate::rules::Ruleset;
use crate::{geometry::Vec3, rules::coherency};

fn load(path: &Path, ruleset: Option<Ruleset>) -> Result<(Scene, SceneSight), ExitCode> {
    match load_scene_under(path, ruleset) {
        Ok(scene) => {
            let sight = SceneSight::new(&scene);
            Ok((scene, sight))
        }
        Err(e) => {
            stderr_line!("{e}");
            Err(ExitCode::FAILURE)
        }
    }
}

fn select(scene: &Scene, sight: &SceneSight, sel: &UnitSelector) -> Result<Vec<usize>, ExitCode> {
    sight.select(scene, sel).map_err(|e| {
        stderr_line!("{e}");
        ExitCode::FAILURE
    })
}

fn emit(value: Value, json_out: bool, text: impl FnOnce(&Value) -> String) -> ExitCode {
    let out = if json_out {
        serde_json::to_string_pretty(&value).expect("json")
    } else {
        text(&value)
    };
    super::print_then(&out, ExitCode::SUCCESS)
}

fn point(p: Vec3) -> Value {
    json!([p.x, p.y, p.z])
}

/// `wartable los`: visibility, cover and plunging fire between an observer and a target.
pub fn los(
    path: &Path,
    ruleset: Option<Ruleset>,
    observer: &UnitSelector,
    target: &UnitSelector,
    json_out: bool,
) -> ExitCode {
    let (scene, sight) = match load(path, ruleset) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let (observers, targets) = match (
        select(&scene, &sight, observer),
        select(&scene, &sight, target),
    ) {
        (Ok(o), Ok(t)) => (o, t),
        (Err(c), _) | (_, Err(c)) => return c,
    };
    let sampling = Sampling::FAST;
    let index = &sight.index;
    let mut unit = index.unit_visibility(&observers, &targets, &sampling);
    // Plunging Fire needs every model of the target unit on the ground, not just those named.
    let whole_target = UnitSelector {
        model: None,
        ..target.clone()
    };
    if let Ok(all) = sight.select(&scene, &whole_target) {
        unit.plunging_fire =
            unit.plunging_fire && observers.iter().any(|&o| index.plunging_fire(o, &all));
    }
    let single = observers.len() == 1
        && targets.len() == 1
        && observer.model.is_some()
        && target.model.is_some();
    let model = single
        .then(|| index.model_visibility(observers[0], targets[0], SeeThrough::OwnUnit, &sampling));
    // Only said when the unit has the Benefit of Cover (then every visible target has it).
    let cover_reason = unit
        .benefit_of_cover
        .then(|| {
            if index.eleventh() {
                // 11th: the whole unit's, against each attacking model.
                return observers
                    .iter()
                    .find_map(|&o| index.cover_against(o, &targets, &sampling));
            }
            targets
                .iter()
                .filter(|&&t| {
                    observers
                        .iter()
                        .any(|&o| index.model_visible(o, t, SeeThrough::OwnUnit, &sampling))
                })
                .find_map(|&t| index.benefit_of_cover(t, &observers, &sampling))
        })
        .flatten();
    let witness = model.as_ref().map_or(unit.witness, |m| m.witness);
    let blocked_by = model
        .as_ref()
        .map_or(unit.blocked_by.clone(), |m| m.blocked_by.clone());
    let value = json!({
        "ruleset": scene.ruleset(),
        "observer": format!("{}", describe(observer)),
        "target": format!("{}", describe(target)),
        "model_visible": model.as_ref().map(|m| m.visible),
        "model_fully_visible": model.as_ref().map(|m| m.fully_visible),
        "unit_visible": unit.unit_visible,
        "unit_fully_visible": unit.unit_fully_visible,
        "benefit_of_cover": unit.benefit_of_cover,
        "cover_reason": cover_reason,
        "plunging_fire": unit.plunging_fire,
        "witness": witness.map(|[a, b]| json!([point(a), point(b)])),
        "blocked_by": blocked_by.as_ref().map(|b| json!({"blocker": b, "rule": b.to_string()})),
        "not_fully_visible_because": model
            .as_ref()
            .and_then(|m| m.not_fully_because.as_ref())
            .map(|b| json!({"blocker": b, "rule": b.to_string()})),
    });
    emit(value, json_out, |v| {
        format!(
            "visible: {}, fully visible: {}, cover: {}, plunging fire: {}{}",
            v["unit_visible"],
            v["unit_fully_visible"],
            v["benefit_of_cover"],
            v["plunging_fire"],
            blocked_by
                .map(|b| format!(" (blocked by {b})"))
                .unwrap_or_default()
        )
    })
}

fn describe(sel: &UnitSelector) -> String {
    let p = sel.player.map(|p| format!("{p}:")).unwrap_or_default();
    match sel.model {
        Some(m) => format!("{p}{}#{m}", sel.unit),
        None => format!("{p}{}", sel.unit),
    }
}

/// `wartable measure`: the closest distance between two models (or units).
pub fn measure(
    path: &Path,
    ruleset: Option<Ruleset>,
    from: &UnitSelector,
    to: &UnitSelector,
    json_out: bool,
) -> ExitCode {
    let (scene, sight) = match load(path, ruleset) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let (a, b) = match (select(&scene, &sight, from), select(&scene, &sight, to)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(c), _) | (_, Err(c)) => return c,
    };
    let solid = |i: usize| model_solid(&scene, sight.models[i]);
    let pairs: Vec<(usize, usize)> = a
        .iter()
        .flat_map(|&i| b.iter().map(move |&j| (i, j)))
        .filter(|(i, j)| i != j)
        .collect();
    let Some((i, j, d)) = pairs
        .iter()
        .map(|&(i, j)| (i, j, model_distance(&solid(i), &solid(j))))
        .min_by(|x, y| x.2.distance.total_cmp(&y.2.distance))
    else {
        stderr_line!("nothing to measure: both name the same single model");
        return ExitCode::FAILURE;
    };
    // Engagement Range holds when any pair is in range (a barricade can put a farther pair in).
    let engaged = sight.any_within_engagement_range(&scene, &a, &b);
    let value = json!({
        "ruleset": scene.ruleset(),
        "from": format!("{}#{}", from.unit, sight.models[i].model),
        "to": format!("{}#{}", to.unit, sight.models[j].model),
        "distance": d.distance,
        "horizontal": d.horizontal,
        "vertical": d.vertical,
        "within_engagement_range": engaged,
    });
    emit(value, json_out, |v| {
        format!(
            "{} to {}: {:.2}\" ({:.2}\" horizontal, {:.2}\" vertical), within Engagement Range: {}",
            v["from"].as_str().unwrap_or_default(),
            v["to"].as_str().unwrap_or_default(),
            d.distance,
            d.horizontal,
            d.vertical,
            v["within_engagement_range"]
        )
    })
}

/// `wartable coherency`: is the unit in Unit Coherency, and which models break it.
pub fn coherency(
    path: &Path,
    ruleset: Option<Ruleset>,
    unit: &UnitSelector,
    json_out: bool,
) -> ExitCode {
    let (scene, sight) = match load(path, ruleset) {
        Ok(x) => x,
        Err(c) => return c,
    };
    if let Some(m) = unit.model {
        stderr_line!(
            "coherency is a question about a unit: '{}#{m}' names one model; give '{}'",
            unit.unit,
            unit.unit
        );
        return ExitCode::FAILURE;
    }
    let whole = UnitSelector {
        model: None,
        ..unit.clone()
    };
    let models = match select(&scene, &sight, &whole) {
        Ok(m) => m,
        Err(c) => return c,
    };
    let solids: Vec<_> = models
        .iter()
        .map(|&i| model_solid(&scene, sight.models[i]))
        .collect();
    let edition = scene.edition();
    let report = coherency::check_in(edition, &solids);
    let value = json!({
        "ruleset": scene.ruleset(),
        "unit": describe(&whole),
        "models": solids.len(),
        "coherent": report.coherent,
        "breaking_models": report.breaking_models,
        "to_remove_at_end_of_turn": coherency::models_to_remove_keeping_in(
            edition,
            &solids,
            &vec![1.0; solids.len()],
        ),
    });
    emit(value, json_out, |v| {
        format!(
            "{}: coherent: {}, breaking models: {}",
            v["unit"].as_str().unwrap_or_default(),
            v["coherent"],
            v["breaking_models"]
        )
    })
}
