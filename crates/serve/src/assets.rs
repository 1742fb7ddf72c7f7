//! The page: one HTML file, one script module and one style sheet, built into the binary (no
//! file is read to answer them, so no path of a request reaches the disk).

use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

use crate::app::ApiError;

const INDEX: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// The page (setup, play and author mode: the script shows the part the URL asks for).
pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `/assets/NAME`: the script and the style sheet; anything else is 404.
pub async fn asset(Path(name): Path<String>) -> Result<Response, ApiError> {
    let (kind, body) = match name.as_str() {
        "app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "app.css" => ("text/css; charset=utf-8", APP_CSS),
        _ => return Err(ApiError::not_found(format!("no asset `{name}`"))),
    };
    // Checked again on every load, so that a newer tegula's page is never mixed with an old one.
    let headers = [
        (header::CONTENT_TYPE, kind),
        (header::CACHE_CONTROL, "no-cache"),
    ];
    Ok((headers, body).into_response())
}
