//! Shared reactive pieces: the app context every view reads, and the memo helpers
//! (`Computed`, `select`, `select_state`) that keep derived data cheap to compile.

use std::any::Any;
use std::marker::PhantomData;
use std::sync::Arc;

use leptos::prelude::*;

use crate::state::AppState;

/// What every part of the UI may read: the state (its home is the URL), the resolved theme,
/// and a tick that changes when the layout does.
#[derive(Clone, Copy)]
pub struct AppCtx {
    pub state: RwSignal<AppState>,
    pub dark: Signal<bool>,
    pub layout_tick: RwSignal<u32>,
    /// Bumped to build the view anew: "Try again" when its code did not arrive, and the lesson
    /// builder when it hides or locks a control (a view reads those once, when it is built).
    pub rebuild: RwSignal<u32>,
}

/// The one way an effect writes a signal other than the state: only when the value changed (an
/// unchanged value wakes nothing), and never a signal the effect itself reads (that would
/// loop). A chart's paint effect publishes what it painted (its name, its plotting area) and
/// `schedule::at_rest` its value this way; an effect that changes the state goes through
/// [`go_to_state`]. Loads (a lesson file, the MiniLM table) are resources, never started by
/// an effect or a memo.
pub fn publish<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|v| *v != value) {
        signal.set(value);
    }
}

/// Replaces the whole state with `next`, which may show another view. The view is switched
/// first and the rest of the state follows a frame later: changing both at once would wake the
/// old view's effects on values that its removal has just disposed.
pub fn go_to_state(state: RwSignal<AppState>, next: AppState) {
    if state.with_untracked(|s| s.view == next.view) {
        state.set(next);
        return;
    }
    state.update(|s| s.view = next.view);
    request_animation_frame(move || state.set(next));
}

/// A lazily computed, cached value that updates when what it reads changes: a [`Memo`] whose
/// value is type-erased, so that the reactive machinery is compiled once for every value type
/// and every closure (each `Memo<T>` type and each memo closure otherwise adds its own copy,
/// about a kilobyte each). Like a memo, an unchanged result does not wake what depends on it.
pub struct Computed<T: 'static> {
    memo: Memo<Erased>,
    _value: PhantomData<fn() -> T>,
}

impl<T> Clone for Computed<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Computed<T> {}

/// A value of any type, with the equality of that type.
#[derive(Clone)]
struct Erased {
    value: Arc<dyn Any + Send + Sync>,
    eq: fn(&dyn Any, &dyn Any) -> bool,
}

impl PartialEq for Erased {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.value, &other.value) || (self.eq)(&*self.value, &*other.value)
    }
}

fn same<T: PartialEq + 'static>(a: &dyn Any, b: &dyn Any) -> bool {
    a.downcast_ref::<T>() == b.downcast_ref::<T>()
}

type Producer = Arc<dyn Fn() -> Erased + Send + Sync>;

fn erased_memo(produce: Producer) -> Memo<Erased> {
    Memo::new(move |_| produce())
}

fn never_same(_: &dyn Any, _: &dyn Any) -> bool {
    false
}

impl<T: PartialEq + Send + Sync + 'static> Computed<T> {
    /// A value compared with the last one: small values derived from big state, where an
    /// unchanged result should not wake what depends on it.
    pub fn new(compute: impl Fn() -> T + Send + Sync + 'static) -> Self {
        Self::with_eq(compute, same::<T>)
    }
}

impl<T: Send + Sync + 'static> Computed<T> {
    /// A value never compared: large data recomputed only when its inputs change, where a
    /// comparison would cost as much as the work it saves.
    pub fn fresh(compute: impl Fn() -> T + Send + Sync + 'static) -> Self {
        Self::with_eq(compute, never_same)
    }

    fn with_eq(
        compute: impl Fn() -> T + Send + Sync + 'static,
        eq: fn(&dyn Any, &dyn Any) -> bool,
    ) -> Self {
        Computed {
            memo: erased_memo(Arc::new(move || Erased {
                value: Arc::new(compute()),
                eq,
            })),
            _value: PhantomData,
        }
    }

    fn value(e: &Erased) -> &T {
        // Only `new` makes the value, always of type T.
        e.value
            .downcast_ref::<T>()
            .expect("Computed holds its own type")
    }

    /// Subscribes to the value without reading it.
    pub fn track(&self) {
        self.memo.track();
    }

    /// Reads the value and subscribes to it.
    pub fn with<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        self.memo.with(|e| read(Self::value(e)))
    }

    /// Reads the value without subscribing.
    pub fn with_untracked<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        self.memo.with_untracked(|e| read(Self::value(e)))
    }

    pub fn get(&self) -> T
    where
        T: Clone,
    {
        self.with(T::clone)
    }

    pub fn get_untracked(&self) -> T
    where
        T: Clone,
    {
        self.with_untracked(T::clone)
    }
}

