//! Editing a layout: new pieces of every category, moving, turning and resizing them, and the
//! mirror mode in which the 180° image of every edited piece or objective follows it; undo and
//! redo.

use super::mirror::{
    mirror_id, mirrored_objective, mirrored_piece, objective_partner, partner, self_symmetric,
    unique_id,
};
use super::{GRID_SNAP_INCHES, ROTATION_SNAP_DEGREES};
use crate::data::layout::{
    DEFAULT_WALL_THICKNESS_INCHES, FloorSpec, LayoutFile, PieceSpec, Shape, WallSpec,
};
use crate::geometry::{Point, TerrainCategory, Vec2, Window};
use crate::rules::mission::ObjectiveMarker;

/// `v` rounded to the nearest multiple of `step` (the editor's grid and angle snap).
pub fn snap(v: f32, step: f32) -> f32 {
    (v / step).round() * step
}

/// `at` snapped to the [`GRID_SNAP_INCHES`] grid.
pub fn snap_point(at: Point) -> Point {
    Point(snap(at.0, GRID_SNAP_INCHES), snap(at.1, GRID_SNAP_INCHES))
}

/// `degrees` snapped to [`ROTATION_SNAP_DEGREES`] steps, in 0..360.
pub fn snap_rotation(degrees: f32) -> f32 {
    super::normalize_degrees(snap(degrees, ROTATION_SNAP_DEGREES))
}

/// Height of the walls of a new ruin (inches).
pub const NEW_RUIN_WALL_HEIGHT_INCHES: f32 = 5.0;
/// Height of the upper floor of a new ruin (inches).
pub const NEW_RUIN_FLOOR_HEIGHT_INCHES: f32 = 3.0;

/// A new piece of `category` centred at `at`, with the sizes of a typical tournament piece:
/// a 10" x 6" ruin with an L of 5" walls with ground and upper openings and a 3" floor over
/// half its footprint; a 10" x 6" low footprint; 8" x 6" woods; a 5" x 5" crater; a 6" x 1"
/// barricade 1" high; a 10" x 8" hill 2" high; a 3" x 2" debris 2" high.
pub fn new_piece(category: TerrainCategory, id: String, at: Point) -> PieceSpec {
    let (w, d, height) = match category {
        TerrainCategory::Ruin => (10.0, 6.0, 0.0),
        TerrainCategory::LowFootprint => (10.0, 6.0, 0.0),
        TerrainCategory::Woods => (8.0, 6.0, 4.0),
        TerrainCategory::Crater => (5.0, 5.0, 0.0),
        TerrainCategory::Barricade => (6.0, 1.0, 1.0),
        TerrainCategory::Hill => (10.0, 8.0, 2.0),
        TerrainCategory::Debris => (3.0, 2.0, 2.0),
    };
    let mut piece = PieceSpec {
        id,
        category,
        at,
        rotation: 0.0,
        footprint: Shape::Rect(w, d),
        height,
        walls: Vec::new(),
        floors: Vec::new(),
    };
    if category == TerrainCategory::Ruin {
        let h = NEW_RUIN_WALL_HEIGHT_INCHES;
        let openings = |len: f32| {
            let mid = len / 2.0;
            vec![
                Window {
                    start: mid - 0.75,
                    end: mid + 0.75,
                    bottom: 0.75,
                    top: 2.25,
                },
                Window {
                    start: mid - 0.75,
                    end: mid + 0.75,
                    bottom: 3.5,
                    top: 4.5,
                },
            ]
        };
        let (hx, hy) = (w / 2.0 - 0.125, d / 2.0 - 0.125);
        piece.walls = vec![
            WallSpec {
                from: Point(-hx, hy),
                to: Point(hx, hy),
                height: h,
                thickness: DEFAULT_WALL_THICKNESS_INCHES,
                windows: openings(2.0 * hx),
            },
            WallSpec {
                from: Point(hx, -hy),
                to: Point(hx, hy),
                height: h,
                thickness: DEFAULT_WALL_THICKNESS_INCHES,
                windows: openings(2.0 * hy),
            },
        ];
        piece.floors = vec![FloorSpec {
            height: NEW_RUIN_FLOOR_HEIGHT_INCHES,
            area: Some(Shape::Polygon(vec![
                Point(-w / 2.0, 0.0),
                Point(w / 2.0, 0.0),
                Point(w / 2.0, d / 2.0),
                Point(-w / 2.0, d / 2.0),
            ])),
        }];
    }
    piece
}

