#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| quire_fuzz::export_model(data));
