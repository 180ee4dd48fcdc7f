//! Errors from reading data files: each names the file and, for syntax and for values out of
//! range, the line and column.

use std::collections::{HashMap, HashSet, VecDeque};
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
    /// A value in the file (a number, a size, a position) breaks a rule or a limit. `Display`
    /// gives `file:line:col: path: message`, or `file: path: message` when the file's text was
    /// not at hand.
    #[error("{}{}: {path}: {message}", file.display(), at(position))]
    Value {
        /// The file.
        file: PathBuf,
        /// Where the value starts: (line, column), both from 1.
        position: Option<(usize, usize)>,
        /// The value's field path, e.g. `datasheets[2].movement` or `pieces[0].at.1`.
        path: String,
        /// The rule or limit broken, naming the item concerned.
        message: String,
    },
}

fn at(position: &Option<(usize, usize)>) -> String {
    position.map_or_else(String::new, |(l, c)| format!(":{l}:{c}"))
}

impl DataError {
    /// A semantic error in `file`.
    pub fn semantic(file: impl Into<PathBuf>, message: impl fmt::Display) -> Self {
        DataError::Semantic {
            file: file.into(),
            message: message.to_string(),
        }
    }

    /// A value at field `path` of `file` that breaks a rule or limit; [`locate`] adds its line
    /// and column.
    pub fn value(
        file: impl Into<PathBuf>,
        path: impl Into<String>,
        message: impl fmt::Display,
    ) -> Self {
        DataError::Value {
            file: file.into(),
            position: None,
            path: path.into(),
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

/// Gives each [`DataError::Value`] without a position the line and column of its value in
/// `text` (the file's contents), or of the nearest enclosing value found there.
pub fn locate(errors: &mut [DataError], text: &str) {
    let wanted: Vec<String> = errors
        .iter()
        .filter_map(|e| match e {
            DataError::Value {
                position: None,
                path,
                ..
            } => Some(path.clone()),
            _ => None,
        })
        .collect();
    if wanted.is_empty() {
        return;
    }
    let map = SourceMap::of(text, &wanted);
    for e in errors {
        if let DataError::Value { position, path, .. } = e
            && position.is_none()
        {
            *position = map.position(path);
        }
    }
}

/// Where values of a RON text start, by field path: `name` for a field of the top-level
/// struct, `a.b` for a field of a nested struct, `a[3]` for an element of a list, `a.1` for an
/// element of a tuple or of a tuple variant (`Round(32)`: `base.0`).
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    starts: HashMap<String, (usize, usize)>,
}

/// Deepest nesting walked (the RON parser refuses deeper files before this is used).
const MAX_DEPTH: usize = 256;

impl SourceMap {
    /// The starts of the values at `paths`, and of the values enclosing them, in `text` (which
    /// should be valid RON; anything else gives a partial map). Only the groups holding one of
    /// them are walked, so a large file costs one pass and no more memory than its depth.
    pub fn of(text: &str, paths: &[String]) -> SourceMap {
        let mut wanted: HashSet<String> = HashSet::from([String::new()]);
        for p in paths {
            let mut p = p.as_str();
            wanted.insert(p.to_string());
            while let Some(cut) = p.rfind(['.', '[']) {
                p = &p[..cut];
                wanted.insert(p.to_string());
            }
        }
        let mut walk = Walk {
            lexer: Lexer {
                s: text.as_bytes(),
                i: 0,
                line: 1,
                column: 1,
            },
            ahead: VecDeque::new(),
            wanted: &wanted,
            starts: HashMap::new(),
        };
        walk.value(String::new(), 0);
        SourceMap {
            starts: walk.starts,
        }
    }

    /// Line and column (from 1) where the value at `path` starts, or where the nearest
    /// enclosing value found starts.
    pub fn position(&self, path: &str) -> Option<(usize, usize)> {
        let mut p = path;
        loop {
            if let Some(at) = self.starts.get(p) {
                return Some(*at);
            }
            p = &p[..p.rfind(['.', '['])?];
        }
    }
}

/// A token of RON text: brackets, separators, identifiers, and every literal as one atom.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Open(u8),
    Close,
    Comma,
    Colon,
    Ident(String),
    Atom,
}

type Spanned = (Token, (usize, usize));

/// Walks the values of a RON text, recording where the wanted ones start.
struct Walk<'a> {
    lexer: Lexer<'a>,
    ahead: VecDeque<Spanned>,
    wanted: &'a HashSet<String>,
    starts: HashMap<String, (usize, usize)>,
}

