//! Variant inheritance: a variant may `extends` another variant file. The chain is read root
//! first and merged into one TOML text that the loader then checks like any variant file; every
//! piece of the merged text remembers the file and position it was copied from
//! ([`Source::origin`]), so diagnostics and `tegula variant explain` name the file and line each
//! effective value was set in.
//!
//! The merge rule (docs/FORMAT.md, "Inheritance"): tables (`players`, `scoring`, `pool`,
//! `tile_count`, `follower_count`, …) merge key by key, recursively; every other value, lists
//! included, is replaced as a whole by the later file, except that the lists under `[append]`
//! are added to the inherited ones; `fact` lists are never inherited (facts are about one file's
//! tiles, checked when that file is validated); `extends` and `append` are not passed on.
//!
//! Before the merge, every file of the chain is checked against the variant schema as written,
//! so that a merge can hide no mistake (a list in `[append]` it could not append, a parent's
//! broken list a child replaces).

use std::path::{Path, PathBuf};

use toml_edit::{ImDocument, Item, Value};

use crate::diag::{Code, Diagnostic, Origins, Piece, Source};
use crate::load::{parse_variant, read_source, Loaded};
use crate::open::OpenError;
use crate::raw::VariantFile;

/// The longest chain of `extends` followed (a bound on hostile input).
pub const MAX_CHAIN: usize = 16;

/// The key naming the parent.
pub const EXTENDS: &str = "extends";

/// The table whose lists are appended to the inherited lists instead of replacing them.
pub const APPEND: &str = "append";

/// Keys that a file's parents never pass on to it (`append` is applied where it is written).
const NOT_INHERITED: &[&str] = &["fact", EXTENDS, APPEND];

/// Read the variant at `path` and, when it `extends` another, the whole chain merged into one
/// source. A file without `extends` comes back as it is. `Err` holds every diagnostic when the
/// chain cannot be read (a missing parent, a cycle, a syntax error, a path out of reach
/// ([`crate::reach`]), …) or one of its files is wrong as written.
pub fn read_variant(path: &Path) -> Result<Source, Vec<Diagnostic>> {
    let chain = read_chain(path)?;
    if chain.len() == 1 {
        return Ok(chain.into_iter().next().expect("one file").0);
    }
    // Root first.
    let chain: Vec<Link> = chain.into_iter().rev().collect();
    let mut root: Vec<Entry<'_>> = Vec::new();
    for (file, (_, doc)) in chain.iter().enumerate() {
        let last = file + 1 == chain.len();
        for (key, item) in doc.as_table().iter() {
            if NOT_INHERITED.contains(&key) && (key != "fact" || !last) {
                continue;
            }
            let key_at = key_start(doc.as_table().get_key_value(key), item);
            merge_into(&mut root, key, file, key_at, item);
        }
        if let Some(append) = doc.as_table().get(APPEND).and_then(Item::as_table_like) {
            for (key, item) in append.iter() {
                let key_at = key_start(append.get_key_value(key), item);
                append_into(&mut root, key, file, key_at, item);
            }
        }
    }
    let (leaf, _) = chain.last().expect("a chain has files");
    let mut out = Writer::default();
    if leaf.text.starts_with("#:schema") {
        let line = leaf.text.lines().next().unwrap_or("");
        out.exact(chain.len() - 1, 0, line);
        out.text("\n", chain.len() - 1, 0);
    }
    out.table_body(&root, &[], &chain);
    let files = chain.into_iter().map(|(s, _)| s).collect::<Vec<_>>();
    let path = files.last().expect("a chain has files").path.clone();
    Ok(Source::merged(
        path,
        out.buf,
        Origins {
            files,
            pieces: out.pieces,
        },
    ))
}

/// A file of the chain with its parsed document.
type Link = (Source, ImDocument<String>);

