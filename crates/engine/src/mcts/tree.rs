//! The search tree of [`super::MctsAgent`]: one arena of nodes linked as first child / next
//! sibling (no vector per node, so growing the tree allocates nothing once the arena has grown),
//! UCB1 selection among the children legal in a sample, and keeping the subtree of the actual
//! line of play for the next decision.

use std::hash::{Hash, Hasher};

use crate::game::Action;
use crate::rng::Rng;

/// UCB1's exploration constant for rewards in [0, 1].
const EXPLORE: f64 = 0.7;
/// No node (end of a sibling list, or no child yet).
const NONE: u32 = u32::MAX;

/// One decision in the tree.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The action that leads here from the parent.
    pub action: Action,
    /// Seat that chose it.
    pub seat: u8,
    pub visits: u32,
    /// Times this node was a legal candidate in its parent's selections.
    pub avail: u32,
    /// Sum of the rewards of `seat` in the iterations through here.
    pub reward: f64,
    /// First and last child (children stay in the order they were added, which breaks ties).
    first: u32,
    last: u32,
    /// Next sibling.
    next: u32,
}

impl Node {
    fn new(action: Action, seat: u8, avail: u32) -> Node {
        Node {
            action,
            seat,
            visits: 0,
            avail,
            reward: 0.0,
            first: NONE,
            last: NONE,
            next: NONE,
        }
    }
}

/// What selection does at a node.
pub(super) enum Step {
    /// Follow this child.
    Existing(u32),
    /// Add a child for this untried action.
    Expand(Action),
}

/// The arena and the scratch buffers of selection, kept between searches so that a search
/// allocates only while the tree is larger than any before it.
#[derive(Clone, Debug, Default)]
pub(super) struct Tree {
    nodes: Vec<Node>,
    /// The arena being built while keeping a subtree (swapped with `nodes`).
    spare: Vec<Node>,
    /// Open-addressing table from an action's hash to its index in the legal list + 1 (0: empty).
    table: Vec<u32>,
    /// Per legal action: whether a child has it.
    tried: Vec<bool>,
    /// The children legal in this sample, in child order.
    live: Vec<u32>,
    /// Stack of (old, new) node pairs while keeping a subtree.
    stack: Vec<(u32, u32)>,
    /// The root's matching of `tried` and `live`, kept through a search: every iteration
    /// selects at the root among the same legal actions (a sample redeals only the hidden
    /// pile), so the table need not be rebuilt there. Checked against the legal list each time.
    root: RootMatch,
}

/// [`Tree::root`]: the root's legal actions, which of them have a child, and those children.
#[derive(Clone, Debug, Default)]
struct RootMatch {
    legal: Vec<Action>,
    tried: Vec<bool>,
    live: Vec<u32>,
}

impl Tree {
    /// Forget everything; the root (index 0) is a fresh node for `seat` to decide.
    pub fn reset(&mut self, seat: u8) {
        self.nodes.clear();
        self.nodes.push(Node::new(Action::Pass, seat, 0));
        self.root.legal.clear();
    }

    /// Whether the tree has a root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Node `n`.
    pub fn node(&self, n: u32) -> &Node {
        &self.nodes[n as usize]
    }

