//! Observation tensors (docs/AI.md, "Observation tensors").
//!
//! `board` is `float32[C, S, S]` with `S = 2r + 1`, a window of the board centred on the middle
//! of the placed tiles' bounding box (rounded towards negative infinity); cell `[.., i, j]` is
//! board cell `(cx - r + j, cy - r + i)`. Planes, for `P` seats:
//!
//! | planes | meaning |
//! |---|---|
//! | 0 | a tile covers the cell |
//! | 1..17 | side kinds: plane `1 + 4 * side + kind`, side N, E, S, W; kind city, road, field, any |
//! | 17..22 | the cell holds a feature of kind city, road, field, cloister, wonder |
//! | 22..22+P | figures of seat `p` on the tile anchored at the cell (count) |
//! | 22+P..26+P | the tile to place fits with its anchor here in rotation 0, 1, 2, 3 |
//! | 26+P | the tile placed last covers the cell |
//!
//! `features` is `float32[N]`: the acting seat one-hot (`P`, zeros at a chance node or the end),
//! the phase one-hot (pick, order, hand, draw (the chance node), place, follower, move, over: 8),
//! scores (`P`), supply (`P × F`
//! follower types, seat-major), the tile to place one-hot (`T` tile types), the tiles left to
//! draw by type (`T`), own tiles held (`P × H` kinds, seat-major), seat resources held (`P × R`
//! resources, seat-major; none in most variants), in a variant with stacks (TO-1) the figures
//! held by a seat other than their owner (`P × P × F`: holder, owner, figure type) and one slot
//! per tile of the variant that can carry a stack (`K × 7`, by row then column, empty slots
//! last: 1, `x - cx`, `y - cy`, height, top figure's owner + 1 and type + 1 (0: none), closed),
//! in a variant where a seat
//! can hold more than one tile the kept tiles by type (`T`: the viewer's, or every seat's in the
//! full view); in a variant with an open pool (W-1 .. W-7) the pool's tiles (`K` pool tile
//! kinds), the pool tiles each seat holds taken but unplaced and each seat owns placed (`P × K`
//! each, seat-major), the tiles each seat took (`P`), where the marker pairs stand and whether a
//! taken tile must be placed now (2); in a variant whose figures move after scoring (AM-11) the
//! freed figures waiting to move by seat and type (`P × F`); the window centre `cx, cy` (2).
//! Nothing in it depends on the order of the pile (hidden information).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tegula_engine::{Game, Phase, SideKind};
use tegula_ruleset::{Act, FeatureKind};

use crate::chance;

/// Default half-width of the board window (a 25 × 25 window).
pub const DEFAULT_RADIUS: u16 = 12;

/// Planes besides the per-seat ones.
const FIXED_PLANES: usize = 27;

/// Number of board planes for `players` seats.
pub fn planes(players: u8) -> usize {
    FIXED_PLANES + players as usize
}

/// `((C, S, S), N)`.
pub fn shape(game: &Game, radius: u16) -> ((usize, usize, usize), usize) {
    let s = 2 * radius as usize + 1;
    ((planes(game.players()), s, s), features_len(game))
}

/// Length of the global feature vector.
pub fn features_len(game: &Game) -> usize {
    let rs = game.rules().ruleset();
    let (p, t) = (game.players() as usize, rs.tiles.len());
    let kept = if holds_hand(game) { t } else { 0 };
    let held = p * rs.player_tiles.len() + p * rs.resources.len();
    let pool = rs
        .pool
        .as_ref()
        .map_or(0, |w| w.tiles.len() * (1 + 2 * p) + p + 2);
    let freed = if moves_figures(game) {
        p * rs.followers.len()
    } else {
        0
    };
    let captives = if rs.stacks.is_empty() {
        0
    } else {
        p * p * rs.followers.len() + STACK_SLOT * stack_slots(rs)
    };
    p + 8
        + p
        + p * rs.followers.len()
        + 2 * t
        + held
        + captives
        + kept
        + pool
        + freed
        + 2
        + neutral_len(game)
}

/// Floats of one stack slot.
const STACK_SLOT: usize = 7;

/// How many stacks a game of the variant can have: its tiles (pile copies and the start tile)
/// carrying a stack type's site tag.
fn stack_slots(rs: &tegula_ruleset::Ruleset) -> usize {
    let sites = rs.stacks.iter().fold(0u32, |m, s| m | 1 << s.site_tag);
    let carries = |t: &tegula_ruleset::TileType| {
        let tags = t.features.iter().fold(t.tags, |m, f| m | f.tags);
        tags & sites != 0
    };
    let tiles = rs.tiles.iter().enumerate().filter(|(_, t)| carries(t));
    let start = |i: usize| usize::from(rs.start_tile == Some(i as u16));
    tiles.map(|(i, t)| t.count as usize + start(i)).sum()
}

