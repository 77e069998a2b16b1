//! The browser layer: app shell, DOM helpers, exports and shared widgets.

pub mod app;
pub mod dom;
pub mod export;
pub mod share;
pub mod widgets;
