//! Plane polygons on the table (inches): areas, containment, distances, overlap, triangulation.
//!
//! Polygons are slices of vertices in order (either winding), not closed (the last vertex
//! connects back to the first). Used for terrain footprints, deployment zones and base outlines
//! (Core Rules: "within" and "wholly within").

use parry3d::math::Vec2;

/// Signed area: positive for counter-clockwise vertices (square inches).
pub fn signed_area(polygon: &[Vec2]) -> f32 {
    edges(polygon)
        .map(|(a, b)| a.x * b.y - b.x * a.y)
        .sum::<f32>()
        * 0.5
}

/// Each edge as (start, end), including the closing one.
pub fn edges(polygon: &[Vec2]) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    let n = polygon.len();
    (0..n).map(move |i| (polygon[i], polygon[(i + 1) % n]))
}

/// True when `p` is inside `polygon` or on its boundary (even-odd rule).
pub fn contains(polygon: &[Vec2], p: Vec2) -> bool {
    if distance_to_boundary(polygon, p) < 1e-4 {
        return true;
    }
    let mut inside = false;
    for (a, b) in edges(polygon) {
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if x > p.x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Distance from `p` to the segment `a`-`b` (inches).
pub fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    p.distance(closest_on_segment(p, a, b))
}

/// The point of the segment `a`-`b` nearest `p`.
pub fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * t
}