/// The stacks (one slot each, by row then column) and the figures held by a seat other than
/// their owner (TO-4, by holder, owner and type); only in a variant with stacks.
fn captive_features(game: &Game, (cx, cy): (i32, i32), v: &mut Vec<f32>) {
    let rs = game.rules().ruleset();
    if rs.stacks.is_empty() {
        return;
    }
    let mut stacks = game.stacks();
    stacks.sort_by_key(|s| (s.y, s.x));
    let slots = stack_slots(rs);
    for i in 0..slots {
        match stacks.get(i) {
            Some(s) => {
                let (owner, ftype) = s.top.map_or((0.0, 0.0), |(p, f)| {
                    (f32::from(p) + 1.0, f32::from(f) + 1.0)
                });
                v.extend([
                    1.0,
                    (s.x - cx) as f32,
                    (s.y - cy) as f32,
                    f32::from(s.height),
                    owner,
                    ftype,
                    f32::from(u8::from(s.closed)),
                ]);
            }
            None => v.extend([0.0; STACK_SLOT]),
        }
    }
    let (p, f) = (usize::from(game.players()), rs.followers.len());
    let mut m = vec![0.0; p * p * f];
    for (holder, owner, ftype) in game.held_figures() {
        let i = (usize::from(holder) * p + usize::from(owner)) * f + usize::from(ftype);
        if let Some(c) = m.get_mut(i) {
            *c += 1.0;
        }
    }
    v.extend(m);
}

/// Cells of a walk's visited list the observation holds (a longer walk's first ones).
const VISITED: usize = 8;

/// Length of the neutral figures' part of the features: each figure's place, the walk under
/// way, the tiles set aside by type (each only in a variant that has them).
fn neutral_len(game: &Game) -> usize {
    let rs = game.rules().ruleset();
    let mut n = 3 * rs.neutrals.len();
    if rs
        .when
        .iter()
        .flat_map(|w| &w.then)
        .any(|a| matches!(a, Act::Walk(_)))
    {
        n += 2 + 3 * VISITED;
    }
    if rs.when.iter().any(|w| w.then.contains(&Act::SetAside)) {
        n += rs.tiles.len();
    }
    n
}

/// The neutral figures (on the board, and the cell from the window's centre), the walk under
/// way (steps left and made, the cells visited from the centre) and the tiles set aside by
/// type: all public.
fn neutral_features(game: &Game, (cx, cy): (i32, i32), v: &mut Vec<f32>) {
    let rs = game.rules().ruleset();
    let from = |(x, y): (i32, i32)| [(x - cx) as f32, (y - cy) as f32];
    for n in 0..rs.neutrals.len() {
        match game.neutral_at(n) {
            Some(at) => v.extend([1.0].into_iter().chain(from(at))),
            None => v.extend([0.0; 3]),
        }
    }
    if rs
        .when
        .iter()
        .flat_map(|w| &w.then)
        .any(|a| matches!(a, Act::Walk(_)))
    {
        let (left, made, visited) = game.walk_state().unwrap_or((0, 0, &[]));
        v.extend([left as f32, made as f32]);
        for k in 0..VISITED {
            match visited.get(k) {
                Some(&at) => v.extend([1.0].into_iter().chain(from(at))),
                None => v.extend([0.0; 3]),
            }
        }
    }
    if rs.when.iter().any(|w| w.then.contains(&Act::SetAside)) {
        let mut aside = vec![0.0; rs.tiles.len()];
        for &t in game.set_aside_tiles() {
            aside[usize::from(t)] += 1.0;
        }
        v.extend(aside);
    }
}

/// Whether some figure type of the game's variant may move after its feature is scored.
fn moves_figures(game: &Game) -> bool {
    let rs = game.rules().ruleset();
    rs.followers
        .iter()
        .any(|f| matches!(f.after_score, tegula_ruleset::AfterScore::Move(_)))
}

