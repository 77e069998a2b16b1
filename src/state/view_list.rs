//! The one list of views ([`for_each_view!`]) and the [`View`] enum it declares. A leaf of the
//! state: `app` (one field per view), `registry` (the table of views) and `views` (the modules
//! and their loading) follow the list.

/// The views of PE Lab, in navigation order (the order of the source material: why, then
/// how). One line per view:
///
/// `Variant module StateType Component chunk,`
///
/// - `Variant`: its [`View`];
/// - `module`: its folder `views/<module>`, its `view=` name and its field of [`AppState`];
/// - `StateType`: its state, in `views::<module>::state` (with `ABOUT`, `read` and `write`);
/// - `Component`: its page, in `views::<module>` (browser only);
/// - `chunk`: `first` for the view that comes with the first download (the default view),
///   otherwise the name of its split point, fetched when the view first opens.
///
/// Adding a view: its folder, and its line here.
macro_rules! for_each_view {
    ($then:ident) => {
        $then! {
            Attention attention AttentionState AttentionView attention_view,
            Sinusoidal sinusoidal SinusoidalState SinusoidalView first,
            Learned learned LearnedState LearnedView learned_view,
            Rope rope RopeState RopeView rope_view,
            Scaling scaling ScalingState ScalingView scaling_view,
            Bias bias BiasState BiasView bias_view,
            Compare compare CompareState CompareView compare_view,
            Precision precision PrecisionState PrecisionView precision_view,
            Models models ModelsState ModelsView models_view,
            Train train TrainQuery TrainView train_view,
        }
    };
}
pub(crate) use for_each_view;

/// Whether a view's `chunk` in [`for_each_view!`] is `first`.
macro_rules! is_first {
    (first) => {
        true
    };
    ($chunk:ident) => {
        false
    };
}

/// Declares [`View`] from [`for_each_view!`].
macro_rules! view_enum {
    ($($variant:ident $module:ident $state:ident $component:ident $chunk:ident,)*) => {
        /// The views of PE Lab, in navigation order. Everything else about a view (name,
        /// title, panels, state) is in its entry of [`VIEWS`], at the same index.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum View {
            $($variant,)*
        }

        impl View {
            /// Every view, in navigation order.
            pub const ALL: [View; [$(View::$variant),*].len()] = [$(View::$variant),*];
        }

        impl Default for View {
            /// The view of the first download.
            fn default() -> View {
                $(if is_first!($chunk) {
                    return View::$variant;
                })*
                View::ALL[0]
            }
        }
    };
}

for_each_view!(view_enum);
