//! From numbers to pixels, without a browser: colour maps, heatmap rasters at display
//! resolution, line envelopes, and plotters charts generic over their drawing backend.

pub mod charts;
pub mod colormap;
pub mod envelope;
pub mod heatmap;
pub mod raster;
/// Dense series as bands (in `pe-kernels`: built for speed).
pub use pe_kernels::spans;