/// Width and depth of a piece's footprint in its own frame (inches): the extent of its
/// vertices.
pub fn footprint_size(piece: &PieceSpec) -> (f32, f32) {
    let v = piece.footprint.vertices();
    let span = |f: fn(&crate::geometry::Vec2) -> f32| {
        let (lo, hi) = v
            .iter()
            .map(f)
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), x| {
                (l.min(x), h.max(x))
            });
        (hi - lo).max(0.0)
    };
    (span(|p| p.x), span(|p| p.y))
}

/// `piece` scaled in its own frame to `width` x `depth` inches: the footprint, wall ends,
/// openings (along the wall) and floor areas scale with it; heights do not change.
pub fn resized(piece: &PieceSpec, width: f32, depth: f32) -> PieceSpec {
    let (w0, d0) = footprint_size(piece);
    let (sx, sy) = (width / w0.max(1e-3), depth / d0.max(1e-3));
    let scale = |p: Point| Point(p.0 * sx, p.1 * sy);
    let shape = |s: &Shape| match s {
        Shape::Rect(w, d) => Shape::Rect(w * sx, d * sy),
        Shape::Polygon(points) => Shape::Polygon(points.iter().map(|p| scale(*p)).collect()),
    };
    let mut out = piece.clone();
    out.footprint = shape(&piece.footprint);
    out.walls = piece
        .walls
        .iter()
        .map(|w| {
            let (from, to) = (scale(w.from), scale(w.to));
            let old = w.from.vec().distance(w.to.vec()).max(1e-3);
            let k = from.vec().distance(to.vec()) / old;
            WallSpec {
                from,
                to,
                windows: w
                    .windows
                    .iter()
                    .map(|o| Window {
                        start: o.start * k,
                        end: o.end * k,
                        ..*o
                    })
                    .collect(),
                ..w.clone()
            }
        })
        .collect();
    out.floors = piece
        .floors
        .iter()
        .map(|f| FloorSpec {
            height: f.height,
            area: f.area.as_ref().map(shape),
        })
        .collect();
    out
}

/// `piece` with its body (no walls) or walls at `height` inches; openings and floors above
/// the new wall height are dropped.
pub fn with_height(piece: &PieceSpec, height: f32) -> PieceSpec {
    let mut out = piece.clone();
    if piece.walls.is_empty() {
        out.height = height;
        return out;
    }
    for w in &mut out.walls {
        w.height = height;
        w.windows.retain(|o| o.top <= height);
    }
    out.floors.retain(|f| f.height < height);
    out
}

/// Where a new piece goes: the point of a 1" grid nearest `preferred` where its footprint is
/// wholly on the table and overlaps no piece of `layout` (by more than
/// [`crate::design::validate::OVERLAP_AREA_TOLERANCE_SQ_INCHES`]); in `mirror` mode its 180°
/// image must be clear too, of the other pieces and of the piece. `preferred` when the table
/// has no such point.
pub fn free_spot(layout: &LayoutFile, piece: &PieceSpec, preferred: Point, mirror: bool) -> Point {
    use crate::design::mirror::rotate_point;
    use crate::design::validate::{OVERLAP_AREA_TOLERANCE_SQ_INCHES, overlap_area};
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    let others: Vec<Vec<Vec2>> = layout
        .pieces
        .iter()
        .map(|p| p.resolve().footprint)
        .collect();
    let clear = |footprint: &[Vec2]| {
        footprint.iter().all(|v| crate::data::check::on_board(*v))
            && others
                .iter()
                .all(|o| overlap_area(footprint, o) <= OVERLAP_AREA_TOLERANCE_SQ_INCHES)
    };
    let mut spots: Vec<Point> = Vec::new();
    for y in 0..=BOARD_DEPTH_INCHES as i32 {
        for x in 0..=BOARD_WIDTH_INCHES as i32 {
            spots.push(Point(x as f32, y as f32));
        }
    }
    spots.sort_by(|a, b| {
        a.vec()
            .distance(preferred.vec())
            .total_cmp(&b.vec().distance(preferred.vec()))
    });
    spots
        .into_iter()
        .find(|at| {
            let mut moved = piece.clone();
            moved.at = *at;
            let footprint = moved.resolve().footprint;
            if !clear(&footprint) {
                return false;
            }
            if !mirror {
                return true;
            }
            let image: Vec<Vec2> = footprint.iter().map(|v| rotate_point(*v)).collect();
            clear(&image) && overlap_area(&footprint, &image) <= OVERLAP_AREA_TOLERANCE_SQ_INCHES
        })
        .unwrap_or(preferred)
}

