//! 180° rotational symmetry about the table centre, the symmetry of every Chapter Approved
//! layout: finding each piece's partner, mirroring pieces and objectives, and checking that a
//! layout is its own 180° image.

use super::{MIRROR_TOLERANCE_INCHES, normalize_degrees};
use crate::data::layout::{LayoutFile, PieceSpec};
use crate::geometry::{Point, TerrainPiece, Vec2, Wall};
use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
use crate::rules::mission::ObjectiveMarker;

/// The centre of the table (inches), the centre of the 180° rotation.
pub fn table_centre() -> Vec2 {
    Vec2::new(BOARD_WIDTH_INCHES / 2.0, BOARD_DEPTH_INCHES / 2.0)
}

/// `p` turned 180° about the table centre.
pub fn rotate_point(p: Vec2) -> Vec2 {
    2.0 * table_centre() - p
}

/// `piece` turned 180° about the table centre, under the id `id`: its centre moves to the
/// rotated point and it turns by 180°; its local shape is unchanged.
pub fn mirrored_piece(piece: &PieceSpec, id: String) -> PieceSpec {
    let at = rotate_point(piece.at.vec());
    PieceSpec {
        id,
        at: Point(at.x, at.y),
        rotation: normalize_degrees(piece.rotation + 180.0),
        ..piece.clone()
    }
}

/// `objective` turned 180° about the table centre, under the id `id`.
pub fn mirrored_objective(objective: &ObjectiveMarker, id: String) -> ObjectiveMarker {
    let at = rotate_point(objective.at.vec());
    ObjectiveMarker {
        id,
        at: Point(at.x, at.y),
        ..objective.clone()
    }
}

/// The id given to the mirror copy of `id`: `id-m`, or `id` without its `-m`.
pub fn mirror_id(id: &str) -> String {
    id.strip_suffix("-m")
        .map_or_else(|| format!("{id}-m"), str::to_string)
}

pub use crate::data::source::unique_id;

fn near(a: Vec2, b: Vec2) -> bool {
    a.distance(b) <= MIRROR_TOLERANCE_INCHES
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= MIRROR_TOLERANCE_INCHES
}

/// Same points, in any order (each point of `a` has one of `b` within the tolerance).
fn same_points(a: &[Vec2], b: &[Vec2]) -> bool {
    a.len() == b.len()
        && a.iter().all(|p| b.iter().any(|q| near(*p, *q)))
        && b.iter().all(|p| a.iter().any(|q| near(*p, *q)))
}

fn same_wall(a: &Wall, b: &Wall) -> bool {
    if !(close(a.height, b.height) && close(a.thickness, b.thickness)) {
        return false;
    }
    let along = |w: &Wall, flip: bool| {
        let l = w.length();
        let mut v: Vec<[f32; 4]> = w
            .windows
            .iter()
            .map(|o| {
                let (s, e) = if flip {
                    (l - o.end, l - o.start)
                } else {
                    (o.start, o.end)
                };
                [s, e, o.bottom, o.top]
            })
            .collect();
        v.sort_by(|x, y| x[0].total_cmp(&y[0]).then(x[2].total_cmp(&y[2])));
        v
    };
    let windows_match = |flip: bool| {
        let (x, y) = (along(a, false), along(b, flip));
        x.len() == y.len()
            && x.iter()
                .zip(&y)
                .all(|(p, q)| p.iter().zip(q).all(|(u, v)| close(*u, *v)))
    };
    (near(a.start, b.start) && near(a.end, b.end) && windows_match(false))
        || (near(a.start, b.end) && near(a.end, b.start) && windows_match(true))
}

/// True when the resolved pieces `a` and `b` occupy the same place with the same category,
/// height, walls (and openings) and floors.
pub fn same_piece(a: &TerrainPiece, b: &TerrainPiece) -> bool {
    a.category == b.category
        && close(a.height, b.height)
        && same_points(&a.footprint, &b.footprint)
        && a.walls.len() == b.walls.len()
        && a.walls
            .iter()
            .all(|w| b.walls.iter().any(|v| same_wall(w, v)))
        && a.floors.len() == b.floors.len()
        && a.floors.iter().all(|f| {
            b.floors
                .iter()
                .any(|g| close(f.height, g.height) && same_points(&f.area, &g.area))
        })
}

