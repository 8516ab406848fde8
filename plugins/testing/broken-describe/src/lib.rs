//! A component that implements the converter world but traps in `describe`: installing it
//! must be refused and leave the active version in place.

use quire_sdk::{Converter, PluginInfo};

struct BrokenDescribe;

impl Converter for BrokenDescribe {
    fn describe() -> PluginInfo {
        panic!("describe is broken on purpose")
    }
}

quire_sdk::export_converter!(BrokenDescribe);
