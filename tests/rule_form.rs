//! The one rule form in the data (docs/RULE-LANGUAGE.md, "The one rule form"): a variant using
//! every event, effect, seat selector and option compiles to the expected `When` values; `variant
//! explain` says each rule in the words docs/RULE-LANGUAGE.md shows; a bad rule is a located
//! diagnostic with exit 1.

mod common;

use common::{assert_exit, tegula};
use serde_json::Value;
use tegula_model::variant::build_variant;
use tegula_ruleset::{
    Act, Compare, Expr, FeatureKind, Names, Offer, Options, PieceKind, Quantity, RuleEvent,
    ScoredAt, Seat, StartCount, Test, TileRef, When, CHOSEN,
};

const EVERY: &str = "tests/fixtures/valid/rule-form-every-effect.toml";

fn count(q: Quantity) -> Expr {
    Expr::Count(q)
}

fn when(rule: &str, event: RuleEvent, test: Option<Test>, then: Vec<Act>) -> When {
    When {
        rule: rule.into(),
        event,
        test,
        then,
        offer: None,
        tile: None,
    }
}

/// What every `[[when]]` of the fixture is, by hand from its text: tags are sorted names
/// (cloth 0, grain 1, religious 2, wine 3), figures meeple 0 and abbot 1, token king 0,
/// counters gold 0 and tower 1, resources ingots 0 and tower 1.
fn expected() -> Vec<When> {
    let (wine, gold, ingots) = (3, 0, 0);
    let city = vec![FeatureKind::City];
    let gt = |a, b| Test::Cmp(Compare::Gt, Box::new(a), Box::new(b));
    let mut w = vec![
        when(
            "W-5",
            RuleEvent::FeatureCompleted {
                kinds: city.clone(),
            },
            Some(gt(count(Quantity::Tiles), count(Quantity::Record(0)))),
            vec![Act::Token {
                token: 0,
                to: Seat::Placer,
                record: count(Quantity::Tiles),
            }],
        ),
        when(
            "W-6",
            RuleEvent::GameEnd,
            None,
            vec![Act::Score {
                value: count(Quantity::Completed(FeatureKind::City)),
                to: Seat::Holder(0),
            }],
        ),
        when(
            "W-7",
            RuleEvent::TilePlaced { tag: Some(wine) },
            None,
            vec![Act::Counters {
                counter: gold,
                add: Expr::Int(1),
                on: TileRef::Subject,
            }],
        ),
    ];
    w[2].offer = Some(Offer {
        to: Seat::Actor,
        options: Options::NeighbourTile { diagonals: true },
        may_decline: false,
        uses_figure_step: false,
        then: vec![Act::Counters {
            counter: gold,
            add: Expr::Int(1),
            on: TileRef::Chosen,
        }],
        repeat: false,
        order: tegula_ruleset::SeatOrder::TurnOrder,
    });
    w.push(when(
        "W-10",
        RuleEvent::FeatureScored {
            kinds: vec![FeatureKind::Road, FeatureKind::City, FeatureKind::Cloister],
            at: ScoredAt::Game,
        },
        None,
        vec![Act::Take {
            counter: gold,
            into: ingots,
            to: Seat::Winners,
        }],
    ));
    w.push(when(
        "W-11",
        RuleEvent::GameEnd,
        None,
        vec![Act::Score {
            value: count(Quantity::Held(ingots.into())),
            to: Seat::Every,
        }],
    ));
    w.extend(offers());
    w.extend(rest(wine));
    w
}

