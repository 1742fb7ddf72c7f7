//! Observation planes for networks (docs/AI.md, "Observation planes"): a `C × S × S` tensor of
//! the board window (`S = 2r + 1`, the window and its centre as the flat observation's), with
//! a channel layout generated from the variant — an expansion's edge kinds, feature kinds, tags
//! and figure types add channels, not code — filled straight into a caller's buffer (a NumPy
//! array's memory: no Python list, no intermediate array).
//!
//! Channels, in order (`Layout::names` spells them):
//!
//! | channels | meaning (1 where true, counts where said) |
//! |---|---|
//! | `tile` | a tile covers the cell |
//! | `edge:SIDE:KIND` | side N, E, S, W of the cell is of KIND: city, road, field, any, then the variant's declared edge kinds |
//! | `feature:KIND` | a feature of KIND lies on the cell, for each kind the variant's tiles have |
//! | `pennants` | pennants on the cell's features (count; where the variant prints any) |
//! | `tag:NAME` | a feature on the cell or its tile carries tag NAME, for each tag of the variant |
//! | `figure:SEAT:TYPE` | figures of SEAT of follower TYPE at the cell (count), seat-major |
//! | `fits:R` | the tile to place fits with its anchor here in rotation R (0..4; none when hidden from the viewer) |
//! | `last` | the tile placed last covers the cell |

use tegula_engine::Game;
use tegula_ruleset::{FeatureKind, Ruleset, SideKind};

use crate::observe::View;

/// Where each group of channels starts; built from a ruleset and a seat count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Edge kinds per side: city, road, field, any, then the declared ones.
    edge_kinds: usize,
    /// Channel of each feature kind (`FeatureKind::ALL` order), when the variant has it.
    feature: [Option<usize>; 5],
    pennants: Option<usize>,
    tags: usize,
    figures: usize,
    followers: usize,
    fits: usize,
    last: usize,
    /// Number of channels.
    pub channels: usize,
}

const SIDES: [&str; 4] = ["N", "E", "S", "W"];
const BASE_EDGES: [&str; 4] = ["city", "road", "field", "any"];
const EDGE: usize = 1;

impl Layout {
    /// The layout of `rs` for `players` seats.
    pub fn new(rs: &Ruleset, players: u8) -> Layout {
        let edge_kinds = BASE_EDGES.len() + rs.edge_kinds.len();
        let mut next = EDGE + 4 * edge_kinds;
        let mut feature = [None; 5];
        for (i, kind) in FeatureKind::ALL.iter().enumerate() {
            let used = rs
                .tiles
                .iter()
                .any(|t| t.features.iter().any(|f| f.kind == *kind));
            if used {
                feature[i] = Some(next);
                next += 1;
            }
        }
        let printed = rs
            .tiles
            .iter()
            .any(|t| t.features.iter().any(|f| f.pennants > 0));
        let pennants = printed.then(|| {
            next += 1;
            next - 1
        });
        let tags = next;
        next += rs.tags.len();
        let figures = next;
        let followers = rs.followers.len();
        next += usize::from(players) * followers;
        let fits = next;
        let last = fits + 4;
        Layout {
            edge_kinds,
            feature,
            pennants,
            tags,
            figures,
            followers,
            fits,
            last,
            channels: last + 1,
        }
    }

    /// Every channel's name, in order (the table in the module docs).
    pub fn names(&self, rs: &Ruleset, players: u8) -> Vec<String> {
        let mut v = vec!["tile".to_string()];
        let declared = rs.edge_kinds.iter().map(|e| e.id.as_str());
        let kinds: Vec<&str> = BASE_EDGES.iter().copied().chain(declared).collect();
        for side in SIDES {
            v.extend(kinds.iter().map(|k| format!("edge:{side}:{k}")));
        }
        for (i, kind) in FeatureKind::ALL.iter().enumerate() {
            if self.feature[i].is_some() {
                v.push(format!("feature:{}", kind.name()));
            }
        }
        if self.pennants.is_some() {
            v.push("pennants".into());
        }
        v.extend(rs.tags.iter().map(|t| format!("tag:{t}")));
        for p in 0..players {
            v.extend(rs.followers.iter().map(|f| format!("figure:{p}:{}", f.id)));
        }
        v.extend((0..4).map(|r| format!("fits:{r}")));
        v.push("last".into());
        v
    }

    fn edge(&self, side: usize, k: SideKind) -> usize {
        let kind = match k {
            SideKind::City => 0,
            SideKind::Road => 1,
            SideKind::Field => 2,
            SideKind::Any => 3,
            SideKind::Declared(d) => (4 + usize::from(d)).min(self.edge_kinds - 1),
        };
        EDGE + side * self.edge_kinds + kind
    }
}

/// The window: `S`, its centre, and the flat index of a board cell's entry in channel 0.
struct Window {
    s: i32,
    r: i32,
    cx: i32,
    cy: i32,
}

