//! Encrypted PDFs: who may open them, and the bytes hayro reads.
//!
//! lopdf decrypts (RC4 40 and 128 bit, AES-128, AES-256 R5 and R6, passwords SASLprep'd)
//! and writes the document back unencrypted; hayro then reads those bytes like any other
//! PDF. hayro alone could open only what the empty password opens (it takes an owner
//! password only for AES-256), and it does not say what a file permits.
//!
//! The decisions, for the contract's 409 and 422:
//! - A file that opens with the empty user password but whose permissions deny copying or
//!   changing it is *locked by restrictions*: refused with [`ConvertError::Locked`] unless
//!   `unlock` is given.
//! - A file that needs a password is refused with [`ConvertError::PasswordRequired`] until the
//!   right one comes in `password`. The holder of the password is trusted with the content:
//!   restrictions on top of the password do not also ask for `unlock`.
//! - `unlock=1` keeps the document intact (decrypted objects: editable text, paths, pictures)
//!   and redraws it only when it cannot be decrypted intact; `unlock=decrypt` refuses rather
//!   than redraw; `unlock=rebuild` always redraws. *Redraw* means the model is made from
//!   rendering each page (every page one picture, as `mode=image`), not from the decrypted
//!   objects.

use lopdf::{Document, LoadOptions, Permissions};
use quire_sdk::{ConvertError, LockInfo, Permissions as Allows};

use super::guarded;

/// What `unlock` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unlock {
    /// Not given: a restricted file is refused.
    No,
    /// `1`: decrypt intact where possible, else redraw.
    Auto,
    /// `decrypt`: decrypt intact or refuse.
    Decrypt,
    /// `rebuild`: always redraw.
    Rebuild,
}

impl Unlock {
    pub fn parse(value: Option<&str>) -> Result<Unlock, ConvertError> {
        let v = value.map(|v| v.trim().to_ascii_lowercase());
        match v.as_deref() {
            None | Some("" | "0" | "false" | "no") => Ok(Unlock::No),
            Some("1" | "true" | "yes") => Ok(Unlock::Auto),
            Some("decrypt") => Ok(Unlock::Decrypt),
            Some("rebuild") => Ok(Unlock::Rebuild),
            Some(other) => Err(ConvertError::InvalidRequest(format!(
                "unlock `{other}` is not understood; use 1, decrypt or rebuild"
            ))),
        }
    }
}

/// The bytes to interpret and how.
#[derive(Debug)]
pub struct Opened {
    /// The original bytes, or the decrypted copy lopdf wrote.
    pub bytes: Vec<u8>,
    /// The password hayro needs for `bytes` (only when it decrypts them itself).
    pub password: String,
    /// Make every page a picture instead of reading its objects.
    pub redraw: bool,
    /// The original bytes, kept when `bytes` is lopdf's copy, so a copy hayro cannot read
    /// can still be redrawn from the original (unless `unlock=decrypt`).
    pub original: Option<Vec<u8>>,
    pub warnings: Vec<String>,
}

/// Whether the bytes name an encryption dictionary at all; cheap, and a false alarm only
/// costs a lopdf load that finds nothing to decrypt.
fn mentions_encrypt(bytes: &[u8]) -> bool {
    bytes.windows(8).any(|w| w == b"/Encrypt")
}

const NEEDS_PASSWORD: &str = "this PDF needs a password to open: send it in the `password` \
                              field or the X-Doc-Password header, with unlock=1";