/// The two figure-step offers (AB-4's withdrawal, LB-2's building).
fn offers() -> Vec<When> {
    let lt8 = Test::Cmp(
        Compare::Lt,
        Box::new(count(Quantity::Neighbours)),
        Box::new(Expr::Int(8)),
    );
    let abbot = Offer {
        to: Seat::Actor,
        options: Options::OwnFigure {
            figure: Some(1),
            figures: None,
            not_assigned: None,
            on: vec![FeatureKind::Cloister],
            test: Some(lt8),
            tops: false,
        },
        may_decline: true,
        uses_figure_step: true,
        then: vec![
            Act::Score {
                value: Expr::Add(
                    Box::new(Expr::Int(1)),
                    Box::new(count(Quantity::Neighbours)),
                ),
                to: Seat::Chooser,
            },
            Act::ReturnChosen,
        ],
        repeat: false,
        order: tegula_ruleset::SeatOrder::TurnOrder,
    };
    let building = Offer {
        to: Seat::Actor,
        options: Options::Kind {
            of: vec![PieceKind {
                resource: 1,
                counter: 1,
            }],
        },
        may_decline: true,
        uses_figure_step: true,
        then: vec![
            Act::Gain {
                resource: CHOSEN,
                amount: Expr::Int(1),
                to: Seat::Chooser,
                spend: true,
            },
            Act::Counters {
                counter: CHOSEN,
                add: Expr::Int(1),
                on: TileRef::Subject,
            },
        ],
        repeat: false,
        order: tegula_ruleset::SeatOrder::TurnOrder,
    };
    [("W-12", abbot), ("W-13", building)]
        .into_iter()
        .map(|(rule, o)| When {
            offer: Some(o),
            ..when(rule, RuleEvent::FigureStep, None, Vec::new())
        })
        .collect()
}

/// The gain, figure-placed, turn, final-scoring, game-over and payment rules, and the extension
/// test.
fn rest(wine: u32) -> Vec<When> {
    let city = vec![FeatureKind::City];
    let cmp = |op, a, b| Test::Cmp(op, Box::new(a), Box::new(b));
    vec![
        when(
            "W-14",
            RuleEvent::FeatureCompleted {
                kinds: city.clone(),
            },
            None,
            vec![Act::Gain {
                resource: 0,
                amount: count(Quantity::Tag(wine)),
                to: Seat::Placer,
                spend: false,
            }],
        ),
        when(
            "W-15",
            RuleEvent::FigurePlaced { figure: Some(1) },
            None,
            vec![Act::Score {
                value: Expr::Int(1),
                to: Seat::Owner,
            }],
        ),
        when(
            "W-16",
            RuleEvent::TurnStart,
            Some(cmp(Compare::Ge, count(Quantity::Held(0)), Expr::Int(10))),
            vec![Act::ExtraTurn],
        ),
        when(
            "W-17",
            RuleEvent::TurnEnd,
            None,
            vec![Act::Score {
                value: Expr::Int(0),
                to: Seat::Actor,
            }],
        ),
        when(
            "W-18",
            RuleEvent::FeatureScored {
                kinds: city,
                at: ScoredAt::End,
            },
            Some(Test::And(
                Box::new(cmp(
                    Compare::Gt,
                    count(Quantity::Touching(FeatureKind::Cloister, None)),
                    Expr::Int(0),
                )),
                Box::new(cmp(Compare::Gt, count(Quantity::Counters(0)), Expr::Int(0))),
            )),
            vec![Act::Score {
                value: count(Quantity::Touching(FeatureKind::Road, Some(wine))),
                to: Seat::Winners,
            }],
        ),
        when(
            "W-19",
            RuleEvent::GameOver,
            None,
            vec![Act::Score {
                value: Expr::Int(10),
                to: Seat::Most(0),
            }],
        ),
        when(
            "W-20",
            RuleEvent::TilePlaced { tag: None },
            Some(Test::And(
                Box::new(cmp(Compare::Gt, count(Quantity::Extends(1)), Expr::Int(0))),
                Box::new(cmp(
                    Compare::Eq,
                    count(Quantity::ExtendsOpen(0)),
                    Expr::Int(0),
                )),
            )),
            vec![Act::ExtraTurn],
        ),
        when(
            "W-21",
            RuleEvent::FeaturePaid {
                kinds: vec![FeatureKind::Field],
            },
            None,
            vec![Act::Score {
                value: count(Quantity::Cities),
                to: Seat::Has(1),
            }],
        ),
    ]
}

