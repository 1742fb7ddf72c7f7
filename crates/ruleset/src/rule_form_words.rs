//! The one rule form in English: each [`When`], its event, effects, seats and offer said in
//! words next to the types (as [`crate::Ability::words`] does for abilities), so that `variant
//! explain` and docs/RULE-LANGUAGE.md print the same sentences from one source. Indices are
//! named through [`Names`].

use crate::rule_form::{
    Act, FigureSet, Offer, Options, RuleEvent, ScoredAt, Seat, SeatOrder, TileRef, When, CHOSEN,
};
use crate::value_text::{name, Names};
use crate::words::{article, capitalised};
use crate::FeatureKind;

impl When {
    /// The rule in one sentence, e.g. "When a city is completed during the game, if its tiles
    /// are more than token `T`'s record: the placer of the tile takes token `T` with the record
    /// its tiles."
    pub fn describe(&self, n: &Names<'_>) -> String {
        let mut s = capitalised(&self.event.describe(n));
        if let Some(t) = self.tile {
            s.push_str(&format!(
                ", for each placed tile `{}` with an owner (in the order they got one)",
                name(n.tiles, u32::from(t))
            ));
        }
        if let Some(t) = &self.test {
            s.push_str(", if ");
            s.push_str(&t.words_named(n));
        }
        s.push_str(": ");
        let mut parts = Vec::new();
        if !self.then.is_empty() {
            parts.push(acts(&self.then, n));
        }
        if let Some(o) = &self.offer {
            parts.push(o.describe(n));
        }
        s.push_str(&parts.join("; then "));
        s.push('.');
        s
    }
}

/// Effects in order, joined.
fn acts(acts: &[Act], n: &Names<'_>) -> String {
    let said: Vec<String> = acts.iter().map(|a| a.describe(n)).collect();
    said.join(", and ")
}

impl RuleEvent {
    /// When the rule acts, as a clause ("when a city is completed during the game").
    pub fn describe(&self, n: &Names<'_>) -> String {
        match self {
            RuleEvent::TilePlaced { tag: None } => "when a tile is placed".into(),
            RuleEvent::TilePlaced { tag: Some(t) } => {
                format!("when a tile carrying `{}` is placed", name(n.tags, *t))
            }
            RuleEvent::FigureStep => "at the figure step of each turn".into(),
            RuleEvent::FigureStepOn { tag: t } => format!(
                "at the figure step of a turn whose tile carries `{}`",
                name(n.tags, *t)
            ),
            RuleEvent::FigurePlaced { figure: None } => {
                "when a figure is placed from supply".into()
            }
            RuleEvent::FigurePlaced { figure: Some(f) } => format!(
                "when a figure `{}` is placed from supply",
                name(n.figures, u32::from(*f))
            ),
            RuleEvent::FeatureCompleted { kinds } => {
                format!("when {} is completed during the game", kinds_words(kinds))
            }
            RuleEvent::FeatureScored { kinds, at } => format!(
                "when {} is scored{}",
                kinds_words(kinds),
                match at {
                    ScoredAt::Any => "",
                    ScoredAt::Game => " during the game",
                    ScoredAt::End => " in final scoring",
                }
            ),
            RuleEvent::TurnStart => "at the start of each turn".into(),
            RuleEvent::TurnStartEach => {
                "at the start of each turn and of each part of a double turn".into()
            }
            RuleEvent::TurnEnd => "at the end of each turn, after its scoring".into(),
            RuleEvent::GameEnd => "at the end of the game, before final scoring".into(),
            RuleEvent::GameOver => "once the game is over, after final scoring".into(),
            RuleEvent::Joined { figure } => format!(
                "when a placement joins a feature holding figures to one a {} stands beside",
                figure_words(n, *figure, "figure")
            ),
            RuleEvent::FigureAtEnd { figure } => format!(
                "after final scoring, for each {} on the board",
                figure_words(n, *figure, "figure")
            ),
            RuleEvent::FeaturePaid { kinds } => {
                format!("when {} is paid to its majority", kinds_words(kinds))
            }
            RuleEvent::TurnFinished => "when a turn is finished (its scoring, offers and \
                                        figure moves done)"
                .into(),
            RuleEvent::Chained => "when another rule's effect makes this offer".into(),
            RuleEvent::BeforeScoring { tag } => format!(
                "after the figure step, before the turn's scoring{}",
                tag_words(n, *tag, " of a tile carrying")
            ),
            RuleEvent::Draw { tag: None } => "when a tile is drawn".into(),
            RuleEvent::Draw { tag: Some(t) } => {
                format!("when a tile carrying `{}` is drawn", name(n.tags, *t))
            }
        }
    }
}

