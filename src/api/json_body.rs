//! Request bodies: a JSON object, read by `web::Json` (its limits and errors, `api::error`), with
//! one rule more: a body whose schema is an object must be an object. serde's derived structs
//! also accept an array of their fields in order (`[]` would be a `TicketRequest` with no game),
//! which the document does not allow; the body's top level is read as a map only.

use std::future::Future;
use std::pin::Pin;

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use serde::de::{Deserialize, DeserializeOwned, Deserializer, Visitor};

/// A JSON request body that is an object (see the module's comment).
pub struct JsonObject<T>(pub T);

impl<T> JsonObject<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for JsonObject<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonObject<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let read = web::Json::<Object<T>>::from_request(req, payload);
        Box::pin(async move { read.await.map(|body| JsonObject(body.into_inner().0)) })
    }
}

/// `T`, read from a JSON object only.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(ObjectsOnly(deserializer)).map(Object)
    }
}

/// A deserializer whose structs come from maps only: `deserialize_struct` (which serde_json
/// answers from `{...}` or `[...]`) becomes `deserialize_map` (`{...}` only).
struct ObjectsOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectsOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::Object;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Ticket {
        #[serde(default)]
        game_id: Option<i64>,
    }

    #[test]
    fn a_struct_is_read_from_an_object_only() {
        let read = |text: &str| serde_json::from_str::<Object<Ticket>>(text).map(|o| o.0);
        assert_eq!(read("{}").unwrap(), Ticket { game_id: None });
        assert_eq!(
            read(r#"{"game_id": 5}"#).unwrap(),
            Ticket { game_id: Some(5) }
        );
        for bad in ["[]", "[5]", "5", "null", "\"x\""] {
            let e = read(bad).unwrap_err();
            assert!(e.is_data(), "{bad}: {e}");
        }
        // What serde alone would have taken.
        assert!(serde_json::from_str::<Ticket>("[]").is_ok());
    }
}