#[test]
fn every_effect_and_seat_compiles_to_its_when() {
    let (rs, diags) = build_variant(std::path::Path::new(EVERY));
    assert!(diags.is_empty(), "{diags:?}");
    let rs = rs.expect("ruleset");
    assert_eq!(rs.tags, ["cloth", "grain", "religious", "wine"]);
    let want = expected();
    assert_eq!(rs.when.len(), want.len());
    for (got, want) in rs.when.iter().zip(&want) {
        assert_eq!(got, want, "rule {}", want.rule);
    }
    let ids = |v: Vec<&str>| v.into_iter().map(String::from).collect::<Vec<_>>();
    let tokens: Vec<&str> = rs.tokens.iter().map(|t| t.id.as_str()).collect();
    let counters: Vec<&str> = rs.counters.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids(tokens), ["king"]);
    assert_eq!(ids(counters), ["gold", "tower"]);
    let tower = &rs.resources[1];
    let start = |players, count| StartCount { players, count };
    assert_eq!(tower.start, [start(2, 3), start(4, 2)]);
    assert_eq!((tower.start_for(3), tower.start_for(5)), (3, 2));
    // Sites by tag: the meeple never on `cloth`, the abbot only on `religious`.
    assert_eq!(rs.followers[0].never_tags, [0]);
    assert_eq!(rs.followers[1].only_tags, [2]);
    // The artefact round-trips through JSON.
    let back = tegula_ruleset::Ruleset::from_json(&rs.to_json()).unwrap();
    assert_eq!(back.when, rs.when);
}

/// `variant explain` prints each rule from `When::describe`, with its rule id and line; the
/// JSON has the lowered rule as its value.
#[test]
fn explain_says_every_rule_in_words() {
    let o = tegula(&["variant", "explain", EVERY, "--format", "json"]);
    assert_exit(&o, 0);
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rules = v["rules"].as_array().expect("rules");
    let line = |key: &str| rules.iter().find(|r| r["key"] == key).cloned();
    let king = line("when.W-5").expect("when.W-5");
    assert_eq!(king["rule"], "W-5");
    assert_eq!(king["origin"]["line"], 37);
    assert_eq!(
        king["text"],
        "When a city is completed during the game, if its tiles are more than token `king`'s \
         record: the placer of the tile takes token `king` with the record its tiles."
    );
    let abbot = line("when.W-12").expect("when.W-12");
    assert_eq!(
        abbot["text"],
        "At the figure step of each turn: the actor may choose a figure `abbot` of theirs on a \
         cloister where its surrounding tiles are fewer than 8 instead of placing a figure: the \
         chooser scores 1 plus 1 per surrounding tile, and the chosen figure returns to its \
         owner's supply."
    );
    assert!(line("token.king").is_some() && line("counter.gold").is_some());
    let (rs, _) = build_variant(std::path::Path::new(EVERY));
    let rs = rs.expect("ruleset");
    let tokens: Vec<String> = rs.tokens.iter().map(|t| t.id.clone()).collect();
    let counters: Vec<String> = rs.counters.iter().map(|t| t.id.clone()).collect();
    let resources: Vec<String> = rs.resources.iter().map(|t| t.id.clone()).collect();
    let figures: Vec<String> = rs.followers.iter().map(|t| t.id.clone()).collect();
    let neutrals: Vec<String> = rs.neutrals.iter().map(|t| t.id.clone()).collect();
    let names = Names {
        tags: &rs.tags,
        tokens: &tokens,
        counters: &counters,
        resources: &resources,
        figures: &figures,
        tiles: &[],
        tracks: &[],
        stacks: &[],
        neutrals: &neutrals,
    };
    for w in &rs.when {
        let same = rs.when.iter().filter(|o| o.rule == w.rule).count();
        assert_eq!(same, 1, "one rule per id in the fixture");
        let l = line(&format!("when.{}", w.rule)).expect("a line per rule");
        assert_eq!(l["text"], w.describe(&names));
        // The value texts print back to what parses to the same tree.
        if let Some(t) = &w.test {
            let text = t.source_named(&names);
            let kind = match &w.event {
                RuleEvent::FeatureScored { kinds, .. }
                | RuleEvent::FeatureCompleted { kinds }
                | RuleEvent::FeaturePaid { kinds }
                    if kinds.len() == 1 =>
                {
                    Some(kinds[0])
                }
                _ => None,
            };
            let rules = tegula_model::rules::Scope::default();
            let back = tegula_model::values::parse_rule_test(&text, kind, &names, &rules);
            assert_eq!(back.as_ref(), Ok(t), "{text}");
        }
    }
}

