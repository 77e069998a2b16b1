//! One module per view, over the shared widgets.

pub mod attention;
pub mod bias;
pub mod common;
pub mod compare;
pub mod learned;
pub mod rope;
pub mod scaling;
pub mod sinusoidal;
