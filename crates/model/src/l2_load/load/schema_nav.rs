//! Reading the JSON Schema itself: following `$ref`s, the sub-schema at a path, the keys and
//! values it allows (for messages and suggestions).

use super::*;

pub(super) fn deref<'a>(root: &'a Json, mut s: &'a Json) -> &'a Json {
    for _ in 0..16 {
        // Draft 7 puts `$ref` with siblings into a one-element `allOf`.
        if let Some([only]) = s.get("allOf").and_then(Json::as_array).map(Vec::as_slice) {
            s = only;
            continue;
        }
        let Some(r) = s.get("$ref").and_then(Json::as_str) else {
            break;
        };
        let name = r
            .strip_prefix("#/definitions/")
            .map(|n| ("definitions", n))
            .or_else(|| r.strip_prefix("#/$defs/").map(|n| ("$defs", n)));
        let Some((defs, name)) = name else {
            break;
        };
        match root.get(defs).and_then(|d| d.get(name)) {
            Some(t) => s = t,
            None => break,
        }
    }
    s
}

/// The sub-schema describing the instance at `segs` (following `$ref`, `properties`, `items`).
pub(super) fn schema_at<'a>(root: &'a Json, segs: &[String]) -> Option<&'a Json> {
    let mut s = deref(root, root);
    for seg in segs {
        let next = s
            .get("properties")
            .and_then(|p| p.get(seg.as_str()))
            .or_else(|| {
                seg.parse::<usize>().ok()?;
                s.get("items")
            })?;
        s = deref(root, next);
    }
    Some(s)
}

/// Cut every array longer than its schema's `maxItems` to that length, recording
/// `(path, limit, original length)`.
pub(super) fn prune_long_arrays(
    root: &Json,
    schema: &Json,
    json: &mut Json,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, u64, usize)>,
) {
    if path.len() > MAX_DEPTH {
        return;
    }
    let schema = deref(root, schema);
    match json {
        Json::Object(map) => {
            let Some(props) = schema.get("properties").and_then(Json::as_object) else {
                return;
            };
            for (key, value) in map.iter_mut() {
                if let Some(sub) = props.get(key) {
                    path.push(key.clone());
                    prune_long_arrays(root, sub, value, path, out);
                    path.pop();
                }
            }
        }
        Json::Array(items) => {
            if let Some(limit) = schema.get("maxItems").and_then(Json::as_u64) {
                if items.len() as u64 > limit {
                    out.push((path.clone(), limit, items.len()));
                    items.truncate(limit as usize);
                }
            }
            let Some(sub) = schema.get("items") else {
                return;
            };
            for (i, item) in items.iter_mut().enumerate() {
                path.push(i.to_string());
                prune_long_arrays(root, sub, item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

pub(super) fn allowed_keys(root: &Json, segs: &[String]) -> Vec<String> {
    schema_at(root, segs)
        .and_then(|s| s.get("properties"))
        .and_then(Json::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

pub(super) fn const_options(root: &Json, segs: &[String]) -> Vec<Json> {
    let Some(s) = schema_at(root, segs) else {
        return Vec::new();
    };
    let branches = s
        .get("oneOf")
        .or_else(|| s.get("anyOf"))
        .and_then(Json::as_array);
    branches
        .map(|b| {
            b.iter()
                .filter_map(|b| deref(root, b).get("const").cloned())
                .collect()
        })
        .unwrap_or_default()
}

/// "an integer from A to B" when the `anyOf`/`oneOf` at `segs` has an integer branch (e.g. a
/// strength: a number or `pennants`).
pub(super) fn integer_branch(root: &Json, segs: &[String]) -> Option<String> {
    let s = schema_at(root, segs)?;
    let branches = s.get("oneOf").or_else(|| s.get("anyOf"))?.as_array()?;
    let int = branches
        .iter()
        .map(|b| deref(root, b))
        .find(|b| b.get("type").and_then(Json::as_str) == Some("integer"))?;
    let bound = |k: &str| int.get(k).and_then(Json::as_i64);
    Some(match (bound("minimum"), bound("maximum")) {
        (Some(lo), Some(hi)) => format!("an integer from {lo} to {hi}"),
        (Some(lo), None) => format!("an integer of at least {lo}"),
        (None, Some(hi)) => format!("an integer of at most {hi}"),
        (None, None) => "an integer".to_string(),
    })
}
