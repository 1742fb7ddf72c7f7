//! The web application: shared state, the routes, and the guard every request passes (the
//! `Host` it names, the origin of writes), and errors as `4xx` answers with a message.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::catalog::Catalog;
use crate::session::Session;
use crate::watch::Watch;
use crate::{api, assets};

/// Largest request body (a game log to load is the largest thing sent).
pub const MAX_BODY: usize = 4 << 20;
/// Most games kept at once; a new one replaces the one left alone longest.
pub const MAX_GAMES: usize = 32;

/// A game and when it was last used.
pub struct Slot {
    /// The game.
    pub session: Arc<Mutex<Session>>,
    /// Its last use.
    pub touched: Instant,
}

/// What every request handler shares.
pub struct App {
    /// The variants that can be played.
    pub catalog: Catalog,
    /// The games, by id.
    pub games: Mutex<HashMap<String, Slot>>,
    /// The `Host` values requests may name (`127.0.0.1:PORT`, `localhost:PORT`).
    pub hosts: Vec<String>,
    /// Author mode's folder and report.
    pub watch: Option<Arc<Watch>>,
    /// Makes game ids.
    counter: AtomicU64,
}

impl App {
    /// The state of a server answering on loopback port `port`.
    pub fn new(catalog: Catalog, port: u16, watch: Option<Arc<Watch>>) -> App {
        App {
            catalog,
            games: Mutex::new(HashMap::new()),
            hosts: vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")],
            watch,
            counter: AtomicU64::new(0),
        }
    }

    /// Keep `session` under a new id (replacing the game left alone longest when full).
    pub fn add(&self, session: Session) -> Result<String, ApiError> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let id = format!("g{n}-{nanos:08x}");
        let mut games = self.games.lock().map_err(|_| ApiError::internal())?;
        if games.len() >= MAX_GAMES {
            let oldest = (games.iter())
                .min_by_key(|(_, s)| s.touched)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                games.remove(&k);
            }
        }
        let slot = Slot {
            session: Arc::new(Mutex::new(session)),
            touched: Instant::now(),
        };
        games.insert(id.clone(), slot);
        Ok(id)
    }

    /// The game `id`.
    pub fn game(&self, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
        let mut games = self.games.lock().map_err(|_| ApiError::internal())?;
        let slot = games.get_mut(id).ok_or_else(|| {
            ApiError::not_found(format!(
                "no game `{id}` (it may have ended: at most {MAX_GAMES} are kept)"
            ))
        })?;
        slot.touched = Instant::now();
        Ok(slot.session.clone())
    }
}

/// A refused request: its status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    /// 400 with `why`.
    pub fn bad(why: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, why.into())
    }
    /// 404 with `why`.
    pub fn not_found(why: impl Into<String>) -> ApiError {
        ApiError(StatusCode::NOT_FOUND, why.into())
    }
    /// 409 (the move does not fit the game's state) with `why`.
    pub fn conflict(why: impl Into<String>) -> ApiError {
        ApiError(StatusCode::CONFLICT, why.into())
    }
    /// 500: a lock poisoned by a panic elsewhere.
    pub fn internal() -> ApiError {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server's state is damaged; restart it".into(),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// A JSON body whose rejections are [`ApiError`]s: malformed JSON 400, a body over
/// [`MAX_BODY`] 413, not JSON 415.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(e) => {
                let status = match &e {
                    JsonRejection::JsonDataError(_) | JsonRejection::JsonSyntaxError(_) => {
                        StatusCode::BAD_REQUEST
                    }
                    other => other.status(),
                };
                Err(ApiError(status, e.body_text()))
            }
        }
    }
}

/// The guard: a request must name this server in `Host` (a page of another site that a DNS
/// name was turned towards loopback names that site), and a write must come from this
/// server's own pages (`Origin`, `Sec-Fetch-Site`).
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if let Err(e) = check_request(&app, req.method(), req.headers()) {
        return e.into_response();
    }
    next.run(req).await
}

/// Why a request is refused by the guard, if it is.
fn check_request(app: &App, method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !app.hosts.iter().any(|h| h == host) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!(
                "refused: Host `{host}` is not this server (it answers {} only)",
                app.hosts.join(", ")
            ),
        ));
    }
    if method == Method::GET || method == Method::HEAD {
        return Ok(());
    }
    let cross = |why: String| Err(ApiError(StatusCode::FORBIDDEN, why));
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if origin != format!("http://{host}") {
            return cross(format!("refused: a write from another origin (`{origin}`)"));
        }
    }
    let site = headers.get("sec-fetch-site").and_then(|h| h.to_str().ok());
    if let Some(site @ ("cross-site" | "same-site")) = site {
        return cross(format!(
            "refused: a write from another site (Sec-Fetch-Site: {site})"
        ));
    }
    Ok(())
}

/// The routes (every one behind the guard, bodies bounded).
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/play", get(assets::index))
        .route("/author", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/variants", get(api::variants))
        .route("/api/variant", get(api::variant))
        .route("/api/rule", get(api::rule))
        .route("/api/games", post(api::new_game))
        .route("/api/games/load", post(api::load_game))
        .route("/api/games/{id}", get(api::game_state))
        .route("/api/games/{id}/defs", get(api::game_defs))
        .route("/api/games/{id}/act", post(api::act))
        .route("/api/games/{id}/step", post(api::step))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/log", get(api::log))
        .route("/api/games/{id}/replay", get(api::replay))
        .route("/api/games/{id}/scenario", get(api::scenario))
        .route("/api/watch", get(api::watch))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}
