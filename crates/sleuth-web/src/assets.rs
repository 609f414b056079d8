//! The page: one HTML file, one script and one style sheet, embedded in
//! the binary with `include_str!` (no build step, no network).

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("../assets/index.html");
const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/style.css");

/// The page's content security policy: nothing from elsewhere.
const CSP: &str =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INDEX,
    )
}

/// `GET /app.js`.
pub async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], SCRIPT)
}

/// `GET /style.css`.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], STYLE)
}
