//! The value language: parsing, printing back, evaluation and the type checks.

use tegula_ruleset::{Counts, Expr, FeatureKind, Quantity, ScoringNumbers};

use super::parse;

/// A feature given by its counts.
struct Fixed {
    tiles: u32,
    pennants: u32,
    neighbours: u32,
    cities: u32,
    /// Segments carrying tag 0 (`inn`) and tag 1 (`cathedral`).
    tagged: [u32; 2],
}

impl Counts for Fixed {
    fn count(&mut self, q: Quantity) -> u32 {
        match q {
            Quantity::Tiles => self.tiles,
            Quantity::Pennants => self.pennants,
            Quantity::Neighbours => self.neighbours,
            Quantity::Cities => self.cities,
            // Of the two cities, those with the tag: one per segment tagged (enough here).
            Quantity::CitiesWith(t) => self.tagged[t as usize].min(self.cities),
            Quantity::Tag(t) => self.tagged[t as usize],
            q => panic!("{q:?} is not a feature's count"),
        }
    }
}

fn tags() -> Vec<String> {
    vec!["inn".into(), "cathedral".into()]
}

fn feature(tiles: u32, pennants: u32, tagged: [u32; 2]) -> Fixed {
    Fixed {
        tiles,
        pennants,
        neighbours: 5,
        cities: 2,
        tagged,
    }
}

fn value(text: &str, kind: FeatureKind, f: &mut Fixed) -> u32 {
    parse(text, kind, &tags())
        .unwrap_or_else(|e| panic!("{text}: {e:?}"))
        .eval(f)
}

#[test]
fn the_rules_to_come_evaluate_as_their_text_says() {
    use FeatureKind::{City, Cloister, Field, Road};
    // IC-3: a road with an inn, 2 per tile when completed, 0 when not.
    let inn_road = "if any(inn) then 2 * tiles else tiles";
    assert_eq!(value(inn_road, Road, &mut feature(4, 0, [1, 0])), 8);
    assert_eq!(value(inn_road, Road, &mut feature(4, 0, [0, 0])), 4);
    let inn_left = "if any(inn) then 0 else tiles";
    assert_eq!(value(inn_left, Road, &mut feature(4, 0, [2, 0])), 0);
    // IC-4: a cathedral city, 3 per tile and pennant when completed.
    let cathedral = "if any(cathedral) then 3 * tiles + 3 * pennants else 2 * tiles + 2 * pennants";
    assert_eq!(value(cathedral, City, &mut feature(5, 2, [0, 1])), 21);
    assert_eq!(value(cathedral, City, &mut feature(5, 2, [0, 0])), 14);
    // The legacy 2-tile city, precedence and saturation at 0.
    let small = "if tiles == 2 then 2 else 2 * tiles + 2 * pennants";
    assert_eq!(value(small, City, &mut feature(2, 1, [0, 0])), 2);
    assert_eq!(value(small, City, &mut feature(3, 1, [0, 0])), 8);
    assert_eq!(value("1 + 2 * 3", Road, &mut feature(0, 0, [0, 0])), 7);
    assert_eq!(value("(1 + 2) * 3", Road, &mut feature(0, 0, [0, 0])), 9);
    assert_eq!(value("tiles - 10", Road, &mut feature(3, 0, [0, 0])), 0);
    assert_eq!(value("10 - 3 - 2", Road, &mut feature(3, 0, [0, 0])), 5);
    assert_eq!(
        value("1 + neighbours", Cloister, &mut feature(1, 0, [0, 0])),
        6
    );
    assert_eq!(value("4 * cities", Field, &mut feature(9, 0, [0, 0])), 8);
    assert_eq!(value("count(inn) * 2", Road, &mut feature(3, 0, [3, 0])), 6);
    let logic = "if not any(inn) and (tiles >= 3 or pennants > 0) then 1 else 0";
    assert_eq!(value(logic, City, &mut feature(3, 0, [0, 0])), 1);
    assert_eq!(value(logic, City, &mut feature(2, 0, [0, 0])), 0);
    assert_eq!(value(logic, City, &mut feature(3, 0, [1, 0])), 0);
    assert_eq!(
        value(
            "if (tiles) + 1 != 3 then 1 else 0",
            City,
            &mut feature(2, 0, [0, 0])
        ),
        0
    );
}