/// The open pool's public state (W-1 .. W-7): its tiles, what each seat holds and owns of them,
/// the takes, the marker pairs and whether a taken tile must be placed now.
fn pool_features(game: &Game, v: &mut Vec<f32>) {
    let Some(w) = game.rules().ruleset().pool.as_ref() else {
        return;
    };
    let kinds = &w.tiles;
    let kind = |t: u16| kinds.iter().position(|&k| k == t);
    let mut open = vec![0.0; kinds.len()];
    game.pool()
        .iter()
        .filter_map(|&t| kind(t))
        .for_each(|k| open[k] += 1.0);
    v.extend(open);
    let players = usize::from(game.players());
    let mut by_seat = |pairs: &mut dyn Iterator<Item = (u8, u16)>| {
        let mut m = vec![0.0; players * kinds.len()];
        for (p, t) in pairs {
            if let Some(k) = kind(t) {
                m[usize::from(p) * kinds.len() + k] += 1.0;
            }
        }
        v.extend(m);
    };
    by_seat(&mut game.pool_held().iter().copied());
    by_seat(&mut game.pool_owned().into_iter().map(|(p, t, _)| (p, t)));
    v.extend(game.pool_taken().iter().map(|&n| f32::from(n)));
    v.extend([
        game.track_at(0) as f32,
        f32::from(u8::from(game.must_place())),
    ]);
}

/// The freed figures waiting to move (AM-11), by seat and type.
fn freed_features(game: &Game, v: &mut Vec<f32>) {
    if !moves_figures(game) {
        return;
    }
    let types = game.rules().ruleset().followers.len();
    let mut m = vec![0.0; usize::from(game.players()) * types];
    for (p, f, _, _) in game.waiting_figures() {
        m[usize::from(p) * types + usize::from(f)] += 1.0;
    }
    v.extend(m);
}

/// Whether a seat of the game's variant can hold more than one tile (so keeps tiles).
fn holds_hand(game: &Game) -> bool {
    crate::codec::largest_hand(game.rules().ruleset()) > 1
}

/// The phase's name.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Pick => "pick",
        Phase::Order => "order",
        Phase::Hand => "hand",
        Phase::Draw => "draw",
        Phase::Place => "place",
        Phase::Follower => "follower",
        Phase::Move => "move",
        Phase::Over => "over",
        Phase::Choice => "choice",
        _ => "other",
    }
}

fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Pick => 0,
        Phase::Order => 1,
        Phase::Hand => 2,
        Phase::Draw => 3,
        Phase::Place => 4,
        Phase::Follower => 5,
        Phase::Move => 6,
        _ => 7,
    }
}

/// Centre of the placed tiles' bounding box (the window's and the action ids' centre).
pub fn centre(game: &Game) -> (i32, i32) {
    let tiles = game.tiles();
    let xs = tiles.iter().map(|t| t.x);
    let ys = tiles.iter().map(|t| t.y);
    let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
    let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
    ((x0 + x1).div_euclid(2), (y0 + y1).div_euclid(2))
}

fn side_kind_index(k: SideKind) -> usize {
    match k {
        SideKind::City => 0,
        SideKind::Road => 1,
        SideKind::Field => 2,
        // A declared edge kind (R-1's water) shares the last plane with `any`: neither city,
        // road nor field, and a new plane would change every variant's observation shape.
        SideKind::Any | SideKind::Declared(_) => 3,
    }
}

fn feature_kind_index(k: FeatureKind) -> usize {
    FeatureKind::ALL.iter().position(|&a| a == k).unwrap_or(0)
}

/// Whose observation: everything (`None`, and every seat in a variant of perfect information),
/// or what seat `v` sees in a variant with hidden tiles (`Some(v)`): another seat's drawn tile
/// and kept tiles are hidden, and the tiles left count every tile `v` has not seen.
#[derive(Clone, Copy, Debug, Default)]
pub struct View(pub Option<u8>);

impl View {
    /// Whether the tile to place is hidden from the viewer.
    pub(crate) fn hides_tile(self, game: &Game) -> bool {
        let acting = game.current_player();
        game.phase() == Phase::Place && self.0.is_some_and(|v| v != acting)
    }

    /// Tiles the viewer has not seen, by type: the undrawn ones, plus other seats' kept tiles
    /// and their tile to place.
    fn unseen(self, game: &Game) -> Vec<u16> {
        let mut left = game.remaining_counts().to_vec();
        let Some(v) = self.0 else {
            return left;
        };
        let kept = game.kept_tiles().iter().filter(|k| k.0 != v).map(|k| k.1);
        let current = self.hides_tile(game).then(|| game.current_tile());
        for t in kept.chain(current) {
            if let Some(c) = left.get_mut(usize::from(t)) {
                *c += 1;
            }
        }
        left
    }
}