/// Puts `piece` into `layout` at `index` (replacing it) or at the end (`None`), and returns
/// its index. In `mirror` mode the 180° image follows: the piece's partner (found before the
/// edit) is replaced by the image of the new piece, one is added when it had none, and a
/// partner is removed when the new piece is its own image.
pub fn put_piece(
    layout: &mut LayoutFile,
    index: Option<usize>,
    piece: PieceSpec,
    mirror: bool,
) -> usize {
    let before = index.and_then(|i| partner(layout, i));
    let i = match index {
        Some(i) => {
            layout.pieces[i] = piece;
            i
        }
        None => {
            layout.pieces.push(piece);
            layout.pieces.len() - 1
        }
    };
    if !mirror {
        return i;
    }
    let own = self_symmetric(&layout.pieces[i]);
    match before {
        Some(j) if j != i => {
            if own {
                layout.pieces.remove(j);
                return if j < i { i - 1 } else { i };
            }
            let id = layout.pieces[j].id.clone();
            layout.pieces[j] = mirrored_piece(&layout.pieces[i], id);
        }
        _ if !own => {
            let id = unique_id(
                &mirror_id(&layout.pieces[i].id),
                layout.pieces.iter().map(|p| p.id.as_str()),
            );
            let image = mirrored_piece(&layout.pieces[i], id);
            layout.pieces.push(image);
        }
        _ => {}
    }
    i
}

/// Removes piece `index` (and, in `mirror` mode, its 180° image).
pub fn remove_piece(layout: &mut LayoutFile, index: usize, mirror: bool) {
    let other = if mirror { partner(layout, index) } else { None };
    let mut gone = vec![index];
    gone.extend(other.filter(|j| *j != index));
    gone.sort_unstable();
    for k in gone.into_iter().rev() {
        layout.pieces.remove(k);
    }
}

/// Puts `objective` into the layout's own markers at `index` or at the end, returning its
/// index; in `mirror` mode its 180° image follows as for [`put_piece`].
pub fn put_objective(
    layout: &mut LayoutFile,
    index: Option<usize>,
    objective: ObjectiveMarker,
    mirror: bool,
) -> usize {
    let before = index.and_then(|i| objective_partner(&layout.objectives, i));
    let list = &mut layout.objectives;
    let i = match index {
        Some(i) => {
            list[i] = objective;
            i
        }
        None => {
            list.push(objective);
            list.len() - 1
        }
    };
    if !mirror {
        return i;
    }
    let at = list[i].at.vec();
    let own = super::mirror::rotate_point(at).distance(at) <= super::MIRROR_TOLERANCE_INCHES;
    match before {
        Some(j) if j != i => {
            if own {
                list.remove(j);
                return if j < i { i - 1 } else { i };
            }
            let id = list[j].id.clone();
            list[j] = mirrored_objective(&list[i], id);
        }
        _ if !own => {
            let id = unique_id(&mirror_id(&list[i].id), list.iter().map(|o| o.id.as_str()));
            let image = mirrored_objective(&list[i], id);
            list.push(image);
        }
        _ => {}
    }
    i
}