#[test]
fn the_source_form_parses_back_to_the_same_tree() {
    let t = tags();
    for text in [
        "if any(inn) then 2 * tiles else tiles",
        "(if tiles == 2 then 1 else 2) * tiles + 2 * pennants",
        "10 - (3 - 2)",
        "2 * (tiles + pennants)",
        "if not (any(inn) or any(cathedral)) and tiles < 3 then 0 else count(inn)",
        "if tiles > 1 then if pennants >= 1 then 1 else 2 else 3",
    ] {
        let e = parse(text, FeatureKind::City, &t).unwrap();
        assert_eq!(e.source(&t), text, "printed back");
        assert_eq!(parse(&e.source(&t), FeatureKind::City, &t).unwrap(), e);
    }
}

#[test]
fn the_scoring_numbers_become_the_base_expressions() {
    let t = tags();
    let v = ScoringNumbers::default().values();
    let src: Vec<String> = v.entries().iter().map(|(_, _, e)| e.source(&t)).collect();
    assert_eq!(
        src,
        [
            "1 * tiles",
            "1 * tiles",
            "2 * tiles + 2 * pennants",
            "1 * tiles + 1 * pennants",
            "9",
            "1 + 1 * neighbours",
            "3 * cities",
        ]
    );
    let legacy = ScoringNumbers {
        small_city_per_tile: Some(1),
        ..ScoringNumbers::default()
    };
    let e = legacy.values().city.complete;
    assert_eq!(
        e.source(&t),
        "(if tiles == 2 then 1 else 2) * tiles + 2 * pennants"
    );
    assert_eq!(e.eval(&mut feature(2, 0, [0, 0])), 2);
    assert_eq!(e.eval(&mut feature(2, 1, [0, 0])), 4);
    assert_eq!(e.eval(&mut feature(3, 0, [0, 0])), 6);
    assert_eq!(
        e.words(&t),
        "(if its tiles are 2: 1, otherwise 2) per tile plus 2 per pennant"
    );
}

#[test]
fn problems_are_located_inside_the_text() {
    let t = tags();
    let at = |text: &str, kind| {
        let e = parse(text, kind, &t).unwrap_err();
        (e.at, e.message)
    };
    let (r, m) = at("2 * pennants", FeatureKind::Road);
    assert_eq!((r, m.contains("only on cities")), (4..12, true));
    let (r, m) = at("1 + neighbours", FeatureKind::City);
    assert_eq!((r, m.contains("only on cloisters")), (4..14, true));
    let (r, m) = at("cities", FeatureKind::Cloister);
    assert_eq!((r, m.contains("only on fields")), (0..6, true));
    let (r, m) = at("if any(well) then 1 else 0", FeatureKind::Road);
    assert_eq!((r, m.contains("unknown tag `well`")), (7..11, true));
    let (r, _) = at("2 * * tiles", FeatureKind::Road);
    assert_eq!(r, 4..5);
    let (r, m) = at("if tiles then 1 else 0", FeatureKind::Road);
    assert_eq!((r, m.contains("comparison")), (9..13, true));
    let (r, m) = at("if tiles == 2 then 1", FeatureKind::Road);
    assert_eq!((r, m.contains("else")), (20..20, true));
    let (r, m) = at("2 ^ tiles", FeatureKind::Road);
    assert_eq!((r, m.contains("`^`")), (2..3, true));
    let (r, m) = at("1001 * tiles", FeatureKind::Road);
    assert_eq!((r, m.contains("at most 1000")), (0..4, true));
    let (r, _) = at("tiles tiles", FeatureKind::Road);
    assert_eq!(r, 6..11);
    let (r, m) = at("count()", FeatureKind::Road);
    assert_eq!((r, m.contains("tag name")), (6..6, true));
    assert!(parse("99999999999999999999999 * tiles", FeatureKind::Road, &t).is_err());
}

