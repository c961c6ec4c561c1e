//! ConfigMap and Secret (core `v1`): their `data` (and a Secret's `stringData`), where
//! clusterctl variables live (SPEC §8).
//!
//! A Secret's `data` values are base64; [`DataEntry::text`] decodes them, and says which
//! field holds a value it cannot read. Values are decoded only when asked for: a Secret of
//! certificates costs nothing.

use super::Object;
use super::view::View;
use crate::results::Finding;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// A ConfigMap or Secret as the controller flag reads it.
#[derive(Debug, Clone)]
pub struct ConfigData {
    pub object: Object,
    /// A Secret (else a ConfigMap).
    pub secret: bool,
    /// `data`; `None` when absent or `null`.
    pub data: Option<DataMap>,
    /// A Secret's `stringData`; `None` when absent or `null` (always for a ConfigMap).
    pub string_data: Option<DataMap>,
}

/// A `data` or `stringData` mapping.
#[derive(Debug, Clone)]
pub struct DataMap {
    /// `data` or `stringData`.
    pub field: &'static str,
    /// Values are base64 (a Secret's `data`).
    pub base64: bool,
    /// The entries in written order.
    pub entries: Vec<DataEntry>,
}

/// One entry of a [`DataMap`].
#[derive(Debug, Clone)]
pub struct DataEntry {
    pub key: String,
    /// The value as written: a string as it is, another scalar printed (`false`, `1`);
    /// `None` for a mapping, a list or `null`.
    pub raw: Option<String>,
    /// Whether the value is a YAML string (not a boolean, number, ...).
    pub is_string: bool,
    base64: bool,
}

impl DataEntry {
    /// The value as text: a Secret `data` value decoded from base64. The error says what is
    /// wrong with the value (the caller names the field).
    pub fn text(&self) -> Result<String, String> {
        let Some(raw) = &self.raw else {
            return Err("is not a string".into());
        };
        if !self.base64 {
            return Ok(raw.clone());
        }
        let bytes = STANDARD
            .decode(raw.trim())
            .map_err(|e| format!("is not base64 ({e})"))?;
        String::from_utf8(bytes).map_err(|_| "does not decode to UTF-8 text".into())
    }
}

impl DataMap {
    /// The entry `key`, if written.
    pub fn get(&self, key: &str) -> Option<&DataEntry> {
        self.entries.iter().find(|e| e.key == key)
    }
}

/// `text` as a Secret `data` value.
pub fn encode_base64(text: &str) -> String {
    STANDARD.encode(text.as_bytes())
}

impl ConfigData {
    /// Reads a ConfigMap or Secret; a `data` or `stringData` that is not a mapping is a warning
    /// naming the field, and is left out.
    /// Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, view: View<'_>, findings: &mut Vec<Finding>) -> ConfigData {
        let secret = &*object.kind == "Secret";
        let mut map = |field: &'static str, base64: bool| -> Option<DataMap> {
            let found = view.get(field).filter(|v| !v.is_null())?;
            match found.entries() {
                Some(entries) => Some(DataMap {
                    field,
                    base64,
                    entries: entries
                        .map(|(k, v)| DataEntry {
                            key: k.into_owned(),
                            raw: v.scalar_text(),
                            is_string: v.is_string(),
                            base64,
                        })
                        .collect(),
                }),
                None => {
                    findings.push(
                        Finding::warning(
                            "this field is not a mapping of keys to values; ipreuse does not look \
                             for clusterctl variables in it",
                        )
                        .on(object.resource_ref())
                        .at(field),
                    );
                    None
                }
            }
        };
        let data = map("data", secret);
        let string_data = if secret {
            map("stringData", false)
        } else {
            None
        };
        ConfigData {
            object: object.clone(),
            secret,
            data,
            string_data,
        }
    }

    /// The maps of this object, `stringData` first (the API server lets it win over `data`).
    pub fn maps(&self) -> impl Iterator<Item = &DataMap> {
        self.string_data.iter().chain(self.data.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> (ConfigData, Vec<Finding>) {
        let docs = crate::yaml::parse(yaml).expect("test YAML parses");
        let value = docs[0].root.to_json();
        let object = Object::of_json(crate::model::ItemId(0), &value).expect("an object");
        let mut findings = Vec::new();
        (
            ConfigData::read(&object, View::new(&docs[0].root), &mut findings),
            findings,
        )
    }

    #[test]
    fn secret_data_is_decoded_and_string_data_is_not() {
        let (s, findings) = read(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n\
             data: {A: dHJ1ZQ==, B: 'not base64!'}\nstringData: {C: dHJ1ZQ==}\n",
        );
        assert!(findings.is_empty());
        assert!(s.secret);
        let data = s.data.as_ref().expect("data");
        assert_eq!(data.get("A").map(DataEntry::text), Some(Ok("true".into())));
        assert!(data.get("B").expect("B").text().is_err());
        let string_data = s.string_data.as_ref().expect("stringData");
        assert_eq!(
            string_data.get("C").map(DataEntry::text),
            Some(Ok("dHJ1ZQ==".into()))
        );
        let fields: Vec<&str> = s.maps().map(|m| m.field).collect();
        assert_eq!(fields, ["stringData", "data"]);
    }

    #[test]
    fn config_map_values_that_are_not_strings_are_marked() {
        let (c, findings) = read(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {A: false, B: \"x\", C: [1]}\nstringData: {D: x}\n",
        );
        assert!(findings.is_empty());
        assert!(!c.secret);
        assert!(c.string_data.is_none(), "a ConfigMap has no stringData");
        let data = c.data.expect("data");
        let a = data.get("A").expect("A");
        assert_eq!((a.raw.as_deref(), a.is_string), (Some("false"), false));
        assert_eq!(a.text(), Ok("false".into()));
        assert!(data.get("B").expect("B").is_string);
        assert!(data.get("C").expect("C").text().is_err());
    }

    #[test]
    fn a_data_that_is_not_a_mapping_is_a_warning_naming_it() {
        let (c, findings) = read("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: [a]\n");
        assert!(c.data.is_none());
        assert_eq!(findings.len(), 1);
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("data")
        );
    }

    #[test]
    fn base64_round_trip() {
        assert_eq!(encode_base64("true"), "dHJ1ZQ==");
        // What fill writes into a Secret reads back, through the reader's own decoding, as the
        // text it encoded: every padding length, and text that is not ASCII.
        for text in ["true", "false", "t", "tr", "tru", "", "é—✓"] {
            let encoded = encode_base64(text);
            let (s, findings) = read(&format!(
                "apiVersion: v1\nkind: Secret\nmetadata: {{name: s}}\ndata: {{A: '{encoded}'}}\n"
            ));
            assert!(findings.is_empty());
            let data = s.data.expect("data");
            assert_eq!(
                data.get("A").map(DataEntry::text),
                Some(Ok(text.into())),
                "{encoded}"
            );
        }
    }
}
