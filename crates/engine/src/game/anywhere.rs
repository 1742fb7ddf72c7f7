//! Offers over the whole board (docs/design/actions.md, 5 and 6): a site for one of the
//! chooser's figures on any placed tile ([`Options::AnyFeature`], PD-11), a figure of any
//! seat's on the feature of the subject tile's tagged segment ([`Options::FigureIn`], PD-12),
//! and the effect that puts a figure on a chosen site ([`tegula_ruleset::Act::Place`]).
//!
//! Which figure types may be chosen is data (a [`FigureSet`]); the tests a site passes are the
//! figure step's (the figure's sites and site tags, the whole feature unoccupied unless the
//! figure joins, a corner figure's field, a figure that needs an own figure there) and "not
//! completed" (judged when the figure is placed: PD-11's Reading).

use tegula_ruleset::{Avoid, FeatureKind, FigureSet};

use super::choice::Listed;
use super::when::{Chosen, Ctx, FigureRef};
use super::{ChoiceOption, Game, Meeple};
#[cfg(doc)]
use tegula_ruleset::Options;

/// The set bits of `mask`, lowest first (figure types, bit per type).
pub(super) fn bits(mask: u32) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        let t = m.trailing_zeros();
        m &= m.wrapping_sub(1);
        (t < 32).then_some(t as u8)
    })
}

impl Game {
    /// The sites of [`Options::AnyFeature`] for `seat`: every feature of a placed tile but the
    /// subject tile's (those are the figure step's own options), once per feature and figure
    /// type of `figures` the seat holds, named at the feature's first tile in placement order
    /// (then by tile-local feature, then figure type).
    pub(super) fn sites_anywhere(
        &self,
        seat: u8,
        which: (FigureSet, &[Avoid]),
        ctx: &Ctx,
        out: &mut Listed,
    ) {
        let (figures, avoid) = which;
        let held = self.supply_of(seat, figures);
        if held == 0 {
            return;
        }
        // The figure types already listed on each feature, by root segment (bit per type);
        // the subject tile's features count as listed for every type. Indexed by segment, so
        // the walk over the board stays linear in its features.
        let mut listed = vec![0u32; self.board.segs.len()];
        if let Some(inst) = ctx.tile.and_then(|i| self.board.insts.get(i as usize)) {
            let n = self.rules.tiles[inst.tile as usize].feats.len() as u32;
            for l in 0..n {
                listed[self.find_ro(inst.seg_base + l) as usize] = u32::MAX;
            }
        }
        for (j, inst) in self.board.insts.iter().enumerate() {
            if Some(j as u32) == ctx.tile || self.avoided(j as u32, avoid) {
                continue;
            }
            let feats = &self.rules.tiles[inst.tile as usize].feats;
            for (l, f) in feats.iter().enumerate() {
                let seg = inst.seg_base + l as u32;
                let root = self.find_ro(seg);
                let rest = held & !listed[root as usize];
                if rest == 0 {
                    continue;
                }
                let (may, settled) = self.site_figures(seat, rest, root, (f.kind, f.tags));
                // A type the feature itself refuses (completed, taken) is settled for every
                // segment of it, so a large feature is judged once, not once per segment.
                listed[root as usize] |= may | settled;
                for ftype in bits(may) {
                    let option = ChoiceOption::Figure {
                        x: inst.x,
                        y: inst.y,
                        feature: l as u8,
                        follower: ftype,
                    };
                    out.push((option, Chosen::Site { seg, ftype }));
                }
            }
        }
    }

    /// Whether tile instance `inst` is one of `avoid`'s: a neutral figure stands on it, or it
    /// carries a tag.
    fn avoided(&self, inst: u32, avoid: &[Avoid]) -> bool {
        let i = self.board.insts[inst as usize];
        avoid.iter().any(|a| match *a {
            Avoid::Neutral(n) => self.neutral_at(usize::from(n)) == Some((i.x, i.y)),
            Avoid::Tag(t) => self.tile_has_tag(inst, t),
            Avoid::Empty | Avoid::Visited => false,
        })
    }

    /// The figure types of `figures` that `seat` has in supply and that stand on a feature
    /// (no corner figure), bit per type.
    fn supply_of(&self, seat: u8, figures: FigureSet) -> u32 {
        let nf = self.rules.figures.len();
        let base = usize::from(seat) * nf;
        let each = self.rules.figures.iter().enumerate().filter(|(k, fig)| {
            figures.has(*k as u8) && fig.corner.is_none() && self.seats.supply[base + k] > 0
        });
        each.fold(0, |m, (k, _)| m | 1 << k)
    }