/// The files of the chain from `path`, leaf first, each parsed and its shape checked as written
/// (every file's errors are reported, not only the first file's: a merge must hide none).
fn read_chain(path: &Path) -> Result<Vec<Link>, Vec<Diagnostic>> {
    let mut chain: Vec<Link> = Vec::new();
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut next = path.to_path_buf();
    let root = crate::reach::data_root(path);
    loop {
        let (source, doc) = match read_link(&next) {
            Ok(link) => link,
            Err(d) => return Err(errors.into_iter().chain(d).collect()),
        };
        errors.extend(shape_errors(&source, &doc, !chain.is_empty()));
        seen.push(std::fs::canonicalize(&next).unwrap_or_else(|_| next.clone()));
        let parent = parent_ref(&source, &doc);
        chain.push((source, doc));
        let Some(parent) = parent else {
            break;
        };
        match parent.and_then(|(rel, span)| resolve_parent(&chain, &seen, &root, &rel, span)) {
            Ok(target) => next = target,
            Err(d) => return Err(errors.into_iter().chain(d).collect()),
        }
    }
    if errors.is_empty() {
        Ok(chain)
    } else {
        Err(errors)
    }
}

/// One file of the chain, read and parsed (and not nested too deep for the merge).
fn read_link(path: &Path) -> Result<Link, Vec<Diagnostic>> {
    let source = read_source(path).map_err(|d| vec![d])?;
    let doc = match ImDocument::parse(source.text.clone()) {
        Ok(doc) => doc,
        // The loader says what is wrong, with its position.
        Err(_) => return Err(parse_variant(source).1),
    };
    if too_deep(doc.as_item(), 0) {
        // The loader says what is wrong; the merge below recurses and must not go deep.
        let mut diags = parse_variant(source.clone()).1;
        if !diags.iter().any(Diagnostic::is_error) {
            diags.push(source.diag(
                Code::Schema,
                0..0,
                format!("tables are nested more than {MAX_NESTING} deep"),
            ));
        }
        return Err(diags);
    }
    Ok((source, doc))
}

/// The errors of one file of the chain as written: its shape against the variant schema (its
/// `[append]` table included), and an `[append]` with nothing to append to. A file alone, with
/// neither `extends` nor `[append]`, is left to the loader's check of the whole.
fn shape_errors(source: &Source, doc: &ImDocument<String>, parent: bool) -> Vec<Diagnostic> {
    let table = doc.as_table();
    let extends = table.contains_key(EXTENDS);
    let append = table.get_key_value(APPEND);
    let mut out = Vec::new();
    if let (Some((key, item)), false) = (append, extends) {
        let span = key.span().or_else(|| item.span()).unwrap_or(0..0);
        out.push(
            source
                .diag(
                    Code::BadVariant,
                    span,
                    "`[append]` adds to the lists a variant inherits, but this file `extends` \
                     nothing",
                )
                .with_note(
                    "write the lists themselves (`followers = [...]`), or name the variant to \
                     add to with `extends = \"<file>.toml\"`",
                ),
        );
    }
    if extends || parent || append.is_some() {
        out.extend(crate::load::chain_file_errors(source, extends));
    }
    out
}

/// The file `rel` (the `extends` value at `span` of the last file of `chain`) names, when it
/// can be the next link: within reach of the data `root`, not a cycle, not too long a chain, a
/// regular file.
fn resolve_parent(
    chain: &[Link],
    seen: &[PathBuf],
    root: &Path,
    rel: &str,
    span: std::ops::Range<usize>,
) -> Result<PathBuf, Vec<Diagnostic>> {
    let (child, _) = chain.last().expect("a chain has files");
    if let Some(why) = crate::reach::refusal(root, &child.path, rel, true) {
        return Err(vec![child
            .diag(Code::OutOfReach, span, why)
            .with_note(crate::reach::note(root))]);
    }
    let target = crate::reach::lexical(&child.path.parent().unwrap_or(Path::new("")).join(rel));
    let canon = std::fs::canonicalize(&target).unwrap_or_else(|_| target.clone());
    if let Some(i) = seen.iter().position(|p| *p == canon) {
        let mut names: Vec<String> = chain[i..]
            .iter()
            .map(|(s, _)| s.path.display().to_string())
            .collect();
        names.push(chain[i].0.path.display().to_string());
        return Err(vec![child
            .diag(
                Code::BadVariant,
                span,
                format!("`extends` makes a cycle: {}", names.join(" → ")),
            )
            .with_note(
                "a variant cannot inherit from itself, directly or through others",
            )]);
    }
    if chain.len() >= MAX_CHAIN {
        return Err(vec![child.diag(
            Code::BadVariant,
            span,
            format!("`extends` chains are limited to {MAX_CHAIN} files"),
        )]);
    }
    let why = match std::fs::metadata(&target) {
        Ok(meta) if meta.is_file() => return Ok(target),
        // There, but nothing to read: said as the reader would say it (it is never opened).
        Ok(meta) if meta.is_dir() => format!(": {}", OpenError::Folder),
        Ok(_) => format!(": {}", OpenError::NotRegular),
        Err(_) => String::new(),
    };
    Err(vec![child.diag(
        Code::DanglingReference,
        span,
        format!("no variant file {} to extend{why}", target.display()),
    )])
}

