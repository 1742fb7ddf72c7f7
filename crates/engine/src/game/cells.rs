//! Cell addressing: board coordinates to array positions and back, and the union-find over
//! feature segments.

use super::*;

impl Game {
    #[inline]
    pub(super) fn pos(&self, x: i32, y: i32) -> Option<usize> {
        self.pos_inner(x, y)
    }

    /// Cell index if `(x, y)` and its four neighbours are on the board.
    #[inline]
    pub(super) fn pos_inner(&self, x: i32, y: i32) -> Option<usize> {
        inner(x, y, self.board.off, self.board.width)
    }

    #[inline]
    pub(super) fn xy(&self, pos: usize) -> (i32, i32) {
        (
            (pos % self.board.width) as i32 - self.board.off,
            (pos / self.board.width) as i32 - self.board.off,
        )
    }

    #[inline]
    pub(super) fn step(&self, pos: usize, side: usize) -> usize {
        match side {
            0 => pos - self.board.width,
            1 => pos + 1,
            2 => pos + self.board.width,
            _ => pos - 1,
        }
    }

    /// [`find`] without halving the path (for callers that cannot change the game), the same
    /// two loads first.
    pub(super) fn find_ro(&self, mut a: u32) -> u32 {
        let p = self.board.segs[a as usize].parent;
        if self.board.segs[p as usize].parent == p {
            return p;
        }
        loop {
            let p = self.board.segs[a as usize].parent;
            if p == a {
                return a;
            }
            a = p;
        }
    }
}

/// [`Game::pos_inner`] on a board array of side `width` centred at offset `off` (for callers
/// that hold parts of the game borrowed).
#[inline]
pub(super) fn inner(x: i32, y: i32, off: i32, width: usize) -> Option<usize> {
    let bx = x.checked_add(off)?;
    let by = y.checked_add(off)?;
    let w = width as i32;
    if bx < 1 || by < 1 || bx >= w - 1 || by >= w - 1 {
        return None;
    }
    Some(by as usize * width + bx as usize)
}

/// The root of `a`'s feature. Nearly every segment is a root or a root's child (joins point the
/// newer root at the older and finds halve paths), so the parent's parent is the root; taking
/// it without asking which of the two cases holds is two loads instead of a branch that a
/// random game's segments make unpredictable (the most mispredicted branch of a base game).
#[inline]
pub(super) fn find(segs: &mut [Seg], a: u32) -> u32 {
    let p = segs[a as usize].parent;
    let gp = segs[p as usize].parent;
    if gp != p {
        return find_far(segs, a);
    }
    p
}

/// [`find`] for a segment two or more steps below its root (rare), halving the path on the way
/// (each node visited is pointed at its grandparent).
#[cold]
#[inline(never)]
fn find_far(segs: &mut [Seg], mut a: u32) -> u32 {
    loop {
        let p = segs[a as usize].parent;
        if p == a {
            return a;
        }
        let gp = segs[p as usize].parent;
        if gp == p {
            return p;
        }
        segs[a as usize].parent = gp;
        a = gp;
    }
}

/// Union two segments' features; the older root survives. Returns the root.
pub(super) fn union(segs: &mut [Seg], a: u32, b: u32) -> u32 {
    let ra = find(segs, a);
    let rb = find(segs, b);
    if ra == rb {
        return ra;
    }
    let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
    let g = segs[gone as usize];
    let k = &mut segs[keep as usize];
    k.open += g.open;
    k.pennants += g.pennants;
    k.occ += g.occ;
    k.guests = k.guests.saturating_add(g.guests);
    k.corners += g.corners;
    k.done |= g.done;
    let kn = k.next;
    k.next = g.next;
    segs[gone as usize].next = kn;
    segs[gone as usize].parent = keep;
    keep
}