/// The index of the piece of `layout` that is the 180° image of piece `index` (possibly
/// `index` itself, for a piece that is its own image), preferring another piece.
pub fn partner(layout: &LayoutFile, index: usize) -> Option<usize> {
    let image = mirrored_piece(&layout.pieces[index], String::new()).resolve();
    let resolved: Vec<TerrainPiece> = layout.pieces.iter().map(PieceSpec::resolve).collect();
    let matches = |j: &usize| same_piece(&image, &resolved[*j]);
    (0..layout.pieces.len())
        .filter(|j| *j != index)
        .find(matches)
        .or_else(|| Some(index).filter(matches))
}

/// The index of the objective that is the 180° image of objective `index` (possibly itself).
pub fn objective_partner(objectives: &[ObjectiveMarker], index: usize) -> Option<usize> {
    let image = rotate_point(objectives[index].at.vec());
    let matches = |j: &usize| near(objectives[*j].at.vec(), image);
    (0..objectives.len())
        .filter(|j| *j != index)
        .find(matches)
        .or_else(|| Some(index).filter(matches))
}

/// True when piece `index` is its own 180° image.
pub fn self_symmetric(piece: &PieceSpec) -> bool {
    same_piece(
        &mirrored_piece(piece, String::new()).resolve(),
        &piece.resolve(),
    )
}

/// The ids of the pieces (then the objectives) that have no 180° image in the layout, each
/// image used once. Empty when the layout is its own 180° image.
pub fn unmatched(layout: &LayoutFile) -> Vec<String> {
    let resolved: Vec<TerrainPiece> = layout.pieces.iter().map(PieceSpec::resolve).collect();
    let images: Vec<TerrainPiece> = layout
        .pieces
        .iter()
        .map(|p| mirrored_piece(p, String::new()).resolve())
        .collect();
    let mut used = vec![false; resolved.len()];
    let mut out = Vec::new();
    for (i, image) in images.iter().enumerate() {
        // Each piece stands as the image of exactly one piece (possibly itself).
        let j = (0..resolved.len()).find(|&j| !used[j] && same_piece(image, &resolved[j]));
        match j {
            Some(j) => used[j] = true,
            None => out.push(layout.pieces[i].id.clone()),
        }
    }
    let objs = &layout.objectives;
    for (i, o) in objs.iter().enumerate() {
        if objective_partner(objs, i).is_none() {
            out.push(o.id.clone());
        }
    }
    out
}

/// Adds the missing 180° images: for each piece and objective marker of `layout` that
/// [`unmatched`] lists, its image (id with `-m`, made unique). Afterwards the layout is its
/// own image ([`is_symmetric`]). Returns how many were added. What turning mirror mode on
/// does, so that every later edit has an image to move.
pub fn complete_images(layout: &mut LayoutFile) -> usize {
    let missing = unmatched(layout);
    let mut added = 0;
    for id in &missing {
        if let Some(piece) = layout.pieces.iter().find(|p| &p.id == id).cloned() {
            let image_id = unique_id(&mirror_id(id), layout.pieces.iter().map(|p| p.id.as_str()));
            layout.pieces.push(mirrored_piece(&piece, image_id));
            added += 1;
        } else if let Some(o) = layout.objectives.iter().find(|o| &o.id == id).cloned() {
            let at = rotate_point(o.at.vec());
            let image_id = unique_id(
                &mirror_id(id),
                layout.objectives.iter().map(|o| o.id.as_str()),
            );
            layout.objectives.push(ObjectiveMarker {
                id: image_id,
                at: Point(at.x, at.y),
                z: o.z,
            });
            added += 1;
        }
    }
    added
}

/// True when `layout` (pieces and its own objectives) is its own 180° image.
pub fn is_symmetric(layout: &LayoutFile) -> bool {
    unmatched(layout).is_empty()
}