/// Removes objective `index` (and, in `mirror` mode, its 180° image).
pub fn remove_objective(layout: &mut LayoutFile, index: usize, mirror: bool) {
    let other = if mirror {
        objective_partner(&layout.objectives, index)
    } else {
        None
    };
    let mut gone = vec![index];
    gone.extend(other.filter(|j| *j != index));
    gone.sort_unstable();
    for k in gone.into_iter().rev() {
        layout.objectives.remove(k);
    }
}

/// Undo and redo: whole snapshots of the edited value, newest last.
#[derive(Debug, Clone)]
pub struct History<T> {
    undo: Vec<T>,
    redo: Vec<T>,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }
}

/// Most snapshots kept for undo.
pub const HISTORY_LIMIT: usize = 200;

impl<T: Clone + PartialEq> History<T> {
    /// Records `before`, the value as it was before an edit; clears the redo list. A value
    /// equal to the last recorded one is not recorded twice.
    pub fn record(&mut self, before: &T) {
        if self.undo.last() != Some(before) {
            self.undo.push(before.clone());
            if self.undo.len() > HISTORY_LIMIT {
                self.undo.remove(0);
            }
        }
        self.redo.clear();
    }

    /// Steps `current` back to the last recorded value; false when there is none.
    pub fn undo(&mut self, current: &mut T) -> bool {
        match self.undo.pop() {
            Some(v) => {
                self.redo.push(std::mem::replace(current, v));
                true
            }
            None => false,
        }
    }

    /// Re-applies the last undone edit; false when there is none.
    pub fn redo(&mut self, current: &mut T) -> bool {
        match self.redo.pop() {
            Some(v) => {
                self.undo.push(std::mem::replace(current, v));
                true
            }
            None => false,
        }
    }

    /// How many steps can be undone and redone.
    pub fn depth(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }
}

/// A side of a piece's footprint rectangle, in its own frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// +y.
    North,
    /// +x.
    East,
    /// -y.
    South,
    /// -x.
    West,
}

impl Side {
    /// Every side.
    pub const ALL: [Side; 4] = [Side::North, Side::East, Side::South, Side::West];
}

/// `piece` with a new wall along `side` of its footprint's bounding rectangle, set in by half
/// the wall thickness, as tall as its other walls (else [`NEW_RUIN_WALL_HEIGHT_INCHES`]), with
/// no openings.
pub fn with_wall(piece: &PieceSpec, side: Side) -> PieceSpec {
    let (w, d) = footprint_size(piece);
    let t = DEFAULT_WALL_THICKNESS_INCHES;
    let (hx, hy) = (w / 2.0 - t / 2.0, d / 2.0 - t / 2.0);
    let (from, to) = match side {
        Side::North => (Point(-hx, hy), Point(hx, hy)),
        Side::East => (Point(hx, -hy), Point(hx, hy)),
        Side::South => (Point(-hx, -hy), Point(hx, -hy)),
        Side::West => (Point(-hx, -hy), Point(-hx, hy)),
    };
    let height = piece
        .walls
        .first()
        .map_or(NEW_RUIN_WALL_HEIGHT_INCHES, |w| w.height);
    let mut out = piece.clone();
    out.walls.push(WallSpec {
        from,
        to,
        height,
        thickness: t,
        windows: Vec::new(),
    });
    out
}

