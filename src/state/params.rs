//! Typed parameters: their ranges and defaults, and the rules that turn any text into a valid
//! value plus, when something was adjusted, a notice that says what and why.

/// What was adjusted while reading the URL, shown to the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub param: String,
    pub message: String,
}

/// At most this many notices are kept; the rest are counted.
pub const MAX_NOTICES: usize = 20;

/// The notices of one parse, bounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notices {
    pub items: Vec<Notice>,
    pub more: usize,
}

impl Notices {
    pub fn push(&mut self, param: &str, message: String) {
        if self.items.len() < MAX_NOTICES {
            self.items.push(Notice {
                param: shorten(param, 40),
                message,
            });
        } else {
            self.more += 1;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.more == 0
    }
}

pub use crate::format::shorten;

/// An integer control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub min: i64,
    pub max: i64,
    pub default: i64,
    pub unit: &'static str,
}

/// A real-valued control, optionally on a log scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub min: f64,
    pub max: f64,
    pub default: f64,
    pub log: bool,
    pub unit: &'static str,
}

impl IntSpec {
    /// Clamps to `[min, max]`.
    pub fn clamp(&self, v: i64) -> i64 {
        v.clamp(self.min, self.max)
    }

    /// Reads a value: absent gives the default silently; anything else that is not an integer
    /// in range is rounded or clamped, with a notice.
    pub fn read(&self, raw: Option<&str>, notices: &mut Notices) -> i64 {
        // A range narrowed by another control may exclude the nominal default.
        let default = self.clamp(self.default);
        let Some(raw) = raw else {
            return default;
        };
        let Some(v) = crate::format::parse_decimal(raw) else {
            notices.push(
                self.name,
                format!("“{}” is not a number; using {}.", shorten(raw, 24), default),
            );
            return default;
        };
        let rounded = v.round();
        let clamped = rounded.clamp(self.min as f64, self.max as f64) as i64;
        if clamped as f64 != v {
            notices.push(
                self.name,
                format!(
                    "{} must be a whole number from {} to {}; {} became {}.",
                    self.label,
                    self.min,
                    self.max,
                    shorten(raw.trim(), 24),
                    clamped
                ),
            );
        }
        clamped
    }
}

impl FloatSpec {
    pub fn clamp(&self, v: f64) -> f64 {
        if v.is_nan() {
            self.default
        } else {
            v.clamp(self.min, self.max)
        }
    }

    /// Reads a value, clamping with a notice.
    pub fn read(&self, raw: Option<&str>, notices: &mut Notices) -> f64 {
        let Some(raw) = raw else {
            return self.default;
        };
        let Some(v) = crate::format::parse_decimal(raw) else {
            notices.push(
                self.name,
                format!(
                    "“{}” is not a number; using {}.",
                    shorten(raw, 24),
                    self.default
                ),
            );
            return self.default;
        };
        let clamped = self.clamp(v);
        if clamped != v {
            notices.push(
                self.name,
                format!(
                    "{} must be from {} to {}; {} became {}.",
                    self.label,
                    self.min,
                    self.max,
                    shorten(raw.trim(), 24),
                    clamped
                ),
            );
        }
        clamped
    }
}

/// Reads one of a fixed set of names.
pub fn read_choice<T: Copy>(
    name: &str,
    raw: Option<&str>,
    options: &[(&str, T)],
    default: T,
    notices: &mut Notices,
) -> T {
    let Some(raw) = raw else {
        return default;
    };
    let wanted = raw.trim().to_ascii_lowercase();
    if let Some((_, v)) = options.iter().find(|(n, _)| *n == wanted) {
        return *v;
    }
    let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
    notices.push(
        name,
        format!(
            "“{}” is not one of {}; using the default.",
            shorten(raw, 24),
            names.join(", ")
        ),
    );
    default
}

/// Reads a comma-separated list of whole numbers in `[0, max]`, at most `max_len` of them,
/// dropping duplicates and whatever is not a valid entry (with one notice).
pub fn read_index_list(
    name: &str,
    raw: &str,
    max: usize,
    max_len: usize,
    notices: &mut Notices,
) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    let mut rejected = 0usize;
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<usize>() {
            Ok(v) if v <= max && out.len() < max_len => {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            _ => rejected += 1,
        }
        if rejected > 10_000 {
            break;
        }
    }
    if rejected > 0 {
        notices.push(
            name,
            format!(
                "kept {} entr{}; dropped {rejected} (whole numbers from 0 to {max} only, at most {max_len}).",
                out.len(),
                if out.len() == 1 { "y" } else { "ies" },
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: IntSpec = IntSpec {
        name: "n",
        label: "N",
        min: 1,
        max: 10,
        default: 4,
        unit: "",
    };

    #[test]
    fn ints_clamp_round_and_explain() {
        let mut notes = Notices::default();
        assert_eq!(N.read(None, &mut notes), 4);
        assert_eq!(N.read(Some("7"), &mut notes), 7);
        assert!(notes.is_empty());
        assert_eq!(N.read(Some("99"), &mut notes), 10);
        assert_eq!(N.read(Some("2.6"), &mut notes), 3);
        assert_eq!(N.read(Some("NaN"), &mut notes), 4);
        assert_eq!(N.read(Some("-1e308"), &mut notes), 1);
        assert_eq!(notes.items.len(), 4);
    }

    #[test]
    fn notices_are_bounded() {
        let mut notes = Notices::default();
        for _ in 0..100 {
            notes.push("x", "y".into());
        }
        assert_eq!(notes.items.len(), MAX_NOTICES);
        assert_eq!(notes.more, 100 - MAX_NOTICES);
    }

    #[test]
    fn index_lists_drop_bad_entries() {
        let mut notes = Notices::default();
        assert_eq!(
            read_index_list("cols", "3, 1,3,x,99", 10, 8, &mut notes),
            vec![3, 1]
        );
        assert_eq!(notes.items.len(), 1);
    }
}

/// Adds `item` to a chosen subset `list` of `order` (keeping `order`'s order), or removes it
/// when it is there and not the last one left: the toggle of a list of checkboxes.
pub fn toggle_in_order<T: Copy + PartialEq>(list: &mut Vec<T>, item: T, order: &[T]) {
    if let Some(at) = list.iter().position(|x| *x == item) {
        if list.len() > 1 {
            list.remove(at);
        }
    } else {
        list.push(item);
        *list = order.iter().copied().filter(|x| list.contains(x)).collect();
    }
}

#[cfg(test)]
mod toggle_tests {
    use super::toggle_in_order;

    #[test]
    fn toggling_keeps_the_order_and_one_item() {
        let order = [1, 2, 3, 4];
        let mut list = vec![3];
        toggle_in_order(&mut list, 1, &order);
        toggle_in_order(&mut list, 4, &order);
        assert_eq!(list, vec![1, 3, 4]);
        toggle_in_order(&mut list, 3, &order);
        toggle_in_order(&mut list, 1, &order);
        assert_eq!(list, vec![4]);
        toggle_in_order(&mut list, 4, &order);
        assert_eq!(list, vec![4], "the last one stays");
    }
}