impl Walk<'_> {
    fn peek(&mut self, k: usize) -> Option<&Token> {
        while self.ahead.len() <= k {
            let t = self.lexer.next()?;
            self.ahead.push_back(t);
        }
        self.ahead.get(k).map(|(t, _)| t)
    }

    fn next(&mut self) -> Option<Spanned> {
        self.peek(0)?;
        self.ahead.pop_front()
    }

    /// One value at `path`: its start recorded, its contents walked only when they hold a
    /// wanted value.
    fn value(&mut self, path: String, depth: usize) {
        let Some((token, at)) = self.next() else {
            return;
        };
        let wanted = self.wanted.contains(&path);
        if wanted {
            self.starts.entry(path.clone()).or_insert(at);
        }
        let open = match token {
            Token::Ident(_) => match self.peek(0) {
                Some(Token::Open(c)) => {
                    let c = *c;
                    self.next();
                    Some(c)
                }
                _ => None,
            },
            Token::Open(c) => Some(c),
            _ => None,
        };
        match open {
            Some(c) if wanted && depth < MAX_DEPTH => self.group(&path, c, depth + 1),
            Some(_) => self.skip_group(),
            None => {}
        }
    }

    /// Skips to the end of the group just opened.
    fn skip_group(&mut self) {
        let mut depth = 1;
        while let Some((t, _)) = self.next() {
            match t {
                Token::Open(_) => depth += 1,
                Token::Close if depth == 1 => return,
                Token::Close => depth -= 1,
                _ => {}
            }
        }
    }

    /// The entries of a group opened by `open`, up to its closing token.
    fn group(&mut self, path: &str, open: u8, depth: usize) {
        let join = |segment: &str| {
            if path.is_empty() || segment.starts_with('[') {
                format!("{path}{segment}")
            } else {
                format!("{path}.{segment}")
            }
        };
        let mut index = 0;
        while let Some(token) = self.peek(0).cloned() {
            match token {
                Token::Close => {
                    self.next();
                    return;
                }
                Token::Comma | Token::Colon => {
                    self.next();
                    continue;
                }
                _ => {}
            }
            let field = match token {
                Token::Ident(name) if open == b'(' && self.peek(1) == Some(&Token::Colon) => {
                    Some(name)
                }
                _ => None,
            };
            if let Some(name) = field {
                self.next();
                self.next();
                self.value(join(&name), depth);
            } else if open == b'{' {
                // A map entry: its key (never wanted), then its value by the entry's index.
                self.value("{key}".to_string(), depth);
                if self.peek(0) == Some(&Token::Colon) {
                    self.next();
                }
                self.value(join(&format!("[{index}]")), depth);
                index += 1;
            } else {
                let segment = if open == b'[' {
                    format!("[{index}]")
                } else {
                    index.to_string()
                };
                self.value(join(&segment), depth);
                index += 1;
            }
        }
    }
}

/// The tokens of a RON text with their (line, column), comments and attributes skipped.
struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    column: usize,
}

impl Lexer<'_> {
    /// Moves past `n` bytes, counting lines and characters.
    fn advance(&mut self, n: usize) {
        let end = (self.i + n).min(self.s.len());
        for &b in &self.s[self.i..end] {
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else if b & 0xC0 != 0x80 {
                self.column += 1;
            }
        }
        self.i = end;
    }
}

