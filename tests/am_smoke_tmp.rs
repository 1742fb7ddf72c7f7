mod common;
use std::path::Path;
use std::sync::Arc;
use tegula_engine::{log, sim, AgentKind, Game, PileOrder, Rules};
use tegula_ruleset::*;

fn am() -> Arc<Rules> {
    let (rs, d) =
        tegula_model::variant::build_variant(&common::root().join("variants/abbey-mayor.toml"));
    let mut rs = rs.unwrap_or_else(|| panic!("{d:?}"));
    if rs.player_tiles.is_empty() {
        let abbey = rs.tiles.iter().position(|t| t.id == "abbey").unwrap();
        rs.tiles[abbey].count = 0;
        rs.player_tiles.push(PlayerTile {
            tile: abbey as u16,
            count: 1,
            site: TileSite::Hole,
            final_round: true,
        });
        let mut mayor = FollowerType::standard("mayor", "Mayor", 1, 0);
        mayor.strength = Strength::Pennants;
        mayor.sites = vec![Site::City];
        let mut barn = FollowerType::standard("barn", "Barn", 1, 0);
        barn.sites = vec![Site::Corner];
        barn.after_score = AfterScore::Stay;
        barn.corner = Some(CornerScoring {
            place_per_city: 3,
            join_per_city: 1,
            final_per_city: 4,
        });
        let mut wagon = FollowerType::standard("wagon", "Wagon", 1, 1);
        wagon.sites = vec![Site::Road, Site::City, Site::Cloister];
        wagon.after_score = AfterScore::Move(Adjacency::Neighbourhood);
        rs.followers.extend([mayor, barn, wagon]);
    }
    Arc::new(Rules::new(rs).unwrap())
}

#[test]
fn smoke() {
    let r = am();
    let mut kinds = std::collections::BTreeMap::new();
    for seed in 0..300 {
        let mut g = Game::new(
            r.clone(),
            2 + (seed % 4) as u8,
            PileOrder::Shuffled(seed),
            true,
        )
        .unwrap();
        let kindsv = [AgentKind::Random];
        let (_, seeds) = sim::game_seeds(seed, 0, g.players());
        let mut agents = sim::build_agents(&kindsv, &seeds);
        sim::play_out(&mut g, &mut agents);
        for e in g.events() {
            let key = match e {
                tegula_engine::Event::Score { rule, .. } => format!("score {rule}"),
                tegula_engine::Event::Follower {
                    follower,
                    moved,
                    corner,
                    ..
                } => format!(
                    "follower {follower} moved={moved} corner={}",
                    corner.is_some()
                ),
                tegula_engine::Event::Place { tile, .. } if tile == "abbey" => "abbey".into(),
                other => other.kind().to_string(),
            };
            *kinds.entry(key).or_insert(0) += 1;
        }
        let text = log::log_text(&g);
        log::replay(r.clone(), &text).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    println!("{kinds:#?}");
    let _ = Path::new(".");
}