    /// The types of `may` that may stand on a segment of kind and tags `site` of the feature
    /// rooted at `root` for `seat`, by the figure step's tests, the feature not completed; and
    /// the types the feature refuses whatever its segment (completed, occupied, a corner
    /// figure's field, a kind the figure never stands on: a feature is of one kind, an
    /// invariant `check_parts` checks), bit per type.
    fn site_figures(&self, seat: u8, may: u32, root: u32, site: (FeatureKind, u32)) -> (u32, u32) {
        let (kind, tags) = site;
        let r = self.board.segs[root as usize];
        if may == 0 || kind == FeatureKind::Unscored {
            return (0, 0);
        }
        if r.done || self.is_complete(root) {
            return (0, may);
        }
        let occupied = r.occ > u16::from(r.guests);
        let (mut out, mut refused) = (0, 0);
        for k in bits(may) {
            let fig = &self.rules.figures[usize::from(k)];
            let guest = self.rules.corner_guest_figs >> k & 1 != 0;
            let feature_ok = fig.stands_on(kind)
                && (!occupied || fig.joins)
                && (r.corners == 0 || (guest && self.holds_own_figure(root, seat)))
                && (!fig.needs_own || self.holds_own_figure(root, seat));
            let segment_ok = fig.tags_allow(tags);
            out |= u32::from(feature_ok && segment_ok) << k;
            refused |= u32::from(!feature_ok) << k;
        }
        (out, refused)
    }

    /// The figures of [`Options::FigureIn`]: those of a type of `figures`, any seat's, on a
    /// feature holding one of the subject tile's segments that carry `tag` (every feature of
    /// the tile when none does, or no tag is named); by tile placement order, tile-local
    /// feature, figure type, then seat.
    pub(super) fn figures_in(
        &self,
        figures: FigureSet,
        tag: Option<u32>,
        ctx: &Ctx,
        out: &mut Listed,
    ) {
        let Some(inst) = ctx.tile.and_then(|i| self.board.insts.get(i as usize)) else {
            return;
        };
        let feats = &self.rules.tiles[inst.tile as usize].feats;
        let carries = |t: u32| {
            feats
                .iter()
                .any(|f| f.tags.checked_shr(t).unwrap_or(0) & 1 != 0)
        };
        let tagged = tag.filter(|&t| carries(t));
        let roots: Vec<u32> = (feats.iter().enumerate())
            .filter(|(_, f)| tagged.is_none_or(|t| f.tags.checked_shr(t).unwrap_or(0) & 1 != 0))
            .map(|(l, _)| self.find_ro(inst.seg_base + l as u32))
            .collect();
        let mut found: Vec<FigureRef> = (self.board.meeples.iter())
            .filter(|m| figures.has(m.ftype) && roots.contains(&self.find_ro(m.seg)))
            .map(|m| FigureRef {
                player: m.player,
                ftype: m.ftype,
                seg: m.seg,
            })
            .collect();
        let segs = &self.board.segs;
        found.sort_by_key(|f| {
            let s = segs[f.seg as usize];
            (s.inst, s.local, f.ftype, f.player)
        });
        out.extend(found.into_iter().map(|f| self.figure_option(f)));
    }

    /// [`tegula_ruleset::Act::Place`]: the chooser's figure from supply on the chosen site, then
    /// the rules of any placement (`figure-placed`, the tiles' carried rules included). The log's `choice` line, which names the
    /// site and the figure, is the placement's line: a `follower` line is a decision of its own
    /// (replayed as one), and this placement is the choice's.
    pub(super) fn act_place(&mut self, ctx: &Ctx) {
        let (Some(Chosen::Site { seg, ftype }), Some(seat)) = (ctx.chosen, ctx.chooser) else {
            return;
        };
        let nf = self.rules.figures.len();
        let slot = &mut self.seats.supply[usize::from(seat) * nf + usize::from(ftype)];
        *slot = slot.saturating_sub(1);
        let root = super::find(&mut self.board.segs, seg);
        self.add_figure(root, ftype);
        self.board.meeples.push(Meeple {
            player: seat,
            ftype,
            seg,
        });
        if self.waits(crate::rules::when::Kind::FigurePlaced) {
            self.rule_figure_placed(ftype, seg);
        }
    }
}