/// A bad rule exits 1 with its code, rule and position, in text and JSON.
#[test]
fn a_bad_rule_is_located_with_exit_1() {
    let f = "tests/fixtures/invalid/bad-when-winners-without-feature.toml";
    let o = tegula(&["validate", f, "--format", "json"]);
    assert_exit(&o, 1);
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let d = v["diagnostics"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["code"] == "bad-when"))
        .cloned()
        .unwrap_or_else(|| panic!("no bad-when in {v}"));
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(12), Some(29))
    );
    assert_eq!(d["rule"], "W-6");
    let o = tegula(&[
        "validate",
        "tests/fixtures/invalid/dangling-reference-when-token.toml",
    ]);
    assert_exit(&o, 1);
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("did you mean `king`?"), "{text}");
    assert!(
        text.contains("dangling-reference-when-token.toml:16:43"),
        "{text}"
    );
}

/// The ```toml blocks of docs/RULE-LANGUAGE.md, each with the line its text starts on.
fn doc_toml_blocks(doc: &str) -> Vec<(usize, &str)> {
    let mut blocks = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find("```toml\n") {
        let start = &rest[at + "```toml\n".len()..];
        let text = start.split("```").next().unwrap_or("");
        let line = doc[..doc.len() - start.len()].lines().count() + 1;
        blocks.push((line, text));
        rest = &start[text.len()..];
    }
    blocks
}

/// Every ```toml block of docs/RULE-LANGUAGE.md is valid TOML; the rules among them (the
/// worked examples of the one rule form) lower without a diagnostic, and each rule's sentence
/// quoted in the docs is what `When::describe` (and so `variant explain`) says: the docs and
/// the tool speak from one source.
#[test]
fn the_docs_examples_say_what_explain_says() {
    use tegula_model::rule_form::{lower, RawRuleForm, Scope};
    let doc = std::fs::read_to_string("docs/RULE-LANGUAGE.md").unwrap();
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let tags = ids(&[
        "garden", "gold", "siege", "wine", "volcano", "dragon", "portal", "princess", "tower",
    ]);
    let resources = ids(&["ingots", "building", "wine", "floors"]);
    let figures = ids(&["meeple", "abbot"]);
    let tiles = ids(&["stonehenge"]);
    let stacks = ids(&["tower"]);
    // The Princess & the Dragon's rules are the tile set's own (`[[rule]]`), not the registry's.
    let declared = ["PD-6"].map(|id| tegula_ruleset::Rule {
        id: id.to_string(),
        title: String::new(),
        statement: String::new(),
        source: String::new(),
    });
    let rules = tegula_model::rules::Scope::with(declared.to_vec());
    let scope = Scope {
        tags: &tags,
        resources: &resources,
        followers: &figures,
        tiles: &tiles,
        stacks: &stacks,
        rules: &rules,
        tracks: &[],
        pool: true,
    };
    let mut said = Vec::new();
    for (line, text) in doc_toml_blocks(&doc) {
        let form = RawRuleForm::parse(text)
            .unwrap_or_else(|e| panic!("docs/RULE-LANGUAGE.md:{line}: {e}\n{text}"));
        let src = tegula_model::Source::new("doc.toml", text.to_string());
        let mut diags = Vec::new();
        let l = lower(&[(&src, &form)], &scope, &mut diags);
        assert!(diags.is_empty(), "docs/RULE-LANGUAGE.md:{line}: {diags:?}");
        let tokens: Vec<String> = l.tokens.iter().map(|t| t.id.clone()).collect();
        let counters: Vec<String> = l.counters.iter().map(|t| t.id.clone()).collect();
        let tracks: Vec<String> = l.tracks.iter().map(|t| t.id.clone()).collect();
        let neutrals: Vec<String> = l.neutrals.iter().map(|t| t.id.clone()).collect();
        let names = Names {
            tags: &tags,
            tokens: &tokens,
            counters: &counters,
            resources: &resources,
            figures: &figures,
            tiles: &tiles,
            tracks: &tracks,
            stacks: &stacks,
            neutrals: &neutrals,
        };
        said.extend(
            l.when
                .iter()
                .map(|w| format!("> {} ({})", w.describe(&names), w.rule)),
        );
    }
    // TB-2's resource gain in the one form, W-11's ability in the one form, W-2's thresholds in
    // the one form, AB-4, KR-2..KR-4 (4), GM-2, GM-3, GM-5, LB-2, LB-3, CA-3, PD-2, PD-3 (2), PD-5,
    // PD-7, PD-9, PD-10, PD-11, PD-12, TO-2, TO-4, TO-7, TO-6.
    assert_eq!(said.len(), 27, "every worked rule");
    let missing: Vec<&String> = said.iter().filter(|s| !doc.contains(s.as_str())).collect();
    assert!(missing.is_empty(), "not in the docs:\n{}", said.join("\n"));
}