/// The board planes.
fn board(game: &Game, radius: u16, (cx, cy): (i32, i32), view: View) -> Array3<f32> {
    let r = i32::from(radius);
    let s = 2 * radius as usize + 1;
    let players = game.players() as usize;
    let mut b = Array3::<f32>::zeros((planes(game.players()), s, s));
    let rs = game.rules().ruleset();
    let at = |x: i32, y: i32| {
        let (j, i) = (x - cx + r, y - cy + r);
        ((0..s as i32).contains(&i) && (0..s as i32).contains(&j))
            .then_some((i as usize, j as usize))
    };
    for y in cy - r..=cy + r {
        for x in cx - r..=cx + r {
            let (Some((i, j)), Some((t, cell))) = (at(x, y), game.tile_at(x, y)) else {
                continue;
            };
            let tile = &rs.tiles[t.tile as usize];
            let ports = &tile.rotations[t.rotation as usize].cells[cell as usize];
            b[[0, i, j]] = 1.0;
            for (side, &k) in ports.sides.iter().enumerate() {
                b[[1 + 4 * side + side_kind_index(k), i, j]] = 1.0;
            }
            let feats = ports.side_feature.iter().chain(&ports.half_feature);
            for &f in feats.chain(&ports.inner) {
                if let Some(feat) = tile.features.get(f as usize) {
                    b[[17 + feature_kind_index(feat.kind), i, j]] = 1.0;
                }
            }
        }
    }
    for f in game.followers() {
        let (x, y) = f.corner.map_or((f.x, f.y), |c| (c[0], c[1]));
        if let Some((i, j)) = at(x, y) {
            b[[22 + f.player as usize, i, j]] += 1.0;
        }
    }
    let places = if view.hides_tile(game) {
        &[][..]
    } else {
        game.placements()
    };
    for p in places {
        if let Some((i, j)) = at(p.x, p.y) {
            b[[22 + players + p.rotation as usize, i, j]] = 1.0;
        }
    }
    if let Some(last) = game.tiles().last() {
        let tile = &rs.tiles[last.tile as usize];
        for c in &tile.rotations[last.rotation as usize].cells {
            let (x, y) = (
                last.x + i32::from(c.offset.0),
                last.y + i32::from(c.offset.1),
            );
            if let Some((i, j)) = at(x, y) {
                b[[26 + players, i, j]] = 1.0;
            }
        }
    }
    b
}

/// The global feature vector of `game` as `view` sees it (the `features` of `observation`).
pub fn global_features(game: &Game, view: View) -> Vec<f32> {
    features(game, centre(game), view)
}

/// The feature vector.
fn features(game: &Game, (cx, cy): (i32, i32), view: View) -> Vec<f32> {
    let rs = game.rules().ruleset();
    let players = game.players();
    let mut v = Vec::with_capacity(features_len(game));
    let chance = chance::is_chance_node(game);
    let acting = (game.phase() != Phase::Over && !chance).then(|| game.current_player());
    v.extend((0..players).map(|p| f32::from(u8::from(acting == Some(p)))));
    let phase = phase_index(game.phase());
    v.extend((0..8).map(|i| f32::from(u8::from(i == phase))));
    v.extend(game.scores().iter().map(|&s| s as f32));
    for p in 0..players {
        v.extend((0..rs.followers.len()).map(|f| f32::from(game.supply(p, f as u8))));
    }
    let shown = game.phase() == Phase::Place && !view.hides_tile(game);
    let tile = shown.then(|| game.current_tile() as usize);
    v.extend((0..rs.tiles.len()).map(|t| f32::from(u8::from(tile == Some(t)))));
    v.extend(view.unseen(game).iter().map(|&c| f32::from(c)));
    for p in 0..players {
        v.extend((0..rs.player_tiles.len()).map(|h| f32::from(game.held(p, h))));
    }
    // Seat resources are public (every seat sees what the others took).
    v.extend(game.holdings().iter().map(|&n| n as f32));
    captive_features(game, (cx, cy), &mut v);
    if holds_hand(game) {
        let mut kept = vec![0.0; rs.tiles.len()];
        let mine = game
            .kept_tiles()
            .iter()
            .filter(|k| view.0.is_none_or(|v| v == k.0));
        for k in mine {
            if let Some(c) = kept.get_mut(usize::from(k.1)) {
                *c += 1.0;
            }
        }
        v.extend(kept);
    }
    pool_features(game, &mut v);
    freed_features(game, &mut v);
    v.extend([cx as f32, cy as f32]);
    neutral_features(game, (cx, cy), &mut v);
    v
}