/// The deepest table nesting merged (a bound on hostile input; real variants nest 3 deep).
const MAX_NESTING: usize = 64;

/// Whether tables (not values: those are copied, not walked) nest deeper than [`MAX_NESTING`].
fn too_deep(item: &Item, depth: usize) -> bool {
    if depth > MAX_NESTING {
        return true;
    }
    match item {
        Item::Table(t) => t.iter().any(|(_, i)| too_deep(i, depth + 1)),
        Item::ArrayOfTables(a) => a
            .iter()
            .any(|t| t.iter().any(|(_, i)| too_deep(i, depth + 1))),
        _ => false,
    }
}

type ParentRef = Result<(String, std::ops::Range<usize>), Vec<Diagnostic>>;

/// The `extends` value of a document: `None` without one; an error when it is not a string.
fn parent_ref(source: &Source, doc: &ImDocument<String>) -> Option<ParentRef> {
    let item = doc.as_table().get(EXTENDS)?;
    let span = item.span().unwrap_or(0..0);
    Some(match item.as_str() {
        Some(s) if !s.trim().is_empty() => Ok((s.to_string(), span)),
        _ => Err(vec![source.diag(
            Code::Schema,
            span,
            "`extends` must name a variant file (a path relative to this file)",
        )]),
    })
}

/// Where a key starts in its file (the value's position when the key has none).
fn key_start(kv: Option<(&toml_edit::Key, &Item)>, item: &Item) -> usize {
    kv.and_then(|(k, _)| k.span())
        .or_else(|| item.span())
        .map_or(0, |r| r.start)
}

/// One key of the merged document.
struct Entry<'a> {
    key: String,
    file: usize,
    key_at: usize,
    node: Node<'a>,
}

