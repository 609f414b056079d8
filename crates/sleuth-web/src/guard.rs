//! The checks every request passes before a handler sees it: the access
//! token (when the server listens beyond loopback), the `Host` header
//! (against DNS rebinding), the `Origin` header (no other site may call the
//! API), and a JSON content type on requests with a body (so that a plain
//! HTML form on another site cannot post to the API).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The cookie that carries the access token after the first page load.
pub const TOKEN_COOKIE: &str = "sleuth_token";
/// The header that carries the access token for API calls.
pub const TOKEN_HEADER: &str = "x-sleuth-token";

/// What the guard needs to know.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The access token; `None` on loopback without `--listen`.
    pub token: Option<String>,
}

/// A refusal, as JSON `{"error": ...}`.
pub fn refuse(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

/// The middleware.
pub async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return refuse(StatusCode::BAD_REQUEST, "missing Host header");
    };
    if !host_allowed(host) {
        return refuse(StatusCode::FORBIDDEN, "unexpected Host header (use the address the server printed)");
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let same = origin.to_str().is_ok_and(|o| o == format!("http://{host}"));
        if !same {
            return refuse(StatusCode::FORBIDDEN, "cross-origin requests are refused");
        }
    }
    if headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()).is_some_and(|s| s == "cross-site") {
        return refuse(StatusCode::FORBIDDEN, "cross-origin requests are refused");
    }
    let mut set_cookie = None;
    if let Some(token) = &guard.token {
        // The URL's token first: a phone that joined an earlier run of the
        // server still sends that run's cookie, and the new link must let
        // it in (and replace the cookie). Any one right token is enough.
        let right = |g: &str| same_secret(g.as_bytes(), token.as_bytes());
        let query_token = query_param(req.uri().query().unwrap_or(""), "token");
        let by_query = query_token.as_deref().is_some_and(right);
        let by_header = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()).is_some_and(right);
        let by_cookie = cookies(headers, TOKEN_COOKIE).any(|c| right(&c));
        if !(by_query || by_header || by_cookie) {
            return refuse(StatusCode::UNAUTHORIZED, "missing or wrong access token (open the URL the server printed)");
        }
        if by_query {
            set_cookie = Some(format!("{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"));
        }
    }
    if matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH) {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json")));
        if !json {
            return refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON (Content-Type: application/json)",
            );
        }
    }
    let mut response = next.run(req).await;
    if let Some(c) = set_cookie.and_then(|c| c.parse().ok()) {
        response.headers_mut().insert(header::SET_COOKIE, c);
    }
    let h = response.headers_mut();
    h.insert("x-content-type-options", "nosniff".parse().expect("static header"));
    h.insert("referrer-policy", "no-referrer".parse().expect("static header"));
    h.insert("x-frame-options", "DENY".parse().expect("static header"));
    response
}

/// A Host is allowed when it is an IP address or `localhost`, with a port:
/// a DNS name could be rebound to 127.0.0.1 by another site.
fn host_allowed(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        Some((n, port)) if port.bytes().all(|b| b.is_ascii_digit()) => n,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name == "localhost" || name.parse::<std::net::IpAddr>().is_ok()
}

/// Every value of cookie `name` (a browser may send two of one name).
fn cookies<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = String> + 'a {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).filter_map(
        move |kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == name).then(|| v.to_string())
        },
    )
}

fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

/// Compares secrets in time independent of where they differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A random access token: 32 hex digits from the OS's generator.
pub fn new_token() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert!(host_allowed("127.0.0.1:8080"));
        assert!(host_allowed("localhost:1"));
        assert!(host_allowed("[::1]:80"));
        assert!(host_allowed("192.168.1.20:7878"));
        assert!(!host_allowed("evil.example:8080"));
        assert!(!host_allowed("127.0.0.1.evil.example"));
    }

    #[test]
    fn secrets() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"abcd"));
        assert_eq!(new_token().len(), 32);
        assert_eq!(query_param("a=1&token=xy", "token").as_deref(), Some("xy"));
    }
}
