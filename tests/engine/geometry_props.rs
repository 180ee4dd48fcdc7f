//! Property tests for the pure geometry: measuring is symmetric and never negative, Unit
//! Coherency does not depend on where the unit stands or which way it is turned, and
//! Engagement Range is mutual (Core Rules: Measuring Distances, Unit Coherency, Engagement
//! Range; shared/RULES.md "Geometry words").

use proptest::prelude::*;
use wartable::geometry::{Base, ModelSolid, Vec2, Vec3, measure};
use wartable::rules::{coherency, engagement};

/// Radius of a 32 mm base (inches).
const R32: f32 = 32.0 / 25.4 / 2.0;

fn any_base() -> impl Strategy<Value = Base> {
    prop_oneof![
        (25.0f32..100.0).prop_map(Base::Round),
        (30.0f32..120.0, 0.2f32..1.0).prop_map(|(major, ratio)| Base::Oval(major, major * ratio)),
        (1.0f32..10.0, 1.0f32..8.0).prop_map(|(length, width)| Base::Hull { length, width }),
    ]
}

fn any_model() -> impl Strategy<Value = ModelSolid> {
    (
        any_base(),
        0.0f32..30.0,
        0.0f32..30.0,
        0.0f32..8.0,
        0.0f32..360.0,
        0.5f32..6.0,
    )
        .prop_map(|(base, x, y, z, facing, height)| {
            ModelSolid::new(base, Vec3::new(x, y, z), facing, height)
        })
}

/// A model near another one (within a few inches), so that close and touching pairs are common.
fn nearby_pair() -> impl Strategy<Value = (ModelSolid, ModelSolid)> {
    (
        any_model(),
        any_base(),
        -6.0f32..6.0,
        -6.0f32..6.0,
        -3.0f32..3.0,
        0.0f32..360.0,
        0.5f32..6.0,
    )
        .prop_map(|(a, base, dx, dy, dz, facing, height)| {
            let b = ModelSolid::new(
                base,
                Vec3::new(a.centre.x + dx, a.centre.y + dy, (a.z + dz).max(0.0)),
                facing,
                height,
            );
            (a, b)
        })
}

/// A unit of 32 mm models on a 0.5" grid (distinct points, a few inches across), each on the
/// table, 3" up or 7" up (vertical gaps 1.4", 2.4", 3.8", 5.4": none near the 5" threshold).
/// Units where some horizontal gap lies within 0.01" of the 2" threshold are left out.
fn grid_unit() -> impl Strategy<Value = Vec<ModelSolid>> {
    prop::collection::btree_set((0i32..10, 0i32..10), 2..=9)
        .prop_flat_map(|cells| {
            let n = cells.len();
            (
                Just(cells),
                prop::collection::vec(prop::sample::select(vec![0.0f32, 3.0, 7.0]), n),
            )
        })
        .prop_map(|(cells, heights)| {
            cells
                .into_iter()
                .zip(heights)
                .map(|((i, j), z)| {
                    ModelSolid::new(
                        Base::Round(32.0),
                        Vec3::new(i as f32 * 0.5, j as f32 * 0.5, z),
                        0.0,
                        1.6,
                    )
                })
                .collect::<Vec<_>>()
        })
        .prop_filter("a gap near the 2\" threshold", |models| {
            models.iter().enumerate().all(|(i, a)| {
                models[i + 1..].iter().all(|b| {
                    let gap = a.centre.distance(b.centre) - 2.0 * R32;
                    (gap - 2.0).abs() > 0.01
                })
            })
        })
}

/// Rotates `p` by `degrees` counter-clockwise about `pivot`.
fn rotate(p: Vec2, pivot: Vec2, degrees: f32) -> Vec2 {
    let (s, c) = degrees.to_radians().sin_cos();
    let d = p - pivot;
    pivot + Vec2::new(d.x * c - d.y * s, d.x * s + d.y * c)
}

/// The whole unit moved by `offset` and turned by `degrees` about `pivot` (centres and facings).
fn transform(models: &[ModelSolid], offset: Vec3, pivot: Vec2, degrees: f32) -> Vec<ModelSolid> {
    models
        .iter()
        .map(|m| ModelSolid {
            centre: rotate(m.centre, pivot, degrees) + offset.truncate(),
            facing: m.facing + degrees,
            z: m.z + offset.z,
            ..*m
        })
        .collect()
}

