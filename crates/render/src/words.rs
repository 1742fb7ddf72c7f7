//! Event lines as a player would say them, for the replay viewer: tiles by their names from the
//! data, features by kind and position in words ("the north city of Cloister with road (A) at
//! (0, 1)"), figures by their names, scores by what they paid for ("+9: field with 3 completed
//! cities", "+3: Notre-Dame's ability"), each line ending with its rule id in brackets.
//!
//! Events that carry no rule id cite the rule of the step they record (see [`STEP_RULES`]).

use std::collections::BTreeMap;

use tegula_engine::{ChoiceWord, Event, FeatureInfo};
use tegula_ruleset::{FeatureKind, Ruleset, Side};

use crate::board::BoardView;
use crate::view::{kind_name, plural, SegmentView};

/// The rules of the steps whose events carry no rule id: drawing, placing a tile or a figure and
/// passing (B-2), followers going home (B-4), a pool pick at setup (W-1), a take (W-2), the
/// choice of who takes first (W-3), a marker on a placed pool tile (W-5), a moved figure (AM-11),
/// a figure on a field's corner (AM-6).
pub struct StepRules {
    /// A turn's draw, tile, figure or pass.
    pub turn: &'static str,
    /// Followers back to supply after a scoring.
    pub back: &'static str,
    /// A pick into the pool at setup.
    pub pick: &'static str,
    /// A take from the pool.
    pub take: &'static str,
    /// The choice of the next seat to take.
    pub seat: &'static str,
    /// A marker put on a placed pool tile.
    pub marker: &'static str,
    /// A figure moved after its feature was scored.
    pub moved: &'static str,
    /// A figure put on a corner of a field.
    pub corner: &'static str,
}

/// The one table of the rule ids cited by events without one.
pub const STEP_RULES: StepRules = StepRules {
    turn: "B-2",
    back: "B-4",
    pick: "W-1",
    take: "W-2",
    seat: "W-3",
    marker: "W-5",
    moved: "AM-11",
    corner: "AM-6",
};

/// What the event lines of one game need: tile names, the tiles that own abilities, and the
/// placed tiles of the final board (to name where a figure stands).
pub struct Words<'a> {
    board: &'a BoardView,
    /// Display name of each tile type, by id.
    tiles: BTreeMap<String, String>,
    /// Display name of the tile owning each ability rule.
    abilities: BTreeMap<String, String>,
    /// Index into the board's tiles of the tile anchored at each cell.
    anchors: BTreeMap<(i32, i32), usize>,
    /// Display name of each seat resource, by id.
    resources: BTreeMap<String, String>,
    /// Display name of each single-holder token and each kind of tile counter, by id.
    pieces: BTreeMap<String, String>,
}

/// How a tile is called: its name, followed by its id when that is a rulebook letter (no lower
/// case: `Cloister with road (A)`); a lower-case id (`notre-dame`, `am-8`) is a file name, not
/// something players say.
pub fn tile_display(id: &str, name: &str) -> String {
    if name.is_empty() || name == id {
        id.to_string()
    } else if id.chars().any(char::is_lowercase) {
        name.to_string()
    } else {
        format!("{name} ({id})")
    }
}

impl<'a> Words<'a> {
    /// The words of a game of `ruleset` whose final position is `board`.
    pub fn new(ruleset: &Ruleset, board: &'a BoardView) -> Words<'a> {
        let tiles: BTreeMap<String, String> = ruleset
            .tiles
            .iter()
            .map(|t| (t.id.clone(), tile_display(&t.id, &t.name)))
            .collect();
        let abilities = ruleset
            .tiles
            .iter()
            .flat_map(|t| {
                let name = tile_display(&t.id, &t.name);
                t.abilities
                    .iter()
                    .map(move |a| (a.rule.clone(), name.clone()))
            })
            .collect();
        let anchors = board
            .tiles
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.view.cells.first().map(|c| ((t.x + c.x, t.y + c.y), i)))
            .collect();
        let resources = (ruleset.resources.iter())
            .map(|r| (r.id.clone(), r.name.clone()))
            .collect();
        let pieces = (ruleset.tokens.iter())
            .map(|t| (t.id.clone(), t.name.clone()))
            .chain((ruleset.counters.iter()).map(|c| (c.id.clone(), c.name.clone())))
            .chain((ruleset.neutrals.iter()).map(|n| (n.id.clone(), n.name.clone())))
            .collect();
        Words {
            board,
            tiles,
            abilities,
            anchors,
            resources,
            pieces,
        }
    }

