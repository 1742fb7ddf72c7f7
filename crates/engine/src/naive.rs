//! Obviously-correct (slow) recomputation of the board's features from scratch, using only the
//! public view of a [`Game`] and the ruleset tables. Tests compare it with the incremental
//! union–find state (B-3, B-7, W-18).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use tegula_ruleset::{
    Act, Counts, Expr, FeatureKind, Quantity, RuleEvent, Seat, SideKind, NO_FEATURE,
};

use crate::event::FeatureId;
use crate::game::Game;
use crate::points;

/// A feature as recomputed from the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveFeature {
    /// Kind.
    pub kind: FeatureKind,
    /// Member segments: (tile instance, tile-local feature).
    pub members: Vec<(usize, u8)>,
    /// Distinct cells (B-7, W-18); for cloisters, filled cells around.
    pub tiles: u32,
    /// Pennants.
    pub pennants: u32,
    /// Complete (B-3): no city/road side faces an empty cell; cloister: 8 neighbours filled.
    pub complete: bool,
}

/// A feature member: (tile instance, tile-local feature).
type Member = (usize, u8);

/// Which placed tile and which of its cells covers each board cell.
type CellMap = HashMap<(i32, i32), (usize, usize)>;

/// Recompute every feature on the board.
pub fn features(game: &Game) -> Vec<NaiveFeature> {
    let rs = game.rules().ruleset();
    let tiles = game.tiles();
    let mut at: CellMap = HashMap::new();
    for (i, t) in tiles.iter().enumerate() {
        let rot = &rs.tiles[t.tile as usize].rotations[t.rotation as usize];
        for (c, cell) in rot.cells.iter().enumerate() {
            at.insert(
                (t.x + cell.offset.0 as i32, t.y + cell.offset.1 as i32),
                (i, c),
            );
        }
    }
    let (parent, open) = join(rs, &tiles, &at);
    let mut groups: BTreeMap<Member, Vec<Member>> = BTreeMap::new();
    for &k in parent.keys() {
        groups.entry(root(&parent, k)).or_default().push(k);
    }
    let sum = |members| summarise(rs, &tiles, &at, &open, members);
    groups.into_values().map(sum).collect()
}

/// The root of `a` in the plain union-find map.
fn root(p: &BTreeMap<Member, Member>, mut a: Member) -> Member {
    while p[&a] != a {
        a = p[&a];
    }
    a
}

/// Union-find over every tile's features, joined across every pair of touching sides (same
/// city or road kind; field half-edges facing each other), and each member's open city and road
/// sides (facing an empty cell).
fn join(
    rs: &tegula_ruleset::Ruleset,
    tiles: &[crate::PlacedTile],
    at: &CellMap,
) -> (BTreeMap<Member, Member>, BTreeMap<Member, u32>) {
    let mut parent: BTreeMap<Member, Member> = BTreeMap::new();
    for (i, t) in tiles.iter().enumerate() {
        for f in 0..rs.tiles[t.tile as usize].features.len() {
            parent.insert((i, f as u8), (i, f as u8));
        }
    }
    let mut open: BTreeMap<Member, u32> = BTreeMap::new();
    for (i, t) in tiles.iter().enumerate() {
        let rot = &rs.tiles[t.tile as usize].rotations[t.rotation as usize];
        for cell in &rot.cells {
            let (x, y) = (t.x + cell.offset.0 as i32, t.y + cell.offset.1 as i32);
            for s in 0..4 {
                if cell.outer & (1 << s) == 0 {
                    continue;
                }
                let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][s];
                let Some(&(j, d)) = at.get(&(x + dx, y + dy)) else {
                    if cell.side_feature[s] != NO_FEATURE {
                        *open.entry((i, cell.side_feature[s])).or_default() += 1;
                    }
                    continue;
                };
                let nt = tiles[j];
                let ncell = &rs.tiles[nt.tile as usize].rotations[nt.rotation as usize].cells[d];
                let o = (s + 2) % 4;
                let same = cell.sides[s] == ncell.sides[o]
                    && matches!(cell.sides[s], SideKind::City | SideKind::Road);
                if same {
                    let a = root(&parent, (i, cell.side_feature[s]));
                    let b = root(&parent, (j, ncell.side_feature[o]));
                    parent.insert(a, b);
                }
                for hh in 0..2 {
                    let h = 2 * s + hh;
                    let oh = [5, 4, 7, 6, 1, 0, 3, 2][h];
                    let (fa, fb) = (cell.half_feature[h], ncell.half_feature[oh]);
                    if fa != NO_FEATURE && fb != NO_FEATURE {
                        let a = root(&parent, (i, fa));
                        let b = root(&parent, (j, fb));
                        parent.insert(a, b);
                    }
                }
            }
        }
    }
    (parent, open)
}

