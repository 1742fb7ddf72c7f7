//! Hand-built rulesets for tests and benchmarks that must not depend on the TOML compiler.
//!
//! Tiles are written in a compact one-line notation (documented on [`tile`]); [`base_ruleset`] is
//! the 72-tile base game transcribed from the tile catalogue (B-1), built independently of the
//! project's TOML so the two can be compared.

use tegula_ruleset::{
    rotate_offset, CellPorts, Citations, Feature, FeatureKind, FollowerType, Half, Rotation,
    Ruleset, Scoring, Side, SideKind, TileType, NO_FEATURE,
};

use crate::{Agent, Game, Phase, RandomAgent};

fn kind_of(c: char) -> Option<SideKind> {
    match c {
        'C' => Some(SideKind::City),
        'R' => Some(SideKind::Road),
        'F' => Some(SideKind::Field),
        'A' => Some(SideKind::Any),
        _ => None,
    }
}

fn side_of(s: &str) -> Option<Side> {
    Side::ALL.into_iter().find(|x| x.name() == s)
}

fn half_of(s: &str) -> Option<Half> {
    Half::ALL.into_iter().find(|x| x.name() == s)
}

/// Split an optional leading cell digit off a token (`"1Wn"` → `(1, "Wn")`).
fn cell_prefix(tok: &str) -> (u8, &str) {
    match tok.chars().next() {
        Some(c) if c.is_ascii_digit() => (c as u8 - b'0', &tok[1..]),
        _ => (0, tok),
    }
}

/// Build one tile type from a spec line:
///
/// `ID COUNT FLAG CELLS | name:KIND:list[>border,…] | …`
///
/// - `FLAG` is `start` (one extra start copy) or `-`.
/// - `CELLS` is four side letters `N E S W` (`C`ity, `R`oad, `F`ield, `A`ny) for a single cell,
///   or `SIDES@dx,dy;SIDES@dx,dy;…` for a mega tile (first cell = anchor at `0,0`).
/// - `KIND` is `C` (city; `C2` = city with 2 pennants), `R` road, `F` field, `K` cloister,
///   `W` unscored. The list holds sides (cities, roads), half-edges (fields) or nothing; on mega
///   tiles each entry starts with its cell index (`0N`, `1Wn`); cloisters/unscored features/inner fields
///   may give `@cell`.
/// - `>a,b` lists the cities (by name) a field borders.
///
/// Returns an error message for a malformed spec.
pub fn tile(spec: &str) -> Result<TileType, String> {
    let mut parts = spec.split('|').map(str::trim);
    let head = parts.next().ok_or("empty spec")?;
    let h: Vec<&str> = head.split_whitespace().collect();
    if h.len() != 4 {
        return Err(format!("bad head `{head}`"));
    }
    let id = h[0].to_string();
    let count: u32 = h[1].parse().map_err(|_| format!("bad count `{}`", h[1]))?;
    let start = h[2] == "start";
    let cells = spec_cells(h[3])?;
    let feats = parts.map(spec_feature).collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = feats.iter().map(|f| f.name.clone()).collect();
    let features = feats
        .iter()
        .map(|f| spec_to_feature(f, &names, &cells))
        .collect::<Result<Vec<_>, _>>()?;
    let rotations = (0..4u8).map(|r| spec_rotation(&cells, &feats, r)).collect();
    let n = cells.len();
    Ok(TileType {
        name: id.clone(),
        id,
        set: "kit".to_string(),
        count,
        start,
        tags: 0,
        cell_count: n as u8,
        cell_ids: (0..n).map(|i| i.to_string()).collect(),
        features,
        rotations,
        rules: Vec::new(),
        abilities: Vec::new(),
        placement: Vec::new(),
    })
}

/// A spec's cells: offset from the anchor and the four side kinds (rotation 0).
type SpecCell = ((i32, i32), [SideKind; 4]);

/// The `CELLS` word of a spec: `NESW` or `NESW@dx,dy;…`.
fn spec_cells(word: &str) -> Result<Vec<SpecCell>, String> {
    let mut cells = Vec::new();
    for c in word.split(';') {
        let (sides, at) = match c.split_once('@') {
            Some((s, a)) => {
                let (x, y) = a.split_once(',').ok_or("bad offset")?;
                let x: i32 = x.parse().map_err(|_| "bad offset")?;
                let y: i32 = y.parse().map_err(|_| "bad offset")?;
                (s, (x, y))
            }
            None => (c, (0, 0)),
        };
        let k: Vec<SideKind> = sides.chars().filter_map(kind_of).collect();
        if k.len() != 4 || sides.len() != 4 {
            return Err(format!("bad sides `{sides}`"));
        }
        cells.push((at, [k[0], k[1], k[2], k[3]]));
    }
    Ok(cells)
}

