//! A serde deserializer over a JSON value whose leaves are strings (a parsed
//! query string, route parameters, a form body): strings become numbers,
//! booleans, chars, unit variants or one-element sequences when the target
//! type asks for them, as `serde_qs` and axum's `Query` do.

use serde::de::value::{Error, StrDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

/// Deserializes from a value, coercing strings.
#[derive(Clone, Copy)]
pub(crate) struct Coerce<'de>(pub &'de Value);

fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => n
            .as_f64()
            .map_or(Unexpected::Other("number"), Unexpected::Float),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

impl<'de> Coerce<'de> {
    /// A scalar target reading a one-member object (`{"id": "7"}` as `u32`:
    /// a route with one parameter) reads that member.
    fn scalar(self) -> Coerce<'de> {
        match self.0 {
            Value::Object(m) if m.len() == 1 => Coerce(m.values().next().unwrap_or(self.0)),
            _ => self,
        }
    }

    /// The key of a one-member object read as a scalar: errors name it.
    fn lone_key(self) -> Option<&'de str> {
        match self.0 {
            Value::Object(m) if m.len() == 1 => m.keys().next().map(String::as_str),
            _ => None,
        }
    }

    fn text(self) -> Option<&'de str> {
        match self.scalar().0 {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

macro_rules! parse_number {
    ($($method:ident => $visit:ident: $ty:ty),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let key = self.lone_key();
            keyed(key, match self.text() {
                Some(s) => match s.trim().parse::<$ty>() {
                    Ok(n) => visitor.$visit(n),
                    Err(_) => Err(de::Error::invalid_value(Unexpected::Str(s), &visitor)),
                },
                None => self.scalar().0.deserialize_any(visitor).map_err(de::Error::custom),
            })
        }
    )*};
}

impl<'de> Deserializer<'de> for Coerce<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => visitor.visit_seq(Seq(items.iter())),
            Value::Object(m) => visitor.visit_map(Members::new(m)),
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            other => other.deserialize_any(visitor).map_err(de::Error::custom),
        }
    }

    parse_number! {
        deserialize_i8 => visit_i8: i8,
        deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32,
        deserialize_i64 => visit_i64: i64,
        deserialize_i128 => visit_i128: i128,
        deserialize_u8 => visit_u8: u8,
        deserialize_u16 => visit_u16: u16,
        deserialize_u32 => visit_u32: u32,
        deserialize_u64 => visit_u64: u64,
        deserialize_u128 => visit_u128: u128,
        deserialize_f32 => visit_f32: f32,
        deserialize_f64 => visit_f64: f64,
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let key = self.lone_key();
        keyed(
            key,
            match self.text() {
                Some("true") => visitor.visit_bool(true),
                Some("false") => visitor.visit_bool(false),
                Some(s) => Err(de::Error::invalid_value(Unexpected::Str(s), &visitor)),
                None => match self.scalar().0 {
                    Value::Bool(b) => visitor.visit_bool(*b),
                    other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
                },
            },
        )
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let s = self.text();
        let mut chars = s.unwrap_or("").chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => visitor.visit_char(c),
            _ => Err(de::Error::invalid_value(
                unexpected(self.scalar().0),
                &visitor,
            )),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.scalar().0 {
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Number(n) => visitor.visit_string(n.to_string()),
            Value::Bool(b) => visitor.visit_string(b.to_string()),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            // `?page=` leaves an optional field out rather than failing on "".
            Value::Null => visitor.visit_none(),
            Value::String(s) if s.is_empty() => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::String(s) if s.is_empty() => visitor.visit_unit(),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Seq(items.iter())),
            // qs makes an object of an array with gaps past its limit.
            Value::Object(m) if m.keys().all(|k| k.parse::<u32>().is_ok()) => {
                let mut items: Vec<(u32, &Value)> =
                    m.iter().map(|(k, v)| (k.parse().unwrap_or(0), v)).collect();
                crate::http::sort::sort_by_key(&mut items, |(k, _)| *k);
                let values: Vec<&Value> = items.into_iter().map(|(_, v)| v).collect();
                visitor.visit_seq(Seq(values.into_iter()))
            }
            Value::Object(_) => Err(de::Error::invalid_type(Unexpected::Map, &visitor)),
            // `?tag=a` read as a list of one.
            one => visitor.visit_seq(Seq(std::slice::from_ref(one).iter())),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(m) => visitor.visit_map(Members::new(m)),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // A string names a unit variant, also as the only route parameter.
        if let Value::String(s) = self.scalar().0 {
            return keyed(self.lone_key(), visitor.visit_enum(UnitVariant(s)));
        }
        match self.0 {
            Value::Object(m) if m.len() == 1 => {
                let (k, v) = m.iter().next().ok_or_else(|| de::Error::custom("empty"))?;
                visitor.visit_enum(Variant(k, Coerce(v)))
            }
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! { bytes byte_buf identifier }
}

/// An error of a scalar read from a one-member object names the member.
fn keyed<T>(key: Option<&str>, r: Result<T, Error>) -> Result<T, Error> {
    match key {
        Some(k) => r.map_err(|e| de::Error::custom(format!("field `{k}`: {e}"))),
        None => r,
    }
}

struct Seq<I>(I);

impl<'de, I: Iterator<Item = &'de Value>> SeqAccess<'de> for Seq<I> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0
            .next()
            .map(|v| seed.deserialize(Coerce(v)))
            .transpose()
    }
}

struct Members<'de> {
    iter: serde_json::map::Iter<'de>,
    value: Option<&'de Value>,
}

impl<'de> Members<'de> {
    fn new(m: &'de Map<String, Value>) -> Members<'de> {
        Members {
            iter: m.iter(),
            value: None,
        }
    }
}

impl<'de> MapAccess<'de> for Members<'de> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                let key: StrDeserializer<'_, Error> = k.as_str().into_deserializer();
                seed.deserialize(key).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let v = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("value without a key"))?;
        seed.deserialize(Coerce(v))
    }
}

struct UnitVariant<'de>(&'de str);

impl<'de> EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let name: StrDeserializer<'_, Error> = self.0.into_deserializer();
        Ok((seed.deserialize(name)?, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _v: V) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}

struct Variant<'de>(&'de str, Coerce<'de>);

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = Error;
    type Variant = Coerce<'de>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Coerce<'de>), Error> {
        let name: StrDeserializer<'_, Error> = self.0.into_deserializer();
        Ok((seed.deserialize(name)?, self.1))
    }
}

impl<'de> VariantAccess<'de> for Coerce<'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(v)
    }
}