#[test]
fn arithmetic_saturates_instead_of_wrapping() {
    let t = tags();
    let e = parse("1000 * 1000 * 1000 * 1000 * tiles", FeatureKind::Road, &t).unwrap();
    assert_eq!(e.eval(&mut feature(1000, 0, [0, 0])), u32::MAX);
    let e: Expr = parse("0 - 1000", FeatureKind::Road, &t).unwrap();
    assert_eq!(e.eval(&mut feature(1, 0, [0, 0])), 0);
}

#[test]
fn deep_values_are_refused_before_they_recurse_or_reach_the_artefact() {
    let t = tags();
    // Parentheses: stopped while parsing, at the parenthesis one level too deep.
    let deep = format!("{}1{}", "(".repeat(400), ")".repeat(400));
    let e = parse(&deep, FeatureKind::Road, &t).unwrap_err();
    assert!(e.message.contains("deeper than 32"), "{e:?}");
    assert_eq!(e.at, 32..33);
    // A long chain nests as deep as it is long: refused over the whole text.
    let chain = vec!["1"; 40].join(" + ");
    let e = parse(&chain, FeatureKind::Road, &t).unwrap_err();
    assert!(e.message.contains("40 levels deep"), "{e:?}");
    let fine = vec!["1"; 31].join(" + ");
    assert_eq!(
        parse(&fine, FeatureKind::Road, &t)
            .unwrap()
            .eval(&mut feature(0, 0, [0, 0])),
        31
    );
    let nots = format!("if {}any(inn) then 1 else 0", "not ".repeat(300));
    assert!(parse(&nots, FeatureKind::Road, &t).is_err());
}

/// The rule a value cites: that of the branch taken, the innermost one when branches nest, and
/// none when the branch taken cites nothing (the engine then cites B-4 / B-6).
#[test]
fn a_branch_cites_its_rule() {
    let t = tags();
    let text = "if any(inn) then [IC-3] 2 * tiles else tiles";
    let e = parse(text, FeatureKind::Road, &t).unwrap();
    assert_eq!(e.eval_cited(&mut feature(4, 0, [1, 0])), (8, Some("IC-3")));
    assert_eq!(e.eval_cited(&mut feature(4, 0, [0, 0])), (4, None));
    assert_eq!(e.eval(&mut feature(4, 0, [2, 0])), 8);
    let nested = "[B-4] if any(inn) then [IC-3] 0 else tiles";
    let e = parse(nested, FeatureKind::Road, &t).unwrap();
    assert_eq!(e.eval_cited(&mut feature(4, 0, [1, 0])), (0, Some("IC-3")));
    assert_eq!(e.eval_cited(&mut feature(4, 0, [0, 0])), (4, Some("B-4")));
    for text in [text, nested] {
        let e = parse(text, FeatureKind::Road, &t).unwrap();
        assert_eq!(e.source(&t), text, "printed back");
    }
    let words = parse(text, FeatureKind::Road, &t).unwrap().words(&t);
    assert_eq!(
        words,
        "if it has a segment tagged `inn`: 2 per tile (IC-3), otherwise 1 per tile"
    );
}

/// A cited rule must exist, needs its `]`, and stands only at the start of a value or branch.
#[test]
fn a_cite_out_of_place_or_unknown_is_located() {
    let t = tags();
    let e = parse(
        "if any(inn) then [IC-33] 0 else tiles",
        FeatureKind::Road,
        &t,
    )
    .unwrap_err();
    assert_eq!(e.at, 17..24);
    assert!(e.message.contains("unknown rule `IC-33`"), "{}", e.message);
    assert!(e.message.contains("did you mean"), "{}", e.message);
    let e = parse("[IC-3 2 * tiles", FeatureKind::Road, &t).unwrap_err();
    assert_eq!(e.at, 0..1);
    assert!(e.message.contains("needs its `]`"), "{}", e.message);
    let e = parse("2 + [IC-3] tiles", FeatureKind::Road, &t).unwrap_err();
    assert_eq!(e.at, 4..10);
    assert!(e.message.contains("only at the start"), "{}", e.message);
    let e = parse("[IC-3] [IC-4] tiles", FeatureKind::Road, &t).unwrap_err();
    assert_eq!(e.at, 7..13);
}