/// A memo of one part of another memo, built from a plain function: every use with the same
/// types shares one copy of the memo code (closures would each add their own).
pub fn select<S, T>(source: Memo<S>, part: fn(&S) -> T) -> Memo<T>
where
    S: Send + Sync + 'static,
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| source.with(part))
}

/// [`select`] for the application state.
pub fn select_state<T>(state: RwSignal<AppState>, part: fn(&AppState) -> T) -> Memo<T>
where
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| state.with(part))
}

type Work = Arc<dyn Fn(&Erased) -> Arc<dyn Any + Send + Sync> + Send + Sync>;

/// A value computed from a key (a small [`Computed`] value: a slice of the state), only when
/// it is read. Unlike a memo, a change of the key does not compute it: a chart that depends on
/// it is told it is stale (the key is all that is compared), and the work runs when the chart
/// paints. A memo is recomputed as soon as anything that depends on it is checked, so a chart
/// out of sight paid for its data in the frame of every slider move. The last value is kept
/// (type-erased: one copy of the code for every key and value type).
pub struct Keyed<T: 'static> {
    key: Memo<Erased>,
    cache: KeyedCache,
    work: StoredValue<Work>,
    _value: PhantomData<fn() -> T>,
}

impl<T> Clone for Keyed<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Keyed<T> {}

impl<T: Send + Sync + 'static> Keyed<T> {
    /// `work` must depend on nothing but the key (it runs untracked).
    pub fn new<K: Send + Sync + 'static>(
        key: Computed<K>,
        work: impl Fn(&K) -> T + Send + Sync + 'static,
    ) -> Self {
        let work: Work = Arc::new(move |k| Arc::new(work(Computed::<K>::value(k))));
        Keyed {
            key: key.memo,
            cache: StoredValue::new(None),
            work: StoredValue::new(work),
            _value: PhantomData,
        }
    }

    /// Reads the value (computing it if its key moved) and subscribes to the key.
    pub fn with<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        let v = keyed_value(self.cache, self.work, self.key.get());
        read(v.downcast_ref::<T>().expect("Keyed holds its own type"))
    }

    /// Reads the value without subscribing.
    pub fn with_untracked<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        let v = keyed_value(self.cache, self.work, self.key.get_untracked());
        read(v.downcast_ref::<T>().expect("Keyed holds its own type"))
    }

    pub fn get(&self) -> T
    where
        T: Clone,
    {
        self.with(T::clone)
    }

    /// Whether the value for the current key is computed already (subscribes to the key).
    pub fn ready(&self) -> bool {
        let key = self.key.get();
        self.cache
            .with_value(|c| c.as_ref().is_some_and(|(k, _)| *k == key))
    }
}

type KeyedCache = StoredValue<Option<(Erased, Arc<dyn Any + Send + Sync>)>>;

/// The cached value for `key`, or the work's result for it (kept): one copy of this code for
/// every [`Keyed`] type.
fn keyed_value(
    cache: KeyedCache,
    work: StoredValue<Work>,
    key: Erased,
) -> Arc<dyn Any + Send + Sync> {
    let hit = cache.with_value(|c| {
        c.as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| Arc::clone(v))
    });
    hit.unwrap_or_else(|| {
        let work = work.get_value();
        let v = untrack(|| work(&key));
        cache.set_value(Some((key, Arc::clone(&v))));
        v
    })
}

/// Applies figure `index` of the Figures menu: its state (keeping the theme, the embed and
/// whether controls show), and its source in `shown`. (In the chunk `extras`, with the
/// figures' sources and queries.)
pub fn apply_figure(
    index: usize,
    state: RwSignal<AppState>,
    shown: RwSignal<Option<crate::state::figures::Figure>>,
) {
    let f =
        crate::state::figures::FIGURES[index.min(crate::state::figures::FIGURE_NAMES.len() - 1)];
    let (mut next, _) = AppState::from_query(f.query);
    state.with_untracked(|s| {
        next.theme = s.theme;
        next.embed = s.embed;
        next.show_controls = s.show_controls;
    });
    go_to_state(state, next);
    shown.set(Some(f));
}

/// The panels a lesson step shows (provided by the lesson frame around its view).
#[derive(Clone, Debug)]
pub struct LessonPanels(pub Vec<&'static str>);

/// Charts for presenter mode: text and lines scaled up (provided as an `Option` by the lesson
/// frame: `Some` in presenter mode). Their height there is the lesson's CSS: what fits.
#[derive(Clone, Copy, Debug)]
pub struct ChartPresentation {
    pub text_scale: f64,
}

/// Whether a panel is shown (`panel=ID` shows one; a lesson step shows its own).
pub fn panel_visible(id: &str) -> bool {
    if let Some(LessonPanels(panels)) = use_context::<LessonPanels>() {
        return panels.contains(&id);
    }
    use_context::<AppCtx>().is_none_or(|ctx| {
        ctx.state
            .with_untracked(|s| s.panel.as_deref().is_none_or(|p| p == id))
    })
}