/// A thin barricade footprint somewhere between or near the two models.
fn barricade_near(a: &ModelSolid, b: &ModelSolid, t: f32, angle: f32) -> Vec<Vec2> {
    let centre = a.centre.lerp(b.centre, t);
    let (s, c) = angle.to_radians().sin_cos();
    let along = Vec2::new(c, s) * 2.0;
    let across = Vec2::new(-s, c) * 0.15;
    vec![
        centre - along - across,
        centre + along - across,
        centre + along + across,
        centre - along + across,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn distance_is_symmetric_and_never_negative((a, b) in nearby_pair()) {
        let ab = measure::model_distance(&a, &b);
        let ba = measure::model_distance(&b, &a);
        prop_assert!(ab.distance >= 0.0 && ab.horizontal >= 0.0 && ab.vertical >= 0.0, "{ab:?}");
        prop_assert!((ab.horizontal - ba.horizontal).abs() <= 1e-4, "{ab:?} vs {ba:?}");
        prop_assert!((ab.vertical - ba.vertical).abs() <= 1e-6, "{ab:?} vs {ba:?}");
        prop_assert!((ab.distance - ba.distance).abs() <= 1e-4, "{ab:?} vs {ba:?}");
    }

    #[test]
    fn distance_is_symmetric_for_models_anywhere(a in any_model(), b in any_model()) {
        let ab = measure::model_distance(&a, &b);
        let ba = measure::model_distance(&b, &a);
        prop_assert!(ab.distance >= 0.0);
        prop_assert!((ab.distance - ba.distance).abs() <= 1e-4, "{ab:?} vs {ba:?}");
    }

    #[test]
    fn horizontal_distance_lies_between_the_centre_and_bounding_circle_distances(
        (a, b) in nearby_pair()
    ) {
        // No closer than the bounding circles allow, no farther than the centres.
        let h = measure::horizontal_distance(&a, &b);
        let centres = a.centre.distance(b.centre);
        let circles = centres - a.base.bounding_radius_inches() - b.base.bounding_radius_inches();
        prop_assert!(h <= centres + 1e-4, "{h} > {centres}");
        prop_assert!(h >= circles - 1e-4, "{h} < {circles}");
    }

    #[test]
    fn overlapping_bases_are_at_no_distance((a, b) in nearby_pair()) {
        prop_assert_eq!(measure::bases_overlap(&a, &b), measure::bases_overlap(&b, &a));
        // Overlapping models share ground: no horizontal distance between them.
        if measure::bases_overlap(&a, &b) {
            prop_assert!(measure::model_distance(&a, &b).horizontal <= 1e-4);
        }
    }

    #[test]
    fn coherency_does_not_depend_on_where_the_unit_stands(
        unit in grid_unit(),
        dx in -20.0f32..20.0,
        dy in -20.0f32..20.0,
        dz in 0.0f32..4.0,
        pivot_x in 0.0f32..5.0,
        pivot_y in 0.0f32..5.0,
        degrees in 0.0f32..360.0,
    ) {
        let before = coherency::check(&unit);
        let moved = transform(&unit, Vec3::new(dx, dy, dz), Vec2::new(pivot_x, pivot_y), degrees);
        prop_assert_eq!(coherency::check(&moved), before);
        prop_assert_eq!(coherency::models_to_remove(&moved), coherency::models_to_remove(&unit));
    }

    #[test]
    fn removing_the_models_to_remove_leaves_a_coherent_unit(unit in grid_unit()) {
        let removed = coherency::models_to_remove(&unit);
        let rest: Vec<ModelSolid> = unit
            .iter()
            .enumerate()
            .filter(|(i, _)| !removed.contains(i))
            .map(|(_, m)| *m)
            .collect();
        prop_assert!(!rest.is_empty());
        prop_assert!(coherency::check(&rest).coherent);
        prop_assert_eq!(removed.is_empty(), coherency::check(&unit).coherent);
    }

    #[test]
    fn engagement_range_is_mutual(
        (a, b) in nearby_pair(),
        with_barricade in any::<bool>(),
        t in 0.0f32..1.0,
        angle in 0.0f32..180.0,
    ) {
        let barricades = if with_barricade { vec![barricade_near(&a, &b, t, angle)] } else { Vec::new() };
        prop_assert_eq!(
            engagement::within_engagement_range(&a, &b, &barricades),
            engagement::within_engagement_range(&b, &a, &barricades)
        );
        // A barricade only ever extends the range.
        if engagement::within_engagement_range(&a, &b, &[]) {
            prop_assert!(engagement::within_engagement_range(&a, &b, &barricades));
        }
    }
}