    /// The children of `n`, in the order they were added.
    pub fn children(&self, n: u32) -> impl Iterator<Item = &Node> + '_ {
        let mut c = self.nodes[n as usize].first;
        std::iter::from_fn(move || {
            let node = self.nodes.get(c as usize)?;
            c = node.next;
            Some(node)
        })
    }

    /// The child of `n` reached by `action`, if the tree has one.
    pub fn child(&self, n: u32, action: Action) -> Option<u32> {
        let mut c = self.nodes[n as usize].first;
        while c != NONE {
            let node = &self.nodes[c as usize];
            if node.action == action {
                return Some(c);
            }
            c = node.next;
        }
        None
    }

    /// Add a child of `parent` for `action` chosen by `seat`; its index.
    pub fn expand(&mut self, parent: u32, action: Action, seat: u8) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::new(action, seat, 1));
        self.link(parent, id);
        if parent == 0 {
            let r = &mut self.root;
            if let Some(i) = r.legal.iter().position(|&a| a == action) {
                r.tried[i] = true;
                r.live.push(id);
            }
        }
        id
    }

    /// Append `child` to `parent`'s children (in `self.nodes`).
    fn link(&mut self, parent: u32, child: u32) {
        let last = self.nodes[parent as usize].last;
        if last == NONE {
            self.nodes[parent as usize].first = child;
        } else {
            self.nodes[last as usize].next = child;
        }
        self.nodes[parent as usize].last = child;
    }

    /// Credit node `n` with one visit and `reward`.
    pub fn credit(&mut self, n: u32, reward: f64) {
        let node = &mut self.nodes[n as usize];
        node.visits += 1;
        node.reward += reward;
    }

    /// Make the subtree under `root` the whole tree (its root at index 0), keeping every
    /// node's statistics and the order of children.
    pub fn keep(&mut self, root: u32) {
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        let mut top = self.nodes[root as usize].clone();
        (top.first, top.last, top.next) = (NONE, NONE, NONE);
        out.push(top);
        self.stack.clear();
        self.stack.push((root, 0));
        self.root.legal.clear();
        std::mem::swap(&mut self.nodes, &mut out);
        // `out` is the old arena now; `self.nodes` the one being built.
        while let Some((old, new)) = self.stack.pop() {
            let mut c = out[old as usize].first;
            while c != NONE {
                let mut n = out[c as usize].clone();
                let next = n.next;
                (n.first, n.last, n.next) = (NONE, NONE, NONE);
                let id = self.nodes.len() as u32;
                self.nodes.push(n);
                self.link(new, id);
                self.stack.push((c, id));
                c = next;
            }
        }
        self.spare = out;
    }

    /// UCB1 over the children of `node` legal in this sample (counting their availability), or
    /// an untried legal action chosen at random ([`pick`]).
    pub fn select(&mut self, node: u32, legal: &[Action], rng: &mut Rng) -> Step {
        if node != 0 {
            self.match_children(node, legal);
            return pick(&mut self.nodes, legal, &self.tried, &self.live, rng);
        }
        if self.root.legal != legal {
            self.match_children(0, legal);
            let r = &mut self.root;
            r.legal.clear();
            r.legal.extend_from_slice(legal);
            r.tried.clone_from(&self.tried);
            r.live.clone_from(&self.live);
        }
        let r = &self.root;
        pick(&mut self.nodes, legal, &r.tried, &r.live, rng)
    }

    /// Fill `tried` (per legal action) and `live` (children legal here) in O(legal + children)
    /// with a hash table of `legal`, rather than comparing every pair.
    fn match_children(&mut self, node: u32, legal: &[Action]) {
        let size = (legal.len() * 2).next_power_of_two().max(4);
        let mask = size - 1;
        self.table.clear();
        self.table.resize(size, 0);
        for (i, a) in legal.iter().enumerate() {
            let mut h = key(a) as usize & mask;
            while self.table[h] != 0 {
                h = (h + 1) & mask;
            }
            self.table[h] = i as u32 + 1;
        }
        self.tried.clear();
        self.tried.resize(legal.len(), false);
        self.live.clear();
        let mut c = self.nodes[node as usize].first;
        while c != NONE {
            let child = &self.nodes[c as usize];
            let mut h = key(&child.action) as usize & mask;
            loop {
                let slot = self.table[h] as usize;
                if slot == 0 {
                    break;
                }
                if legal[slot - 1] == child.action {
                    self.tried[slot - 1] = true;
                    self.live.push(c);
                    break;
                }
                h = (h + 1) & mask;
            }
            c = child.next;
        }
    }
}

/// UCB1 over the children `live` (legal in this sample; their availability counted), or an
/// untried legal action (`tried` false) chosen at random by reservoir sampling in the order of
/// `legal`.
fn pick(nodes: &mut [Node], legal: &[Action], tried: &[bool], live: &[u32], rng: &mut Rng) -> Step {
    let mut untried = 0u32;
    let mut pick = None;
    for (&a, &tried) in legal.iter().zip(tried) {
        if !tried {
            untried += 1;
            if rng.below(untried) == 0 {
                pick = Some(a);
            }
        }
    }
    if let Some(a) = pick {
        return Step::Expand(a);
    }
    let mut best = (f64::NEG_INFINITY, live[0]);
    for &c in live {
        let n = &mut nodes[c as usize];
        n.avail += 1;
        let v = f64::from(n.visits.max(1));
        let ucb = n.reward / v + EXPLORE * (f64::from(n.avail).ln() / v).sqrt();
        if ucb > best.0 {
            best = (ucb, c);
        }
    }
    Step::Existing(best.1)
}

/// A cheap hash of an action for the selection table (not for anything persistent).
fn key(a: &Action) -> u64 {
    let mut h = Mix(0);
    a.hash(&mut h);
    h.0 ^ (h.0 >> 29)
}

/// A multiply-rotate hasher: enough to spread the few dozen actions of one decision.
struct Mix(u64);

impl Mix {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.add(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.add(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }
    fn write_i32(&mut self, x: i32) {
        self.add(u64::from(x as u32));
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
    fn write_isize(&mut self, x: isize) {
        self.add(x as u64);
    }
}
