//! Unit and table facts that geometry needs: millimetres per inch and the size of the
//! battlefield. Rules numbers (ranges, heights a rule names) live in `rules::constants`, which
//! re-exports these so every number can be found there.

/// Millimetres per inch, for base sizes given in millimetres.
pub const MM_PER_INCH: f32 = 25.4;

/// Width of the battlefield for a 2000-point game: the long edge, along x (inches).
pub const BOARD_WIDTH_INCHES: f32 = 60.0;
/// Depth of the battlefield for a 2000-point game: the short edge, along y (inches).
pub const BOARD_DEPTH_INCHES: f32 = 44.0;