/// The observation dict of NumPy arrays.
pub fn observation<'py>(
    py: Python<'py>,
    game: &Game,
    radius: u16,
    view: View,
) -> PyResult<Bound<'py, PyDict>> {
    let c = centre(game);
    let d = PyDict::new(py);
    d.set_item("board", board(game, radius, c, view).into_pyarray(py))?;
    d.set_item("features", PyArray1::from_vec(py, features(game, c, view)))?;
    Ok(d)
}

/// Board planes then features, flattened (row-major).
pub fn flat(game: &Game, radius: u16, view: View) -> Vec<f32> {
    let c = centre(game);
    let (b, _) = board(game, radius, c, view).into_raw_vec_and_offset();
    let mut v = b;
    v.extend(features(game, c, view));
    v
}

/// The parts of the state only some variants have: own tiles held (AM-1), the open pool and
/// the pool tiles taken (W-1, W-5), every seat's kept tiles in the full view (W-12), the figure
/// waiting to move (AM-11).
fn extras(game: &Game, view: View) -> String {
    let rules = game.rules();
    let rs = rules.ruleset();
    let mut s = String::new();
    if !rs.player_tiles.is_empty() {
        let held = (0..game.players()).map(|p| {
            let h = (0..rs.player_tiles.len()).map(|i| game.held(p, i).to_string());
            h.collect::<Vec<_>>().join(",")
        });
        s.push_str(&format!(" held {}", held.collect::<Vec<_>>().join(" ")));
    }
    if rs.pool.is_some() {
        let pool: Vec<&str> = game.pool().iter().map(|&t| rules.tile_id(t)).collect();
        let taken: Vec<String> = game
            .pool_held()
            .iter()
            .map(|&(p, t)| format!("{p}:{}", rules.tile_id(t)))
            .collect();
        s.push_str(&format!(" pool {pool:?} taken {taken:?}"));
    }
    if view.0.is_none() && !game.kept_tiles().is_empty() {
        let kept: Vec<String> = game
            .kept_tiles()
            .iter()
            .map(|&(p, t)| format!("{p}:{}", rules.tile_id(t)))
            .collect();
        s.push_str(&format!(" kept {kept:?}"));
    }
    if let Some(&(owner, follower, tile, _)) = game.waiting_figures().first() {
        let who = rules.follower_id(follower);
        s.push_str(&format!(" moving {owner}:{who} from tile {tile}"));
    }
    s
}

/// The state as compact text (OpenSpiel's observation string): phase, seat to act, tile to
/// place, scores, supplies, the tiles left by type, then every placed tile (`id@x,y/r`) and
/// figure (`seat:follower@x,y#feature`). Two states with equal text look equal to every seat.
pub fn state_text(game: &Game, view: View) -> String {
    let rules = game.rules();
    let rs = rules.ruleset();
    let players = game.players();
    let mut s = format!(
        "{} seat {}",
        phase_name(game.phase()),
        game.current_player()
    );
    if game.phase() == Phase::Place && !view.hides_tile(game) {
        s.push_str(&format!(" tile {}", rules.tile_id(game.current_tile())));
    }
    if let Some(v) = view.0 {
        let kept = game.kept_tiles().iter().filter(|k| k.0 == v);
        let ids: Vec<&str> = kept.map(|k| rules.tile_id(k.1)).collect();
        s.push_str(&format!(" seat {v} keeps {ids:?}"));
    }
    s.push_str(&format!(" scores {:?} supply", game.scores()));
    for p in 0..players {
        let supply = (0..rs.followers.len()).map(|f| game.supply(p, f as u8).to_string());
        s.push_str(&format!(" {}", supply.collect::<Vec<_>>().join(",")));
    }
    if !game.holdings().is_empty() {
        s.push_str(&format!(" resources {:?}", game.holdings()));
    }
    s.push_str(&format!(" left {:?}", view.unseen(game)));
    s.push_str(&extras(game, view));
    s.push_str(" board");
    for t in game.tiles() {
        let id = rules.tile_id(t.tile);
        s.push_str(&format!(" {id}@{},{}/{}", t.x, t.y, t.rotation));
    }
    for f in game.followers() {
        let who = rules.follower_id(f.follower);
        s.push_str(&format!(
            " {}:{who}@{},{}#{}",
            f.player, f.x, f.y, f.feature
        ));
    }
    s
}