    fn seat(&self, p: u8) -> String {
        self.board
            .seats
            .get(p as usize)
            .map_or_else(|| format!("seat {p}"), |s| s.name.clone())
    }

    fn seats(&self, ps: &[u8]) -> String {
        let names: Vec<String> = ps.iter().map(|p| self.seat(*p)).collect();
        names.join(", ")
    }

    fn figure(&self, id: &str) -> String {
        self.board
            .figure_types
            .iter()
            .find(|f| f.id == id)
            .map_or_else(|| id.to_string(), |f| f.name.clone())
    }

    /// The display name of seat resource `id`, lower case as in running text.
    fn resource(&self, id: &str) -> String {
        let name = self.resources.get(id).map_or(id, String::as_str);
        name.to_lowercase()
    }

    /// The display name of a token or a kind of counter (its id when unknown).
    fn piece(&self, id: &str) -> String {
        self.pieces
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    /// The display name of tile type `id`.
    pub fn tile(&self, id: &str) -> String {
        self.tiles
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    /// The feature holding segment `segment` of the tile anchored at `(x, y)`, in words: "the
    /// north city of Cloister with road (A) at (0, 1)".
    pub fn segment(&self, x: i32, y: i32, segment: &str) -> String {
        let placed = self
            .anchors
            .get(&(x, y))
            .and_then(|&i| self.board.tiles.get(i));
        let Some(t) = placed else {
            return format!("a feature at ({x}, {y})");
        };
        let Some(seg) = t.view.segments.iter().find(|s| s.id == segment) else {
            return format!("a feature of {} at ({x}, {y})", self.tile(&t.view.id));
        };
        let mut what = format!("the {}", where_words(seg));
        if t.view.cells.len() > 1 {
            if let Some(c) = t.view.cells.get(seg.cell) {
                what.push_str(&format!(" in the {} cell", c.id));
            }
        }
        format!("{what} of {} at ({x}, {y})", self.tile(&t.view.id))
    }

    /// One line for `e`, its rule id last in brackets; `None` for a line a player would not
    /// say: in the final scoring (`final_scoring`: `e` comes after the game's last decision), an
    /// unfinished feature that pays nobody anything.
    pub fn describe(&self, e: &Event, final_scoring: bool) -> Option<String> {
        let line = match e {
            Event::Draw { .. }
            | Event::Discard { .. }
            | Event::Place { .. }
            | Event::Pass { .. }
            | Event::Choice { .. }
            | Event::Take { .. }
            | Event::Seat { .. } => self.turn_step(e),
            Event::Follower { .. } => self.follower(e)?,
            Event::Score {
                rule,
                players,
                points,
                feature,
                ..
            } => {
                if *points == 0 && !feature.complete && final_scoring {
                    return None;
                }
                self.score(rule, players, *points, feature)
            }
            Event::Return { .. }
            | Event::TopReturn { .. }
            | Event::ExtraTurn { .. }
            | Event::Gain { .. }
            | Event::Award { .. } => self.holding(e),
            Event::Points { .. }
            | Event::Token { .. }
            | Event::Counters { .. }
            | Event::Collect { .. } => self.rule_form(e)?,
            Event::Seating { .. } | Event::Finish { .. } | Event::End { .. } => self.game_step(e),
            Event::Neutral { .. }
            | Event::Step { .. }
            | Event::WalkEnd { .. }
            | Event::SetAside { .. }
            | Event::ShuffleBack { .. } => self.neutral(e),
            other => self.generic(other),
        };
        Some(data_cited(line, e))
    }

    /// A neutral figure put or walking, a tile set aside or shuffled back (PD-2..PD-5).
    fn neutral(&self, e: &Event) -> String {
        match e {
            Event::Neutral {
                rule,
                neutral,
                x,
                y,
                ..
            } => format!(
                "the {} is put on the tile at ({x}, {y}) [{rule}]",
                self.piece(neutral)
            ),
            Event::Step {
                player,
                rule,
                neutral,
                x,
                y,
                ..
            } => format!(
                "{} moves the {} to ({x}, {y}) [{rule}]",
                self.seat(*player),
                self.piece(neutral)
            ),
            Event::WalkEnd {
                rule,
                neutral,
                steps,
                ..
            } => format!(
                "the {} can go no further after {steps} steps [{rule}]",
                self.piece(neutral)
            ),
            Event::SetAside {
                player, tile, rule, ..
            } => format!(
                "{} sets {} aside and draws again [{rule}]",
                self.seat(*player),
                self.tile(tile)
            ),
            Event::ShuffleBack {
                rule, tiles, at, ..
            } => {
                let each: Vec<String> = tiles
                    .iter()
                    .zip(at)
                    .map(|(t, k)| format!("{} at {k}", self.tile(t)))
                    .collect();
                format!(
                    "the tiles set aside go back into the pile: {} [{rule}]",
                    each.join(", ")
                )
            }
            other => self.generic(other),
        }
    }

    /// A line for an event without words of its own: its kind and its seats.
    fn generic(&self, e: &Event) -> String {
        format!("{} ({})", e.kind(), self.seats(&e.players()))
    }

    /// A step of a turn: a draw, discard, placement, pass, choice, pool take or seat pick.
    fn turn_step(&self, e: &Event) -> String {
        let r = &STEP_RULES;
        match e {
            Event::Draw { player, tile, .. } => {
                format!(
                    "{} draws {} [{}]",
                    self.seat(*player),
                    self.tile(tile),
                    r.turn
                )
            }
            Event::Discard {
                player, tile, rule, ..
            } => format!(
                "{} discards {}: it fits nowhere [{rule}]",
                self.seat(*player),
                self.tile(tile)
            ),
            Event::Place {
                player,
                tile,
                x,
                y,
                rotation,
                ..
            } => format!(
                "{} places {} at ({x}, {y}), turned {}° [{}]",
                self.seat(*player),
                self.tile(tile),
                u32::from(*rotation) * 90,
                r.turn
            ),
            Event::Pass {
                player,
                rule: Some(rule),
                ..
            } => format!("{} declines the choice [{rule}]", self.seat(*player)),
            Event::Pass { player, .. } => {
                format!("{} places no figure [{}]", self.seat(*player), r.turn)
            }
            Event::Choice {
                player,
                rule,
                option,
                ..
            } => format!(
                "{} chooses {} [{rule}]",
                self.seat(*player),
                self.chosen(option)
            ),
            Event::Take { turn, player, tile } => {
                let (verb, rule) = if *turn == 0 {
                    ("picks", r.pick)
                } else {
                    ("takes", r.take)
                };
                format!("{} {verb} {} [{rule}]", self.seat(*player), self.tile(tile))
            }
            Event::Seat { player, seat, .. } => format!(
                "{} lets {} take next [{}]",
                self.seat(*player),
                self.seat(*seat),
                r.seat
            ),
            other => self.generic(other),
        }
    }

    /// A figure going home, an extra turn, a resource taken or spent, the most of one rewarded.
    fn holding(&self, e: &Event) -> String {
        let r = &STEP_RULES;
        match e {
            Event::Return {
                player, follower, ..
            } => format!(
                "{}'s {} returns to supply [{}]",
                self.seat(*player),
                self.figure(follower),
                r.back
            ),
            Event::TopReturn {
                player,
                follower,
                rule,
                x,
                y,
                ..
            } => format!(
                "{}'s {} on top of the stack at ({x}, {y}) returns to supply [{rule}]",
                self.seat(*player),
                self.figure(follower)
            ),
            Event::ExtraTurn { player, rule, .. } => {
                format!("{} takes one more turn [{rule}]", self.seat(*player))
            }
            Event::Gain {
                rule,
                player,
                resource,
                amount,
                spent,
                ..
            } => format!(
                "{} {} {amount} {} [{rule}]",
                self.seat(*player),
                if *spent { "uses" } else { "takes" },
                self.resource(resource)
            ),
            Event::Award {
                rule,
                players,
                resource,
                held,
                points,
                ..
            } => format!(
                "{} {} the most {} ({held}) and {} {points} [{rule}]",
                self.seats(players),
                if players.len() == 1 { "holds" } else { "hold" },
                self.resource(resource),
                if players.len() == 1 {
                    "scores"
                } else {
                    "each score"
                },
            ),
            other => self.generic(other),
        }
    }

    /// The game's frame: the seats sitting down, an early end, the final result.
    fn game_step(&self, e: &Event) -> String {
        match e {
            Event::Seating { seats, rule, .. } => format!("{seats} players sit down [{rule}]"),
            Event::Finish { .. } => "the game is ended early; final scoring follows".into(),
            Event::End {
                scores, winners, ..
            } => {
                let s: Vec<String> = scores
                    .iter()
                    .enumerate()
                    .map(|(p, v)| format!("{} {v}", self.seat(p as u8)))
                    .collect();
                format!(
                    "game over: {}; won by {}",
                    s.join(", "),
                    self.seats(winners)
                )
            }
            other => self.generic(other),
        }
    }

    /// What a rule of the one form did (docs/RULE-LANGUAGE.md): points with no feature, a token
    /// passing, counters put on a tile or taken off a scored feature's tiles.
    fn rule_form(&self, e: &Event) -> Option<String> {
        Some(match e {
            Event::Points {
                rule,
                players,
                points,
                ..
            } => format!(
                "{} {} {points} [{rule}]",
                self.seats(players),
                if players.len() == 1 {
                    "scores"
                } else {
                    "each score"
                }
            ),
            Event::Token {
                rule,
                token,
                player,
                record,
                ..
            } => format!(
                "{} takes the {} (record {record}) [{rule}]",
                self.seat(*player),
                self.piece(token)
            ),
            Event::Counters {
                rule,
                counter,
                x,
                y,
                added,
                total,
                ..
            } => format!(
                "{added} {} put on the tile at ({x}, {y}), which now holds {total} [{rule}]",
                self.piece(counter)
            ),
            Event::Collect {
                rule,
                counter,
                player,
                amount,
                ..
            } => format!(
                "{} takes {amount} {} off the scored tiles [{rule}]",
                self.seat(*player),
                self.piece(counter)
            ),
            _ => return None,
        })
    }

    /// A chosen option in words: a figure with the feature it stands on, a tile with its
    /// place, a kind by its resource's name.
    pub fn chosen(&self, option: &ChoiceWord) -> String {
        match option {
            ChoiceWord::Figure {
                x,
                y,
                segment,
                follower,
                ..
            } => format!(
                "their {} on {}",
                self.figure(follower),
                self.segment(*x, *y, segment)
            ),
            ChoiceWord::Tile([x, y]) => {
                let placed = self.board.tiles.iter().find(|t| {
                    let cells = t.view.cells.iter();
                    let mut at = cells.map(|c| (t.x + c.x, t.y + c.y));
                    at.any(|c| c == (*x, *y))
                });
                match placed {
                    Some(t) => format!("{} at ({x}, {y})", self.tile(&t.view.id)),
                    None => format!("the tile at ({x}, {y})"),
                }
            }
            ChoiceWord::Kind(id) => format!("a {}", self.resource(id)),
            ChoiceWord::Top {
                x,
                y,
                follower,
                player,
            } => format!(
                "seat {player}'s {} on the stack at ({x}, {y})",
                self.figure(follower)
            ),
            ChoiceWord::Captive { holder, follower } => {
                format!("their {} held by seat {holder}", self.figure(follower))
            }
        }
    }

    /// A figure placed, moved, or set on a pool tile as its marker.
    fn follower(&self, e: &Event) -> Option<String> {
        let Event::Follower {
            player,
            follower,
            x,
            y,
            segment,
            corner,
            moved,
            claim: marker,
            ..
        } = e
        else {
            return None;
        };
        let r = &STEP_RULES;
        let (who, fig) = (self.seat(*player), self.figure(follower));
        let place = self.segment(*x, *y, segment);
        let line = if *marker {
            let tile = self
                .anchors
                .get(&(*x, *y))
                .and_then(|&i| self.board.tiles.get(i))
                .map_or_else(|| format!("({x}, {y})"), |t| self.tile(&t.view.id));
            format!("{who} marks {tile} as theirs with a {fig} [{}]", r.marker)
        } else if *moved {
            format!("{who} moves its {fig} to {place} [{}]", r.moved)
        } else if let Some([cx, cy]) = corner {
            format!(
                "{who} puts a {fig} on the corner at ({cx}, {cy}) of {place} [{}]",
                r.corner
            )
        } else {
            format!("{who} puts a {fig} on {place} [{}]", r.turn)
        };
        Some(line)
    }

    /// A score line: "seat 0 +9: field with 3 completed cities [B-6]".
    fn score(&self, rule: &str, players: &[u8], points: u32, f: &FeatureInfo) -> String {
        let what = match self.abilities.get(rule) {
            Some(tile) => format!("{tile}'s ability"),
            None => feature_words(f),
        };
        if players.is_empty() {
            return format!("nobody scores the {what} [{rule}]");
        }
        let who = self.seats(players);
        if points == 0 {
            // A barn on a field beside no completed city, for one (AM-7).
            return format!("{who} scores nothing: {what} [{rule}]");
        }
        let each = if players.len() > 1 { " each" } else { "" };
        format!("{who} +{points}{each}: {what} [{rule}]")
    }
}

/// A scored feature as a player counts it: a field by the completed cities it pays for, a
/// cloister by its neighbours, a city or road by its tiles (and a city's pennants).
fn feature_words(f: &FeatureInfo) -> String {
    let done = if f.complete {
        "completed "
    } else {
        "unfinished "
    };
    match f.kind {
        FeatureKind::Field => format!(
            "field with {} completed cit{}",
            f.cities,
            if f.cities == 1 { "y" } else { "ies" }
        ),
        FeatureKind::Cloister => format!(
            "{done}cloister with {} neighbour{}",
            f.tiles,
            plural(f.tiles as usize)
        ),
        FeatureKind::City if f.pennants > 0 => format!(
            "{done}city of {} tile{} with {} pennant{}",
            f.tiles,
            plural(f.tiles as usize),
            f.pennants,
            plural(f.pennants as usize)
        ),
        kind => format!(
            "{done}{} of {} tile{}",
            kind_name(kind),
            f.tiles,
            plural(f.tiles as usize)
        ),
    }
}

/// A side's name in words.
fn side_word(s: Side) -> &'static str {
    ["north", "east", "south", "west"][s.index()]
}

/// A segment by kind and position on its (rotated) tile: "north–south road", "east field",
/// "cloister".
fn where_words(seg: &SegmentView) -> String {
    let mut sides: Vec<Side> = match seg.kind {
        FeatureKind::Field => seg.halves.iter().map(|h| h.side()).collect(),
        _ => seg.sides.clone(),
    };
    sides.sort();
    sides.dedup();
    let kind = kind_name(seg.kind);
    if sides.is_empty() || sides.len() == 4 {
        return kind.to_string();
    }
    let words: Vec<&str> = sides.into_iter().map(side_word).collect();
    format!("{} {kind}", words.join("–"))
}

/// `line` with the rules the data names for a draw, placement, figure or return (pile groups,
/// tile sets, figure types) added inside its closing brackets: "... [B-2, R-2]".
fn data_cited(mut line: String, e: &Event) -> String {
    let named = matches!(
        e,
        Event::Draw { .. } | Event::Place { .. } | Event::Follower { .. } | Event::Return { .. }
    );
    if !named || !line.ends_with(']') {
        return line;
    }
    line.pop();
    for r in e.cited() {
        line.push_str(", ");
        line.push_str(r);
    }
    line.push(']');
    line
}

#[cfg(test)]
mod tests {
    use super::tile_display;

    #[test]
    fn tiles_are_named_with_their_rulebook_letter_only() {
        assert_eq!(
            tile_display("A", "Cloister with road"),
            "Cloister with road (A)"
        );
        assert_eq!(tile_display("notre-dame", "Notre-Dame"), "Notre-Dame");
        assert_eq!(tile_display("am-8", "City cap"), "City cap");
        assert_eq!(tile_display("D", "D"), "D");
        assert_eq!(tile_display("x", ""), "x");
    }
}
