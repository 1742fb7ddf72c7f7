//! Placing tiles: merging features across matching sides (B-2, B-3, AM-3). The frontier the
//! placed tile changes is kept by `frontier.rs`.

use tegula_ruleset::{FeatureKind, NO_FEATURE};

use super::choice::Stage;
use super::frontier::demand;
use super::{find, union, Event, Game, Inst, Placement, Seg, EMPTY, FRONT};
use crate::rules::joins::{SIDE_ANY, SIDE_CITY, SIDE_ROAD};
use crate::rules::{TileInfo, MAX_TILE_CELLS};

impl Game {
    /// Every placement a player makes (the drawn tile, an own tile, a pool tile): record it,
    /// put the tile down, score AM-8's joins at once (the registry's reading), and offer the
    /// follower options.
    pub(super) fn place_drawn(&mut self, p: Placement) {
        self.now.turn += 1;
        if self.log.record {
            let tile = self.rules.tile_id(p.tile).to_string();
            self.log.events.push(Event::Place {
                turn: self.now.turn,
                player: self.now.player,
                tile,
                x: p.x,
                y: p.y,
                rotation: p.rotation,
                // Cloning an empty list allocates nothing.
                rules: self.rules.ruleset().tiles[p.tile as usize].rules.clone(),
            });
        }
        // AM-8 read field by field needs the farmer fields as they are before this tile merges
        // them. One flag, false in the base game and under the registry's reading.
        if self.rules.each_field_joins {
            self.record_fields_before(p);
        }
        self.place_unchecked(p.tile, p.x, p.y, p.rotation);
        self.now.last_placer = self.now.player;
        if !self.rules.owns_on_place.is_empty() {
            self.own_placed_tile(p.tile);
        }
        // The one rule form (one test of a byte in variants without it): the placer is noted,
        // `tile-placed` raised (TB-5's extra turn, before any scoring takes figures off; GM-2's
        // first counter, before the figure step).
        if self.rules.when.kinds != 0 {
            self.rule_tile_placed();
        }
        if !self.due.pending_fields.is_empty() && self.rules.joins_at_once {
            // AM-8: a farmer field joined to a corner-figure field scores at once, so its
            // farmers are back in supply for this tile's figure decision. Under the other
            // reading the turn's scoring step scores it (`score_pending`).
            self.score_joined_fields();
        }
        // A pool tile's placement (W-5, W-6) goes on its own way: its offers wait for the
        // turn's end.
        let pooled = || self.w.must_place || self.w.w6.is_some();
        if !self.rf.offers.is_empty() && !pooled() && self.make_offers(Stage::Placed) {
            // Once they are answered, the figure step (game/choice.rs).
            return;
        }
        self.begin_figure_step();
    }

    /// Put a tile on the board and merge features; collects completion candidates.
    pub(super) fn place_unchecked(&mut self, tile: u16, x: i32, y: i32, rot: u8) {
        self.ensure_room(x, y);
        let inst_idx = self.board.insts.len() as u32;
        let seg_base = self.board.segs.len() as u32;
        self.zobrist = self
            .zobrist
            .wrapping_add(super::hash::tile_key(tile, x, y, rot));
        let words = self.rules.joins.at[tile as usize][rot as usize];
        self.board.insts.push(Inst {
            tile,
            rot,
            x,
            y,
            seg_base,
            words,
        });
        if self.is_stack_site(tile) {
            self.st.sites.push(inst_idx);
        }
        self.push_segments(tile, inst_idx, seg_base);
        let at = self.cover_cells(tile, rot, x, y, inst_idx);
        let rules = &*self.rules;
        let cells = &rules.tiles[tile as usize].rot[rot as usize];
        let table = &rules.joins.words;
        let mine = &table[words as usize..words as usize + cells.len()];
        let mut joins = Joins {
            segs: &mut self.board.segs,
            pending: &mut self.due.pending,
            fields: rules.any_corner.then_some(&mut self.due.pending_fields),
        };
        let (width, off) = (self.board.width, self.board.off);
        // Array steps to the neighbour across each side (north, east, south, west).
        let steps = [-(width as isize), 1, width as isize, -1];
        for ((c, &pos), my_words) in cells.iter().zip(&at).zip(mine) {
            if pos == OFF_BOARD {
                continue;
            }
            for s in 0..4 {
                if c.outer & (1 << s) == 0 {
                    continue;
                }
                // The four neighbours of a cell on the board are in the array (`pos_inner`).
                let npos = (pos as isize + steps[s]) as usize;
                let ncell = self.board.cells[npos];
                if ncell >= FRONT {
                    let n = (x + c.dx + DX[s], y + c.dy + DY[s]);
                    let board = (off, width);
                    demand(
                        &mut self.board.cells,
                        &mut self.board.frontier,
                        (npos, n),
                        board,
                        s,
                        c.sig,
                    );
                    continue;
                }
                let ninst = self.board.insts[(ncell >> 4) as usize];
                let theirs = table[(ninst.words + (ncell & 0x7)) as usize][(s + 2) % 4];
                joins.side((my_words[s], theirs), (seg_base, ninst.seg_base));
            }
        }
        self.note_cloisters(&at[..cells.len()]);
    }
}

