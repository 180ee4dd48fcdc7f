//! XML read with bounds: the BattleScribe rosters (`.ros`) and catalogues (`.cat`, `.gst`)
//! are parsed with a node limit and refused when nested deeper than any real file, so the
//! recursive walks over them can never run out of stack and a hostile file cannot use up the
//! memory.

use roxmltree::{Document, ParsingOptions};

/// The most XML nodes (elements, text, comments) one file may have: 4 million. The biggest
/// BSData catalogue has about 400,000.
pub const MAX_XML_NODES: u32 = 4_000_000;

/// The deepest element nesting read: 128. Real rosters and catalogues nest under 40 deep.
pub const MAX_XML_DEPTH: usize = 128;

/// Parses `text` as XML within [`MAX_XML_NODES`] and [`MAX_XML_DEPTH`].
///
/// # Errors
/// The text is not XML (the line and column), has too many nodes, or nests too deep (the line
/// and column of the first element past the limit).
pub fn parse(text: &str) -> Result<Document<'_>, String> {
    let options = ParsingOptions {
        nodes_limit: MAX_XML_NODES,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(text, options).map_err(|e| match e {
        roxmltree::Error::NodesLimitReached => {
            format!("it has more than {MAX_XML_NODES} XML nodes; the limit is {MAX_XML_NODES}")
        }
        e => {
            let at = e.pos();
            format!("malformed XML at line {}, column {}: {e}", at.row, at.col)
        }
    })?;
    // Parents come before their children in document order: one pass gives every depth.
    let mut depth = vec![0usize; doc.descendants().count() + 1];
    for n in doc.descendants() {
        let d = n.parent().map_or(0, |p| depth[p.id().get_usize()] + 1);
        if d > MAX_XML_DEPTH {
            let at = doc.text_pos_at(n.range().start);
            return Err(format!(
                "elements nest more than {MAX_XML_DEPTH} deep (line {}, column {}); the limit \
                 is {MAX_XML_DEPTH}",
                at.row, at.col
            ));
        }
        depth[n.id().get_usize()] = d;
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_is_refused_with_its_place() {
        let deep = "<a>".repeat(MAX_XML_DEPTH + 5) + &"</a>".repeat(MAX_XML_DEPTH + 5);
        let e = parse(&deep).unwrap_err();
        assert!(e.contains("nest more than"), "{e}");
        let ok = "<a>".repeat(20) + &"</a>".repeat(20);
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn malformed_xml_names_line_and_column() {
        let e = parse("<a>\n<b></a>").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }
}