impl Seat {
    /// Who, as a singular noun phrase ("the actor", "each winner of the feature").
    pub fn describe(&self, n: &Names<'_>) -> String {
        match self {
            Seat::Actor => "the actor".into(),
            Seat::Placer => "the placer of the tile".into(),
            Seat::Owner => "the tile's owner".into(),
            Seat::Winners => "each winner of the feature".into(),
            Seat::Every => "each seat".into(),
            Seat::Holder(t) => format!("the holder of token `{}`", name(n.tokens, u32::from(*t))),
            Seat::Chooser => "the chooser".into(),
            Seat::ChosenOwner => "the owner of the figure chosen before".into(),
            Seat::Has(f) => format!(
                "each winner of the feature for each figure `{}` of theirs on it",
                name(n.figures, u32::from(*f))
            ),
            Seat::AssignedOwner(x) => format!(
                "the owner of the figure neutral figure `{}` is assigned to",
                name(n.neutrals, u32::from(*x))
            ),
            Seat::OwnersOn(x) => format!(
                "each seat with a figure in the feature on the tile of neutral figure `{}`",
                name(n.neutrals, u32::from(*x))
            ),
            Seat::Most(r) => format!(
                "each seat holding the most of resource `{}` (none for 0)",
                name(n.resources, u32::from(*r))
            ),
            Seat::Where(t) => format!("each seat where {}", t.words_named(n)),
        }
    }
}