/// One feature from its members: kind, distinct cells (or a cloister's filled neighbours),
/// pennants and completeness.
fn summarise(
    rs: &tegula_ruleset::Ruleset,
    tiles: &[crate::PlacedTile],
    at: &CellMap,
    open: &BTreeMap<Member, u32>,
    members: Vec<Member>,
) -> NaiveFeature {
    let (i0, f0) = members[0];
    let kind = rs.tiles[tiles[i0].tile as usize].features[f0 as usize].kind;
    let mut cells = BTreeSet::new();
    let mut pennants = 0;
    let mut open_ends = 0;
    for &(i, f) in &members {
        let feat = &rs.tiles[tiles[i].tile as usize].features[f as usize];
        for b in 0..8 {
            if feat.cells & (1 << b) != 0 {
                cells.insert((i, b));
            }
        }
        pennants += feat.pennants as u32;
        open_ends += open.get(&(i, f)).copied().unwrap_or(0);
    }
    let (tiles_n, complete) = match kind {
        FeatureKind::Cloister => {
            let t = tiles[i0];
            let feat = &rs.tiles[t.tile as usize].features[f0 as usize];
            let ci = feat.cells.trailing_zeros().min(7) as usize;
            let off = rs.tiles[t.tile as usize].rotations[t.rotation as usize].cells[ci].offset;
            let (x, y) = (t.x + off.0 as i32, t.y + off.1 as i32);
            let mut n = 0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (dx, dy) != (0, 0) && at.contains_key(&(x + dx, y + dy)) {
                        n += 1;
                    }
                }
            }
            (n, n == 8)
        }
        FeatureKind::Road | FeatureKind::City => (cells.len() as u32, open_ends == 0),
        _ => (cells.len() as u32, false),
    };
    NaiveFeature {
        kind,
        members,
        tiles: tiles_n,
        pennants,
        complete,
    }
}

/// Compare the engine's incremental features with [`features`]; describes the first difference.
pub fn audit(game: &Game) -> Result<(), String> {
    let rs = game.rules().ruleset();
    let tiles = game.tiles();
    let engine_id = |i: usize, f: u8| -> Option<FeatureId> {
        let t = tiles[i];
        let seg = rs.tiles[t.tile as usize].features[f as usize]
            .segments
            .first()?;
        let rot = &rs.tiles[t.tile as usize].rotations[t.rotation as usize];
        let cell = rs.tiles[t.tile as usize].features[f as usize]
            .cells
            .trailing_zeros()
            .min(rot.cells.len() as u32 - 1) as usize;
        let off = rot.cells[cell].offset;
        game.feature_id(t.x + off.0 as i32, t.y + off.1 as i32, seg)
    };
    let mut seen = BTreeSet::new();
    for nf in features(game) {
        let ids: BTreeSet<Option<FeatureId>> =
            nf.members.iter().map(|&(i, f)| engine_id(i, f)).collect();
        if ids.len() != 1 {
            return Err(format!(
                "naive feature {nf:?} is split in the engine: {ids:?}"
            ));
        }
        let Some(Some(id)) = ids.into_iter().next() else {
            return Err(format!("naive feature {nf:?} unknown to the engine"));
        };
        if !seen.insert(id) {
            return Err(format!("engine feature {id:?} joins two naive features"));
        }
        let info = game.feature(id).ok_or("no feature info")?;
        if nf.kind == FeatureKind::Unscored {
            continue;
        }
        if info.kind != nf.kind
            || info.tiles != nf.tiles
            || info.pennants != nf.pennants
            || info.complete != nf.complete
        {
            return Err(format!("engine {info:?} differs from naive {nf:?}"));
        }
    }
    Ok(())
}

