//! Validate-time benchmark (issue 2, "done when": validating all shipped data files takes well
//! under 100 ms in a release build). std::time only.
//!
//! Run: `cargo bench -p tegula-model --bench validate` (optionally `-- N` for N iterations).

use std::path::PathBuf;
use std::time::Instant;

use tegula_model::validate;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let paths = vec![root.join("tiles"), root.join("variants")];
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(50);

    // First run: includes generating the JSON Schemas and compiling the validators (once per
    // process).
    let t = Instant::now();
    let first = validate::run(&paths, &[]);
    let cold = t.elapsed();
    let errors = first.diagnostics.iter().filter(|d| d.is_error()).count();

    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let out = validate::run(&paths, &[]);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(out.diagnostics.len(), first.diagnostics.len());
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / n.max(1) as f64;
    let median = times.get(n / 2).copied().unwrap_or(0.0);
    let max = times.last().copied().unwrap_or(0.0);
    println!(
        "validate tiles variants: {} files, {} diagnostics ({errors} errors)",
        first.files.len(),
        first.diagnostics.len()
    );
    println!(
        "first run (incl. schema generation + validator compile): {:.2} ms",
        cold.as_secs_f64() * 1000.0
    );
    println!(
        "{n} runs: mean {mean:.2} ms, median {median:.2} ms, max {max:.2} ms per full validation"
    );
}
