//! The JSON API the page calls: variants, games (new, loaded from a log), the state of a game,
//! decisions, agent steps, undo, the log, a scenario of the position, rules, author mode.

use std::sync::{Arc, Mutex, MutexGuard};

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tegula_engine::Action;

use crate::app::{ApiError, App, Body};
use crate::catalog::LoadError;
use crate::session::{Seat, Session};
use crate::{export, view};

type Shared = State<Arc<App>>;

/// Answer for a path no route knows.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!("nothing at `{}`", uri.path()))
}

/// `GET /api/variants`: the playable variant files, by key.
pub async fn variants(State(app): Shared) -> Json<Value> {
    let entries = app.catalog.entries();
    let watched = app.watch.as_ref().map(|w| w.dir.display().to_string());
    Json(json!({ "variants": entries, "watch": watched }))
}

/// A `?key=` query.
#[derive(Deserialize)]
pub struct KeyQuery {
    key: String,
}

/// The diagnostics of a variant that cannot be played, as a 422 answer.
fn load_error(e: LoadError) -> ApiError {
    match e {
        LoadError::Unknown(_) => ApiError::not_found(e.to_string()),
        LoadError::Invalid(ref diags) => {
            let lines: Vec<String> = diags
                .iter()
                .filter(|d| d.is_error())
                .take(20)
                .map(|d| format!("{}:{}: {}", d.at.file.display(), d.at.line, d.message))
                .collect();
            ApiError(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("{e}:\n{}", lines.join("\n")),
            )
        }
        LoadError::Rules(_) => ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
    }
}

/// `GET /api/variant?key=K`: name, player range, figures and `variant explain`'s rules.
pub async fn variant(
    State(app): Shared,
    Query(q): Query<KeyQuery>,
) -> Result<Json<Value>, ApiError> {
    let app2 = app.clone();
    let key = q.key.clone();
    let (entry, loaded, explained) = blocking(move || {
        let (entry, loaded) = app2.catalog.load(&key).map_err(load_error)?;
        let (explained, _) = tegula_model::explain::explain(&entry.path);
        Ok((entry, loaded, explained))
    })
    .await?;
    let rs = loaded.rules.ruleset();
    Ok(Json(json!({
        "key": entry.key,
        "file": entry.file,
        "id": rs.id,
        "name": rs.name,
        "min_players": rs.min_players,
        "max_players": rs.max_players,
        "figures": rs.followers.iter().map(|f| json!({"name": f.name, "count": f.count})).collect::<Vec<_>>(),
        "explain": explained,
    })))
}

/// A `?id=` (and optional `game=`) query.
#[derive(Deserialize)]
pub struct RuleQuery {
    id: String,
    game: Option<String>,
}

/// `GET /api/rule?id=B-4[&game=G]`: a rule of the registry or declared by the game's variant.
pub async fn rule(State(app): Shared, Query(q): Query<RuleQuery>) -> Result<Json<Value>, ApiError> {
    if let Some(r) = tegula_model::rules::find(&q.id) {
        return Ok(Json(json!(r)));
    }
    if let Some(g) = &q.game {
        let loaded = in_game(&app, g, |s| Ok(s.loaded.clone())).await?;
        if let Some(r) = loaded.rules.ruleset().rules.iter().find(|r| r.id == q.id) {
            return Ok(Json(json!(r)));
        }
    }
    Err(ApiError::not_found(format!(
        "`{}` is not a rule of the registry or of the game's variant",
        q.id
    )))
}

/// `POST /api/games` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    variant: String,
    seats: Vec<String>,
    /// A number, or a string of digits (a page's numbers lose digits past 2^53).
    #[serde(default)]
    seed: Value,
}

/// The seed of a new game: absent (0), a number, or a string of digits.
fn parse_seed(v: &Value) -> Result<u64, ApiError> {
    let bad = || {
        ApiError::bad(format!(
            "seed {v}: give a whole number from 0 to {}",
            u64::MAX
        ))
    };
    match v {
        Value::Null => Ok(0),
        Value::Number(n) => n.as_u64().ok_or_else(bad),
        Value::String(s) => s.trim().parse().map_err(|_| bad()),
        _ => Err(bad()),
    }
}

