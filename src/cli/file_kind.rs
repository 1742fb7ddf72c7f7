//! What a file given as `--variant` is, when it is no variant: one sentence that names it (an
//! empty file, a tile set, a scenario, a game log, a shard or `--out` file of `simulate`, a JSON
//! schema, a compiled ruleset — with how to use one — or unknown) instead of a page of schema
//! errors or a wrong guess.

use std::path::Path;

use tegula_model::validate::{classify, FileKind};

use super::fsio::read_input;

/// The first line of a file, parsed as a JSON object, if it is one.
fn first_json_object(text: &str) -> Option<serde_json::Map<String, serde_json::Value>> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    match serde_json::from_str(first.trim()) {
        Ok(serde_json::Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// What a JSON document (`whole`, or its first line `first`) is, in words.
fn describe_json(
    whole: Option<&serde_json::Value>,
    first: Option<&serde_json::Map<String, serde_json::Value>>,
) -> String {
    if let Some(line) = first {
        if line.get("type").and_then(|t| t.as_str()) == Some("setup") {
            return "a game log (its first line is a `setup` line): replay it with `tegula \
                    replay FILE`, draw it with `tegula board FILE`"
                .into();
        }
        if line.contains_key(tegula_shard::HEADER_KEY) {
            return "a shard of `tegula simulate --shard`: merge the shards with `tegula \
                    simulate-merge`"
                .into();
        }
        if line.contains_key("game") && line.contains_key("scores") {
            return "the per-game lines of `tegula simulate --out`".into();
        }
    }
    let Some(serde_json::Value::Object(doc)) = whole else {
        return "JSON of no kind tegula knows".into();
    };
    if doc.contains_key("$schema") || doc.contains_key("definitions") {
        return "a JSON schema".into();
    }
    if let Some(v) = doc.get("format_version") {
        let id = doc.get("id").and_then(|i| i.as_str()).unwrap_or("?");
        return format!(
            "a compiled ruleset (the artefact `tegula compile --format json` writes; format \
             version {v}, variant `{id}`): the commands play variant TOML files, so give the \
             variant it was compiled from; a program loads the artefact itself with \
             `tegula_engine::Rules::from_json` (docs/FORMAT.md, \"The compiled ruleset\")"
        );
    }
    if doc.contains_key("set") && doc.contains_key("tiles") {
        return "a compiled tile set (`tegula compile TILESET --format json`)".into();
    }
    "JSON of no kind tegula knows".into()
}

/// Whether a TOML text has a top-level `[set]` table or `[[tile]]` entries, as tile sets do.
fn looks_like_tile_set(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .any(|l| l.starts_with("[set]") || l.starts_with("[[tile]]"))
}

/// What `text` is, in words, when it is not a variant; `None` for a variant.
pub(crate) fn not_a_variant(text: &str) -> Option<String> {
    let kind = classify(text);
    if kind == FileKind::Variant {
        return None;
    }
    let body = text.trim_start_matches('\u{feff}').trim();
    if body.is_empty() {
        return Some("an empty file".into());
    }
    if body.starts_with('{') || (body.starts_with('[') && body.ends_with(']')) {
        let whole = serde_json::from_str::<serde_json::Value>(body).ok();
        let first = first_json_object(body);
        if whole.is_some() || first.is_some() {
            return Some(describe_json(whole.as_ref(), first.as_ref()));
        }
    }
    Some(match kind {
        FileKind::Other(schema) if schema == "scenario.schema.json" => {
            "a scenario: run it with `tegula check FILE`".into()
        }
        FileKind::Other(schema) => format!("a file of another kind ({schema})"),
        _ if looks_like_tile_set(body) => "a tile-set file".into(),
        _ => "no file tegula knows: a variant starts with `#:schema \
              ../schema/variant.schema.json` or has a `sets` or `extends` key"
            .into(),
    })
}

/// Refuse (exit 2) a file given as a variant (`--variant`, `variant explain`) that is not one,
/// saying what it is.
pub(crate) fn require_variant(path: &Path) -> anyhow::Result<()> {
    match not_a_variant(&read_input(path)?) {
        None => Ok(()),
        Some(what) => anyhow::bail!(
            "{} is {what}, not a variant (such as variants/base.toml)",
            path.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::not_a_variant;

    #[test]
    fn each_kind_is_named() {
        let cases = [
            ("", "an empty file"),
            ("\n  \n", "an empty file"),
            (
                "{\"type\":\"setup\",\"variant\":\"base\"}\n{\"type\":\"end\"}\n",
                "game log",
            ),
            (
                "{\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
                "JSON schema",
            ),
            ("{\"format_version\":3,\"id\":\"base\"}", "compiled ruleset"),
            (
                "{\"tegula_simulate_shard\":{}}\n{\"game\":0}\n",
                "simulate-merge",
            ),
            ("[set]\nid = \"x\"\n", "a tile-set file"),
            ("#:schema ../schema/scenario.schema.json\n", "a scenario"),
            ("hello = 1\n", "no file tegula knows"),
            ("{not json", "no file tegula knows"),
        ];
        for (text, what) in cases {
            let said = not_a_variant(text).unwrap_or_default();
            assert!(said.contains(what), "{text:?}: {said}");
        }
        assert_eq!(not_a_variant("sets = []\n"), None);
    }
}
