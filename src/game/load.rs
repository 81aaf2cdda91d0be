//! Reading the TOML files of a game folder into typed values, with every error located (file, line,
//! column) and rendered with a hint.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::diag::{Diagnostic, FileError, Source};

/// Reads a file as UTF-8 text, naming it in the error.
pub fn read_source(path: &Path, shown_as: &str) -> anyhow::Result<Source> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {shown_as}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = crate::diag::line_col(
            &String::from_utf8_lossy(e.as_bytes()),
            e.utf8_error().valid_up_to(),
        );
        anyhow::anyhow!("{shown_as}:{line}:{col}: not UTF-8 text (save the file as UTF-8)")
    })?;
    Ok(Source::new(shown_as, text))
}

/// `toml::to_string`, in linear time: toml 1.2 ends `to_string` by inserting each nested table into
/// the output one at a time (quadratic in the size of a turn log or state); the serializer's buffer
/// writes the same text in one pass through its `Display`.
pub fn to_toml<T: Serialize + ?Sized>(value: &T) -> Result<String, toml::ser::Error> {
    let mut buffer = toml::ser::Buffer::new();
    value.serialize(toml::ser::Serializer::new(&mut buffer))?;
    Ok(buffer.to_string())
}

/// Parses TOML into `T`; a syntax error, an unknown key or a missing key becomes a located error.
pub fn parse_toml<T: DeserializeOwned>(source: &Source) -> Result<T, FileError> {
    toml::from_str(&source.text).map_err(|e| located(source, &e))
}

/// A TOML document parsed once, to look at its keys before reading it as a type
/// ([`from_document`]): a large file is not parsed a second time.
pub type Document<'s> = toml::Spanned<toml::de::DeTable<'s>>;

/// Parses TOML into its document; a syntax error is located as [`parse_toml`] locates it.
pub fn parse_document(source: &Source) -> Result<Document<'_>, FileError> {
    toml::de::DeTable::parse(&source.text).map_err(|e| located(source, &e))
}

/// Reads a document of `source` ([`parse_document`]) into `T`, with the errors of [`parse_toml`].
pub fn from_document<T: DeserializeOwned>(
    source: &Source,
    document: Document<'_>,
) -> Result<T, FileError> {
    T::deserialize(toml::de::Deserializer::from(document)).map_err(|e| located(source, &e))
}

/// A TOML error as a located error in `source`, with a hint for the common serde messages.
fn located(source: &Source, e: &toml::de::Error) -> FileError {
    let span = e.span().unwrap_or(0..0);
    let message = e.message().to_string();
    let hint = hint_for(&message);
    FileError::new(source, &Diagnostic::error(message, span).maybe_hint(hint))
}

/// A hint for the common serde messages.
fn hint_for(message: &str) -> Option<String> {
    if message.starts_with("unknown field") {
        Some("remove the key or fix its spelling; the expected keys are listed above".into())
    } else if message.starts_with("missing field") {
        Some("add the key to this table".into())
    } else if message.starts_with("unknown variant") {
        Some("use one of the values listed above".into())
    } else {
        None
    }
}

/// The first error of a list of diagnostics as a located error (all of them rendered).
pub fn first_error(source: &Source, diagnostics: &[Diagnostic]) -> Option<FileError> {
    let first = diagnostics.iter().find(|d| d.is_error())?;
    let mut err = FileError::new(source, first);
    err.rendered = source.render(diagnostics);
    Some(err)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    /// Tables nested in arrays of tables, in tables, and empty ones: `to_toml` writes what
    /// `toml::to_string` writes.
    #[test]
    fn to_toml_writes_toml_to_string_s_bytes() {
        #[derive(Serialize)]
        struct Inner {
            n: u32,
            tags: BTreeMap<String, String>,
            deeper: Vec<BTreeMap<String, u32>>,
        }
        #[derive(Serialize)]
        struct Outer {
            name: String,
            empty: BTreeMap<String, u32>,
            #[serde(rename = "item")]
            items: Vec<Inner>,
            last: BTreeMap<String, BTreeMap<String, u32>>,
        }
        for n in [0, 1, 2, 7] {
            let value = Outer {
                name: "x".into(),
                empty: BTreeMap::new(),
                items: (0..n)
                    .map(|i| Inner {
                        n: i,
                        tags: (0..i).map(|k| (format!("k{k}"), format!("v{k}"))).collect(),
                        deeper: (0..i % 3)
                            .map(|k| [(format!("d{k}"), k)].into_iter().collect())
                            .collect(),
                    })
                    .collect(),
                last: (0..n)
                    .map(|i| {
                        (
                            format!("t{i}"),
                            [("a".to_string(), i)].into_iter().collect(),
                        )
                    })
                    .collect(),
            };
            assert_eq!(
                super::to_toml(&value).unwrap(),
                toml::to_string(&value).unwrap()
            );
        }
    }
}