/// `piece` with a ground and an upper opening (1.5" wide, 0.75-2.25" and 3.5-4.5" up, as on
/// the Chapter Approved ruins; the upper one only where the wall is tall enough) added to wall
/// `wall` in the widest gap between its openings. Unchanged when no 1.5" gap is left.
pub fn with_opening(piece: &PieceSpec, wall: usize) -> PieceSpec {
    let mut out = piece.clone();
    let Some(w) = out.walls.get_mut(wall) else {
        return out;
    };
    let length = w.from.vec().distance(w.to.vec());
    let mut edges: Vec<(f32, f32)> = w.windows.iter().map(|o| (o.start, o.end)).collect();
    edges.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut gaps = Vec::new();
    let mut at = 0.0f32;
    for (s, e) in edges {
        gaps.push((at, s));
        at = at.max(e);
    }
    gaps.push((at, length));
    let Some((a, b)) = gaps
        .into_iter()
        .filter(|(a, b)| b - a >= 2.0)
        .max_by(|x, y| (x.1 - x.0).total_cmp(&(y.1 - y.0)))
    else {
        return out;
    };
    let mid = (a + b) / 2.0;
    let (start, end) = (mid - 0.75, mid + 0.75);
    w.windows.push(Window {
        start,
        end,
        bottom: 0.75,
        top: 2.25,
    });
    if w.height >= 4.5 {
        w.windows.push(Window {
            start,
            end,
            bottom: 3.5,
            top: 4.5,
        });
    }
    out
}

/// `piece` without the openings of wall `wall`.
pub fn without_openings(piece: &PieceSpec, wall: usize) -> PieceSpec {
    let mut out = piece.clone();
    if let Some(w) = out.walls.get_mut(wall) {
        w.windows.clear();
    }
    out
}

/// `piece` without wall `wall`.
pub fn without_wall(piece: &PieceSpec, wall: usize) -> PieceSpec {
    let mut out = piece.clone();
    if wall < out.walls.len() {
        out.walls.remove(wall);
    }
    out
}

/// `piece` with one upper floor `height` inches up over its whole footprint (replacing its
/// floors), or with none.
pub fn with_floor(piece: &PieceSpec, height: Option<f32>) -> PieceSpec {
    let mut out = piece.clone();
    out.floors = height
        .map(|h| FloorSpec {
            height: h,
            area: None,
        })
        .into_iter()
        .collect();
    out
}

/// Sets the 11th edition category of piece `id`: the kind's default clears the layout's
/// override, any other category records one (11th Core Rules 13.02-13.05).
pub fn with_feature_category(
    layout: &mut LayoutFile,
    id: &str,
    category: crate::geometry::FeatureCategory,
) {
    let default = layout
        .pieces
        .iter()
        .find(|p| p.id == id)
        .map(|p| p.category.default_feature_category());
    if default == Some(category) {
        layout.categories.remove(id);
    } else {
        layout.categories.insert(id.to_string(), category);
    }
}

/// The id of the layout's own terrain area that holds piece `id`, if one does (else the piece
/// is an area of its own).
pub fn area_of<'a>(layout: &'a LayoutFile, id: &str) -> Option<&'a str> {
    layout
        .areas
        .iter()
        .find(|a| a.pieces.iter().any(|p| p == id))
        .map(|a| a.id.as_str())
}

/// Puts piece `id` into the layout's terrain area `area` (created, with its outline the hull of
/// its pieces, when there is none of that id), or with `None` back into an area of its own;
/// areas left with no piece are removed (11th Core Rules 13.01).
pub fn into_area(layout: &mut LayoutFile, id: &str, area: Option<&str>) {
    for a in &mut layout.areas {
        a.pieces.retain(|p| p != id);
    }
    if let Some(area) = area {
        match layout.areas.iter_mut().find(|a| a.id == area) {
            Some(a) => a.pieces.push(id.to_string()),
            None => layout.areas.push(crate::data::layout::AreaSpec {
                id: area.to_string(),
                pieces: vec![id.to_string()],
                outline: None,
                objective: None,
            }),
        }
    }
    layout.areas.retain(|a| !a.pieces.is_empty());
}

/// An area id not yet used by the layout's areas or pieces: `area-1`, `area-2`...
pub fn new_area_id(layout: &LayoutFile) -> String {
    (1..)
        .map(|n| format!("area-{n}"))
        .find(|id| {
            !layout.areas.iter().any(|a| &a.id == id) && !layout.pieces.iter().any(|p| &p.id == id)
        })
        .expect("an unused id")
}

#[cfg(test)]
mod area_tests {
    use super::*;
    use crate::geometry::FeatureCategory;

