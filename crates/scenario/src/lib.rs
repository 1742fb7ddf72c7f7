//! tegula scenarios: scripted games (setup, drawn tiles, placements, followers) with the events
//! and scores that must result, checked against the generic engine.
//!
//! - [`raw`]: the TOML format (documented in `docs/SCENARIOS.md`), with spans; its JSON Schema is
//!   [`schema_json`] (committed as `schema/scenario.schema.json`).
//! - [`load()`]: parse a file and resolve its names against the variant's ruleset, reporting every
//!   problem with file:line:column.

pub mod load;
pub mod raw;
pub mod run;

pub use load::{load, load_under, Scenario, VariantCache};
pub use run::{run, Failure, Outcome};

/// Load and check one scenario file (syntax, keys, names against its variant) without running
/// it: every problem as a diagnostic. `tegula validate` uses this for files whose `#:schema` line
/// names [`SCENARIO_SCHEMA`].
pub fn validate_file(path: &std::path::Path) -> Vec<tegula_model::Diagnostic> {
    load(path, &mut VariantCache::default()).1
}

/// File name of the scenario schema (as referenced by `#:schema` lines).
pub const SCENARIO_SCHEMA: &str = "scenario.schema.json";

/// The JSON Schema of scenario files (TOML-adapted like the model's schemas).
pub fn schema_json() -> serde_json::Value {
    tegula_model::schema::generate::<raw::ScenarioFile>()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// Every shipped scenario file (and test fixture of the `scenarios-bad` kind) is valid
    /// against the committed-format schema, and the schema compiles.
    #[test]
    fn scenario_files_match_the_schema() {
        let schema = super::schema_json();
        let validator = jsonschema::validator_for(&schema).expect("schema compiles");
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files: Vec<PathBuf> = Vec::new();
        for dir in ["scenarios", "tests/fixtures/scenarios-bad"] {
            if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
                files.extend(rd.flatten().map(|e| e.path()));
            }
        }
        assert!(!files.is_empty());
        for f in files
            .iter()
            .filter(|f| f.extension().is_some_and(|x| x == "toml"))
        {
            let text = std::fs::read_to_string(f).unwrap();
            let value: toml::Value = toml::from_str(&text).unwrap();
            let json = serde_json::to_value(value).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&json)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", f.display());
        }
        // And the schema rejects what the loader rejects: a bad rotation, an unknown key.
        let bad: toml::Value = toml::from_str(
            "name='x'\nvariant='v'\nplayers=2\n[[step]]\ntile='E'\nat=[0,0]\nrotation=7\nwhere=1\n",
        )
        .unwrap();
        let json = serde_json::to_value(bad).unwrap();
        assert!(validator.iter_errors(&json).count() >= 2);
    }
}
