//! Errors from reading data files: each names the file and, for syntax, the line and column.

use std::fmt;
use std::path::PathBuf;

/// A problem with a data file. `Display` gives `file:line:col: message` for syntax errors and
/// `file: message` for semantic ones, ready to print.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DataError {
    /// The file could not be read.
    #[error("{}: cannot read file: {message}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The file is not valid RON for its format.
    #[error("{}:{line}:{column}: {message}", file.display())]
    Syntax {
        /// The file.
        file: PathBuf,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// The file parses but breaks a rule of the format or of the game.
    #[error("{}: {message}", file.display())]
    Semantic {
        /// The file.
        file: PathBuf,
        /// The problem, naming the item concerned.
        message: String,
    },
}

impl DataError {
    /// A semantic error in `file`.
    pub fn semantic(file: impl Into<PathBuf>, message: impl fmt::Display) -> Self {
        DataError::Semantic {
            file: file.into(),
            message: message.to_string(),
        }
    }
}

/// Several problems found in one pass (validation reports them all, not just the first).
#[derive(Debug, Clone, PartialEq)]
pub struct DataErrors(pub Vec<DataError>);

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DataErrors {}

impl From<DataError> for DataErrors {
    fn from(e: DataError) -> Self {
        DataErrors(vec![e])
    }
}
