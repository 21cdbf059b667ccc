//! Placeholder until the KIF branch lands: UTF-8, else Shift_JIS.
#![allow(missing_docs)]
use encoding_rs::Encoding;
pub struct Decoded {
    pub text: String,
    pub encoding: &'static Encoding,
    pub warnings: Vec<String>,
}
pub fn decode(bytes: &[u8], forced: Option<&'static Encoding>) -> Result<Decoded, crate::Error> {
    let enc = forced.unwrap_or(if std::str::from_utf8(bytes).is_ok() {
        encoding_rs::UTF_8
    } else {
        encoding_rs::SHIFT_JIS
    });
    let (t, _, _) = enc.decode(bytes);
    Ok(Decoded {
        text: t.into_owned(),
        encoding: enc,
        warnings: vec![],
    })
}
pub fn encoding_by_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.as_bytes())
}
