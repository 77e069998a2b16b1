//! Browser-only building blocks under the views: the shared context and memo helpers, DOM
//! helpers, export actions, loaded tables and the shared widgets. Nothing here imports a view
//! or the shell.

pub mod canvas;
pub mod chart;
pub mod context;
pub mod controls;
pub mod dom;
pub mod export;
pub mod lazy;
pub mod painter;
pub mod schedule;
pub mod svg;
pub mod tables;
pub mod widgets;