/// One `name:KIND:list[>border,…]` part of a spec, as written (rotation 0).
struct SpecFeature {
    kind: FeatureKind,
    name: String,
    pennants: u8,
    sides: Vec<(u8, Side)>,
    halves: Vec<(u8, Half)>,
    at: u8,
    borders: Vec<String>,
}

/// Parse one feature part of a spec.
fn spec_feature(p: &str) -> Result<SpecFeature, String> {
    let mut it = p.splitn(3, ':');
    let name = it.next().ok_or("no name")?.to_string();
    let kind_s = it.next().ok_or_else(|| format!("no kind in `{p}`"))?;
    let rest = it.next().unwrap_or("");
    let (list, borders) = match rest.split_once('>') {
        Some((l, b)) => (l, b.split(',').map(|s| s.trim().to_string()).collect()),
        None => (rest, Vec::new()),
    };
    let kind = match kind_s.chars().next() {
        Some('C') => FeatureKind::City,
        Some('R') => FeatureKind::Road,
        Some('F') => FeatureKind::Field,
        Some('K') => FeatureKind::Cloister,
        Some('W') => FeatureKind::Unscored,
        _ => return Err(format!("bad kind `{kind_s}`")),
    };
    let pennants = kind_s[1..].parse().unwrap_or(0);
    let mut f = SpecFeature {
        kind,
        name,
        pennants,
        sides: Vec::new(),
        halves: Vec::new(),
        at: 0,
        borders,
    };
    for tok in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if let Some(c) = tok.strip_prefix('@') {
            f.at = c.parse().map_err(|_| "bad @cell")?;
            continue;
        }
        let (cell, t) = cell_prefix(tok);
        match kind {
            FeatureKind::City | FeatureKind::Road => f
                .sides
                .push((cell, side_of(t).ok_or_else(|| format!("bad side `{t}`"))?)),
            FeatureKind::Field => f
                .halves
                .push((cell, half_of(t).ok_or_else(|| format!("bad half `{t}`"))?)),
            _ => return Err(format!("`{tok}` on a cloister/unscored feature")),
        }
    }
    Ok(f)
}

/// Whether `(x, y)` is one of the tile's cells.
fn is_cell(cells: &[SpecCell], x: i32, y: i32) -> bool {
    cells.iter().any(|c| c.0 == (x, y))
}

/// The contract's feature for a spec feature: its cells, open sides and bordered cities.
fn spec_to_feature(
    f: &SpecFeature,
    names: &[String],
    cells: &[SpecCell],
) -> Result<Feature, String> {
    let mut cellmask = 0u8;
    for &(c, _) in &f.sides {
        cellmask |= 1 << c;
    }
    for &(c, _) in &f.halves {
        cellmask |= 1 << c;
    }
    if cellmask == 0 {
        cellmask = 1 << f.at;
    }
    let open_sides = f
        .sides
        .iter()
        .filter(|&&(c, s)| {
            let (x, y) = cells[c as usize].0;
            let (dx, dy) = s.delta();
            !is_cell(cells, x + dx, y + dy)
        })
        .count() as u8;
    let mut borders = Vec::new();
    for b in &f.borders {
        let i = names
            .iter()
            .position(|n| n == b)
            .ok_or_else(|| format!("unknown border `{b}`"))?;
        borders.push(i as u8);
    }
    Ok(Feature {
        kind: f.kind,
        segments: vec![f.name.clone()],
        cells: cellmask,
        open_sides,
        pennants: f.pennants,
        tags: 0,
        borders,
    })
}

