//! A WASI command, a valid component of another world: the registry must refuse it as not
//! implementing quire:converter.
fn main() {
    println!("I am not a converter");
}
