//! The `shard` target: a shard file of `tegula simulate --shard I/N --out` (a header line, then
//! game lines) read as `tegula simulate-merge` reads it — the header parsed and checked, the
//! lines summed and compared with it, the header merged with itself, held to the shipped
//! variant it names and turned into the report's figures — never a panic (a 47-seat header
//! once overflowed the win-share unit, `lcm(1..=players)`).

use tegula_shard::{set_problems, stats_json, total, variant_problem, LineSums, ShardHeader};

use crate::data::shipped_variants;

/// Most game lines summed (a shard's lines are checked one by one; more add nothing new).
const MAX_LINES: usize = 10_000;

/// A shard's text: a header or a refusal, then sums, comparisons and figures, never a panic.
pub fn shard(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let Some(Ok(header)) = lines.next().map(ShardHeader::parse_line) else {
        return;
    };
    let mut sums = LineSums::new(header.players);
    for line in lines.take(MAX_LINES) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            break;
        };
        if sums.add(&value).is_err() {
            break;
        }
    }
    let _ = sums.mismatch(&header.sums);
    if let Some((_, rules)) = shipped_variants()
        .iter()
        .find(|(id, _)| *id == header.variant)
    {
        let _ = variant_problem(&header, rules);
    }
    let headers = [header.clone(), header];
    let _ = set_problems(&headers, &|k| k.to_string());
    if let Ok(merged) = total(&headers) {
        let stats = merged.stats(headers[0].players);
        let _ = stats_json(&stats, &|t| t.to_string(), &merged.resource_ids);
    }
}