/// The tile's cells turned by `r` quarter turns, with their sides' and half-edges' features.
fn spec_rotation(cells: &[SpecCell], feats: &[SpecFeature], r: u8) -> Rotation {
    let mut rc = Vec::new();
    for (ci, &((x, y), sides)) in cells.iter().enumerate() {
        let (ox, oy) = rotate_offset(x, y, r);
        let mut rs = [SideKind::Field; 4];
        let mut sf = [NO_FEATURE; 4];
        let mut hf = [NO_FEATURE; 8];
        let mut inner = Vec::new();
        let mut outer = 0u8;
        for s in Side::ALL {
            rs[s.rotated(r).index()] = sides[s.index()];
            let (dx, dy) = s.delta();
            if !is_cell(cells, x + dx, y + dy) {
                outer |= 1 << s.rotated(r).index();
            }
        }
        for (fi, f) in feats.iter().enumerate() {
            for &(c, s) in &f.sides {
                if c as usize == ci {
                    sf[s.rotated(r).index()] = fi as u8;
                }
            }
            for &(c, h) in &f.halves {
                if c as usize == ci {
                    hf[h.rotated(r).index()] = fi as u8;
                }
            }
            if f.sides.is_empty() && f.halves.is_empty() && f.at as usize == ci {
                inner.push(fi as u8);
            }
        }
        rc.push(CellPorts {
            offset: (ox as i8, oy as i8),
            sides: rs,
            outer,
            side_feature: sf,
            half_feature: hf,
            inner,
        });
    }
    Rotation { cells: rc }
}

/// The 24 base tile types (B-1), one spec line each, from the tile catalogue.
pub const BASE_TILES: &[&str] = &[
    "A 2 - FFRF | cloister:K | road:R:S | field:F:Nw,Ne,En,Es,Se,Sw,Ws,Wn",
    "B 4 - FFFF | cloister:K | field:F:Nw,Ne,En,Es,Se,Sw,Ws,Wn",
    "C 1 - CCCC | city:C1:N,E,S,W",
    "D 3 start CRFR | city:C:N | road:R:W,E | north:F:Wn,En>city | south:F:Es,Se,Sw,Ws",
    "E 5 - CFFF | city:C:N | field:F:En,Es,Se,Sw,Ws,Wn>city",
    "F 2 - FCFC | city:C1:W,E | north:F:Nw,Ne>city | south:F:Se,Sw>city",
    "G 1 - FCFC | city:C:W,E | north:F:Nw,Ne>city | south:F:Se,Sw>city",
    "H 3 - CFCF | north:C:N | south:C:S | field:F:En,Es,Ws,Wn>north,south",
    "I 2 - CFFC | north:C:N | west:C:W | field:F:En,Es,Se,Sw>north,west",
    "J 3 - CRRF | city:C:N | road:R:E,S | big:F:En,Sw,Ws,Wn>city | small:F:Es,Se",
    "K 3 - CFRR | city:C:N | road:R:S,W | big:F:Wn,En,Es,Se>city | small:F:Sw,Ws",
    "L 3 - CRRR | city:C:N | east:R:E | south:R:S | west:R:W | north:F:Wn,En>city | se:F:Es,Se | sw:F:Sw,Ws",
    "M 2 - CFFC | city:C1:N,W | field:F:En,Es,Se,Sw>city",
    "N 3 - CFFC | city:C:N,W | field:F:En,Es,Se,Sw>city",
    "O 2 - CRRC | city:C1:N,W | road:R:E,S | inner:F:En,Sw>city | outer:F:Es,Se",
    "P 3 - CRRC | city:C:N,W | road:R:E,S | inner:F:En,Sw>city | outer:F:Es,Se",
    "Q 1 - CCFC | city:C1:N,E,W | field:F:Se,Sw>city",
    "R 3 - CCFC | city:C:N,E,W | field:F:Se,Sw>city",
    "S 2 - CCRC | city:C1:N,E,W | road:R:S | east:F:Se>city | west:F:Sw>city",
    "T 1 - CCRC | city:C:N,E,W | road:R:S | east:F:Se>city | west:F:Sw>city",
    "U 8 - FRFR | road:R:W,E | north:F:Wn,Nw,Ne,En | south:F:Es,Se,Sw,Ws",
    "V 9 - FFRR | road:R:W,S | big:F:Wn,Nw,Ne,En,Es,Se | small:F:Sw,Ws",
    "W 4 - FRRR | east:R:E | south:R:S | west:R:W | north:F:Wn,Nw,Ne,En | se:F:Es,Se | sw:F:Sw,Ws",
    "X 1 - RRRR | n:R:N | e:R:E | s:R:S | w:R:W | nw:F:Wn,Nw | ne:F:Ne,En | se:F:Es,Se | sw:F:Sw,Ws",
];