impl Iterator for Lexer<'_> {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        loop {
            let s = &self.s[self.i..];
            let c = *s.first()?;
            let next = s.get(1).copied();
            let at = (self.line, self.column);
            let ident = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b >= 0x80;
            let (len, token) = if c.is_ascii_whitespace() {
                (1, None)
            } else if c == b'/' && next == Some(b'/') {
                (s.iter().position(|b| *b == b'\n').unwrap_or(s.len()), None)
            } else if c == b'/' && next == Some(b'*') {
                (block_comment(s), None)
            } else if c == b'#' {
                (attribute(s), None)
            } else if c == b'"' || c == b'\'' {
                (quoted(s, c), Some(Token::Atom))
            } else if c == b'b' && matches!(next, Some(b'"' | b'\'')) {
                (1 + quoted(&s[1..], s[1]), Some(Token::Atom))
            } else if let Some(n) = raw_string(s) {
                (n, Some(Token::Atom))
            } else if ident(&c) {
                // An identifier, or a raw one (`r#type`).
                let skip = if c == b'r' && next == Some(b'#') {
                    2
                } else {
                    0
                };
                let n = skip + s[skip..].iter().take_while(|b| ident(b)).count();
                let name = String::from_utf8_lossy(&s[skip..n]).into_owned();
                (n.max(1), Some(Token::Ident(name)))
            } else if matches!(c, b'(' | b'[' | b'{') {
                (1, Some(Token::Open(c)))
            } else if matches!(c, b')' | b']' | b'}') {
                (1, Some(Token::Close))
            } else if c == b',' {
                (1, Some(Token::Comma))
            } else if c == b':' {
                (1, Some(Token::Colon))
            } else if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') {
                // A number with its sign, exponent and suffix: `-1.5e-3`, `0x1F`, `-inf`.
                let mut n = 1;
                while let Some(&d) = s.get(n) {
                    let exponent_sign = matches!(d, b'+' | b'-') && matches!(s[n - 1], b'e' | b'E');
                    if ident(&d) || d == b'.' || exponent_sign {
                        n += 1;
                    } else {
                        break;
                    }
                }
                (n, Some(Token::Atom))
            } else {
                (1, None)
            };
            self.advance(len.max(1));
            if let Some(t) = token {
                return Some((t, at));
            }
        }
    }
}

/// Length of the block comment at the start of `s` (RON block comments nest).
fn block_comment(s: &[u8]) -> usize {
    let mut depth = 0;
    let mut k = 0;
    while k < s.len() {
        if s[k..].starts_with(b"/*") {
            depth += 1;
            k += 2;
        } else if s[k..].starts_with(b"*/") {
            depth -= 1;
            k += 2;
            if depth == 0 {
                return k;
            }
        } else {
            k += 1;
        }
    }
    s.len()
}

/// Length of the attribute (`#![enable(...)]`) at the start of `s`.
fn attribute(s: &[u8]) -> usize {
    let mut depth = 0;
    for (k, b) in s.iter().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' if depth <= 1 => return k + 1,
            b']' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

/// Length of the string or character literal at the start of `s`, opened and closed by
/// `quote`, with backslash escapes.
fn quoted(s: &[u8], quote: u8) -> usize {
    let mut k = 1;
    while k < s.len() {
        match s[k] {
            b'\\' => k += 2,
            b if b == quote => return k + 1,
            _ => k += 1,
        }
    }
    s.len()
}

/// Length of the raw string (`r"..."`, `r#"..."#`) at the start of `s`, if it is one.
fn raw_string(s: &[u8]) -> Option<usize> {
    if s.first() != Some(&b'r') {
        return None;
    }
    let hashes = s[1..].iter().take_while(|b| **b == b'#').count();
    if s.get(1 + hashes) != Some(&b'"') {
        return None;
    }
    let close = |k: &usize| {
        s[*k] == b'"'
            && s[*k + 1..]
                .iter()
                .take(hashes)
                .filter(|b| **b == b'#')
                .count()
                == hashes
    };
    Some(
        (2 + hashes..s.len())
            .find(close)
            .map_or(s.len(), |k| k + 1 + hashes),
    )
}