/// `cities(TAG)`: the completed cities a field borders that carry the tag; a branch on it cites
/// a rule for the field scores that counted such a city (IC-5). Only fields have it, the tag
/// must exist, and it prints back.
#[test]
fn cities_with_a_tag_count_on_fields_and_cite_their_branch() {
    let t = tags();
    let text = "if cities(cathedral) > 0 then [IC-5] 3 * cities else 3 * cities";
    let e = parse(text, FeatureKind::Field, &t).unwrap();
    // `Fixed` borders 2 completed cities; one of them is tagged when a segment count says so.
    assert_eq!(e.eval_cited(&mut feature(9, 0, [0, 1])), (6, Some("IC-5")));
    assert_eq!(e.eval_cited(&mut feature(9, 0, [0, 0])), (6, None));
    assert_eq!(e.source(&t), text, "printed back");
    assert_eq!(
        parse("cities(inn)", FeatureKind::Field, &t)
            .unwrap()
            .words(&t),
        "1 per completed city with `inn` it borders"
    );
    let e = parse("cities(cathedral)", FeatureKind::City, &t).unwrap_err();
    assert!(e.message.contains("only on fields"), "{}", e.message);
    let e = parse("cities(well)", FeatureKind::Field, &t).unwrap_err();
    assert_eq!(e.at, 7..11);
    assert!(e.message.contains("unknown tag `well`"), "{}", e.message);
}

/// A product of counts is worded as powers (issue 35): `tiles^6` written as a product was "its
/// tiles times its tiles per tile per tile per tile per tile".
#[test]
fn products_of_counts_are_worded_as_powers() {
    let t = tags();
    let words = |text: &str| parse(text, FeatureKind::City, &t).unwrap().words(&t);
    assert_eq!(
        words("tiles * tiles * tiles * tiles * tiles * tiles"),
        "its tiles to the power of 6"
    );
    assert_eq!(words("tiles * tiles"), "its tiles squared");
    assert_eq!(
        words("2 * tiles * pennants * tiles"),
        "2 times its tiles squared times its pennants"
    );
    assert_eq!(words("tiles * pennants"), "its tiles times its pennants");
    assert_eq!(words("3 * tiles"), "3 per tile");
    assert_eq!(words("(tiles + 1) * tiles"), "(1 per tile plus 1) per tile");
}

