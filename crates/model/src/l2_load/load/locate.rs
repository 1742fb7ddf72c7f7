//! Locating a JSON Schema error in the TOML text: an instance path walked down the `toml_edit`
//! document to the span to report.

use super::*;

/// A position in the toml_edit document.
#[derive(Clone, Copy)]
pub(super) enum Node<'a> {
    Table(&'a Table),
    Inline(&'a toml_edit::InlineTable),
    Tables(&'a toml_edit::ArrayOfTables),
    Array(&'a toml_edit::Array),
    Scalar(&'a toml_edit::Value),
}

impl<'a> Node<'a> {
    pub(super) fn of_item(item: &'a Item) -> Option<Node<'a>> {
        match item {
            Item::None => None,
            Item::Value(v) => Some(Node::of_value(v)),
            Item::Table(t) => Some(Node::Table(t)),
            Item::ArrayOfTables(a) => Some(Node::Tables(a)),
        }
    }

    pub(super) fn of_value(v: &'a toml_edit::Value) -> Node<'a> {
        match v {
            toml_edit::Value::Array(a) => Node::Array(a),
            toml_edit::Value::InlineTable(t) => Node::Inline(t),
            other => Node::Scalar(other),
        }
    }

    /// The child at a path segment, with the span of its key (for tables).
    pub(super) fn child(self, seg: &str) -> Option<(Node<'a>, Option<Range<usize>>)> {
        match self {
            Node::Table(t) => {
                let (k, item) = t.get_key_value(seg)?;
                Some((Node::of_item(item)?, k.span()))
            }
            Node::Inline(t) => {
                let (k, item) = t.get_key_value(seg)?;
                Some((Node::of_item(item)?, k.span()))
            }
            Node::Tables(a) => Some((Node::Table(a.get(seg.parse().ok()?)?), None)),
            Node::Array(a) => Some((Node::of_value(a.get(seg.parse().ok()?)?), None)),
            Node::Scalar(_) => None,
        }
    }

    pub(super) fn key_span(self, key: &str) -> Option<Range<usize>> {
        match self {
            Node::Table(t) => t.get_key_value(key)?.0.span(),
            Node::Inline(t) => t.get_key_value(key)?.0.span(),
            _ => None,
        }
    }

    pub(super) fn span(self) -> Option<Range<usize>> {
        match self {
            Node::Table(t) => t.span(),
            Node::Inline(t) => t.span(),
            Node::Tables(a) => a.span().or_else(|| a.get(0).and_then(Table::span)),
            Node::Array(a) => a.span(),
            Node::Scalar(v) => v.span(),
        }
    }

    /// "an integer", "a table", ... as TOML calls it.
    pub(super) fn type_name(self) -> &'static str {
        use toml_edit::Value as V;
        match self {
            Node::Table(_) | Node::Inline(_) => "a table",
            Node::Tables(_) | Node::Array(_) => "an array",
            Node::Scalar(V::String(_)) => "a string",
            Node::Scalar(V::Integer(_)) => "an integer",
            Node::Scalar(V::Float(_)) => "a float",
            Node::Scalar(V::Boolean(_)) => "a boolean",
            Node::Scalar(V::Datetime(_)) => "a date-time",
            Node::Scalar(_) => "a value",
        }
    }
}

/// Split a JSON pointer into unescaped segments.
pub(super) fn pointer_segments(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Best span for the value at `segs`: a scalar's own span; for a table or array its key when it
/// has one (`cells = [` → `cells`), else its first line; else the nearest ancestor's.
pub(super) fn locate<'a>(
    text: &str,
    root: &'a Table,
    segs: &[String],
) -> (Option<Node<'a>>, Range<usize>) {
    let mut node = Node::Table(root);
    let mut best: Option<Range<usize>> = None;
    let mut last_key: Option<Range<usize>> = None;
    for seg in segs {
        match node.child(seg) {
            Some((child, key_span)) => {
                if let Some(s) = key_span.clone().or_else(|| child.span()) {
                    best = Some(s);
                }
                last_key = key_span;
                node = child;
            }
            None => return (None, first_line(text, best.unwrap_or(0..0))),
        }
    }
    let span = match node {
        Node::Scalar(_) => node.span(),
        _ => last_key.or_else(|| node.span()),
    };
    (Some(node), first_line(text, span.or(best).unwrap_or(0..0)))
}

/// Clip a span to the line it starts on (multi-line excerpts of whole tables say little).
pub(super) fn first_line(text: &str, span: Range<usize>) -> Range<usize> {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    match text.get(start..end).and_then(|s| s.find('\n')) {
        Some(0) => start..start,
        Some(nl) => start..start + nl,
        None => start..end,
    }
}

// ---------------------------------------------------------------------------------------------
// Schema errors → diagnostics