impl Act {
    /// The effect as a clause ("the actor scores 1 plus 1 per tile").
    pub fn describe(&self, n: &Names<'_>) -> String {
        match self {
            Act::Score { value, to } => {
                format!("{} scores {}", to.describe(n), value.words_named(n))
            }
            Act::Gain {
                resource,
                amount,
                to,
                spend,
            } => format!(
                "{} {} {}: {}",
                to.describe(n),
                if *spend { "gives up" } else { "gains" },
                held(n, *resource, "resource"),
                amount.words_named(n)
            ),
            Act::Token { token, to, record } => format!(
                "{} takes token `{}` with the record {}",
                to.describe(n),
                name(n.tokens, u32::from(*token)),
                record.amount_named(n)
            ),
            Act::Counters { counter, add, on } => format!(
                "{} gets {}: {}",
                tile_words(*on),
                held(n, *counter, "counter"),
                add.words_named(n)
            ),
            Act::Take { counter, into, to } => format!(
                "{}, one at a time in turn order from the actor, takes the {} on the \
                 feature's tiles as {}",
                to.describe(n),
                held(n, *counter, "counters"),
                held(n, *into, "resource")
            ),
            Act::ExtraTurn => "the actor takes one more turn".into(),
            Act::ReturnChosen => "the chosen figure returns to its owner's supply".into(),
            Act::ScoreFeature { value, each_part } => format!(
                "the feature scores {} for its majority{}, and its figures are released",
                value.words_named(n),
                if *each_part {
                    " (each feature the tile joined into it on its own, with its own \
                     majority and cities)"
                } else {
                    ""
                }
            ),
            Act::ScoreFigure { value } => {
                format!("the figure's owner scores {}", value.words_named(n))
            }
            Act::Hand { size, to } => format!(
                "{} holds a hand of {size} tiles (draws up to {size}, places one, keeps the \
                 rest)",
                to.describe(n)
            ),
            Act::Figures { figure, add, to } => format!(
                "{} puts into supply figures `{}`: {}",
                to.describe(n),
                name(n.figures, u32::from(*figure)),
                add.words_named(n)
            ),
            Act::Advance { track, by } => format!(
                "track `{}` moves on by {} (never past its end)",
                name(n.tracks, u32::from(*track)),
                by.amount_named(n)
            ),
            Act::Place | Act::Assign { .. } | Act::Unassign { .. } => self.board_words(n),
            Act::AddPiece => "a piece goes on the chosen stack".into(),
            Act::Top => "the chosen figure goes on top of the chosen stack, closing it".into(),
            Act::Capture { exchange } => format!(
                "the chosen figure leaves the board: the chooser's own goes back to supply, \
                 another seat's is held by the chooser{}",
                match exchange {
                    Some(r) => format!(
                        "; then, while two seats each hold a figure of the other, both go \
                         home ({r})"
                    ),
                    None => String::new(),
                }
            ),
            Act::ExchangeBack => "the chosen held figure goes back to its owner's supply, and \
                                  the holder's figure its owner took last goes back to the \
                                  holder's"
                .into(),
            Act::Redeem { points } => format!(
                "the chosen held figure goes back to the chooser's supply, and the chooser \
                 pays {points} points to the seat holding it"
            ),
            Act::Offer { rule } => format!("the offer of rule {rule} is made now"),
            Act::Put { neutral, on } => format!(
                "neutral figure `{}` is put on {}, taking no step",
                name(n.neutrals, u32::from(*neutral)),
                tile_words(*on)
            ),
            Act::NoFigures { on } => {
                format!("no figure may be placed on {} this turn", tile_words(*on))
            }
            Act::Walk(w) => w.describe(n),
            Act::ReturnOn {
                on, figures, tops, ..
            } => format!(
                "every {} on {}{} returns to its owner's supply",
                set_words(n, *figures),
                tile_words(*on),
                if *tops {
                    ", on top of a stack there too,"
                } else {
                    ""
                }
            ),
            Act::SetAside => "the drawn tile is set aside and the seat draws again".into(),
            Act::ShuffleBack => {
                "the tiles set aside go back into the remaining pile at random positions".into()
            }
        }
    }
}

impl Act {
    /// The effects of choices over the board (PD-7, PD-10, PD-11) as a clause.
    fn board_words(&self, n: &Names<'_>) -> String {
        match self {
            Act::Assign { neutral } => format!(
                "neutral figure `{}` is assigned to the chosen figure and stands on its tile",
                name(n.neutrals, u32::from(*neutral))
            ),
            Act::Unassign { neutral } => format!(
                "neutral figure `{}` is assigned to nobody and stays where it stands",
                name(n.neutrals, u32::from(*neutral))
            ),
            _ => "the chooser puts the chosen figure from supply on the chosen feature".into(),
        }
    }
}

impl Offer {
    /// The choice as a clause ("the actor may choose a figure of theirs …; on it: …").
    pub fn describe(&self, n: &Names<'_>) -> String {
        let order = match self.order {
            SeatOrder::TurnOrder => "",
            SeatOrder::ActorChooses => ", the actor choosing who goes first when several may",
        };
        let again = if self.repeat {
            " (made again, every seat tested again, until none may)"
        } else {
            ""
        };
        format!(
            "{} {} {}{}{order}: {}{again}",
            self.to.describe(n),
            if self.may_decline {
                "may choose"
            } else {
                "must choose"
            },
            self.options.describe(n),
            if self.uses_figure_step {
                " instead of placing a figure"
            } else {
                ""
            },
            acts(&self.then, n)
        )
    }
}