/// A two-cell test tile: one city across both cells' north sides (a 2-cell city, W-18).
pub const DOMINO: &str =
    "DOM 1 - CFFF@0,0;CFFF@1,0 | city:C:0N,1N | field:F:0Es,0Se,0Sw,0Ws,0Wn,1En,1Es,1Se,1Sw>city";

/// A ruleset from tile spec lines (2–5 players, 7 meeples of strength 1, standard scoring).
pub fn ruleset(id: &str, specs: &[&str]) -> Result<Ruleset, String> {
    let mut tiles = Vec::new();
    for s in specs {
        tiles.push(tile(s).map_err(|e| format!("{s}: {e}"))?);
    }
    let start_tile = tiles.iter().position(|t| t.start).map(|i| i as u16);
    Ok(Ruleset {
        format_version: tegula_ruleset::FORMAT_VERSION,
        id: id.to_string(),
        name: id.to_string(),
        min_players: 1,
        max_players: 5,
        followers: vec![FollowerType::standard("meeple", "Meeple", 7, 1)],
        scoring: Scoring::default(),
        tags: Vec::new(),
        tiles,
        start_tile,
        player_tiles: Vec::new(),
        pool: None,
        hand: 1,
        readings: Default::default(),
        rules: Vec::new(),
        resources: Vec::new(),
        edge_kinds: Vec::new(),
        pile_groups: Vec::new(),
        seats_rule: None,
        // The registry's standard rules, as a variant that does not name its own cites them.
        citations: Citations {
            placement: "B-2".into(),
            scoring: "B-4".into(),
            final_scoring: "B-6".into(),
        },
        when: Vec::new(),
        tokens: Vec::new(),
        counters: Vec::new(),
        tracks: Vec::new(),
        stacks: Vec::new(),
        neutrals: Vec::new(),
    })
}

/// The base game (B-1) built from [`BASE_TILES`].
pub fn base_ruleset() -> Ruleset {
    ruleset("base", BASE_TILES).expect("the built-in base specs are well-formed")
}

/// The base game with one [`DOMINO`] added (a multi-cell tile among single-cell ones).
pub fn domino_ruleset() -> Ruleset {
    let mut specs: Vec<&str> = BASE_TILES.to_vec();
    specs.push(DOMINO);
    ruleset("kit-domino", &specs).expect("the built-in specs are well-formed")
}

/// The base game with three rules that offer choices (issue 30, item 2), each under the rule id
/// given: the shapes of AB-4, CA-3 and GM-2 (docs/design/rule-form.md, "Choices").
pub mod offers {
    use tegula_ruleset::{
        Act, CounterType, Expr, FeatureKind, Offer, Options, Quantity, Resource, RuleEvent,
        Ruleset, Seat, TileRef, When,
    };

    /// A rule whose only effect is `offer`, made at `event`.
    pub fn offered(rule: &str, event: RuleEvent, offer: Offer) -> When {
        When {
            rule: rule.into(),
            event,
            test: None,
            then: Vec::new(),
            offer: Some(offer),
            tile: None,
        }
    }

    fn own_figure(on: FeatureKind) -> Options {
        Options::OwnFigure {
            figure: None,
            figures: None,
            not_assigned: None,
            on: vec![on],
            test: None,
            tops: false,
        }
    }

    /// Instead of a figure, withdraw one of one's figures from a cloister for 1 + its
    /// neighbours (AB-4's shape; may be declined, uses the figure step).
    pub fn withdraw(rule: &str) -> When {
        let score = Act::Score {
            value: Expr::plus(Expr::Int(1), Expr::Count(Quantity::Neighbours)),
            to: Seat::Chooser,
        };
        let offer = Offer {
            to: Seat::Actor,
            options: own_figure(FeatureKind::Cloister),
            may_decline: true,
            uses_figure_step: true,
            then: vec![score, Act::ReturnChosen],
            repeat: false,
            order: tegula_ruleset::SeatOrder::TurnOrder,
        };
        offered(rule, RuleEvent::FigureStep, offer)
    }

    /// At the end of a turn, the actor may take a figure of theirs off a city (CA-3's shape).
    pub fn escape(rule: &str) -> When {
        let offer = Offer {
            to: Seat::Actor,
            options: own_figure(FeatureKind::City),
            may_decline: true,
            uses_figure_step: false,
            then: vec![Act::ReturnChosen],
            repeat: false,
            order: tegula_ruleset::SeatOrder::TurnOrder,
        };
        offered(rule, RuleEvent::TurnEnd, offer)
    }

