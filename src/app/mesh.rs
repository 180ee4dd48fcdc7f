//! Meshes built from table polygons: flat areas and extruded prisms (z up).

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use crate::geometry::{Vec2, polygon};

/// A prism over `outline` (inches) from z = 0 to `height`: top, bottom and sides with flat
/// normals. A `height` of 0 gives only the top face.
pub fn prism(outline: &[Vec2], height: f32) -> Mesh {
    let mut ccw = outline.to_vec();
    if polygon::signed_area(&ccw) < 0.0 {
        ccw.reverse();
    }
    let tris = polygon::triangulate(&ccw);
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let mut face = |pts: &[Vec3], normal: Vec3, tris: &[[usize; 3]]| {
        let base = positions.len() as u32;
        positions.extend(pts.iter().map(|p| p.to_array()));
        normals.extend(std::iter::repeat_n(normal.to_array(), pts.len()));
        for t in tris {
            indices.extend(t.iter().map(|i| base + *i as u32));
        }
    };
    let top: Vec<Vec3> = ccw.iter().map(|p| Vec3::new(p.x, p.y, height)).collect();
    face(&top, Vec3::Z, &tris);
    if height > 0.0 {
        let bottom: Vec<Vec3> = ccw.iter().map(|p| Vec3::new(p.x, p.y, 0.0)).collect();
        let flipped: Vec<[usize; 3]> = tris.iter().map(|t| [t[0], t[2], t[1]]).collect();
        face(&bottom, -Vec3::Z, &flipped);
        for (a, b) in polygon::edges(&ccw) {
            let normal = Vec3::new((b - a).y, -(b - a).x, 0.0).normalize_or_zero();
            let quad = [
                Vec3::new(a.x, a.y, 0.0),
                Vec3::new(b.x, b.y, 0.0),
                Vec3::new(b.x, b.y, height),
                Vec3::new(a.x, a.y, height),
            ];
            face(&quad, normal, &[[0, 1, 2], [0, 2, 3]]);
        }
    }
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_indices(Indices::U32(indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_prism_has_top_bottom_and_four_sides() {
        let sq = [(0., 0.), (1., 0.), (1., 1.), (0., 1.)].map(|(x, y)| Vec2::new(x, y));
        let mesh = prism(&sq, 2.0);
        // 2 triangles top, 2 bottom, 2 per side.
        assert_eq!(mesh.indices().unwrap().len(), 3 * (2 + 2 + 8));
        let flat = prism(&sq, 0.0);
        assert_eq!(flat.indices().unwrap().len(), 6);
    }
}
