//! The serde seeds that read an item of the list straight into its cells
//! ([`ItemSeed`]), and [`Check`], which reads the parts not kept (a list in
//! a cell, a wrapper's other values, items past the limit) as serde reads
//! a document, depth included.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Number, Value};

use super::DEEP;
use crate::points::read::Cell;

/// An item of the list: an object's keys and cells in order, or what else
/// it is, in words.
pub(super) enum Item<'a> {
    Object(Vec<(Cow<'a, str>, JsonCell<'a>)>),
    Other(&'static str),
}

/// A value in an item, borrowed from the text where it can be.
pub(super) enum JsonCell<'a> {
    Empty,
    Text(Cow<'a, str>),
    Num(f64),
    Object(Map<String, Value>),
    Other(&'static str),
}

impl JsonCell<'_> {
    pub(super) fn cell(&self) -> Cell<'_> {
        match self {
            JsonCell::Empty => Cell::Empty,
            JsonCell::Text(s) => Cell::of_text(s),
            JsonCell::Num(x) => Cell::Num(*x),
            JsonCell::Object(m) => Cell::Object(m),
            JsonCell::Other(what) => Cell::Other(what),
        }
    }
}

/// One more level opened in a value that had `room`: the room inside it,
/// or our depth check's error.
fn enter<E: de::Error>(room: usize) -> Result<usize, E> {
    room.checked_sub(1).ok_or_else(|| E::custom(DEEP))
}

/// Reads an item, with `room` levels to open.
#[derive(Clone, Copy)]
pub(super) struct ItemSeed {
    pub(super) room: usize,
}

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Item<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed {
    type Value = Item<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item<'de>, A::Error> {
        let room = enter(self.room)?;
        let mut cells = Vec::new();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            cells.push((k, map.next_value_seed(CellSeed { room })?));
        }
        Ok(Item::Object(cells))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Item<'de>, A::Error> {
        Check::skip(self.room).visit_seq(seq)?;
        Ok(Item::Other("a list"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Item<'de>, E> {
        Ok(Item::Other("a string"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Item<'de>, E> {
        Ok(Item::Other("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Item<'de>, E> {
        Ok(Item::Other("a number"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Item<'de>, E> {
        Ok(Item::Other("a number"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Item<'de>, E> {
        Ok(Item::Other("true or false"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Item<'de>, E> {
        Ok(Item::Other("null"))
    }
}

/// Reads an item's value, with `room` levels to open.
#[derive(Clone, Copy)]
struct CellSeed {
    room: usize,
}

impl<'de> DeserializeSeed<'de> for CellSeed {
    type Value = JsonCell<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<JsonCell<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CellSeed {
    type Value = JsonCell<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Text(Cow::Borrowed(s)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Text(Cow::Owned(s.to_string())))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Num(x))
    }
    // As serde_json's `Value::as_f64` reads integers.
    #[allow(clippy::cast_precision_loss)]
    fn visit_u64<E: de::Error>(self, x: u64) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Num(x as f64))
    }
    #[allow(clippy::cast_precision_loss)]
    fn visit_i64<E: de::Error>(self, x: i64) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Num(x as f64))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Other("true or false"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Empty)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<JsonCell<'de>, A::Error> {
        Check::skip(self.room).visit_seq(seq)?;
        Ok(JsonCell::Other("a list"))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<JsonCell<'de>, A::Error> {
        let inner = Check {
            room: enter(self.room)?,
            keep: true,
        };
        inner.entries(map).map(JsonCell::Object)
    }
}

/// Reads a value whole as serde reads a document (numbers in range,
/// strings' escapes valid, depth within `room` levels), kept as a
/// [`Value`] when `keep` (else `Value::Null`, and nothing is built).
#[derive(Clone, Copy)]
pub(super) struct Check {
    room: usize,
    keep: bool,
}

impl Check {
    /// A check that keeps nothing.
    pub(super) fn skip(room: usize) -> Check {
        Check { room, keep: false }
    }

    /// An object's entries, each value read with this check.
    fn entries<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Map<String, Value>, A::Error> {
        let mut out = Map::new();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            let v = map.next_value_seed(self)?;
            if self.keep {
                out.insert(k.into_owned(), v);
            }
        }
        Ok(out)
    }

    /// `v`, when kept.
    fn kept(self, v: impl FnOnce() -> Value) -> Value {
        if self.keep {
            v()
        } else {
            Value::Null
        }
    }
}

impl<'de> DeserializeSeed<'de> for Check {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(self.kept(|| Value::String(s.to_string())))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Value, E> {
        Ok(self.kept(|| Number::from_f64(x).map_or(Value::Null, Value::Number)))
    }
    fn visit_u64<E: de::Error>(self, x: u64) -> Result<Value, E> {
        Ok(self.kept(|| Value::from(x)))
    }
    fn visit_i64<E: de::Error>(self, x: i64) -> Result<Value, E> {
        Ok(self.kept(|| Value::from(x)))
    }
    fn visit_bool<E: de::Error>(self, x: bool) -> Result<Value, E> {
        Ok(self.kept(|| Value::Bool(x)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = Check {
            room: enter(self.room)?,
            ..self
        };
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(inner)? {
            if self.keep {
                out.push(v);
            }
        }
        Ok(self.kept(|| Value::Array(out)))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        let inner = Check {
            room: enter(self.room)?,
            ..self
        };
        let m = inner.entries(map)?;
        Ok(self.kept(|| Value::Object(m)))
    }
}

/// An object's key, borrowed from the text when it has no escapes.
pub(super) struct Key<'a>(pub(super) Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}
