//! Recognisable models: a simple procedural figure for each model by its keywords, at its true
//! base size and height: an infantry figure (legs, torso, head, gun), a vehicle (hull, tracks,
//! turret, barrel), a walker (legs, body, arms) or a monster (body, head, four legs). The
//! figure faces +x (the model's facing) and stands on its base's top.

use bevy::prelude::*;

use crate::geometry::Base;

/// The kind of figure a model is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silhouette {
    /// A person-shaped figure (INFANTRY, CHARACTER, and anything not below).
    Infantry,
    /// A hull with a turret (VEHICLE, or any model with a hull instead of a base).
    Vehicle,
    /// A walker on two legs (VEHICLE and WALKER).
    Walker,
    /// A beast on four legs (MONSTER).
    Monster,
}

/// The figure for a model with these datasheet `keywords` on `base`.
pub fn silhouette(keywords: &[String], base: &Base) -> Silhouette {
    let has = |k: &str| keywords.iter().any(|x| x.eq_ignore_ascii_case(k));
    if has("VEHICLE") && has("WALKER") {
        Silhouette::Walker
    } else if has("VEHICLE") || matches!(base, Base::Hull { .. }) {
        Silhouette::Vehicle
    } else if has("MONSTER") {
        Silhouette::Monster
    } else {
        Silhouette::Infantry
    }
}

/// A box `size` (x, y, z) centred at `at`.
fn block(size: Vec3, at: Vec3) -> Mesh {
    Mesh::from(Cuboid::new(size.x, size.y, size.z)).transformed_by(Transform::from_translation(at))
}

/// An upright cylinder of `radius` from `bottom` up `height`.
fn post(radius: f32, height: f32, bottom: Vec3) -> Mesh {
    Mesh::from(Cylinder::new(radius, height)).transformed_by(
        Transform::from_translation(bottom + Vec3::Z * height / 2.0)
            .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
    )
}

/// A sphere of radius 1 stretched to the half sizes `half` and centred at `at`.
fn blob(half: Vec3, at: Vec3) -> Mesh {
    Mesh::from(Sphere::new(1.0)).transformed_by(Transform::from_translation(at).with_scale(half))
}

/// The figure's mesh for `kind` on `base`, `height` inches tall above the base's top (inches,
/// x forward, z up): within the base's footprint and no taller than `height`.
pub fn figure_mesh(kind: Silhouette, base: &Base, height: f32) -> Mesh {
    let h = height.max(0.2);
    let half = base.half_extents_inches();
    let (hx, hy) = (half.x, half.y);
    let r = hx.min(hy);
    let parts: Vec<Mesh> = match kind {
        Silhouette::Infantry => {
            let head = (0.1 * h).min(0.3 * r);
            vec![
                post(0.16 * r, 0.45 * h, Vec3::new(0.0, 0.22 * r, 0.0)),
                post(0.16 * r, 0.45 * h, Vec3::new(0.0, -0.22 * r, 0.0)),
                block(
                    Vec3::new(0.5 * r, 0.8 * r, 0.35 * h),
                    Vec3::new(0.0, 0.0, 0.625 * h),
                ),
                blob(Vec3::splat(head), Vec3::new(0.0, 0.0, 0.8 * h + head)),
                // The gun, pointing along the facing.
                block(
                    Vec3::new(0.7 * r, 0.15 * r, 0.15 * r),
                    Vec3::new(0.4 * r, -0.3 * r, 0.65 * h),
                ),
            ]
        }
        Silhouette::Vehicle => {
            let t = 0.35 * r;
            vec![
                block(
                    Vec3::new(1.9 * hx, 1.6 * hy, 0.55 * h),
                    Vec3::new(0.0, 0.0, 0.275 * h),
                ),
                block(
                    Vec3::new(2.0 * hx, 0.2 * hy, 0.4 * h),
                    Vec3::new(0.0, 0.88 * hy, 0.2 * h),
                ),
                block(
                    Vec3::new(2.0 * hx, 0.2 * hy, 0.4 * h),
                    Vec3::new(0.0, -0.88 * hy, 0.2 * h),
                ),
                post(t, 0.45 * h, Vec3::new(-0.1 * hx, 0.0, 0.55 * h)),
                block(
                    Vec3::new(0.9 * hx, 0.22 * t, 0.22 * t),
                    Vec3::new(0.3 * hx, 0.0, 0.8 * h),
                ),
            ]
        }
        Silhouette::Walker => vec![
            post(0.18 * r, 0.45 * h, Vec3::new(0.0, 0.35 * r, 0.0)),
            post(0.18 * r, 0.45 * h, Vec3::new(0.0, -0.35 * r, 0.0)),
            block(
                Vec3::new(0.8 * r, 1.2 * r, 0.4 * h),
                Vec3::new(0.0, 0.0, 0.65 * h),
            ),
            block(
                Vec3::new(0.9 * r, 0.25 * r, 0.25 * r),
                Vec3::new(0.3 * r, 0.72 * r, 0.7 * h),
            ),
            block(
                Vec3::new(0.9 * r, 0.25 * r, 0.25 * r),
                Vec3::new(0.3 * r, -0.72 * r, 0.7 * h),
            ),
            block(
                Vec3::new(0.4 * r, 0.5 * r, 0.15 * h),
                Vec3::new(0.0, 0.0, 0.925 * h),
            ),
        ],
        Silhouette::Monster => {
            let mut parts = vec![
                blob(
                    Vec3::new(0.75 * hx, 0.6 * hy, 0.25 * h),
                    Vec3::new(0.0, 0.0, 0.6 * h),
                ),
                blob(
                    Vec3::splat((0.3 * r).min(0.15 * h)),
                    Vec3::new(0.7 * hx, 0.0, 0.85 * h - (0.3 * r).min(0.15 * h)),
                ),
            ];
            for (x, y) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                parts.push(post(
                    0.12 * r,
                    0.45 * h,
                    Vec3::new(0.45 * hx * x, 0.4 * hy * y, 0.0),
                ));
            }
            parts
        }
    };
    let mut mesh = parts[0].clone();
    for p in &parts[1..] {
        // Every part is a primitive with positions, normals and UVs: merging cannot fail.
        let _ = mesh.merge(p);
    }
    mesh
}
