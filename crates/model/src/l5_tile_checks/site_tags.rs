//! Sites by tag (AB-1; docs/FORMAT.md, "Figures"): a figure's `only_tags` and `never_tags`,
//! names of segment tags the variant's tiles carry, lowered to tag indices on its
//! [`FollowerType`]. A tag in both lists of one figure is refused (the figure could stand on
//! such a feature and could not).

use tegula_ruleset::FollowerType;

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawFollower, Sp};

/// Set `only_tags` and `never_tags` of `followers` from their raw figures; `tags` are the
/// variant's tag names ([`crate::lower::tag_names`]).
pub fn lower(
    raw: &[Sp<RawFollower>],
    followers: &mut [FollowerType],
    tags: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for ft in followers.iter_mut() {
        let Some(f) = raw.iter().map(|f| &f.value).find(|f| f.id.value == ft.id) else {
            continue;
        };
        ft.only_tags = indices(f.only_tags.as_ref(), tags, src, diags);
        ft.never_tags = indices(f.never_tags.as_ref(), tags, src, diags);
        let both = f.never_tags.iter().flat_map(|n| &n.value).find(|n| {
            f.only_tags
                .iter()
                .flat_map(|o| &o.value)
                .any(|o| o.value == n.value)
        });
        if let Some(n) = both {
            let msg = format!(
                "figure `{}`: tag `{}` is in both `only_tags` and `never_tags`",
                ft.id, n.value
            );
            diags.push(src.diag(Code::BadFigure, n.span.clone(), msg));
        }
    }
}

/// The indices of the tag names of `list`, each unknown name reported with the known ones.
fn indices(
    list: Option<&Sp<Vec<Sp<String>>>>,
    tags: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<u32> {
    let mut out = Vec::new();
    for t in list.iter().flat_map(|l| &l.value) {
        match tags.iter().position(|x| *x == t.value) {
            Some(i) => out.extend(u32::try_from(i).ok().filter(|i| !out.contains(i))),
            None => {
                let msg = crate::names::unknown_name("tag", &t.value, tags);
                diags.push(src.diag(Code::DanglingReference, t.span.clone(), msg));
            }
        }
    }
    out
}
