//! Placing tiles: merging features across matching sides (B-2, B-3, AM-3) and the fast
//! placement generator.

use tegula_ruleset::{FeatureKind, SideKind, NO_FEATURE};

use super::{find, union, Event, Front, Game, Inst, Phase, Placement, Seg, EMPTY, FRONT, OPP_HALF};
use crate::rules::{fit_mask, fits, side_bits, side_code, ROT_COUNT, ROT_ORDER};

impl Game {
    /// Every placement a player makes (the drawn tile, an own tile, a pool tile): record it,
    /// put the tile down, score AM-8's joins at once (the registry's reading), and offer the
    /// follower options.
    pub(super) fn place_drawn(&mut self, p: Placement) {
        self.turn += 1;
        if self.record {
            let tile = self.rules.tile_id(p.tile).to_string();
            self.events.push(Event::Place {
                turn: self.turn,
                player: self.player,
                tile,
                x: p.x,
                y: p.y,
                rotation: p.rotation,
            });
        }
        // AM-8 read field by field needs the farmer fields as they are before this tile merges
        // them. One flag, false in the base game and under the registry's reading.
        if self.rules.each_field_joins {
            self.record_fields_before(p);
        }
        self.place_unchecked(p.tile, p.x, p.y, p.rotation);
        self.last_placer = self.player;
        if !self.rules.owns_on_place.is_empty() {
            self.own_placed_tile(p.tile);
        }
        if self.rules.any_extra_turn {
            // Before any scoring takes figures off: the feature held the figure before.
            self.note_extension();
        }
        if !self.pending_fields.is_empty() && self.rules.joins_at_once {
            // AM-8: a farmer field joined to a corner-figure field scores at once, so its
            // farmers are back in supply for this tile's figure decision. Under the other
            // reading the turn's scoring step scores it (`score_pending`).
            self.score_joined_fields();
        }
        self.compute_options();
        self.phase = Phase::Follower;
    }

