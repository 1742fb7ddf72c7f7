//! Feature cells: every multi-cell feature is edge-connected through the tile (W-18).

use super::*;

/// Every multi-cell feature's cells are edge-connected through the tile (W-18).
pub(super) fn check_feature_cells(
    tile: &CompiledTile,
    misjoined: &[Misjoined],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for f in &tile.features {
        if f.cells.len() < 2 {
            continue;
        }
        let inside: HashSet<usize> = f.cells.iter().copied().collect();
        let mut reached: HashSet<usize> = HashSet::from([f.cells[0]]);
        let mut stack = vec![f.cells[0]];
        while let Some(c) = stack.pop() {
            for n in tile.cells[c].neighbour.iter().flatten() {
                if inside.contains(n) && reached.insert(*n) {
                    stack.push(*n);
                }
            }
        }
        if reached.len() < inside.len() {
            let names: Vec<&str> = f.cells.iter().map(|&c| tile.cells[c].id.as_str()).collect();
            let first = &tile.segments[f.members[0]];
            if let Some((root, _)) = misjoined
                .iter()
                .find(|(_, ends)| ends.iter().any(|e| f.members.contains(e)))
            {
                diags[*root].notes.push(format!(
                    "so the {} feature of `{}` spans cells {} that are not edge-connected",
                    kind_name(f.kind),
                    first.id,
                    names.join(", ")
                ));
                continue;
            }
            diags.push(
                src.diag(
                    Code::DisconnectedFeature,
                    first.span.clone(),
                    format!(
                        "the {} feature of `{}` spans cells {} that are not edge-connected",
                        kind_name(f.kind),
                        first.id,
                        names.join(", ")
                    ),
                )
                .with_rule("W-18"),
            );
        }
    }
}