/// The final scoring (B-6) recomputed from scratch for the followers still on the board: every
/// incomplete road, city and cloister and every field, to its majority (B-5). Returns points by
/// seat. Compare with the sum of the `B-6` score events after [`Game::finish`] or a full game.
pub fn final_scores(game: &Game) -> Vec<u32> {
    let rs = game.rules().ruleset();
    let sc = &rs.scoring;
    let feats = features(game);
    let mut of: BTreeMap<(usize, u8), usize> = BTreeMap::new();
    for (k, f) in feats.iter().enumerate() {
        for &m in &f.members {
            of.insert(m, k);
        }
    }
    let mut strength: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    let mut out = vec![0u32; game.players() as usize];
    let cities_of = |k: usize| completed_cities(game, &feats, &of, k);
    for f in game.followers() {
        let k = of[&(f.instance as usize, f.feature)];
        let field_cities = if feats[k].kind == FeatureKind::Field {
            cities_of(k)
        } else {
            Vec::new()
        };
        let mut counts = NaiveCounts {
            game,
            f: &feats[k],
            feats: &feats,
            cities: &field_cities,
        };
        let ft = &rs.followers[f.follower as usize];
        if f.corner.is_some() {
            // AM-9: the corner figure's owner scores its field's final corner value.
            let value = ft.corner.as_ref().map_or(0, |c| c.final_.eval(&mut counts));
            points::add(&mut out[f.player as usize], value);
            continue;
        }
        let s = strength
            .entry(k)
            .or_insert_with(|| vec![0; game.players() as usize]);
        let seat = &mut s[f.player as usize];
        *seat = seat.saturating_add(ft.strength_on(&mut counts));
    }
    for (k, st) in strength {
        let f = &feats[k];
        let cities = if f.kind == FeatureKind::Field {
            cities_of(k)
        } else {
            Vec::new()
        };
        let cities = &cities[..];
        let feats = &feats[..];
        // Features still incomplete (and every field) score their end value (B-6).
        let expr = sc.values.of(f.kind, false).filter(|_| !f.complete);
        let counts = || NaiveCounts {
            game,
            f,
            feats,
            cities,
        };
        let value = expr.map_or(0, |e| e.eval(&mut counts()));
        let best = st.iter().copied().max().unwrap_or(0);
        if best == 0 || f.complete {
            continue;
        }
        for (p, &s) in st.iter().enumerate() {
            if s == best {
                points::add(&mut out[p], value);
            }
        }
        add_payments(game, (&of, k), (&st, best), counts, &mut out);
    }
    out
}

/// Payment modifiers (TB-8, lowered to `feature-paid` rules scoring `has(FIGURE)`): each figure
/// on feature `k` of such a type adds the value to its owner's payment when the owner is among
/// the majority (`st`: strengths by seat, `best` the largest).
fn add_payments<C: Counts>(
    game: &Game,
    (of, k): (&BTreeMap<(usize, u8), usize>, usize),
    (st, best): (&[u32], u32),
    counts: impl Fn() -> C,
    out: &mut [u32],
) {
    let rs = game.rules().ruleset();
    for fig in game.followers() {
        let here = of[&(fig.instance as usize, fig.feature)] == k;
        if !here || st[fig.player as usize] != best {
            continue;
        }
        for value in payments(rs, fig.follower) {
            let extra = value.eval(&mut counts());
            points::add(&mut out[fig.player as usize], extra);
        }
    }
}

/// The values of the `feature-paid` rules paying the winners with a figure of type `ftype`
/// (`has(FIGURE)`: a figure's `payment` as the model lowers it).
fn payments(rs: &tegula_ruleset::Ruleset, ftype: u8) -> impl Iterator<Item = &Expr> {
    let paid = rs
        .when
        .iter()
        .filter(|w| matches!(w.event, RuleEvent::FeaturePaid { .. }));
    paid.flat_map(|w| &w.then).filter_map(move |a| match a {
        Act::Score {
            value,
            to: Seat::Has(f),
        } if *f == ftype => Some(value),
        _ => None,
    })
}

/// The counts of one recomputed feature, as a value expression reads them.
struct NaiveCounts<'a> {
    game: &'a Game,
    f: &'a NaiveFeature,
    feats: &'a [NaiveFeature],
    /// The completed cities a field borders (indices into `feats`), each once.
    cities: &'a [usize],
}

