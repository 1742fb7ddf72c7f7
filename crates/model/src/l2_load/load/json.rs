//! TOML to JSON for the schema check: tables, arrays and values converted with a depth bound.

use super::*;

pub(super) fn table_to_json(t: &Table, depth: usize) -> Json {
    let mut map = Map::new();
    if depth > MAX_DEPTH {
        return Json::Object(map);
    }
    for (k, item) in t.iter() {
        if let Some(v) = item_to_json(item, depth + 1) {
            map.insert(k.to_string(), v);
        }
    }
    Json::Object(map)
}

pub(super) fn item_to_json(item: &Item, depth: usize) -> Option<Json> {
    match item {
        Item::None => None,
        Item::Value(v) => Some(value_to_json(v, depth)),
        Item::Table(t) => Some(table_to_json(t, depth)),
        Item::ArrayOfTables(a) => Some(Json::Array(
            a.iter().map(|t| table_to_json(t, depth + 1)).collect(),
        )),
    }
}

pub(super) fn value_to_json(v: &toml_edit::Value, depth: usize) -> Json {
    use toml_edit::Value as V;
    if depth > MAX_DEPTH {
        return Json::Null;
    }
    match v {
        V::String(s) => Json::String(s.value().clone()),
        V::Integer(i) => Json::Number((*i.value()).into()),
        V::Float(f) => Number::from_f64(*f.value()).map_or_else(|| marker("float"), Json::Number),
        V::Boolean(b) => Json::Bool(*b.value()),
        // No schema accepts an object with this key where a scalar is expected, so a datetime is
        // rejected wherever it appears; messages name the TOML type, not this marker.
        V::Datetime(_) => marker("datetime"),
        V::Array(a) => Json::Array(a.iter().map(|v| value_to_json(v, depth + 1)).collect()),
        V::InlineTable(t) => {
            let mut map = Map::new();
            for (k, v) in t.iter() {
                map.insert(k.to_string(), value_to_json(v, depth + 1));
            }
            Json::Object(map)
        }
    }
}

pub(super) fn marker(what: &str) -> Json {
    let mut map = Map::new();
    map.insert("$toml".into(), Json::String(what.into()));
    Json::Object(map)
}

// ---------------------------------------------------------------------------------------------
// Walking the TOML document along a JSON instance path
