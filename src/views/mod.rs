pub mod sinusoidal;