impl Counts for NaiveCounts<'_> {
    fn count(&mut self, q: Quantity) -> u32 {
        let cloister = self.f.kind == FeatureKind::Cloister;
        match q {
            // A cloister covers one cell; its `tiles` field holds its neighbours.
            Quantity::Tiles if cloister => 1,
            Quantity::Tiles => self.f.tiles,
            Quantity::Pennants => self.f.pennants,
            Quantity::Neighbours if cloister => self.f.tiles,
            Quantity::Neighbours => 0,
            Quantity::Cities => self.cities.len() as u32,
            Quantity::CitiesWith(t) => {
                let with = |&&c: &&usize| tagged(self.game, &self.feats[c], t) > 0;
                self.cities.iter().filter(with).count() as u32
            }
            Quantity::Tag(t) => tagged(self.game, self.f, t),
            // Never in a feature's value (the model refuses them there).
            Quantity::Record(_)
            | Quantity::Counters(_)
            | Quantity::Held(_)
            | Quantity::Completed(_)
            | Quantity::Touching(..)
            | Quantity::Extends(_)
            | Quantity::ExtendsOpen(_)
            | Quantity::OwnerActs
            | Quantity::PlacedThisTurn
            | Quantity::OwnerFigure
            | Quantity::Occupants
            | Quantity::OwnerFigures
            | Quantity::Figures { .. }
            | Quantity::Features { .. }
            | Quantity::Lines(_)
            | Quantity::Players
            | Quantity::GameTiles
            | Quantity::Near(_)
            | Quantity::Score
            | Quantity::Taken
            | Quantity::Track(_)
            | Quantity::TrackWas(_)
            | Quantity::OnBoard(_)
            | Quantity::SetAside
            | Quantity::Assigned(_)
            | Quantity::HoldsAssigned(_)
            | Quantity::AssignedWins(_)
            | Quantity::OnTileOf(_) => 0,
        }
    }
}

/// Segments of `f` carrying tag `t`.
fn tagged(game: &Game, f: &NaiveFeature, t: u32) -> u32 {
    let rs = game.rules().ruleset();
    let tiles = game.tiles();
    let tagged = |&&(i, fi): &&(usize, u8)| {
        let feat = &rs.tiles[tiles[i].tile as usize].features[fi as usize];
        t < 32 && feat.tags & (1 << t) != 0
    };
    f.members.iter().filter(tagged).count() as u32
}

/// Completed cities bordering the field `feats[k]` (B-6), each once (indices into `feats`).
fn completed_cities(
    game: &Game,
    feats: &[NaiveFeature],
    of: &BTreeMap<(usize, u8), usize>,
    k: usize,
) -> Vec<usize> {
    let rs = game.rules().ruleset();
    let tiles = game.tiles();
    let mut cities = BTreeSet::new();
    for &(i, fi) in &feats[k].members {
        let t = &rs.tiles[tiles[i].tile as usize];
        for &b in &t.features[fi as usize].borders {
            let c = of[&(i, b)];
            if feats[c].complete {
                cities.insert(c);
            }
        }
    }
    cities.into_iter().collect()
}

/// The engine's id of the naive feature holding member `(instance, feature)`.
fn engine_id(game: &Game, (i, f): (usize, u8)) -> Option<FeatureId> {
    let rs = game.rules().ruleset();
    let t = game.tiles()[i];
    let tt = &rs.tiles[t.tile as usize];
    let seg = tt.features[f as usize].segments.first()?;
    let rot = &tt.rotations[t.rotation as usize];
    let cell = tt.features[f as usize]
        .cells
        .trailing_zeros()
        .min(rot.cells.len() as u32 - 1) as usize;
    let off = rot.cells[cell].offset;
    game.feature_id(t.x + off.0 as i32, t.y + off.1 as i32, seg)
}

/// Cells covered by each tile instance, and the instance covering each cell.
fn cover(game: &Game) -> HashMap<(i32, i32), usize> {
    let rs = game.rules().ruleset();
    let mut at = HashMap::new();
    for (i, t) in game.tiles().iter().enumerate() {
        for c in &rs.tiles[t.tile as usize].rotations[t.rotation as usize].cells {
            at.insert((t.x + c.offset.0 as i32, t.y + c.offset.1 as i32), i);
        }
    }
    at
}

/// AM-6 from scratch: the fields of the tile just placed that have a corner where four filled
/// cells meet with field on both half-edges of all four cell corners, and no corner figure yet.
pub fn corner_fields(game: &Game) -> BTreeSet<FeatureId> {
    corner_points(game).into_keys().collect()
}