impl Options {
    /// What may be chosen, as a noun phrase.
    pub fn describe(&self, n: &Names<'_>) -> String {
        match self {
            Options::OwnFigure {
                figure,
                figures,
                not_assigned,
                on,
                test,
                tops,
            } => {
                let which = match (figure, figures) {
                    (Some(f), _) => format!("figure `{}`", name(n.figures, u32::from(*f))),
                    (None, Some(set)) => format!("figure ({})", figure_set_words(n, *set)),
                    (None, None) => "figure".into(),
                };
                let mut s = format!("a {which} of theirs on {}", kinds_words(on));
                if let Some(t) = test {
                    s.push_str(&format!(" where {}", t.words_named(n)));
                }
                if *tops {
                    s.push_str(" or on top of a stack");
                }
                if let Some(x) = not_assigned {
                    s.push_str(&format!(
                        ", not the one neutral figure `{}` is assigned to",
                        name(n.neutrals, u32::from(*x))
                    ));
                }
                s
            }
            Options::NeighbourTile { diagonals: true } => {
                "a placed tile of the 8 around the tile".into()
            }
            Options::NeighbourTile { diagonals: false } => {
                "a placed tile of the 4 beside the tile".into()
            }
            Options::Kind { of } => {
                let kinds: Vec<String> = of
                    .iter()
                    .map(|k| format!("`{}`", name(n.resources, u32::from(k.resource))))
                    .collect();
                format!("a kind of piece they hold ({})", kinds.join(", "))
            }
            Options::PoolTile => "a tile of the open pool to take (with none left, the take \
                                  happens all the same)"
                .into(),
            Options::AnyFeature { figures, avoid } => format!(
                "a figure of theirs in supply ({}) and an unoccupied, uncompleted feature of \
                 any other placed tile{} for it",
                figure_set_words(n, *figures),
                avoid_words(n, avoid)
            ),
            Options::FigureIn { figures } => format!(
                "a figure of any seat's ({}) on the feature of the tile's tagged segment",
                figure_set_words(n, *figures)
            ),
            Options::StackSite { stack } => format!(
                "a site of stack `{}` that takes a piece (while they hold one)",
                name(n.stacks, u32::from(*stack))
            ),
            Options::StackTop { stack } => format!(
                "an open stack `{}` high enough for a figure of theirs on top",
                name(n.stacks, u32::from(*stack))
            ),
            Options::InReach { figures, tops } => {
                let ids: Vec<String> = figures
                    .iter()
                    .map(|f| format!("`{}`", name(n.figures, u32::from(*f))))
                    .collect();
                format!(
                    "a figure ({}) of any seat within the chosen stack's reach{}",
                    ids.join(", "),
                    if *tops {
                        ", figures on stacks included"
                    } else {
                        ""
                    }
                )
            }
            Options::OwnCaptive {
                min_score,
                once_per_turn,
            } => {
                let poor = match min_score {
                    0 => "whatever their score, even below 0".to_string(),
                    m => format!("with at least {m} points"),
                };
                let once = if *once_per_turn { ", once a turn" } else { "" };
                format!("a figure of theirs another seat holds ({poor}{once})")
            }
            Options::ExchangeBack => "which of the taker's figures held by the seat whose \
                                      figure was just taken comes back (when it holds two \
                                      types or more)"
                .into(),
        }
    }
}

/// " (not the tile of neutral figure `ID`)" and the like, for an offer's `avoid`.
fn avoid_words(n: &Names<'_>, avoid: &[crate::Avoid]) -> String {
    let each = avoid.iter().filter_map(|a| match a {
        crate::Avoid::Neutral(i) => Some(format!(
            "the tile of neutral figure `{}`",
            name(n.neutrals, u32::from(*i))
        )),
        crate::Avoid::Tag(t) => Some(format!("a tile carrying `{}`", name(n.tags, *t))),
        crate::Avoid::Empty | crate::Avoid::Visited => None,
    });
    let said: Vec<String> = each.collect();
    if said.is_empty() {
        return String::new();
    }
    format!(" (not {})", said.join(" or "))
}

