//! Stacks (issue 31; docs/design/actions.md, sections 9 and 10): a site on tiles carrying a tag
//! where seats pile up pieces from a resource, and a figure that may close a stack by standing
//! on top. Figures held by other seats are the offers' and effects' (`rule_form.rs`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A kind of stack (`[[stack]]`): one site on every placed tile carrying `site_tag`, built of
/// pieces of a seat resource, with a figure on top closing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackType {
    /// Stable id (logs and pictures name the stack by it).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Tag index ([`crate::Ruleset::tags`]): every placed tile carrying it (on the tile or a
    /// segment) has one site of this stack, of height 0 at first.
    pub site_tag: u32,
    /// Resource index ([`crate::Ruleset::resources`]): a level is one of the seat's pieces.
    pub piece: u16,
    /// Figure types ([`crate::Ruleset::followers`]) that may stand on top.
    pub top: Vec<u8>,
    /// Least height a figure may stand on.
    pub top_min: u8,
    /// Whether a stack whose top figure leaves the board is open again (else it stays closed).
    pub reopen: bool,
}