/// The pool's short form is the `[[when]]` the docs write out for it: the track and the rule
/// `variants/wonders-two.toml`'s `[pool]` lowers to (W-2, W-3, W-30) equal those the docs'
/// example (docs/RULE-LANGUAGE.md, "The open pool") lowers to.
#[test]
fn the_pools_short_form_lowers_to_the_docs_when() {
    use tegula_model::rule_form::{lower, RawRuleForm, Scope};
    let doc = std::fs::read_to_string("docs/RULE-LANGUAGE.md").unwrap();
    let (_, text) = doc_toml_blocks(&doc)
        .into_iter()
        .find(|(_, t)| t.contains("event = \"turn-finished\""))
        .expect("the docs write the pool's rule out");
    let (rs, diags) = build_variant(std::path::Path::new("variants/wonders-two.toml"));
    let rs = rs.unwrap_or_else(|| panic!("{diags:?}"));
    let figures: Vec<String> = rs.followers.iter().map(|f| f.id.clone()).collect();
    let rules = tegula_model::rules::Scope::default();
    let scope = Scope {
        tags: &rs.tags,
        resources: &[],
        followers: &figures,
        tiles: &[],
        stacks: &[],
        rules: &rules,
        tracks: &[],
        pool: true,
    };
    let form = RawRuleForm::parse(text).unwrap();
    let src = tegula_model::Source::new("doc.toml", text.to_string());
    let mut diags = Vec::new();
    let l = lower(&[(&src, &form)], &scope, &mut diags);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(l.tracks, rs.tracks);
    let lowered: Vec<_> = rs.when.iter().filter(|w| w.rule == "W-2").collect();
    assert_eq!(lowered, l.when.iter().collect::<Vec<_>>());
}

/// A line of TOML without its comment and surrounding blanks (a `#` inside a string stays).
fn without_comment(line: &str) -> &str {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return line[..i].trim(),
            _ => {}
        }
    }
    line.trim()
}

/// The docs' excerpts of shipped files are the files' own lines: a ```toml block of
/// docs/RULE-LANGUAGE.md whose first line names a file (`# variants/abbot.toml`) holds only
/// lines of that file (comments aside; a line with `…` is a shortening and is not compared).
#[test]
fn the_docs_excerpts_are_lines_of_the_shipped_files() {
    let doc = std::fs::read_to_string("docs/RULE-LANGUAGE.md").unwrap();
    let mut checked = 0;
    let mut bad = Vec::new();
    for (line, text) in doc_toml_blocks(&doc) {
        let Some(path) = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# "))
            .map(str::trim)
            .filter(|p| p.ends_with(".toml") && !p.contains(' '))
        else {
            continue;
        };
        let file = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("docs/RULE-LANGUAGE.md:{line}: {path}: {e}"));
        let lines: std::collections::HashSet<&str> = file.lines().map(without_comment).collect();
        for (n, l) in text.lines().enumerate().skip(1) {
            let l = without_comment(l);
            if !l.is_empty() && !l.contains('…') && !lines.contains(l) {
                bad.push(format!(
                    "docs/RULE-LANGUAGE.md:{}: not in {path}: {l}",
                    line + n
                ));
            }
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} excerpts found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `[append]` adds rules, tokens and counters to the inherited ones, after them.
#[test]
fn a_child_variant_appends_rules() {
    let (rs, diags) = build_variant(std::path::Path::new(
        "tests/fixtures/valid/rule-form-append.toml",
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let rs = rs.expect("ruleset");
    assert_eq!(rs.when.len(), expected().len() + 1);
    assert_eq!(rs.when.last().map(|w| w.rule.as_str()), Some("W-19"));
    let tokens: Vec<&str> = rs.tokens.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(tokens, ["king", "robber"]);
    assert_eq!(rs.counters.len(), 3);
    let last = rs.when.last().unwrap();
    assert!(matches!(last.then[0], Act::Token { token: 1, .. }));
}
