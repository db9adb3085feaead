//! What every page's link keys are read and written with: the query
//! inside whatever was pasted, split into its parameters, their values read
//! as numbers (`Params`), the notices for what could not be used
//! ([`notice`]), and the keys being written (`LinkOut`). The link codec
//! (`crate::url`) and each page's `link.rs` use them.

pub(crate) mod keys;
pub mod notice;

/// The longest operation notation a link may carry, in characters.
pub const MAX_OP_CHARS: usize = 400;

/// The most parameters [`decode`](fn@crate::url::decode) reads from a link; it ignores
/// the rest, with a notice. The app's own links have about twenty.
pub const MAX_PARAMS: usize = 256;

/// The most notices [`decode`](fn@crate::url::decode) lists; one more notice counts
/// the rest.
pub const MAX_NOTICES: usize = 32;

/// The keys and values of a link being written, in order.
#[derive(Default)]
pub(crate) struct LinkOut(Vec<(String, String)>);

impl LinkOut {
    /// Adds `key=value` (escaped when written).
    pub(crate) fn put(&mut self, key: &str, value: String) {
        self.0.push((key.to_string(), value));
    }

    /// The keys and values written, in order.
    pub(crate) fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
}

/// One distinct key of the query.
pub(crate) struct Param {
    /// Trimmed and lower-cased.
    pub(crate) key: String,
    /// The last value given.
    pub(crate) value: String,
    /// How many times the key appears.
    pub(crate) count: usize,
    /// Index of its last appearance.
    pub(crate) last: usize,
    /// Whether the decoder read it.
    pub(crate) used: bool,
}

/// The keys of a query, in the order of their first appearance. Looked up
/// by a linear search: there are at most [`MAX_PARAMS`], and a hash map
/// would bring std's hasher and its table code into the wasm.
pub(crate) struct Params {
    pub(crate) list: Vec<Param>,
    /// Parameters after the first [`MAX_PARAMS`], not read.
    pub(crate) skipped: usize,
}

impl Params {
    pub(crate) fn read(query: &str) -> Params {
        let mut p = Params {
            list: Vec::new(),
            skipped: 0,
        };
        for (i, (k, v)) in form_urlencoded::parse(query.as_bytes()).enumerate() {
            if i >= MAX_PARAMS {
                p.skipped += 1;
                continue;
            }
            let key = k.trim().to_ascii_lowercase();
            match p.list.iter_mut().find(|e| e.key == key) {
                Some(e) => {
                    e.value = v.into_owned();
                    e.count += 1;
                    e.last = i;
                }
                None => {
                    p.list.push(Param {
                        key,
                        value: v.into_owned(),
                        count: 1,
                        last: i,
                        used: false,
                    });
                }
            }
        }
        p
    }

    /// The value of `key`, marking it read.
    pub(crate) fn take(&mut self, key: &str) -> Option<String> {
        let e = self.list.iter_mut().find(|e| e.key == key)?;
        e.used = true;
        Some(e.value.clone())
    }

    /// `(key, value)` of every key starting with `prefix`, in the order of
    /// their last appearance, marking them read.
    pub(crate) fn take_prefixed(&mut self, prefix: &str) -> Vec<(String, String)> {
        let mut found: Vec<&mut Param> = self
            .list
            .iter_mut()
            .filter(|e| e.key.starts_with(prefix))
            .collect();
        crate::small::sort_small_by(&mut found, |a, b| a.last.cmp(&b.last));
        found
            .into_iter()
            .map(|e| {
                e.used = true;
                (e.key.clone(), e.value.clone())
            })
            .collect()
    }
}

/// The query inside whatever was pasted: a leading `#` or `?` is dropped,
/// and so is everything up to the first `?` when what precedes it has no
/// `=` or `&` (a whole URL); a `#fragment` is cut off.
pub(crate) fn query_part(input: &str) -> &str {
    let mut s = input.trim();
    s = s.strip_prefix('#').unwrap_or(s);
    if let Some(i) = s.find('?') {
        let before = &s[..i];
        // Bytes, not `str::contains`: its char version links the substring
        // searcher (for chars beyond ASCII) into the wasm.
        if !before.bytes().any(|b| b == b'=' || b == b'&') {
            s = &s[i + 1..];
        }
    }
    match s.find('#') {
        Some(i) => &s[..i],
        None => s,
    }
}

/// Why a number could not be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumErr {
    NotNumber,
    NotPositive,
    TooLarge,
    OutOfRange,
}

/// A positive, finite number: plain (`4096`) or with an exponent
/// (`1.97e14`); `_` may separate digits.
pub(crate) fn positive(raw: &str) -> Result<f64, NumErr> {
    let t: String = raw.trim().chars().filter(|c| *c != '_').collect();
    let v = crate::num::parse_f64(&t).ok_or(NumErr::NotNumber)?;
    if v.is_nan() {
        Err(NumErr::NotNumber)
    } else if v <= 0.0 {
        Err(NumErr::NotPositive)
    } else if v.is_infinite() {
        Err(NumErr::TooLarge)
    } else if !crate::input::in_range(v) {
        Err(NumErr::OutOfRange)
    } else {
        Ok(v)
    }
}

/// A whole number (digits, or a number such as `2e3` that is whole).
pub(crate) fn whole(raw: &str) -> Option<u64> {
    let t: String = raw.trim().chars().filter(|c| *c != '_').collect();
    if let Ok(n) = t.parse::<u64>() {
        return Some(n);
    }
    let v = crate::num::parse_f64(&t)?;
    // 2^64 as f64; every whole f64 below it converts exactly.
    if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 18_446_744_073_709_551_616.0 {
        Some(v as u64)
    } else {
        None
    }
}