/// The closest points of `a` and `b` and the distance between them (inches). Either may be a
/// single point or a polygon; 0 when they overlap (a point inside the polygon, or polygons
/// that intersect), both points then one shared point. Empty input gives infinity.
pub fn closest_points(a: &[Vec2], b: &[Vec2]) -> (f32, Vec2, Vec2) {
    let (Some(&a0), Some(&b0)) = (a.first(), b.first()) else {
        return (f32::INFINITY, Vec2::ZERO, Vec2::ZERO);
    };
    let inside = |x: &[Vec2], y: &[Vec2]| {
        (y.len() >= 3)
            .then(|| x.iter().copied().find(|&p| contains(y, p)))
            .flatten()
    };
    if let Some(p) = inside(a, b).or_else(|| inside(b, a)) {
        return (0.0, p, p);
    }
    if a.len() >= 3 && b.len() >= 3 && polygons_intersect(a, b) {
        return (0.0, a0, a0);
    }
    let mut best = (f32::INFINITY, a0, b0);
    // Each vertex of one against the nearest point of the other's edges (or its one point).
    let mut one_way = |from: &[Vec2], to: &[Vec2], flip: bool| {
        for &p in from {
            let nearest = if to.len() == 1 {
                to[0]
            } else {
                edges(to)
                    .map(|(s, e)| closest_on_segment(p, s, e))
                    .min_by(|x, y| p.distance(*x).total_cmp(&p.distance(*y)))
                    .unwrap_or(to[0])
            };
            let d = p.distance(nearest);
            if d < best.0 {
                best = if flip {
                    (d, nearest, p)
                } else {
                    (d, p, nearest)
                };
            }
        }
    };
    one_way(a, b, false);
    one_way(b, a, true);
    best
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain); fewer than three
/// distinct points come back as they are.
pub fn convex_hull(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() * 2);
    for &p in points.iter().chain(points.iter().rev().skip(1)) {
        while hull.len() >= 2
            && cross(
                hull[hull.len() - 1] - hull[hull.len() - 2],
                p - hull[hull.len() - 2],
            ) <= 0.0
        {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
    hull
}

/// `subject` clipped to the convex polygon `window` (Sutherland-Hodgman; either winding).
pub fn clip_to_convex(subject: &[Vec2], window: &[Vec2]) -> Vec<Vec2> {
    let ccw = signed_area(window) >= 0.0;
    let inside = |p: Vec2, a: Vec2, b: Vec2| {
        let c = (b - a).perp_dot(p - a);
        if ccw { c >= 0.0 } else { c <= 0.0 }
    };
    let cut = |p: Vec2, q: Vec2, a: Vec2, b: Vec2| {
        let (d, e) = (q - p, b - a);
        let t = (a - p).perp_dot(e) / d.perp_dot(e);
        p + d * t
    };
    let mut out = subject.to_vec();
    for (a, b) in edges(window) {
        if out.is_empty() {
            break;
        }
        let input = std::mem::take(&mut out);
        for k in 0..input.len() {
            let (p, q) = (input[k], input[(k + 1) % input.len()]);
            match (inside(p, a, b), inside(q, a, b)) {
                (true, true) => out.push(q),
                (true, false) => out.push(cut(p, q, a, b)),
                (false, true) => {
                    out.push(cut(p, q, a, b));
                    out.push(q);
                }
                (false, false) => {}
            }
        }
    }
    out
}

/// Distance from `p` to the nearest edge of `polygon` (inches).
pub fn distance_to_boundary(polygon: &[Vec2], p: Vec2) -> f32 {
    edges(polygon)
        .map(|(a, b)| distance_to_segment(p, a, b))
        .fold(f32::INFINITY, f32::min)
}

fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// True when the open segments `a1`-`a2` and `b1`-`b2` cross at a single interior point.
pub fn segments_cross(a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2) -> bool {
    let d1 = cross(a2 - a1, b1 - a1);
    let d2 = cross(a2 - a1, b2 - a1);
    let d3 = cross(b2 - b1, a1 - b1);
    let d4 = cross(b2 - b1, a2 - b1);
    d1 * d2 < -1e-9 && d3 * d4 < -1e-9
}

/// True when the segment `a`-`b` passes through the interior of `polygon` (touching its
/// boundary or running along an edge does not count).
pub fn segment_enters(a: Vec2, b: Vec2, polygon: &[Vec2]) -> bool {
    let strictly_inside = |p: Vec2| contains(polygon, p) && distance_to_boundary(polygon, p) > 1e-5;
    if strictly_inside(a) || strictly_inside(b) {
        return true;
    }
    // Split the segment at every edge crossing and vertex touch; it enters the interior iff
    // the middle of some piece is strictly inside.
    let d = b - a;
    let len2 = d.length_squared();
    if len2 < 1e-12 {
        return false;
    }
    let mut cuts = vec![0.0f32, 1.0];
    for (p, q) in edges(polygon) {
        let e = q - p;
        let denom = cross(d, e);
        if denom.abs() > 1e-12 {
            let t = cross(p - a, e) / denom;
            let u = cross(p - a, d) / denom;
            if (0.0..=1.0).contains(&t) && (-1e-6..=1.0 + 1e-6).contains(&u) {
                cuts.push(t);
            }
        }
        let t = ((p - a).dot(d) / len2).clamp(0.0, 1.0);
        if (a + d * t).distance(p) < 1e-5 {
            cuts.push(t);
        }
    }
    cuts.sort_by(f32::total_cmp);
    cuts.windows(2)
        .any(|w| w[1] - w[0] > 1e-6 && strictly_inside(a + d * ((w[0] + w[1]) / 2.0)))
}

/// True when no two non-adjacent edges cross and the area is not zero.
pub fn is_simple(polygon: &[Vec2]) -> bool {
    let n = polygon.len();
    if n < 3 || signed_area(polygon).abs() < 1e-6 {
        return false;
    }
    let e: Vec<_> = edges(polygon).collect();
    for i in 0..n {
        for j in i + 1..n {
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            if !adjacent && segments_cross(e[i].0, e[i].1, e[j].0, e[j].1) {
                return false;
            }
        }
    }
    true
}

/// True when every turn of the polygon goes the same way (straight runs allowed).
pub fn is_convex(polygon: &[Vec2]) -> bool {
    let n = polygon.len();
    let sign = signed_area(polygon).signum();
    (0..n).all(|i| {
        let (a, b, c) = (polygon[i], polygon[(i + 1) % n], polygon[(i + 2) % n]);
        cross(b - a, c - b) * sign >= -1e-6
    })
}

/// Axis-aligned bounds (min, max).
pub fn bounds(polygon: &[Vec2]) -> (Vec2, Vec2) {
    polygon.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

/// Centre of area of a simple polygon.
pub fn centroid(polygon: &[Vec2]) -> Vec2 {
    let area = signed_area(polygon);
    if area.abs() < 1e-9 {
        return polygon.iter().copied().sum::<Vec2>() / polygon.len().max(1) as f32;
    }
    let sum = edges(polygon).fold(Vec2::ZERO, |acc, (a, b)| acc + (a + b) * cross(a, b));
    sum / (6.0 * area)
}

/// True when the two convex polygons overlap with positive area (separating axis test).
/// Touching edges do not count as overlap.
pub fn convex_overlap(a: &[Vec2], b: &[Vec2]) -> bool {
    for poly in [a, b] {
        for (p, q) in edges(poly) {
            let axis = Vec2::new(-(q - p).y, (q - p).x);
            let project = |s: &[Vec2]| {
                s.iter()
                    .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                        let d = v.dot(axis);
                        (lo.min(d), hi.max(d))
                    })
            };
            let (alo, ahi) = project(a);
            let (blo, bhi) = project(b);
            let eps = 1e-5 * axis.length();
            if ahi <= blo + eps || bhi <= alo + eps {
                return false;
            }
        }
    }
    true
}