/// Parse seat names.
fn parse_seats(names: &[String]) -> Result<Vec<Seat>, ApiError> {
    if names.is_empty() || names.len() > usize::from(u8::MAX) {
        return Err(ApiError::bad(
            "give one seat per player (human, random, greedy, mcts:N)",
        ));
    }
    names
        .iter()
        .map(|n| Seat::parse(n).map_err(ApiError::bad))
        .collect()
}

/// `POST /api/games`: set up a game; answers its id.
pub async fn new_game(
    State(app): Shared,
    Body(req): Body<NewGame>,
) -> Result<Json<Value>, ApiError> {
    let seats = parse_seats(&req.seats)?;
    let seed = parse_seed(&req.seed)?;
    let app2 = app.clone();
    let key = req.variant.clone();
    let (entry, loaded) = blocking(move || app2.catalog.load(&key).map_err(load_error)).await?;
    let session = Session::new(&entry.key, loaded, seats, seed)
        .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    Ok(Json(json!({ "id": app.add(session)? })))
}

/// `POST /api/games/load` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadGame {
    /// The log's text.
    log: String,
    /// The variant's key (default: the variant the log's first line names).
    variant: Option<String>,
    /// Go on from the start of this turn (default: where the log ends).
    turn: Option<u32>,
    /// Who sits at each seat from there on (default: people at every seat).
    seats: Option<Vec<String>>,
}

/// The catalog key for the variant id a log names: the key itself, or a key ending in `/id`.
fn key_for_id(app: &App, id: &str) -> Option<String> {
    let entries = app.catalog.entries();
    let hit = entries.iter().find(|e| e.key == id);
    let hit = hit.or_else(|| entries.iter().find(|e| e.key.ends_with(&format!("/{id}"))));
    hit.map(|e| e.key.clone())
}

/// `POST /api/games/load`: a game from a log, to go on from any turn.
pub async fn load_game(
    State(app): Shared,
    Body(req): Body<LoadGame>,
) -> Result<Json<Value>, ApiError> {
    let first = req.log.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let setup: Value = serde_json::from_str(first)
        .map_err(|e| ApiError::bad(format!("line 1 of the log is not JSON: {e}")))?;
    let key = match &req.variant {
        Some(k) => k.clone(),
        None => {
            let id = setup["variant"].as_str().unwrap_or("");
            key_for_id(&app, id).ok_or_else(|| {
                ApiError::not_found(format!(
                    "the log's variant `{id}` is not in the server's data roots"
                ))
            })?
        }
    };
    let players = setup["players"].as_u64().unwrap_or(0);
    let seats = match &req.seats {
        Some(s) => parse_seats(s)?,
        None => vec![Seat::Human; usize::try_from(players.min(255)).unwrap_or(0)],
    };
    let app2 = app.clone();
    let (entry, loaded) = blocking(move || app2.catalog.load(&key).map_err(load_error)).await?;
    let session = blocking(move || {
        Session::from_log(&entry.key, loaded, &req.log, req.turn, seats)
            .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))
    })
    .await?;
    Ok(Json(json!({ "id": app.add(session)? })))
}

/// Lock a game.
fn lock(s: &Mutex<Session>) -> Result<MutexGuard<'_, Session>, ApiError> {
    s.lock().map_err(|_| ApiError::internal())
}

/// Run `f` off the async workers (engine work: loading a variant, an agent's search).
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::internal())?
}

/// Run `f` on game `id`, locked, off the async workers (an agent may hold the game for a
/// while: its search runs under the lock).
async fn in_game<T: Send + 'static>(
    app: &App,
    id: &str,
    f: impl FnOnce(&mut Session) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let session = app.game(id)?;
    blocking(move || f(&mut *lock(&session)?)).await
}

/// A `?since=` query.
#[derive(Deserialize)]
pub struct Since {
    #[serde(default)]
    since: usize,
}

/// `GET /api/games/{id}?since=K`: the state, events from the `K`-th on.
pub async fn game_state(
    State(app): Shared,
    Path(id): Path<String>,
    Query(q): Query<Since>,
) -> Result<Json<Value>, ApiError> {
    let gid = id.clone();
    in_game(&app, &id, move |s| Ok(Json(view::state(&gid, s, q.since)))).await
}