/// The figure types of a set, by id ("`meeple`, `knight`"; "no figure" when empty).
fn figure_set_words(n: &Names<'_>, set: FigureSet) -> String {
    let ids: Vec<String> = (0..32u8)
        .filter(|&f| set.has(f))
        .map(|f| format!("`{}`", name(n.figures, u32::from(f))))
        .collect();
    if ids.is_empty() {
        return "no figure".into();
    }
    ids.join(", ")
}

impl crate::Walk {
    /// The walk as a clause.
    pub fn describe(&self, n: &Names<'_>) -> String {
        let avoid: Vec<String> = self
            .avoid
            .iter()
            .map(|a| match a {
                crate::Avoid::Empty => "a cell with no tile".to_string(),
                crate::Avoid::Visited => "a cell visited".to_string(),
                crate::Avoid::Neutral(i) => {
                    format!("the cell of `{}`", name(n.neutrals, u32::from(*i)))
                }
                crate::Avoid::Tag(t) => format!("a tile carrying `{}`", name(n.tags, *t)),
            })
            .collect();
        let mut s = format!(
            "neutral figure `{}` walks {} steps, each to a neighbouring cell chosen by {}",
            name(n.neutrals, u32::from(self.neutral)),
            self.steps.words_named(n),
            match self.chooser {
                crate::WalkChooser::Rotating => "the seats in turn order from the actor",
                crate::WalkChooser::Actor => "the actor",
            }
        );
        s.push_str(match self.revisit {
            crate::Revisit::NeverStartIncluded => ", its start counted as visited",
            crate::Revisit::NeverEntered => ", only the cells entered counted as visited",
        });
        if !avoid.is_empty() {
            s.push_str(&format!(", never to {}", avoid.join(" or ")));
        }
        if !self.on_enter.is_empty() {
            s.push_str(&format!(
                ", and on each tile entered {}",
                acts(&self.on_enter, n)
            ));
        }
        s
    }
}

/// A tile reference in words.
fn tile_words(on: TileRef) -> &'static str {
    match on {
        TileRef::Subject => "the tile",
        TileRef::Chosen => "the chosen tile",
        TileRef::Entered => "the tile entered",
    }
}

/// The figure types of a set, by id.
fn set_words(n: &Names<'_>, set: crate::FigureSet) -> String {
    let ids: Vec<String> = (0..32u8)
        .filter(|&i| set.has(i))
        .map(|i| format!("`{}`", name(n.figures, u32::from(i))))
        .collect();
    format!("figure ({})", ids.join(", "))
}

/// `" of a tile carrying `TAG`"`, or nothing.
fn tag_words(n: &Names<'_>, tag: Option<u32>, lead: &str) -> String {
    tag.map_or(String::new(), |t| format!("{lead} `{}`", name(n.tags, t)))
}

/// "figure `ID`" (the figure type's id), or `any` when no figure type is named.
fn figure_words(n: &Names<'_>, figure: Option<u8>, any: &str) -> String {
    match figure {
        Some(f) => format!("figure `{}`", name(n.figures, u32::from(f))),
        None => any.into(),
    }
}

/// "a city", "a road or city", "a feature".
fn kinds_words(kinds: &[FeatureKind]) -> String {
    match kinds {
        [] => "a feature".into(),
        [k] => format!("{} {}", article(*k), k.name()),
        _ => {
            let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
            format!("{} {}", article(kinds[0]), names.join(" or "))
        }
    }
}

/// A resource or counter by name, or the chosen kind's.
fn held(n: &Names<'_>, i: u16, what: &str) -> String {
    if i == CHOSEN {
        return format!("the chosen kind's {what}");
    }
    if what == "counters" {
        return format!("counters `{}`", name(n.counters, u32::from(i)));
    }
    let ids = if what == "resource" {
        n.resources
    } else {
        n.counters
    };
    format!("{what} `{}`", name(ids, u32::from(i)))
}