enum Node<'a> {
    /// A value copied as written (scalars, arrays, inline tables nobody merged into).
    Value(&'a Value),
    /// A table merged key by key.
    Table(Vec<Entry<'a>>),
    /// An array of tables (`[[x]]`), replaced as a whole.
    Tables(Vec<(usize, Vec<Entry<'a>>)>),
}

/// Merge `item` of `file` under `key` into `entries`: tables key by key, all else replaced.
fn merge_into<'a>(
    entries: &mut Vec<Entry<'a>>,
    key: &str,
    file: usize,
    key_at: usize,
    item: &'a Item,
) {
    let pos = entries.iter().position(|e| e.key == key);
    if let (Some(i), Some(new)) = (pos, item.as_table_like()) {
        let old = &mut entries[i];
        if let Some(mut merged) = as_entries(&old.node, old.file) {
            for (k, v) in new.iter() {
                merge_into(&mut merged, k, file, key_start(new.get_key_value(k), v), v);
            }
            old.node = Node::Table(merged);
            return;
        }
    }
    let entry = Entry {
        key: key.to_string(),
        file,
        key_at,
        node: node(item, file),
    };
    match pos {
        Some(i) => entries[i] = entry,
        None => entries.push(entry),
    }
}

/// Append the list `item` of `file` (`append.KEY`) to the list under `key`: both become
/// arrays of tables. An element that is not a table is kept as a value; the schema then says
/// what is wrong with it.
fn append_into<'a>(
    entries: &mut Vec<Entry<'a>>,
    key: &str,
    file: usize,
    key_at: usize,
    item: &'a Item,
) {
    let new = tables_of(&node(item, file), file);
    match entries.iter_mut().find(|e| e.key == key) {
        Some(e) => {
            let mut old = tables_of(&e.node, e.file);
            old.extend(new);
            e.node = Node::Tables(old);
        }
        None => entries.push(Entry {
            key: key.to_string(),
            file,
            key_at,
            node: Node::Tables(new),
        }),
    }
}

/// The elements of a list node as tables (inline tables opened up).
fn tables_of<'a>(node: &Node<'a>, file: usize) -> Vec<(usize, Vec<Entry<'a>>)> {
    match node {
        Node::Tables(ts) => ts
            .iter()
            .map(|(f, t)| (*f, t.iter().map(Entry::shallow_clone).collect()))
            .collect(),
        Node::Value(Value::Array(a)) => a
            .iter()
            .filter_map(|v| as_entries(&Node::Value(v), file).map(|t| (file, t)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The entries of a table node (an inline table is opened up); `None` for other nodes.
fn as_entries<'a>(node: &Node<'a>, file: usize) -> Option<Vec<Entry<'a>>> {
    match node {
        Node::Table(entries) => Some(entries.iter().map(Entry::shallow_clone).collect()),
        Node::Value(Value::InlineTable(t)) => Some(
            t.iter()
                .filter_map(|(k, v)| {
                    let kv = t.get_key_value(k);
                    let item = kv.map(|(_, i)| i)?;
                    Some(Entry {
                        key: k.to_string(),
                        file,
                        key_at: key_start(kv, item),
                        node: Node::Value(v),
                    })
                })
                .collect(),
        ),
        _ => None,
    }
}

impl Entry<'_> {
    fn shallow_clone(&self) -> Self {
        Entry {
            key: self.key.clone(),
            file: self.file,
            key_at: self.key_at,
            node: match &self.node {
                Node::Value(v) => Node::Value(v),
                Node::Table(t) => Node::Table(t.iter().map(Entry::shallow_clone).collect()),
                Node::Tables(ts) => Node::Tables(
                    ts.iter()
                        .map(|(f, t)| (*f, t.iter().map(Entry::shallow_clone).collect()))
                        .collect(),
                ),
            },
        }
    }
}

fn node(item: &Item, file: usize) -> Node<'_> {
    match item {
        Item::Value(v) => Node::Value(v),
        Item::Table(t) => Node::Table(table_entries(t, file)),
        Item::ArrayOfTables(a) => {
            Node::Tables(a.iter().map(|t| (file, table_entries(t, file))).collect())
        }
        Item::None => Node::Table(Vec::new()),
    }
}

fn table_entries(t: &toml_edit::Table, file: usize) -> Vec<Entry<'_>> {
    t.iter()
        .map(|(k, v)| Entry {
            key: k.to_string(),
            file,
            key_at: key_start(t.get_key_value(k), v),
            node: node(v, file),
        })
        .collect()
}

/// The merged text being written, with its pieces.
#[derive(Default)]
struct Writer {
    buf: String,
    pieces: Vec<Piece>,
}

impl Writer {
    /// Text written by the merge, standing for position `from` of `file`.
    fn text(&mut self, s: &str, file: usize, from: usize) {
        self.push(s, file, from, false);
    }

    /// Text copied verbatim from `from` of `file`.
    fn exact(&mut self, file: usize, from: usize, s: &str) {
        self.push(s, file, from, true);
    }

    fn push(&mut self, s: &str, file: usize, from: usize, exact: bool) {
        self.pieces.push(Piece {
            at: self.buf.len(),
            len: s.len(),
            file,
            from,
            exact,
        });
        self.buf.push_str(s);
    }