/// Which half of the table [`mirror_layout`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// x < 30".
    West,
    /// x > 30".
    East,
    /// y < 22".
    South,
    /// y > 22".
    North,
}

impl Half {
    /// True when `p` lies in this half; a point on the dividing line counts for the half
    /// holding its lower (West/East) or left (South/North) end, so that exactly one of a point
    /// and its image is kept.
    pub fn holds(self, p: Vec2) -> bool {
        let c = table_centre();
        let (d, tie) = match self {
            Half::West => (c.x - p.x, c.y - p.y),
            Half::East => (p.x - c.x, p.y - c.y),
            Half::South => (c.y - p.y, p.x - c.x),
            Half::North => (p.y - c.y, c.x - p.x),
        };
        d > MIRROR_TOLERANCE_INCHES || (d.abs() <= MIRROR_TOLERANCE_INCHES && tie >= 0.0)
    }
}

/// A symmetric layout made from one half of `layout`: the pieces (and objectives) whose
/// centres lie in `keep`, each with its 180° image added (`id-m`), except those that are
/// their own image.
pub fn mirror_layout(layout: &LayoutFile, keep: Half) -> LayoutFile {
    let mut out = LayoutFile {
        pieces: Vec::new(),
        objectives: Vec::new(),
        ..layout.clone()
    };
    for p in layout.pieces.iter().filter(|p| keep.holds(p.at.vec())) {
        out.pieces.push(p.clone());
    }
    // (original id, image id) of each piece imaged.
    let mut image_of: Vec<(String, String)> = Vec::new();
    for i in 0..out.pieces.len() {
        if !self_symmetric(&out.pieces[i]) {
            let id = unique_id(
                &mirror_id(&out.pieces[i].id),
                layout
                    .pieces
                    .iter()
                    .chain(&out.pieces)
                    .map(|p| p.id.as_str()),
            );
            image_of.push((out.pieces[i].id.clone(), id.clone()));
            let copy = mirrored_piece(&out.pieces[i], id);
            out.pieces.push(copy);
        }
    }
    // 11th edition areas and categories follow their pieces: kept with them, and imaged with
    // their images (an area keeps only the pieces left in the kept half).
    let held = |id: &String| out.pieces.iter().any(|p| &p.id == id);
    out.categories.retain(|id, _| held(id));
    for (original, image) in &image_of {
        if let Some(c) = layout.categories.get(original) {
            out.categories.insert(image.clone(), *c);
        }
    }
    let mut areas = Vec::new();
    for a in &layout.areas {
        let pieces: Vec<String> = a.pieces.iter().filter(|id| held(id)).cloned().collect();
        if pieces.is_empty() {
            continue;
        }
        let images: Vec<String> = pieces
            .iter()
            .filter_map(|id| {
                image_of
                    .iter()
                    .find(|(o, _)| o == id)
                    .map(|(_, m)| m.clone())
            })
            .collect();
        areas.push(crate::data::layout::AreaSpec {
            pieces,
            ..a.clone()
        });
        if !images.is_empty() {
            let taken: Vec<&str> = layout.areas.iter().map(|x| x.id.as_str()).collect();
            areas.push(crate::data::layout::AreaSpec {
                id: unique_id(&mirror_id(&a.id), taken.into_iter()),
                pieces: images,
                outline: a.outline.as_ref().map(|o| {
                    o.iter()
                        .map(|p| crate::geometry::Point::from(rotate_point(p.vec())))
                        .collect()
                }),
                objective: None,
            });
        }
    }
    out.areas = areas;
    for o in layout.objectives.iter().filter(|o| keep.holds(o.at.vec())) {
        out.objectives.push(o.clone());
    }
    for i in 0..out.objectives.len() {
        let o = &out.objectives[i];
        if !near(rotate_point(o.at.vec()), o.at.vec()) {
            let id = unique_id(
                &mirror_id(&o.id),
                out.objectives.iter().map(|o| o.id.as_str()),
            );
            let copy = mirrored_objective(o, id);
            out.objectives.push(copy);
        }
    }
    out
}
