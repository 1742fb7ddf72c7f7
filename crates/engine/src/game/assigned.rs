//! Assigned figures (docs/design/actions.md, 4): a neutral figure given to a figure of a seat's
//! on the board ([`Act::Assign`], PD-7) — on a feature, or on top of a stack (PD-7's Reading) —
//! stands on that figure's tile and makes its owner the seat `assigned-owner(N)` names (PD-9,
//! PD-10); it is assigned to nobody again by [`Act::Unassign`] or when that figure leaves the
//! board (returned, eaten, removed, moved, captured), and stays where it stands either way. The
//! test words `assigned(N)`, `holds_assigned(N)` and `assigned_wins(N)` read the assignment
//! (`rule_counts.rs`); a figure on a stack top belongs to no feature, so `holds_assigned(N)`
//! never holds for it.

use super::when::{Chosen, Ctx, FigureRef};
use super::{Game, Meeple};
#[cfg(doc)]
use tegula_ruleset::Act;
use tegula_ruleset::FigureSet;

/// Forget every assignment to `gone` (a figure that left the board).
#[inline]
fn clear(assigned: &mut [Option<Chosen>], gone: Chosen) {
    for a in assigned.iter_mut().filter(|a| **a == Some(gone)) {
        *a = None;
    }
}

/// Forget every assignment to figure `m` of a feature, which left the board.
#[inline]
pub(super) fn clear_figure(assigned: &mut [Option<Chosen>], m: Meeple) {
    let gone = Chosen::Figure(FigureRef {
        player: m.player,
        ftype: m.ftype,
        seg: m.seg,
    });
    clear(assigned, gone);
}

impl Game {
    /// The figure neutral figure `n` is assigned to, if any: a [`Chosen::Figure`] or a
    /// [`Chosen::Top`].
    pub(super) fn assigned_to(&self, n: u32) -> Option<Chosen> {
        self.nf.assigned.get(n as usize).copied().flatten()
    }

    /// Figure `m` left the board: an assignment to it ends.
    #[inline]
    pub(super) fn figure_left(&mut self, m: Meeple) {
        if !self.nf.assigned.is_empty() {
            clear_figure(&mut self.nf.assigned, m);
        }
    }

    /// The figure `(player, ftype)` on top of the stack on tile instance `inst` left it: an
    /// assignment to it ends.
    #[inline]
    pub(super) fn top_left(&mut self, inst: u32, (player, ftype): (u8, u8)) {
        if !self.nf.assigned.is_empty() {
            let gone = Chosen::Top {
                inst,
                player,
                ftype,
            };
            clear(&mut self.nf.assigned, gone);
        }
    }

    /// [`Act::Assign`]: neutral figure `n` is assigned to the chosen figure (on a feature or
    /// on top of a stack) and stands on its tile (one `neutral` line citing `rule`).
    pub(super) fn act_assign(&mut self, rule: u16, n: u16, ctx: &Ctx) {
        let (chosen, inst) = match ctx.chosen {
            Some(c @ Chosen::Figure(f)) => (c, self.board.segs[f.seg as usize].inst),
            Some(c @ Chosen::Top { inst, .. }) => (c, inst),
            _ => return,
        };
        let k = usize::from(n);
        if k >= self.nf.assigned.len() || k >= self.nf.at.len() {
            return;
        }
        self.nf.assigned[k] = Some(chosen);
        self.put_neutral(rule, n, inst);
    }

    /// [`Act::Unassign`]: neutral figure `n` is assigned to nobody; it stays where it stands.
    pub(super) fn act_unassign(&mut self, n: u16) {
        if let Some(a) = self.nf.assigned.get_mut(usize::from(n)) {
            *a = None;
        }
    }

    /// Which figures an `own-figure` offer lists: of the set `figures` (if any), and not the
    /// one neutral figure `not_assigned` is assigned to now.
    pub(super) fn host(&self, figures: Option<FigureSet>, not_assigned: Option<u16>) -> Host {
        Host {
            figures,
            taken: not_assigned.and_then(|n| self.assigned_to(u32::from(n))),
        }
    }
}

/// Which figures an `own-figure` offer lists ([`Game::host`]), read once per offer.
#[derive(Clone, Copy, Debug)]
pub(super) struct Host {
    /// The figure types listed (any: `None`).
    figures: Option<FigureSet>,
    /// The figure a neutral figure is assigned to, not listed.
    taken: Option<Chosen>,
}

impl Host {
    /// Whether the offer lists figures of type `ftype`.
    pub(super) fn lists_type(&self, ftype: u8) -> bool {
        self.figures.is_none_or(|s| s.has(ftype))
    }

    /// The figure on a feature not listed (the neutral figure's), if any.
    pub(super) fn taken_figure(&self) -> Option<FigureRef> {
        match self.taken {
            Some(Chosen::Figure(f)) => Some(f),
            _ => None,
        }
    }

    /// Whether the offer lists figure `f` (on a feature or on top of a stack).
    pub(super) fn admits(&self, f: Chosen) -> bool {
        let ftype = match f {
            Chosen::Figure(r) => r.ftype,
            Chosen::Top { ftype, .. } => ftype,
            _ => return false,
        };
        self.lists_type(ftype) && self.taken != Some(f)
    }
}
