//! The HTTP side: the page, a JSON API over the session, and a stream of
//! server-sent events that carries the state whenever it changes.
//!
//! Guards: a request whose `Host` is not one of the server's own names, or
//! whose `Origin` is not the server's own, is refused (another web page
//! cannot drive the GUI, and DNS rebinding gets nowhere); so is one with
//! two `Host` or two `Origin` headers, and one whose target names a host
//! (absolute form, where that host governs, RFC 9112) other than this
//! server; bodies are size-limited and requests time-limited; malformed
//! JSON and SGF get a clear error and change nothing.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::WatchStream;

use super::engines::{STOPPED, Shared};
use oddity_rules::internals::{Escaped, quoted};
use oddity_session::{NAMES, catalogue};

/// The largest JSON request body.
pub const JSON_LIMIT: usize = 16 * 1024;
/// The largest SGF upload.
pub const SGF_LIMIT: usize = 512 * 1024;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

pub struct App {
    pub shared: Arc<Shared>,
    /// `host:port` spellings this server answers to, lower case.
    pub authorities: Vec<String>,
}

pub fn router(app: Arc<App>) -> Router {
    let mut json_routes = Router::new();
    for name in NAMES {
        json_routes = json_routes.route(
            &format!("/api/{name}"),
            post(
                move |State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>| async move {
                    request(&app, name, body)
                },
            ),
        );
    }
    let json_routes = json_routes.layer(DefaultBodyLimit::max(JSON_LIMIT));
    let sgf_routes = Router::new()
        .route("/api/sgf", get(download_sgf).post(upload_sgf))
        .layer(DefaultBodyLimit::max(SGF_LIMIT));
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/games", get(|| async { axum::Json(catalogue()) }))
        .route("/api/state", get(state))
        .route("/api/events", get(events))
        .merge(json_routes)
        .merge(sgf_routes)
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-store"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
                 frame-ancestors 'none'",
            ),
            (header::X_FRAME_OPTIONS, "DENY"),
        ],
        body,
    )
        .into_response()
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = serde_json::json!({ "error": message.into() });
    (status, axum::Json(body)).into_response()
}

/// Why the guard refuses a request: not addressed to this server by one of
/// its names, or made by another origin.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("request refused: more than one {0} header")]
    TwoHeaders(&'static str),
    #[error("request refused: the target {} is not this server", quoted(&.0.to_string()))]
    OtherTarget(Uri),
    #[error("request refused: no Host header")]
    NoHost,
    #[error("request refused: Host {} is not this server's address", quoted(.0))]
    OtherHost(String),
    #[error("request refused: Origin {} is not this server", quoted(.0))]
    OtherOrigin(String),
}

impl AddressError {
    /// The status the refusal is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            AddressError::TwoHeaders(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::FORBIDDEN,
        }
    }
}

/// Refuses requests not addressed to this server by its own name, and
/// requests made by other origins; ends requests that take too long.
async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if let Err(why) = check_request(&app.authorities, request.uri(), request.headers()) {
        log::warn!(
            "refused {} {}: {why}",
            request.method(),
            request.uri().path()
        );
        return error(why.status(), why.to_string());
    }
    if request.uri().path() == "/api/events" {
        return next.run(request).await;
    }
    match tokio::time::timeout(super::server::REQUEST_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => error(
            StatusCode::REQUEST_TIMEOUT,
            "the request took too long to arrive",
        ),
    }
}

/// `Ok` when the request is addressed to one of `authorities` and made by
/// this server's own page (or by no page); else why not.
/// The address is the target's when it names one (absolute form), else
/// the one `Host` header's.
pub fn check_request(
    authorities: &[String],
    target: &Uri,
    headers: &HeaderMap,
) -> Result<(), AddressError> {
    for (name, label) in [(header::HOST, "Host"), (header::ORIGIN, "Origin")] {
        if headers.get_all(name).iter().count() > 1 {
            return Err(AddressError::TwoHeaders(label));
        }
    }
    if let Some(authority) = target.authority() {
        let named = authority.as_str().to_ascii_lowercase();
        if target.scheme_str() != Some("http") || !authorities.contains(&named) {
            return Err(AddressError::OtherTarget(target.clone()));
        }
    }
    check_origin(authorities, headers)
}

/// `Ok` when `Host` is one of `authorities` and `Origin`, if sent, is
/// `http://` and one of them.
pub fn check_origin(authorities: &[String], headers: &HeaderMap) -> Result<(), AddressError> {
    let text =
        |v: Option<&HeaderValue>| v.and_then(|v| v.to_str().ok()).map(str::to_ascii_lowercase);
    let host = text(headers.get(header::HOST)).ok_or(AddressError::NoHost)?;
    if !authorities.contains(&host) {
        return Err(AddressError::OtherHost(host));
    }
    if let Some(origin) = text(headers.get(header::ORIGIN)) {
        let own = origin
            .strip_prefix("http://")
            .is_some_and(|a| authorities.iter().any(|x| x == a));
        if !own {
            return Err(AddressError::OtherOrigin(origin));
        }
    }
    Ok(())
}

