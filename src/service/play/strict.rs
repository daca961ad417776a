//! serde's internally tagged enums let a unit variant carry any other field: `{"type": "none",
//! "seconds": 5}` reads as the time control `none`, `{"type": "draw_deck", "card": ...}` as
//! `draw_deck`, while their struct variants refuse fields they do not have
//! (`deny_unknown_fields`). Request fields of such types read through [`tagged`], which refuses
//! a unit variant with anything beside its tag: one rule for every body, unknown fields refused.

use serde::de::{DeserializeOwned, Deserializer, Error};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Read a tagged enum, refusing a unit variant that carries fields (see the module's comment).
pub fn tagged<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Serialize,
{
    from_object(Map::<String, Value>::deserialize(deserializer)?)
}

/// [`tagged`] for each item of an optional list.
pub fn tagged_list<'de, D, T>(deserializer: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Serialize,
{
    Option::<Vec<Map<String, Value>>>::deserialize(deserializer)?
        .map(|items| items.into_iter().map(from_object).collect())
        .transpose()
}

fn from_object<T, E>(object: Map<String, Value>) -> Result<T, E>
where
    T: DeserializeOwned + Serialize,
    E: Error,
{
    let fields = object.len();
    let value = T::deserialize(Value::Object(object)).map_err(E::custom)?;
    // A unit variant is written as its tag alone.
    let unit =
        serde_json::to_value(&value).is_ok_and(|v| v.as_object().is_some_and(|o| o.len() == 1));
    if unit && fields > 1 {
        return Err(E::custom(
            "unknown field: this type takes no field beside its tag",
        ));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use crate::engine::DecisionJson;
    use crate::service::correspondence::clocks::TimeControl;

    #[derive(serde::Deserialize, Debug)]
    struct Body {
        #[serde(deserialize_with = "super::tagged")]
        time_control: TimeControl,
        #[serde(deserialize_with = "super::tagged")]
        decision: DecisionJson,
    }

    fn read(time_control: &str, decision: &str) -> Result<Body, serde_json::Error> {
        serde_json::from_str(&format!(
            r#"{{"time_control": {time_control}, "decision": {decision}}}"#
        ))
    }

    #[test]
    fn unit_variants_take_no_other_field() {
        assert!(read(r#"{"type": "none"}"#, r#"{"type": "draw_deck"}"#).is_ok());
        let body = read(
            r#"{"type": "per_turn", "seconds": 3600}"#,
            r#"{"type": "draw_pile", "color": "pink"}"#,
        )
        .unwrap();
        assert_eq!(body.time_control, TimeControl::PerTurn { seconds: 3600 });
        assert!(matches!(
            body.decision,
            crate::engine::DecisionOf::DrawPile { .. }
        ));
        for (time_control, decision) in [
            (
                r#"{"type": "none", "seconds": 5}"#,
                r#"{"type": "draw_deck"}"#,
            ),
            (
                r#"{"type": "none"}"#,
                r#"{"type": "draw_deck", "color": "pink"}"#,
            ),
            (r#"{"type": "none"}"#, r#"{"type": "skip", "x": null}"#),
            (
                r#"{"type": "per_turn", "seconds": 60, "x": 1}"#,
                r#"{"type": "pass"}"#,
            ),
        ] {
            let e = read(time_control, decision).unwrap_err();
            assert!(e.is_data(), "{time_control} {decision}: {e}");
        }
    }
}