    /// Put a tile on the board and merge features; collects completion candidates.
    pub(super) fn place_unchecked(&mut self, tile: u16, x: i32, y: i32, rot: u8) {
        self.ensure_room(x, y);
        let rules = &*self.rules;
        let info = &rules.tiles[tile as usize];
        let inst_idx = self.insts.len() as u32;
        let seg_base = self.segs.len() as u32;
        self.zobrist = self
            .zobrist
            .wrapping_add(super::hash::tile_key(tile, x, y, rot));
        self.insts.push(Inst {
            tile,
            rot,
            x,
            y,
            seg_base,
        });
        for (i, f) in info.feats.iter().enumerate() {
            let s = seg_base + i as u32;
            self.segs.push(Seg {
                parent: s,
                next: s,
                inst: inst_idx,
                local: i as u8,
                kind: f.kind,
                done: false,
                open: f.open_sides as i16,
                pennants: f.pennants as u16,
                occ: 0,
                guests: 0,
                corners: 0,
                cells: if f.cells == 0 { 1 } else { f.cells },
            });
            if matches!(f.kind, FeatureKind::Road | FeatureKind::City) {
                self.pending.push(s);
            }
        }
        let cells = &info.rot[rot as usize];
        let any_corner = rules.any_corner;
        for (ci, c) in cells.iter().enumerate() {
            let Some(pos) = self.pos(x + c.dx, y + c.dy) else {
                continue;
            };
            let old = self.cells[pos];
            if old != EMPTY && old >= FRONT {
                let k = (old & !FRONT) as usize;
                self.frontier.swap_remove(k);
                if let Some(moved) = self.frontier.get(k) {
                    self.cells[moved.pos as usize] = FRONT | k as u32;
                }
            }
            let cloister = !info.cloisters_by_cell[ci].is_empty() as u32;
            self.cells[pos] = (inst_idx << 4) | (cloister << 3) | ci as u32;
        }
        for c in cells.iter() {
            let Some(pos) = self.pos(x + c.dx, y + c.dy) else {
                continue;
            };
            for s in 0..4 {
                if c.outer & (1 << s) == 0 {
                    continue;
                }
                let npos = self.step(pos, s);
                let ncell = self.cells[npos];
                let opp = (s + 2) % 4;
                if ncell >= FRONT {
                    let shift = 4 * opp;
                    let bits = side_bits(c.sides[s]) << shift;
                    let cshift = 2 * opp;
                    let cbits = side_code(c.sides[s]) << cshift;
                    if ncell != EMPTY {
                        let f = &mut self.frontier[(ncell & !FRONT) as usize];
                        f.req = (f.req & !(0xF << shift)) | bits;
                        f.code = (f.code & !(3 << cshift)) | cbits;
                    } else {
                        let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][s];
                        let (nx, ny) = (x + c.dx + dx, y + c.dy + dy);
                        if self.pos_inner(nx, ny).is_some() {
                            self.cells[npos] = FRONT | self.frontier.len() as u32;
                            self.frontier.push(Front {
                                pos: npos as u32,
                                req: !(0xF << shift) | bits,
                                code: cbits,
                                x: nx,
                                y: ny,
                            });
                        }
                    }
                    continue;
                }
                let ninst = self.insts[(ncell >> 4) as usize];
                let nc = &rules.tiles[ninst.tile as usize].rot[ninst.rot as usize]
                    [(ncell & 0x7) as usize];
                let mine = c.sides[s];
                let theirs = nc.sides[opp];
                let my_f = c.side_feature[s];
                let their_f = nc.side_feature[opp];
                match (mine, theirs) {
                    (SideKind::City, SideKind::City) | (SideKind::Road, SideKind::Road)
                        if my_f != NO_FEATURE && their_f != NO_FEATURE =>
                    {
                        let r = union(
                            &mut self.segs,
                            seg_base + my_f as u32,
                            ninst.seg_base + their_f as u32,
                        );
                        self.segs[r as usize].open -= 2;
                    }
                    (SideKind::City | SideKind::Road, SideKind::Any) if my_f != NO_FEATURE => {
                        let r = find(&mut self.segs, seg_base + my_f as u32);
                        self.segs[r as usize].open -= 1;
                    }
                    (SideKind::Any, SideKind::City | SideKind::Road) if their_f != NO_FEATURE => {
                        let r = find(&mut self.segs, ninst.seg_base + their_f as u32);
                        self.segs[r as usize].open -= 1;
                        self.pending.push(r);
                    }
                    _ => {}
                }
                for hh in 0..2 {
                    let h = 2 * s + hh;
                    let a = c.half_feature[h];
                    let b = nc.half_feature[OPP_HALF[h]];
                    if a != NO_FEATURE && b != NO_FEATURE {
                        let r = union(
                            &mut self.segs,
                            seg_base + a as u32,
                            ninst.seg_base + b as u32,
                        );
                        // A field with farmers joined to a corner-figure field (AM-8).
                        if any_corner {
                            let root = self.segs[r as usize];
                            if root.corners > 0 && root.occ > 0 && !self.pending_fields.contains(&r)
                            {
                                self.pending_fields.push(r);
                            }
                        }
                    }
                }
            }
        }
        // Cloisters whose neighbourhood gained a cell (B-3), including the tile's own.
        let w = self.width as isize;
        for c in cells.iter() {
            let Some(pos) = self.pos(x + c.dx, y + c.dy) else {
                continue;
            };
            for d in [-w - 1, -w, -w + 1, -1, 0, 1, w - 1, w, w + 1] {
                let q = (pos as isize + d) as usize;
                let cc = self.cells[q];
                // Bit 3 of a placed cell marks a cloister on it.
                if cc >= FRONT || cc & 0x8 == 0 {
                    continue;
                }
                let ni = self.insts[(cc >> 4) as usize];
                let list = &rules.tiles[ni.tile as usize].cloisters_by_cell[(cc & 0x7) as usize];
                for &f in list {
                    let s = ni.seg_base + f as u32;
                    if !self.pending_cloisters.contains(&s) {
                        self.pending_cloisters.push(s);
                    }
                }
            }
        }
    }

    /// The fast generator: frontier cells × rotations against packed side signatures.
    #[inline(always)]
    pub(super) fn generate_placements(&mut self, t: u16) {
        let info = &self.rules.tiles[t as usize];
        let rules = info.has_placement_rules;
        if !info.single {
            self.generate_multi(t);
        } else {
            self.generate_single(t, self.rules.declared_edges);
        }
        if rules {
            self.filter_placement_rules();
        }
    }

    #[inline(always)]
    fn generate_single(&mut self, t: u16, exact: bool) {
        // Two passes. First, branch-free: each frontier cell writes its four candidate slots
        // (frontier index and rotation in one word, one vector store) and the write position
        // advances by the number of rotations its fit table admits. Then only the fitting slots
        // become placements. Writing four whole placements per cell made the stores the
        // bottleneck of the generator.
        let info = &self.rules.tiles[t as usize];
        let (table, sig4) = (&info.fit_table, info.sig4);
        let need = self.frontier.len() * 4;
        if self.tmp.slots.len() < need {
            self.tmp.slots.resize(need, 0);
        }
        let buf = &mut self.tmp.slots[..need];
        // A declared edge kind has no fit-table code: its variants test the exact requirement
        // word instead, in a loop of their own (the table's loop stays as it was).
        let n = if exact {
            fill_slots(&self.frontier, buf, |f| fit_mask(sig4, f.req) as u8)
        } else {
            fill_slots(&self.frontier, buf, |f| table[f.code as usize])
        };
        self.placements.clear();
        let frontier = &self.frontier;
        self.placements.extend(self.tmp.slots[..n].iter().map(|&s| {
            let f = &frontier[(s >> 2) as usize];
            Placement {
                tile: t,
                x: f.x,
                y: f.y,
                rotation: (s & 3) as u8,
            }
        }));
        self.n_place = n;
    }

    /// Multi-cell tiles (kept out of line: the single-cell path is the hot one).
    #[inline(never)]
    fn generate_multi(&mut self, t: u16) {
        let info = &self.rules.tiles[t as usize];
        {
            // Multi-cell tiles: every anchor that puts some tile cell on a frontier cell. Each
            // candidate is generated once, from its lowest-indexed cell that lies on the frontier
            // (a mega tile reaches the same anchor from several frontier cells).
            self.placements.clear();
            let roomy = self.roomy;
            for f in &self.frontier {
                for r in 0..4u8 {
                    let cells = &info.rot[r as usize];
                    for (ci, c) in cells.iter().enumerate() {
                        if !fits(c.sig, f.req) {
                            continue;
                        }
                        let (ax, ay) = (f.x - c.dx, f.y - c.dy);
                        // On a roomy board every cell of the tile is inside the array, so the
                        // position is plain arithmetic; near the edge it is bounds-checked.
                        let w = self.width as isize;
                        let base = f.pos as isize - c.dy as isize * w - c.dx as isize;
                        let ok = cells.iter().enumerate().all(|(di, d)| {
                            let pos = if roomy {
                                Some((base + d.dy as isize * w + d.dx as isize) as usize)
                            } else {
                                self.pos_inner(ax + d.dx, ay + d.dy)
                            };
                            pos.is_some_and(|p| {
                                let v = self.cells[p];
                                v == EMPTY
                                    || v >= FRONT
                                        && di >= ci
                                        && fits(d.sig, self.frontier[(v & !FRONT) as usize].req)
                            })
                        });
                        if ok {
                            self.placements.push(Placement {
                                tile: t,
                                x: ax,
                                y: ay,
                                rotation: r,
                            });
                        }
                    }
                }
            }
            self.n_place = self.placements.len();
        }
    }
}

/// The generator's first pass: each frontier cell's four candidate slots (frontier index << 2 |
/// rotation) written at once into `buf`, the write position advanced by the rotations `mask`
/// admits; returns the slots written.
#[inline(always)]
fn fill_slots(frontier: &[Front], buf: &mut [u32], mask: impl Fn(&Front) -> u8) -> usize {
    let mut n = 0;
    for (i, f) in frontier.iter().enumerate() {
        let m = mask(f);
        let base = (i as u32) << 2;
        let order = &ROT_ORDER[m as usize];
        buf[n..n + 4].copy_from_slice(&order.map(|r| base | r));
        n += ROT_COUNT[m as usize] as usize;
    }
    n
}