/// Position of a tile cell that lies off the board (only at the edge of the largest board).
const OFF_BOARD: usize = usize::MAX;

impl Game {
    /// The placed tile's segments, each its own feature, and its roads and cities as completion
    /// candidates (in segment order): copies of the tile type's template, moved to `seg_base`.
    #[inline(always)]
    fn push_segments(&mut self, tile: u16, inst: u32, seg_base: u32) {
        let t = &self.rules.seg_templates[tile as usize];
        self.board.segs.extend(t.segs.iter().map(|s| Seg {
            parent: s.parent + seg_base,
            next: s.next + seg_base,
            inst,
            ..*s
        }));
        let pending = t.pending.iter().map(|&i| seg_base + u32::from(i));
        self.due.pending.extend(pending);
    }

    /// Write the tile's cells into the board (taking them off the frontier) and return each
    /// cell's array position ([`OFF_BOARD`] where none), so that the joins and the cloister
    /// scan that follow need not compute them again.
    #[inline(always)]
    fn cover_cells(
        &mut self,
        tile: u16,
        rot: u8,
        x: i32,
        y: i32,
        inst: u32,
    ) -> [usize; MAX_TILE_CELLS] {
        let mut at = [OFF_BOARD; MAX_TILE_CELLS];
        let info = &self.rules.tiles[tile as usize];
        for (ci, c) in info.rot[rot as usize].iter().enumerate() {
            let Some(pos) = self.pos(x + c.dx, y + c.dy) else {
                continue;
            };
            at[ci] = pos;
            let old = self.board.cells[pos];
            if old != EMPTY && old >= FRONT {
                let k = (old & !FRONT) as usize;
                self.board.frontier.swap_remove(k);
                if let Some(moved) = self.board.frontier.get(k) {
                    self.board.cells[moved.pos as usize] = FRONT | k as u32;
                }
            }
            let cloister = !info.cloisters_by_cell[ci].is_empty() as u32;
            self.board.cells[pos] = (inst << 4) | (cloister << 3) | ci as u32;
        }
        at
    }

    /// Cloisters whose neighbourhood gained a cell (B-3), the tile's own included: the 3×3
    /// cells around each placed cell at positions `at`, in board order.
    #[inline(always)]
    fn note_cloisters(&mut self, at: &[usize]) {
        let w = self.board.width;
        // Bit 3 of a placed cell marks a cloister on it.
        let cloister = |cc: u32| cc < FRONT && cc & 0x8 != 0;
        for &pos in at {
            if pos == OFF_BOARD {
                continue;
            }
            // The three rows around the cell, three cells each.
            let rows = [pos - w - 1, pos - 1, pos + w - 1];
            // Most cells have no cloister around: one pass without branches says so.
            let any = rows.iter().fold(false, |any, &r| {
                any | self.board.cells[r..r + 3]
                    .iter()
                    .fold(false, |a, &cc| a | cloister(cc))
            });
            if !any {
                continue;
            }
            for r in rows {
                for q in r..r + 3 {
                    let cc = self.board.cells[q];
                    if cloister(cc) {
                        self.note_cloister(cc);
                    }
                }
            }
        }
    }

    /// The cloisters on the placed cell whose word is `cc` become completion candidates.
    fn note_cloister(&mut self, cc: u32) {
        let ni = self.board.insts[(cc >> 4) as usize];
        let info = &self.rules.tiles[ni.tile as usize];
        for &f in &info.cloisters_by_cell[(cc & 0x7) as usize] {
            let s = ni.seg_base + f as u32;
            if !self.due.pending_cloisters.contains(&s) {
                self.due.pending_cloisters.push(s);
            }
        }
    }
}