/// `GET /api/games/{id}/defs`: the drawings of every tile of the game's variant (SVG `<g>`s).
pub async fn game_defs(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let loaded = in_game(&app, &id, |s| Ok(s.loaded.clone())).await?;
    let defs = blocking(move || Ok(view::defs(&loaded))).await?;
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        defs,
    )
        .into_response())
}

/// `POST /api/games/{id}/act` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Act {
    action: Action,
}

/// `POST /api/games/{id}/act`: a person's decision (checked by the engine; a refused one is
/// 409 with the engine's reason and rule).
pub async fn act(
    State(app): Shared,
    Path(id): Path<String>,
    Body(req): Body<Act>,
) -> Result<Json<Value>, ApiError> {
    in_game(&app, &id, move |s| {
        s.act(req.action).map_err(ApiError::conflict)?;
        Ok(Json(json!({ "ok": true })))
    })
    .await
}

/// `POST /api/games/{id}/step`: the agent whose decision it is decides once.
pub async fn step(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    in_game(&app, &id, |s| {
        if !s.agent_to_act() {
            return Err(ApiError::conflict("no agent's decision is due"));
        }
        Ok(Json(json!({ "stepped": s.step() })))
    })
    .await
}

/// `POST /api/games/{id}/undo`: take back the last decision of a person.
pub async fn undo(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    in_game(&app, &id, |s| {
        s.undo().map_err(ApiError::conflict)?;
        Ok(Json(json!({ "ok": true })))
    })
    .await
}

/// `GET /api/games/{id}/log`: the game's log, as a file to save.
pub async fn log(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (key, text) = in_game(&app, &id, |s| Ok((s.key.clone(), s.log()))).await?;
    let name = format!("attachment; filename=\"{}.jsonl\"", file_stem(&key));
    let kind = "application/x-ndjson; charset=utf-8".to_string();
    let headers = [
        (header::CONTENT_TYPE, kind),
        (header::CONTENT_DISPOSITION, name),
    ];
    Ok((headers, text).into_response())
}

/// `GET /api/games/{id}/replay`: the game so far in the HTML replay viewer (`tegula replay
/// --html`'s page).
pub async fn replay(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let html = in_game(&app, &id, |s| {
        let names = view::seat_names(&s.seats);
        let title = format!("{} — {}", s.key, s.game.rules().ruleset().name);
        tegula_render::html::replay_html(&title, &s.game, &s.loaded.drawings, &names)
            .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))
    })
    .await?;
    Ok(axum::response::Html(html).into_response())
}

/// A variant key as a file name (`house/farms-4` → `farms-4`).
fn file_stem(key: &str) -> String {
    key.rsplit('/').next().unwrap_or(key).to_string()
}

/// `GET /api/games/{id}/scenario`: the position as a scenario with a `[setup] board`, and the
/// log it reads.
pub async fn scenario(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let key = in_game(&app, &id, |s| Ok(s.key.clone())).await?;
    let variant_file = app
        .catalog
        .find(&key)
        .map_or(key, |e| export::variant_ref(&e.path, &e.file));
    in_game(&app, &id, move |s| {
        let stem = format!("{}-turn-{}", file_stem(&s.key), s.game.turn());
        let log_name = format!("{stem}.jsonl");
        Ok(Json(json!({
            "scenario_name": format!("{stem}.toml"),
            "scenario": export::scenario_text(s, &variant_file, &log_name),
            "log_name": log_name,
            "log": s.log(),
        })))
    })
    .await
}

/// `GET /api/watch`: author mode's latest check (404 without `--watch`).
pub async fn watch(State(app): Shared) -> Result<Json<Value>, ApiError> {
    let w = app.watch.as_ref().ok_or_else(|| {
        ApiError::not_found("author mode is off (start the server with --watch DIR)")
    })?;
    let r = w.report.read().map_err(|_| ApiError::internal())?;
    Ok(Json(json!({
        "generation": r.generation,
        "report": r.json,
        "sheet": r.sheet,
    })))
}