/// True when every point of `inner` is inside `outer` (which may be concave).
pub fn polygon_wholly_within(inner: &[Vec2], outer: &[Vec2]) -> bool {
    inner.iter().all(|p| contains(outer, *p))
        && !edges(inner).any(|(a, b)| edges(outer).any(|(c, d)| segments_cross(a, b, c, d)))
}

/// True when any part of the two simple polygons overlap (or one holds the other).
pub fn polygons_intersect(a: &[Vec2], b: &[Vec2]) -> bool {
    a.iter().any(|p| contains(b, *p))
        || b.iter().any(|p| contains(a, *p))
        || edges(a).any(|(p, q)| edges(b).any(|(r, s)| segments_cross(p, q, r, s)))
}

/// Triangulates a simple polygon by ear clipping: indices into `polygon`, counter-clockwise.
/// Returns an empty list for a degenerate polygon.
pub fn triangulate(polygon: &[Vec2]) -> Vec<[usize; 3]> {
    let n = polygon.len();
    if n < 3 {
        return Vec::new();
    }
    let mut idx: Vec<usize> = (0..n).collect();
    if signed_area(polygon) < 0.0 {
        idx.reverse();
    }
    let mut out = Vec::with_capacity(n - 2);
    let mut guard = 0;
    while idx.len() > 3 && guard < n * n {
        guard += 1;
        let m = idx.len();
        let mut clipped = false;
        for i in 0..m {
            let (ia, ib, ic) = (idx[(i + m - 1) % m], idx[i], idx[(i + 1) % m]);
            let (a, b, c) = (polygon[ia], polygon[ib], polygon[ic]);
            if cross(b - a, c - b) <= 1e-9 {
                continue;
            }
            let ear = idx
                .iter()
                .all(|&j| j == ia || j == ib || j == ic || !point_in_triangle(polygon[j], a, b, c));
            if ear {
                out.push([ia, ib, ic]);
                idx.remove(i);
                clipped = true;
                break;
            }
        }
        if !clipped {
            break;
        }
    }
    if idx.len() == 3 {
        out.push([idx[0], idx[1], idx[2]]);
    }
    out
}