/// Column and row steps to the neighbour across each side (north, east, south, west).
const DX: [i32; 4] = [0, 1, 0, -1];
const DY: [i32; 4] = [-1, 0, 1, 0];

/// The parts of the game a placement's merges change.
struct Joins<'a> {
    segs: &'a mut Vec<Seg>,
    /// Roads and cities that may have been completed.
    pending: &'a mut Vec<u32>,
    /// Fields with farmers joined to a corner-figure field (AM-8); `None` when the variant has
    /// no corner figure.
    fields: Option<&'a mut Vec<u32>>,
}

impl Joins<'_> {
    /// Merge across one side of a placed cell and the placed cell next to it (`words`: the
    /// two facing sides' words, [`crate::rules::joins`]; `bases`: the first segments of the two
    /// tiles): like roads and cities (B-2), an `Any` side closing the other's feature, and the
    /// field halves (B-5, AM-8).
    #[inline(always)]
    fn side(&mut self, (m, t): (u32, u32), (mine, theirs): (u32, u32)) {
        let (mk, tk) = (m >> 24, t >> 24);
        let (my_f, their_f) = (m & 0xFF, t & 0xFF);
        let no = u32::from(NO_FEATURE);
        let like = |k: u32| k == SIDE_CITY || k == SIDE_ROAD;
        if mk == tk && like(mk) {
            if my_f != no && their_f != no {
                let r = union(self.segs, mine + my_f, theirs + their_f);
                self.segs[r as usize].open -= 2;
            }
        } else if like(mk) && tk == SIDE_ANY {
            if my_f != no {
                let r = find(self.segs, mine + my_f);
                self.segs[r as usize].open -= 1;
            }
        } else if mk == SIDE_ANY && like(tk) && their_f != no {
            let r = find(self.segs, theirs + their_f);
            self.segs[r as usize].open -= 1;
            self.pending.push(r);
        }
        // My first half-edge faces their second, my second their first. A side whose halves
        // are one field on both tiles (a plain field side) needs one union, not two.
        let (a1, b1) = ((m >> 8) & 0xFF, (t >> 16) & 0xFF);
        let (a2, b2) = ((m >> 16) & 0xFF, (t >> 8) & 0xFF);
        self.half((a1, b1), (mine, theirs));
        if (a2, b2) != (a1, b1) {
            self.half((a2, b2), (mine, theirs));
        }
    }

    /// Merge the fields of two facing half-edges (features `a` on my tile, `b` on theirs).
    #[inline(always)]
    fn half(&mut self, (a, b): (u32, u32), (mine, theirs): (u32, u32)) {
        let no = u32::from(NO_FEATURE);
        if a == no || b == no {
            return;
        }
        let r = union(self.segs, mine + a, theirs + b);
        if let Some(fields) = self.fields.as_deref_mut() {
            let root = self.segs[r as usize];
            if root.corners > 0 && root.occ > 0 && !fields.contains(&r) {
                fields.push(r);
            }
        }
    }
}

/// A tile type's segments as a placement adds them, numbered from 0 (each its own feature, no
/// figure on it), and which of them are roads and cities: built once per ruleset, so placing
/// copies segments instead of making each from the tile's feature facts.
#[derive(Clone, Debug)]
pub(crate) struct SegTemplate {
    segs: Vec<Seg>,
    /// Local indices of the roads and cities (completion candidates), in order.
    pending: Vec<u8>,
}

/// The segment templates of `tiles`, by tile type.
pub(crate) fn seg_templates(tiles: &[TileInfo]) -> Vec<SegTemplate> {
    let template = |info: &TileInfo| {
        let segs = info.feats.iter().enumerate().map(|(i, f)| Seg {
            parent: i as u32,
            next: i as u32,
            inst: 0,
            local: i as u8,
            kind: f.kind,
            done: false,
            open: f.open_sides as i16,
            pennants: f.pennants as u16,
            occ: 0,
            guests: 0,
            corners: 0,
            // A segment of no cell in particular counts as on cell 0.
            cells: if f.cells == 0 { 1 } else { f.cells },
        });
        let roads_cities = info.feats.iter().enumerate();
        let pending = roads_cities
            .filter(|(_, f)| matches!(f.kind, FeatureKind::Road | FeatureKind::City))
            .map(|(i, _)| i as u8);
        SegTemplate {
            segs: segs.collect(),
            pending: pending.collect(),
        }
    };
    tiles.iter().map(template).collect()
}
