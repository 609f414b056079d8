//! End-to-end tests in headless Chromium.