/// AM-6 from scratch: every such corner of the tile just placed (a board point; point `(x, y)`
/// is the north-west corner of cell `(x, y)`), by the field it belongs to.
pub fn corner_points(game: &Game) -> BTreeMap<FeatureId, BTreeSet<[i32; 2]>> {
    let rs = game.rules().ruleset();
    let tiles = game.tiles();
    let Some(last) = tiles.len().checked_sub(1) else {
        return BTreeMap::new();
    };
    let at = cover(game);
    let half = |x: i32, y: i32, h: usize| -> Option<u8> {
        let &i = at.get(&(x, y))?;
        let t = tiles[i];
        let rot = &rs.tiles[t.tile as usize].rotations[t.rotation as usize];
        let c = rot
            .cells
            .iter()
            .find(|c| (t.x + c.offset.0 as i32, t.y + c.offset.1 as i32) == (x, y))?;
        Some(c.half_feature[h]).filter(|&f| f != NO_FEATURE)
    };
    // Cell corners around a point: (dx, dy, the two halves at that corner).
    let around = [(-1, -1, 3, 4), (0, -1, 5, 6), (-1, 0, 1, 2), (0, 0, 7, 0)];
    let taken: BTreeSet<FeatureId> = game
        .followers()
        .iter()
        .filter(|f| f.corner.is_some())
        .map(|f| f.feature_id)
        .collect();
    let t = tiles[last];
    let mut out: BTreeMap<FeatureId, BTreeSet<[i32; 2]>> = BTreeMap::new();
    for c in &rs.tiles[t.tile as usize].rotations[t.rotation as usize].cells {
        let (cx, cy) = (t.x + c.offset.0 as i32, t.y + c.offset.1 as i32);
        for (px, py) in [(cx, cy), (cx + 1, cy), (cx + 1, cy + 1), (cx, cy + 1)] {
            let pure = around.iter().all(|&(dx, dy, a, b)| {
                let (fa, fb) = (half(px + dx, py + dy, a), half(px + dx, py + dy, b));
                fa.is_some() && fa == fb
            });
            if !pure {
                continue;
            }
            // The tile's own corner at this point names the field.
            let mine = around.iter().find_map(|&(dx, dy, a, _)| {
                let cell = (px + dx, py + dy);
                (at.get(&cell) == Some(&last)).then(|| half(cell.0, cell.1, a))?
            });
            if let Some(id) = mine.and_then(|f| engine_id(game, (last, f))) {
                if !taken.contains(&id) {
                    out.entry(id).or_default().insert([px, py]);
                }
            }
        }
    }
    out
}

/// AM-11 from scratch: the features the figure deciding now may move to — a kind its type may
/// stand on, not complete, no figure on it, on a tile adjacent in the type's sense.
pub fn move_targets(game: &Game) -> BTreeSet<FeatureId> {
    let rs = game.rules().ruleset();
    let Some(&(_, ftype, inst, scored)) = game.waiting_figures().first() else {
        return BTreeSet::new();
    };
    let fig = &rs.followers[ftype as usize];
    let tiles = game.tiles();
    let at = cover(game);
    let feats = features(game);
    let mut near = BTreeSet::new();
    match fig.after_score {
        tegula_ruleset::AfterScore::Move(tegula_ruleset::Adjacency::Connected) => {
            for f in &feats {
                if f.members
                    .iter()
                    .any(|&m| engine_id(game, m) == Some(scored))
                {
                    near.extend(f.members.iter().map(|m| m.0));
                }
            }
        }
        _ => {
            let t = tiles[inst as usize];
            for c in &rs.tiles[t.tile as usize].rotations[t.rotation as usize].cells {
                let (x, y) = (t.x + c.offset.0 as i32, t.y + c.offset.1 as i32);
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        near.extend(at.get(&(x + dx, y + dy)).copied());
                    }
                }
            }
        }
    }
    let held: BTreeSet<FeatureId> = game.followers().iter().map(|f| f.feature_id).collect();
    let mut out = BTreeSet::new();
    for f in &feats {
        if !fig.stands_on(f.kind) || f.complete || !f.members.iter().any(|m| near.contains(&m.0)) {
            continue;
        }
        if let Some(id) = engine_id(game, f.members[0]) {
            if !held.contains(&id) {
                out.insert(id);
            }
        }
    }
    out
}