fn point_in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    let d1 = cross(b - a, p - a);
    let d2 = cross(c - b, p - b);
    let d3 = cross(a - c, p - c);
    d1 >= 0.0 && d2 >= 0.0 && d3 >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f32, y0: f32, s: f32) -> Vec<Vec2> {
        vec![
            Vec2::new(x0, y0),
            Vec2::new(x0 + s, y0),
            Vec2::new(x0 + s, y0 + s),
            Vec2::new(x0, y0 + s),
        ]
    }

    fn l_shape() -> Vec<Vec2> {
        [(0., 0.), (4., 0.), (4., 1.), (1., 1.), (1., 4.), (0., 4.)]
            .map(|(x, y)| Vec2::new(x, y))
            .to_vec()
    }

    #[test]
    fn area_and_containment() {
        let sq = square(0.0, 0.0, 2.0);
        assert_eq!(signed_area(&sq), 4.0);
        assert!(contains(&sq, Vec2::new(1.0, 1.0)));
        assert!(
            contains(&sq, Vec2::new(2.0, 1.0)),
            "boundary counts as inside"
        );
        assert!(!contains(&sq, Vec2::new(2.5, 1.0)));
        assert!(
            !contains(&l_shape(), Vec2::new(3.0, 3.0)),
            "the notch of the L"
        );
    }

    #[test]
    fn triangulation_covers_concave_area() {
        let l = l_shape();
        let tris = triangulate(&l);
        assert_eq!(tris.len(), 4);
        let area: f32 = tris
            .iter()
            .map(|t| signed_area(&[l[t[0]], l[t[1]], l[t[2]]]))
            .sum();
        assert!((area - signed_area(&l)).abs() < 1e-4, "area {area}");
    }

    #[test]
    fn overlap_and_within() {
        let a = square(0.0, 0.0, 2.0);
        assert!(convex_overlap(&a, &square(1.0, 1.0, 2.0)));
        assert!(!convex_overlap(&a, &square(2.0, 0.0, 2.0)), "touching only");
        assert!(polygon_wholly_within(&square(0.5, 0.5, 0.5), &a));
        assert!(polygon_wholly_within(&square(0.2, 2.5, 0.5), &l_shape()));
        // Every corner inside the L, but the edges cut across its notch.
        let diagonal =
            [(3.5, 0.5), (3.9, 0.5), (0.9, 3.9), (0.5, 3.5)].map(|(x, y)| Vec2::new(x, y));
        assert!(!polygon_wholly_within(&diagonal, &l_shape()));
        assert!(!polygon_wholly_within(&square(0.5, 0.5, 3.0), &l_shape()));
    }

    #[test]
    fn segment_enters_only_through_the_interior() {
        let sq = square(0.0, 0.0, 2.0);
        assert!(segment_enters(
            Vec2::new(-1.0, 1.0),
            Vec2::new(3.0, 1.0),
            &sq
        ));
        assert!(
            segment_enters(Vec2::new(1.0, 1.0), Vec2::new(3.0, 1.0), &sq),
            "from inside"
        );
        assert!(
            !segment_enters(Vec2::new(-1.0, 2.0), Vec2::new(3.0, 2.0), &sq),
            "along an edge"
        );
        assert!(!segment_enters(
            Vec2::new(-1.0, 3.0),
            Vec2::new(1.0, 1.0 + 2.0 * 0.999),
            &sq
        ));
        assert!(
            !segment_enters(Vec2::new(-1.0, 1.0), Vec2::new(1.0, 3.0), &sq),
            "corner touch"
        );
        assert!(
            !segment_enters(Vec2::new(2.0, 2.0), Vec2::new(3.0, 3.0), &l_shape()),
            "notch"
        );
        assert!(segment_enters(
            Vec2::new(2.0, 2.0),
            Vec2::new(2.0, 0.5),
            &l_shape()
        ));
    }

    #[test]
    fn self_intersecting_polygon_is_not_simple() {
        let bow = [(0., 0.), (2., 2.), (2., 0.), (0., 2.)].map(|(x, y)| Vec2::new(x, y));
        assert!(!is_simple(&bow));
        assert!(is_simple(&l_shape()));
    }
}