    fn layout() -> LayoutFile {
        LayoutFile {
            name: "t".into(),
            source: String::new(),
            pieces: vec![
                new_piece(TerrainCategory::Ruin, "ruin-1".into(), Point(10.0, 10.0)),
                new_piece(
                    TerrainCategory::Barricade,
                    "barricade-1".into(),
                    Point(16.0, 10.0),
                ),
                new_piece(
                    TerrainCategory::Crater,
                    "crater-1".into(),
                    Point(30.0, 10.0),
                ),
            ],
            objectives: Vec::new(),
            areas: Vec::new(),
            categories: Default::default(),
        }
    }

    #[test]
    fn a_category_override_is_kept_only_where_it_differs_from_the_default() {
        let mut l = layout();
        with_feature_category(&mut l, "crater-1", FeatureCategory::Light);
        assert_eq!(l.categories.get("crater-1"), Some(&FeatureCategory::Light));
        assert_eq!(l.feature_category(&l.pieces[2]), FeatureCategory::Light);
        with_feature_category(&mut l, "crater-1", FeatureCategory::Exposed);
        assert!(l.categories.is_empty());
    }

    #[test]
    fn pieces_join_and_leave_areas_and_empty_areas_go() {
        let mut l = layout();
        let id = new_area_id(&l);
        into_area(&mut l, "ruin-1", Some(&id));
        into_area(&mut l, "barricade-1", Some(&id));
        assert_eq!(area_of(&l, "barricade-1"), Some("area-1"));
        let areas = l.resolved_areas();
        // One shared area (Dense: it holds a ruin) and the crater's own.
        assert_eq!(areas.len(), 2);
        assert_eq!(areas[0].pieces, vec!["ruin-1", "barricade-1"]);
        assert_eq!(areas[0].category, FeatureCategory::Dense);
        into_area(&mut l, "ruin-1", None);
        into_area(&mut l, "barricade-1", None);
        assert!(l.areas.is_empty());
        assert_eq!(l.resolved_areas().len(), 3);
    }
}

#[cfg(test)]
mod mirror_area_tests {
    use super::*;
    use crate::design::mirror::{Half, mirror_layout};
    use crate::geometry::FeatureCategory;

    #[test]
    fn a_mirrored_layout_images_its_areas_and_category_overrides() {
        let mut l = LayoutFile {
            name: "t".into(),
            source: String::new(),
            pieces: vec![
                new_piece(TerrainCategory::Ruin, "ruin-1".into(), Point(10.0, 10.0)),
                new_piece(
                    TerrainCategory::Barricade,
                    "barricade-1".into(),
                    Point(16.0, 10.0),
                ),
                new_piece(
                    TerrainCategory::Crater,
                    "crater-9".into(),
                    Point(50.0, 30.0),
                ),
            ],
            objectives: Vec::new(),
            areas: Vec::new(),
            categories: Default::default(),
        };
        into_area(&mut l, "ruin-1", Some("a1"));
        into_area(&mut l, "barricade-1", Some("a1"));
        with_feature_category(&mut l, "barricade-1", FeatureCategory::Dense);
        with_feature_category(&mut l, "crater-9", FeatureCategory::Light);
        let m = mirror_layout(&l, Half::West);
        // The east crater is gone with its override; the west pieces' area and override have
        // images on the images of their pieces.
        assert!(!m.categories.contains_key("crater-9"));
        assert_eq!(m.areas.len(), 2);
        let image = &m.areas[1];
        assert_eq!(image.pieces.len(), 2);
        assert!(
            image
                .pieces
                .iter()
                .all(|id| m.pieces.iter().any(|p| &p.id == id))
        );
        let barricade_image = image
            .pieces
            .iter()
            .find(|id| id.starts_with("barricade"))
            .unwrap();
        assert_eq!(
            m.categories.get(barricade_image),
            Some(&FeatureCategory::Dense)
        );
        // It resolves into two areas holding two pieces each.
        let resolved = m.resolved_areas();
        assert_eq!(resolved.iter().filter(|a| a.pieces.len() == 2).count(), 2);
    }
}