/// A refused request: its status and the reason.
struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

/// A request body that cannot be read: too large, or cut short.
impl From<BytesRejection> for Refusal {
    fn from(e: BytesRejection) -> Refusal {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            Refusal(
                status,
                format!("request body larger than {JSON_LIMIT} bytes"),
            )
        } else {
            Refusal(status, e.body_text())
        }
    }
}

fn state_json(app: &App) -> String {
    let s = app.shared.lock();
    serde_json::to_string(&s.state()).expect("the state serialises")
}

async fn state(State(app): State<Arc<App>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        state_json(&app),
    )
        .into_response()
}

/// The state now and after every change, as `state` events.
async fn events(State(app): State<Arc<App>>) -> impl IntoResponse {
    let changes = WatchStream::new(app.shared.subscribe());
    let stream = changes
        .take_while(|v| *v != STOPPED)
        .map(move |_| Ok::<_, Infallible>(Event::default().event("state").data(state_json(&app))));
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// Request `name` of the session's API with its JSON body: `{"ok":true}`,
/// or a preview; a body that does not parse is refused (400), and so is a
/// change the session refuses (409), changing nothing.
fn request(app: &App, name: &str, body: Result<Bytes, BytesRejection>) -> Response {
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(e) => return Refusal::from(e).into_response(),
    };
    let request = match oddity_session::Request::read(name, &bytes) {
        Ok(r) => r,
        Err(why) => return error(StatusCode::BAD_REQUEST, why.to_string()),
    };
    match app.shared.update(|s| s.answer(request)) {
        Ok(answer) => ([(header::CONTENT_TYPE, "application/json")], answer.json()).into_response(),
        Err(why) => error(StatusCode::CONFLICT, why.to_string()),
    }
}

async fn download_sgf(State(app): State<Arc<App>>) -> Response {
    let text = app.shared.lock().sgf();
    (
        [
            (header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"oddity-game.sgf\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

/// Why the query of an SGF upload cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum GameQueryError {
    #[error("unknown query {}: only game=K is understood", quoted(.0))]
    Unknown(String),
    #[error("game={}: give the number of a game in the file, from 1", Escaped(.0))]
    BadNumber(String),
}

/// The game of a collection asked for by `?game=K` (from 1; default 1).
fn game_number(query: Option<&str>) -> Result<usize, GameQueryError> {
    let Some(query) = query.filter(|q| !q.is_empty()) else {
        return Ok(1);
    };
    let value = query
        .strip_prefix("game=")
        .ok_or_else(|| GameQueryError::Unknown(query.to_string()))?;
    match value.parse::<usize>() {
        Ok(k) if k >= 1 => Ok(k),
        _ => Err(GameQueryError::BadNumber(value.to_string())),
    }
}

async fn upload_sgf(
    State(app): State<Arc<App>>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let game = match game_number(uri.query()) {
        Ok(k) => k,
        Err(why) => return error(StatusCode::BAD_REQUEST, why.to_string()),
    };
    let bytes = match body {
        Ok(b) => b,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("SGF file larger than {SGF_LIMIT} bytes"),
            );
        }
        Err(e) => return error(e.status(), e.body_text()),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return error(StatusCode::BAD_REQUEST, "the SGF file is not UTF-8 text");
    };
    match app.shared.update(|s| s.load_sgf(text, game)) {
        Ok(games) => axum::Json(serde_json::json!({ "ok": true, "game": game, "games": games }))
            .into_response(),
        Err(why) => error(StatusCode::BAD_REQUEST, why.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn host_and_origin_must_be_our_own() {
        let own = vec!["127.0.0.1:8080".to_string(), "localhost:8080".to_string()];
        assert!(check_origin(&own, &headers(&[(header::HOST, "127.0.0.1:8080")])).is_ok());
        assert!(
            check_origin(
                &own,
                &headers(&[
                    (header::HOST, "LOCALHOST:8080"),
                    (header::ORIGIN, "http://localhost:8080")
                ])
            )
            .is_ok()
        );
        assert!(check_origin(&own, &headers(&[])).is_err());
        assert!(check_origin(&own, &headers(&[(header::HOST, "evil.example:8080")])).is_err());
        assert!(
            check_origin(
                &own,
                &headers(&[
                    (header::HOST, "127.0.0.1:8080"),
                    (header::ORIGIN, "http://evil.example")
                ])
            )
            .is_err()
        );
        assert!(
            check_origin(
                &own,
                &headers(&[(header::HOST, "127.0.0.1:8080"), (header::ORIGIN, "null")])
            )
            .is_err()
        );
    }
}