impl Window {
    fn at(&self, x: i32, y: i32) -> Option<usize> {
        let (j, i) = (x - self.cx + self.r, y - self.cy + self.r);
        ((0..self.s).contains(&i) && (0..self.s).contains(&j)).then(|| (i * self.s + j) as usize)
    }
}

/// An entry of the planes: float32 or uint8 (whose counts saturate at 255).
pub trait Entry: Copy {
    /// 1.
    const ONE: Self;
    /// Increase by `n`.
    fn bump(&mut self, n: u8);
}

impl Entry for f32 {
    const ONE: f32 = 1.0;
    fn bump(&mut self, n: u8) {
        *self += f32::from(n);
    }
}

impl Entry for u8 {
    const ONE: u8 = 1;
    fn bump(&mut self, n: u8) {
        *self = self.saturating_add(n);
    }
}

/// The planes being filled: `data` is `channels × plane` entries.
struct Planes<'a, T> {
    data: &'a mut [T],
    plane: usize,
}

impl<T: Entry> Planes<'_, T> {
    /// Channel `c` at window entry `at` set to 1.
    fn set(&mut self, c: usize, at: usize) {
        if let Some(v) = self.data.get_mut(c * self.plane + at) {
            *v = T::ONE;
        }
    }

    /// Channel `c` at window entry `at` increased by `n`.
    fn add(&mut self, c: usize, at: usize, n: u8) {
        if let Some(v) = self.data.get_mut(c * self.plane + at) {
            v.bump(n);
        }
    }
}

/// Fill `out` (`layout.channels × S × S`, zeroed by the caller) with the planes of `game` as
/// `view` sees it.
pub fn fill<T: Entry>(game: &Game, radius: u16, view: View, layout: &Layout, out: &mut [T]) {
    let r = i32::from(radius);
    let (cx, cy) = crate::observe::centre(game);
    let w = Window {
        s: 2 * r + 1,
        r,
        cx,
        cy,
    };
    let plane = (w.s * w.s) as usize;
    let mut out = Planes { data: out, plane };
    let rs = game.rules().ruleset();
    for t in game.tiles() {
        let tile = &rs.tiles[usize::from(t.tile)];
        for ports in &tile.rotations[usize::from(t.rotation)].cells {
            let (x, y) = (
                t.x + i32::from(ports.offset.0),
                t.y + i32::from(ports.offset.1),
            );
            let Some(at) = w.at(x, y) else {
                continue;
            };
            out.set(0, at);
            for (side, &k) in ports.sides.iter().enumerate() {
                out.set(layout.edge(side, k), at);
            }
            let mut seen = 0u64;
            let feats = ports.side_feature.iter().chain(&ports.half_feature);
            for &f in feats.chain(&ports.inner) {
                if f >= 64 || seen & (1 << f) != 0 {
                    continue;
                }
                seen |= 1 << f;
                let Some(feat) = tile.features.get(usize::from(f)) else {
                    continue;
                };
                let k = FeatureKind::ALL.iter().position(|&a| a == feat.kind);
                if let Some(c) = k.and_then(|k| layout.feature[k]) {
                    out.set(c, at);
                }
                if let Some(c) = layout.pennants.filter(|_| feat.pennants > 0) {
                    out.add(c, at, feat.pennants);
                }
                tags(layout, feat.tags, rs.tags.len(), |c| out.set(c, at));
            }
            tags(layout, tile.tags, rs.tags.len(), |c| out.set(c, at));
        }
    }
    for f in game.followers() {
        let (x, y) = f.corner.map_or((f.x, f.y), |c| (c[0], c[1]));
        if let Some(at) = w.at(x, y) {
            let seat = usize::from(f.player) * layout.followers;
            out.add(layout.figures + seat + usize::from(f.follower), at, 1);
        }
    }
    extras(game, view, layout, &w, &mut out);
}

/// The tag channels of the tags set in `bits`.
fn tags(layout: &Layout, bits: u32, count: usize, mut set: impl FnMut(usize)) {
    for t in 0..count.min(32) {
        if bits & (1 << t) != 0 {
            set(layout.tags + t);
        }
    }
}

/// The `fits:R` and `last` channels.
fn extras<T: Entry>(game: &Game, view: View, layout: &Layout, w: &Window, out: &mut Planes<'_, T>) {
    if !view.hides_tile(game) {
        for p in game.placements() {
            if let Some(at) = w.at(p.x, p.y) {
                out.set(layout.fits + usize::from(p.rotation & 3), at);
            }
        }
    }
    if let Some(last) = game.tiles().last() {
        let tile = &game.rules().ruleset().tiles[usize::from(last.tile)];
        for c in &tile.rotations[usize::from(last.rotation)].cells {
            let (x, y) = (
                last.x + i32::from(c.offset.0),
                last.y + i32::from(c.offset.1),
            );
            if let Some(at) = w.at(x, y) {
                out.set(layout.last, at);
            }
        }
    }
}