pub fn open(
    bytes: Vec<u8>,
    password: Option<&str>,
    unlock: Unlock,
) -> Result<Opened, ConvertError> {
    let plain = |bytes: Vec<u8>| Opened {
        bytes,
        password: String::new(),
        redraw: false,
        original: None,
        warnings: Vec::new(),
    };
    if !mentions_encrypt(&bytes) {
        return Ok(plain(bytes));
    }
    let load = |pw: Option<&str>| {
        let options = LoadOptions {
            password: pw.map(str::to_string),
            ..LoadOptions::default()
        };
        guarded(|| Document::load_mem_with_options(&bytes, options))
    };
    let doc = match load(None) {
        Some(Ok(doc)) => doc,
        Some(Err(e)) => return unreadable_encryption(bytes, password, unlock, &e.to_string()),
        None => return unreadable_encryption(bytes, password, unlock, "the reader failed"),
    };
    let (mut doc, needed_password) = if doc.encryption_state.is_some() {
        (doc, false)
    } else if doc.trailer.has(b"Encrypt") {
        let pw = match password {
            Some(pw) if !pw.is_empty() => pw,
            _ => return Err(ConvertError::PasswordRequired(NEEDS_PASSWORD.into())),
        };
        match load(Some(pw)) {
            Some(Ok(doc)) if doc.encryption_state.is_some() => (doc, true),
            Some(Ok(_)) | Some(Err(lopdf::Error::InvalidPassword)) => {
                return Err(ConvertError::PasswordRequired(
                    "the password is wrong: this PDF does not open with it".into(),
                ))
            }
            Some(Err(e)) => {
                return unreadable_encryption(bytes, password, unlock, &e.to_string());
            }
            None => return unreadable_encryption(bytes, password, unlock, "the reader failed"),
        }
    } else {
        // `/Encrypt` was only mentioned (in a content stream, say): not encrypted.
        return Ok(plain(bytes));
    };

    let perms = doc
        .encryption_state
        .as_ref()
        .map(|s| s.permissions())
        .unwrap_or(Permissions::all());
    let allows = Allows {
        print: perms.contains(Permissions::PRINTABLE),
        copy: perms.contains(Permissions::COPYABLE),
        modify: perms.contains(Permissions::MODIFIABLE),
    };
    let restricted = !(allows.copy && allows.modify);
    if restricted && !needed_password && unlock == Unlock::No {
        return Err(ConvertError::Locked(LockInfo {
            opens: true,
            allows,
            detail: format!(
                "this PDF is locked by its owner against {}; post it again with unlock=1 \
                 to remove the restrictions",
                match (allows.copy, allows.modify) {
                    (false, false) => "copying and changing",
                    (false, true) => "copying",
                    _ => "changing",
                }
            ),
        }));
    }

    let mut decrypted = Vec::with_capacity(bytes.len());
    match guarded(|| doc.save_to(&mut decrypted)) {
        Some(Ok(())) => Ok(Opened {
            bytes: decrypted,
            password: String::new(),
            redraw: unlock == Unlock::Rebuild,
            original: (unlock != Unlock::Decrypt).then_some(bytes),
            warnings: Vec::new(),
        }),
        failed => {
            let why = match failed {
                Some(Err(e)) => e.to_string(),
                _ => "the writer failed".into(),
            };
            if unlock == Unlock::Decrypt {
                return Err(ConvertError::Damaged(format!(
                    "this PDF could not be decrypted intact ({why}); unlock=1 or unlock=rebuild \
                     redraws its pages instead"
                )));
            }
            Ok(redrawn(bytes, password))
        }
    }
}

/// The original bytes, for hayro to decrypt itself and draw every page as a picture.
fn redrawn(bytes: Vec<u8>, password: Option<&str>) -> Opened {
    Opened {
        bytes,
        password: password.unwrap_or("").to_string(),
        redraw: true,
        original: None,
        warnings: vec![
            "the PDF could not be decrypted intact, so each page was redrawn as a picture".into(),
        ],
    }
}

/// lopdf could not read the encryption of the file. Its permissions are unknown, so only an
/// explicit `unlock` that allows redrawing goes on (hayro decrypts for itself).
fn unreadable_encryption(
    bytes: Vec<u8>,
    password: Option<&str>,
    unlock: Unlock,
    why: &str,
) -> Result<Opened, ConvertError> {
    match unlock {
        Unlock::Auto | Unlock::Rebuild => Ok(redrawn(bytes, password)),
        Unlock::No | Unlock::Decrypt => Err(ConvertError::Damaged(format!(
            "this PDF is encrypted and its encryption could not be read ({why}); \
             with unlock=1 its pages are redrawn instead"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unlock_values() {
        assert_eq!(Unlock::parse(None).unwrap(), Unlock::No);
        assert_eq!(Unlock::parse(Some("1")).unwrap(), Unlock::Auto);
        assert_eq!(Unlock::parse(Some("Decrypt")).unwrap(), Unlock::Decrypt);
        assert_eq!(Unlock::parse(Some("rebuild")).unwrap(), Unlock::Rebuild);
        assert!(matches!(
            Unlock::parse(Some("please")),
            Err(ConvertError::InvalidRequest(_))
        ));
    }

    #[test]
    fn plain_bytes_pass_untouched() {
        let bytes = b"%PDF-1.4\n1 0 obj << >> endobj\n".to_vec();
        let opened = open(bytes.clone(), None, Unlock::No).unwrap();
        assert_eq!(opened.bytes, bytes);
        assert!(!opened.redraw);
    }
}
