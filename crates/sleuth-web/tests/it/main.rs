//! sleuth-web's integration tests: the API over real HTTP (including bad
//! and hostile requests) and the page in a real headless Chromium.

mod api;
mod e2e;
mod safe;
mod schema;
mod store;
mod support;
mod what_if;