    /// The body of a table at `path`: its values, then its sub-tables, then its arrays of
    /// tables (TOML wants a table's own keys before any header).
    fn table_body(
        &mut self,
        entries: &[Entry<'_>],
        path: &[&str],
        chain: &[(Source, ImDocument<String>)],
    ) {
        for e in entries {
            if let Node::Value(v) = &e.node {
                let key = quote_key(&e.key);
                let src = &chain[e.file].0.text;
                // The key as written when it is (so that a caret under it covers it all).
                if src.get(e.key_at..e.key_at + key.len()) == Some(key.as_str()) {
                    self.exact(e.file, e.key_at, &key);
                    self.text(" = ", e.file, e.key_at + key.len());
                } else {
                    self.text(&format!("{key} = "), e.file, e.key_at);
                }
                let span = v.span().unwrap_or(0..0);
                let text = chain[e.file].0.text.get(span.clone()).unwrap_or("\"\"");
                self.exact(e.file, span.start, text);
                self.text("\n", e.file, span.end);
            }
        }
        for e in entries {
            let mut sub: Vec<&str> = path.to_vec();
            sub.push(&e.key);
            match &e.node {
                Node::Table(t) => {
                    self.text(&format!("\n[{}]\n", header(&sub)), e.file, e.key_at);
                    self.table_body(t, &sub, chain);
                }
                Node::Tables(ts) => {
                    for (file, t) in ts {
                        self.text(&format!("\n[[{}]]\n", header(&sub)), *file, e.key_at);
                        self.table_body(t, &sub, chain);
                    }
                }
                Node::Value(_) => {}
            }
        }
    }
}

fn header(path: &[&str]) -> String {
    path.iter()
        .map(|k| quote_key(k))
        .collect::<Vec<_>>()
        .join(".")
}

/// A key as TOML text: bare when it can be, else a basic string.
fn quote_key(k: &str) -> String {
    let bare = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if bare {
        k.to_string()
    } else {
        serde_json::to_string(k).unwrap_or_else(|_| "\"\"".to_string())
    }
}

/// Read and parse a variant file.
///
/// A variant that `extends` others is read with its whole chain, merged
/// (here); positions in the result's source map back to the files of the chain.
pub fn load_variant(path: &Path) -> (Option<Loaded<VariantFile>>, Vec<Diagnostic>) {
    match read_variant(path) {
        Ok(source) => parse_variant(source),
        Err(d) => (None, d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tegula-inherit-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    const ROOT: &str = "#:schema x/variant.schema.json\nid = \"root\"\nname = \"Root\"\n\
        players = { min = 2, max = 5 }\nsets = [{ path = \"t.toml\" }]\n\
        followers = [{ id = \"meeple\", count = 7 }]\n\n[scoring]\nfield_per_city = 3\n\
        cloister_complete = 9\n";

    #[test]
    fn tables_merge_key_by_key_and_lists_are_replaced() {
        let d = tmp("merge");
        write(&d, "root.toml", ROOT);
        let leaf = write(
            &d,
            "leaf.toml",
            "#:schema x/variant.schema.json\nextends = \"root.toml\"\nid = \"leaf\"\n\
             name = \"Leaf\"\nplayers = { max = 4 }\n\n[scoring]\ncloister_complete = 5\n",
        );
        let src = read_variant(&leaf).unwrap();
        let doc: toml::Table = src.text.parse().unwrap();
        assert_eq!(doc["id"].as_str(), Some("leaf"));
        assert_eq!(doc["players"]["min"].as_integer(), Some(2));
        assert_eq!(doc["players"]["max"].as_integer(), Some(4));
        assert_eq!(doc["scoring"]["field_per_city"].as_integer(), Some(3));
        assert_eq!(doc["scoring"]["cloister_complete"].as_integer(), Some(5));
        assert!(!doc.contains_key("extends"));
        // Positions point into the file that set the value.
        let at = src.text.find("cloister_complete = 5").unwrap() + "cloister_complete = ".len();
        let (file, off) = src.origin(at);
        assert_eq!(file.path, leaf);
        assert_eq!(file.line_col(off), (8, 21));
        let at = src.text.find("field_per_city = 3").unwrap() + "field_per_city = ".len();
        assert_eq!(src.origin(at).0.path, d.join("root.toml"));
        assert_eq!(src.line_col(at), (9, 18));
    }

    #[test]
    fn append_adds_to_the_inherited_list() {
        let d = tmp("append");
        write(&d, "root.toml", ROOT);
        let leaf = write(
            &d,
            "leaf.toml",
            "extends = \"root.toml\"\nid = \"leaf\"\nname = \"Leaf\"\n\n[[append.followers]]\n\
             id = \"large-meeple\"\ncount = 1\nstrength = 2\n",
        );
        let src = read_variant(&leaf).unwrap();
        let doc: toml::Table = src.text.parse().unwrap();
        let f = doc["followers"].as_array().unwrap();
        let ids: Vec<&str> = f.iter().map(|x| x["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["meeple", "large-meeple"]);
        assert!(!doc.contains_key("append"));
        let at = src.text.find("strength = 2").unwrap() + "strength = ".len();
        assert_eq!(
            (src.origin(at).0.path.clone(), src.line_col(at)),
            (leaf, (8, 12))
        );
    }

    #[test]
    fn every_file_is_checked_as_written_before_the_merge() {
        let d = tmp("written");
        write(&d, "root.toml", ROOT);
        // A partial table is the child's right (the parent gives `min`); a missing `name` is not.
        let leaf = write(&d, "leaf.toml", "extends = \"root.toml\"\nid = \"leaf\"\n");
        let e = read_variant(&leaf).unwrap_err();
        assert!(e[0].message.contains("`name`"), "{e:?}");
        let leaf = write(
            &d,
            "leaf.toml",
            "extends = \"root.toml\"\nid = \"l\"\nname = \"L\"\nplayers = { max = 4 }\n\n\
             [[append.followers]]\nid = \"x\"\n",
        );
        // An appended follower is whole: its `count` is missing.
        let e = read_variant(&leaf).unwrap_err();
        assert_eq!((e.len(), e[0].at.line), (1, 6), "{e:?}");
        assert!(e[0].message.contains("`count`"), "{e:?}");
    }

    #[test]
    fn odd_parents_are_diagnostics() {
        let d = tmp("odd");
        let p = write(&d, "num.toml", "id = \"n\"\nextends = 5\n");
        assert_eq!(read_variant(&p).unwrap_err()[0].code, Code::Schema);
        // A folder: not `.toml`, so out of reach; named `.toml`, nothing to extend.
        let p = write(
            &d,
            "dir.toml",
            "extends = \".\"\nid = \"d\"\nname = \"D\"\n",
        );
        assert_eq!(read_variant(&p).unwrap_err()[0].code, Code::OutOfReach);
        std::fs::create_dir_all(d.join("sub.toml")).unwrap();
        let p = write(
            &d,
            "sub.toml.toml",
            "extends = \"sub.toml\"\nid = \"s\"\nname = \"S\"\n",
        );
        let e = read_variant(&p).unwrap_err();
        assert_eq!(e[0].code, Code::DanglingReference);
        assert!(e[0].message.ends_with("it is a folder"), "{e:?}");
        // A chain longer than MAX_CHAIN files.
        for i in 0..=MAX_CHAIN {
            write(
                &d,
                &format!("c{i}.toml"),
                &format!("extends = \"c{}.toml\"\nid = \"c\"\nname = \"C\"\n", i + 1),
            );
        }
        write(&d, &format!("c{}.toml", MAX_CHAIN + 1), "id = \"root\"\n");
        let e = read_variant(&d.join("c0.toml")).unwrap_err();
        assert!(e[0].message.contains("limited to 16"), "{e:?}");
    }

    #[test]
    fn deeply_nested_tables_are_refused_without_overflow() {
        let d = tmp("deep");
        let keys = vec!["k"; 100_000].join(".");
        let p = write(
            &d,
            "deep.toml",
            &format!("extends = \"x.toml\"\n{keys} = 1\n"),
        );
        let e = read_variant(&p).unwrap_err();
        assert!(e.iter().any(Diagnostic::is_error), "{e:?}");
    }

    #[test]
    fn a_cycle_and_a_missing_parent_are_located() {
        let d = tmp("cycle");
        let a = write(
            &d,
            "a.toml",
            "extends = \"b.toml\"\nid = \"a\"\nname = \"A\"\n",
        );
        write(
            &d,
            "b.toml",
            "extends = \"a.toml\"\nid = \"b\"\nname = \"B\"\n",
        );
        let e = read_variant(&a).unwrap_err();
        assert_eq!(e[0].code, Code::BadVariant);
        assert!(e[0].message.contains("cycle"), "{}", e[0].message);
        assert_eq!(
            (e[0].at.file.as_path(), e[0].at.line),
            (d.join("b.toml").as_path(), 1)
        );
        let m = write(
            &d,
            "m.toml",
            "id = \"m\"\nname = \"M\"\nextends = \"nope.toml\"\n",
        );
        let e = read_variant(&m).unwrap_err();
        assert_eq!(e[0].code, Code::DanglingReference);
        assert_eq!((e[0].at.line, e[0].at.column), (3, 11));
    }
}
