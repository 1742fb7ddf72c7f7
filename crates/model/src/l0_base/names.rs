//! "Did you mean" help: the closest of the names a diagnostic knows, by edit distance.

/// The closest candidate within edit distance 2 (case-insensitive), if any (for "did you mean"
/// notes).
pub fn suggest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    if word.chars().count() > 64 {
        return None;
    }
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2 && *d < c.chars().count())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `"; did you mean `X`?"` for the closest of `candidates` ([`suggest`]), or nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    suggest(word, candidates)
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

/// "no `what` `name`: the variant's `what`s: a, b; did you mean `a`?" — a name of the data
/// (tag, token, counter, resource, figure) that names nothing, with the known ones.
pub fn unknown_name(what: &str, name: &str, ids: &[String]) -> String {
    let known = if ids.is_empty() {
        format!("the variant has no {what}")
    } else {
        format!("the variant's {what}s: {}", ids.join(", "))
    };
    let near = did_you_mean(name, ids.iter().map(String::as_str));
    format!("no {what} `{name}`: {known}{near}")
}

/// Edit (Levenshtein) distance between two strings, ignoring case, in characters; for "did you
/// mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
