//! `tegula serve` answered request by request (no network, no browser): the guard (foreign
//! `Host`, cross-origin writes), path escapes, bounded and malformed bodies, and the game API
//! (a refused move, undo, a log loaded at a turn, the scenario export, the bound on games).

use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use tegula_serve::app::{router, App, MAX_BODY, MAX_GAMES};
use tegula_serve::catalog::{root, Catalog};

const HOST: &str = "127.0.0.1:4321";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn app() -> Router {
    let shipped = root(&repo().join("variants"), "").expect("variants/");
    router(Arc::new(App::new(Catalog::new(vec![shipped]), 4321, None)))
}

/// Send a request; answers the status and the body.
async fn send(app: &Router, req: Request<Body>) -> (StatusCode, String) {
    let res = app.clone().oneshot(req).await.expect("answer");
    let status = res.status();
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

fn get(uri: &str) -> Request<Body> {
    Request::get(uri)
        .header("host", HOST)
        .body(Body::empty())
        .unwrap()
}

fn post(uri: &str, body: &Value) -> Request<Body> {
    Request::post(uri)
        .header("host", HOST)
        .header("content-type", "application/json")
        .header("origin", format!("http://{HOST}"))
        .body(Body::from(body.to_string()))
        .unwrap()
}

async fn json_of(app: &Router, req: Request<Body>) -> Value {
    let (status, body) = send(app, req).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    serde_json::from_str(&body).expect("JSON answer")
}

async fn new_game(app: &Router, seats: &[&str], seed: u64) -> String {
    let v = json_of(
        app,
        post(
            "/api/games",
            &json!({"variant": "base", "seats": seats, "seed": seed}),
        ),
    )
    .await;
    v["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_foreign_host_is_refused() {
    let app = app();
    for host in [
        "evil.example",
        "evil.example:4321",
        "127.0.0.1:80",
        "127.0.0.1",
        "0.0.0.0:4321",
    ] {
        let req = Request::get("/api/variants")
            .header("host", host)
            .body(Body::empty())
            .unwrap();
        let (status, body) = send(&app, req).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}: {body}");
        assert!(body.contains("is not this server"), "{body}");
    }
    let req = Request::get("/").body(Body::empty()).unwrap();
    assert_eq!(
        send(&app, req).await.0,
        StatusCode::FORBIDDEN,
        "no Host at all"
    );
    for host in [HOST, "localhost:4321"] {
        let req = Request::get("/")
            .header("host", host)
            .body(Body::empty())
            .unwrap();
        assert_eq!(send(&app, req).await.0, StatusCode::OK, "{host}");
    }
}

#[tokio::test]
async fn cross_origin_writes_are_refused() {
    let app = app();
    let body = json!({"variant": "base", "seats": ["random", "random"]}).to_string();
    let with = |name: &str, value: &str| {
        Request::post("/api/games")
            .header("host", HOST)
            .header("content-type", "application/json")
            .header(name, value)
            .body(Body::from(body.clone()))
            .unwrap()
    };
    for (name, value) in [
        ("origin", "http://evil.example"),
        ("origin", "http://localhost:4321"),
        ("origin", "null"),
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-site", "same-site"),
    ] {
        let (status, msg) = send(&app, with(name, value)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{name}: {value}: {msg}");
    }
    let (status, msg) = send(&app, with("sec-fetch-site", "same-origin")).await;
    assert_eq!(status, StatusCode::OK, "{msg}");
    // A cross-origin read of the API is possible only with CORS headers, which are never sent.
    let (status, _) = send(&app, get("/api/variants")).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn paths_outside_the_roots_are_not_reached() {
    let app = app();
    for uri in [
        "/assets/..%2F..%2FCargo.toml",
        "/assets/../../Cargo.toml",
        "/../Cargo.toml",
        "/assets/%2e%2e/src/lib.rs",
        "/api/variant?key=..%2FCargo",
        "/api/variant?key=%2Fetc%2Fpasswd",
        "/api/variant?key=..%2Ftiles%2Fbase",
        "/api/variant?key=house%2F..%2F..%2Fvariants%2Fbase",
        "/etc/passwd",
    ] {
        let (status, body) = send(&app, get(uri)).await;
        assert!(status.is_client_error(), "{uri}: {status} {body}");
        assert!(!body.contains("[workspace]"), "{uri} read a file: {body}");
    }
    let bad = post(
        "/api/games",
        &json!({"variant": "../variants/base", "seats": ["random"]}),
    );
    assert_eq!(send(&app, bad).await.0, StatusCode::NOT_FOUND);
    let v = json_of(&app, get("/api/variant?key=house%2Ffarms-4")).await;
    assert!(
        v["file"]
            .as_str()
            .unwrap()
            .ends_with("variants/house/farms-4.toml"),
        "{v}"
    );
}

#[tokio::test]
async fn bodies_are_bounded_and_checked() {
    let app = app();
    let huge = json!({"log": "x".repeat(MAX_BODY + 1)});
    let (status, _) = send(&app, post("/api/games/load", &huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let malformed = Request::post("/api/games")
        .header("host", HOST)
        .header("content-type", "application/json")
        .body(Body::from("{\"variant\": \"base\", seats"))
        .unwrap();
    let (status, body) = send(&app, malformed).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.contains("\"error\""), "a message: {body}");
    let not_json = Request::post("/api/games")
        .header("host", HOST)
        .header("content-type", "text/plain")
        .body(Body::from("hello"))
        .unwrap();
    assert_eq!(
        send(&app, not_json).await.0,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    for (body, want) in [
        (
            json!({"variant": "base", "seats": ["human", "robot"]}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "base", "seats": []}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "base", "seats": ["mcts:999999999"]}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "base", "seats": ["random"], "seed": -1}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "base", "seats": ["random"], "seed": "1e3"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "base", "seats": vec!["random"; 9]}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"variant": "base", "seats": ["random"], "extra": 1}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "nope", "seats": ["random", "random"]}),
            StatusCode::NOT_FOUND,
        ),
        (json!([1, 2, 3]), StatusCode::BAD_REQUEST),
    ] {
        let (status, msg) = send(&app, post("/api/games", &body)).await;
        assert_eq!(status, want, "{body}: {msg}");
    }
    for body in [
        json!({"log": ""}),
        json!({"log": "{\"type\":\"setup\"}\nnot json"}),
        json!({"log": 5}),
    ] {
        let (status, msg) = send(&app, post("/api/games/load", &body)).await;
        assert!(status.is_client_error(), "{body}: {status} {msg}");
    }
    let (status, _) = send(
        &app,
        post("/api/games/nope/act", &json!({"action": "pass"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_move_is_checked_and_undone() {
    let app = app();
    let id = new_game(&app, &["human", "random"], 3).await;
    let before = json_of(&app, get(&format!("/api/games/{id}"))).await;
    assert_eq!(before["phase"], "placing");
    assert_eq!(before["human"], true);
    // A placement far from the board is refused with the engine's reason and rule.
    let tile = before["tiles"][0]["tile"].clone();
    let far = json!({"action": {"place": {"tile": tile, "x": 40, "y": 40, "rotation": 0}}});
    let (status, msg) = send(&app, post(&format!("/api/games/{id}/act"), &far)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{msg}");
    assert!(msg.contains("[B-"), "the rule is cited: {msg}");
    // An agent step is refused while a person decides.
    let (status, _) = send(&app, post(&format!("/api/games/{id}/step"), &json!({}))).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let place = before["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "place")
        .unwrap();
    json_of(
        &app,
        post(
            &format!("/api/games/{id}/act"),
            &json!({"action": place["action"]}),
        ),
    )
    .await;
    let after = json_of(&app, get(&format!("/api/games/{id}"))).await;
    assert_eq!(after["phase"], "figure");
    assert_eq!(after["can_undo"], true);
    let figures = after["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "figure")
        .count();
    assert!(figures > 0, "a meeple can go on the placed tile");
    json_of(&app, post(&format!("/api/games/{id}/undo"), &json!({}))).await;
    let undone = json_of(&app, get(&format!("/api/games/{id}"))).await;
    for k in ["phase", "actions", "board", "scores", "turn", "remaining"] {
        assert_eq!(undone[k], before[k], "{k} after undo");
    }
    assert_eq!(undone["can_undo"], false);
    let (status, _) = send(&app, post(&format!("/api/games/{id}/undo"), &json!({}))).await;
    assert_eq!(status, StatusCode::CONFLICT, "nothing left to undo");
}

/// Let the agents of game `id` play to the end through the API.
async fn play_out(app: &Router, id: &str) {
    for _ in 0..2000 {
        let (status, _) = send(app, post(&format!("/api/games/{id}/step"), &json!({}))).await;
        if status != StatusCode::OK {
            return;
        }
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn a_log_loads_at_a_turn_and_exports_a_scenario() {
    let app = app();
    let id = new_game(&app, &["random", "greedy"], 5).await;
    play_out(&app, &id).await;
    let (status, log) = send(&app, get(&format!("/api/games/{id}/log"))).await;
    assert_eq!(status, StatusCode::OK);
    let end = json_of(&app, get(&format!("/api/games/{id}"))).await;
    assert_eq!(end["phase"], "over");
    let (status, html) = send(&app, get(&format!("/api/games/{id}/replay"))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"),
        "{}",
        &html[..80]
    );
    // The whole log: the same final scores; at turn 10: the position after 10 tiles.
    let v = json_of(&app, post("/api/games/load", &json!({"log": log}))).await;
    let whole = json_of(
        &app,
        get(&format!("/api/games/{}", v["id"].as_str().unwrap())),
    )
    .await;
    assert_eq!(whole["scores"], end["scores"]);
    let v = json_of(
        &app,
        post(
            "/api/games/load",
            &json!({"log": log, "turn": 10, "seats": ["human", "random"]}),
        ),
    )
    .await;
    let gid = v["id"].as_str().unwrap();
    let at = json_of(&app, get(&format!("/api/games/{gid}"))).await;
    assert_eq!(at["turn"], 10);
    assert_eq!(at["phase"], "placing");
    assert_eq!(at["human"], true, "seat 0 places the 11th tile");
    let (status, msg) = send(
        &app,
        post("/api/games/load", &json!({"log": log, "turn": 500})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{msg}");
    let (status, msg) = send(
        &app,
        post("/api/games/load", &json!({"log": log, "seats": ["human"]})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{msg}");
    let corrupt = log.replacen("\"place\"", "\"plaice\"", 1);
    let (status, msg) = send(&app, post("/api/games/load", &json!({"log": corrupt}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{msg}");
    // The scenario of the position reads the log's first 10 turns.
    let x = json_of(&app, get(&format!("/api/games/{gid}/scenario"))).await;
    let text = x["scenario"].as_str().unwrap();
    assert!(
        text.contains("[setup]\nboard = { log = \"base-turn-10.jsonl\", turns = 10 }"),
        "{text}"
    );
    assert!(text.contains("players = 2"), "{text}");
    // The export names the variant as a scenario in a folder just below the data root does
    // (a scenario reads only inside its root): saved so, in the git-ignored `target/`, it checks.
    assert!(
        text.contains("variant = \"../variants/base.toml\""),
        "{text}"
    );
    let dir = repo()
        .join("target")
        .join(format!("tegula-serve-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = text.replace("\"../variants/base.toml\"", "\"../../variants/base.toml\"");
    std::fs::write(dir.join("s.toml"), scenario).unwrap();
    std::fs::write(
        dir.join(x["log_name"].as_str().unwrap()),
        x["log"].as_str().unwrap(),
    )
    .unwrap();
    let diags = tegula_scenario::validate_file(&dir.join("s.toml"));
    std::fs::remove_dir_all(&dir).ok();
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
}

#[tokio::test]
async fn games_are_bounded() {
    let app = app();
    let first = new_game(&app, &["random", "random"], 1).await;
    for s in 0..MAX_GAMES as u64 {
        new_game(&app, &["random", "random"], s).await;
    }
    let (status, msg) = send(&app, get(&format!("/api/games/{first}"))).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the oldest game makes room: {msg}"
    );
}

#[tokio::test]
async fn rules_and_variants_are_described() {
    let app = app();
    let v = json_of(&app, get("/api/variants")).await;
    let keys: Vec<&str> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    for k in ["base", "abbey-mayor", "wonders", "house/farms-4"] {
        assert!(keys.contains(&k), "{k} in {keys:?}");
    }
    let base = json_of(&app, get("/api/variant?key=base")).await;
    assert_eq!(
        (base["min_players"].as_u64(), base["max_players"].as_u64()),
        (Some(2), Some(5))
    );
    assert!(base["explain"]["rules"]
        .as_array()
        .is_some_and(|r| !r.is_empty()));
    let r = json_of(&app, get("/api/rule?id=B-4")).await;
    assert_eq!(r["id"], "B-4");
    assert!(!r["statement"].as_str().unwrap().is_empty());
    let (status, _) = send(&app, get("/api/rule?id=NOPE-1")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = send(&app, get("/api/watch")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "author mode is off");
}

#[tokio::test]
async fn a_data_root_adds_its_variants() {
    let shipped = root(&repo().join("variants"), "").unwrap();
    let fixtures = root(&repo().join("tests/fixtures/valid"), "valid").unwrap();
    let app = router(Arc::new(App::new(
        Catalog::new(vec![shipped, fixtures]),
        4321,
        None,
    )));
    let v = json_of(&app, get("/api/variants")).await;
    let keys: Vec<&str> = (v["variants"].as_array().unwrap().iter())
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    assert!(
        keys.contains(&"base") && keys.contains(&"valid/authoring-variant"),
        "{keys:?}"
    );
    assert!(
        !keys.iter().any(|k| k.ends_with("many-tiles")),
        "tile sets are not variants"
    );
    let body =
        json!({"variant": "valid/authoring-variant", "seats": ["random", "random"], "seed": 1});
    let id = json_of(&app, post("/api/games", &body)).await;
    let state = json_of(
        &app,
        get(&format!("/api/games/{}", id["id"].as_str().unwrap())),
    )
    .await;
    assert_eq!(state["variant"], "valid/authoring-variant");
}

/// Every shipped variant, seat 0 a person choosing among the listed actions (a fixed
/// pseudo-random pick), seat 1 `random`, for 40 decisions: every listed action is accepted,
/// every state is drawn, nothing is refused that the page offered.
#[tokio::test]
async fn every_variant_plays_by_the_listed_actions() {
    let app = app();
    let v = json_of(&app, get("/api/variants")).await;
    let mut pick: u64 = 7;
    for entry in v["variants"].as_array().unwrap() {
        let key = entry["key"].as_str().unwrap();
        let body = json!({"variant": key, "seats": ["human", "random"], "seed": 3});
        let id = json_of(&app, post("/api/games", &body)).await;
        let id = id["id"].as_str().unwrap();
        for _ in 0..40 {
            let s = json_of(&app, get(&format!("/api/games/{id}"))).await;
            if s["phase"] == "over" {
                break;
            }
            if s["human"] == false {
                json_of(&app, post(&format!("/api/games/{id}/step"), &json!({}))).await;
                continue;
            }
            let actions = s["actions"].as_array().unwrap();
            assert!(!actions.is_empty(), "{key}: a person's turn offers nothing");
            pick = pick
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = &actions[(pick >> 33) as usize % actions.len()];
            assert!(!a["words"].as_str().unwrap().is_empty(), "{key}: {a}");
            if a["kind"] == "figure" {
                assert!(
                    a["spot"].is_array(),
                    "{key}: a figure option without its spot: {a}"
                );
            }
            let (status, msg) = send(
                &app,
                post(
                    &format!("/api/games/{id}/act"),
                    &json!({"action": a["action"]}),
                ),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{key}: {a}: {msg}");
        }
    }
}
