//! One module per view, over the shared widgets.

pub mod common;
pub mod rope;
pub mod scaling;
pub mod sinusoidal;