    /// A tile placed: a counter on it, one on a neighbouring tile the actor picks (diagonals
    /// count; no decline), and the picker gains 2 of a resource (GM-2's shape). Adds the
    /// resource `resource` and the counter `counter` to `rs`.
    pub fn neighbour(rs: &mut Ruleset, rule: &str, resource: &str, counter: &str) -> When {
        let r = rs.resources.len() as u16;
        let c = rs.counters.len() as u16;
        rs.resources.push(Resource {
            id: resource.into(),
            name: resource.into(),
            start: Vec::new(),
        });
        rs.counters.push(CounterType {
            id: counter.into(),
            name: counter.into(),
        });
        let put = |on| Act::Counters {
            counter: c,
            add: Expr::Int(1),
            on,
        };
        let gain = Act::Gain {
            resource: r,
            amount: Expr::Int(2),
            to: Seat::Chooser,
            spend: false,
        };
        let offer = Offer {
            to: Seat::Actor,
            options: Options::NeighbourTile { diagonals: true },
            may_decline: false,
            uses_figure_step: false,
            then: vec![put(TileRef::Chosen), gain],
            repeat: false,
            order: tegula_ruleset::SeatOrder::TurnOrder,
        };
        let mut w = offered(rule, RuleEvent::TilePlaced { tag: None }, offer);
        w.then = vec![put(TileRef::Subject)];
        w
    }
}

/// A two-seat game of `rules` whose pile is `draws` (tile ids), in that order.
pub fn scripted_game(rules: &std::sync::Arc<crate::Rules>, draws: &[&str]) -> Game {
    let d = draws.iter().map(|t| rules.tile_index(t).unwrap()).collect();
    Game::scripted(rules.clone(), 2, d).unwrap()
}

/// Put a figure of type 0 on segment `seg` of the tile just placed (the follower phase).
pub fn meeple_on(g: &mut Game, seg: &str) {
    let tile = g.tiles().last().unwrap().tile;
    let feature = g.rules().feature_index(tile, seg).unwrap();
    let o = crate::FollowerOption {
        feature,
        follower: 0,
    };
    g.apply(crate::Action::Follower(o)).unwrap();
}

/// Play `g` to its end with a random agent seeded by `seed`, calling `each` after every move.
pub fn play_random(g: &mut Game, seed: u64, mut each: impl FnMut(&Game)) {
    let mut agent = RandomAgent::new(seed);
    while g.phase() != Phase::Over {
        if g.phase() == Phase::Place {
            let i = agent.choose_placement(g, g.placements());
            assert!(g.play_placement(i), "a listed placement is legal");
        } else {
            let c = agent.choose_follower(g, g.follower_options());
            assert!(g.play_follower(c), "a listed option is legal");
        }
        each(g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_has_72_tiles_10_pennants_6_cloisters() {
        // B-1: 72 tiles of 24 types (71 in the pile + the start copy).
        let r = base_ruleset();
        assert_eq!(r.tiles.len(), 24);
        assert_eq!(r.pile_size(), 71);
        let pennants: u32 = r
            .tiles
            .iter()
            .map(|t| t.count * t.features.iter().map(|f| f.pennants as u32).sum::<u32>())
            .sum::<u32>();
        assert_eq!(pennants, 10);
        let cloisters: u32 = r
            .tiles
            .iter()
            .map(|t| {
                t.count
                    * t.features
                        .iter()
                        .filter(|f| f.kind == FeatureKind::Cloister)
                        .count() as u32
            })
            .sum();
        assert_eq!(cloisters, 6);
        assert_eq!(r.start_tile, Some(3));
    }

    #[test]
    fn domino_has_inner_sides() {
        let t = tile(DOMINO).unwrap();
        assert_eq!(t.cell_count, 2);
        assert_eq!(t.features[0].open_sides, 2);
        // Rotation 1: cell 1 sits south of the anchor; the anchor's south side is inner.
        let r1 = &t.rotations[1];
        assert_eq!(r1.cells[1].offset, (0, 1));
        assert_eq!(r1.cells[0].outer & (1 << 2), 0);
        assert_eq!(r1.cells[0].sides[1], SideKind::City);
    }
}