/// The rule form's words: names resolved (with "did you mean"), printed back by name, and
/// refused in a feature's value with where they may be used.
#[test]
fn rule_form_words_parse_print_back_and_stay_out_of_feature_values() {
    use tegula_ruleset::Names;
    let t = tags();
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (tokens, counters, resources) = (ids(&["king"]), ids(&["gold"]), ids(&["ingots"]));
    let names = Names {
        tags: &t,
        tokens: &tokens,
        counters: &counters,
        resources: &resources,
        figures: &[],
        tiles: &[],
        tracks: &[],
        stacks: &[],
        neutrals: &[],
    };
    let rules = crate::rules::Scope::default();
    let text = "record(king) + counters(gold) * held(ingots) + completed(city) \
                + touching(road) + touching(cloister, inn)";
    let e = super::parse_rule_value(text, None, &names, &rules).unwrap();
    let printed = e.source_named(&names);
    assert_eq!(
        printed,
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    assert_eq!(
        super::parse_rule_value(&printed, None, &names, &rules),
        Ok(e.clone())
    );
    // Without the names (a feature value's printing), indices show: the old output is unchanged.
    assert!(e
        .source(&t)
        .starts_with("record(#0) + counters(#0) * held(#0)"));
    let t2 = super::parse_rule_test(
        "tiles > record(king) and not any(inn)",
        Some(FeatureKind::City),
        &names,
        &rules,
    );
    assert!(t2.is_ok(), "{t2:?}");
    let err = super::parse_rule_value("record(kng)", None, &names, &rules).unwrap_err();
    assert_eq!(err.at, 7..10);
    assert!(
        err.message.contains("did you mean `king`?"),
        "{}",
        err.message
    );
    let err = super::parse_rule_value("touching(city, wel)", None, &names, &rules).unwrap_err();
    assert_eq!(err.at, 15..18);
    let err = super::parse_rule_value("completed(citty)", None, &names, &rules).unwrap_err();
    assert!(
        err.message.contains("did you mean `city`?"),
        "{}",
        err.message
    );
    // A kind the rule names still types the feature counts.
    let err = super::parse_rule_value("pennants", Some(FeatureKind::Road), &names, &rules);
    assert!(err.unwrap_err().message.contains("only on cities"));
    let err = parse("2 * tiles + held(ingots)", FeatureKind::City, &t).unwrap_err();
    assert_eq!(err.at, 12..24);
    assert!(
        err.message
            .contains("only in the values and tests of a `[[when]]`"),
        "{}",
        err.message
    );
}

/// Broken rule-form words are errors inside the text, never a panic.
#[test]
fn broken_rule_form_words_are_located_errors() {
    use tegula_ruleset::Names;
    let t = tags();
    let king = vec!["king".to_string()];
    let names = Names {
        tags: &t,
        tokens: &king,
        ..Names::default()
    };
    let rules = crate::rules::Scope::default();
    for text in [
        "record(",
        "record()",
        "record(king",
        "touching(,)",
        "touching(city,)",
        "touching(, inn)",
        "touching(city, inn, inn)",
        "completed()",
        "held(ingots)",
        "counters(gold)",
        "record(king)(",
        "touching(city, ünn)",
        "record(kïng)",
    ] {
        let e = super::parse_rule_value(text, None, &names, &rules).unwrap_err();
        assert!(
            e.at.end <= text.len() && e.at.start <= e.at.end,
            "{text}: {e:?}"
        );
        assert!(
            text.get(e.at.clone()).is_some(),
            "{text}: {e:?} not on a char boundary"
        );
    }
}

/// The board-wide words (what `[[ability]]` lowers to): parsed, printed back the same, located
/// errors for a bad argument, and refused in a feature's value.
#[test]
fn board_words_parse_print_back_and_stay_out_of_feature_values() {
    use tegula_ruleset::{Names, Owner, State};
    let t = tags();
    let names = Names::tags(&t);
    let rules = crate::rules::Scope::default();
    let text = "owner_acts + placed_this_turn + owner_figure + occupants + owner_figures \
                + figures(others, city, incomplete) + figures(own, any, any) \
                + features(road, 5, any) + features(city, 1, complete, inn) + lines(7) \
                + players + game_tiles + near + near(inn)";
    let e = super::parse_rule_value(text, None, &names, &rules).unwrap();
    assert_eq!(
        e.source_named(&names),
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    let q = super::parse_rule_value("figures(anyone, field, complete)", None, &names, &rules);
    let want = Quantity::Figures {
        whose: Owner::Anyone,
        kind: Some(FeatureKind::Field),
        state: State::Complete,
    };
    assert_eq!(q, Ok(Expr::Count(want)));
    let test = "owner_acts > 0 and not placed_this_turn > 0 and near(inn) > 0";
    assert!(super::parse_rule_test(test, None, &names, &rules).is_ok());
    // Bad arguments: located at the argument.
    let err = super::parse_rule_value("figures(mine, city, any)", None, &names, &rules);
    assert_eq!(err.unwrap_err().at, 8..12);
    let err = super::parse_rule_value("features(road, five, any)", None, &names, &rules);
    assert_eq!(err.unwrap_err().at, 15..19);
    let err = super::parse_rule_value("features(road, 5, done)", None, &names, &rules);
    assert_eq!(err.unwrap_err().at, 18..22);
    let err = super::parse_rule_value("near(inns)", None, &names, &rules).unwrap_err();
    assert!(
        err.message.contains("did you mean `inn`?"),
        "{}",
        err.message
    );
    let err = super::parse_rule_value("figures(own, city)", None, &names, &rules).unwrap_err();
    assert!(err.message.contains("three arguments"), "{}", err.message);
    // Never in a feature's value.
    for word in ["owner_acts", "players", "lines(7)", "near(inn)"] {
        let err = parse(&format!("2 * {word}"), FeatureKind::City, &t).unwrap_err();
        assert_eq!(err.at.start, 4, "{word}");
        assert!(
            err.message.contains("`[[when]]`"),
            "{word}: {}",
            err.message
        );
    }
}
